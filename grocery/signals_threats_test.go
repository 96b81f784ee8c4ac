package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The threats data set, as of 2026-11-19 (the default since is 11-13),
// one Ontario store per banner; the own banner is Loblaws.
const threatStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
met-a,metro,ON,Metro A,Toronto,M4C 1A2,43.64,-79.30
sob-a,sobeys,ON,Sobeys A,Toronto,M4C 1A3,43.65,-79.30
nf-a,no-frills,ON,No Frills A,Toronto,M4C 1A1,43.63,-79.30
fc-a,freshco,ON,FreshCo A,Toronto,M4C 1A4,43.66,-79.30
`

// threatObs, barcode by barcode (Loblaws at a regular price throughout):
//
//	A 062000000015  Loblaws 6.00. Metro 6.00, on promotion at 5.00 from
//	                11-17 (ends 11-25); No Frills cut its regular 4.99 ->
//	                4.97 on 11-15 (already under Loblaws)
//	B 062000000022  Loblaws 6.00; No Frills 4.99 -> 4.97 on 11-15 alone
//	C 062000000039  Loblaws 5.00; Sobeys on promotion at 3.99 on 11-10,
//	                ended 11-12: not in force; FreshCo at 3.49 on 11-10,
//	                no end given, not seen since: in force for the 14 days
//	                of its observation, through 11-23
//	D 062000000046  Loblaws 5.00; Metro 5.20, on promotion at 4.90 from
//	                11-16 (ends 11-30)
//	E 062000000053  Loblaws 5.00; Sobeys 4.00, on promotion at 3.00 on 11-18
//	                (ends 11-24)
//	F 062000000060  Loblaws 5.50; Metro cut its regular 6.00 -> 5.00 on 11-14
const threatObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-05,lob-a,loblaws,LA,6.00,6.00,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,LA,6.00,6.00,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-05,met-a,metro,MA,6.00,6.00,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-17,met-a,metro,MA,5.00,6.00,2026-11-25,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-19,met-a,metro,MA,5.00,6.00,2026-11-25,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-05,nf-a,no-frills,NA,4.99,4.99,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-15,nf-a,no-frills,NA,4.97,4.97,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-19,nf-a,no-frills,NA,4.97,4.97,,062000000015,Margarine,Alpha,907 g,Dairy & Eggs
2026-11-05,lob-a,loblaws,LB,6.00,6.00,,062000000022,Butter,Beta,454 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,LB,6.00,6.00,,062000000022,Butter,Beta,454 g,Dairy & Eggs
2026-11-05,nf-a,no-frills,NB,4.99,4.99,,062000000022,Butter,Beta,454 g,Dairy & Eggs
2026-11-15,nf-a,no-frills,NB,4.97,4.97,,062000000022,Butter,Beta,454 g,Dairy & Eggs
2026-11-19,nf-a,no-frills,NB,4.97,4.97,,062000000022,Butter,Beta,454 g,Dairy & Eggs
2026-11-05,lob-a,loblaws,LC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,LC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-05,sob-a,sobeys,SC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-10,sob-a,sobeys,SC,3.99,5.00,2026-11-12,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-05,fc-a,freshco,FC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-10,fc-a,freshco,FC,3.49,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-05,lob-a,loblaws,LD,5.00,5.00,,062000000046,Cheddar,Delta,400 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,LD,5.00,5.00,,062000000046,Cheddar,Delta,400 g,Dairy & Eggs
2026-11-05,met-a,metro,MD,5.20,5.20,,062000000046,Cheddar,Delta,400 g,Dairy & Eggs
2026-11-16,met-a,metro,MD,4.90,5.20,2026-11-30,062000000046,Cheddar,Delta,400 g,Dairy & Eggs
2026-11-19,met-a,metro,MD,4.90,5.20,2026-11-30,062000000046,Cheddar,Delta,400 g,Dairy & Eggs
2026-11-05,lob-a,loblaws,LE,5.00,5.00,,062000000053,Yogurt,Epsilon,650 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,LE,5.00,5.00,,062000000053,Yogurt,Epsilon,650 g,Dairy & Eggs
2026-11-05,sob-a,sobeys,SE,4.00,4.00,,062000000053,Yogurt,Epsilon,650 g,Dairy & Eggs
2026-11-18,sob-a,sobeys,SE,3.00,4.00,2026-11-24,062000000053,Yogurt,Epsilon,650 g,Dairy & Eggs
2026-11-05,lob-a,loblaws,LF,5.50,5.50,,062000000060,Eggs,Zeta,12 eggs,Dairy & Eggs
2026-11-19,lob-a,loblaws,LF,5.50,5.50,,062000000060,Eggs,Zeta,12 eggs,Dairy & Eggs
2026-11-05,met-a,metro,MF,6.00,6.00,,062000000060,Eggs,Zeta,12 eggs,Dairy & Eggs
2026-11-14,met-a,metro,MF,5.00,5.00,,062000000060,Eggs,Zeta,12 eggs,Dairy & Eggs
2026-11-19,met-a,metro,MF,5.00,5.00,,062000000060,Eggs,Zeta,12 eggs,Dairy & Eggs
`

// TestSignalsThreats: one threat per barcode, naming every competitor
// behind it; only promotions in force on the latest day; severity from
// the competitor's move and what it does to its place against yours
// (high: a move of 10% or more from at or above your price to 5% or more
// under it; medium: a move of 5% or more; else low).
func TestSignalsThreats(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "t.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", threatStores, nil)
	mustImport(t, svc, "obs.csv", threatObs, nil)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "threats"})
	if err != nil {
		t.Fatal(err)
	}
	// A: Metro's promotion moves it from 6.00 (at your 6.00) to 5.00,
	//    -16.7%, 16.7% under you: high, and leads; No Frills' cut
	//    4.99 -> 4.97 is -0.4%: low, behind it too.
	// F: Metro 6.00 (above your regular 5.50) -> 5.00, -16.7%, now
	//    1 - 5.00/5.50 = 9.1% under: high.
	// E: Sobeys 4.00 -> 3.00, -25%, but it was under your 5.00 already:
	//    medium; 40.0% under you.
	// D: Metro 5.20 -> 4.90, -5.8% (medium), 2.0% under your 5.00.
	// B: No Frills 4.99 -> 4.97 (-0.4%), 1 - 4.97/6.00 = 17.2% under your
	//    regular, as it nearly was before (16.8%): low.
	// C: Sobeys' promotion ended on 11-12 (its price in force is its
	//    regular 5.00); FreshCo's, with no end, is in force: 5.00 (at
	//    your 5.00) -> 3.49, -30.2%, 30.2% under you: high, and the
	//    furthest under.
	want := []sig{
		{Kind: "threats", Type: "competitor_promotion", Severity: "high", UPC: "062000000039", Banner: "freshco", Price: 349, Own: 500, Previous: 500, Pct: -30.2},
		{Kind: "threats", Type: "competitor_promotion", Severity: "high", UPC: "062000000015", Banner: "metro", Price: 500, Own: 600, Previous: 600, Pct: -16.7},
		{Kind: "threats", Type: "competitor_price_cut", Severity: "high", UPC: "062000000060", Banner: "metro", Price: 500, Own: 550, Previous: 600, Pct: -9.1},
		{Kind: "threats", Type: "competitor_promotion", Severity: "medium", UPC: "062000000053", Banner: "sobeys", Price: 300, Own: 500, Previous: 400, Pct: -40},
		{Kind: "threats", Type: "competitor_promotion", Severity: "medium", UPC: "062000000046", Banner: "metro", Price: 490, Own: 500, Previous: 520, Pct: -2},
		{Kind: "threats", Type: "competitor_price_cut", Severity: "low", UPC: "062000000022", Banner: "no-frills", Price: 497, Own: 600, Previous: 499, Pct: -17.2},
	}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// A's competitors (the second threat), the leader first: each with
	// its move and place.
	type comp struct {
		Banner, Move, Severity string
		Price, Previous        Cents
		MovePct, GapPct, Was   float64
	}
	var comps []comp
	for _, c := range got.Results[1].Evidence.Competitors {
		x := comp{Banner: c.Banner, Move: c.Move, Severity: c.Severity, Price: c.Price}
		if c.Previous == nil || c.MovePct == nil || c.GapPct == nil || c.PreviousGapPct == nil {
			t.Fatalf("competitor %+v: want its previous price and percents", c)
		}
		x.Previous, x.MovePct, x.GapPct, x.Was = *c.Previous, *c.MovePct, *c.GapPct, *c.PreviousGapPct
		comps = append(comps, x)
	}
	// No Frills: 4.97 / 4.99 - 1 = -0.4%; 4.97 / 6.00 - 1 = -17.2%
	// (its regular against yours); 4.99 / 6.00 - 1 = -16.8%.
	wantComps := []comp{
		{Banner: "metro", Move: "promotion", Severity: "high", Price: 500, Previous: 600, MovePct: -16.7, GapPct: -16.7, Was: 0},
		{Banner: "no-frills", Move: "regular_cut", Severity: "low", Price: 497, Previous: 499, MovePct: -0.4, GapPct: -17.2, Was: -16.8},
	}
	if diff := cmp.Diff(wantComps, comps); diff != "" {
		t.Errorf("competitors (-want +got):\n%s", diff)
	}
	if e, want := got.Results[1].Explanation, "Metro has Alpha Margarine on promotion at 5.00 (regular 6.00, -16.7%) since 2026-11-17, 16.7% under your 6.00; also under you: No Frills at 4.97 (regular cut -0.4%, low): consider matching or countering in the next flyer"; e != want {
		t.Errorf("explanation %q, want %q", e, want)
	}
	if e, want := got.Results[2].Explanation, "Metro cut the regular price of Zeta Eggs from 6.00 to 5.00 (-16.7%) on 2026-11-14, 9.1% under your regular 5.50: review your shelf price"; e != want {
		t.Errorf("explanation %q, want %q", e, want)
	}
}
