package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

const visitStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
sob-a,sobeys,ON,Sobeys A,Toronto,M5V 1A1,43.60,-79.40
sob-b,sobeys,ON,Sobeys B,Toronto,M5V 1A2,43.61,-79.40
sob-c,sobeys,ON,Sobeys C,Toronto,M5V 1A3,43.62,-79.40
`

// visitObs, as of 2026-11-17: the chocolate bars are 4.99 at store A and
// 5.39 at store B all along; both stores are visited on 10-20, 10-27,
// 11-03 and 11-10, store A alone on 11-17. No store's price moved.
const visitObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-10-20,sob-a,sobeys,S1,4.99,4.99,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-10-20,sob-b,sobeys,S1,5.39,5.39,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-10-27,sob-a,sobeys,S1,4.99,4.99,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-10-27,sob-b,sobeys,S1,5.39,5.39,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-11-03,sob-a,sobeys,S1,4.99,4.99,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-11-03,sob-b,sobeys,S1,5.39,5.39,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-11-10,sob-a,sobeys,S1,4.99,4.99,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-11-10,sob-b,sobeys,S1,5.39,5.39,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
2026-11-17,sob-a,sobeys,S1,4.99,4.99,,062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks
`

// TestDailyPriceVisitPattern: a banner SKU's daily price is its price in
// force over every store whose price is in force, not the median of the
// stores visited that day, so a day on which only the cheaper store was
// visited is no change and no 30-day low. The median rule made 11-17
// (4.99, store A alone) 3.9% under the 5.19 of the days both stores were
// visited: a lowest_in_30_days signal and a -3.9% category change that no
// store made.
func TestDailyPriceVisitPattern(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "v.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	mustImport(t, svc, "stores.csv", visitStores, nil)
	mustImport(t, svc, "obs.csv", visitObs, nil)

	got, err := svc.Signals(ctx, SignalsInput{Province: "ON", Banner: "sobeys", Kind: "changes"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range got.Results {
		t.Errorf("signal %s %s at %v: no store's price moved", s.Type, s.Evidence.UPC, s.Evidence.Price)
	}

	// Each day's price in force: 4.99 and 5.39 tie, the lower, 4.99; on
	// 11-17 store B's 5.39 of 11-10 is still in force: 4.99 again. This
	// week (11-11..11-17) 4.99 against the week before (11-04..11-10)
	// 4.99: 0.0%.
	rep, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Banner: "sobeys", Period: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Categories) != 1 || rep.Categories[0].ChangePct == nil || *rep.Categories[0].ChangePct != 0 || rep.Categories[0].Matched != 1 {
		t.Fatalf("category report: got %+v, want Snacks at 0.0%% over 1 matched SKU", rep.Categories)
	}
}

// TestDailyPriceLaterImport: an import of earlier days sets the daily
// price of the stored days after them that its observations hold in
// force. Store A's 3.00 of 11-17 is imported first (the day's price is
// 3.00); then stores B and C at 3.50 on 11-10, still in force on 11-17,
// where 3.50 is now the most common price. The aggregates must equal a
// recomputation from the observations (Verify), and the week's change is
// 3.50 against 3.50: 0.0% (the stale 3.00 gave -14.3%).
func TestDailyPriceLaterImport(t *testing.T) {
	svc := laterImport(t,
		"2026-11-17,sob-a,sobeys,S3,3.00,3.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n",
		"2026-11-10,sob-b,sobeys,S3,3.50,3.50,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n"+
			"2026-11-10,sob-c,sobeys,S3,3.50,3.50,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n")
	ctx := context.Background()
	rep, err := svc.CategoryReport(ctx, CategoryReportInput{Province: "ON", Banner: "sobeys", Period: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Categories) != 1 || rep.Categories[0].ChangePct == nil || *rep.Categories[0].ChangePct != 0 {
		t.Fatalf("category report: got %+v, want Pantry at 0.0%%", rep.Categories)
	}
}

// TestDailyPriceLaterImportLookback: a daily price looks back on the 30
// days before it (the lowest daily price, the latest regular price; the
// signals read them), so an import of earlier days sets what the stored
// days of the 30 days after the days it sets look back on. Store A's 3.00
// on 10-20 and 11-14 come first; then stores B and C at 3.50 on 10-13,
// which make 10-20's price 3.50 and so the lowest price 11-14 looks back
// on 3.50, 32 days after 10-13: the aggregates must equal a
// recomputation.
func TestDailyPriceLaterImportLookback(t *testing.T) {
	laterImport(t,
		"2026-10-20,sob-a,sobeys,S4,3.00,3.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n"+
			"2026-11-14,sob-a,sobeys,S4,3.00,3.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n",
		"2026-10-13,sob-b,sobeys,S4,3.50,3.50,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n"+
			"2026-10-13,sob-c,sobeys,S4,3.50,3.50,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n")
}

// laterImport imports visitStores, then the observation rows late, then
// the rows early (of earlier days), and checks that the aggregates equal
// a recomputation from the observations (Verify).
func laterImport(t *testing.T, late, early string) *Service {
	t.Helper()
	const header = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	svc := csvService(t, visitStores, header+late)
	mustImport(t, svc, "early.csv", header+early, nil)
	if err := svc.Verify(context.Background()); err != nil {
		t.Fatalf("verify after an import of earlier days: %v", err)
	}
	return svc
}

// TestDailyPriceLinkAfterGap: a daily price's link looks back to the
// banner SKU's previous day with a daily price however far back, over
// the stores in force on both days, and a day appended after a gap reads
// the observations in force on that previous day, not only those of the
// lookback and the visit window before it.
//
//	S1: store A 5.00 on 08-01; store B 5.00 on 08-11 (A's 08-01 is still
//	  in force then: 14 days); then, in a second file, A 5.50 on 09-15.
//	On 09-15 the stores in force on both 08-11 and 09-15 are A alone:
//	  link = 10^7 × ln(5.50 / 5.00) = 953,101.8, rounded 953,102, the
//	  regular link too (no regular price given: the price). No daily
//	  price in the 30 days before: no low, no gap, not fell. The daily
//	  price is A's 5.50: 1,100 half-cents.
//
// The write read from 43 days before 09-15 (08-03): it missed A's 08-01,
// saw only B in force on 08-11, and linked nothing.
func TestDailyPriceLinkAfterGap(t *testing.T) {
	ctx := context.Background()
	svc, err := Open(filepath.Join(t.TempDir(), "v.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	const head = "date,store_id,banner,external_sku,price,upc,name,brand,size,category\n"
	const bar = ",062000000015,Caramilk Multipack,Cadbury,4 x 50 g,Snacks\n"
	mustImport(t, svc, "stores.csv", visitStores, nil)
	mustImport(t, svc, "first.csv", head+"2026-08-01,sob-a,sobeys,S1,5.00"+bar+"2026-08-11,sob-b,sobeys,S1,5.00"+bar, nil)
	mustImport(t, svc, "second.csv", head+"2026-09-15,sob-a,sobeys,S1,5.50"+bar, nil)
	got := skuDays(t, svc, "Snacks", "2026-09-15")
	want := []storage.SKUDay{{SKU: "S1", Lookback: storage.Lookback{Link: 953102, RegularLink: 953102}, Price: 1100, Regular: 1100}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("S1 on 09-15 (-want +got):\n%s", d)
	}
	if err := svc.Verify(ctx); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// TestDailyPriceLaterImportGap: an import of an earlier day links the
// next stored day to it, however far after. S5: store A 3.00 on 11-20
// and 11-25, then, in a second file, 3.50 on 09-15, 66 days before: 11-20 now links
// to 09-15 over store A, 10^7 × ln(3.00 / 3.50) = -1,541,506.8, rounded
// -1,541,507 (the regular price too); 11-25 still links to 11-20, at 0.
// The write recomputed the days to 43 days after 09-15 only, and 11-20
// kept no link.
func TestDailyPriceLaterImportGap(t *testing.T) {
	svc := laterImport(t,
		"2026-11-20,sob-a,sobeys,S5,3.00,3.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n"+
			"2026-11-25,sob-a,sobeys,S5,3.00,3.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n",
		"2026-09-15,sob-a,sobeys,S5,3.50,3.50,,062000000022,Oat Flakes,Beta,1 kg,Pantry\n")
	want := []storage.SKUDay{{SKU: "S5", Lookback: storage.Lookback{Link: -1541507, RegularLink: -1541507}, Price: 600, Regular: 600}}
	if d := cmp.Diff(want, skuDays(t, svc, "Pantry", "2026-11-20")); d != "" {
		t.Errorf("S5 on 11-20 (-want +got):\n%s", d)
	}
}

// skuDays returns the daily prices of the Sobeys SKUs of a category in
// Ontario on a day (the category day's SKUs).
func skuDays(t *testing.T, svc *Service, category, date string) []storage.SKUDay {
	t.Helper()
	day, err := ParseDate(date)
	if err != nil {
		t.Fatal(err)
	}
	var got []storage.SKUDay
	if err := svc.db.View(func(tx *storage.Tx) error {
		return tx.CatDays("ON", category, "sobeys", int32(day), int32(day), storage.CatSKUs, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			got = append(got, c.SKUs...)
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return got
}
