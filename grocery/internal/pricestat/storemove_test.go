package pricestat

import "testing"

// TestStoreMove works a banner SKU's stores by hand, comparing day 20
// with day 30 in a 14-day visit window (regular prices in cents).
func TestStoreMove(t *testing.T) {
	type obs struct {
		date           int32
		store          uint32
		price, regular uint32
	}
	moved := func(down bool, observations ...obs) bool {
		var m StoreMove
		m.Reset(20, 30, 14)
		for _, o := range observations {
			m.Observe(o.date, o.store, o.price, o.regular, 0)
		}
		return m.Moved(down)
	}
	// Store 1 cut its own regular price, 500 on day 15 to 450 on day 28.
	cut := []obs{{15, 1, 500, 500}, {18, 2, 500, 500}, {28, 1, 450, 450}, {29, 2, 500, 500}}
	if !moved(true, cut...) || moved(false, cut...) {
		t.Error("store 1's cut: want a move down, not up")
	}
	// Store 2 is level; store 3 (400 from day 25) was not in force on day
	// 20, store 4 (600 on day 5) not in force then either: the banner's
	// price moves with them, but no store moved its own.
	visits := []obs{{5, 4, 600, 600}, {18, 2, 500, 500}, {25, 3, 400, 400}, {29, 2, 500, 500}, {30, 4, 550, 550}}
	if moved(true, visits...) || moved(false, visits...) {
		t.Error("stores entering and leaving the window: want no move")
	}
	// Store 5 raised its regular price; on promotion on day 29, its
	// regular price in force is still the raised one.
	raise := []obs{{19, 5, 500, 500}, {29, 5, 480, 550}}
	if !moved(false, raise...) || moved(true, raise...) {
		t.Error("store 5's raise under a promotion: want a move up, not down")
	}
	// Store 6's observation of day 20 is 14 days old on day 34: out of
	// the window by then, so it is compared with nothing on day 34.
	var m StoreMove
	m.Reset(20, 34, 14)
	m.Observe(20, 6, 500, 500, 0)
	m.Observe(21, 7, 500, 500, 0)
	m.Observe(33, 7, 450, 450, 0)
	if m.Moved(true) {
		t.Error("store 7 not in force on day 20, store 6 not on day 34: want no move")
	}
}
