package pricestat

import "slices"

// Runs is a multiset of values kept as sorted runs of a buffer (the
// category aggregates store each day's prices sorted, as runs of equal
// values): its median is found by a binary search on the value, counting
// the values at or under it in each run, without sorting the whole. The
// zero Runs is empty.
type Runs struct {
	at     [][2]int // each run's start and end in the buffer
	n      int      // values
	lo, hi uint32
	win    []window // kth's windows of the runs
	cut    []int    // where kth's guess splits each window
}

// Buf holds the runs of a Runs side by side: a run's distinct values in
// Vals, sorted, and at the same index in Cum how many of the run's values
// are at or under that one (so a run's last Cum is its size).
type Buf struct{ Vals, Cum []uint32 }

// cum returns how many values of the run starting at start are under its
// i-th distinct value (from 0).
func (b *Buf) cum(start, i int) int {
	if i == 0 {
		return 0
	}
	return int(b.Cum[start+i-1])
}

// Reset empties r, keeping its room for runs.
func (r *Runs) Reset() { *r = Runs{at: r.at[:0], win: r.win[:0], cut: r.cut[:0]} }

// Add notes b's values from start to the end, sorted, as a run.
func (r *Runs) Add(b *Buf, start int) {
	run := b.Vals[start:]
	if len(run) == 0 {
		return
	}
	if r.n == 0 {
		r.lo, r.hi = run[0], run[len(run)-1]
	} else {
		r.lo, r.hi = min(r.lo, run[0]), max(r.hi, run[len(run)-1])
	}
	r.at = append(r.at, [2]int{start, len(b.Vals)})
	r.n += int(b.Cum[len(b.Cum)-1])
}

// Sum adds up the values.
func (r *Runs) Sum(b *Buf) uint64 {
	var s uint64
	for _, at := range r.at {
		prev := uint32(0)
		for i := at[0]; i < at[1]; i++ {
			s += uint64(b.Vals[i]) * uint64(b.Cum[i]-prev)
			prev = b.Cum[i]
		}
	}
	return s
}

// upper returns the index of the first value of sorted run over x.
func upper(run []uint32, x uint32) int {
	switch {
	case len(run) == 0 || run[0] > x:
		return 0
	case run[len(run)-1] <= x:
		return len(run)
	}
	i, j := 0, len(run)
	for i < j {
		h := int(uint(i+j) >> 1)
		if run[h] <= x {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// atMost counts the values <= x.
func (r *Runs) atMost(b *Buf, x uint32) int {
	n := 0
	for _, at := range r.at {
		n += b.cum(at[0], upper(b.Vals[at[0]:at[1]], x))
	}
	return n
}

// kth returns the k-th smallest value (from 0): a binary search on the
// value, each run searched only between the values already ruled out
// (under lo, over hi), a window that narrows with the range; a run whose
// window is empty is searched no more.
func (r *Runs) kth(b *Buf, k int) uint32 {
	lo, hi := r.lo, r.hi
	// win holds the runs with values from lo to hi: run i's are its
	// distinct values from w[0] to w[1], its start in the buffer at.
	// under is how many values are under lo.
	r.win = r.win[:0]
	for _, at := range r.at {
		r.win = append(r.win, window{at: at[0], lo: 0, hi: at[1] - at[0]})
	}
	under := 0
	for lo < hi {
		mid := lo + (hi-lo)/2
		// n counts the values <= mid; cut holds where each run's
		// window splits at mid until the side is known.
		n := under
		r.cut = r.cut[:0]
		for _, w := range r.win {
			j := w.lo + upper(b.Vals[w.at+w.lo:w.at+w.hi], mid)
			r.cut = append(r.cut, j)
			n += b.cum(w.at, j) - b.cum(w.at, w.lo)
		}
		keep := r.win[:0]
		if n > k {
			hi = mid
			for i, w := range r.win {
				if w.hi = r.cut[i]; w.lo < w.hi {
					keep = append(keep, w)
				}
			}
		} else {
			lo = mid + 1
			for i, w := range r.win {
				under += b.cum(w.at, r.cut[i]) - b.cum(w.at, w.lo)
				if w.lo = r.cut[i]; w.lo < w.hi {
					keep = append(keep, w)
				}
			}
		}
		r.win = keep
	}
	return lo
}

// window is the part of a run kth still searches: its distinct values
// from lo to hi (indexes from the run's start, at in the buffer).
type window struct{ at, lo, hi int }

// Median2 returns twice the median, exact, as Median2 of the sorted whole
// (for an even count the sum of the two middle values), or 0 when empty.
func (r *Runs) Median2(b *Buf) uint64 {
	if r.n == 0 {
		return 0
	}
	k := r.n / 2
	m := r.kth(b, k)
	if r.n%2 == 1 || m == r.lo || r.atMost(b, m-1) <= k-1 {
		return 2 * uint64(m) // the k-1-th is m too
	}
	// Exactly k values are under m: the k-1-th is the greatest of them.
	l := r.lo
	for _, at := range r.at {
		run := b.Vals[at[0]:at[1]]
		i, _ := slices.BinarySearch(run, m)
		if i > 0 {
			l = max(l, run[i-1])
		}
	}
	return uint64(l) + uint64(m)
}

// Len returns the number of values.
func (r *Runs) Len() int { return r.n }

// Min returns the least value, or 0 when empty.
func (r *Runs) Min() uint32 { return r.lo }

// Max returns the greatest value, or 0 when empty.
func (r *Runs) Max() uint32 { return r.hi }
