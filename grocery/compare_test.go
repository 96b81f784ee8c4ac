package grocery

import (
	"math"
	"testing"
)

// TestMarketOf: the market of a banner is the median of the OTHER
// banners' prices (shelf and regular apart), and a barcode that fewer
// than two other banners price is not compared.
func TestMarketOf(t *testing.T) {
	prices := []bannerPrice{
		{"a", 300, 400}, // market: median(200, 500, 600) = 500; regular median(250, 500, 700) = 500
		{"b", 200, 250}, // market: median(300, 500, 600) = 500; regular median(400, 500, 700) = 500
		{"c", 500, 500}, // market: median(300, 200, 600) = 300; regular median(400, 250, 700) = 400
		{"d", 600, 700}, // market: median(300, 200, 500) = 300; regular median(400, 250, 500) = 400
	}
	want := map[string][2]float64{"a": {500, 500}, "b": {500, 500}, "c": {300, 400}, "d": {300, 400}}
	got := map[string][2]float64{}
	marketOf(prices, nil, func(own *bannerPrice, m, mr float64) { got[own.banner] = [2]float64{m, mr} })
	for b, w := range want {
		if got[b] != w {
			t.Errorf("market of %s: got %v, want %v", b, got[b], w)
		}
	}
	// With an even number of others, the mean of the middle two.
	got = map[string][2]float64{}
	marketOf(append(prices, bannerPrice{"e", 100, 100}), nil, func(own *bannerPrice, m, mr float64) { got[own.banner] = [2]float64{m, mr} })
	if w := [2]float64{350, 375}; got["a"] != w { // others 100, 200, 500, 600: (200+500)/2; regular 100, 250, 500, 700: (250+500)/2
		t.Errorf("market of a among five: got %v, want %v", got["a"], w)
	}
	n := 0
	marketOf(prices[:2], nil, func(*bannerPrice, float64, float64) { n++ })
	if n != 0 {
		t.Errorf("two banners: %d comparisons, want none (each has one other)", n)
	}

	// The index is the geometric mean of the relatives: a at 300 against
	// 500 and 600 against 400: sqrt(0.6 × 1.5) = 0.948683 → 94.9.
	var s standing
	s.add(&bannerPrice{"a", 300, 300}, 500, 500)
	s.add(&bannerPrice{"a", 600, 600}, 400, 400)
	if got, want := s.shelf.Index(), 100*math.Sqrt(0.9); math.Abs(got-want) > 1e-9 {
		t.Errorf("index = %v, want %v", got, want)
	}
	if s.items != 2 || s.own != 900 || s.market != 900 {
		t.Errorf("standing = %+v, want 2 items, own 900, market 900", s)
	}
}

// TestChooseSubstitute: a substitute is from half to twice the item's
// size, the closest in size, then the cheapest by unit price, and is
// bought in whole packs covering the amount asked for.
func TestChooseSubstitute(t *testing.T) {
	// Milk 4 L (40 units of 100 mL), 3 wanted: 120 units.
	cands := []substituteCandidate{
		{Size: 10, Price: 200},  // 1 L: under half the size, not a candidate
		{Size: 20, Price: 325},  // 2 L: half the size, a candidate at distance ln 2
		{Size: 30, Price: 499},  // 3 L: the closest (ln 4/3)
		{Size: 90, Price: 1200}, // 9 L: over twice the size
	}
	best, packs := chooseSubstitute(40, 3, cands)
	if best != 2 || packs != 4 { // 120 / 30 = 4 packs exactly
		t.Errorf("3 × 4 L: got candidate %d × %d packs, want 2 × 4", best, packs)
	}
	best, packs = chooseSubstitute(40, 1, cands[:2])
	if best != 1 || packs != 2 { // 40 / 20 = 2
		t.Errorf("1 × 4 L among 1 L and 2 L: got %d × %d, want 1 × 2", best, packs)
	}
	best, packs = chooseSubstitute(25, 1, []substituteCandidate{{Size: 30, Price: 500}, {Size: 20, Price: 300}})
	// 30 is ln(30/25) = 0.182 away, 20 is ln(25/20) = 0.223 away: 30 is closer.
	if best != 0 || packs != 1 {
		t.Errorf("25 among 30 and 20: got %d × %d, want 0 × 1", best, packs)
	}
	best, packs = chooseSubstitute(20, 1, []substituteCandidate{{Size: 40, Price: 800}, {Size: 10, Price: 300}})
	// Equal distance (ln 2 both ways): the cheaper by unit price, 800/40 = 20 < 300/10 = 30.
	if best != 0 || packs != 1 {
		t.Errorf("tie in size: got %d × %d, want 0 × 1", best, packs)
	}
	if best, _ := chooseSubstitute(40, 1, cands[:1]); best != -1 {
		t.Errorf("no candidate in range: got %d, want -1", best)
	}
}
