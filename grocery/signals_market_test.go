package grocery

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The market-position data set, as of 2026-11-19 (the default since is
// 11-13), one Ontario store per banner, so that a banner's daily price is
// its store's price.
const marketStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
met-a,metro,ON,Metro A,Toronto,M4C 1A2,43.64,-79.30
sob-a,sobeys,ON,Sobeys A,Toronto,M4C 1A3,43.65,-79.30
nf-a,no-frills,ON,No Frills A,Toronto,M4C 1A1,43.63,-79.30
fc-a,freshco,ON,FreshCo A,Toronto,M4C 1A4,43.66,-79.30
`

// marketObs, barcode by barcode (the own banner is Loblaws):
//
//	A 062000000015  Loblaws 6.29; Metro 5.47, Sobeys 5.47, No Frills 5.40:
//	                6.29 / 5.47 = 1.14991, 14.99% above: under 15%, no signal
//	B 062000000022  Loblaws 5.75; Metro 5.00, Sobeys 5.00: exactly 15% above
//	C 062000000039  Loblaws 5.00; Metro on promotion at 3.99 (regular 5.00)
//	                from 11-15, No Frills at 3.99 (5.00) from 11-19, FreshCo
//	                at 3.49 (5.00) since 11-01, Sobeys 5.00: the other
//	                banners' regular median is 5.00, so Loblaws is at the
//	                market; each promotion under Loblaws' 5.00 is a threat
//	D 062000000046  Metro cut its regular 6.00 -> 4.50 on 11-16; Loblaws on
//	                promotion at 4.00, regular 5.00; Sobeys 5.00: Metro's
//	                regular is 10% under Loblaws' regular
//	E 062000000053  Loblaws last priced it on 08-27 (84 days before) at 3.10;
//	                Metro 3.20, Sobeys 3.30, No Frills 3.00 now: delisted
//	F 062000000060  never at Loblaws; Metro, Sobeys, No Frills now: a gap
//	G 062000000077  at Loblaws on 08-01 (110 days before, out of the 90-day
//	                lookback); Metro, Sobeys, No Frills now: a gap
//	H 062000000084  never at Loblaws; Metro and Sobeys only: too few for a gap
//	I 062000000091  at Loblaws up to 11-04 (15 days before: not current),
//	                no other banner: delisted
const marketObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,lob-a,loblaws,LA,6.29,6.29,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-19,met-a,metro,MA,5.47,5.47,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-19,sob-a,sobeys,SA,5.47,5.47,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-19,nf-a,no-frills,NA,5.40,5.40,,062000000015,Dark Roast,Alpha,900 g,Pantry
2026-11-19,lob-a,loblaws,LB,5.75,5.75,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-19,met-a,metro,MB,5.00,5.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-19,sob-a,sobeys,SB,5.00,5.00,,062000000022,Oat Flakes,Beta,1 kg,Pantry
2026-11-10,met-a,metro,MC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-15,met-a,metro,MC,3.99,5.00,2026-11-25,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,met-a,metro,MC,3.99,5.00,2026-11-25,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,nf-a,no-frills,NC,3.99,5.00,2026-11-25,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-01,fc-a,freshco,FC,3.49,5.00,2026-11-30,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,fc-a,freshco,FC,3.49,5.00,2026-11-30,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,sob-a,sobeys,SC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,LC,5.00,5.00,,062000000039,Skim Milk,Gamma,2 L,Dairy & Eggs
2026-11-05,met-a,metro,MD,6.00,6.00,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-16,met-a,metro,MD,4.50,4.50,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-19,met-a,metro,MD,4.50,4.50,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,LD,4.00,5.00,2026-11-22,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-11-19,sob-a,sobeys,SD,5.00,5.00,,062000000046,Salted Butter,Delta,454 g,Dairy & Eggs
2026-08-20,lob-a,loblaws,LE,3.00,3.00,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-08-27,lob-a,loblaws,LE,3.10,3.10,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-11-19,met-a,metro,ME,3.20,3.20,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-11-19,sob-a,sobeys,SE,3.30,3.30,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-11-19,nf-a,no-frills,NE,3.00,3.00,,062000000053,Cheese Puffs,Epsilon,200 g,Snacks
2026-11-19,met-a,metro,MF,2.00,2.00,,062000000060,Pretzels,Zeta,300 g,Snacks
2026-11-19,sob-a,sobeys,SF,2.20,2.20,,062000000060,Pretzels,Zeta,300 g,Snacks
2026-11-19,nf-a,no-frills,NF,1.90,1.90,,062000000060,Pretzels,Zeta,300 g,Snacks
2026-08-01,lob-a,loblaws,LG,4.00,4.00,,062000000077,Rice Cakes,Eta,150 g,Snacks
2026-11-19,met-a,metro,MG,4.10,4.10,,062000000077,Rice Cakes,Eta,150 g,Snacks
2026-11-19,sob-a,sobeys,SG,4.20,4.20,,062000000077,Rice Cakes,Eta,150 g,Snacks
2026-11-19,nf-a,no-frills,NG,3.90,3.90,,062000000077,Rice Cakes,Eta,150 g,Snacks
2026-11-19,met-a,metro,MH,1.00,1.00,,062000000084,Gum,Theta,10 pieces,Snacks
2026-11-19,sob-a,sobeys,SH,1.10,1.10,,062000000084,Gum,Theta,10 pieces,Snacks
2026-11-01,lob-a,loblaws,LI,7.00,7.00,,062000000091,Granola,Iota,500 g,Pantry
2026-11-04,lob-a,loblaws,LI,7.00,7.00,,062000000091,Granola,Iota,500 g,Pantry
`

func marketService(t *testing.T) *Service {
	t.Helper()
	return csvService(t, marketStores, marketObs)
}

// TestSignalsMarketPosition: the market positions compare regular prices
// with the other banners' regular prices, on exact ratios (14.99% is not
// 15%: review disagreement 3); competitors' promotions are threats of
// their own, whenever they started; a regular undercut is found while the
// own banner is on promotion.
func TestSignalsMarketPosition(t *testing.T) {
	svc := marketService(t)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "opportunities", Category: "Pantry"})
	if err != nil {
		t.Fatal(err)
	}
	// A: 14.99% above, no signal. B: 575 / 500 = 1.15, 15.0% above the
	// regular median 5.00: low (under 20%). Shelf median 5.00 too. I:
	// delisted (below).
	want := []sig{
		{Kind: "opportunities", Type: "priced_above_market", Severity: "low", UPC: "062000000022", Banner: "loblaws", Price: 575, Own: 575, Market: 500, Pct: 15},
		{Kind: "opportunities", Type: "delisted", Severity: "low", UPC: "062000000091", Banner: "loblaws", Previous: 700},
	}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Errorf("Pantry opportunities (-want +got):\n%s", diff)
	}

	// C: the market's regular price of skim milk is 5.00, Loblaws' too:
	// no position, though the other banners' shelf median is 3.99.
	got, err = svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "opportunities", Category: "Dairy & Eggs"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 0 {
		t.Errorf("Dairy & Eggs opportunities: got %+v, want none (regular prices at the market)", sigs(got))
	}

	got, err = svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "threats"})
	if err != nil {
		t.Fatal(err)
	}
	// C: one threat, three promotions in force behind it, each from the
	// regular 5.00 (at Loblaws' 5.00): FreshCo's 3.49, 30.2% under (its
	// promotion began 11-01, before since: it undercuts now all the same)
	// leads; Metro and No Frills at 3.99, 20.2% under, high too. D: Metro's
	// regular 6.00 -> 4.50 (-25%), cut on 11-16, from above Loblaws'
	// regular 5.00 to exactly 10% under it: high, though Loblaws'
	// promotion at 4.00 is under Metro's shelf price.
	want = []sig{
		{Kind: "threats", Type: "competitor_promotion", Severity: "high", UPC: "062000000039", Banner: "freshco", Price: 349, Own: 500, Previous: 500, Pct: -30.2},
		{Kind: "threats", Type: "competitor_price_cut", Severity: "high", UPC: "062000000046", Banner: "metro", Price: 450, Own: 400, Previous: 600, Pct: -10},
	}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Fatalf("threats (-want +got):\n%s", diff)
	}
	var behind []string
	for _, c := range got.Results[0].Evidence.Competitors {
		behind = append(behind, c.Banner+" "+c.Severity)
	}
	if diff := cmp.Diff([]string{"freshco high", "metro high", "no-frills high"}, behind); diff != "" {
		t.Errorf("skim milk's competitors (-want +got):\n%s", diff)
	}
}

// TestSignalsAssortment: a barcode the banner priced in the last 90 days
// but not now is delisted, not an assortment gap (review disagreement 4);
// a gap needs 3 other banners pricing the barcode now and no price at the
// banner in the lookback.
func TestSignalsAssortment(t *testing.T) {
	svc := marketService(t)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "opportunities", Category: "Snacks"})
	if err != nil {
		t.Fatal(err)
	}
	// E: delisted, 3 other banners price it now (high), last at 3.10,
	// their median 3.20. F and G: gaps of 3 banners (low), by barcode. H:
	// 2 banners, no gap.
	want := []sig{
		{Kind: "opportunities", Type: "delisted", Severity: "high", UPC: "062000000053", Banner: "loblaws", Market: 320, Previous: 310},
		{Kind: "opportunities", Type: "assortment_gap", Severity: "low", UPC: "062000000060", Market: 200},
		{Kind: "opportunities", Type: "assortment_gap", Severity: "low", UPC: "062000000077", Market: 410},
	}
	if diff := cmp.Diff(want, sigs(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSignalsPositionEvidence: a market position's evidence carries the
// figures compared, regular against regular, and the explanation says
// them.
func TestSignalsPositionEvidence(t *testing.T) {
	svc := marketService(t)
	got, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws", Kind: "opportunities", Category: "Pantry", Limit: Some(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 1 {
		t.Fatalf("got %d signals, want 1", len(got.Results))
	}
	s := got.Results[0]
	e := s.Evidence
	c := func(p *Cents) Cents {
		if p == nil {
			return -1
		}
		return *p
	}
	if c(e.OwnRegular) != 575 || c(e.MarketRegular) != 500 || c(e.MarketPrice) != 500 || len(e.Competitors) != 2 {
		t.Errorf("evidence own regular %d, market regular %d, market %d, %d competitors; want 575, 500, 500, 2", c(e.OwnRegular), c(e.MarketRegular), c(e.MarketPrice), len(e.Competitors))
	}
	if want := "your regular 5.75 for Beta Oat Flakes is 15.0% above the market's regular median 5.00 of 2 other banners: a price cut would bring it in line"; s.Explanation != want {
		t.Errorf("explanation %q, want %q", s.Explanation, want)
	}
}
