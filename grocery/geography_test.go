package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestGeographicPrices: every figure of a row, on the banner geography
// data set (market_rules_test.go, where the pairs' national prices and
// the indexes are worked out).
func TestGeographicPrices(t *testing.T) {
	svc := openSnap(t, bannerGeoStores, bannerGeoObs)
	ctx := context.Background()
	t.Run("OKUPC", func(t *testing.T) {
		// ON: price median(5.00, 6.00, 6.50) = 6.00, average 17.50 / 3 =
		// 5.8333 → 5.83; the index compares walmart's and metro's pairs
		// (loblaws prices milk in ON only): 2 pairs, 2 banners, stores
		// walmart 2 + metro 1 = 3. MB and QC compare one banner at one
		// store: low_sample. National: price (16124 × 6.00 + 9056 × 6.00
		// + 1494 × 5.20) / 26674 = 158848.8 / 26674 = 5.9551 → 5.96;
		// average (16124 × 5.8333 + 9056 × 6.00 + 1494 × 5.20) / 26674 =
		// 156161.47 / 26674 = 5.8544 → 5.85; pairs walmart, loblaws,
		// metro; stores ON 2 + 1 + 1, MB 1, QC 1 = 6.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.GeoPricesResult{
			UPC: snapMilk, Name: "2% Milk",
			National: &grocery.GeoProvince{Province: "CA", Price: centsPtr(596), Average: centsPtr(585), Min: 500, Max: 650, BannerPrices: 5,
				Index: f64(100.0), ShelfIndex: f64(100.0), Pairs: 3, Banners: 3, Products: 1, Stores: 6},
			Provinces: []grocery.GeoProvince{
				{Province: "MB", Price: centsPtr(520), Average: centsPtr(520), Min: 520, Max: 520, BannerPrices: 1,
					Index: f64(103.6), ShelfIndex: f64(103.6), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true},
				{Province: "ON", Price: centsPtr(600), Average: centsPtr(583), Min: 500, Max: 650, BannerPrices: 3,
					Index: f64(101.2), ShelfIndex: f64(101.2), Pairs: 2, Banners: 2, Products: 1, Stores: 3},
				{Province: "QC", Price: centsPtr(600), Average: centsPtr(600), Min: 600, Max: 600, BannerPrices: 1,
					Index: f64(94.9), ShelfIndex: f64(94.9), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true},
			},
			Currency: "CAD",
			Basis: grocery.Basis{Provinces: []string{"MB", "ON", "QC"}, Banners: []string{"loblaws", "metro", "walmart"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 6, Observations: 6, Comparison: grocery.CompareSameBarcode,
				Note: "MB, QC: their indexes rest on fewer than 3 active reference stores or 2 banners compared with other provinces (low_sample: true): read them with care"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKCategory", func(t *testing.T) {
		// No price or average: the provinces price different products.
		// Indexes as worked out; ON compares 3 pairs (walmart milk and
		// cheese, metro milk) of 2 products: under 5 products, as is
		// every row.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{Category: "dairy & EGGS"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Category != "Dairy & Eggs" {
			t.Errorf("category: got %q", got.Category)
		}
		want := []grocery.GeoProvince{
			{Province: "MB", Min: 520, Max: 700, BannerPrices: 2, Index: f64(104.1), ShelfIndex: f64(95.7), Pairs: 2, Banners: 1, Products: 2, Stores: 1, Thin: true, LowSample: true},
			{Province: "ON", Min: 500, Max: 1000, BannerPrices: 6, Index: f64(100.7), ShelfIndex: f64(101.2), Pairs: 3, Banners: 2, Products: 2, Stores: 3, LowSample: true},
			{Province: "QC", Min: 600, Max: 600, BannerPrices: 1, Index: f64(94.9), ShelfIndex: f64(94.9), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
		wantNat := &grocery.GeoProvince{Province: "CA", Min: 500, Max: 1000, BannerPrices: 9, Index: f64(100.0), ShelfIndex: f64(100.0), Pairs: 6, Banners: 3, Products: 2, Stores: 6, LowSample: true}
		if d := cmp.Diff(wantNat, got.National); d != "" {
			t.Errorf("national (-want +got)\n%s", d)
		}
		if !strings.Contains(got.Basis.Note, "MB, ON, QC: their indexes rest on fewer than 5 products, 3 active reference stores or 2 banners") {
			t.Errorf("note: got %q", got.Basis.Note)
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
			{grocery.GeoPricesInput{}, grocery.EINVALIDARGUMENT, "upc or category is required"},
			{grocery.GeoPricesInput{UPC: snapMilk, Category: "Spreads"}, grocery.EINVALIDARGUMENT, "not both"},
			{grocery.GeoPricesInput{UPC: "068000000155"}, grocery.EINVALIDARGUMENT, "check digit"},
			{grocery.GeoPricesInput{UPC: "064100000032"}, grocery.ENOTFOUND, "not in the catalogue"},
			{grocery.GeoPricesInput{Category: "Caviar"}, grocery.EINVALIDARGUMENT, "Dairy & Eggs, Spreads"},
		} {
			_, err := svc.GeographicPrices(ctx, tc.in)
			wantCode(t, err, tc.code, tc.text)
		}
	})
}

func TestRegionalComparison(t *testing.T) {
	svc := openSnap(t, bannerGeoStores, bannerGeoObs)
	ctx := context.Background()
	t.Run("OKPanel", func(t *testing.T) {
		// Indexes and deltas worked out in market_rules_test.go (regular:
		// ON 100.684, MB 104.102, QC 94.934; shelf: ON 101.184, MB
		// 95.741). Every row is under 5 products. Observations, the
		// store-level prices behind the banner prices: ON walmart 2 + 2,
		// loblaws 3, metro 2 = 9; MB 2; QC 1.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.RegionalResult{Scope: "panel",
			Provinces: []grocery.RegionalProvince{
				{Province: "MB", DeltaPct: f64(4.1), Index: f64(104.1), ShelfDeltaPct: f64(-4.3), ShelfIndex: f64(95.7), Pairs: 2, Banners: 1, Products: 2, Stores: 1, Thin: true, LowSample: true, Observations: 2},
				{Province: "ON", DeltaPct: f64(0.7), Index: f64(100.7), ShelfDeltaPct: f64(1.2), ShelfIndex: f64(101.2), Pairs: 3, Banners: 2, Products: 2, Stores: 3, LowSample: true, Observations: 9},
				{Province: "QC", DeltaPct: f64(-5.1), Index: f64(94.9), ShelfDeltaPct: f64(-5.1), ShelfIndex: f64(94.9), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true, Observations: 1},
			},
			Basis: grocery.Basis{Provinces: []string{"MB", "ON", "QC"}, Banners: []string{"loblaws", "metro", "walmart"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 6, Observations: 12, Comparison: grocery.CompareSameBarcode,
				Note: "MB, ON, QC: their indexes rest on fewer than 5 products, 3 active reference stores or 2 banners compared with other provinces (low_sample: true): read them with care"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKUPC", func(t *testing.T) {
		// Milk: ON rests on 2 banners at 3 stores, enough for one barcode.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{
			{Province: "MB", DeltaPct: f64(3.6), Index: f64(103.6), ShelfDeltaPct: f64(3.6), ShelfIndex: f64(103.6), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true, Observations: 1},
			{Province: "ON", DeltaPct: f64(1.2), Index: f64(101.2), ShelfDeltaPct: f64(1.2), ShelfIndex: f64(101.2), Pairs: 2, Banners: 2, Products: 1, Stores: 3, Observations: 4},
			{Province: "QC", DeltaPct: f64(-5.1), Index: f64(94.9), ShelfDeltaPct: f64(-5.1), ShelfIndex: f64(94.9), Pairs: 1, Banners: 1, Products: 1, Stores: 1, Thin: true, LowSample: true, Observations: 1},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" || got.Scope != "upc" {
			t.Errorf("scope %q (-want +got)\n%s", got.Scope, d)
		}
	})
	t.Run("OKSingleProvince", func(t *testing.T) {
		// Butter: loblaws in ON only, compared with nothing: no index
		// (null) on no pair, low_sample.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{UPC: snapButter})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{{Province: "ON", Thin: true, LowSample: true, Observations: 1}} // no pair compared: no index
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
		wantCode(t, err, grocery.EINVALIDARGUMENT, `category "Nope"`)
	})
}

// TestGeographicPricesCategorySpelling: a category asked for matches the
// catalogue's categories case-insensitively, all its spellings' products
// together; the answer names the spelling asked for when the catalogue
// has it, else the first in byte order ("SNACKS" before "Snacks").
func TestGeographicPricesCategorySpelling(t *testing.T) {
	svc := openSnap(t, bannerGeoStores, `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,wm-on1,walmart,W1,3.00,3.00,,060383000028,Chips,Lays,200 g,Snacks
2026-11-19,met-on,metro,M1,3.50,3.50,,060383000028,Chips,Lays,200 g,Snacks
2026-11-19,wm-on1,walmart,W2,4.00,4.00,,064100000018,Pretzels,Rold Gold,300 g,SNACKS
2026-11-19,met-on,metro,M2,4.50,4.50,,064100000018,Pretzels,Rold Gold,300 g,SNACKS
`)
	for _, tc := range []struct{ ask, want string }{{"snacks", "SNACKS"}, {"Snacks", "Snacks"}, {"SNACKS", "SNACKS"}} {
		got, err := svc.GeographicPrices(context.Background(), grocery.GeoPricesInput{Category: tc.ask})
		if err != nil {
			t.Fatal(err)
		}
		// Both products, each at both banners: 4 banner prices in ON,
		// from the chips' 3.00 to the pretzels' 4.50.
		if got.Category != tc.want || len(got.Provinces) != 1 || got.Provinces[0].BannerPrices != 4 || got.Provinces[0].Min != 300 || got.Provinces[0].Max != 450 {
			t.Errorf("category %q: got %q with %+v, want %q with 4 banner prices in ON, 3.00 to 4.50", tc.ask, got.Category, got.Provinces, tc.want)
		}
	}
}
