package pricestat

import (
	"math"
	"testing"
)

// TestShrink works a line's packs by hand. The new pack is 400 g at 400
// cents: 1.00 a gram. onShelf is day 100; the rise needed 5%.
func TestShrink(t *testing.T) {
	fresh := Pack{Qty: 400, Unit: "g", Regular: 400, Last: 120}
	for _, tc := range []struct {
		name string
		olds []Pack
		want int
		up   float64
	}{
		// 500 g at 450: 0.90 a gram, risen 11.1% to 1.00.
		{"one larger pack", []Pack{{500, "g", 450, 110}}, 0, 100.0/90*100 - 100},
		// 500 g at 480: 0.96, risen 4.2%: under 5.
		{"a rise under the threshold", []Pack{{500, "g", 480, 110}}, -1, 0},
		// 500 g at 476: 0.952, risen 5.04%: over 5. 500 g at 475: 0.95,
		// risen 5.26%, the most: it is chosen.
		{"the most risen of two", []Pack{{500, "g", 476, 110}, {500, "g", 475, 110}}, 1, 100.0/95*100 - 100},
		// 1 kg at 800: 0.80 a gram, risen 25%, but last observed on day
		// 99, before onShelf: left the shelf.
		{"a pack off the shelf", []Pack{{1000, "g", 800, 99}, {500, "g", 450, 100}}, 1, 100.0/90*100 - 100},
		// 1000 ml at 500: another unit; 400 g at 300: not larger.
		{"another unit, not larger", []Pack{{1000, "ml", 500, 110}, {400, "g", 300, 110}}, -1, 0},
		// 500 g at 500: 1.00 a gram, as the new pack: no rise.
		{"no rise", []Pack{{500, "g", 500, 110}}, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, up := Shrink(fresh, tc.olds, 100, 5)
			if got != tc.want || math.Abs(up-tc.up) > 1e-9 {
				t.Errorf("Shrink = %d, %.4f%%; want %d, %.4f%%", got, up, tc.want, tc.up)
			}
		})
	}
}

// TestUnverifiedReference works the reference rule by hand.
func TestUnverifiedReference(t *testing.T) {
	for _, tc := range []struct {
		name             string
		charged          int32
		before, regular  uint32
		over             float64
		high, unverified bool
	}{
		// A reference of 449 never charged; 400 charged before: 12.25%
		// over, high at 10.
		{"high", 0, 400, 449, 12.25, true, true},
		// 440 over 400 is 10% exactly: high.
		{"exactly the high threshold", 0, 400, 440, 10, true, true},
		// 420 over 400: 5%, medium.
		{"medium", 0, 400, 420, 5, false, true},
		// The stores charged the reference on day 90: verified.
		{"charged", 90, 400, 449, 0, false, false},
		// No price at all in the 30 days before: nothing to judge by.
		{"nothing before", 0, 0, 449, 0, false, false},
		// A reference under what was charged understates the saving.
		{"under before", 0, 500, 449, 0, false, false},
		{"equal to before", 0, 449, 449, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			over, high, ok := UnverifiedReference(tc.charged, tc.before, tc.regular, 10)
			if ok != tc.unverified || high != tc.high || math.Abs(over-tc.over) > 1e-9 {
				t.Errorf("UnverifiedReference = %.4f, %v, %v; want %.4f, %v, %v", over, high, ok, tc.over, tc.high, tc.unverified)
			}
		})
	}
}
