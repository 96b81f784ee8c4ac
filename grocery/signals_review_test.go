package grocery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestSignalsReviewCases: three cases a review found wrong, on a data set
// as of 2026-11-19 at one Loblaws store.
//   - Kettle Sea Salt Chips: 220 g at a regular 4.00 all along; 200 g new
//     on 11-10 at a regular 3.99 (1.995 a gram against 1.818: +9.7%, a
//     shrink), on promotion at 2.99 on the last day. The promotion must
//     not hide the shrink.
//   - Lay's Classic Chips: 235 g last observed 2026-08-01 at 3.00; 200 g
//     new on 11-10 at 3.49 (+36.7% a gram). The older size left the shelf
//     months ago: no shrink against it.
//   - Natrel milk: charged 5.50 on 11-01, then a promotion from 11-15 at
//     4.50 against a claimed regular 5.00, below what was charged: the
//     reference understates the saving, which is not dishonest.
func TestSignalsReviewCases(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "s.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", "store_id,banner,province,name,city,postal_code,latitude,longitude\n"+
		"lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40\n", nil)
	const head = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	rows := head +
		"2026-08-01,lob-a,loblaws,K220,4.00,4.00,,068000000307,Sea Salt Chips,Kettle,220 g,Snacks\n" +
		"2026-11-10,lob-a,loblaws,K220,4.00,4.00,,068000000307,Sea Salt Chips,Kettle,220 g,Snacks\n" +
		"2026-11-19,lob-a,loblaws,K220,4.00,4.00,,068000000307,Sea Salt Chips,Kettle,220 g,Snacks\n" +
		"2026-11-10,lob-a,loblaws,K200,3.99,3.99,,068000000314,Sea Salt Chips,Kettle,200 g,Snacks\n" +
		"2026-11-19,lob-a,loblaws,K200,2.99,3.99,2026-11-25,068000000314,Sea Salt Chips,Kettle,200 g,Snacks\n" +
		"2026-08-01,lob-a,loblaws,L235,3.00,3.00,,068000000321,Classic Chips,Lay's,235 g,Snacks\n" +
		"2026-11-10,lob-a,loblaws,L200,3.49,3.49,,068000000208,Classic Chips,Lay's,200 g,Snacks\n" +
		"2026-11-19,lob-a,loblaws,L200,3.49,3.49,,068000000208,Classic Chips,Lay's,200 g,Snacks\n" +
		"2026-11-01,lob-a,loblaws,M1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n" +
		"2026-11-15,lob-a,loblaws,M1,4.50,5.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n" +
		"2026-11-19,lob-a,loblaws,M1,4.50,5.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n"
	mustImport(t, svc, "obs.csv", rows, nil)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "changes", Since: "2026-11-01", Limit: Some(500)})
	if err != nil {
		t.Fatal(err)
	}
	var shrinks []string
	for _, s := range got.Results {
		switch s.Type {
		case "shrinkflation":
			shrinks = append(shrinks, s.Evidence.Brand)
		case "unverified_reference_price":
			t.Errorf("an understated reference flagged: %s", s.Explanation)
		}
	}
	if strings.Join(shrinks, ",") != "Kettle" {
		t.Errorf("shrinkflation for %v, want Kettle only (its promotion must not hide it; Lay's older size left the shelf)", shrinks)
	}
}

// TestSignalsShrinkWithinType (issue 28): a smaller pack is a shrink only
// of the same product type. Kettle "Sea Salt Chips" 220 g (potato chips)
// at a regular 4.00 and a new 200 g "Sea Salt Chips" that is a tortilla
// chip at 3.99 (+9.7% a gram): another kind of product, no shrink; the
// same 200 g typed potato chips is one.
func TestSignalsShrinkWithinType(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		want string
	}{{"tortilla chips", ""}, {"potato chips", "Kettle"}} {
		svc, err := Open(filepath.Join(t.TempDir(), "s.db"), &Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustImport(t, svc, "stores.csv", "store_id,banner,province,name,city,postal_code,latitude,longitude\n"+
			"lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40\n", nil)
		rows := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category,product_type\n" +
			"2026-08-01,lob-a,loblaws,K220,4.00,4.00,,068000000307,Sea Salt Chips,Kettle,220 g,Snacks,potato chips\n" +
			"2026-11-19,lob-a,loblaws,K220,4.00,4.00,,068000000307,Sea Salt Chips,Kettle,220 g,Snacks,potato chips\n" +
			"2026-11-10,lob-a,loblaws,K200,3.99,3.99,,068000000314,Sea Salt Chips,Kettle,200 g,Snacks," + tc.typ + "\n" +
			"2026-11-19,lob-a,loblaws,K200,3.99,3.99,,068000000314,Sea Salt Chips,Kettle,200 g,Snacks," + tc.typ + "\n"
		mustImport(t, svc, "obs.csv", rows, nil)
		got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "changes", Since: "2026-11-01", Limit: Some(500)})
		svc.Close()
		if err != nil {
			t.Fatal(err)
		}
		var shrinks []string
		for _, s := range got.Results {
			if s.Type == "shrinkflation" {
				shrinks = append(shrinks, s.Evidence.Brand)
			}
		}
		if strings.Join(shrinks, ",") != tc.want {
			t.Errorf("200 g of type %s: shrinkflation for %v, want %q", tc.typ, shrinks, tc.want)
		}
	}
}
