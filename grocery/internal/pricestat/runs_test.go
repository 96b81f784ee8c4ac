package pricestat

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunsMedian checks the (doubled, exact) median and the sum of sorted
// runs against those of the sorted whole, on runs with ties, single values
// and even counts.
func TestRunsMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		var b Buf
		var all []uint32
		var r Runs
		for range 1 + rng.IntN(6) {
			var run []uint32
			for range rng.IntN(7) {
				run = append(run, uint32(rng.IntN(1+trial%50)))
			}
			slices.Sort(run)
			all = append(all, run...)
			start := len(b.Vals)
			for i, v := range run {
				if i > 0 && v == run[i-1] {
					b.Cum[len(b.Cum)-1]++
					continue
				}
				n := uint32(1)
				if len(b.Vals) > start {
					n += b.Cum[len(b.Cum)-1]
				}
				b.Vals, b.Cum = append(b.Vals, v), append(b.Cum, n)
			}
			r.Add(&b, start)
		}
		// Median2 of the sorted whole: one definition of the median.
		var want, sum uint64
		if len(all) > 0 {
			slices.Sort(all)
			want = uint64(Median2(all))
		}
		for _, v := range all {
			sum += uint64(v)
		}
		if got := r.Median2(&b); got != want {
			t.Fatalf("trial %d: median of %v in runs %v of %v: got %d, want %d", trial, all, r.at, b, got, want)
		}
		if got := r.Sum(&b); got != sum {
			t.Fatalf("trial %d: sum of %v: got %d, want %d", trial, all, got, sum)
		}
		if r.Len() != len(all) {
			t.Fatalf("trial %d: Len of %v: got %d, want %d", trial, all, r.Len(), len(all))
		}
	}
}
