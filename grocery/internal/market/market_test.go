package market

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// TestCompare: the market of a banner is the median of the OTHER
// banners' prices (shelf and regular apart), and a barcode that fewer
// than two other banners price is not compared.
func TestCompare(t *testing.T) {
	t.Parallel()
	prices := []Price{
		{"a", 300, 400}, // market: median(200, 500, 600) = 500; regular median(250, 500, 700) = 500
		{"b", 200, 250}, // market: median(300, 500, 600) = 500; regular median(400, 500, 700) = 500
		{"c", 500, 500}, // market: median(300, 200, 600) = 300; regular median(400, 250, 700) = 400
		{"d", 600, 700}, // market: median(300, 200, 500) = 300; regular median(400, 250, 500) = 400
	}
	want := map[string][2]float64{"a": {500, 500}, "b": {500, 500}, "c": {300, 400}, "d": {300, 400}}
	got := map[string][2]float64{}
	Compare(prices, 2, new([]float64), func(own *Price, m, mr float64) { got[own.Banner] = [2]float64{m, mr} })
	for b, w := range want {
		if got[b] != w {
			t.Errorf("market of %s: got %v, want %v", b, got[b], w)
		}
	}
	// With an even number of others, the mean of the middle two.
	got = map[string][2]float64{}
	Compare(append(prices, Price{"e", 100, 100}), 2, new([]float64), func(own *Price, m, mr float64) { got[own.Banner] = [2]float64{m, mr} })
	if w := [2]float64{350, 375}; got["a"] != w { // others 100, 200, 500, 600: (200+500)/2; regular 100, 250, 500, 700: (250+500)/2
		t.Errorf("market of a among five: got %v, want %v", got["a"], w)
	}
	n := 0
	Compare(prices[:2], 2, new([]float64), func(*Price, float64, float64) { n++ })
	if n != 0 {
		t.Errorf("two banners: %d comparisons, want none (each has one other)", n)
	}

	// The index is the geometric mean of the relatives: a at 300 against
	// 500 and 600 against 400: sqrt(0.6 × 1.5) = 0.948683 → 94.9.
	var s Standing
	s.Add(&Price{"a", 300, 300}, 500, 500)
	s.Add(&Price{"a", 600, 600}, 400, 400)
	if got, want := s.Shelf.Index(), 100*math.Sqrt(0.9); math.Abs(got-want) > 1e-9 {
		t.Errorf("index = %v, want %v", got, want)
	}
	if s.Items != 2 || s.Own != 900 || s.Market != 900 {
		t.Errorf("standing = %+v, want 2 items, own 900, market 900", s)
	}
}

// TestCompareReusesBuf: the scratch space grows once and is kept, so
// that comparing barcode after barcode allocates nothing. Not parallel:
// it counts the allocations of the whole program.
func TestCompareReusesBuf(t *testing.T) {
	prices := []Price{{"a", 300, 400}, {"b", 200, 250}, {"c", 500, 500}, {"d", 600, 700}}
	var buf []float64
	sum := 0.0
	fn := func(_ *Price, m, mr float64) { sum += m + mr }
	Compare(prices, 2, &buf, fn)
	if cap(buf) < 3 {
		t.Fatalf("after a comparison of four banners: buf has room for %d, want at least 3 (the others)", cap(buf))
	}
	if n := testing.AllocsPerRun(100, func() { Compare(prices, 2, &buf, fn) }); n != 0 {
		t.Errorf("a comparison with the buf grown: got %v allocations, want 0", n)
	}
}

// TestAdd: a banner's price of a barcode is the lowest price in force of
// its offers and, apart, the lowest regular price in force.
func TestAdd(t *testing.T) {
	t.Parallel()
	var prices []Price
	for _, o := range []storage.Offer{
		{Banner: "b", Price: 151, Regular: 200},
		{Banner: "b", Price: 175, Regular: 190},
		{Banner: "c", Price: 250, Regular: 250},
	} {
		prices = Add(prices, &o)
	}
	want := []Price{{"b", 151, 190}, {"c", 250, 250}}
	if !slices.Equal(prices, want) {
		t.Errorf("got %v, want %v", prices, want)
	}
}

// TestCompareAsMedianOfOthers: the market Compare reads from the prices
// sorted once is, to the bit, pricestat.Median of the other banners'
// prices, over random prices with many ties.
func TestCompareAsMedianOfOthers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(28, 1))
	var buf []float64
	for range 2000 {
		prices := make([]Price, 1+rng.IntN(12))
		for i := range prices {
			p := float64(100+rng.IntN(8)) + float64(rng.IntN(2))/2 // a half cent now and then
			prices[i] = Price{Banner: string(rune('a' + i)), Price: p, Regular: p + float64(rng.IntN(3))}
		}
		Compare(prices, 0, &buf, func(own *Price, m, mr float64) {
			var others, othersR []float64
			for j := range prices {
				if &prices[j] != own {
					others, othersR = append(others, prices[j].Price), append(othersR, prices[j].Regular)
				}
			}
			if want, wantR := pricestat.Median(others), pricestat.Median(othersR); m != want || mr != wantR {
				t.Fatalf("%v, banner %s: market %v, %v, want %v, %v", prices, own.Banner, m, mr, want, wantR)
			}
		})
	}
}
