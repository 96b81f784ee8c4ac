package grocery_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// The rules of issue 16 for the analytics that compare banners and
// provinces (benchmark, geography, brands), on hand-made data whose
// expected figures are worked out by hand in the comments. These tests
// read only fields the analytics had before the rules changed, so they
// show the old code's figures failing.

// The geography data set (benchmark, brands): every price on 2026-11-19
// unless said.
//
//	ON  lob-1 lob-2 (loblaws), nf-1 (no-frills), met-1 (metro): 4 stores
//	QC  maxi-1 (maxi), met-q (metro): 2 stores (thin)
//	NU  nw-1 (northern): 1 store (thin)
//
//	milk   068000000154 2% Milk 2 L, Dairy & Eggs
//	       ON loblaws L1 4.99 at lob-1 and 5.00 at lob-2: the price in
//	          force is the most common, the lower on a tie, 4.99; loblaws
//	          L1B 5.50 at lob-1: the banner's price is its lowest SKU's, 4.99
//	          no-frills N1 4.00; no-frills N1B 1.00 on 2026-11-05 only:
//	          14 days before the latest day, not current
//	          metro M1 6.00 (3.00 on 2026-11-01, not its latest day)
//	       QC maxi X1 4.50, metro Q1 5.50
//	       NU northern W1 9.00
//	cheese 060383000028 Old Cheddar 400 g, Dairy & Eggs
//	       ON loblaws L2 8.00 at both stores, no-frills N2 9.00
//	       QC maxi X2 9.50
//	butter 064100000018 Butter 454 g, Spreads: ON no-frills N3 5.00, metro M3 6.00
const geoStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-1,loblaws,ON,Loblaws 1,Toronto,M5V 1A1,43.60,-79.40
lob-2,loblaws,ON,Loblaws 2,Toronto,M5V 3C3,43.66,-79.40
nf-1,no-frills,ON,No Frills 1,Toronto,M5V 2B2,43.62,-79.40
met-1,metro,ON,Metro 1,Toronto,M4C 1B5,43.63,-79.40
maxi-1,maxi,QC,Maxi 1,Montréal,H2X 1Y4,45.50,-73.57
met-q,metro,QC,Metro Q,Montréal,H2X 1Y5,45.51,-73.57
nw-1,northern,NU,Northern 1,Iqaluit,X0A 0H0,63.75,-68.52
`

const geoObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,lob-1,loblaws,L1,4.99,4.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-2,loblaws,L1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-1,loblaws,L1B,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-1,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-05,nf-1,no-frills,N1B,1.00,1.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-01,met-1,metro,M1,3.00,3.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-1,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,maxi-1,maxi,X1,4.50,4.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-q,metro,Q1,5.50,5.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nw-1,northern,W1,9.00,9.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-1,loblaws,L2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,lob-2,loblaws,L2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,nf-1,no-frills,N2,9.00,9.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,maxi-1,maxi,X2,9.50,9.50,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,nf-1,no-frills,N3,5.00,5.00,,064100000018,Butter,Lactantia,454 g,Spreads
2026-11-19,met-1,metro,M3,6.00,6.00,,064100000018,Butter,Lactantia,454 g,Spreads
`

// The banner geography data set (issue 28): a one-Walmart province (MB)
// against Ontario's three banners. Every price on 2026-11-19, shelf and
// regular alike unless said; populations in thousands ON 16124, QC 9056,
// MB 1494.
//
//	ON  wm-on1 wm-on2 (walmart), lob-on (loblaws), met-on (metro)
//	QC  met-qc (metro)
//	MB  wm-mb (walmart)
//
//	milk   068000000154: walmart ON 5.00 (both stores), MB 5.20;
//	       loblaws ON 6.00; metro ON 6.50, QC 6.00
//	cheese 060383000028: walmart ON 8.00 (both stores), MB 7.00 on
//	       promotion, regular 8.40; loblaws ON 10.00; metro ON 9.00
//	butter 064100000018 (Spreads): loblaws ON 5.00
const bannerGeoStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
wm-on1,walmart,ON,Walmart 1,Toronto,M5V 1A1,43.60,-79.40
wm-on2,walmart,ON,Walmart 2,Toronto,M5V 3C3,43.66,-79.40
lob-on,loblaws,ON,Loblaws 1,Toronto,M5V 2B2,43.62,-79.40
met-on,metro,ON,Metro 1,Toronto,M4C 1B5,43.63,-79.40
met-qc,metro,QC,Metro Q,Montréal,H2X 1Y5,45.51,-73.57
wm-mb,walmart,MB,Walmart MB,Winnipeg,R3C 0A1,49.89,-97.14
`

const bannerGeoObs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,wm-on1,walmart,W1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,wm-on2,walmart,W1,5.00,5.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,wm-mb,walmart,W1,5.20,5.20,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-on,loblaws,L1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-on,metro,M1,6.50,6.50,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met-qc,metro,M1,6.00,6.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,wm-on1,walmart,W2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,wm-on2,walmart,W2,8.00,8.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,wm-mb,walmart,W2,7.00,8.40,2026-11-25,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,lob-on,loblaws,L2,10.00,10.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,met-on,metro,M2,9.00,9.00,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,lob-on,loblaws,L3,5.00,5.00,,064100000018,Butter,Lactantia,454 g,Spreads
`

// Worked by hand. A pair's national price is its province prices
// weighted by population, over the provinces where the banner prices it:
//
//	walmart milk    (16124 × 5.00 + 1494 × 5.20) / 17618 = 88388.8 / 17618 = 5.0169599
//	walmart cheese  regular (16124 × 8.00 + 1494 × 8.40) / 17618 = 141541.6 / 17618 = 8.0339199
//	                shelf   (16124 × 8.00 + 1494 × 7.00) / 17618 = 139450 / 17618 = 7.9152004
//	metro milk      (16124 × 6.50 + 9056 × 6.00) / 25180 = 159142 / 25180 = 6.3201747
//	loblaws milk, cheese, butter and metro cheese: ON only, compared with nothing, left out
//
// Relatives (regular): ON walmart milk 5.00 / 5.0169599 = 0.9966195,
// walmart cheese 8.00 / 8.0339199 = 0.9957779, metro milk 6.50 /
// 6.3201747 = 1.0284527; MB walmart milk 5.20 / 5.0169599 = 1.0364843,
// cheese 8.40 / 8.0339199 = 1.0455676; QC metro milk 6.00 / 6.3201747 =
// 0.9493409. Shelf: ON walmart cheese 8.00 / 7.9152004 = 1.0107135, MB
// 7.00 / 7.9152004 = 0.8843748, the rest as regular.
//
// Indexes (100 × geometric mean):
//
//	milk    ON 100 × sqrt(0.9966195 × 1.0284527) = 101.241 → 101.2; MB 103.648 → 103.6; QC 94.934 → 94.9
//	dairy   regular ON 100 × (0.9966195 × 0.9957779 × 1.0284527)^(1/3) = 100.684 → 100.7;
//	        MB 100 × sqrt(1.0364843 × 1.0455676) = 104.102 → 104.1; QC 94.9
//	        shelf ON 100 × (0.9966195 × 1.0107135 × 1.0284527)^(1/3) = 101.184 → 101.2;
//	        MB 100 × sqrt(1.0364843 × 0.8843748) = 95.741 → 95.7; QC 94.9
//	panel   as dairy (butter is ON only): ON delta +0.684 → +0.7, MB +4.1, QC −5.1
//
// The old rule (the median of each province's banner prices against
// their population-weighted mean) put MB's milk at 100 × 5.20 / ((16124 ×
// 6.00 + 9056 × 6.00 + 1494 × 5.20) / 26674) = 100 × 5.20 / 5.9551 = 87.3:
// Walmart against Ontario's median banner, not against Walmart.
var geoWant = struct {
	milk, dairy, dairyShelf, panelDelta map[string]float64 // by province
}{
	milk:       map[string]float64{"MB": 103.6, "ON": 101.2, "QC": 94.9},
	dairy:      map[string]float64{"MB": 104.1, "ON": 100.7, "QC": 94.9},
	dairyShelf: map[string]float64{"MB": 95.7, "ON": 101.2, "QC": 94.9},
	panelDelta: map[string]float64{"MB": 4.1, "ON": 0.7, "QC": -5.1},
}

// TestGeographyRule (issue 28, item 3): a province's index compares each
// banner's prices with the same banner's national prices, on regular
// prices (shelf prices as a second figure), not the median of whichever
// banners the province's panel holds.
func TestGeographyRule(t *testing.T) {
	svc := openSnap(t, bannerGeoStores, bannerGeoObs)
	ctx := context.Background()
	check := func(what string, got, want map[string]float64) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	// A figure, NaN when null (no pair compared): it matches no want.
	fig := func(f *float64) float64 {
		if f == nil {
			return math.NaN()
		}
		return *f
	}
	m, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{UPC: snapMilk})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, p := range m.Provinces {
		got[p.Province] = fig(p.Index)
	}
	check("milk", got, geoWant.milk)
	d, err := svc.GeographicPrices(ctx, grocery.GeoPricesInput{Category: "Dairy & Eggs"})
	if err != nil {
		t.Fatal(err)
	}
	got, shelf := map[string]float64{}, map[string]float64{}
	for _, p := range d.Provinces {
		got[p.Province], shelf[p.Province] = fig(p.Index), fig(p.ShelfIndex)
	}
	check("dairy", got, geoWant.dairy)
	check("dairy shelf", shelf, geoWant.dairyShelf)
	r, err := svc.RegionalComparison(ctx, grocery.RegionalInput{})
	if err != nil {
		t.Fatal(err)
	}
	delta := map[string]float64{}
	for _, p := range r.Provinces {
		delta[p.Province] = fig(p.DeltaPct)
	}
	check("panel delta", delta, geoWant.panelDelta)
}

// upcCheck appends the GS1 check digit to an 11-digit body.
func upcCheck(body string) string {
	sum := 0
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		if (len(body)-1-i)%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return body + string(rune('0'+(10-sum%10)%10))
}

// benchUPC is the barcode of item k of the benchmark data set.
func benchUPC(k int) string { return upcCheck(fmt.Sprintf("0550000%04d", k)) }

// The benchmark data set: Ontario, one store per banner, every price on
// 2026-11-19. Items k = 1..20 (Pantry) are priced by
//
//	loblaws   k dollars (regular 1.10 k for k <= 10: on promotion; else k)
//	no-frills 1.10 k
//	metro     0.90 k
//	sobeys    1.20 k
//
// and items 21, 22 (Snacks) by loblaws (k), no-frills (1.10 k) and
// food-basics (1.05 k).
func benchObs() string {
	var b strings.Builder
	b.WriteString("date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n")
	row := func(store, banner string, k int, price, regular float64, category string) {
		fmt.Fprintf(&b, "2026-11-19,%s,%s,%s%d,%.2f,%.2f,,%s,Item %d,Brand %d,500 g,%s\n",
			store, banner, banner, k, price, regular, benchUPC(k), k, k, category)
	}
	for k := 1; k <= 20; k++ {
		x := float64(k)
		reg := x
		if k <= 10 {
			reg = 1.10 * x
		}
		row("lob", "loblaws", k, x, reg, "Pantry")
		row("nf", "no-frills", k, 1.10*x, 1.10*x, "Pantry")
		row("met", "metro", k, 0.90*x, 0.90*x, "Pantry")
		row("sob", "sobeys", k, 1.20*x, 1.20*x, "Pantry")
	}
	for k := 21; k <= 22; k++ {
		x := float64(k)
		row("lob", "loblaws", k, x, x, "Snacks")
		row("nf", "no-frills", k, 1.10*x, 1.10*x, "Snacks")
		row("fb", "food-basics", k, 1.05*x, 1.05*x, "Snacks")
	}
	return b.String()
}

const benchStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob,loblaws,ON,Loblaws,Toronto,M5V 1A1,43.60,-79.40
nf,no-frills,ON,No Frills,Toronto,M5V 2B2,43.62,-79.40
met,metro,ON,Metro,Toronto,M4C 1B5,43.63,-79.40
sob,sobeys,ON,Sobeys,Toronto,M4C 1B6,43.64,-79.40
fb,food-basics,ON,Food Basics,Toronto,M4C 1B7,43.65,-79.40
`

// Worked by hand. A banner's market price of an item is the median of the
// OTHER banners' prices:
//
//	loblaws   k <= 20: median(1.10, 0.90, 1.20) k = 1.10 k → ratio 1/1.10
//	          k = 21, 22: (1.10 + 1.05) / 2 k = 1.075 k → ratio 1/1.075
//	          index 100 × exp((20 ln(1/1.1) + 2 ln(1/1.075)) / 22) = 91.099 → 91.1
//	no-frills k <= 20: median(1, 0.90, 1.20) k = k → 1.10
//	          k = 21, 22: (1 + 1.05) / 2 k = 1.025 k → 1.10/1.025
//	          index 100 × exp((20 ln 1.1 + 2 ln(1.1/1.025)) / 22) = 109.753 → 109.8
//	metro     median(1, 1.10, 1.20) k = 1.10 k → 0.90/1.10: 81.818 → 81.8
//	sobeys    median(1, 1.10, 0.90) k = k → 120.0
//	food-basics 2 items: median(1, 1.10) k = 1.05 k → 100.0, not ranked (< 20 items)
//
// Ranks: metro 1, loblaws 2, no-frills 3, sobeys 4; food-basics unranked.
// The old rule (the market includes the banner itself, ratio of sums,
// every banner ranked) ranks food-basics too.
var benchWant = []struct {
	banner string
	index  float64
	rank   int
}{
	{"metro", 81.8, 1}, {"loblaws", 91.1, 2}, {"no-frills", 109.8, 3}, {"sobeys", 120, 4}, {"food-basics", 100, 0},
}

// TestBenchmarkRule (issue 16): the market of a banner is the median of
// the other banners, the index a geometric mean, and only banners with
// at least 20 items are ranked.
func TestBenchmarkRule(t *testing.T) {
	svc := openSnap(t, benchStores, benchObs())
	got, err := svc.CompetitiveBenchmark(context.Background(), grocery.BenchmarkInput{Banner: "loblaws", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Ranking) != len(benchWant) {
		t.Fatalf("ranking: got %d rows %+v, want %d", len(got.Ranking), got.Ranking, len(benchWant))
	}
	for i, w := range benchWant {
		r := got.Ranking[i]
		if r.Banner != w.banner || math.Abs(r.Index-w.index) > 1e-9 || r.Rank != w.rank {
			t.Errorf("ranking[%d]: got %s %v rank %d, want %s %v rank %d", i, r.Banner, r.Index, r.Rank, w.banner, w.index, w.rank)
		}
	}
}

// brandUPC is the barcode of product k of the brand data set.
func brandUPC(k int) string { return upcCheck(fmt.Sprintf("0641000%04d", k)) }

// The brand data set: Ontario, Spreads (per 100 g), one store per banner
// (lob-1 loblaws, nf-1 no-frills, met-1 metro of the geography data set).
//
//	1 Lactantia Butter 500 g       loblaws L1: 11-17 6.00, 11-18 5.00 (regular 6.00), 11-19 6.00
//	                               no-frills N1: 11-10 4.00 (regular 5.00), 11-19 5.00
//	2 Lactantia Unsalted 250 g     loblaws L2: 10-01 2.00 (regular 4.00), 11-19 3.00 (regular 4.00)
//	3 Gay Lea Butter 500 g         loblaws 5.00, metro 5.50
//	4 Selection Butter 400 g       no-frills 4.00
//	5 Compliments Butter 750 g     loblaws 9.00 (750 / 500 = 1.5: a peer still)
//	6 Kirkland Butter 1 kg         no-frills 8.00 (twice the size: no peer)
//	7 Gay Lea Unsalted 250 g       loblaws 2.50
//	8 No Name Butter 500 g         no-frills 2.00 on 11-01 only: not current, no peer
//
// Prices on 11-19 unless said.
func brandObs() string {
	var b strings.Builder
	b.WriteString("date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category,product_type\n")
	// Each product's type is its name in lower case: butter, unsalted butter.
	row := func(day, store, banner, sku string, price, regular string, k int, name, brand, size string) {
		fmt.Fprintf(&b, "2026-%s,%s,%s,%s,%s,%s,,%s,%s,%s,%s,Spreads,%s\n", day, store, banner, sku, price, regular, brandUPC(k), name, brand, size, strings.ToLower(name))
	}
	row("11-17", "lob-1", "loblaws", "L1", "6.00", "6.00", 1, "Butter", "Lactantia", "500 g")
	row("11-18", "lob-1", "loblaws", "L1", "5.00", "6.00", 1, "Butter", "Lactantia", "500 g")
	row("11-19", "lob-1", "loblaws", "L1", "6.00", "6.00", 1, "Butter", "Lactantia", "500 g")
	row("11-10", "nf-1", "no-frills", "N1", "4.00", "5.00", 1, "Butter", "Lactantia", "500 g")
	row("11-19", "nf-1", "no-frills", "N1", "5.00", "5.00", 1, "Butter", "Lactantia", "500 g")
	row("10-01", "lob-1", "loblaws", "L2", "2.00", "4.00", 2, "Unsalted Butter", "Lactantia", "250 g")
	row("11-19", "lob-1", "loblaws", "L2", "3.00", "4.00", 2, "Unsalted Butter", "Lactantia", "250 g")
	row("11-19", "lob-1", "loblaws", "G3", "5.00", "5.00", 3, "Butter", "Gay Lea", "500 g")
	row("11-19", "met-1", "metro", "M3", "5.50", "5.50", 3, "Butter", "Gay Lea", "500 g")
	row("11-19", "nf-1", "no-frills", "S4", "4.00", "4.00", 4, "Butter", "Selection", "400 g")
	row("11-19", "lob-1", "loblaws", "C5", "9.00", "9.00", 5, "Butter", "Compliments", "750 g")
	row("11-19", "nf-1", "no-frills", "K6", "8.00", "8.00", 6, "Butter", "Kirkland", "1 kg")
	row("11-19", "lob-1", "loblaws", "G7", "2.50", "2.50", 7, "Unsalted Butter", "Gay Lea", "250 g")
	row("11-01", "nf-1", "no-frills", "NN8", "2.00", "2.00", 8, "Butter", "No Name", "500 g")
	return b.String()
}

// Worked by hand. Unit prices per 100 g of the current prices: butter 500 g
// at loblaws 6.00 / 5 = 1.20, at no-frills 5.00 / 5 = 1.00. Its peers:
// Gay Lea 500 g (loblaws 1.00, metro 1.10), Selection 400 g (no-frills
// 1.00), Compliments 750 g (loblaws 9.00 / 7.5 = 1.20): 3 barcodes; peer
// median of 1.00, 1.00, 1.10, 1.20 = 1.05. Relatives: loblaws 1.20 / 1.05
// = 1.142857 → 114.3; no-frills 1.00 / 1.05 = 0.952381 → 95.2.
// Unsalted 250 g has one peer (Gay Lea Unsalted 250 g): without peers.
var brandWantIndex = map[string]float64{"loblaws": 114.3, "no-frills": 95.2}

// TestBrandRule (issue 16): a brand product is compared with like
// products of other brands (same category, product type and unit basis,
// pack size within 1.5 times), not with its whole category.
func TestBrandRule(t *testing.T) {
	svc := openSnap(t, geoStores, brandObs())
	got, err := svc.BrandInsights(context.Background(), grocery.BrandInput{Brand: "Lactantia"})
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]float64{}
	for _, r := range got.Rows {
		if r.Index != nil {
			idx[r.Banner] = *r.Index
		}
	}
	if fmt.Sprint(idx) != fmt.Sprint(brandWantIndex) {
		t.Errorf("index: got %v, want %v", idx, brandWantIndex)
	}
}

// TestBrandPeersShareType (issue 28, found 5): a margarine of the same
// category, basis and size range is no peer of a butter. Becel margarine
// 454 g at loblaws 2.00 (0.4405 per 100 g) would join the butter 500 g's
// peers: median of 0.4405, 1.00, 1.00, 1.10, 1.20 = 1.00, loblaws 1.20 /
// 1.00 = 120.0. Within the type the figures stay those of brandWantIndex:
// 114.3 and 95.2.
func TestBrandPeersShareType(t *testing.T) {
	margarine := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category,product_type\n" +
		"2026-11-19,lob-1,loblaws,B9,2.00,2.00,," + brandUPC(9) + ",Margarine,Becel,454 g,Spreads,margarine\n"
	svc := openSnap(t, geoStores, brandObs(), margarine)
	got, err := svc.BrandInsights(context.Background(), grocery.BrandInput{Brand: "Lactantia"})
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]float64{}
	for _, r := range got.Rows {
		if r.Index != nil {
			idx[r.Banner] = *r.Index
		}
	}
	if fmt.Sprint(idx) != fmt.Sprint(brandWantIndex) {
		t.Errorf("index: got %v, want %v (the margarine is no peer)", idx, brandWantIndex)
	}
}
