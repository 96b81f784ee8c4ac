package grocery_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// The verdict data set (stores of geoStores), as of 2026-11-19. The
// 30-day low looks at 10-20 to 11-18, the typical price at 09-21 to
// 11-19; every store observes at most 10 days apart, so a price is in
// force every day.
//
//	L1 lob-1: 4.99 from 09-15; 11-19 3.49 on promotion (regular 4.99).
//	  low 4.99, typical 4.99: 3.49 is at or below the low and below the
//	  typical price: lowest_in_30_days.
//	M1 met-1: 3.00 from 09-15, 3.50 from 11-10. low 3.00 (10-20 to 11-09);
//	  typical 3.00 (50 days against 3.50's 10): above_usual.
//	N1 nf-1: 4.49 from 09-15; 10-25 2.99 on promotion to 10-31 (then 4.49
//	  again); 11-19 3.99 on promotion. low 2.99, typical 4.49: a
//	  promotion, but not the lowest: on_promotion.
//	L2 lob-2: 5.00 from 09-15; 10-22 4.00 on promotion to 10-25; 5.00
//	  again from 10-26, last seen 11-18. low 4.00, typical 5.00: 5.00 is
//	  the usual price. On 11-25, 10-25 has left the 30 days: low 5.00.
//	L9 lob-1 (butter): first seen 11-19 at 6.00: no low, typical 6.00,
//	  usual_price.
var verdictObs = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n" +
	verdictRows("lob-1,loblaws,L1,4.99,4.99,", "09-15", "09-25", "10-05", "10-15", "10-25", "11-04", "11-14") +
	"2026-11-19,lob-1,loblaws,L1,3.49,4.99,2026-11-30,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n" +
	verdictRows("met-1,metro,M1,3.00,3.00,", "09-15", "09-25", "10-05", "10-15", "10-25", "11-04") +
	verdictRows("met-1,metro,M1,3.50,3.50,", "11-10", "11-19") +
	verdictRows("nf-1,no-frills,N1,4.49,4.49,", "09-15", "09-25", "10-05", "10-15", "11-05", "11-15") +
	verdictRows("nf-1,no-frills,N1,2.99,4.49,2026-10-31", "10-25") +
	verdictRows("nf-1,no-frills,N1,3.99,4.49,2026-11-25", "11-19") +
	verdictRows("lob-2,loblaws,L2,5.00,5.00,", "09-15", "09-25", "10-05", "10-15", "10-26", "11-05", "11-14", "11-18") +
	verdictRows("lob-2,loblaws,L2,4.00,5.00,2026-10-25", "10-22") +
	"2026-11-19,lob-1,loblaws,L9,6.00,6.00,,064100000018,Butter,Lactantia,454 g,Spreads\n"

// verdictRows writes the milk's rows of one store, SKU and prices
// (fields: store, banner, sku, price, regular, promo end) on days of 2026.
func verdictRows(fields string, days ...string) string {
	var b strings.Builder
	for _, d := range days {
		b.WriteString("2026-" + d + "," + fields + ",068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n")
	}
	return b.String()
}

// TestPriceVerdict: each offer's 30-day low, typical price and verdict,
// worked by hand above; price_history says the same of its last day
// whatever its period; and an offer no import touches follows its
// figures when the latest day moves (L2's low).
func TestPriceVerdict(t *testing.T) {
	ctx := context.Background()
	type verdict struct {
		SKU             string
		Price, Low, Typ grocery.Cents
		Verdict         string
	}
	offers := func(t *testing.T, svc *grocery.Service, upc string) []verdict {
		t.Helper()
		res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		var got []verdict
		for _, o := range res.Offers {
			v := verdict{SKU: o.ExternalSKU, Price: o.Price, Typ: o.TypicalPrice, Verdict: o.Verdict}
			if o.Low30d != nil {
				v.Low = *o.Low30d
			}
			got = append(got, v)
		}
		return got
	}
	svc := openSnap(t, geoStores, verdictObs)
	t.Run("Offers", func(t *testing.T) {
		want := []verdict{
			{"L1", 349, 499, 499, grocery.VerdictLowest},
			{"M1", 350, 300, 300, grocery.VerdictAbove},
			{"N1", 399, 299, 449, grocery.VerdictPromotion},
			{"L2", 500, 400, 500, grocery.VerdictUsual},
		}
		if d := cmp.Diff(want, offers(t, svc, "068000000154")); d != "" {
			t.Errorf("milk (-want +got):\n%s", d)
		}
		want = []verdict{{"L9", 600, 0, 600, grocery.VerdictUsual}}
		if d := cmp.Diff(want, offers(t, svc, "064100000018")); d != "" {
			t.Errorf("butter, first seen today: no low (-want +got):\n%s", d)
		}
	})
	t.Run("History", func(t *testing.T) {
		low := grocery.Cents(299)
		want := &grocery.PriceVerdict{Price: 399, Low30d: &low, TypicalPrice: 449, Verdict: grocery.VerdictPromotion}
		for _, period := range []string{"7d", "30d", "90d"} {
			res, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: "N1", Banner: "no-frills", Province: "ON", Period: period})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, res.Verdict); d != "" {
				t.Errorf("N1 over %s (-want +got):\n%s", period, d)
			}
		}
	})
	t.Run("LatestDayMoves", func(t *testing.T) {
		// Another SKU's row moves the latest day to 11-25: L2's 4.00 of
		// 10-25 is no longer within the 30 days before.
		now := func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }
		svc, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		for _, f := range []string{geoStores, verdictObs} {
			if _, err := svc.Import(ctx, "f.csv", strings.NewReader(f), nil); err != nil {
				t.Fatal(err)
			}
		}
		if got := offers(t, svc, "068000000154"); got[len(got)-1].Low != 400 {
			t.Fatalf("L2 on 11-19: got %+v, want low 4.00", got[len(got)-1])
		}
		if _, err := svc.Import(ctx, "late.csv", strings.NewReader("date,store_id,banner,external_sku,price,upc,name,brand,size,category\n"+
			"2026-11-25,met-1,metro,C1,8.00,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs\n"), nil); err != nil {
			t.Fatal(err)
		}
		for _, v := range offers(t, svc, "068000000154") {
			if v.SKU == "L2" && (v.Low != 500 || v.Typ != 500 || v.Verdict != grocery.VerdictUsual) {
				t.Errorf("L2 on 11-25: got %+v, want low 5.00, typical 5.00, usual_price", v)
			}
		}
	})
}
