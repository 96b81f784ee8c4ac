package grocery

import (
	"bytes"
	"context"
	stdhtml "html"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const briefStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
nf-b,no-frills,ON,No Frills B,Toronto,M4C 1A1,43.63,-79.30
met-c,metro,ON,Metro C,Toronto,M4C 1A2,43.64,-79.31
maxi-q,maxi,QC,Maxi Q,Montréal,H2X 1A1,45.50,-73.57
`

// The brief's data set, as of 2026-11-19: the week is 11-13..11-19, the
// week before 11-06..11-12, the week four weeks before 10-16..10-22.
// Milk is at all three Ontario banners (up 10% at Loblaws, flat at No
// Frills, on promotion at Metro: 6.00 -> 4.80); bread at Loblaws (flat)
// and No Frills (2.50 -> 2.00); cheese only at Metro (8.00 four weeks
// before, 8.80 now); a snack is new at No Frills on 11-18. Quebec's milk
// must count nowhere.
const briefObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-10-20,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-10-20,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-10-20,met-c,metro,M3,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-10,lob-a,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,met-c,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-10,lob-a,loblaws,L2,3.00,3.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-10,nf-b,no-frills,N2,2.50,2.50,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-18,nf-b,no-frills,N4,1.99,1.99,,068000000208,Sea Salt Chips,Kettle,220 g,Snacks
2026-11-19,lob-a,loblaws,L1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-c,metro,M1,4.80,6.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L2,3.00,3.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-19,nf-b,no-frills,N2,2.00,2.00,,068000000192,White Bread,Wonder,675 g,Bakery
2026-11-19,met-c,metro,M3,8.80,8.80,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,maxi-q,maxi,Q1,9.99,9.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

func TestExecutiveBrief(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		t.Fatal(err)
	}
	acme := NewContextWithAccount(ctx, "acme")
	ten := 10.0
	// The rule watches Metro's milk from before its drop.
	mustImport(t, svc, "stores.csv", briefStores, nil)
	header, rows, _ := strings.Cut(briefObs, "\n")
	early, late, _ := strings.Cut(rows, "2026-11-18,")
	mustImport(t, svc, "early.csv", header+"\n"+early, nil)
	if _, err := svc.CreateAlert(acme, AlertInput{Name: "Metro milk down", Banner: "metro", SKU: "M1", Province: "ON",
		Condition: AlertPriceDropPct, Threshold: &ten}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, svc, "late.csv", header+"\n2026-11-18,"+late, nil)

	got, err := svc.ExecutiveBrief(acme, BriefInput{Province: "Ontario", Banner: "No Frills"})
	if err != nil {
		t.Fatal(err)
	}
	pct := func(f float64) *float64 { return &f }
	want := &Brief{
		Province: "ON", ProvinceName: "Ontario", Banner: "no-frills",
		WeekFrom: day("2026-11-13"), WeekTo: day("2026-11-19"), Currency: "CAD",
		// Basket: barcodes at two banners or more, most banners first:
		// milk (3), bread (2). Market averages: milk (5.50+4.00+4.80)/3 =
		// 4.7667, bread (3.00+2.00)/2 = 2.50.
		// No Frills 4.00+2.00 = 6.00 against 7.2667: index 82.57 -> 82.6;
		// Metro 4.80 (milk only) against 4.7667: 100.70 -> 100.7;
		// Loblaws 5.50+3.00 = 8.50 against 7.2667: 116.97 -> 117.0.
		Basket: BriefBasket{Items: 2, Banners: []BasketCost{
			{Banner: "no-frills", BannerName: "No Frills", Own: true, Total: 600, Items: 2, Index: 82.6},
			{Banner: "metro", BannerName: "Metro", Total: 480, Items: 1, Missing: 1, Index: 100.7},
			{Banner: "loblaws", BannerName: "Loblaws", Total: 850, Items: 2, Index: 117.0},
		}},
		// Week over week (11-10 -> 11-19): Loblaws milk 5.00 -> 5.50 =
		// +10.0%; Metro milk 6.00 -> 4.80 = -20.0%; No Frills bread 2.50
		// -> 2.00 = -20.0% (the tie goes by name: "2% Milk" first); flat
		// series are no movers. Sparklines: the days from 10-23 on.
		MoversUp: []Mover{{UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L", Banner: "loblaws", BannerName: "Loblaws",
			ExternalSKU: "L1", Before: 500, BeforeDate: day("2026-11-10"), Now: 550, NowDate: day("2026-11-19"), ChangePct: 10,
			Prices: []DayPrice{{day("2026-11-10"), 500}, {day("2026-11-19"), 550}}}},
		MoversDown: []Mover{
			{UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L", Banner: "metro", BannerName: "Metro",
				ExternalSKU: "M1", Before: 600, BeforeDate: day("2026-11-10"), Now: 480, NowDate: day("2026-11-19"), ChangePct: -20,
				Prices: []DayPrice{{day("2026-11-10"), 600}, {day("2026-11-19"), 480}}},
			{UPC: "068000000192", Name: "White Bread", Brand: "Wonder", Size: "675 g", Banner: "no-frills", BannerName: "No Frills", Own: true,
				ExternalSKU: "N2", Before: 250, BeforeDate: day("2026-11-10"), Now: 200, NowDate: day("2026-11-19"), ChangePct: -20,
				Prices: []DayPrice{{day("2026-11-10"), 250}, {day("2026-11-19"), 200}}},
		},
		// Metro: milk on promotion (4.80 of 6.00: 20% off) and cheese: 1
		// of 2 = 50.0%. Loblaws 2 SKUs, No Frills 3, none on promotion.
		Promotions: []BannerPromotions{
			{Banner: "metro", BannerName: "Metro", Products: 2, OnPromotion: 1, SharePct: 50, AvgDiscountPct: 20},
			{Banner: "loblaws", BannerName: "Loblaws", Products: 2},
			{Banner: "no-frills", BannerName: "No Frills", Own: true, Products: 3},
		},
		// Geometric means of the ratios. Bakery, week: bread 3.00/3.00 and
		// 2.00/2.50 = 0.8: exp((0 + ln 0.8)/2) = sqrt(0.8) = 0.8944: -10.6%.
		// Dairy & Eggs, week: milk 1.1, 1, 0.8: exp((ln 1.1 + ln 0.8)/3)
		// = 0.88^(1/3) = 0.9583: -4.2%; four weeks (10-20 -> 11-19): milk
		// 1.1 (Loblaws), 1 (No Frills), cheese 8.80/8.00 = 1.1:
		// 1.21^(1/3) = 1.0656: +6.6%. Snacks: the chips have no earlier
		// price. All: week 1.1*1*0.8*1*0.8 = 0.704^(1/5) = 0.9322: -6.8%;
		// four weeks as Dairy & Eggs.
		Categories: []CategoryInflation{
			{Category: "Bakery", WeekPct: pct(-10.6), WeekSeries: 2},
			{Category: "Dairy & Eggs", WeekPct: pct(-4.2), WeekSeries: 3, FourWeekPct: pct(6.6), FourWeekSeries: 3},
			{Category: "Snacks"},
		},
		Overall: CategoryInflation{Category: "All categories", WeekPct: pct(-6.8), WeekSeries: 5, FourWeekPct: pct(6.6), FourWeekSeries: 3},
		NewProducts: BriefNewProducts{Count: 1, Products: []BriefProduct{{UPC: "068000000208", Name: "Sea Salt Chips", Brand: "Kettle",
			Size: "220 g", Category: "Snacks", FirstSeen: day("2026-11-18"), Banners: []string{"no-frills"}, FirstPrice: 199}}},
		// Basis: the three Ontario stores; store-days of the seven series
		// from 10-16: milk 3+3+2, bread 2+2, cheese 2, chips 1 = 15.
		Basis: Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "metro", "no-frills"},
			From: dp("2026-10-16"), To: dp("2026-11-19"), Stores: 3, Observations: 15, Comparison: CompareSameBarcode},
	}
	if len(got.AlertEvents) != 1 || got.AlertEvents[0].SKU != "M1" || got.AlertEvents[0].Price != 480 {
		t.Errorf("alert events: got %+v, want the Metro milk drop to 4.80", got.AlertEvents)
	}
	want.AlertEvents = got.AlertEvents
	want.Summary = got.Summary
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, s := range []string{
		"Ontario, 2026-11-13 to 2026-11-19: ",
		// Metro carries 1 of the 2 items: below four in five, not ranked.
		"of 2 banners carrying at least 2 of the 2 shared products, No Frills had the cheapest basket (index 82.6, $6.00 for the 2 it carries) and Loblaws the dearest (index 117.0)",
		"Prices fell 6.8% week over week across 5 banner SKUs compared like for like (+6.6% over four weeks); the largest category move was Bakery (-10.6%)",
		"The biggest rise was Natrel 2% Milk at Loblaws ($5.00 to $5.50, +10.0%); the biggest drop Natrel 2% Milk at Metro ($6.00 to $4.80, -20.0%)",
		"Metro promoted the most (50.0% of 2 products, 20.0% off on average)",
		"1 product was new in the panel. Your alert rules recorded 1 event.",
	} {
		if !strings.Contains(got.Summary, s) {
			t.Errorf("summary %q\nlacks %q", got.Summary, s)
		}
	}

	t.Run("NoAccount", func(t *testing.T) {
		got, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.AlertEvents) != 0 || got.Basket.Banners[0].Own || strings.Contains(got.Summary, "alert") {
			t.Errorf("without an account or banner: events %v, own %v, summary %q", got.AlertEvents, got.Basket.Banners[0].Own, got.Summary)
		}
	})
	t.Run("SingleStore", func(t *testing.T) {
		// Quebec: one store, one SKU observed once: no basket (one
		// banner), no mover, no change; the chips' absence is no news.
		got, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "QC"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Basket.Banners) != 0 || len(got.MoversUp)+len(got.MoversDown) != 0 || got.Overall.WeekPct != nil ||
			got.NewProducts.Count != 1 || got.Basis.Stores != 1 || got.Basis.Observations != 1 {
			t.Errorf("QC: %+v", got)
		}
		// One banner: nothing to rank, no movers; the summary says the
		// week and the new product, nothing else.
		if want := "Quebec, 2026-11-13 to 2026-11-19: 1 product was new in the panel."; got.Summary != want {
			t.Errorf("QC summary %q, want %q", got.Summary, want)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		got, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "NU"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Basis.Note == "" || !strings.Contains(got.Summary, "no price was observed in the panel") {
			t.Errorf("NU: note %q, summary %q", got.Basis.Note, got.Summary)
		}
		var page bytes.Buffer
		if err := got.WriteHTML(&page); err != nil {
			t.Fatal(err)
		}
	})
	for _, tc := range []struct{ in BriefInput }{{BriefInput{}}, {BriefInput{Province: "ZZ"}}, {BriefInput{Province: "ON", Banner: "nosuch"}}} {
		if _, err := svc.ExecutiveBrief(ctx, tc.in); ErrorCode(err) != EINVALID {
			t.Errorf("%+v: got %v, want EINVALID", tc.in, err)
		}
	}
}

// TestBriefHTML: the page is one document with its charts inline, no
// script and nothing fetched, and the numbers of the brief.
func TestBriefHTML(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", briefObs, nil)
	b, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "no-frills"})
	if err != nil {
		t.Fatal(err)
	}
	b.NewProducts.Products[0].Name = `Chips <script>alert(1)</script> & "Dip"`
	var page bytes.Buffer
	if err := b.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url(", "http://", "https://"} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("the page has %q: it must be self-contained and script-free", bad)
		}
	}
	for _, want := range []string{
		"<svg", `aria-label="Basket index by banner"`, `aria-label="Category inflation"`, "<polyline points=\"",
		"Chips &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Dip&#34;",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	text := stdhtml.UnescapeString(html)
	for _, want := range []string{"82.6  $6.00, 2 of 2 items", "-10.6%", "+6.6%", "$4.80", b.Summary} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(html, "<polyline"); n != 3 {
		t.Errorf("%d sparklines, want one per mover (3)", n)
	}
}

// TestBriefSummaryCoverage: a banner carrying few of the basket's items
// is not named cheapest for them (review: Costco, 9 of 25 items, was).
func TestBriefSummaryCoverage(t *testing.T) {
	b := &Brief{ProvinceName: "Ontario", Basket: BriefBasket{Items: 25, Banners: []BasketCost{
		{BannerName: "Costco", Index: 85.3, Total: 4611, Items: 9, Missing: 16},
		{BannerName: "Walmart", Index: 88.8, Total: 15241, Items: 25},
		{BannerName: "Zehrs", Index: 101.9, Total: 15472, Items: 20, Missing: 5}, // 20 = four in five: ranked
		{BannerName: "Longo's", Index: 112.2, Total: 19622, Items: 19, Missing: 6},
	}}}
	got := b.summary()
	want := "of 2 banners carrying at least 20 of the 25 shared products, Walmart had the cheapest basket (index 88.8, $152.41 for the 25 it carries) and Zehrs the dearest (index 101.9)"
	if !strings.Contains(got, want) {
		t.Errorf("summary %q\nlacks %q", got, want)
	}
}
