package grocery

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
		var r runs
		for range 1 + rng.IntN(6) {
			start := len(buf)
			for range rng.IntN(7) {
				v := uint32(rng.IntN(1 + trial%50))
				buf = append(buf, v)
				all = append(all, v)
			}
			slices.Sort(buf[start:])
			r.add(buf, start)
		}
		// Twice the median of the sorted whole: the middle value
		// doubled, or the sum of the middle two for an even count.
		var want uint64
		if n := len(all); n > 0 {
			slices.Sort(all)
			want = 2 * uint64(all[n/2])
			if n%2 == 0 {
				want = uint64(all[n/2-1]) + uint64(all[n/2])
			}
		}
		if got := r.median2(buf); got != want {
			t.Fatalf("trial %d: median of %v in runs %v: got %d, want %d", trial, buf, r.at, got, want)
		}
	}
}
