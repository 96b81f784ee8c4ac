package ranking

import (
	"math"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/market"
)

// The week of TestRank, prices in cents (shelf = regular unless said):
//
//	barcode  category  a    b    c
//	1        Dairy     200  400  400
//	2        Dairy     800  400  400
//	3        Bakery    300  300  300
//	4        Frozen    100  900  -    two banners: no one has two others
//
// Markets (the median of the two others) and price/market ratios:
//
//	1: a 400 (0.5)   b 300 (4/3)  c 300 (4/3)
//	2: a 400 (2)     b 600 (2/3)  c 600 (2/3)
//	3: a 300 (1)     b 300 (1)    c 300 (1)
//
// Overall, 3 items each: a's index 100 × (0.5·2·1)^(1/3) = 100; b's and
// c's 100 × (4/3·2/3·1)^(1/3) = 100 × (8/9)^(1/3) = 96.15 (written 96.2):
// b and c share rank 1, a is 3rd. a's total 200+800+300 = 1300 against a
// market of 400+400+300 = 1100; b's 1100 against 300+600+300 = 1200.
// In Dairy (2 items each): a 100 × (0.5·2)^(1/2) = 100, b and c
// 100 × (8/9)^(1/2) = 94.28, ranked 1, 1, 3; in Bakery one item each,
// fewer than minItems (2): nobody is ranked. No Frozen row.
var week = []Item{
	{"Dairy", []market.Price{{Banner: "a", Price: 200, Regular: 200}, {Banner: "b", Price: 400, Regular: 400}, {Banner: "c", Price: 400, Regular: 400}}},
	{"Dairy", []market.Price{{Banner: "a", Price: 800, Regular: 800}, {Banner: "b", Price: 400, Regular: 400}, {Banner: "c", Price: 400, Regular: 400}}},
	{"Bakery", []market.Price{{Banner: "a", Price: 300, Regular: 300}, {Banner: "b", Price: 300, Regular: 300}, {Banner: "c", Price: 300, Regular: 300}}},
	{"Frozen", []market.Price{{Banner: "a", Price: 100, Regular: 100}, {Banner: "b", Price: 900, Regular: 900}}},
}

// rankAll ranks items with two other banners and two items as the
// thresholds.
func rankAll(items []Item) Ranking {
	rk := New(2, 2)
	for _, it := range items {
		rk.Add(it)
	}
	return rk.Ranking()
}

type want struct {
	banner      string
	items, rank int
	index       float64
	own, market float64
}

func check(t *testing.T, what string, got []Row, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.Banner != w.banner || g.Items != w.items || g.Rank != w.rank || math.Abs(g.Shelf.Index()-w.index) > 1e-9 ||
			(w.own != 0 && (g.Own != w.own || g.Market != w.market)) {
			t.Errorf("%s row %d: got %s items %d rank %d index %.6f own %.0f market %.0f; want %+v",
				what, i, g.Banner, g.Items, g.Rank, g.Shelf.Index(), g.Own, g.Market, w)
		}
	}
}

func TestRank(t *testing.T) {
	t.Parallel()
	r := rankAll(week)
	cheap := 100 * math.Cbrt(8.0/9)
	check(t, "overall", r.Banners, []want{
		{"b", 3, 1, cheap, 1100, 1200},
		{"c", 3, 1, cheap, 1100, 1200},
		{"a", 3, 3, 100, 1300, 1100},
	})
	if r.Ranked != 3 {
		t.Errorf("ranked %d, want 3", r.Ranked)
	}
	if len(r.Categories) != 2 || r.Categories[0].Name != "Bakery" || r.Categories[1].Name != "Dairy" {
		t.Fatalf("categories %+v: want Bakery and Dairy", r.Categories)
	}
	bakery, dairy := r.Categories[0], r.Categories[1]
	check(t, "Bakery", bakery.Rows, []want{{"a", 1, 0, 100, 300, 300}, {"b", 1, 0, 100, 300, 300}, {"c", 1, 0, 100, 300, 300}})
	if bakery.Ranked != 0 {
		t.Errorf("Bakery ranked %d, want 0", bakery.Ranked)
	}
	dairyCheap := 100 * math.Sqrt(8.0/9)
	check(t, "Dairy", dairy.Rows, []want{{"b", 2, 1, dairyCheap, 800, 900}, {"c", 2, 1, dairyCheap, 800, 900}, {"a", 2, 3, 100, 1000, 800}})
	for _, row := range dairy.Rows {
		if row.Category != "Dairy" {
			t.Errorf("Dairy row of %s says category %q", row.Banner, row.Category)
		}
	}
}

// TestRankNothing: a week with no item two other banners price ranks
// nobody.
func TestRankNothing(t *testing.T) {
	t.Parallel()
	r := rankAll(week[3:])
	if len(r.Banners) != 0 || r.Ranked != 0 || len(r.Categories) != 0 {
		t.Errorf("got %+v, want no row", r)
	}
}
