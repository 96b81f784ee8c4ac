package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// The price-in-force data set (stores of geoStores), as of 2026-11-19,
// the latest day (cheese, observed that day, sets it):
//
//	milk 068000000154, loblaws L1:
//	  lob-1 2026-11-10 3.99 on promotion (regular 4.99), promo_ends 2026-11-12
//	  lob-2 2026-11-11 4.99
//	  On 11-19 lob-1's promotion has ended: its price in force is 4.99,
//	  and lob-2's is 4.99: the offer is 4.99, not on promotion, its
//	  promotion ended 2026-11-12, 2 stores. (The most common of the
//	  latest prices, 3.99 and 4.99, the lower on a tie, said 3.99 on
//	  promotion.)
//	milk, no-frills N1:
//	  nf-1 2026-11-18 3.49 on promotion (regular 4.49), promo_ends 2026-11-25:
//	  in force, 3.49 until 11-25.
//	butter, loblaws L3:
//	  lob-1 2026-11-05 4.49 (14 days before 11-19: out of the window)
//	  lob-2 2026-11-18 5.49
//	  In force on 11-19: lob-2 only, 5.49, 1 store. (Counted from its
//	  newest day, 11-18, lob-1's 11-05 was within 14 days: 4.49, the
//	  lower on a tie, 2 stores.)
const inForceHeader = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"

// inForceEarly are the rows up to 2026-11-11, inForceLate the rest.
const inForceEarly = `2026-11-10,lob-1,loblaws,L1,3.99,4.99,2026-11-12,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-11,lob-2,loblaws,L1,4.99,4.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

const inForceLate = `2026-11-18,nf-1,no-frills,N1,3.49,4.49,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-05,lob-1,loblaws,L3,4.49,4.49,,064100000018,Butter,Lactantia,454 g,Spreads
2026-11-18,lob-2,loblaws,L3,5.49,5.49,,064100000018,Butter,Lactantia,454 g,Spreads
2026-11-19,lob-1,loblaws,L2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
`

// TestPriceInForce: an offer is the banner's price in force on the data
// set's latest day: each store's latest observation of the last 14 days,
// a promotion past its stated end counted at its regular price, and the
// offers of series no import touched follow the latest day when an
// import moves it (the promotion of L1 ends between the two imports).
func TestPriceInForce(t *testing.T) {
	ctx := context.Background()
	date := func(s string) *grocery.Date { return snapDay(s) }
	check := func(t *testing.T, svc *grocery.Service, upc string, want []grocery.Offer) {
		t.Helper()
		got, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		type offer struct {
			Banner, SKU           string
			Price, Regular        grocery.Cents
			OnPromo               bool
			PromoEnds, PromoEnded *grocery.Date
			Stores                int
		}
		conv := func(os []grocery.Offer) (r []offer) {
			for _, o := range os {
				r = append(r, offer{o.Banner, o.ExternalSKU, o.Price, o.RegularPrice, o.OnPromo, o.PromoEnds, o.PromoEnded, o.StoreCount})
			}
			return r
		}
		if d := cmp.Diff(conv(want), conv(got.Offers)); d != "" {
			t.Errorf("offers of %s (-want +got):\n%s", upc, d)
		}
	}
	milk := []grocery.Offer{
		{Banner: "no-frills", ExternalSKU: "N1", Price: 349, RegularPrice: 449, OnPromo: true, PromoEnds: date("2026-11-25"), StoreCount: 1},
		{Banner: "loblaws", ExternalSKU: "L1", Price: 499, RegularPrice: 499, PromoEnded: date("2026-11-12"), StoreCount: 2},
	}
	butter := []grocery.Offer{{Banner: "loblaws", ExternalSKU: "L3", Price: 549, RegularPrice: 549, StoreCount: 1}}

	t.Run("OneImport", func(t *testing.T) {
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly+inForceLate)
		check(t, svc, snapMilk, milk)
		check(t, svc, snapButter, butter)
	})
	t.Run("LatestDayMoves", func(t *testing.T) {
		// Up to 11-11, the latest day of the first import, L1's
		// promotion is in force at lob-1: 3.99 and 4.99, the lower on a
		// tie.
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly)
		check(t, svc, snapMilk, []grocery.Offer{
			{Banner: "loblaws", ExternalSKU: "L1", Price: 399, RegularPrice: 499, OnPromo: true, PromoEnds: date("2026-11-12"), StoreCount: 2},
		})
		// An import of other series moves the latest day to 11-19: L1's
		// offer follows, with nothing of L1 imported.
		if _, err := svc.Import(ctx, "late.csv", strings.NewReader(inForceHeader+inForceLate), nil); err != nil {
			t.Fatal(err)
		}
		check(t, svc, snapMilk, milk)
		check(t, svc, snapButter, butter)
	})
	t.Run("History", func(t *testing.T) {
		// L1 from 11-06 to 11-19: nothing in force before 11-10; lob-1's
		// promotion alone on 11-10; with lob-2's 4.99 from 11-11, 3.99
		// and 4.99 tie: 3.99 on promotion, through its end on 11-12;
		// from 11-13 both stores at 4.99, the offer's price.
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly+inForceLate)
		got, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: "L1", Banner: "loblaws", Province: "ON", Period: "14d"})
		if err != nil {
			t.Fatal(err)
		}
		d := func(s string) grocery.Date { return *date(s) }
		want := []grocery.DayInForce{
			{Date: d("2026-11-10"), Price: 399, RegularPrice: 499, OnPromo: true, StoreCount: 1},
			{Date: d("2026-11-11"), Price: 399, RegularPrice: 499, OnPromo: true, StoreCount: 2},
			{Date: d("2026-11-12"), Price: 399, RegularPrice: 499, OnPromo: true, StoreCount: 2},
		}
		for _, day := range []string{"2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"} {
			want = append(want, grocery.DayInForce{Date: d(day), Price: 499, RegularPrice: 499, StoreCount: 2})
		}
		if diff := cmp.Diff(want, got.InForce); diff != "" {
			t.Errorf("in force (-want +got):\n%s", diff)
		}
		if len(got.Points) != 2 {
			t.Errorf("points: got %d, want the 2 observation days", len(got.Points))
		}
	})
	t.Run("Export", func(t *testing.T) {
		// The offers export carries the price in force and promo_ended.
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly+inForceLate)
		var buf strings.Builder
		if _, err := svc.Export(ctx, grocery.ExportInput{Dataset: "offers", Format: "jsonl", Banner: "loblaws", UPC: snapMilk}, &buf); err != nil {
			t.Fatal(err)
		}
		want := `"price":4.99,"regular_price":4.99,"on_promo":false,"promo_ends":null,"promo_ended":"2026-11-12",`
		if !strings.Contains(buf.String(), want) {
			t.Errorf("offers export: got %s, want L1 with %s", buf.String(), want)
		}
	})
	t.Run("StorePrice", func(t *testing.T) {
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly+inForceLate)
		got, err := svc.StorePrice(ctx, grocery.StorePriceInput{Banner: "loblaws", Store: "lob-1", SKU: "L1"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Price != 499 || got.RegularPrice != 499 || got.OnPromo || got.PromoEnds != nil || got.PromoEnded == nil || *got.PromoEnded != *date("2026-11-12") {
			t.Errorf("lob-1 L1: got %+v, want 4.99 regular 4.99, not on promotion, promo_ended 2026-11-12", got)
		}
		// The benchmark's and geography's banner price is the offer's:
		// loblaws 4.99, no-frills 3.49 on promotion (still in force).
		geo, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
		if err != nil {
			t.Fatal(err)
		}
		if len(geo.Provinces) != 1 || geo.Provinces[0].Min != 349 || geo.Provinces[0].Max != 499 {
			t.Errorf("geographic prices of milk: got %+v, want ON with min 3.49 and max 4.99", geo.Provinces)
		}
	})
	t.Run("AlertStanding", func(t *testing.T) {
		// Cheese L2 on 11-19 at lob-1 8.00, and at lob-2 7.50 the same
		// day: the median of the day, 7.75, is a price no store charged;
		// the price in force is the most common, the lower on a tie,
		// 7.50, as the lookup says. A rule "under 7.60" holds.
		svc := openSnap(t, geoStores, inForceHeader+inForceEarly+inForceLate+
			"2026-11-19,lob-2,loblaws,L2,7.50,7.50,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs\n")
		if _, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"}); err != nil {
			t.Fatal(err)
		}
		acme := grocery.NewContextWithAccount(ctx, "acme")
		limit := 7.60
		rule, err := svc.CreateAlert(acme, grocery.AlertInput{Name: "cheese", Banner: "loblaws", SKU: "L2", Province: "ON",
			Condition: grocery.AlertPriceBelow, Threshold: &limit})
		if err != nil {
			t.Fatal(err)
		}
		st := rule.Standing
		if st == nil || len(st.Series) != 1 || st.Series[0].Price != 750 || !st.Holds {
			t.Fatalf("standing: got %+v, want L2 at 7.50, holding", st)
		}
		look, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: snapCheese, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(look.Offers) != 1 || look.Offers[0].Price != st.Series[0].Price {
			t.Errorf("lookup: got %+v, want the standing's price %s", look.Offers, st.Series[0].Price)
		}
	})
}
