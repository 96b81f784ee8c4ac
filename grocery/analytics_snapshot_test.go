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
//
// Their product types: 2% milk, old cheddar, and butter for both butters.
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

const snapObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category,product_type
2026-11-19,lob-1,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,lob-2,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,nf-1,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,met-1,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,maxi-1,maxi,X1,4.50,4.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,met-q,metro,M1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,sob-b,sobeys,S1,7.00,7.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs,2% milk
2026-11-19,lob-1,loblaws,L2,8.00,10.00,2026-11-25,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs,old cheddar
2026-11-19,lob-2,loblaws,L2,8.00,10.00,2026-11-25,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs,old cheddar
2026-11-19,nf-1,no-frills,N2,9.00,9.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs,old cheddar
2026-11-19,maxi-1,maxi,X2,9.50,9.50,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs,old cheddar
2026-11-19,nf-1,no-frills,N3,5.00,5.00,,064100000018,Butter,Lactantia,454 g,Spreads,butter
2026-11-19,met-1,metro,M3,6.00,7.50,2026-11-25,064100000018,Butter,Lactantia,454 g,Spreads,butter
2026-11-19,lob-1,loblaws,L4,3.00,3.00,,064100000025,Unsalted Butter,Lactantia,250 g,Spreads,butter
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
		&grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 1000, Basis: grocery.BasketExact},
		&grocery.BasketChoice{Banners: []string{"no-frills", "sobeys"}, Total: 1000, Basis: grocery.BasketExact, Items: []string{"no-frills"}},
		&grocery.BasketChoice{Banners: []string{"sobeys"}, Total: 1000, Basis: grocery.BasketExact},
		0,
	}
	got := want
	got.Cheapest, got.Split, got.Dearest, got.Savings = r.Cheapest, r.CheapestSplit, r.Dearest, r.Savings
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestCompareBasket(t *testing.T) {
	svc := openSnap(t, snapStores, snapObs)
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		// "butter" matches both butters by an exact name word (score 4 of
		// 4): a tie, so the confidence is 4 / 4 / 2 = 0.5; "Butter" is
		// carried by 2 banners (no-frills, metro), "Unsalted Butter" by 1
		// (loblaws): it wins.
		// loblaws: milk 2 × 5.00 = 10.00; butter 454 g lacking, substitute
		// unsalted 250 g (same type, category and basis, 250 / 454 >= 1/2)
		// in whole packs: 454 / 250 = 1.816, so 2 packs × 3.00 = 6.00
		// (500 g, 1.20 per 100 g); cheese 8.00; total 24.00, complete
		// only with a substitute.
		// no-frills: 8.00 + 5.00 + 9.00 = 22.00, every item exact. metro:
		// 12.00 + 6.00 = 18.00, cheese lacking (no other old cheddar):
		// incomplete.
		// Cheapest and dearest (every item exact): no-frills 22.00, saving
		// 0. Split over exact lines, loblaws + no-frills: milk nf 8.00,
		// butter nf 5.00 (loblaws' is a substitute), cheese lob 8.00 =
		// 21.00, saving 22.00 - 21.00 = 1.00.
		got, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{
			{UPC: snapMilk, Quantity: 2}, {Name: "butter", Quantity: 1}, {UPC: snapCheese, Quantity: 1}, {Name: "caviar", Quantity: 1},
		}})
		if err != nil {
			t.Fatal(err)
		}
		butter := got.Items[1]
		wantMatch := &grocery.BasketMatch{Score: 4, MaxScore: 4, Confidence: 0.5, Candidates: 2, Tied: 2, Carried: 2,
			RunnerUp: &grocery.BasketRunner{UPC: snapUnsalted, Name: "Unsalted Butter", Brand: "Lactantia", Size: "250 g", Score: 4, Carried: 1}}
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
			{"loblaws", 2400, false, []int{}, 1, snapUnsalted, 300, 2, 454, 500, "g", 120},
			{"metro", 1800, false, []int{2}, 0, "", 0, 0, 0, 0, "", 0},
		}
		if d := cmp.Diff(wantSums, sums); d != "" {
			t.Errorf("banners (-want +got)\n%s", d)
		}
		if d := cmp.Diff(&grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 2200, Basis: grocery.BasketExact}, got.Cheapest); d != "" {
			t.Errorf("cheapest: %s", d)
		}
		if d := cmp.Diff(&grocery.BasketChoice{Banners: []string{"loblaws", "no-frills"}, Total: 2100, Basis: grocery.BasketExact,
			Items: []string{"no-frills", "no-frills", "loblaws"}}, got.CheapestSplit); d != "" {
			t.Errorf("split: %s", d)
		}
		if d := cmp.Diff(&grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 2200, Basis: grocery.BasketWithSubstitutes}, got.CheapestWithSubstitutes); d != "" {
			t.Errorf("cheapest with substitutes: %s", d)
		}
		if got.Dearest.Banners[0] != "no-frills" || got.Savings != 0 || got.SavingsPct != 0 || got.SplitSavings != 100 {
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
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: snapMilk, Quantity: -1}}}, "items[0].quantity -1"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: "068000000155", Quantity: 1}}}, "items[0].upc"},
			{grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{Name: "!!", Quantity: 1}}}, "items[0].name"},
		} {
			_, err := svc.CompareBasket(ctx, tc.in)
			wantCode(t, err, grocery.EINVALIDARGUMENT, tc.text)
		}
	})
}
