package grocery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const periodStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
lob-b,loblaws,ON,Loblaws B,Toronto,M5V 1A2,43.61,-79.40
nf-c,no-frills,ON,No Frills C,Toronto,M4C 1A1,43.63,-79.30
maxi-q,maxi,QC,Maxi Q,Montréal,H2X 1A1,45.50,-73.57
`

// The data set, as of 2026-11-19. Milk (2 L, 20 units "per 100 mL") is
// at Loblaws since 2026-10-15 and on promotion at lob-a on 11-05 and
// 11-08 (regular 5.00, promo 4.00), regular again on 11-12; No Frills
// carries it from 11-19 (new there); cheese (400 g, 4 units "per 100 g")
// appears at lob-a on 11-19; Quebec has one store (single-store case).
const periodObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-10-15,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-10-15,lob-b,loblaws,L1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-05,lob-a,loblaws,L1,4.00,5.00,2026-11-11,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-08,lob-a,loblaws,L1,4.00,5.00,2026-11-11,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-12,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-12,lob-b,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-c,no-frills,N1,4.50,4.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,maxi-q,maxi,M1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

func periodService(t *testing.T) *Service {
	t.Helper()
	return csvService(t, periodStores, periodObs)
}

func cp(c Cents) *Cents     { return &c }
func fp(f float64) *float64 { return &f }
func dp(s string) *Date     { d, _ := ParseDate(s); return &d }
func day(s string) Date     { d, _ := ParseDate(s); return d }

func TestCategoryReport(t *testing.T) {
	svc := periodService(t)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "on"})
		if err != nil {
			t.Fatal(err)
		}
		// 30d: 2026-10-21..11-19; previous 09-21..10-20.
		// In the period: 4.00 4.00 5.00 5.00 (L1), 4.50 (N1), 8.00 (L2).
		// count 6, sum 30.50, average 508.33 -> 5.08; min 4.00, max 8.00;
		// median of 4.00 4.00 4.50 5.00 5.00 8.00 = (4.50+5.00)/2 = 4.75.
		// Promotion: 2 of 6 = 33.3 %. Products: milk, cheese = 2. Stores:
		// lob-a, lob-b, nf-c = 3. Previous average: (5.00+6.00)/2 = 5.50.
		// Like for like: only loblaws L1 has daily prices in both periods
		// (N1 and L2 are new). A daily price is the banner's price in
		// force that day, the most common of its stores' (the lower on a
		// tie), each store's latest observation within 14 days: previous
		// 10-15, lob-a 5.00 and lob-b 6.00 tie: 5.00 (regular 5.00);
		// current 11-05 4.00 (lob-a alone: lob-b's 10-15 is 21 days old),
		// 11-08 4.00, 11-12 5.00 (both stores), regular 5.00 each day.
		// Shelf ratio (13.00/3)/5.00 = 0.866667: -13.3 %; regular
		// 5.00/5.00: 0 %. (The median of the stores observed gave 5.50 on
		// 10-15, a price no store charged: -21.2 % and -9.1 %.) Days with data:
		// 11-05, 11-08, 11-12, 11-19 (4) and 10-15 (1): a note.
		// Unit prices per 100 mL (5 milk observations; cheese's one per
		// 100 g is the minority): 4.00/20 = 0.20, 0.20, 0.25, 0.25,
		// 4.50/20 = 0.225; average 1.125/5 = 0.225 -> 0.23, median 0.225
		// -> 0.23, min 0.20, max 0.25.
		want := &CategoryReport{Province: "ON", Period: 30, From: day("2026-10-21"), To: day("2026-11-19"),
			PreviousFrom: day("2026-09-21"), PreviousTo: day("2026-10-20"), DaysWithData: 4, PreviousDaysWithData: 1, Currency: "CAD",
			Categories: []CategoryStats{{Category: "Dairy & Eggs", AveragePrice: 508, MinPrice: 400, MaxPrice: 800, MedianPrice: 475,
				UnitPrice: &UnitPriceStats{Basis: "per 100 mL", Average: 23, Min: 20, Max: 25, Median: 23, Observations: 5},
				Products:  2, Stores: 3, Observations: 6, PromoSharePct: 33.3, PreviousAveragePrice: cp(550),
				// One SKU of one banner matched: low_sample (5 SKUs, 2
				// banners needed).
				ChangePct: fp(-13.3), RegularChangePct: fp(0), Matched: 1, MatchedBanners: 1, LowSample: true, DaysWithData: 4, PreviousDaysWithData: 1,
				Note: "the previous period has data on 1 of its 30 days (this period on 4)"}},
			Basis: Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "no-frills"}, From: dp("2026-11-05"), To: dp("2026-11-19"),
				Stores: 3, Observations: 6, Comparison: CompareUnitPrice, Note: got.Basis.Note}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if !strings.Contains(got.Basis.Note, "the previous period has data on 1 of its 30 days (this period on 4)") {
			t.Errorf("basis note %q: want the report's thinner previous period said", got.Basis.Note)
		}
	})
	t.Run("SingleBanner", func(t *testing.T) {
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Banner: "Loblaws", Category: "dairy & eggs"})
		if err != nil {
			t.Fatal(err)
		}
		// 4.00 4.00 5.00 5.00 8.00: sum 26.00 / 5 = 5.20; median 5.00;
		// 2 of 5 on promotion = 40 %; stores lob-a, lob-b.
		c := got.Categories
		if len(c) != 1 || c[0].AveragePrice != 520 || c[0].MedianPrice != 500 || c[0].PromoSharePct != 40 || c[0].Stores != 2 || c[0].Products != 2 {
			t.Errorf("got %+v, want average 5.20, median 5.00, 40 %% promo, 2 stores, 2 products", c)
		}
	})
	t.Run("SingleStore", func(t *testing.T) {
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "QC", Period: "7d"})
		if err != nil {
			t.Fatal(err)
		}
		c := got.Categories
		if len(c) != 1 || c[0].AveragePrice != 550 || c[0].MedianPrice != 550 || c[0].Stores != 1 || c[0].PreviousAveragePrice != nil || c[0].ChangePct != nil || c[0].RegularChangePct != nil || c[0].Matched != 0 || c[0].DaysWithData != 1 || c[0].PreviousDaysWithData != 0 {
			t.Errorf("got %+v, want one observation of 5.50 on 1 day, no previous period and no change", c)
		}
	})
	t.Run("EmptyUnknownCategory", func(t *testing.T) {
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Category: "Caviar"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Categories) != 0 || !strings.Contains(got.Basis.Note, "not observed in the panel") || got.Basis.From != nil {
			t.Errorf("got %+v, want no category and a note", got)
		}
	})
	t.Run("EmptyBannerElsewhere", func(t *testing.T) {
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Banner: "maxi"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Categories) != 0 || !strings.Contains(got.Basis.Note, "does not operate in ON") {
			t.Errorf("got note %q, want it to say maxi does not operate in ON", got.Basis.Note)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		for _, in := range []CategoryReportInput{{}, {Province: "XX"}, {Province: "ON", Banner: "nope"}, {Province: "ON", Period: "2d"}} {
			if _, err := svc.CategoryReport(ctx, in); ErrorCode(err) != EINVALIDARGUMENT {
				t.Errorf("%+v: got %v, want EINVALIDARGUMENT", in, err)
			}
		}
	})
	t.Run("ReimportAndCorrection", func(t *testing.T) {
		mustImport(t, svc, "obs.csv", periodObs, nil) // the same rows: nothing changes
		got, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON"})
		if err != nil || got.Categories[0].Observations != 6 || got.Categories[0].AveragePrice != 508 {
			t.Fatalf("after a re-import: got %+v, %v; want 6 observations averaging 5.08", got, err)
		}
		// lob-b's 5.00 on 11-12 corrected to 6.20: sum 30.50 + 1.20 =
		// 31.70 / 6 = 5.2833 -> 5.28; max stays 8.00.
		mustImport(t, svc, "fix.csv", "date,store_id,banner,external_sku,price\n2026-11-12,lob-b,loblaws,L1,6.20\n", nil)
		got, err = svc.CategoryReport(ctx, CategoryReportInput{Province: "ON"})
		if err != nil || got.Categories[0].Observations != 6 || got.Categories[0].AveragePrice != 528 {
			t.Fatalf("after a correction: got %+v, %v; want 6 observations averaging 5.28", got, err)
		}
	})
}

// likeStores and likeObs: a week against the week before (7d as of
// 2026-11-19: 11-13..11-19 against 11-06..11-12), where the mix of
// products changes between the weeks.
//
// Produce: apples (loblaws LA, 1 kg) in both weeks, two days each, once
// at one store and once at two; bananas (loblaws LB) on promotion in the
// first week (4.00, regular 5.00), at 5.00 in the second; cherries
// (no-frills NC, 2 kg) new in the second week; apples at no-frills (NA)
// only in the first. Household: bags (loblaws H1, 100 bags) at 22.49 and
// 22.50 on the last day.
const likeStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
lob-b,loblaws,ON,Loblaws B,Toronto,M5V 1A2,43.61,-79.40
nf-c,no-frills,ON,No Frills C,Toronto,M4C 1A1,43.63,-79.30
`

const likeObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-06,nf-c,no-frills,NA,1.50,1.50,,060383001018,Apples,Farm,1 kg,Produce
2026-11-10,lob-a,loblaws,LA,2.00,2.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-10,lob-a,loblaws,LB,4.00,5.00,2026-11-12,060383001025,Bananas,Farm,454 g,Produce
2026-11-11,lob-a,loblaws,LA,2.00,2.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-11,lob-b,loblaws,LA,2.01,2.01,,060383001018,Apples,Farm,1 kg,Produce
2026-11-15,lob-a,loblaws,LA,2.20,2.20,,060383001018,Apples,Farm,1 kg,Produce
2026-11-15,lob-a,loblaws,LB,5.00,5.00,,060383001025,Bananas,Farm,454 g,Produce
2026-11-15,nf-c,no-frills,NC,9.00,9.00,,060383001032,Cherries,Farm,2 kg,Produce
2026-11-18,lob-a,loblaws,LA,2.20,2.20,,060383001018,Apples,Farm,1 kg,Produce
2026-11-18,lob-b,loblaws,LA,2.21,2.21,,060383001018,Apples,Farm,1 kg,Produce
2026-11-18,nf-c,no-frills,NC,9.00,9.00,,060383001032,Cherries,Farm,2 kg,Produce
2026-11-19,lob-a,loblaws,H1,22.49,22.49,,060383001049,Bags,Glad,100 bags,Household
2026-11-19,lob-b,loblaws,H1,22.50,22.50,,060383001049,Bags,Glad,100 bags,Household
`

// TestCategoryReportLikeForLike: change_pct is a matched-model Jevons
// index over the banner SKUs priced in both periods, not the change of
// the average of whatever was observed (which moves with the mix and was
// computed from averages already rounded to the cent).
func TestCategoryReportLikeForLike(t *testing.T) {
	svc := csvService(t, likeStores, likeObs)
	got, err := svc.CategoryReport(context.Background(), CategoryReportInput{Province: "ON", Period: "7d", Category: "Produce"})
	if err != nil {
		t.Fatal(err)
	}
	// Levels, this week: 2.20 5.00 9.00 (11-15), 2.20 2.21 9.00 (11-18):
	// 6 observations, sum 29.61, average 4.935 -> 4.94; median of 2.20
	// 2.20 2.21 5.00 9.00 9.00 = (2.21+5.00)/2 = 3.605 -> 3.61. Last week:
	// 1.50 2.00 4.00 2.00 2.01: sum 11.51 / 5 = 2.302 -> 2.30. The old
	// rule, (4.94-2.30)/2.30, gave +114.8 %.
	//
	// Like for like, over the banner SKUs with a daily price in both
	// weeks (loblaws LA and LB; NA and NC are in one week only), each
	// store's price in force (its latest within 14 days) compared with the
	// same store's on the SKU's previous day with a daily price, the
	// links chained from the SKU's first day of the two weeks:
	//   LA: 11-10 index 1 (lob-a 2.00); 11-11 lob-a 2.00 -> 2.00, link 1
	//       (lob-b's first price matches nothing); 11-15 lob-a 2.00 ->
	//       2.20, lob-b 2.01 -> 2.01 (11-11's, still in force): link
	//       sqrt(1.1), index 1.0488088; 11-18 lob-a 2.20 -> 2.20, lob-b
	//       2.01 -> 2.21: link sqrt(2.21/2.01), index sqrt(1.1 × 2.21/2.01)
	//       = 1.0997512. Means 1 and 1.0742800: ratio 1.0742800. (The
	//       banner's daily prices, 2.00 2.00 | 2.01 2.20, the lower of
	//       two stores' prices, gave 1.0525, a rise the stores did not
	//       make on 11-15.)
	//   LB: lob-a 4.00 (promotion) -> 5.00: 1.25 (regular 5.00/5.00 = 1)
	// change_pct = (sqrt(1.0742800 × 1.25) - 1) × 100 = 15.8814 -> 15.9
	// regular_change_pct = (sqrt(1.0742800 × 1) - 1) × 100 = 3.6475 -> 3.6
	// Days with data: 11-15, 11-18 (2); 11-06, 11-10, 11-11 (3): no note.
	// Unit prices per 100 g (LA 1 kg: 10 units, LB 454 g: 4.54, NC 2 kg:
	// 20), in cents: 22 22 22.1 (LA) 110.132 (LB) 45 45 (NC); average
	// 266.232/6 = 44.37 -> 0.44; median (22.1+45)/2 = 33.55 -> 0.34.
	c := got.Categories
	if len(c) != 1 {
		t.Fatalf("got %d categories, want Produce only", len(c))
	}
	want := CategoryStats{Category: "Produce", AveragePrice: 494, MinPrice: 220, MaxPrice: 900, MedianPrice: 361,
		UnitPrice: &UnitPriceStats{Basis: "per 100 g", Average: 44, Min: 22, Max: 110, Median: 34, Observations: 6}, Products: 3, Stores: 3, Observations: 6, PreviousAveragePrice: cp(230),
		// Two SKUs of one banner (loblaws LA, LB) matched: low_sample.
		ChangePct: fp(15.9), RegularChangePct: fp(3.6), Matched: 2, MatchedBanners: 1, LowSample: true, DaysWithData: 2, PreviousDaysWithData: 3}
	if diff := cmp.Diff(want, c[0]); diff != "" {
		t.Errorf("Produce (-want +got):\n%s", diff)
	}
	if strings.Contains(got.Basis.Note, "fewer days") {
		t.Errorf("note %q: the previous week is not thinner", got.Basis.Note)
	}

	// One banner: the other banner's SKUs leave both the levels and the
	// match. no-frills has NA last week and NC this week: nothing matched.
	nf, err := svc.CategoryReport(context.Background(), CategoryReportInput{Province: "ON", Period: "7d", Banner: "no-frills"})
	if err != nil {
		t.Fatal(err)
	}
	if c := nf.Categories; len(c) != 1 || c[0].Matched != 0 || c[0].ChangePct != nil || c[0].RegularChangePct != nil ||
		c[0].PreviousAveragePrice == nil || *c[0].PreviousAveragePrice != 150 || c[0].DaysWithData != 2 || c[0].PreviousDaysWithData != 1 ||
		c[0].Note != "the previous period has data on 1 of its 7 days (this period on 2)" {
		t.Errorf("no-frills: got %+v, want nothing matched, previous average 1.50, 2 and 1 days with data and a note", c)
	}

	// Medians of an even count are exact and rounded when written:
	// Household's two prices 22.49 and 22.50 give 22.495 -> 22.50; their
	// unit prices per unit (100 bags) are 22.49 and 22.50 cents, whose
	// median 22.495 cents is written 0.22 (rounding the median first to
	// a hundredth of a cent, as before, gave 22.50 cents -> 0.23).
	hh, err := svc.CategoryReport(context.Background(), CategoryReportInput{Province: "ON", Period: "7d", Category: "household"})
	if err != nil {
		t.Fatal(err)
	}
	if c := hh.Categories; len(c) != 1 || c[0].MedianPrice != 2250 || c[0].UnitPrice == nil || c[0].UnitPrice.Median != 22 || c[0].UnitPrice.Basis != "per unit" {
		t.Errorf("Household: got %+v (unit %+v), want median 22.50 and unit median 0.22 per unit", c, c[0].UnitPrice)
	}
}

// Reports reuse their accumulators (catreport's pool): nothing of one report
// may reach the next. A report of ON after reports of QC and of one
// category equals the first report of ON.
func TestCategoryReportReuse(t *testing.T) {
	svc := periodService(t)
	// A product Quebec has and Ontario has not, in the same category.
	mustImport(t, svc, "qc.csv", "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"+
		"2026-11-19,maxi-q,maxi,M2,3.25,3.25,,067000378089,Orange Juice,Tropicana,1.75 L,Dairy & Eggs\n", nil)
	ctx := context.Background()
	report := func(in CategoryReportInput) *CategoryReport {
		t.Helper()
		r, err := svc.CategoryReport(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := report(CategoryReportInput{Province: "ON"})
	if len(first.Categories) == 0 || first.Categories[0].Matched == 0 {
		t.Fatalf("ON: %+v, want a category with matched SKUs", first.Categories)
	}
	for range 3 {
		report(CategoryReportInput{Province: "QC"})
		report(CategoryReportInput{Province: "ON", Banner: "no-frills"})
		report(CategoryReportInput{Province: "ON", Category: "dairy & eggs", Period: "7d"})
	}
	if diff := cmp.Diff(first, report(CategoryReportInput{Province: "ON"})); diff != "" {
		t.Errorf("ON after other reports (-first +again):\n%s", diff)
	}
}

// TestChangesStoreMade: a banner's price in force moves when a store's
// observation leaves the visit window, though no store changed its price:
// loblaws' store B (4.00) was last seen on 11-01, so from 11-15 only store
// A's 5.00 is in force and the banner's price goes from 4.00 (the lower of
// a tie) to 5.00. Nothing moved: the category report's change is 0.0%
// over the one SKU, and the brief has no mover (the banner's prices gave
// +25.0% for both).
func TestChangesStoreMade(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "left.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mustImport(t, svc, "stores.csv", likeStores, nil)
	mustImport(t, svc, "obs.csv", `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-01,lob-a,loblaws,LX,5.00,5.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-01,lob-b,loblaws,LX,4.00,4.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-08,lob-a,loblaws,LX,5.00,5.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-12,lob-a,loblaws,LX,5.00,5.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-16,lob-a,loblaws,LX,5.00,5.00,,060383001018,Apples,Farm,1 kg,Produce
2026-11-19,lob-a,loblaws,LX,5.00,5.00,,060383001018,Apples,Farm,1 kg,Produce
`, nil)
	ctx := context.Background()
	rep, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Period: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Categories; len(c) != 1 || c[0].Matched != 1 || c[0].ChangePct == nil || *c[0].ChangePct != 0 ||
		c[0].RegularChangePct == nil || *c[0].RegularChangePct != 0 {
		t.Errorf("category report: got %+v, want Produce with 1 SKU matched and changes of 0.0", c)
	}
	b, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.MoversUp) != 0 || len(b.MoversDown) != 0 {
		t.Errorf("brief movers: got up %+v, down %+v, want none", b.MoversUp, b.MoversDown)
	}
	if c := b.Categories; len(c) != 1 || c[0].WeekPct == nil || *c[0].WeekPct != 0 {
		t.Errorf("brief categories: got %+v, want Produce at 0.0 week over week", c)
	}
}
