package grocery_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

func sourceFiles(names ...string) []grocery.SourceFile {
	var out []grocery.SourceFile
	for _, n := range names {
		path := filepath.Join("..", "publicdata", "testdata", n)
		out = append(out, grocery.SourceFile{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	return out
}

// TestImportSourceHammer imports the Project Hammer fixtures and asks every
// query of them: the imported data answers as the demo's does.
func TestImportSourceHammer(t *testing.T) {
	ctx := context.Background()
	s := MustOpen(t)
	rep, err := s.ImportSource(ctx, "hammer", sourceFiles("hammer-4-product.csv", "hammer-4-raw.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stores.New != 6 || rep.Stores.Skipped != 0 {
		t.Errorf("stores: got %d new, %d skipped (%v), want 6, 0", rep.Stores.New, rep.Stores.Skipped, rep.Stores.Problems)
	}
	if rep.Observations.New != 12 || rep.Observations.Skipped != 0 {
		t.Errorf("observations: got %d new, %d skipped (%v), want 12, 0", rep.Observations.New, rep.Observations.Skipped, rep.Observations.Problems)
	}
	if len(rep.Summary.Gaps) != 1 || rep.Summary.Attribution == "" {
		t.Errorf("summary: got gaps %v, attribution %q, want one gap and an attribution", rep.Summary.Gaps, rep.Summary.Attribution)
	}

	t.Run("Lookup", func(t *testing.T) {
		res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: "066800000152", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Product.Name != "2% Milk" || len(res.Offers) != 1 || res.Offers[0].Banner != "voila" {
			t.Errorf("got %+v, want 2%% Milk offered by voila", res)
		}
	})
	t.Run("Search", func(t *testing.T) {
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: "jasmine rice", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 1 || res.Results[0].Banner != "t-and-t" {
			t.Errorf("got %+v, want the T&T rice", res)
		}
	})
	t.Run("HistorySKUOnly", func(t *testing.T) {
		// A product without a valid barcode is found by its vendor SKU.
		res, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "L3003", Banner: "loblaws", Province: "ON", Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != 2 || res.UPC != "" {
			t.Errorf("got %d points, upc %q, want 2 points and no upc", len(res.Points), res.UPC)
		}
	})
	t.Run("HistoryPromo", func(t *testing.T) {
		res, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: "TT2002", Banner: "t-and-t", Province: "ON", Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		last := res.Points[len(res.Points)-1]
		if last.Median != 1999 || res.Points[0].Median != 2199 {
			t.Errorf("got %+v, want 21.99 then 19.99 (on promotion)", res.Points)
		}
	})
	t.Run("Again", func(t *testing.T) {
		rep, err := s.ImportSource(ctx, "hammer", sourceFiles("hammer-4-product.csv", "hammer-4-raw.csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Observations.New != 0 || rep.Observations.Unchanged != 12 {
			t.Errorf("got %d new, %d unchanged, want 0, 12", rep.Observations.New, rep.Observations.Unchanged)
		}
	})
	t.Run("StatCanBeside", func(t *testing.T) {
		rep, err := s.ImportSource(ctx, "statcan", sourceFiles("18100245.csv"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Benchmarks != 4 {
			t.Errorf("got %d benchmark points, want 4 (%+v)", rep.Benchmarks, rep.Summary.NotMapped)
		}
		geo, err := s.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: "066800000152"})
		if err != nil {
			t.Fatal(err)
		}
		if len(geo.Provinces) != 1 || geo.Provinces[0].Province != "ON" {
			t.Errorf("got provinces %+v, want ON", geo.Provinces)
		}
		want := []grocery.GeoBenchmark{
			{Series: grocery.BenchmarkSeriesName, Province: "CA", Product: "Milk, 4 litres", Month: "2025-06", Price: 641},
			{Series: grocery.BenchmarkSeriesName, Province: "ON", Product: "Milk, 4 litres", Month: "2025-08", Price: 639},
		}
		if len(geo.Benchmarks) != 2 || geo.Benchmarks[0] != want[0] || geo.Benchmarks[1] != want[1] || geo.BenchmarkNote != grocery.BenchmarkCaveat {
			t.Errorf("got %+v (%q), want %+v with the caveat", geo.Benchmarks, geo.BenchmarkNote, want)
		}
	})
}
