package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestReportSnapshot: each snapshot report prints the library's result
// as JSON with --json (its table is TestTables').
func TestReportSnapshot(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	s := demoSummary.Samples
	check := func(t *testing.T, args []string, want any, got any) {
		t.Helper()
		r := cli(t, nil, append(args, "--json")...)
		ok(t, r)
		decode(t, r.stdout, got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%v (-library +cli):\n%s", args, d)
		}
	}
	t.Run("Geo", func(t *testing.T) {
		want, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: s.CarriedUPC})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "geo", "--upc", s.CarriedUPC}, want, &grocery.GeoPricesResult{})
	})
	t.Run("Regional", func(t *testing.T) {
		want, err := svc.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "regional"}, want, &grocery.RegionalResult{})
	})
	t.Run("Benchmark", func(t *testing.T) {
		want, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "no-frills", Province: s.Province})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "benchmark", "--banner", "no-frills", "--province", s.Province}, want, &grocery.BenchmarkResult{})
	})
	t.Run("Brand", func(t *testing.T) {
		lk, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: s.CarriedUPC, Province: s.Province})
		if err != nil {
			t.Fatal(err)
		}
		want, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: lk.Product.Brand})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "brand", lk.Product.Brand}, want, &grocery.BrandResult{})
		want, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: lk.Product.Brand, Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "brand", lk.Product.Brand, "--period", "90d"}, want, &grocery.BrandResult{})
	})
	t.Run("Basket", func(t *testing.T) {
		want, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: s.Province, Items: []grocery.BasketItemInput{
			{UPC: s.CarriedUPC, Quantity: 2}, {Name: "milk", Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		check(t, []string{"report", "basket", s.CarriedUPC + ":2", "milk", "--province", s.Province}, want, &grocery.BasketResult{})
	})
	t.Run("ErrQuantity", func(t *testing.T) {
		r := cli(t, nil, "report", "basket", "milk:100", "--province", s.Province)
		if r.code == 0 || !strings.Contains(r.stderr, "items[0].quantity 100") {
			t.Errorf("got %d %q", r.code, r.stderr)
		}
	})
}
