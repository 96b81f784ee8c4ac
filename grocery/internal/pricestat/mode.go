package pricestat

import "slices"

// Mode returns the most common value of v (the lower one on a tie), and
// v's minimum and maximum. It sorts v.
func Mode(v []uint32) (most, lo, hi uint32) {
	slices.Sort(v)
	best := 0
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if j-i > best {
			best, most = j-i, v[i]
		}
		i = j
	}
	return most, v[0], v[len(v)-1]
}
