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
	svc, err := Open(filepath.Join(t.TempDir(), "p.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mustImport(t, svc, "stores.csv", periodStores, nil)
	mustImport(t, svc, "obs.csv", periodObs, nil)
	return svc
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
		// lob-a, lob-b, nf-c = 3. Previous: (5.00+6.00)/2 = 5.50; change
		// (5.08-5.50)/5.50 = -7.6 %.
		// Unit prices per 100 mL (5 milk observations; cheese's one per
		// 100 g is the minority): 4.00/20 = 0.20, 0.20, 0.25, 0.25,
		// 4.50/20 = 0.225; average 1.125/5 = 0.225 -> 0.23, median 0.225
		// -> 0.23, min 0.20, max 0.25.
		want := &CategoryReport{Province: "ON", Period: 30, From: day("2026-10-21"), To: day("2026-11-19"),
			PreviousFrom: day("2026-09-21"), PreviousTo: day("2026-10-20"), Currency: "CAD",
			Categories: []CategoryStats{{Category: "Dairy & Eggs", AveragePrice: 508, MinPrice: 400, MaxPrice: 800, MedianPrice: 475,
				UnitPrice: &UnitPriceStats{Basis: "per 100 mL", Average: 23, Min: 20, Max: 25, Median: 23, Observations: 5},
				Products:  2, Stores: 3, Observations: 6, PromoSharePct: 33.3, PreviousAveragePrice: cp(550), ChangePct: fp(-7.6)}},
			Basis: Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "no-frills"}, From: dp("2026-11-05"), To: dp("2026-11-19"),
				Stores: 3, Observations: 6, Comparison: CompareUnitPrice, Note: got.Basis.Note}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
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
		if len(c) != 1 || c[0].AveragePrice != 550 || c[0].MedianPrice != 550 || c[0].Stores != 1 || c[0].PreviousAveragePrice != nil || c[0].ChangePct != nil {
			t.Errorf("got %+v, want one observation of 5.50 and no previous period", c)
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
			if _, err := svc.CategoryReport(ctx, in); ErrorCode(err) != EINVALID {
				t.Errorf("%+v: got %v, want EINVALID", in, err)
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

func TestPromoCalendar(t *testing.T) {
	svc := periodService(t)
	ctx := context.Background()
	got, err := svc.PromoCalendar(ctx, PromoCalendarInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	// L1 at lob-a: on promotion 11-05 and 11-08 (3 days apart, within the
	// 7-day gap), regular on 11-12: one event 11-05..11-08, 5.00 -> 4.00,
	// a 20 % discount, 1 store, 2 observation days, over by 11-19.
	want := []PromoEvent{{Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "L1", UPC: "068000000154", Name: "2% Milk", Brand: "Natrel",
		Category: "Dairy & Eggs", Province: "ON", Start: day("2026-11-05"), End: day("2026-11-08"), RegularPrice: 500, PromoPrice: 400,
		DiscountPct: 20, Stores: 1, Days: 2}}
	if diff := cmp.Diff(want, got.Results); diff != "" || got.Total != 1 {
		t.Errorf("total %d (want 1), events (-want +got):\n%s", got.Total, diff)
	}
	if got.Basis.Observations != 2 || got.Basis.Stores != 3 || *got.Basis.From != day("2026-11-05") {
		t.Errorf("basis: got %+v", got.Basis)
	}
	// A tie: lob-b on promotion on 11-08 too, at 3.50 of 5.50: the
	// prices 4.00 and 3.50 tie once each on 11-08, but 4.00 was also seen
	// on 11-05: 4.00 (2) over 3.50 (1); regulars 5.00 (2) over 5.50 (1);
	// stores 2. The event is derived again from its start.
	mustImport(t, svc, "tie.csv", "date,store_id,banner,external_sku,price,regular_price\n2026-11-08,lob-b,loblaws,L1,3.50,5.50\n", nil)
	got, err = svc.PromoCalendar(ctx, PromoCalendarInput{Province: "ON", Banner: "loblaws", From: "2026-11-06", To: "2026-11-06"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 1 || got.Results[0].PromoPrice != 400 || got.Results[0].RegularPrice != 500 || got.Results[0].Stores != 2 || got.Results[0].Start != day("2026-11-05") {
		t.Errorf("after lob-b's promotion: got %+v, want one event from 11-05 at 4.00 of 5.00 in 2 stores", got.Results)
	}
	for _, in := range []PromoCalendarInput{{Province: "ON", From: "2026-11-20", To: "2026-11-01"}, {Province: "ON", From: "nov"},
		{Province: "ON", From: "2025-01-01", To: "2026-11-01"}, {Province: "ON", Limit: 501}, {}} {
		if _, err := svc.PromoCalendar(ctx, in); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: got %v, want EINVALID", in, err)
		}
	}
	empty, err := svc.PromoCalendar(ctx, PromoCalendarInput{Province: "QC"})
	if err != nil || len(empty.Results) != 0 || !strings.Contains(empty.Basis.Note, "not observed in the panel") {
		t.Errorf("QC: got %+v, %v; want no event and a note", empty, err)
	}
}

func TestNewOnShelf(t *testing.T) {
	svc := periodService(t)
	ctx := context.Background()
	got, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	// 14 days: 11-06..11-19. L1 was first seen 10-15 (not new); L2 and N1
	// on 11-19, one store each; newest first, then by banner.
	want := []NewProduct{
		{Banner: "loblaws", BannerName: "Loblaws", ExternalSKU: "L2", UPC: "060383000028", Name: "Old Cheddar", Brand: "Black Diamond", Size: "400 g",
			Category: "Dairy & Eggs", Province: "ON", FirstSeen: day("2026-11-19"), FirstPrice: 800, FirstStores: 1, LatestPrice: 800, LastSeen: day("2026-11-19")},
		{Banner: "no-frills", BannerName: "No Frills", ExternalSKU: "N1", UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L",
			Category: "Dairy & Eggs", Province: "ON", FirstSeen: day("2026-11-19"), FirstPrice: 450, FirstStores: 1, LatestPrice: 450, LastSeen: day("2026-11-19")},
	}
	if diff := cmp.Diff(want, got.Results); diff != "" || got.Total != 2 || got.From != day("2026-11-06") {
		t.Errorf("total %d from %s, (-want +got):\n%s", got.Total, got.From, diff)
	}
	one, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Banner: "no-frills", Limit: 1})
	if err != nil || one.Total != 1 || one.Results[0].ExternalSKU != "N1" {
		t.Errorf("no-frills: got %+v, %v", one, err)
	}
	// 60 days reach back to the panel's first day (10-15): the note says so.
	all, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Days: 60})
	if err != nil || all.Total != 3 || !strings.Contains(all.Basis.Note, "begin on 2026-10-15") {
		t.Errorf("60 days: got %+v, %v; want 3 with a note on the panel's start", all, err)
	}
	for _, in := range []NewOnShelfInput{{Province: "ON", Days: -1}, {Province: "ON", Days: 366}, {Province: "ON", Banner: "nope"}, {Province: ""}} {
		if _, err := svc.NewOnShelf(ctx, in); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: got %v, want EINVALID", in, err)
		}
	}
	empty, err := svc.NewOnShelf(ctx, NewOnShelfInput{Province: "ON", Category: "Caviar"})
	if err != nil || empty.Total != 0 || !strings.Contains(empty.Basis.Note, "not observed in the panel") {
		t.Errorf("Caviar: got %+v, %v", empty, err)
	}
}
