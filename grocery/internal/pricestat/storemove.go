package pricestat

import "slices"

// StoreMove says whether a store moved its own regular price between two
// days, From and To: a banner SKU's daily price also moves when a store's
// observation enters or leaves the visit window with no store's own price
// moving, and a change is only a store's change. Observe each store
// observation, oldest first, from the window before From to To; then
// Moved.
type StoreMove struct {
	From, To, Window int32
	stores           []storeRegular
}

// storeRegular is a store's regular prices in force on From and To.
type storeRegular struct {
	store        uint32
	from, to     uint32
	inFrom, inTo bool
}

// Reset empties m for days from and to and a visit window of window
// days, keeping its room.
func (m *StoreMove) Reset(from, to, window int32) {
	m.From, m.To, m.Window, m.stores = from, to, window, m.stores[:0]
}

// Observe takes a store's observation on date (prices in half-cents or
// cents, promoEnd 0 when none), newer than those of the store before.
func (m *StoreMove) Observe(date int32, store, price, regular uint32, promoEnd int32) {
	i := slices.IndexFunc(m.stores, func(s storeRegular) bool { return s.store == store })
	if i < 0 {
		i = len(m.stores)
		m.stores = append(m.stores, storeRegular{store: store})
	}
	// Oldest first: the latest observation on or before a day wins.
	if _, r, _, ok := InForce(date, price, regular, promoEnd, m.From, m.Window); ok {
		m.stores[i].from, m.stores[i].inFrom = r, true
	}
	if _, r, _, ok := InForce(date, price, regular, promoEnd, m.To, m.Window); ok {
		m.stores[i].to, m.stores[i].inTo = r, true
	}
}

// Moved reports whether a store with a price in force on both days has on
// To a regular price in force under its regular price on From (down), or
// above it (!down).
func (m *StoreMove) Moved(down bool) bool {
	for _, s := range m.stores {
		if s.inFrom && s.inTo && (down && s.to < s.from || !down && s.to > s.from) {
			return true
		}
	}
	return false
}
