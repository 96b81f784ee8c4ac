package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const briefStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
nf-b,no-frills,ON,No Frills B,Toronto,M4C 1A1,43.63,-79.30
nf-c,no-frills,ON,No Frills C,Toronto,M4C 1A3,43.62,-79.32
met-c,metro,ON,Metro C,Toronto,M4C 1A2,43.64,-79.31
maxi-q,maxi,QC,Maxi Q,Montréal,H2X 1A1,45.50,-73.57
`

// The brief's data set, as of 2026-11-19: the week is 11-13..11-19, the
// week before 11-06..11-12; the last four weeks 10-23..11-19, the four
// before 09-25..10-22.
//   - milk: Loblaws' regular 5.00 -> 5.50; No Frills 4.00, then on 11-19
//     4.00 and 4.20 at its two stores (a price in force of 4.00); Metro on
//     promotion at 4.80 on 11-19, its regular 6.00 unchanged;
//   - bread: Loblaws flat at 3.00, No Frills' regular 2.50 -> 2.00;
//   - cheese: Metro 8.00 on 10-20, 8.80 on 11-19;
//   - cereal: No Frills 4.00, on promotion at 3.00 at store C on 11-15
//     until 11-17, at 4.00 at store B on 11-19, its last day with data:
//     store C's promotion has ended, so not on promotion in the week's
//     price;
//   - chips: new at No Frills on 11-18. Quebec's milk counts nowhere.
const briefObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-10-20,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-10-20,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-10-20,met-c,metro,M3,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-10,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,met-c,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,lob-a,loblaws,L2,3.00,3.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-10,nf-b,no-frills,N2,2.50,2.50,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-10,nf-b,no-frills,N5,4.00,4.00,,062000000015,Corn Flakes,Kellogg's,500 g,Pantry
2026-11-15,nf-c,no-frills,N5,3.00,4.00,2026-11-17,062000000015,Corn Flakes,Kellogg's,500 g,Pantry
2026-11-18,nf-b,no-frills,N4,1.99,1.99,,068000000208,Sea Salt Chips,Kettle,220 g,Snacks
2026-11-19,lob-a,loblaws,L1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-c,no-frills,N1,4.20,4.20,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-c,metro,M1,4.80,6.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L2,3.00,3.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-19,nf-b,no-frills,N2,2.00,2.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-19,met-c,metro,M3,8.80,8.80,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,nf-b,no-frills,N5,4.00,4.00,,062000000015,Corn Flakes,Kellogg's,500 g,Pantry
2026-11-19,maxi-q,maxi,Q1,9.99,9.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

// TestBriefReviewCases: three rules of the brief a review found broken,
// on the data set above (fields the brief has always had):
//   - movers are regular-price changes: Metro's milk going on promotion
//     (4.80, regular 6.00 unchanged) is no mover;
//   - promotion intensity reads each SKU's weekly price: No Frills'
//     cereal, on promotion at one store on 11-15 until 11-17, is at its
//     regular 4.00 on 11-19, its last day with data, at both stores: not
//     promoted (the rule of any store under regular counted it);
//   - the basket prices a banner's price in force, as every current
//     price does: the most common of its stores' prices, the lower on a
//     tie: No Frills' milk at 4.00 and 4.20 is 4.00.
func TestBriefReviewCases(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", briefObs, nil)
	got, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]Mover{got.MoversUp, got.MoversDown} {
		for _, m := range list {
			if m.Banner == "metro" {
				t.Errorf("mover %s %s %s -> %s: a promotion, not a regular-price change", m.Banner, m.ExternalSKU, m.Before, m.Now)
			}
		}
	}
	for _, p := range got.Promotions {
		if p.Banner == "no-frills" && p.OnPromotion != 0 {
			t.Errorf("No Frills: %d on promotion, want 0 (the cereal's weekly price is its regular price)", p.OnPromotion)
		}
	}
	found := false
	for _, c := range got.Basket.Banners {
		if c.Banner == "no-frills" {
			found = true
			if c.Total != 400 {
				t.Errorf("No Frills basket total %s, want 4.00 (milk: 4.00 and 4.20 at its stores, the lower on a tie)", c.Total)
			}
		}
	}
	if !found {
		t.Errorf("No Frills is not in the basket: %+v", got.Basket)
	}
}

// TestBriefNewProducts: a product is new when no banner of the province
// priced it before the week. As of 2026-11-19 (the week 11-13..11-19):
//   - 068000000307, at Loblaws since 10-20 and new at Metro on 11-15: not
//     new;
//   - 068000000314, first at No Frills on 11-14 at 2.50, then at Metro on
//     11-16 at 3.00: new on 11-14 at 2.50, under both;
//   - 068000000321, at No Frills from 11-18 at 1.99: new;
//   - 068000000338, first on 11-17 at Metro (5.00) and Loblaws (4.50):
//     the lower first price;
//   - 068000000345, first on 11-13, the week's first day: new;
//   - No Frills' N11, new on 11-15 but sold under no barcode: not a
//     product the brief lists.
func TestBriefNewProducts(t *testing.T) {
	t.Parallel()
	svc := csvService(t, briefStores, `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-10-20,lob-a,loblaws,L7,3.49,3.49,,068000000307,Rye Bread,Dempster's,600 g,Bakery
2026-11-15,met-c,metro,M7,3.69,3.69,,068000000307,Rye Bread,Dempster's,600 g,Bakery
2026-11-14,nf-b,no-frills,N8,2.50,2.50,,068000000314,Apple Juice,Oasis,1.89 L,Beverages
2026-11-16,met-c,metro,M8,3.00,3.00,,068000000314,Apple Juice,Oasis,1.89 L,Beverages
2026-11-18,nf-b,no-frills,N9,1.99,1.99,,068000000321,Butter Tarts,Wholesome,6 x 45 g,Bakery
2026-11-19,nf-b,no-frills,N9,1.99,1.99,,068000000321,Butter Tarts,Wholesome,6 x 45 g,Bakery
2026-11-17,met-c,metro,M10,5.00,5.00,,068000000338,Cola,Coca-Cola,2 L,Beverages
2026-11-17,lob-a,loblaws,L10,4.50,4.50,,068000000338,Cola,Coca-Cola,2 L,Beverages
2026-11-13,met-c,metro,M12,1.49,1.49,,068000000345,Bananas,Dole,1 kg,Produce
2026-11-15,nf-b,no-frills,N11,2.99,2.99,,,Store Cookies,No Name,300 g,Snacks
`)
	got, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	want := BriefNewProducts{Count: 4, Products: []BriefProduct{
		{UPC: "068000000314", Name: "Apple Juice", Brand: "Oasis", Size: "1.89 L", Category: "Beverages", FirstSeen: day("2026-11-14"),
			Banners: []string{"metro", "no-frills"}, FirstPrice: 250},
		{UPC: "068000000345", Name: "Bananas", Brand: "Dole", Size: "1 kg", Category: "Produce", FirstSeen: day("2026-11-13"),
			Banners: []string{"metro"}, FirstPrice: 149},
		{UPC: "068000000321", Name: "Butter Tarts", Brand: "Wholesome", Size: "6 x 45 g", Category: "Bakery", FirstSeen: day("2026-11-18"),
			Banners: []string{"no-frills"}, FirstPrice: 199},
		{UPC: "068000000338", Name: "Cola", Brand: "Coca-Cola", Size: "2 L", Category: "Beverages", FirstSeen: day("2026-11-17"),
			Banners: []string{"loblaws", "metro"}, FirstPrice: 450},
	}}
	if diff := cmp.Diff(want, got.NewProducts); diff != "" {
		t.Errorf("new products (-want +got):\n%s", diff)
	}
}
