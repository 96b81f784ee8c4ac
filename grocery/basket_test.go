package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// The like-for-like data set (issue 28): Ontario stores lob-1, nf-1 and
// met-1 of the snapshot data set, every price observed on 2026-11-19.
//
//	pbKraft  061000000018 Kraft Peanut Butter 750 g, type peanut butter: met 3.00
//	pbJif    061000000025 Jif Peanut Butter 1 kg, type peanut butter: lob 7.00, nf 5.00
//	pbSkippy 061000000032 Skippy Peanut Butter 1 kg, type peanut butter: lob 6.00, nf 5.00
//	spaghetti 061000000049 Catelli Spaghetti 900 g, type spaghetti: met 2.00
//	ketchup  061000000056 Heinz Ketchup 1 L, type ketchup: lob 4.00, nf 3.50, met 2.00
//	mustard  061000000063 French's Yellow Mustard 400 mL, no type: lob 2.50, nf 2.00
//	relish   061000000070 Bick's Relish 375 mL, no type: met 1.50
//
// All are Pantry: the rule of before (same category, same unit basis,
// half to twice the size, closest in size) takes the spaghetti (900 g is
// closer to 1 kg than 750 g) for the Skippy at Metro, and the relish for
// the mustard.
const (
	likeKraft, likeJif, likeSkippy, likeSpaghetti = "061000000018", "061000000025", "061000000032", "061000000049"
	likeKetchup, likeMustard, likeRelish          = "061000000056", "061000000063", "061000000070"
)

const likeObs = `date,store_id,banner,external_sku,price,upc,name,brand,size,category,product_type
2026-11-19,met-1,metro,M1,3.00,061000000018,Peanut Butter,Kraft,750 g,Pantry,peanut butter
2026-11-19,lob-1,loblaws,L2,7.00,061000000025,Peanut Butter,Jif,1 kg,Pantry,peanut butter
2026-11-19,nf-1,no-frills,N2,5.00,061000000025,Peanut Butter,Jif,1 kg,Pantry,peanut butter
2026-11-19,lob-1,loblaws,L3,6.00,061000000032,Peanut Butter,Skippy,1 kg,Pantry,Peanut Butter
2026-11-19,nf-1,no-frills,N3,5.00,061000000032,Peanut Butter,Skippy,1 kg,Pantry,Peanut Butter
2026-11-19,met-1,metro,M4,2.00,061000000049,Spaghetti,Catelli,900 g,Pantry,spaghetti
2026-11-19,lob-1,loblaws,L5,4.00,061000000056,Ketchup,Heinz,1 L,Pantry,ketchup
2026-11-19,nf-1,no-frills,N5,3.50,061000000056,Ketchup,Heinz,1 L,Pantry,ketchup
2026-11-19,met-1,metro,M5,2.00,061000000056,Ketchup,Heinz,1 L,Pantry,ketchup
2026-11-19,lob-1,loblaws,L6,2.50,061000000063,Yellow Mustard,French's,400 mL,Pantry,
2026-11-19,nf-1,no-frills,N6,2.00,061000000063,Yellow Mustard,French's,400 mL,Pantry,
2026-11-19,met-1,metro,M7,1.50,061000000070,Relish,Bick's,375 mL,Pantry,
`

// basketRow is what a test checks of one banner of a basket.
type basketRow struct {
	Banner                           string
	Total                            grocery.Cents
	Complete, CompleteWithSubs       bool
	Exact, Substitutes, LackingCount int
	Lacking                          []int
	SubstituteUPCs                   []string
}

func basketRows(r *grocery.BasketResult) []basketRow {
	var rows []basketRow
	for _, b := range r.Banners {
		row := basketRow{b.Banner, b.Total, b.Complete, b.CompleteWithSubstitutes, b.Exact, b.Substitutes, b.LackingCount, b.Lacking, nil}
		for _, l := range b.Lines {
			if l.Substitute {
				row.SubstituteUPCs = append(row.SubstituteUPCs, l.UPC)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestBasketLikeForLike: a substitute shares the item's product type,
// an item without a type has none, each banner counts its exact,
// substituted and lacking lines, and cheapest ranks only banners that
// price every line exactly (issue 28, found 1).
func TestBasketLikeForLike(t *testing.T) {
	svc := openSnap(t, snapStores, likeObs)
	ctx := context.Background()
	t.Run("SameType", func(t *testing.T) {
		// Skippy 1 kg and Heinz ketchup 1 L, one each.
		// no-frills: 5.00 + 3.50 = 8.50, both exact.
		// loblaws: 6.00 + 4.00 = 10.00, both exact.
		// metro: no Skippy; the peanut butter of the panel there is
		// Kraft 750 g (not the spaghetti, another type): 1000 / 750 =
		// 1.33, 2 packs × 3.00 = 6.00; ketchup 2.00: 8.00, one substitute.
		// Cheapest (exact): no-frills 8.50; dearest loblaws 10.00: saves
		// 1.50, 1.50 / 10.00 = 15.0 %. With substitutes: metro 8.00.
		// Split over exact lines: metro + no-frills, Skippy at no-frills
		// 5.00 and ketchup at metro 2.00 = 7.00 (metro's Kraft line is a
		// substitute and does not count), saving 10.00 - 7.00 = 3.00.
		r, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{
			{UPC: likeSkippy, Quantity: 1}, {UPC: likeKetchup, Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		want := []basketRow{
			{"no-frills", 850, true, true, 2, 0, 0, []int{}, nil},
			{"loblaws", 1000, true, true, 2, 0, 0, []int{}, nil},
			{"metro", 800, false, true, 1, 1, 0, []int{}, []string{likeKraft}},
		}
		if d := cmp.Diff(want, basketRows(r)); d != "" {
			t.Errorf("banners (-want +got)\n%s", d)
		}
		for _, c := range []struct {
			name      string
			got, want *grocery.BasketChoice
		}{
			{"cheapest", r.Cheapest, &grocery.BasketChoice{Banners: []string{"no-frills"}, Total: 850, Basis: grocery.BasketExact}},
			{"dearest", r.Dearest, &grocery.BasketChoice{Banners: []string{"loblaws"}, Total: 1000, Basis: grocery.BasketExact}},
			{"split", r.CheapestSplit, &grocery.BasketChoice{Banners: []string{"metro", "no-frills"}, Total: 700, Basis: grocery.BasketExact, Items: []string{"no-frills", "metro"}}},
			{"with substitutes", r.CheapestWithSubstitutes, &grocery.BasketChoice{Banners: []string{"metro"}, Total: 800, Basis: grocery.BasketWithSubstitutes, Substitutes: 1}},
		} {
			if d := cmp.Diff(c.want, c.got); d != "" {
				t.Errorf("%s (-want +got)\n%s", c.name, d)
			}
		}
		if r.Savings != 150 || r.SavingsPct != 15 || r.SplitSavings != 300 {
			t.Errorf("savings: got %v, %v%%, split %v; want 1.50, 15%%, 3.00", r.Savings, r.SavingsPct, r.SplitSavings)
		}
		if !strings.Contains(r.Basis.Note, "cheapest_with_substitutes") {
			t.Errorf("basis note %q: want it to say what cheapest_with_substitutes is", r.Basis.Note)
		}
	})
	t.Run("NoTypeNoSubstitute", func(t *testing.T) {
		// The mustard has no type: metro, which does not carry it, lacks
		// it (the relish is no stand-in).
		r, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{UPC: likeMustard, Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		want := []basketRow{
			{"no-frills", 200, true, true, 1, 0, 0, []int{}, nil},
			{"loblaws", 250, true, true, 1, 0, 0, []int{}, nil},
		}
		if d := cmp.Diff(want, basketRows(r)); d != "" {
			t.Errorf("banners (-want +got)\n%s", d)
		}
	})
}

// TestBasketNameTies: "peanut butter" matches the three peanut butters
// by both words exactly in the name (score 8 of 8): a three-way tie
// (issue 28, found 2). Skippy and Jif are carried by 2 banners, Kraft by
// 1; Skippy's banner prices spread (6.00 - 5.00) / 5.00 = 0.2, Jif's
// (7.00 - 5.00) / 5.00 = 0.4: Skippy wins, Jif is the runner-up (with its
// brand), and the confidence is 8 / 8 / 3 = 0.33. Search's own order
// (by barcode among equals) would have taken Kraft, carried by one banner.
func TestBasketNameTies(t *testing.T) {
	svc := openSnap(t, snapStores, likeObs)
	r, err := svc.CompareBasket(context.Background(), grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{Name: "peanut butter", Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	it := r.Items[0]
	if it.UPC != likeSkippy || it.Brand != "Skippy" || it.Type != "Peanut Butter" {
		t.Errorf("item: got %s %s (type %q), want %s Skippy (type Peanut Butter)", it.UPC, it.Brand, it.Type, likeSkippy)
	}
	want := &grocery.BasketMatch{Score: 8, MaxScore: 8, Confidence: 0.33, Candidates: 3, Tied: 3, Carried: 2,
		RunnerUp: &grocery.BasketRunner{UPC: likeJif, Name: "Peanut Butter", Brand: "Jif", Size: "1 kg", Score: 8, Carried: 2}}
	if d := cmp.Diff(want, it.Match); d != "" {
		t.Errorf("match (-want +got)\n%s", d)
	}
}

// The current-offers data set: Ontario, every price observed on
// 2026-11-19 unless said, all Pantry, type jam but the ketchup.
//
//	jamX 061000000087 Smucker's Raspberry Jam 500 g: nf 5.00
//	jamA 061000000094 Kraft Strawberry Jam 500 g: lob 4.00 (L11 at
//	     lob-1) and 6.00 (L12 at lob-2), nf 5.00
//	jamB 061000000100 E.D. Smith Strawberry Jam 250 g: lob 4.00, nf 4.90
//	jamC 061000000117 Double Fruit Strawberry Jam 375 g: lob 4.00; met
//	     and nf 3.00 on 2026-09-01 only (not current: observed more than
//	     14 days before the data set's latest day)
//	sauce 061000000124 Heinz Ketchup 1 L, type ketchup: lob 4.00, nf
//	     3.50, met 2.00
const (
	curJamX, curJamA, curJamB, curJamC, curSauce = "061000000087", "061000000094", "061000000100", "061000000117", "061000000124"
)

const curObs = `date,store_id,banner,external_sku,price,upc,name,brand,size,category,product_type
2026-09-01,met-1,metro,M14,3.00,061000000117,Strawberry Jam,Double Fruit,375 g,Pantry,jam
2026-09-01,nf-1,no-frills,N14,3.00,061000000117,Strawberry Jam,Double Fruit,375 g,Pantry,jam
2026-11-19,nf-1,no-frills,N10,5.00,061000000087,Raspberry Jam,Smucker's,500 g,Pantry,jam
2026-11-19,lob-1,loblaws,L11,4.00,061000000094,Strawberry Jam,Kraft,500 g,Pantry,jam
2026-11-19,lob-2,loblaws,L12,6.00,061000000094,Strawberry Jam,Kraft,500 g,Pantry,jam
2026-11-19,nf-1,no-frills,N11,5.00,061000000094,Strawberry Jam,Kraft,500 g,Pantry,jam
2026-11-19,lob-1,loblaws,L13,4.00,061000000100,Strawberry Jam,E.D. Smith,250 g,Pantry,jam
2026-11-19,nf-1,no-frills,N13,4.90,061000000100,Strawberry Jam,E.D. Smith,250 g,Pantry,jam
2026-11-19,lob-1,loblaws,L14,4.00,061000000117,Strawberry Jam,Double Fruit,375 g,Pantry,jam
2026-11-19,lob-1,loblaws,L15,4.00,061000000124,Ketchup,Heinz,1 L,Pantry,ketchup
2026-11-19,nf-1,no-frills,N15,3.50,061000000124,Ketchup,Heinz,1 L,Pantry,ketchup
2026-11-19,met-1,metro,M15,2.00,061000000124,Ketchup,Heinz,1 L,Pantry,ketchup
`

// TestBasketCurrentOffers: a basket weighs each banner's cheapest
// current offer of a product, and only current ones, when it ranks tied
// name matches and when it picks a substitute.
func TestBasketCurrentOffers(t *testing.T) {
	svc := openSnap(t, snapStores, curObs)
	ctx := context.Background()
	t.Run("Ties", func(t *testing.T) {
		// "strawberry jam" ties the three strawberry jams (score 8 of 8).
		// Carried, by each banner's cheapest current price: A by
		// loblaws 4.00 (not its 6.00 SKU) and no-frills 5.00, spread
		// (5.00 - 4.00) / 4.00 = 0.25; B by loblaws 4.00 and no-frills
		// 4.90, spread 0.90 / 4.00 = 0.225; C by loblaws alone (its
		// metro and no-frills offers are not current). B wins, A is
		// the runner-up; confidence 8 / 8 / 3 = 0.33.
		r, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{{Name: "strawberry jam", Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		want := &grocery.BasketMatch{Score: 8, MaxScore: 8, Confidence: 0.33, Candidates: 3, Tied: 3, Carried: 2,
			RunnerUp: &grocery.BasketRunner{UPC: curJamA, Name: "Strawberry Jam", Brand: "Kraft", Size: "500 g", Score: 8, Carried: 2}}
		if it := r.Items[0]; it.UPC != curJamB {
			t.Errorf("item: got %s (%s), want %s (E.D. Smith)", it.UPC, it.Brand, curJamB)
		}
		if d := cmp.Diff(want, r.Items[0].Match); d != "" {
			t.Errorf("match (-want +got)\n%s", d)
		}
	})
	t.Run("Substitute", func(t *testing.T) {
		// The raspberry jam (500 g) and the ketchup. no-frills: 5.00 +
		// 3.50, exact. loblaws lacks the raspberry jam: of its current
		// jams, A is the closest in size (500 g), at its cheapest SKU
		// there, L11 4.00: 4.00 + 4.00 = 8.00. metro: the ketchup 2.00;
		// its only jam offer (C) is not current, so it lacks the jam.
		r, err := svc.CompareBasket(ctx, grocery.BasketInput{Province: "ON", Items: []grocery.BasketItemInput{
			{UPC: curJamX, Quantity: 1}, {UPC: curSauce, Quantity: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		want := []basketRow{
			{"no-frills", 850, true, true, 2, 0, 0, []int{}, nil},
			{"loblaws", 800, false, true, 1, 1, 0, []int{}, []string{curJamA}},
			{"metro", 200, false, false, 1, 0, 1, []int{0}, nil},
		}
		if d := cmp.Diff(want, basketRows(r)); d != "" {
			t.Fatalf("banners (-want +got)\n%s", d)
		}
		if l := r.Banners[1].Lines[0]; l.ExternalSKU != "L11" || l.Price != 400 || l.Packs != 1 {
			t.Errorf("loblaws' substitute line: SKU %s at %v, %d packs; want L11 at 4.00, 1 pack", l.ExternalSKU, l.Price, l.Packs)
		}
	})
}
