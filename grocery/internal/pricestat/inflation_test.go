package pricestat

import (
	"math"
	"testing"
)

// TestInflation works three banner SKUs by hand. x at banner a: this
// week's mean index 2.2 / 2 = 1.1 over last week's 1.0 (shelf +10%),
// regular 1.0 over 1.0; four weeks 4.2 / 4 = 1.05 over 4.0 / 4 = 1.0.
// y at banner b: this week 0.9 over 1.0, regular 1.0 over 1.0; no four
// weeks before. z at banner c has no day last week: not compared week
// over week (nor its banner counted), but four weeks 2.0 / 2 over 2.0 / 2.
func TestInflation(t *testing.T) {
	skus := []WeekSKU{
		{Banner: "a", IdxP: [Periods]float64{2.2, 1.0, 4.2, 4.0}, IdxR: [Periods]float64{2.0, 1.0, 4.0, 4.0}, N: [Periods]int32{2, 1, 4, 4}},
		{Banner: "b", IdxP: [Periods]float64{0.9, 1.0, 0.9, 0}, IdxR: [Periods]float64{1.0, 1.0, 1.0, 0}, N: [Periods]int32{1, 1, 1, 0}},
		{Banner: "c", IdxP: [Periods]float64{1.0, 0, 2.0, 2.0}, IdxR: [Periods]float64{1.0, 0, 2.0, 2.0}, N: [Periods]int32{1, 0, 2, 2}},
		// d has no day this week nor in the last four weeks: in nothing.
		{Banner: "d", IdxP: [Periods]float64{0, 1.0, 0, 1.0}, IdxR: [Periods]float64{0, 1.0, 0, 1.0}, N: [Periods]int32{0, 1, 0, 1}},
	}
	// Days with data: bits 0, 1 and 9 (first = 100): days 100, 101, 109.
	x := NewInflation(1<<0 | 1<<1 | 1<<9)
	for i := range skus {
		x.Add(&skus[i])
	}
	for _, c := range []struct {
		name string
		g    *Geomean
		n    int
		pct  float64
	}{
		{"week shelf", &x.Shelf[0], 2, (math.Sqrt(1.1*0.9) - 1) * 100},
		{"week regular", &x.Regular[0], 2, 0},
		{"four weeks shelf", &x.Shelf[1], 2, (math.Sqrt(1.05*1.0) - 1) * 100},
		{"four weeks regular", &x.Regular[1], 2, 0},
	} {
		if c.g.N() != c.n || math.Abs(c.g.ChangePct()-c.pct) > 1e-9 {
			t.Errorf("%s: %d SKUs, %v%%; want %d, %v%%", c.name, c.g.N(), c.g.ChangePct(), c.n, c.pct)
		}
	}
	if len(x.Banners) != 2 || !x.Banners["a"] || !x.Banners["b"] {
		t.Errorf("banners %v, want a and b (c has no day last week, d none this week)", x.Banners)
	}
	if got := [3]int{x.DaysIn(100, 100, 106), x.DaysIn(100, 107, 113), x.DaysIn(100, 101, 101)}; got != [3]int{2, 1, 1} {
		t.Errorf("days with data in 100..106, 107..113 and 101: %v, want 2, 1, 1", got)
	}
}
