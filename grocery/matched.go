package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// The like-for-like (matched-model) change of a selection of banner SKUs
// between two periods of the same length, as the category report gives
// it (restserver/openapi.json, CategoryStats.change_pct):
//
//	ratio(s)   = mean of p(s,d) over the current period's days d with a
//	             daily price / the same mean over the previous period's
//	change_pct = (geomean over the SKUs priced in both periods of
//	             ratio(s) - 1) × 100
//
// p(s,d) being the SKU's daily price (storage.SKUDay, the median of its
// stores' prices that day), and regular_change_pct likewise with the
// daily regular price. A SKU priced in one period only does not count.

// periodSum adds up a banner SKU's daily prices over one period, in
// half-cents.
type periodSum struct {
	price, regular uint64
	days           uint32
}

func (s *periodSum) add(d *storage.SKUDay) {
	s.price += uint64(d.Price)
	s.regular += uint64(d.Regular)
	s.days++
}

// skuPeriods is one banner SKU's daily prices in the two periods.
type skuPeriods struct {
	sku       string
	prev, cur periodSum
}

// matchedSKUs accumulates the daily prices of one banner's SKUs in a
// selection, day by day. Days come as storage.CatDay.SKUs, sorted by SKU,
// so a day is merged into the sorted list in one pass; the SKU strings
// must outlive the accumulator (the read transaction's are).
type matchedSKUs struct {
	banner string
	skus   []skuPeriods // by sku
	fresh  []skuPeriods // SKUs first seen on the day being added
}

// reset empties m, keeping its room, and drops the SKU strings it held.
func (m *matchedSKUs) reset() {
	clear(m.skus)
	clear(m.fresh)
	m.banner, m.skus, m.fresh = "", m.skus[:0], m.fresh[:0]
}

// half is one of the two periods a report compares.
type half int

const (
	previousPeriod half = iota
	currentPeriod
)

// addDay adds one day's daily prices to period p.
func (m *matchedSKUs) addDay(day []storage.SKUDay, p half) {
	if len(m.skus) == 0 {
		// The first day: its SKUs, sorted, are the list.
		m.skus = slices.Grow(m.skus, len(day)+len(day)/8)[:len(day)]
		for j := range day {
			m.skus[j] = skuPeriods{sku: day[j].SKU}
			if p == currentPeriod {
				m.skus[j].cur.add(&day[j])
			} else {
				m.skus[j].prev.add(&day[j])
			}
		}
		return
	}
	m.fresh = m.fresh[:0]
	i := 0
	for j := range day {
		d := &day[j]
		// Most days have the SKUs of the day before: the list's next
		// SKU is tried first (the same string, which compares at once).
		if i >= len(m.skus) || m.skus[i].sku != d.SKU {
			for i < len(m.skus) && m.skus[i].sku < d.SKU {
				i++
			}
		}
		var e *skuPeriods
		if i < len(m.skus) && m.skus[i].sku == d.SKU {
			e = &m.skus[i]
			i++
		} else {
			m.fresh = append(m.fresh, skuPeriods{sku: d.SKU})
			e = &m.fresh[len(m.fresh)-1]
		}
		if p == currentPeriod {
			e.cur.add(d)
		} else {
			e.prev.add(d)
		}
	}
	if len(m.fresh) == 0 {
		return
	}
	// Merge the new SKUs (sorted, as the day is) into the list in
	// place, from the back, the list growing as append grows it.
	i, j := len(m.skus)-1, len(m.fresh)-1
	m.skus = append(m.skus, m.fresh...)
	for k := len(m.skus) - 1; j >= 0; k-- {
		if i >= 0 && m.skus[i].sku > m.fresh[j].sku {
			m.skus[k] = m.skus[i]
			i--
		} else {
			m.skus[k] = m.fresh[j]
			j--
		}
	}
}

// addRatios adds to shelf and regular the price relatives (current mean
// daily price / previous mean daily price) of the SKUs priced in both
// periods, in SKU order, and returns how many there were.
func (m *matchedSKUs) addRatios(shelf, regular *pricestat.Geomean) int {
	n := 0
	for i := range m.skus {
		s := &m.skus[i]
		if s.prev.days == 0 || s.cur.days == 0 {
			continue
		}
		n++
		cd, pd := float64(s.cur.days), float64(s.prev.days)
		shelf.Add((float64(s.cur.price) / cd) / (float64(s.prev.price) / pd))
		regular.Add((float64(s.cur.regular) / cd) / (float64(s.prev.regular) / pd))
	}
	return n
}

// dayBits is a set of days from a first day, one bit each.
type dayBits struct {
	first int32
	bits  []uint64
}

func (b *dayBits) add(day int32) {
	i := int(day - b.first)
	if i < 0 {
		return
	}
	if w := i >> 6; w >= len(b.bits) {
		b.bits = append(b.bits, make([]uint64, w+1-len(b.bits))...)
	}
	b.bits[i>>6] |= 1 << (i & 63)
}

// count returns how many days from..to (inclusive) are in the set.
func (b *dayBits) count(from, to int32) int {
	n := 0
	for d := max(from, b.first); d <= to; d++ {
		i := int(d - b.first)
		if i>>6 < len(b.bits) && b.bits[i>>6]&(1<<(i&63)) != 0 {
			n++
		}
	}
	return n
}
