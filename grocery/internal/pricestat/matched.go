package pricestat

import (
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// The like-for-like (matched-model, matched-outlet) change of a selection
// of banner SKUs between two periods of the same length, as the category
// report gives it (CategoryStats.change_pct in the OpenAPI document):
//
//	link(s,d)  = geomean, over the stores whose price of s is in force on
//	             both d and the SKU's previous day with a daily price, of
//	             price on d / price on that day (1 when no store is)
//	I(s,d)     = the product of link(s,e) over the SKU's days e with a
//	             daily price after its first such day of the two periods,
//	             up to d (1 on that first day)
//	ratio(s)   = mean of I(s,d) over the current period's days d with a
//	             daily price / the same mean over the previous period's
//	change_pct = (geomean over the SKUs priced in both periods of
//	             ratio(s) - 1) × 100
//
// So a SKU's change is its stores' own moves (storage.Lookback.Link), not
// one of which stores were in force; with one store throughout, ratio(s)
// is the ratio of its mean prices. regular_change_pct likewise with the
// regular prices. A SKU priced in one period only does not count.

// periodSum adds up a banner SKU's index over one period.
type periodSum struct {
	price, regular float64
	days           uint32
}

// chain is a banner SKU's index (I above) as its days are read in order:
// the sums of its links since its first day read, and the index they give.
type chain struct {
	started  bool
	lnP, lnR linked // the sums of Link and RegularLink after the first day
}

// linked is a sum of links and its index, exp(ln / LinkScale), with the
// sum and index it had before it last moved: when a promotion ends, the
// stores' prices move back where they were, and the index they had is
// taken again rather than computed (the same value: exp of the same sum).
type linked struct {
	ln, prevLn   int64
	idx, prevIdx float64
}

// start sets l to the first day's: a sum of 0, index 1.
func (l *linked) start() { *l = linked{idx: 1, prevIdx: 1} }

// add moves l by link, not 0.
func (l *linked) add(link int64) {
	next := l.ln + link
	if next == l.prevLn {
		l.ln, l.prevLn = next, l.ln
		l.idx, l.prevIdx = l.prevIdx, l.idx
		return
	}
	l.prevLn, l.prevIdx = l.ln, l.idx
	l.ln, l.idx = next, math.Exp(float64(next)/storage.LinkScale)
}

// next moves c to a day with lookback lb, and returns its index.
func (c *chain) next(lb *storage.Lookback) (p, r float64) {
	switch {
	case !c.started:
		c.started = true
		c.lnP.start()
		c.lnR.start()
	default:
		if lb.Link != 0 {
			c.lnP.add(int64(lb.Link))
		}
		if lb.RegularLink != 0 {
			c.lnR.add(int64(lb.RegularLink))
		}
	}
	return c.lnP.idx, c.lnR.idx
}

// span moves c over a span of days (a block of them, or a day) and
// returns the sums of its index over the span's days: the index on the
// span's first day times the span's own sums (storage.SKUSpan.Index), and
// the same of the regular price. For a day it is next's.
func (c *chain) span(k *storage.SKUSpan) (p, r float64) {
	c.next(&storage.Lookback{Link: k.Link, RegularLink: k.RegularLink})
	p, r = c.lnP.idx*k.Index, c.lnR.idx*k.RegularIndex
	if k.Inner != 0 {
		c.lnP.add(k.Inner)
	}
	if k.RegularInner != 0 {
		c.lnR.add(k.RegularInner)
	}
	return p, r
}

// skuPeriods is one banner SKU's index in the two periods.
type skuPeriods struct {
	num       uint32 // in Matched.names
	chain     chain
	prev, cur periodSum
}

// Matched accumulates the daily prices of one banner's SKUs in a
// category, span by span. Spans come as storage.CatSpan.SKUs, each SKU a
// number in the list of the banner's SKUs in the category
// (storage.CatSpan.Names), which stays valid as long as the read
// transaction.
type Matched struct {
	Banner string   // whose SKUs they are
	names  []string // the list, as the last span read gave it
	// skus are in the order first read; those before sorted are in SKU
	// order too (a day's SKUs come in SKU order, a block's by number,
	// which is the order first written).
	skus   []skuPeriods
	sorted int
	at     []int32 // by SKU number: 1 + its index in skus, 0 for none yet
	// AddRatios' indexes of skus in SKU order, and of the unsorted ones.
	order, rest []int32
}

// Reset empties m, keeping its room, and drops the SKU strings it held.
func (m *Matched) Reset() {
	clear(m.at)
	m.Banner, m.names, m.skus, m.at, m.sorted = "", nil, m.skus[:0], m.at[:0], 0
}

// Period is one of the two periods a report compares.
type Period int

const (
	Previous Period = iota
	Current
)

// AddSpan adds the daily prices of one span of days (storage.CatSpan) to
// period p: a block's SKUs, or a day's. A SKU's spans must come in day
// order.
func (m *Matched) AddSpan(s *storage.CatSpan, p Period) {
	if len(s.Nums) > 0 {
		m.AddDay(s.Nums, s.Names, p)
		return
	}
	m.grow(s.Names)
	for j := range s.SKUs {
		k := &s.SKUs[j]
		e := m.sku(k.Num)
		ip, ir := e.chain.span(k)
		e.add(p, ip, ir, k.Days)
	}
}

// AddDay adds one day's daily prices to period p; names is the list
// their numbers index.
func (m *Matched) AddDay(day []storage.SKUNum, names []string, p Period) {
	m.grow(names)
	for j := range day {
		d := &day[j]
		e := m.sku(d.Num)
		ip, ir := e.chain.next(&d.Lookback)
		e.add(p, ip, ir, 1)
	}
}

// grow takes names as the list of SKU numbers.
func (m *Matched) grow(names []string) {
	m.names = names
	if n := len(names) - len(m.at); n > 0 {
		m.at = append(m.at, make([]int32, n)...)
	}
}

// sku returns the SKU numbered num, filed the first time.
func (m *Matched) sku(num uint32) *skuPeriods {
	i := m.at[num]
	if i == 0 {
		i = m.insert(num)
	}
	return &m.skus[i-1]
}

// add adds the index sums of days days to period p.
func (e *skuPeriods) add(p Period, ip, ir float64, days uint32) {
	sum := &e.prev
	if p == Current {
		sum = &e.cur
	}
	sum.price += ip
	sum.regular += ir
	sum.days += days
}

// insert files the SKU numbered num, read for the first time, in m.skus
// and returns 1 + its index.
func (m *Matched) insert(num uint32) int32 {
	k := len(m.skus)
	if m.sorted == k && (k == 0 || m.names[m.skus[k-1].num] < m.names[num]) {
		m.sorted++
	}
	if len(m.skus) == cap(m.skus) { // doubled: tens of thousands, which append grows a quarter at a time
		m.skus = slices.Grow(m.skus, len(m.skus)+64)
	}
	m.skus = append(m.skus, skuPeriods{num: num})
	m.at[num] = int32(k + 1)
	return int32(k + 1)
}

// inOrder returns the indexes of m.skus in SKU order: the sorted ones
// merged with the others, sorted.
func (m *Matched) inOrder() []int32 {
	m.rest = m.rest[:0]
	for i := m.sorted; i < len(m.skus); i++ {
		m.rest = append(m.rest, int32(i))
	}
	name := func(i int32) string { return m.names[m.skus[i].num] }
	slices.SortFunc(m.rest, func(i, j int32) int { return strings.Compare(name(i), name(j)) })
	m.order = m.order[:0]
	head, rest := int32(0), m.rest
	for int(head) < m.sorted || len(rest) > 0 {
		if len(rest) == 0 || int(head) < m.sorted && name(head) < name(rest[0]) {
			m.order = append(m.order, head)
			head++
		} else {
			m.order, rest = append(m.order, rest[0]), rest[1:]
		}
	}
	return m.order
}

// AddRatios adds to shelf and regular the price relatives (current mean
// index / previous mean index) of the SKUs priced in both periods, in SKU
// order, and returns how many there were. The days must have been added
// in order, the previous period's first.
func (m *Matched) AddRatios(shelf, regular *Geomean) int {
	n := 0
	for _, i := range m.inOrder() {
		s := &m.skus[i]
		if s.prev.days == 0 || s.cur.days == 0 {
			continue
		}
		n++
		cd, pd := float64(s.cur.days), float64(s.prev.days)
		shelf.Add((s.cur.price / cd) / (s.prev.price / pd))
		regular.Add((s.cur.regular / cd) / (s.prev.regular / pd))
	}
	return n
}

// DaySet is a set of days from a first day, one bit each.
type DaySet struct {
	First int32 // the day of bit 0: earlier days are not kept
	bits  []uint64
}

// AddMask puts in the set the days of mask, bit i of word w being day
// first + 64w + i.
func (b *DaySet) AddMask(first int32, mask []uint64) {
	for w, word := range mask {
		for ; word != 0; word &= word - 1 {
			b.Add(first + int32(64*w+bits.TrailingZeros64(word)))
		}
	}
}

// Add puts day in the set; a day before First is left out.
func (b *DaySet) Add(day int32) {
	i := int(day - b.First)
	if i < 0 {
		return
	}
	if w := i >> 6; w >= len(b.bits) {
		b.bits = append(b.bits, make([]uint64, w+1-len(b.bits))...)
	}
	b.bits[i>>6] |= 1 << (i & 63)
}

// Reset empties b, keeping its room, for days from first.
func (b *DaySet) Reset(first int32) {
	clear(b.bits)
	b.First, b.bits = first, b.bits[:0]
}

// Count returns how many days from..to (inclusive) are in the set.
func (b *DaySet) Count(from, to int32) int {
	n := 0
	for d := max(from, b.First); d <= to; d++ {
		i := int(d - b.First)
		if i>>6 < len(b.bits) && b.bits[i>>6]&(1<<(i&63)) != 0 {
			n++
		}
	}
	return n
}

// Set is a set of small, dense numbers (store ordinals), one bit each:
// its size is that of the largest. Store numbers read from a file are at
// most its store count (storage refuses a larger one as corrupt).
type Set struct {
	bits []uint64
	n    int
}

// Len returns how many numbers s holds.
func (s *Set) Len() int { return s.n }

// Add puts ord in s.
func (s *Set) Add(ord uint32) {
	i := int(ord >> 6)
	if i >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, i+1-len(s.bits))...)
	}
	if m := uint64(1) << (ord & 63); s.bits[i]&m == 0 {
		s.bits[i] |= m
		s.n++
	}
}

// Reset empties s, keeping its room.
func (s *Set) Reset() {
	clear(s.bits)
	s.bits, s.n = s.bits[:0], 0
}
