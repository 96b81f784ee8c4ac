package pricestat

import (
	"math"
	"testing"
)

// TestPromoShares works two banners' week by hand (weekly prices in
// cents). Banner a: x 400 of 500 (20% off), started this week; y 300 of
// 400 (25% off), on promotion last week too; z 600 of 600, its promotion
// ended; w 500 of 500 with no week before. Banner b: v on promotion last
// week only, no weekly price this week: not counted.
func TestPromoShares(t *testing.T) {
	skus := []WeekSKU{
		{Banner: "a", SKU: "x", Day: 10, PrevDay: 3, P: 400, R: 500, PrevP: 500, PrevR: 500},
		{Banner: "a", SKU: "y", Day: 10, PrevDay: 3, P: 300, R: 400, PrevP: 300, PrevR: 400},
		{Banner: "a", SKU: "z", Day: 10, PrevDay: 3, P: 600, R: 600, PrevP: 500, PrevR: 600},
		{Banner: "a", SKU: "w", Day: 10, P: 500, R: 500},
		{Banner: "b", SKU: "v", PrevDay: 3, PrevP: 400, PrevR: 500},
	}
	by := PromoShares(skus)
	a := by["a"]
	if len(by) != 1 || a == nil {
		t.Fatalf("got %d banners, want a alone (b has no weekly price this week)", len(by))
	}
	if a.Products != 4 || a.OnPromotion != 2 || a.Started != 1 || a.Ended != 1 {
		t.Errorf("a: %d products, %d on promotion, %d started, %d ended; want 4, 2, 1, 1", a.Products, a.OnPromotion, a.Started, a.Ended)
	}
	if a.SharePct() != 50 || math.Abs(a.AvgDiscountPct()-22.5) > 1e-9 {
		t.Errorf("a: share %v%%, discount %v%%; want 50, (20 + 25) / 2 = 22.5", a.SharePct(), a.AvgDiscountPct())
	}
	if none := (&PromoShare{Products: 3}); none.AvgDiscountPct() != 0 || none.SharePct() != 0 {
		t.Errorf("no promotion: share %v, discount %v, want 0 and 0", none.SharePct(), none.AvgDiscountPct())
	}
}
