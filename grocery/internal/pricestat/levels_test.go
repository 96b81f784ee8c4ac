package pricestat

import (
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestLevelsAddUnits: a day's unit prices, sorted by value then basis,
// go to their basis' multiset (the value without its two basis bits),
// each counted as often as its run says; over two days the multisets
// hold both.
func TestLevelsAddUnits(t *testing.T) {
	t.Parallel()
	unit := func(v, basis uint32) uint32 { return v<<2 | basis }
	var l Levels
	l.AddUnits([]storage.Run{{Value: unit(10, 1), N: 2}, {Value: unit(10, 2), N: 1}, {Value: unit(30, 1), N: 1}})
	l.AddUnits([]storage.Run{{Value: unit(20, 1), N: 1}, {Value: unit(40, 3), N: 3}})
	for _, tc := range []struct {
		basis        int
		n            int
		lo, hi       uint32
		median2, sum uint64
	}{
		{1, 4, 10, 30, 30, 70}, // 10, 10, 20, 30: median 15
		{2, 1, 10, 10, 20, 10},
		{3, 3, 40, 40, 80, 120}, // 40 three times
	} {
		r := &l.Runs[tc.basis]
		if r.Len() != tc.n || r.Min() != tc.lo || r.Max() != tc.hi || r.Median2(&l.Buf) != tc.median2 || r.Sum(&l.Buf) != tc.sum {
			t.Errorf("basis %d: got %d values from %d to %d, median2 %d, sum %d; want %d from %d to %d, median2 %d, sum %d",
				tc.basis, r.Len(), r.Min(), r.Max(), r.Median2(&l.Buf), r.Sum(&l.Buf), tc.n, tc.lo, tc.hi, tc.median2, tc.sum)
		}
	}
	if l.Runs[0].Len() != 0 {
		t.Errorf("prices: got %d values, want none from unit prices", l.Runs[0].Len())
	}
}
