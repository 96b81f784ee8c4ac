package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The changes data set, as of 2026-11-19 (the default since is 11-13,
// the 30 days before it 10-14 to 11-12), one Ontario store per banner, so
// that a banner SKU's daily price is its store's price.
const changeStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
met-a,metro,ON,Metro A,Toronto,M4C 1A2,43.64,-79.30
sob-a,sobeys,ON,Sobeys A,Toronto,M4C 1A3,43.65,-79.30
nf-a,no-frills,ON,No Frills A,Toronto,M4C 1A1,43.63,-79.30
`

// changeObs, SKU by SKU:
//
//	LX  regular 3.00 up to 11-10, 3.25 on 11-14 (+8.3%), 3.49 from 11-17
//	    (+7.4%): each step under 10%, the whole move since 11-13 +16.3%
//	MY  5.00, on promotion at 4.00 (regular 5.00) on 11-15, 5.00 again on
//	    11-19: 11-15 is a 30-day low, the latest day is not
//	SZ  6.00 on 11-01, 5.50 on 11-14, 5.00 on 11-16, 6.00 on 11-19: the
//	    regular price is back where it stood before since (no change,
//	    though its last step is +20%); 11-14 and 11-16 are 30-day lows
//	NW  4.00 on 11-05, 4.50 on 11-13 (since itself) and 11-19: +12.5%
//	NV  first seen 11-14 at 2.00, 2.50 on 11-18: no price in force
//	    before since, no change (its last step is +25%)
const changeObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-01,lob-a,loblaws,LX,3.00,3.00,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-10,lob-a,loblaws,LX,3.00,3.00,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-14,lob-a,loblaws,LX,3.25,3.25,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-17,lob-a,loblaws,LX,3.49,3.49,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-19,lob-a,loblaws,LX,3.49,3.49,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-01,met-a,metro,MY,5.00,5.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-10,met-a,metro,MY,5.00,5.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-15,met-a,metro,MY,4.00,5.00,2026-11-16,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-19,met-a,metro,MY,5.00,5.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-01,sob-a,sobeys,SZ,6.00,6.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-14,sob-a,sobeys,SZ,5.50,5.50,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-16,sob-a,sobeys,SZ,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,sob-a,sobeys,SZ,6.00,6.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-05,nf-a,no-frills,NW,4.00,4.00,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-13,nf-a,no-frills,NW,4.50,4.50,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-19,nf-a,no-frills,NW,4.50,4.50,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-14,nf-a,no-frills,NV,2.00,2.00,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-11-18,nf-a,no-frills,NV,2.50,2.50,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
`

// TestSignalsChangesSince: a regular price change is the whole move since
// `since` (the regular price on the SKU's latest day before since, in the
// 30 days before it, against its regular price now), not its last step;
// a 30-day low is any day since `since` whose daily price is under every
// daily price of the 30 days before it, the lowest such day reported.
func TestSignalsChangesSince(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "c.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", changeStores, nil)
	mustImport(t, svc, "obs.csv", changeObs, nil)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Kind: "changes"})
	if err != nil {
		t.Fatal(err)
	}
	// LX: 3.49 / 3.00 = 1.16333: +16.3%, medium (15% to 25%), at 3.49
	//     from 11-17.
	// MY: 11-15 at 4.00 under the lowest of 10-16..11-14, 5.00: 20.0%
	//     under, medium (10% or more).
	// NW: 4.50 / 4.00 = 1.125: +12.5%, low, from 11-13. Its 11-13 is no
	//     low (4.50 is above 4.00).
	// SZ: 11-14 at 5.50 is 8.3% under 6.00, 11-16 at 5.00 is 9.1% under
	//     the lowest of 10-17..11-15, 5.50: the lowest such day is 11-16,
	//     (5.00 / 5.50 - 1) × 100 = -9.0909 → -9.1, low.
	// NV: nothing before since; LX's steps are rises, no lows.
	want := []sig{
		{Kind: "changes", Type: "lowest_in_30_days", Severity: "medium", UPC: "062000000022", Banner: "metro", Price: 400, Previous: 500, Pct: -20},
		{Kind: "changes", Type: "price_increase", Severity: "medium", UPC: "062000000015", Banner: "loblaws", Price: 349, Previous: 300, Pct: 16.3},
		{Kind: "changes", Type: "price_increase", Severity: "low", UPC: "062000000046", Banner: "no-frills", Price: 450, Previous: 400, Pct: 12.5},
		{Kind: "changes", Type: "lowest_in_30_days", Severity: "low", UPC: "062000000039", Banner: "sobeys", Price: 500, Previous: 550, Pct: -9.1},
	}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	dates := []string{"2026-11-15", "2026-11-17", "2026-11-13", "2026-11-16"}
	for i, s := range got.Results {
		if s.Evidence.Date == nil || s.Evidence.Date.String() != dates[i] {
			t.Errorf("%s %s: date %v, want %s", s.Type, s.Evidence.UPC, s.Evidence.Date, dates[i])
		}
	}
	if e, want := got.Results[1].Explanation, "Loblaws raised the regular price of Alpha Dark Roast by 16.3% since 2026-11-13, from 3.00 to 3.49 (3.49 from 2026-11-17)"; e != want {
		t.Errorf("explanation %q, want %q", e, want)
	}
	if e, want := got.Results[3].Explanation, "Gamma Skim Milk at Sobeys was at 5.00 on 2026-11-16, 9.1% under its lowest daily price of the 30 days before (5.50)"; e != want {
		t.Errorf("explanation %q, want %q", e, want)
	}
}

// TestSignalsMoveFromFarBack: a regular move starts from the SKU's latest
// day before since in the 30 days before since, even when that day is more
// than 30 days before the SKU's first day since (so no stored daily price
// looks back on it). As of 11-19 (since 11-13): 3.00 on 10-14, nothing
// until 3.50 on 11-15 and 11-19: +16.7% since 11-13, medium.
func TestSignalsMoveFromFarBack(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "f.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	const header = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	mustImport(t, svc, "stores.csv", changeStores, nil)
	mustImport(t, svc, "obs.csv", header+
		"2026-10-14,met-a,metro,MQ,3.00,3.00,,062000000060,Rye Crackers,Zeta,200 g,Snacks\n"+
		"2026-11-15,met-a,metro,MQ,3.50,3.50,,062000000060,Rye Crackers,Zeta,200 g,Snacks\n"+
		"2026-11-19,met-a,metro,MQ,3.50,3.50,,062000000060,Rye Crackers,Zeta,200 g,Snacks\n", nil)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Kind: "changes"})
	if err != nil {
		t.Fatal(err)
	}
	want := []sig{{Kind: "changes", Type: "price_increase", Severity: "medium", UPC: "062000000060", Banner: "metro", Price: 350, Previous: 300, Pct: 16.7}}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// TestSignalsChangeNoStoreMade: a change no store made is no signal.
// Loblaws prices LA at three stores; lob-a and lob-b (5.00) are last
// observed on 11-03, so their prices leave the window on 11-17, and the
// banner's daily price goes from 5.00 (the most common of 5.00, 5.00,
// 4.00) to lob-c's 4.00, which lob-c charged all along: -20% since 11-13
// and a 30-day low on 11-17 by the daily prices, but no store's own price
// moved. (A move a store made, MY's promotion and LX's rises, is the
// previous tests'.)
func TestSignalsChangeNoStoreMade(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "n.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", changeStores+
		"lob-b,loblaws,ON,Loblaws B,Toronto,M5V 1A2,43.61,-79.40\n"+
		"lob-c,loblaws,ON,Loblaws C,Toronto,M5V 1A3,43.62,-79.40\n", nil)
	obs := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	for _, d := range []string{"10-20", "10-27", "11-03"} {
		for _, s := range []string{"lob-a", "lob-b"} {
			obs += "2026-" + d + "," + s + ",loblaws,LA,5.00,5.00,,062000000077,Rye Bread,Eta,675 g,Bakery\n"
		}
	}
	for _, d := range []string{"10-20", "10-27", "11-03", "11-10", "11-17", "11-19"} {
		obs += "2026-" + d + ",lob-c,loblaws,LA,4.00,4.00,,062000000077,Rye Bread,Eta,675 g,Bakery\n"
	}
	mustImport(t, svc, "obs.csv", obs, nil)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Kind: "changes"})
	if err != nil {
		t.Fatal(err)
	}
	if s := sigs(got); len(s) != 0 {
		t.Errorf("got %+v, want no signal", s)
	}
}
