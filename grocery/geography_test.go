package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestGeographicPrices: every figure of a row, on the geography data set
// (market_rules_test.go, where the province and national prices and the
// indexes are worked out).
func TestGeographicPrices(t *testing.T) {
	svc := openSnap(t, geoStores, geoObs)
	ctx := context.Background()
	t.Run("OKUPC", func(t *testing.T) {
		// Price: the province price, 4.99. ON levels over the banner
		// prices 4.99, 4.00, 6.00: average 14.99 / 3 = 4.9967 → 5.00.
		// Stores: loblaws 2 + no-frills 1 + metro 1 = 4; QC 2 and NU 1
		// are thin. National: price 5.0001094 → 5.00; average (16124 ×
		// 4.996667 + 9056 × 5.00 + 41 × 9.00) / 25221 = 5.0044 → 5.00.
		// Basis: 8 store-level prices (L1 at 2 stores, L1B, N1, M1, X1,
		// Q1, W1; N1B is not current), 7 reference stores.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.GeoPricesResult{
			UPC: snapMilk, Name: "2% Milk",
			National: &grocery.GeoProvince{Province: "CA", Price: centsPtr(500), Average: 500, Min: 400, Max: 900, BannerPrices: 6, Products: 1, Stores: 7, Index: 100},
			Provinces: []grocery.GeoProvince{
				{Province: "NU", Price: centsPtr(900), Average: 900, Min: 900, Max: 900, BannerPrices: 1, Products: 1, Stores: 1, Thin: true, Index: 180},
				{Province: "ON", Price: centsPtr(499), Average: 500, Min: 400, Max: 600, BannerPrices: 3, Products: 1, Stores: 4, Index: 99.8},
				{Province: "QC", Price: centsPtr(500), Average: 500, Min: 450, Max: 550, BannerPrices: 2, Products: 1, Stores: 2, Thin: true, Index: 100},
			},
			Currency: "CAD",
			Basis: grocery.Basis{Provinces: []string{"NU", "ON", "QC"}, Banners: []string{"loblaws", "maxi", "metro", "no-frills", "northern"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 7, Observations: 8, Comparison: grocery.CompareSameBarcode,
				Note: "NU, QC rest on fewer than 3 active reference stores (thin: true): read their figures with care"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKCategory", func(t *testing.T) {
		// ON: banner prices 4.99, 4.00, 6.00, 8.00, 9.00: average
		// 31.99 / 5 = 6.398 → 6.40. QC: 4.50, 5.50, 9.50: 6.50.
		// National average (16124 × 6.398 + 9056 × 6.50 + 41 × 9.00) /
		// 25221 = 6.4389 → 6.44; no price for a category.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{Category: "dairy & EGGS"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Category != "Dairy & Eggs" {
			t.Errorf("category: got %q", got.Category)
		}
		want := []grocery.GeoProvince{
			{Province: "NU", Average: 900, Min: 900, Max: 900, BannerPrices: 1, Products: 1, Stores: 1, Thin: true, Index: 180},
			{Province: "ON", Average: 640, Min: 400, Max: 900, BannerPrices: 5, Products: 2, Stores: 4, Index: 97.9},
			{Province: "QC", Average: 650, Min: 450, Max: 950, BannerPrices: 3, Products: 2, Stores: 2, Thin: true, Index: 103.5},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
		wantNat := &grocery.GeoProvince{Province: "CA", Average: 644, Min: 400, Max: 950, BannerPrices: 9, Products: 2, Stores: 7, Index: 100}
		if d := cmp.Diff(wantNat, got.National); d != "" {
			t.Errorf("national (-want +got)\n%s", d)
		}
	})
	t.Run("OKAbsent", func(t *testing.T) {
		// A barcode the catalogue knows, observed long ago only: no
		// current price anywhere.
		empty := openSnap(t, geoStores, geoObs, `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-09-01,lob-1,loblaws,L4,3.00,3.00,,064100000025,Unsalted Butter,Lactantia,250 g,Spreads
`)
		got, err := empty.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapUnsalted})
		if err != nil {
			t.Fatal(err)
		}
		if got.National != nil || len(got.Provinces) != 0 || !strings.Contains(got.Basis.Note, "not proof it is not sold") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct {
			in         grocery.GeoPricesInput
			code, text string
		}{
			{grocery.GeoPricesInput{}, grocery.EINVALID, "upc or category is required"},
			{grocery.GeoPricesInput{UPC: snapMilk, Category: "Spreads"}, grocery.EINVALID, "not both"},
			{grocery.GeoPricesInput{UPC: "068000000155"}, grocery.EINVALID, "check digit"},
			{grocery.GeoPricesInput{UPC: "064100000032"}, grocery.ENOTFOUND, "not in the catalogue"},
			{grocery.GeoPricesInput{Category: "Caviar"}, grocery.EINVALID, "Dairy & Eggs, Spreads"},
		} {
			_, err := svc.GeographicPrices(ctx, tc.in)
			wantCode(t, err, tc.code, tc.text)
		}
	})
}

func TestRegionalComparison(t *testing.T) {
	svc := openSnap(t, geoStores, geoObs)
	ctx := context.Background()
	t.Run("OKPanel", func(t *testing.T) {
		// Indexes and deltas worked out in market_rules_test.go.
		// Observations, the store-level prices behind the banner prices:
		// ON milk L1 2 + L1B 1 + N1 1 + M1 1, cheese L2 2 + N2 1, butter
		// N3 1 + M3 1 = 10; QC X1, Q1, X2 = 3; NU W1 = 1.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.RegionalResult{Scope: "panel",
			Provinces: []grocery.RegionalProvince{
				{Province: "NU", DeltaPct: 80, Index: 180, Products: 1, Stores: 1, Thin: true, Observations: 1},
				{Province: "ON", DeltaPct: -1.4, Index: 98.6, Products: 3, Stores: 4, Observations: 10},
				{Province: "QC", DeltaPct: 3.5, Index: 103.5, Products: 2, Stores: 2, Thin: true, Observations: 3},
			},
			Basis: grocery.Basis{Provinces: []string{"NU", "ON", "QC"}, Banners: []string{"loblaws", "maxi", "metro", "no-frills", "northern"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 7, Observations: 14, Comparison: grocery.CompareSameBarcode,
				Note: "NU, QC rest on fewer than 3 active reference stores (thin: true): read their figures with care"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKDelta", func(t *testing.T) {
		// A barcode priced 1.00 in ON (16124) and 1.01 in QC (9056):
		// national (16124 + 9056 × 1.01) / 25180 = 1.0035966; ON index
		// 99.6416 → 99.6, delta −0.3584 → −0.4; QC 100.6400 → 100.6,
		// delta 0.64 → 0.6.
		s := openSnap(t, geoStores, `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,lob-1,loblaws,L1,1.00,1.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,maxi-1,maxi,X1,1.01,1.01,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`)
		got, err := s.RegionalComparison(ctx, grocery.RegionalInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{
			{Province: "ON", DeltaPct: -0.4, Index: 99.6, Products: 1, Stores: 2, Thin: true, Observations: 1},
			{Province: "QC", DeltaPct: 0.6, Index: 100.6, Products: 1, Stores: 1, Thin: true, Observations: 1},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" || got.Scope != "upc" {
			t.Errorf("scope %q (-want +got)\n%s", got.Scope, d)
		}
	})
	t.Run("OKSingleProvince", func(t *testing.T) {
		// Butter: ON only, its own national price.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{UPC: snapButter})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{{Province: "ON", DeltaPct: 0, Index: 100, Products: 1, Stores: 2, Thin: true, Observations: 2}}
		if d := cmp.Diff(want, got.Provinces); d != "" || !strings.Contains(got.Basis.Note, "one province only") {
			t.Errorf("(-want +got)\n%s\nnote %q", d, got.Basis.Note)
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		empty := openSnap(t)
		got, err := empty.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Provinces) != 0 || !strings.Contains(got.Basis.Note, "no current price") {
			t.Errorf("got %+v", got)
		}
		if got.Basis.From != nil || got.Basis.Provinces == nil || got.Basis.Banners == nil {
			t.Errorf("basis: %+v", got.Basis)
		}
	})
	t.Run("ErrCategory", func(t *testing.T) {
		_, err := svc.RegionalComparison(ctx, grocery.RegionalInput{Category: "Nope"})
		wantCode(t, err, grocery.EINVALID, `category "Nope"`)
	})
}
