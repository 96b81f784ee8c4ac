package grocery

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

// TestOfferOnNewestDay: an offer whose stores' observations have all
// left the visit window is summarised on its newest day, with that day's
// 30-day low and typical price, when a later day elsewhere moves the data
// set's latest day. The lookups do not list such an offer; it is the
// stored record of what the banner priced before.
//
//	M7 met-a: 3.00 on 07-01, 07-08, 07-15, 07-22, 07-29; 4.00 on 08-05,
//	  08-12, 08-20. Each observation is in force 14 days: 3.00 every day
//	  from 07-01 to 08-04, 4.00 from 08-05.
//	On 08-20: price 4.00; the low over 07-21 to 08-19 is 3.00; the
//	  typical price over 06-22 to 08-20 is 3.00 (35 days against 4.00's
//	  16; no price before 07-01).
//
// A cheddar observed on 10-15 makes that the latest day: M7's offer is
// derived again, on 08-20, from the days before 08-20 as well, not only
// from the 73 days before 10-15 (which hold 4.00 alone).
func TestOfferOnNewestDay(t *testing.T) {
	s := openStores(t, metroStores)
	var rows strings.Builder
	rows.WriteString("date,store_id,banner,external_sku,price,upc,name,brand,size,category\n")
	for _, d := range []string{"07-01", "07-08", "07-15", "07-22", "07-29", "08-05", "08-12", "08-20"} {
		price := "3.00"
		if d >= "08" {
			price = "4.00"
		}
		rows.WriteString("2026-" + d + ",met-a,metro,M7," + price + ",068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n")
	}
	mustImport(t, s, "milk.csv", rows.String(), nil)
	mustImport(t, s, "later.csv", "date,store_id,banner,external_sku,price,upc,name,brand,size,category\n"+
		"2026-10-15,met-a,metro,C1,8.00,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs\n", nil)
	var got storage.Offer
	if err := s.db.View(func(tx *storage.Tx) error {
		_, err := tx.Offer("ON", "00068000000154", "metro", "M7", &got)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	observed, _ := ParseDate("2026-08-20")
	type figures struct {
		ObservedAt                   int32
		Price, Regular, Low, Typical uint32
		Expires                      int32
	}
	want := figures{int32(observed), 400, 400, 300, 300, 0}
	if d := cmp.Diff(want, figures{got.ObservedAt, got.Price, got.Regular, got.Low30, got.Typical, got.Expires}); d != "" {
		t.Errorf("M7's offer (-want +got):\n%s", d)
	}
}
