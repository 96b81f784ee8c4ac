package grocery_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/grocery"
)

// The snapshot data set: every price observed on 2026-11-19, each banner's
// stores at one price, so an offer's price is that price and its store
// count the banner's stores that observed it.
//
//	ON  lob-1 lob-2 (loblaws), nf-1 (no-frills), met-1 (metro)
//	QC  maxi-1 (maxi), met-q (metro)
//	BC  sob-b (sobeys): one store, one banner
//
//	milk    068000000154 Natrel 2% Milk 2 L, Dairy & Eggs
//	        lob 5.00 (2 stores), nf 4.00, met 6.00 | maxi 4.50, met 5.50 | sob 7.00
//	cheese  060383000028 Black Diamond Old Cheddar 400 g, Dairy & Eggs
//	        lob 8.00 (2 stores; regular 10.00) , nf 9.00 | maxi 9.50
//	butter  064100000018 Lactantia Butter 454 g, Spreads: nf 5.00, met 6.00 (regular 7.50)
//	unsalt  064100000025 Lactantia Unsalted Butter 250 g, Spreads: lob-1 3.00
const (
	snapMilk, snapCheese, snapButter, snapUnsalted = "068000000154", "060383000028", "064100000018", "064100000025"
)

const snapStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-1,loblaws,ON,Loblaws 1,Toronto,M5V 1A1,43.60,-79.40
lob-2,loblaws,ON,Loblaws 2,Toronto,M5V 3C3,43.66,-79.40
nf-1,no-frills,ON,No Frills 1,Toronto,M5V 2B2,43.62,-79.40
met-1,metro,ON,Metro 1,Toronto,M4C 1B5,43.63,-79.40
maxi-1,maxi,QC,Maxi 1,Montréal,H2X 1Y4,45.50,-73.57
met-q,metro,QC,Metro Q,Montréal,H2X 1Y5,45.51,-73.57
sob-b,sobeys,BC,Sobeys B,Vancouver,V6B 1A1,49.28,-123.12
`

const snapObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,lob-1,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-2,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-1,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-1,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,maxi-1,maxi,X1,4.50,4.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-q,metro,M1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,sob-b,sobeys,S1,7.00,7.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-1,loblaws,L2,8.00,10.00,2026-11-25,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,lob-2,loblaws,L2,8.00,10.00,2026-11-25,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,nf-1,no-frills,N2,9.00,9.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,maxi-1,maxi,X2,9.50,9.50,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,nf-1,no-frills,N3,5.00,5.00,,064100000018,Butter,Lactantia,454 g,Spreads
2026-11-19,met-1,metro,M3,6.00,7.50,2026-11-25,064100000018,Butter,Lactantia,454 g,Spreads
2026-11-19,lob-1,loblaws,L4,3.00,3.00,,064100000025,Unsalted Butter,Lactantia,250 g,Spreads
`

// openSnap opens a service on a temp file holding the CSVs given.
func openSnap(t *testing.T, csvs ...string) *grocery.Service {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	svc, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	for i, c := range csvs {
		if _, err := svc.Import(context.Background(), "f"+string(rune('0'+i))+".csv", strings.NewReader(c), nil); err != nil {
			t.Fatal(err)
		}
	}
	return svc
}

func snapDay(s string) *grocery.Date {
	d, err := grocery.ParseDate(s)
	if err != nil {
		panic(err)
	}
	return &d
}

func fptr(f float64) *float64 { return &f }

func wantCode(t *testing.T, err error, code, has string) {
	t.Helper()
	if grocery.ErrorCode(err) != code || !strings.Contains(grocery.ErrorMessage(err), has) {
		t.Fatalf("got %v, want %s containing %q", err, code, has)
	}
}

func TestGeographicPrices(t *testing.T) {
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OKUPC", func(t *testing.T) {
		// ON: (5.00×2 + 4.00 + 6.00) / 4 stores = 5.00; QC (4.50 + 5.50) / 2
		// = 5.00; BC 7.00. National: (20 + 10 + 7) / 7 = 5.285714 -> 5.29.
		// Index ON = QC = 100 × 5.00 / 5.285714 = 94.59 -> 94.6; BC
		// 100 × 7 / 5.285714 = 132.43 -> 132.4.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.GeoPricesResult{
			UPC: snapMilk, Name: "2% Milk",
			National: &grocery.GeoProvince{Province: "CA", Average: 529, Min: 400, Max: 700, StoreCount: 7, Offers: 6, Products: 1, Index: 100},
			Provinces: []grocery.GeoProvince{
				{Province: "BC", Average: 700, Min: 700, Max: 700, StoreCount: 1, Offers: 1, Products: 1, Index: 132.4},
				{Province: "ON", Average: 500, Min: 400, Max: 600, StoreCount: 4, Offers: 3, Products: 1, Index: 94.6},
				{Province: "QC", Average: 500, Min: 450, Max: 550, StoreCount: 2, Offers: 2, Products: 1, Index: 94.6},
			},
			Currency: "CAD",
			Basis: grocery.Basis{Provinces: []string{"BC", "ON", "QC"}, Banners: []string{"loblaws", "maxi", "metro", "no-frills", "sobeys"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 7, Observations: 7, Comparison: grocery.CompareSameBarcode},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKCategory", func(t *testing.T) {
		// Dairy & Eggs = milk + cheese. Cheese: ON (8×2 + 9) / 3 = 8.3333,
		// QC 9.50, national 34.50 / 4 = 8.625.
		// ON: own 20 + 25 = 45 over 7 store prices (average 6.43); at
		// national prices 4 × 5.285714 + 3 × 8.625 = 47.017857; index
		// 100 × 45 / 47.017857 = 95.71 -> 95.7.
		// QC: own 10 + 9.5 = 19.5 over 3 (6.50); ref 2 × 5.285714 + 8.625 =
		// 19.196429; index 101.58 -> 101.6. BC: milk only, 132.4.
		got, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{Category: "dairy & EGGS"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Category != "Dairy & Eggs" {
			t.Errorf("category: got %q", got.Category)
		}
		want := []grocery.GeoProvince{
			{Province: "BC", Average: 700, Min: 700, Max: 700, StoreCount: 1, Offers: 1, Products: 1, Index: 132.4},
			{Province: "ON", Average: 643, Min: 400, Max: 900, StoreCount: 7, Offers: 5, Products: 2, Index: 95.7},
			{Province: "QC", Average: 650, Min: 450, Max: 950, StoreCount: 3, Offers: 3, Products: 2, Index: 101.6},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
		// National: (45 + 19.5 + 7) / 11 = 6.50.
		if got.National.Average != 650 || got.National.StoreCount != 11 || got.National.Products != 2 {
			t.Errorf("national: got %+v", got.National)
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
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OKPanel", func(t *testing.T) {
		// Every product. Butter 454 g is in ON only (national 5.50 = ON's),
		// unsalted butter at lob-1 only (3.00).
		// ON: own 20 + 25 + 11 + 3 = 59; ref 21.142857 + 25.875 + 11 + 3 =
		// 61.017857; index 96.69 -> 96.7, delta -3.3; observations 4 + 3 +
		// 2 + 1 = 10; stores loblaws 2 + no-frills 1 + metro 1 = 4.
		// QC 101.6 (as the category), BC 132.4.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{
			{Province: "BC", DeltaPct: 32.4, Index: 132.4, Products: 1, Stores: 1, Observations: 1},
			{Province: "ON", DeltaPct: -3.3, Index: 96.7, Products: 4, Stores: 4, Observations: 10},
			{Province: "QC", DeltaPct: 1.6, Index: 101.6, Products: 2, Stores: 2, Observations: 3},
		}
		if d := cmp.Diff(want, got.Provinces); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
		if got.Scope != "panel" || got.Basis.Observations != 14 || got.Basis.Stores != 7 {
			t.Errorf("scope %q basis %+v", got.Scope, got.Basis)
		}
	})
	t.Run("OKSingleProvince", func(t *testing.T) {
		// Butter 454 g: ON only, its own national average.
		got, err := svc.RegionalComparison(ctx, grocery.RegionalInput{UPC: snapButter})
		if err != nil {
			t.Fatal(err)
		}
		want := []grocery.RegionalProvince{{Province: "ON", DeltaPct: 0, Index: 100, Products: 1, Stores: 2, Observations: 2}}
		if d := cmp.Diff(want, got.Provinces); d != "" || !strings.Contains(got.Basis.Note, "one province") {
			t.Errorf("(-want +got)\n%s\nnote %q", d, got.Basis.Note)
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		empty := openSnap(t)
		got, err := empty.RegionalComparison(ctx, grocery.RegionalInput{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Provinces) != 0 || !strings.Contains(got.Basis.Note, "not observed in the panel") && !strings.Contains(got.Basis.Note, "no current offer") {
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

func TestCompetitiveBenchmark(t *testing.T) {
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// ON, per barcode: milk lob 5, nf 4, met 6 -> market 5; cheese lob
		// 8, nf 9 -> 8.50; butter nf 5, met 6 -> 5.50; unsalted lob only:
		// not shared.
		// loblaws: 5 + 8 = 13 against 5 + 8.50 = 13.50 -> 96.3, 2 shared.
		// no-frills: 4 + 9 + 5 = 18 against 19 -> 94.7, 3 shared.
		// metro: 6 + 6 = 12 against 10.50 -> 114.3, 2 shared.
		got, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "Loblaws", Province: "ontario"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.BenchmarkResult{
			Banner: "loblaws", BannerName: "Loblaws", Province: "ON", Index: 96.3, Rank: 2, Shared: 2, Total: 1300, MarketCost: 1350,
			Categories: []grocery.BenchmarkRow{{Category: "Dairy & Eggs", Index: 96.3, Rank: 1, Shared: 2, Total: 1300, MarketCost: 1350}},
			Ranking: []grocery.BenchmarkRow{
				{Banner: "no-frills", BannerName: "No Frills", Index: 94.7, Rank: 1, Shared: 3, Total: 1800, MarketCost: 1900},
				{Banner: "loblaws", BannerName: "Loblaws", Index: 96.3, Rank: 2, Shared: 2, Total: 1300, MarketCost: 1350},
				{Banner: "metro", BannerName: "Metro", Index: 114.3, Rank: 3, Shared: 2, Total: 1200, MarketCost: 1050},
			},
			Currency: "CAD",
			Basis: grocery.Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "metro", "no-frills"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 4, Observations: 10, Comparison: grocery.CompareSameBarcode},
		}
		if d := cmp.Diff(want, got, cmpopts.IgnoreFields(grocery.Basis{}, "Note")); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKSingleBanner", func(t *testing.T) {
		// BC has one store of one banner: nothing shared, nothing ranked.
		got, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "sobeys", Province: "BC"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Shared != 0 || got.Rank != 0 || len(got.Ranking) != 0 || !strings.Contains(got.Basis.Note, "shares no barcode") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("OKAbsent", func(t *testing.T) {
		got, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "iga", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Ranking) != 3 || got.Rank != 0 || !strings.Contains(got.Basis.Note, "does not operate in ON") {
			t.Errorf("got rank %d, note %q", got.Rank, got.Basis.Note)
		}
	})
	t.Run("ErrBanner", func(t *testing.T) {
		_, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "nope", Province: "ON"})
		wantCode(t, err, grocery.EINVALID, "nope")
		_, err = svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "metro"})
		wantCode(t, err, grocery.EINVALID, "province")
	})
}

// The tie data set: Nova Scotia, one Sobeys and one No Frills, milk at
// 5.00 in both.
const tieStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
sob-n,sobeys,NS,Sobeys N,Halifax,B3H 1A1,44.64,-63.57
nf-n,no-frills,NS,No Frills N,Halifax,B3H 1A2,44.65,-63.57
`

const tieObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,sob-n,sobeys,S1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-n,no-frills,N1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

func TestSnapshotTies(t *testing.T) {
	svc := openSnap(t, tieStores, tieObs)
	ctx := context.Background()
	// Market 5.00; both banners 100 × 5 / 5 = 100.0: both rank 1.
	b, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "sobeys", Province: "NS"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Index != 100 || b.Rank != 1 || len(b.Ranking) != 2 || b.Ranking[0].Rank != 1 || b.Ranking[1].Rank != 1 {
		t.Errorf("benchmark: got %+v", b)
	}
	// Baskets of 2 milks: 10.00 at both; the cheapest is the first by
	// slug (no-frills), the dearest sobeys, saving 0; the split takes the
	// milk at no-frills, the first of the pair.
	r, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "NS", Items: []grocery.BasketItemInput{{UPC: snapMilk, Quantity: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	want := struct {
		Cheapest, Split, Dearest *grocery.BasketChoice
		Savings                  grocery.Cents
	}{
		&grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 1000},
		&grocery.BasketChoice{Banners: []string{"no-frills", "sobeys"}, Total: 1000, Items: []string{"no-frills"}},
		&grocery.BasketChoice{Banners: []string{"sobeys"}, Total: 1000},
		0,
	}
	got := want
	got.Cheapest, got.Split, got.Dearest, got.Savings = r.Cheapest, r.CheapestSplit, r.Dearest, r.Savings
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	// One province: the index is 100.
	g, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
	if err != nil || len(g.Provinces) != 1 || g.Provinces[0].Index != 100 {
		t.Errorf("geographic: %+v, %v", g, err)
	}
}

func TestBrandInsights(t *testing.T) {
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// Spreads in ON, per 100 g, each at one store: butter 454 g at nf
		// 500 / 4.54 = 110.1322 and at met 600 / 4.54 = 132.1586; unsalted
		// 250 g at lob 300 / 2.5 = 120. Category average 362.2907 / 3 =
		// 120.7636. Index: lob 120 / 120.7636 = 99.4; met 109.4; nf 91.2.
		// Metro's butter is on promotion: (7.50 - 6.00) / 7.50 = 20% off.
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "LACTANTIA"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.BrandResult{
			Brand: "Lactantia", Catalogue: 2, Categories: []string{"Spreads"},
			Rows: []grocery.BrandRow{
				{Province: "ON", Banner: "loblaws", BannerName: "Loblaws", Products: 1, Stores: 1, Index: fptr(99.4)},
				{Province: "ON", Banner: "metro", BannerName: "Metro", Products: 1, Stores: 1, Index: fptr(109.4), OnPromo: 1, PromoShare: 100, PromoDepth: fptr(20)},
				{Province: "ON", Banner: "no-frills", BannerName: "No Frills", Products: 1, Stores: 1, Index: fptr(91.2)},
			},
			Basis: grocery.Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "metro", "no-frills"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 4, Observations: 3, Comparison: grocery.CompareUnitPrice},
		}
		if d := cmp.Diff(want, got, cmpopts.IgnoreFields(grocery.Basis{}, "Note")); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKElsewhere", func(t *testing.T) {
		got, err := svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Lactantia", Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Rows) != 0 || !strings.Contains(got.Basis.Note, "not proof it is not sold") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		_, err := svc.BrandInsights(ctx, grocery.BrandInput{})
		wantCode(t, err, grocery.EINVALID, "brand is required")
		_, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Nobody"})
		wantCode(t, err, grocery.EINVALID, `brand "Nobody" matches no product`)
		_, err = svc.BrandInsights(ctx, grocery.BrandInput{Brand: "Natrel", Province: "XX"})
		wantCode(t, err, grocery.EINVALID, "XX")
	})
}

func TestCompareBasket(t *testing.T) {
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// "butter" matches both butters by an exact name word (score 4 of
		// 4); "Butter" has fewer words than "Unsalted Butter": it wins.
		// loblaws: milk 2 × 5.00 = 10.00; butter 454 g lacking, substitute
		// unsalted 250 g (same category and basis, 250 / 454 >= 1/2) in
		// whole packs: 454 / 250 = 1.816, so 2 packs × 3.00 = 6.00 (500 g,
		// 1.20 per 100 g); cheese 8.00; total 24.00.
		// no-frills: 8.00 + 5.00 + 9.00 = 22.00. metro: 12.00 + 6.00 =
		// 18.00, cheese lacking (no other 200-800 g product of its
		// category): incomplete.
		// Cheapest no-frills 22.00, dearest loblaws 24.00: saves 2.00,
		// 2.00 / 24.00 = 8.33 -> 8.3%. Split loblaws + no-frills: milk nf
		// 8.00, butter nf 5.00 < 6.00, cheese lob 8.00 = 21.00, saving 3.00.
		got, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{
			{UPC: snapMilk, Quantity: 2}, {Name: "butter", Quantity: 1}, {UPC: snapCheese, Quantity: 1}, {Name: "caviar", Quantity: 1},
		}})
		if err != nil {
			t.Fatal(err)
		}
		butter := got.Items[1]
		wantMatch := &grocery.BasketMatch{Score: 4, MaxScore: 4, Confidence: 1, Candidates: 2,
			RunnerUp: &grocery.BasketRunner{UPC: snapUnsalted, Name: "Unsalted Butter", Brand: "Lactantia", Size: "250 g", Score: 4}}
		if butter.UPC != snapButter || !butter.Found || cmp.Diff(wantMatch, butter.Match) != "" {
			t.Errorf("butter: got %+v %+v", butter, butter.Match)
		}
		if got.Items[3].Found {
			t.Errorf("caviar found: %+v", got.Items[3])
		}
		type sum struct {
			Banner          string
			Total           grocery.Cents
			Complete        bool
			Lacking         []int
			Substitutes     int
			SubstituteUPC   string
			SubstitutePrice grocery.Cents
			Packs           int
			Wanted, Covered float64
			CoveredUnit     string
			UnitPrice       grocery.Cents
		}
		var sums []sum
		for _, b := range got.Banners {
			s := sum{Banner: b.Banner, Total: b.Total, Complete: b.Complete, Lacking: b.Lacking, Substitutes: b.Substitutes}
			for _, l := range b.Lines {
				if l.Substitute {
					s.SubstituteUPC, s.SubstitutePrice, s.Packs = l.UPC, l.Price, l.Packs
					s.Wanted, s.Covered, s.CoveredUnit, s.UnitPrice = l.Wanted, l.Covered, l.CoveredUnit, *l.UnitPrice
					if l.LineTotal != l.Price*grocery.Cents(l.Packs) {
						t.Errorf("%s: line total %v, want %v × %d packs", b.Banner, l.LineTotal, l.Price, l.Packs)
					}
				}
			}
			sums = append(sums, s)
		}
		wantSums := []sum{
			{"no-frills", 2200, true, []int{}, 0, "", 0, 0, 0, 0, "", 0},
			{"loblaws", 2400, true, []int{}, 1, snapUnsalted, 300, 2, 454, 500, "g", 120},
			{"metro", 1800, false, []int{2}, 0, "", 0, 0, 0, 0, "", 0},
		}
		if d := cmp.Diff(wantSums, sums); d != "" {
			t.Errorf("banners (-want +got)\n%s", d)
		}
		if d := cmp.Diff(&grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 2200}, got.Cheapest); d != "" {
			t.Errorf("cheapest: %s", d)
		}
		if d := cmp.Diff(&grocery.BasketChoice{Banners: []string{"loblaws", "no-frills"}, Total: 2100,
			Items: []string{"no-frills", "no-frills", "loblaws"}}, got.CheapestSplit); d != "" {
			t.Errorf("split: %s", d)
		}
		if got.Dearest.Banners[0] != "loblaws" || got.Savings != 200 || got.SavingsPct != 8.3 || got.SplitSavings != 300 {
			t.Errorf("dearest %+v savings %v %v split %v", got.Dearest, got.Savings, got.SavingsPct, got.SplitSavings)
		}
		if got.Basis.Comparison != grocery.CompareUnitPrice || !strings.Contains(got.Basis.Note, "1 of 4 items matched no product") {
			t.Errorf("basis: %+v", got.Basis)
		}
	})
	t.Run("OKSingleStore", func(t *testing.T) {
		// BC: one Sobeys store, milk 7.00 × 3 = 21.00; the split needs two
		// banners: none.
		got, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "BC", Items: []grocery.BasketItemInput{{UPC: snapMilk, Quantity: 3}}})
		if err != nil {
			t.Fatal(err)
		}
		if got.Cheapest == nil || got.Cheapest.Total != 2100 || got.CheapestSplit != nil || got.Savings != 0 || got.Basis.Stores != 1 {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		empty := openSnap(t)
		got, err := empty.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{Name: "milk", Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		if got.Items[0].Found || len(got.Banners) != 0 || got.Cheapest != nil || !strings.Contains(got.Basis.Note, "matched no product") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		many := make([]grocery.BasketItemInput, 101)
		for i := range many {
			many[i] = grocery.BasketItemInput{UPC: snapMilk, Quantity: 1}
		}
		for _, tc := range []struct {
			in   grocery.BasketInput
			text string
		}{
			{grocery.BasketInput{Items: many[:1]}, "province"},
			{grocery.BasketInput{Province: "ON"}, "items is required"},
			{grocery.BasketInput{Province: "ON", Items: many}, "at most 100"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: snapMilk, Quantity: 1}, {Quantity: 1}}}, "items[1]: upc or name is required"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: snapMilk, Name: "milk", Quantity: 1}}}, "items[0]: give upc or name"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: snapMilk, Quantity: 100}}}, "items[0].quantity 100"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: snapMilk}}}, "items[0].quantity 0"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: "068000000155", Quantity: 1}}}, "items[0].upc"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{Name: "!!", Quantity: 1}}}, "items[0].name"},
		} {
			_, err := svc.CompareBasket(ctx, tc.in)
			wantCode(t, err, grocery.EINVALID, tc.text)
		}
	})
}
