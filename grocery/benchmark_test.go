package grocery_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestCompetitiveBenchmark: every figure, on the benchmark data set
// (market_rules_test.go, where the market prices and shelf indexes are
// worked out).
func TestCompetitiveBenchmark(t *testing.T) {
	svc := openSnap(t, benchStores, benchObs())
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// Regular indexes (the market of regular prices, loblaws' regular
		// being 1.10 k for k <= 10):
		//   loblaws   k <= 10: 1.10 / median(1.10, 0.90, 1.20) = 1;
		//             11..20: 1/1.10; 21, 22: 1/1.075:
		//             100 × exp((10 ln(1/1.1) + 2 ln(1/1.075)) / 22) = 95.133 → 95.1
		//   no-frills k <= 10: 1.10 / median(1.10, 0.90, 1.20) = 1;
		//             11..20: 1.10; 21, 22: 1.10/1.025:
		//             100 × exp((10 ln 1.1 + 2 ln(1.1/1.025)) / 22) = 105.100 → 105.1
		//   metro     0.90 / 1.10 every k: 81.8
		//   sobeys    k <= 10: 1.20 / median(1.10, 1.10, 0.90) = 1.2/1.1;
		//             11..20: 1.20 / 1: 100 × sqrt(1.2/1.1 × 1.2) = 114.416 → 114.4
		//   food-basics 1.05 / median(1, 1.10) = 1: 100.0
		// Totals (one of each item): loblaws Σ k (k = 1..22) = 253.00;
		// its market Σ 1.10 k (k = 1..20) + 22.575 + 23.65 = 231 + 46.225
		// = 277.225 → 277.23. no-frills 1.10 × 253 = 278.30 against 210 +
		// 21.525 + 22.55 = 254.075 → 254.08. metro 0.90 × 210 = 189.00
		// against 231.00; sobeys 252.00 against 210.00; food-basics 22.05
		// + 23.10 = 45.15 against (21 + 23.10) / 2 + (22 + 24.20) / 2 =
		// 45.15.
		// Categories of loblaws: Pantry (k <= 20): 100 / 1.10 = 90.909 →
		// 90.9, regular 100 × exp(10 ln(1/1.1) / 20) = 95.346 → 95.3, 20
		// items, rank 2 of the 4 banners with 20 Pantry items; Snacks (21,
		// 22): 100 / 1.075 = 93.023 → 93.0 (regular the same), 2 items,
		// not ranked, no banner ranked there; 43.00 against 46.225 → 46.23.
		got, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "Loblaws", Province: "ontario"})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.BenchmarkResult{
			Banner: "loblaws", BannerName: "Loblaws", Province: "ON",
			WeekFrom: *snapDay("2026-11-19"), WeekTo: *snapDay("2026-11-25"), Basket: grocery.BasketOwnItems,
			Index: f64(91.1), RegularIndex: f64(95.1), Items: 22, Rank: 2, Ranked: 4, Total: 25300, MarketCost: 27723,
			Categories: []grocery.BenchmarkRow{
				{Category: "Pantry", Index: 90.9, RegularIndex: 95.3, Items: 20, Rank: 2, Ranked: 4, Total: 21000, MarketCost: 23100},
				{Category: "Snacks", Index: 93, RegularIndex: 93, Items: 2, Total: 4300, MarketCost: 4623},
			},
			Ranking: []grocery.BenchmarkRow{
				{Banner: "metro", BannerName: "Metro", Index: 81.8, RegularIndex: 81.8, Items: 20, Rank: 1, Total: 18900, MarketCost: 23100},
				{Banner: "loblaws", BannerName: "Loblaws", Index: 91.1, RegularIndex: 95.1, Items: 22, Rank: 2, Total: 25300, MarketCost: 27723},
				{Banner: "no-frills", BannerName: "No Frills", Index: 109.8, RegularIndex: 105.1, Items: 22, Rank: 3, Total: 27830, MarketCost: 25408},
				{Banner: "sobeys", BannerName: "Sobeys", Index: 120, RegularIndex: 114.4, Items: 20, Rank: 4, Total: 25200, MarketCost: 21000},
				{Banner: "food-basics", BannerName: "Food Basics", Index: 100, RegularIndex: 100, Items: 2, Rank: 0, Total: 4515, MarketCost: 4515},
			},
			Currency: "CAD",
			Basis: grocery.Basis{Provinces: []string{"ON"}, Banners: []string{"food-basics", "loblaws", "metro", "no-frills", "sobeys"},
				From: snapDay("2026-11-19"), To: snapDay("2026-11-19"), Stores: 5, Observations: 86, Comparison: grocery.CompareSameBarcode,
				Note: "1 of 5 banners have fewer than 20 items and are listed with rank 0 (not ranked); " +
					"a category's rank places the banner among the banners with at least 20 items in that category (0: not ranked)"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got)\n%s", d)
		}
	})
	t.Run("OKUnranked", func(t *testing.T) {
		got, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "food-basics", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Index == nil || *got.Index != 100 || got.Items != 2 || got.Rank != 0 || got.Ranked != 4 || !strings.Contains(got.Basis.Note, "Food Basics is compared on 2 items, fewer than 20") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("OKNoItem", func(t *testing.T) {
		// QC of the geography data set has two banners: each has one
		// other, fewer than the 2 a market needs: no item, no index (an
		// index of 0 would read as "100% cheaper").
		geo := openSnap(t, geoStores, geoObs)
		got, err := geo.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "maxi", Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Index != nil || got.RegularIndex != nil || got.Items != 0 || got.Rank != 0 || len(got.Ranking) != 0 ||
			!strings.Contains(got.Basis.Note, "Maxi prices no barcode that 2 other banners price in QC: nothing to compare, no index") {
			t.Errorf("got index %v, regular %v, %d items, rank %d, %d rows, note %q; want no index, 0, 0, 0 and a note",
				got.Index, got.RegularIndex, got.Items, got.Rank, len(got.Ranking), got.Basis.Note)
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"index":null,"regular_index":null`) {
			t.Errorf("JSON %s: want index and regular_index null", b)
		}
	})
	t.Run("ErrAbsent", func(t *testing.T) {
		// IGA has no reference store in ON.
		_, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "iga", Province: "ON"})
		wantCode(t, err, grocery.ENOTFOUND, "iga has no reference stores in ON: nothing to benchmark")
	})
	t.Run("ErrNoCurrentOffer", func(t *testing.T) {
		// A Food Basics store whose one observation is 30 days old: a
		// reference store, but no price in the flyer week.
		old := openSnap(t, benchStores, "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"+
			"2026-10-20,fb,food-basics,F1,2.00,2.00,,"+benchUPC(1)+",Item,Brand,1 L,Pantry\n"+
			"2026-11-19,lob,loblaws,L1,2.00,2.00,,"+benchUPC(1)+",Item,Brand,1 L,Pantry\n")
		_, err := old.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "food-basics", Province: "ON"})
		wantCode(t, err, grocery.ENOTFOUND, "no price of Food Basics was observed in the panel in ON in the flyer week 2026-11-19 to 2026-11-25: nothing to benchmark")
	})
	t.Run("ErrBanner", func(t *testing.T) {
		_, err := svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "nope", Province: "ON"})
		wantCode(t, err, grocery.EINVALIDARGUMENT, "nope")
		_, err = svc.CompetitiveBenchmark(ctx, grocery.BenchmarkInput{Banner: "metro"})
		wantCode(t, err, grocery.EINVALIDARGUMENT, "province")
	})
}

// TestBenchmarkTies: equal written indexes share a rank, listed by slug.
func TestBenchmarkTies(t *testing.T) {
	// Twenty items priced alike by three banners: each banner's market is
	// the other two's common price, every index 100.0, every rank 1.
	var b strings.Builder
	b.WriteString("date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n")
	for k := 1; k <= 20; k++ {
		for _, s := range []string{"lob,loblaws", "nf,no-frills", "met,metro"} {
			b.WriteString("2026-11-19," + s + ",S" + benchUPC(k) + ",2.00,2.00,," + benchUPC(k) + ",Item,Brand,1 L,Pantry\n")
		}
	}
	svc := openSnap(t, benchStores, b.String())
	got, err := svc.CompetitiveBenchmark(context.Background(), grocery.BenchmarkInput{Banner: "metro", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range got.Ranking {
		if r.Rank != 1 || r.Index != 100 || r.Items != 20 {
			t.Errorf("row %+v: want rank 1, index 100, 20 items", r)
		}
		order = append(order, r.Banner)
	}
	if d := cmp.Diff([]string{"loblaws", "metro", "no-frills"}, order); d != "" {
		t.Errorf("order (-want +got)\n%s", d)
	}
}

// f64 returns a pointer to v, for the figures that may be null.
func f64(v float64) *float64 { return &v }
