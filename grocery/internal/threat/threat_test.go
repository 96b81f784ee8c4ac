package threat

import (
	"math"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/market"
)

// t10 are grocery's thresholds: high at a 10% move that takes a
// competitor at or above you 5% under you; medium at a 5% move.
var t10 = Thresholds{HighMovePct: 10, HighGapPct: 5, MediumMovePct: 5}

// offer is a banner's current offer at p and r cents (stored in
// half-cents).
func offer(banner string, p, r uint32) *market.BannerOffer {
	return &market.BannerOffer{Banner: banner, SKU: banner + "-sku", P: 2 * p, R: 2 * r, Current: true}
}

// TestGrade works each severity by hand. Your shelf and regular price are
// 300 cents.
func TestGrade(t *testing.T) {
	own := offer("you", 300, 300)
	for _, tc := range []struct {
		name        string
		move        func() (Move, bool)
		ok          bool
		want        Severity
		under, diff float64 // percent under you now; the move, percent
	}{
		// A promotion from 300 to 250: a 16.7% move from your price to
		// 16.7% under it.
		{"promotion from your price", func() (Move, bool) { return Promotion(offer("a", 250, 300), own, t10) }, true, High, 100.0 / 6, -100.0 / 6},
		// The same promotion from 280: a 10.7% move, but the competitor
		// was under you already.
		{"promotion from under you", func() (Move, bool) { return Promotion(offer("a", 250, 280), own, t10) }, true, Medium, 100.0 / 6, -30.0 / 280 * 100},
		// A regular cut from 320 to 295: 7.8%.
		{"cut of 7.8%", func() (Move, bool) { return Cut(offer("b", 295, 295), own, 640, 590, 9, t10) }, true, Medium, 5.0 / 3, -25.0 / 320 * 100},
		// 4.99 to 4.97 against your 6.00: 17.2% under you, a 0.4% move.
		{"a 2-cent cut far under you", func() (Move, bool) { return Cut(offer("c", 497, 497), offer("you", 600, 600), 998, 994, 9, t10) }, true, Low, 103.0 / 6, -2.0 / 499 * 100},
		{"promotion over your price", func() (Move, bool) { return Promotion(offer("a", 310, 400), own, t10) }, false, 0, 0, 0},
		{"no promotion", func() (Move, bool) { return Promotion(offer("a", 250, 250), own, t10) }, false, 0, 0, 0},
		{"a rise is no cut", func() (Move, bool) { return Cut(offer("b", 280, 280), own, 500, 560, 9, t10) }, false, 0, 0, 0},
		{"a cut to your regular price", func() (Move, bool) { return Cut(offer("b", 300, 300), own, 700, 600, 9, t10) }, false, 0, 0, 0},
		{"a promotion at your price", func() (Move, bool) { return Promotion(offer("a", 300, 350), own, t10) }, false, 0, 0, 0},
		{"a regular price that did not move", func() (Move, bool) { return Cut(offer("b", 280, 280), own, 560, 560, 9, t10) }, false, 0, 0, 0},
	} {
		m, ok := tc.move()
		if ok != tc.ok {
			t.Errorf("%s: a move %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if m.Severity != tc.want || math.Abs(m.Under-tc.under) > 1e-9 || math.Abs(m.MovePct-tc.diff) > 1e-9 {
			t.Errorf("%s: severity %d, %.4f%% under, move %.4f%%; want %d, %.4f%%, %.4f%%", tc.name, m.Severity, m.Under, m.MovePct, tc.want, tc.under, tc.diff)
		}
	}
}

// TestLead: the leader is the most severe move, then the furthest under
// you, then by banner; a competitor with a promotion and a cut stands for
// its promotion.
func TestLead(t *testing.T) {
	own := offer("you", 300, 300)
	promo := func(banner string, p, r uint32) Move { m, _ := Promotion(offer(banner, p, r), own, t10); return m }
	cut := func(banner string, before, now uint32) Move {
		m, _ := Cut(offer(banner, now, now), own, 2*before, 2*now, 9, t10)
		return m
	}
	moves := []Move{
		cut("d", 290, 285),   // low, 5% under
		promo("c", 280, 300), // medium (6.7%), 6.7% under
		promo("b", 250, 300), // high, 16.7% under
		promo("a", 250, 300), // high, 16.7% under: a before b
		promo("e", 260, 280), // medium (7.1%), 13.3% under
		cut("f", 320, 230),   // high (28%), 23.3% under
	}
	Sort(moves)
	var order string
	for _, m := range moves {
		order += m.Offer.Banner
	}
	if order != "fabecd" {
		t.Errorf("sorted %s, want fabecd", order)
	}
	cands := []Candidate{
		{Offer: offer("c", 280, 300), Promo: promo("c", 280, 300), HasPromo: true, Cut: cut("c", 400, 200), HasCut: true},
		{Offer: offer("e", 260, 280), Promo: promo("e", 260, 280), HasPromo: true},
	}
	if lead, ok := Lead(cands); !ok || lead.Offer.Banner != "e" || !lead.Promotion {
		t.Errorf("lead %+v, %v; want e's promotion (c stands for its medium promotion, not its high cut)", lead, ok)
	}
	if _, ok := Lead(nil); ok {
		t.Error("lead of no candidate: want none")
	}
}
