package grocery_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// The benchmarks run on the large demo data set (about ten million
// observations). It is built once into benchPath and reused; set
// GROCERY_BENCH_DB to keep it elsewhere, or delete the file to rebuild it.
// BenchmarkDemoLarge always rebuilds it and reports the build figures.

var benchAsOf = grocery.Date(20776) // 2026-11-19

func benchPath() string {
	if p := os.Getenv("GROCERY_BENCH_DB"); p != "" {
		return p
	}
	return filepath.Join(os.TempDir(), "grocery-bench-large.db")
}

// benchPreload says whether the benchmarks open the file as a server
// does, with Options.Preload: GROCERY_BENCH_PRELOAD=1. A first call (a
// run of -benchtime 1x) is then a server's first request of its kind.
func benchPreload() bool { return os.Getenv("GROCERY_BENCH_PRELOAD") == "1" }

// largeService opens the large data set read-only, building it first if
// it is missing.
func largeService(b *testing.B) *grocery.Service {
	b.Helper()
	if testing.Short() {
		b.Skip("large data set: not in -short mode")
	}
	path := benchPath()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		b.Logf("building the large data set in %s (once)", path)
		if _, err := grocery.BuildDemo(context.Background(), path, &grocery.DemoOptions{Scale: "large", AsOf: benchAsOf}); err != nil {
			b.Fatal(err)
		}
	}
	s, err := grocery.Open(path, &grocery.Options{ReadOnly: true, Preload: benchPreload()})
	if grocery.ErrorCode(err) == grocery.EINVALIDARGUMENT {
		// A set built by an older format: build it anew.
		b.Logf("rebuilding %s: %s", path, grocery.ErrorMessage(err))
		if _, err := grocery.BuildDemo(context.Background(), path, &grocery.DemoOptions{Scale: "large", AsOf: benchAsOf, Force: true}); err != nil {
			b.Fatal(err)
		}
		s, err = grocery.Open(path, &grocery.Options{ReadOnly: true, Preload: benchPreload()})
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func sampleOffers(b *testing.B, s *grocery.Service) []grocery.OfferSample {
	b.Helper()
	samples, err := grocery.SampleOffers(s, "ON", 1000)
	if err != nil || len(samples) == 0 {
		b.Fatalf("no offers to benchmark with: %v", err)
	}
	return samples
}

// timed runs op b.N times, timing each call, and reports the median and
// 99th percentile alongside the mean that ns/op gives.
func timed(b *testing.B, op func(i int) error) {
	b.Helper()
	durs := make([]time.Duration, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := grocery.CPUTime()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		durs[i] = time.Since(start)
	}
	cpu := grocery.CPUTime() - c0
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(durs[len(durs)*99/100].Nanoseconds()), "p99-ns")
}

func BenchmarkLookupProduct(b *testing.B) {
	s := largeService(b)
	samples := sampleOffers(b, s)
	ctx := context.Background()
	timed(b, func(i int) error {
		res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: samples[i%len(samples)].UPC, Province: "ON", Limit: grocery.Some(10)})
		if err == nil && len(res.Offers) == 0 {
			err = errors.New("a sampled offer's product has no offers")
		}
		return err
	})
}

func BenchmarkSearchProducts(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	queries := []string{"milk", "cheese", "chips", "bread", "coffee", "yogurt", "ice cream", "natrel", "pc", "chicken", "juice", "crème"}
	hits := 0
	timed(b, func(i int) error {
		res, err := s.SearchProducts(ctx, grocery.SearchInput{Query: queries[i%len(queries)], Province: "ON", Limit: grocery.Some(10)})
		if err == nil {
			hits += len(res.Results)
		}
		return err
	})
	if hits == 0 {
		b.Fatal("no query matched anything: the benchmark measured nothing")
	}
	// A page is up to 10 products, each with its cheapest offers, so the
	// products per call say how much each call returned.
	b.ReportMetric(float64(hits)/float64(b.N), "products/op")
}

func BenchmarkPriceHistory90d(b *testing.B) {
	s := largeService(b)
	samples := sampleOffers(b, s)
	ctx := context.Background()
	points := 0
	timed(b, func(i int) error {
		o := samples[i%len(samples)]
		res, err := s.PriceHistory(ctx, grocery.HistoryInput{SKU: o.SKU, Banner: o.Banner, Province: "ON", Period: "90d"})
		if err == nil {
			points += len(res.Points)
		}
		return err
	})
	b.ReportMetric(float64(points)/float64(b.N), "points/op")
}

func BenchmarkListReferenceStores(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	total := 0
	timed(b, func(i int) error {
		res, err := s.ListReferenceStores(ctx, grocery.StoresInput{Province: "ON", Limit: grocery.Some(10)})
		if err == nil {
			total = res.Total
		}
		return err
	})
	b.ReportMetric(float64(total), "stores")
}

// BenchmarkOpenFirstLookup measures a cold start: open the large file and
// answer one lookup.
func BenchmarkOpenFirstLookup(b *testing.B) {
	s := largeService(b)
	upc := sampleOffers(b, s)[0].UPC
	path := s.Path()
	ctx := context.Background()
	timed(b, func(int) error {
		s, err := grocery.Open(path, &grocery.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer s.Close()
		_, err = s.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: "ON", Limit: grocery.Some(10)})
		return err
	})
}

// BenchmarkDemoLarge builds the large data set and reports its size.
// Run it with -benchtime 1x.
func BenchmarkDemoLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("large data set: not in -short mode")
	}
	for i := 0; i < b.N; i++ {
		sum, err := grocery.BuildDemo(context.Background(), benchPath(), &grocery.DemoOptions{Scale: "large", AsOf: benchAsOf, Force: true})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(sum.Observations), "observations")
		b.ReportMetric(float64(sum.Observations)/sum.Elapsed.Seconds(), "obs/s")
		b.ReportMetric(float64(sum.Bytes)/float64(sum.Observations), "bytes/obs")
		b.ReportMetric(sum.Elapsed.Seconds(), "build-s")
	}
}

// storeQueries are the words the store search benchmarks ask for.
var storeQueries = []string{"milk", "cheese", "chips", "bread", "coffee", "yogurt", "ice cream", "natrel", "pc", "chicken", "juice", "crème"}

// benchSearchStores times SearchStores with the i-th call's input and
// reports the mean exact total; it fails when no call found anything.
func benchSearchStores(b *testing.B, s *grocery.Service, in func(i int) grocery.StoreSearchInput) {
	ctx := context.Background()
	hits, total := 0, 0
	timed(b, func(i int) error {
		res, err := s.SearchStores(ctx, in(i))
		if err == nil {
			hits += len(res.Results)
			total += res.Total
		}
		return err
	})
	if hits == 0 {
		b.Fatal("no query matched anything: the benchmark measured nothing")
	}
	b.ReportMetric(float64(total)/float64(b.N), "total/op")
}

// BenchmarkSearchStoresPostalCode is GET /search?q=&postal_code= without
// HTTP: a query in Ontario from the postal code of one of its stores, so
// the FSA has stores and every Ontario store of a matching banner is
// ordered by distance.
func BenchmarkSearchStoresPostalCode(b *testing.B) {
	s := largeService(b)
	st, err := s.ListReferenceStores(context.Background(), grocery.StoresInput{Province: "ON", Limit: grocery.Some(50)})
	if err != nil || len(st.Stores) == 0 {
		b.Fatalf("no stores: %v", err)
	}
	benchSearchStores(b, s, func(i int) grocery.StoreSearchInput {
		return grocery.StoreSearchInput{Query: storeQueries[i%len(storeQueries)], PostalCode: st.Stores[i%len(st.Stores)].PostalCode}
	})
}

// BenchmarkSearchStores is GET /search?q=&province=ON&limit=10 without
// HTTP: the exact total of every matching store and SKU of the province,
// and a page of ten.
func BenchmarkSearchStores(b *testing.B) {
	benchSearchStores(b, largeService(b), func(i int) grocery.StoreSearchInput {
		return grocery.StoreSearchInput{Query: storeQueries[i%len(storeQueries)], Province: "ON", Limit: grocery.Some(10)}
	})
}

// BenchmarkStorePrice is GET /price without HTTP: one store's latest
// price of one SKU.
func BenchmarkStorePrice(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	st, err := s.ListReferenceStores(ctx, grocery.StoresInput{Province: "ON", Limit: grocery.Some(50)})
	if err != nil {
		b.Fatal(err)
	}
	var in []grocery.StorePriceInput
	for _, store := range st.Stores {
		p, err := s.StorePrices(ctx, grocery.StorePricesInput{Banner: store.Banner, Store: store.ID, Limit: grocery.Some(20)})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range p.Results {
			in = append(in, grocery.StorePriceInput{Banner: r.Banner, Store: r.StoreID, SKU: r.ExternalSKU})
		}
	}
	if len(in) == 0 {
		b.Fatal("no store prices to benchmark with")
	}
	timed(b, func(i int) error {
		_, err := s.StorePrice(ctx, in[i%len(in)])
		return err
	})
}

// BenchmarkOpenPreload measures Open with Options.Preload, as a server
// opens the file, per GB of the file (Close not counted): the read of the
// file and of every page of it in use, and the rest of Open, which
// takes under a millisecond without Preload.
func BenchmarkOpenPreload(b *testing.B) {
	path := largeService(b).Path()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var wall, cpu time.Duration
	for b.Loop() {
		c0, start := grocery.CPUTime(), time.Now()
		s, err := grocery.Open(path, &grocery.Options{ReadOnly: true, Preload: true})
		if err != nil {
			b.Fatal(err)
		}
		wall, cpu = wall+time.Since(start), cpu+grocery.CPUTime()-c0
		s.Close()
	}
	gb := float64(fi.Size()) / 1e9 * float64(b.N)
	b.ReportMetric(float64(wall.Milliseconds())/gb, "ms/GB")
	b.ReportMetric(float64(cpu.Milliseconds())/gb, "cpu-ms/GB")
}
