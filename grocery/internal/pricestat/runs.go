package pricestat

import "slices"

// Runs is a multiset of values kept as sorted runs of a buffer (the
// category aggregates store each day's prices sorted): its median is found
// by a binary search on the value, counting the values at or under it in
// each run, without sorting the whole. The zero Runs is empty.
type Runs struct {
	at     [][2]int // each run's start and end in the buffer
	n      int      // values
	lo, hi uint32
	win    [][2]int // kth's window of each run
	cut    []int    // kth's count of each run's window at or under its guess
}

// Reset empties r, keeping its room for runs.
func (r *Runs) Reset() { *r = Runs{at: r.at[:0], win: r.win[:0], cut: r.cut[:0]} }

// Add notes buf[start:], sorted, as a run.
func (r *Runs) Add(buf []uint32, start int) {
	run := buf[start:]
	if len(run) == 0 {
		return
	}
	if r.n == 0 {
		r.lo, r.hi = run[0], run[len(run)-1]
	} else {
		r.lo, r.hi = min(r.lo, run[0]), max(r.hi, run[len(run)-1])
	}
	r.at = append(r.at, [2]int{start, len(buf)})
	r.n += len(run)
}

// Sum adds up the values.
func (r *Runs) Sum(buf []uint32) uint64 {
	var s uint64
	for _, at := range r.at {
		for _, v := range buf[at[0]:at[1]] {
			s += uint64(v)
		}
	}
	return s
}

// atMost counts the values <= x.
func (r *Runs) atMost(buf []uint32, x uint32) int {
	n := 0
	for _, at := range r.at {
		run := buf[at[0]:at[1]]
		switch {
		case run[len(run)-1] <= x:
			n += len(run)
		case run[0] > x:
		default:
			i, j := 0, len(run)
			for i < j {
				h := int(uint(i+j) >> 1)
				if run[h] <= x {
					i = h + 1
				} else {
					j = h
				}
			}
			n += i
		}
	}
	return n
}

// kth returns the k-th smallest value (from 0): a binary search on the
// value, each run searched only between the values already ruled out
// (under lo, over hi), a window that narrows with the range.
func (r *Runs) kth(buf []uint32, k int) uint32 {
	lo, hi := r.lo, r.hi
	// win[i] is run i's window: its values from lo to hi are
	// run[win[i][0]:win[i][1]]; under is how many values are under lo.
	r.win = r.win[:0]
	for _, at := range r.at {
		r.win = append(r.win, [2]int{0, at[1] - at[0]})
	}
	under := 0
	for lo < hi {
		mid := lo + (hi-lo)/2
		// n counts the values <= mid; cut holds where each run's
		// window splits at mid until the side is known.
		n := under
		for i, at := range r.at {
			w := &r.win[i]
			run := buf[at[0]+w[0] : at[0]+w[1]]
			j := 0
			switch {
			case len(run) == 0:
			case run[len(run)-1] <= mid:
				j = len(run)
			case run[0] > mid:
			default:
				j, _ = slices.BinarySearch(run, mid+1)
			}
			r.cut = append(r.cut[:i], w[0]+j)
			n += j
		}
		if n > k {
			hi = mid
			for i := range r.win {
				r.win[i][1] = r.cut[i]
			}
		} else {
			lo = mid + 1
			for i := range r.win {
				under += r.cut[i] - r.win[i][0]
				r.win[i][0] = r.cut[i]
			}
		}
	}
	return lo
}

// Median2 returns twice the median, exact, as Median2 of the sorted whole
// (for an even count the sum of the two middle values), or 0 when empty.
func (r *Runs) Median2(buf []uint32) uint64 {
	if r.n == 0 {
		return 0
	}
	k := r.n / 2
	m := r.kth(buf, k)
	if r.n%2 == 1 || m == r.lo || r.atMost(buf, m-1) <= k-1 {
		return 2 * uint64(m) // the k-1-th is m too
	}
	// Exactly k values are under m: the k-1-th is the greatest of them.
	l := r.lo
	for _, at := range r.at {
		run := buf[at[0]:at[1]]
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
