package grocery

import (
	"bytes"
	"context"
	"fmt"
	stdhtml "html"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// briefService is a Service holding the brief's data set (briefObs) and
// keys of the accounts given; the first account's alert rule watches
// Metro's milk from before its drop, so it records one event.
func briefService(t *testing.T, accounts ...string) *Service {
	t.Helper()
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	ctx := context.Background()
	for _, a := range accounts {
		if _, err := svc.CreateKey(ctx, KeyInput{Account: a, Plan: "integration"}); err != nil {
			t.Fatal(err)
		}
	}
	ten := 10.0
	mustImport(t, svc, "stores.csv", briefStores, nil)
	header, rows, _ := strings.Cut(briefObs, "\n")
	early, late, _ := strings.Cut(rows, "2026-11-18,")
	mustImport(t, svc, "early.csv", header+"\n"+early, nil)
	if _, err := svc.CreateAlert(NewContextWithAccount(ctx, accounts[0]), AlertInput{Name: "Metro milk down", Banner: "metro", SKU: "M1", Province: "ON",
		Condition: AlertPriceDropPct, Threshold: &ten}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, svc, "late.csv", header+"\n2026-11-18,"+late, nil)
	return svc
}

func TestExecutiveBrief(t *testing.T) {
	svc := briefService(t, "acme")
	ctx := context.Background()
	acme := NewContextWithAccount(ctx, "acme")

	got, err := svc.ExecutiveBrief(acme, BriefInput{Province: "Ontario", Banner: "No Frills"})
	if err != nil {
		t.Fatal(err)
	}
	pct := func(f float64) *float64 { return &f }
	want := &Brief{
		Province: "ON", ProvinceName: "Ontario", Banner: "no-frills", BannerName: "No Frills",
		WeekFrom: day("2026-11-13"), WeekTo: day("2026-11-19"), Currency: "CAD",
		// Basket: the barcodes three banners or more price this week:
		// milk. Prices in force: Loblaws 5.50, No Frills 4.00 (4.00 and
		// 4.20 at its stores, the lower on a tie; regular likewise),
		// Metro 4.80 (regular 6.00). Each against the median of the
		// other two:
		// No Frills 4.00 / 5.15 = 0.7767 -> 77.7, regular 4.00 / 5.75 = 0.6957 -> 69.6;
		// Metro 4.80 / 4.75 = 1.0105 -> 101.1, regular 6.00 / 4.75 = 1.2632 -> 126.3;
		// Loblaws 5.50 / 4.40 = 1.25 -> 125.0, regular 5.50 / 5.00 = 110.0.
		// One item: no banner ranked (20 needed).
		// The flyer week of 11-19 (11-19 to 11-25): No Frills, the one
		// banner priced in the week before (11-12 to 11-18), is priced
		// in it.
		Basket: BriefBasket{Basket: BasketShared, WeekFrom: day("2026-11-19"), WeekTo: day("2026-11-25"), Items: 1, MinItems: 20, Banners: []BasketCost{
			{Banner: "no-frills", BannerName: "No Frills", Own: true, Total: 400, MarketCost: 515, Items: 1, Index: 77.7, RegularIndex: 69.6},
			{Banner: "metro", BannerName: "Metro", Total: 480, MarketCost: 475, Items: 1, Index: 101.1, RegularIndex: 126.3},
			{Banner: "loblaws", BannerName: "Loblaws", Total: 550, MarketCost: 440, Items: 1, Index: 125, RegularIndex: 110},
		}},
		// Regular prices in force, week before -> week: Loblaws milk 5.00
		// -> 5.50 = +10.0%; No Frills bread 2.50 -> 2.00 = -20.0%. No
		// Frills' milk stays at 4.00 (4.00 and 4.20 tie on 11-19: the
		// lower; the median 4.10 was a price no store charged): no mover.
		// Metro's milk went on promotion, its regular price unchanged: no
		// mover. Sparklines: the days from 10-23 on.
		MoversUp: []Mover{
			{UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L", Category: "Dairy & Eggs", Banner: "loblaws", BannerName: "Loblaws",
				ExternalSKU: "L1", Before: 500, BeforeDate: day("2026-11-10"), Now: 550, NowDate: day("2026-11-19"), ChangePct: 10,
				Prices: []DayPrice{{day("2026-11-10"), 500, 500}, {day("2026-11-19"), 550, 550}}},
		},
		MoversDown: []Mover{
			{UPC: "068000000192", Name: "White Bread", Brand: "Wonder", Size: "675 g", Category: "Bakery", Banner: "no-frills", BannerName: "No Frills", Own: true,
				ExternalSKU: "N2", Before: 250, BeforeDate: day("2026-11-10"), Now: 200, NowDate: day("2026-11-19"), ChangePct: -20,
				Prices: []DayPrice{{day("2026-11-10"), 250, 250}, {day("2026-11-19"), 200, 200}}},
		},
		// Weekly prices: Metro's milk on promotion (4.80 of 6.00: 20%
		// off), its cheese not: 1 of 2 = 50.0%, and the milk's promotion
		// started (off promotion the week before). No Frills' cereal is at
		// 4.00 on 11-19, its last day with data, store C's promotion of
		// 11-15 having ended on 11-17: not on promotion.
		Promotions: []BannerPromotions{
			{Banner: "metro", BannerName: "Metro", Products: 2, OnPromotion: 1, SharePct: 50, AvgDiscountPct: 20, Started: 1},
			{Banner: "loblaws", BannerName: "Loblaws", Products: 2},
			{Banner: "no-frills", BannerName: "No Frills", Own: true, Products: 4},
		},
		PromotionsStarted: []PromoChange{{UPC: "068000000154", Name: "2% Milk", Brand: "Natrel", Size: "2 L", Banner: "metro", BannerName: "Metro",
			ExternalSKU: "M1", Price: 480, Regular: 600, DiscountPct: 20, Date: day("2026-11-19")}},
		PromotionsEnded: []PromoChange{},
		// Week: each SKU's mean index this week over the week before,
		// its index chaining the moves of its stores in force on each day
		// and the SKU's day before (matched stores; a store entering is
		// linked in, its first price no change). One store a SKU, or
		// stores that do not change, give the ratio of the banner's mean
		// prices in force. Bakery:
		// 3.00/3.00, 2.00/2.50: sqrt(0.8) = 0.8944: -10.6%. Dairy & Eggs:
		// milk 5.50/5.00, 4.00/4.00, 4.80/6.00 (regular 6.00/6.00); the
		// cheese has no price the week before: shelf (1.1 * 1 *
		// 0.8)^(1/3) = 0.9583: -4.2%, regular (1.1 * 1)^(1/3) = 1.0323:
		// +3.2%. Pantry: cereal, index 1 on 11-10 (store B 4.00), 1 on
		// 11-15 (store B 4.00 -> 4.00; store C enters at 3.00 on
		// promotion, linked in), sqrt(4/3) on 11-19 (B 4.00 -> 4.00, C
		// 3.00 -> 4.00 as its promotion ended on 11-17): (1 + 1.1547)/2 /
		// 1 = 1.0774: +7.7%, regular 4.00 throughout: 0.0%. (The banner's
		// daily prices, 3.00 on 11-15 as the lower of B's and C's, gave
		// -12.5%: a fall from 4.00 that no store made.) Four weeks: milk (5.00 + 5.50)/2 / 5.00 = 1.05 at
		// Loblaws, (4.00 + 4.00)/2 / 4.00 = 1 at No Frills, cheese
		// 8.80/8.00 = 1.1: (1.05 * 1 * 1.1)^(1/3) = 1.0492: +4.9%. All:
		// the six SKUs' week ratios 1, 0.8, 1.1, 1, 0.8, 1.0774:
		// 0.75845^(1/6) = 0.9550: -4.5%, regular 1, 0.8, 1.1, 1, 1, 1: 0.88^(1/6) =
		// 0.9789: -2.1%.
		// Counts of the week's series: Bakery bread at loblaws (1 store)
		// and no-frills (2): 2 SKUs, 2 banners, 3 stores; Dairy milk at
		// loblaws, no-frills, metro: 3, 3, 1 + 2 + 1 = 4; Pantry cereal
		// at no-frills: 1, 1, 2; Snacks none. Every category is under 5
		// SKUs (low_sample); all together 6 SKUs of 3 banners at 4
		// stores is not.
		Categories: []CategoryInflation{
			{Category: "Bakery", WeekPct: pct(-10.6), WeekRegularPct: pct(-10.6), WeekSeries: 2, WeekBanners: 2, WeekStores: 3, LowSample: true,
				WeekDays: 1, PreviousWeekDays: 1, FourWeekDays: 2},
			{Category: "Dairy & Eggs", WeekPct: pct(-4.2), WeekRegularPct: pct(3.2), WeekSeries: 3, WeekBanners: 3, WeekStores: 4, LowSample: true,
				WeekDays: 1, PreviousWeekDays: 1, FourWeekPct: pct(4.9), FourWeekRegularPct: pct(4.9), FourWeekSeries: 3, FourWeekDays: 2, PreviousFourWeekDays: 1},
			{Category: "Pantry", WeekPct: pct(7.7), WeekRegularPct: pct(0), WeekSeries: 1, WeekBanners: 1, WeekStores: 2, LowSample: true,
				WeekDays: 2, PreviousWeekDays: 1, FourWeekDays: 3},
			{Category: "Snacks", LowSample: true, WeekDays: 1, FourWeekDays: 1},
		},
		Overall: CategoryInflation{Category: "All categories", WeekPct: pct(-4.5), WeekRegularPct: pct(-2.1), WeekSeries: 6, WeekBanners: 3, WeekStores: 4,
			WeekDays: 3, PreviousWeekDays: 1,
			FourWeekPct: pct(4.9), FourWeekRegularPct: pct(4.9), FourWeekSeries: 3, FourWeekDays: 4, PreviousFourWeekDays: 1},
		NewProducts: BriefNewProducts{Count: 1, Products: []BriefProduct{{UPC: "068000000208", Name: "Sea Salt Chips", Brand: "Kettle",
			Size: "220 g", Category: "Snacks", FirstSeen: day("2026-11-18"), Banners: []string{"no-frills"}, FirstPrice: 199}}},
		// Basis: the four Ontario stores; the observations from 09-25:
		// 3 on 10-20, 6 on 11-10, 1 on 11-15, 1 on 11-18, 8 on 11-19.
		Basis: Basis{Provinces: []string{"ON"}, Banners: []string{"loblaws", "metro", "no-frills"},
			From: dp("2026-09-25"), To: dp("2026-11-19"), Stores: 4, Observations: 19, Comparison: CompareSameBarcode,
			Note: "the four weeks before the last four have data on 1 of their 28 days; the week before has data on 1 of its 7 days"},
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
		// Every category rests on fewer than 5 SKUs: none is the largest
		// move, and the summary says which it left out.
		"Prices fell 4.5% week over week across 6 banner SKUs compared like for like (+4.9% over the last four weeks against the four before); left out as too small a sample (under 5 SKUs, 3 stores or 2 banners): Bakery, Dairy & Eggs, Pantry.",
		"The biggest regular-price rise was Natrel 2% Milk at Loblaws ($5.00 to $5.50, +10.0%); the biggest cut Wonder White Bread at No Frills ($2.50 to $2.00, -20.0%)",
		"Metro promoted the most (50.0% of 2 products, 20.0% off on average); 1 promotion started and 0 ended.",
		"1 product was new in the panel. Your alert rules recorded 1 event.",
	} {
		if !strings.Contains(got.Summary, s) {
			t.Errorf("summary %q\nlacks %q", got.Summary, s)
		}
	}
	if strings.Contains(got.Summary, "cheapest") {
		t.Errorf("summary %q names a cheapest basket, but no banner prices 20 items", got.Summary)
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
		if _, err := svc.ExecutiveBrief(ctx, tc.in); ErrorCode(err) != EINVALIDARGUMENT {
			t.Errorf("%+v: got %v, want EINVALIDARGUMENT", tc.in, err)
		}
	}
}

// briefRankObs is a data set of 26 barcodes at four Ontario banners on
// 2026-11-19, every price 4.00 times a banner's factor: Loblaws 4.40,
// Metro 4.00, No Frills 3.60, Sobeys 3.00. Barcodes 1-12 are at all four;
// 13-22 at Loblaws, Metro and No Frills; 23-26 at Metro, No Frills and
// Sobeys. The basket takes the 25 priced by the most banners, ties by
// barcode: 1-25.
func briefRankObs() (stores, obs string) {
	stores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
met-c,metro,ON,Metro C,Toronto,M4C 1A2,43.64,-79.31
nf-b,no-frills,ON,No Frills B,Toronto,M4C 1A1,43.63,-79.30
sob-d,sobeys,ON,Sobeys D,Toronto,M4C 1A5,43.61,-79.33
`
	var b strings.Builder
	b.WriteString("date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n")
	for i := 1; i <= 26; i++ {
		upc := fmt.Sprintf("06200010%03d", i)
		sum := 0
		for j, c := range upc {
			if j%2 == 0 {
				sum += 3 * int(c-'0')
			} else {
				sum += int(c - '0')
			}
		}
		upc += strconv.Itoa((10 - sum%10) % 10)
		for _, st := range []struct{ store, banner, price string }{
			{"lob-a", "loblaws", "4.40"}, {"met-c", "metro", "4.00"}, {"nf-b", "no-frills", "3.60"}, {"sob-d", "sobeys", "3.00"}} {
			switch {
			case i <= 12:
			case i <= 22 && st.banner == "sobeys", i > 22 && st.banner == "loblaws":
				continue
			}
			fmt.Fprintf(&b, "2026-11-19,%s,%s,%s-%d,%s,%s,,%s,Item %d,Brand,500 g,Pantry\n", st.store, st.banner, st.banner, i, st.price, st.price, upc, i)
		}
	}
	return stores, b.String()
}

// TestBriefBasketRanks: the basket compares each banner with the median
// of the other banners item by item (M3), ranks only the banners pricing
// at least 20 of its items, and the summary and the chart name that set.
func TestBriefBasketRanks(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	stores, obs := briefRankObs()
	mustImport(t, svc, "stores.csv", stores, nil)
	mustImport(t, svc, "obs.csv", obs, nil)
	got, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "loblaws"})
	if err != nil {
		t.Fatal(err)
	}
	// Ratios to the others' median, items 1-12 | 13-22 | 23-25:
	// Loblaws 4.40/3.60 | 4.40/3.80: exp((12 ln 1.2222 + 10 ln 1.1579)/22) = 119.3;
	// Metro 4.00/3.60 | 4.00/4.00 | 4.00/3.30: 107.6;
	// No Frills 3.60/4.00 | 3.60/4.20 | 3.60/3.50: 89.7;
	// Sobeys 3.00/4.00 | - | 3.00/3.80: 75.8 on 15 items, not ranked.
	// Market costs: No Frills 12*4.00 + 10*4.20 + 3*3.50 = 100.50; Metro
	// 12*3.60 + 10*4.00 + 3*3.30 = 93.10; Loblaws 12*3.60 + 10*3.80 =
	// 81.20; Sobeys 12*4.00 + 3*3.80 = 59.40.
	want := BriefBasket{Basket: BasketShared, WeekFrom: day("2026-11-19"), WeekTo: day("2026-11-25"), Items: 25, MinItems: 20, Banners: []BasketCost{
		{Banner: "no-frills", BannerName: "No Frills", Rank: 1, Total: 9000, MarketCost: 10050, Items: 25, Index: 89.7, RegularIndex: 89.7},
		{Banner: "metro", BannerName: "Metro", Rank: 2, Total: 10000, MarketCost: 9310, Items: 25, Index: 107.6, RegularIndex: 107.6},
		{Banner: "loblaws", BannerName: "Loblaws", Own: true, Rank: 3, Total: 9680, MarketCost: 8120, Items: 22, Missing: 3, Index: 119.3, RegularIndex: 119.3},
		{Banner: "sobeys", BannerName: "Sobeys", Total: 4500, MarketCost: 5940, Items: 15, Missing: 10, Index: 75.8, RegularIndex: 75.8},
	}}
	if diff := cmp.Diff(want, got.Basket); diff != "" {
		t.Errorf("basket (-want +got):\n%s", diff)
	}
	if s := "of 3 banners pricing at least 20 of the 25 shared products in the flyer week 2026-11-19 to 2026-11-25, No Frills had the cheapest basket (index 89.7 against the other banners' median prices, $90.00 for the 25 it prices) and Loblaws the dearest (index 119.3)"; !strings.Contains(got.Summary, s) {
		t.Errorf("summary %q\nlacks %q", got.Summary, s)
	}
	var page bytes.Buffer
	if err := got.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	html := stdhtml.UnescapeString(page.String())
	start := strings.Index(html, `aria-label="Basket index by banner"`)
	end := start + strings.Index(html[start:], "</svg>")
	if start < 0 || end < start {
		t.Fatalf("no basket chart in the page")
	}
	svg := html[start:end]
	for _, s := range []string{">1. No Frills<", ">2. Metro<", ">3. Loblaws<", ">89.7  $90.00, 25 of 25 items<", ">119.3  $96.80, 22 of 25 items<"} {
		if !strings.Contains(svg, s) {
			t.Errorf("the basket chart lacks %q:\n%s", s, svg)
		}
	}
	if strings.Contains(svg, "Sobeys") {
		t.Errorf("the chart draws Sobeys, which is not ranked:\n%s", svg)
	}
	if !strings.Contains(html, "Not ranked (fewer than 20 items): Sobeys (15 items, index 75.8).") {
		t.Errorf("the page does not say Sobeys is not ranked")
	}
	// The dashed market line is drawn before (under) the figures, and
	// every figure ends inside the chart: anchored at its right edge.
	if r, v := strings.Index(svg, `class="rule"`), strings.Index(svg, `class="value"`); r < 0 || v < 0 || r > v {
		t.Errorf("the market line (at %d) is not drawn before the figures (at %d)", r, v)
	}
	for _, tag := range strings.Split(svg, "<text ")[1:] {
		if strings.Contains(tag, `class="value"`) && !strings.Contains(tag, `x="718.0" y=`) || !strings.Contains(tag, `class="value"`) && strings.Contains(tag, `text-anchor="start"`) {
			t.Errorf("a label may run past the chart's edge: <text %s", tag)
		}
	}
}

// TestBriefHTML: the page is one document with its charts inline, no
// script and nothing fetched, and the numbers of the brief; banners by
// their display names.
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
		`aria-label="Category inflation"`, "<polyline points=\"",
		"Chips &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Dip&#34;",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	text := stdhtml.UnescapeString(html)
	for _, want := range []string{"Executive brief: Ontario (No Frills)", "-10.6%", "+4.9%", "$4.80", "Not ranked (fewer than 20 items): No Frills (1 item, index 77.7)",
		"<td>started</td><td>Natrel 2% Milk 2 L</td><td>Metro</td>", "<td>Snacks</td><td>No Frills</td><td>2026-11-18</td>", b.Summary} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(text, "no-frills") {
		t.Errorf("the page shows a banner's slug, not its name")
	}
	if n := strings.Count(html, "<polyline"); n != 4 {
		t.Errorf("%d polylines, want two per mover (4: Loblaws' milk, No Frills' bread)", n)
	}
}

// TestBriefBasketWeekOnly: the basket takes the weekly prices of one
// flyer week only, not the 14 days of a banner's current price
// elsewhere: No Frills' milk SKU N9, last priced 3.00 on 11-09 (10 days
// before the latest day, 11-19, in an earlier flyer week), is left out,
// and No Frills' price is its N1 at 4.00 in the week of 11-19.
func TestBriefBasketWeekOnly(t *testing.T) {
	t.Parallel()
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-09,nf-b,no-frills,N9,3.00,3.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-b,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-c,metro,M1,4.80,6.00,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`, nil)
	got, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "no-frills"})
	if err != nil {
		t.Fatal(err)
	}
	// Weekly prices: Loblaws 5.50, No Frills 4.00, Metro 4.80 (regular
	// 6.00). Each against the median of the other two:
	// No Frills 4.00 / 5.15 = 0.7767 -> 77.7, regular 4.00 / 5.75 = 69.6;
	// Metro 4.80 / 4.75 = 1.0105 -> 101.1, regular 6.00 / 4.75 = 126.3;
	// Loblaws 5.50 / 4.40 = 125.0, regular 5.50 / 5.00 = 110.0.
	want := BriefBasket{Basket: BasketShared, WeekFrom: day("2026-11-19"), WeekTo: day("2026-11-25"), Items: 1, MinItems: 20, Banners: []BasketCost{
		{Banner: "no-frills", BannerName: "No Frills", Own: true, Total: 400, MarketCost: 515, Items: 1, Index: 77.7, RegularIndex: 69.6},
		{Banner: "metro", BannerName: "Metro", Total: 480, MarketCost: 475, Items: 1, Index: 101.1, RegularIndex: 126.3},
		{Banner: "loblaws", BannerName: "Loblaws", Total: 550, MarketCost: 440, Items: 1, Index: 125, RegularIndex: 110},
	}}
	if diff := cmp.Diff(want, got.Basket); diff != "" {
		t.Errorf("basket (-want +got):\n%s", diff)
	}
}

// The brief's market part is computed once per data version and shared;
// each caller gets its own account's alert events and summary: acme's
// rule recorded an event, beta has none, and a call without an account
// has none. A write of the data is a new brief.
func TestBriefCachedPerAccount(t *testing.T) {
	svc := briefService(t, "acme", "beta")
	ctx := context.Background()
	acme, beta := NewContextWithAccount(ctx, "acme"), NewContextWithAccount(ctx, "beta")
	header, _, _ := strings.Cut(briefObs, "\n")

	before := svc.AnswerCacheStats()
	a, err := svc.ExecutiveBrief(acme, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := svc.ExecutiveBrief(beta, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	none, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if st := svc.AnswerCacheStats(); st.Misses != before.Misses+1 || st.Hits != before.Hits+2 {
		t.Errorf("three briefs of ON: got %+v after %+v, want one computed and two kept", st, before)
	}
	if len(a.AlertEvents) != 1 || a.AlertEvents[0].SKU != "M1" || len(b.AlertEvents) != 0 || len(none.AlertEvents) != 0 {
		t.Errorf("events: acme %+v, beta %+v, none %+v; want acme's Metro milk drop alone", a.AlertEvents, b.AlertEvents, none.AlertEvents)
	}
	if !strings.Contains(a.Summary, "Your alert rules recorded 1 event.") || strings.Contains(b.Summary, "Your alert rules recorded") {
		t.Errorf("summaries: acme %q, beta %q; want acme's alone to count its event", a.Summary, b.Summary)
	}
	a.AlertEvents, a.Summary, b.Summary = nil, "", ""
	b.AlertEvents = nil
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the market part differs between accounts (-acme +beta):\n%s", diff)
	}
	// A new day: the brief is computed again, and moves on.
	mustImport(t, svc, "next.csv", header+"\n2026-11-20,lob-a,loblaws,L1,5.60,5.60,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs\n", nil)
	next, err := svc.ExecutiveBrief(beta, BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if next.WeekTo != day("2026-11-20") {
		t.Errorf("after a write: week to %s, want 2026-11-20", next.WeekTo)
	}
}
