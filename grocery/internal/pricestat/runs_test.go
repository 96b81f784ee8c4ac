package pricestat

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunsMedian checks the (doubled, exact) median of sorted runs against the median of
// the sorted whole, on runs with ties, single values and even counts.
func TestRunsMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		var buf, all []uint32
		var r Runs
		for range 1 + rng.IntN(6) {
			start := len(buf)
			for range rng.IntN(7) {
				v := uint32(rng.IntN(1 + trial%50))
				buf = append(buf, v)
				all = append(all, v)
			}
			slices.Sort(buf[start:])
			r.Add(buf, start)
		}
		// Median2 of the sorted whole: one definition of the median.
		var want uint64
		if len(all) > 0 {
			slices.Sort(all)
			want = uint64(Median2(all))
		}
		if got := r.Median2(buf); got != want {
			t.Fatalf("trial %d: median of %v in runs %v: got %d, want %d", trial, buf, r.at, got, want)
		}
	}
}
