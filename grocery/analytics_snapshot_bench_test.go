package grocery_test

import (
	"context"
	"errors"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// The snapshot analytics on the large data set; p50-ns is the figure the
// issue sets (10 ms for geographic prices and a 10-item basket, 50 ms for
// the others).

func BenchmarkGeographicPricesUPC(b *testing.B) {
	s := largeService(b)
	samples := sampleOffers(b, s)
	ctx := context.Background()
	timed(b, func(i int) error {
		res, err := s.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: samples[i%len(samples)].UPC})
		if err == nil && len(res.Provinces) == 0 {
			err = errors.New("a sampled product has no provinces")
		}
		return err
	})
}

var benchCategories = []string{"Dairy & Eggs", "Pantry", "Beverages", "Snacks", "Frozen", "Bakery"}

func BenchmarkGeographicPricesCategory(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	timed(b, func(i int) error {
		_, err := s.GeographicPrices(ctx, grocery.GeoPricesInput{Category: benchCategories[i%len(benchCategories)]})
		return err
	})
}

func BenchmarkRegionalComparisonPanel(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	timed(b, func(i int) error {
		_, err := s.RegionalComparison(ctx, grocery.RegionalInput{})
		return err
	})
}

func BenchmarkRegionalComparisonCategory(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	timed(b, func(i int) error {
		_, err := s.RegionalComparison(ctx, grocery.RegionalInput{Category: benchCategories[i%len(benchCategories)]})
		return err
	})
}

func BenchmarkCompetitiveBenchmark(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	banners := []string{"loblaws", "no-frills", "metro", "sobeys", "walmart", "food-basics"}
	timed(b, func(i int) error {
		res, err := s.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: banners[i%len(banners)], Province: "ON"})
		if err == nil && res.Items == 0 {
			err = errors.New("nothing shared: " + res.Basis.Note)
		}
		return err
	})
}

func BenchmarkBrandInsights(b *testing.B) {
	s := largeService(b)
	samples := sampleOffers(b, s)
	ctx := context.Background()
	var brands []string
	for _, o := range samples[:20] {
		res, err := s.LookupProduct(ctx, grocery.LookupInput{UPC: o.UPC, Province: "ON", Limit: grocery.Some(10)})
		if err != nil {
			b.Fatal(err)
		}
		brands = append(brands, res.Product.Brand)
	}
	timed(b, func(i int) error {
		_, err := s.BrandInsights(ctx, grocery.BrandInput{Brand: brands[i%len(brands)]})
		return err
	})
}

// BenchmarkBasket10 prices baskets of 10 items: 5 barcodes and 5 names.
func BenchmarkBasket10(b *testing.B) {
	s := largeService(b)
	samples := sampleOffers(b, s)
	ctx := context.Background()
	names := []string{"milk", "bread", "orange juice", "butter", "eggs", "coffee", "yogurt", "cheddar", "bananas", "cereal"}
	timed(b, func(i int) error {
		items := make([]grocery.BasketItemInput, 0, 10)
		for j := 0; j < 5; j++ {
			items = append(items, grocery.BasketItemInput{UPC: samples[(i*5+j)%len(samples)].UPC, Quantity: 1 + j})
			items = append(items, grocery.BasketItemInput{Name: names[(i+j)%len(names)], Quantity: 1})
		}
		res, err := s.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: items})
		if err == nil && len(res.Banners) == 0 {
			err = errors.New("no banner priced the basket")
		}
		return err
	})
}
