package grocery

import (
	"context"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/publicdata"
	"github.com/grocerydata/grocery/storage"
)

// BenchmarkSeriesName names the Statistics Canada series wherever an
// answer shows it.
const BenchmarkSeriesName = "Statistics Canada monthly average"

// BenchmarkCaveat is Statistics Canada's warning about its averages,
// shown with them.
const BenchmarkCaveat = publicdata.StatCanCaveat

// GeoBenchmark is Statistics Canada's latest monthly average price of a
// product of the same type in a province (table 18-10-0245-01), shown
// beside the panel's own prices: a benchmark, not an observation.
type GeoBenchmark struct {
	Series   string `json:"series"`   // BenchmarkSeriesName
	Province string `json:"province"` // a province code, or "CA" for Canada
	Product  string `json:"product"`  // as StatCan names it, e.g. "Milk, 2 litres"
	Month    string `json:"month"`    // YYYY-MM
	Price    Cents  `json:"price"`
}

// putBenchmarks stores StatCan's series in one transaction and returns
// how many points it holds now.
func (s *Service) putBenchmarks(ctx context.Context, bs []publicdata.Benchmark) (int, error) {
	if s.replica != nil {
		return 0, Errorf(EINVALIDARGUMENT, "this server is a read-only replica: import on the ingest node")
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	err := s.db.Update(func(tx *storage.Tx) error {
		for _, b := range bs {
			if _, err := tx.PutBenchmark(&storage.Benchmark{Province: b.Province, Product: b.Product, Month: b.Month, UOM: b.UOM, Cents: uint64(b.Cents)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, s.writeFailed("statcan", err, -1)
	}
	s.dataWritten() // the analytics that show them answer anew
	return len(bs), nil
}

// benchmarksFor returns, per province, StatCan's latest month of each
// product whose kind matches kind (a product type or category): every
// word of StatCan's product name before its first comma ("White bread")
// is a word of kind ("white bread", "sliced white bread").
func benchmarksFor(tx *storage.Tx, kind string) ([]GeoBenchmark, error) {
	have := tokens(kind)
	if len(have) == 0 {
		return nil, nil
	}
	latest := map[[2]string]GeoBenchmark{}
	var keys [][2]string
	err := tx.ForEachBenchmark("", func(b *storage.Benchmark) error {
		head, _, _ := strings.Cut(b.Product, ",")
		want := tokens(head)
		if len(want) == 0 {
			return nil
		}
		for _, w := range want {
			if !slices.Contains(have, w) {
				return nil
			}
		}
		k := [2]string{b.Province, b.Product}
		cur, ok := latest[k]
		if !ok {
			keys = append(keys, k)
		}
		if !ok || b.Month > cur.Month {
			latest[k] = GeoBenchmark{Series: BenchmarkSeriesName, Province: b.Province, Product: b.Product, Month: b.Month, Price: Cents(b.Cents)}
		}
		return nil
	})
	var out []GeoBenchmark
	for _, k := range keys {
		out = append(out, latest[k])
	}
	slices.SortFunc(out, func(a, b GeoBenchmark) int {
		if c := strings.Compare(a.Product, b.Product); c != 0 {
			return c
		}
		return strings.Compare(a.Province, b.Province)
	})
	return out, err
}
