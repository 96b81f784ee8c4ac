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
