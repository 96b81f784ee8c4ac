package pricestat

import (
	"slices"

	"github.com/grocerydata/grocery/storage"
)

// Levels holds the multisets of a category's prices, or of its unit
// prices by basis, as each day's runs of equal values (storage.Run).
type Levels struct {
	Buf  Buf
	Runs [4]Runs // by basis (unit prices: 1..3), in Buf; prices in Runs[0]
}

// Grow makes room for n more distinct values. When it must grow them, it
// grows their capacity to at least twice their length: a period's values
// come a day at a time, and growing them a quarter at a time (append's
// rule) would copy them about five times over.
func (l *Levels) Grow(n int) {
	if cap(l.Buf.Vals)-len(l.Buf.Vals) < n || cap(l.Buf.Cum)-len(l.Buf.Cum) < n {
		n = max(n, len(l.Buf.Vals))
		l.Buf.Vals, l.Buf.Cum = slices.Grow(l.Buf.Vals, n), slices.Grow(l.Buf.Cum, n)
	}
}

// AddPrices adds one day's runs of prices, sorted by price.
func (l *Levels) AddPrices(day []storage.Run) {
	start := len(l.Buf.Vals)
	l.Grow(len(day))
	cum := uint32(0)
	for _, r := range day {
		cum += r.N
		l.Buf.Vals, l.Buf.Cum = append(l.Buf.Vals, r.Value), append(l.Buf.Cum, cum)
	}
	l.Runs[0].Add(&l.Buf, start)
}

// AddUnits adds one day's runs of unit prices (storage.CatObs.Unit),
// sorted by value then basis: each basis' values are a sorted run of
// their own, placed side by side.
func (l *Levels) AddUnits(day []storage.Run) {
	var n [4]int // by basis; units have no basis 0
	for _, r := range day {
		n[r.Value&3]++
	}
	first := len(l.Buf.Vals)
	l.Grow(len(day))
	b := &l.Buf
	size := first + n[1] + n[2] + n[3]
	b.Vals, b.Cum = b.Vals[:size], b.Cum[:size]
	at := [4]int{0, first, first + n[1], first + n[1] + n[2]}
	next := at
	var cum [4]uint32
	for _, r := range day {
		if k := r.Value & 3; k != 0 {
			cum[k] += r.N
			b.Vals[next[k]], b.Cum[next[k]] = r.Value>>2, cum[k]
			next[k]++
		}
	}
	for k := 1; k < 4; k++ {
		l.Runs[k].Add(&Buf{Vals: b.Vals[:next[k]], Cum: b.Cum[:next[k]]}, at[k])
	}
}

// Reset empties l, keeping its room.
func (l *Levels) Reset() {
	for i := range l.Runs {
		l.Runs[i].Reset()
	}
	l.Buf.Vals, l.Buf.Cum = l.Buf.Vals[:0], l.Buf.Cum[:0]
}
