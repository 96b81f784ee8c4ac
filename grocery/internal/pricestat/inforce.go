package pricestat

// AtDay returns the prices an observation at price and regular price,
// with promoEnd its promotion's stated last day (0 when none), stands for
// on day: a promotion whose stated end is before day is no longer in
// force, so the price is then the regular price and ended is the
// promotion's end (0 otherwise). A promotion without an end stays in
// force. The regular price returned is never below the price.
func AtDay(price, regular uint32, promoEnd, day int32) (p, r uint32, ended int32) {
	r = max(regular, price)
	if price < r && promoEnd != 0 && promoEnd < day {
		return r, r, promoEnd
	}
	return price, r, 0
}

// InForce returns a store's price in force on day, from its latest
// observation on or before day, taken on date: the observation's prices
// on day (AtDay), while it is less than window days older than day (ok
// false otherwise).
func InForce(date int32, price, regular uint32, promoEnd, day, window int32) (p, r uint32, ended int32, ok bool) {
	if date > day || date <= day-window {
		return 0, 0, 0, false
	}
	p, r, ended = AtDay(price, regular, promoEnd, day)
	return p, r, ended, true
}

// StoreObs is a store's latest observation of a SKU on or before a day:
// its date, prices and promotion end (0 when none).
type StoreObs struct {
	Date           int32
	Price, Regular uint32
	PromoEnd       int32
}

// BannerPrice is a banner SKU's price in force on a day, over the stores
// whose price is in force that day (InForce).
type BannerPrice struct {
	// Price is the most common of the stores' prices in force, the lower
	// on a tie; Regular likewise of their regular prices, never below
	// Price; Min and Max the lowest and highest price in force.
	Price, Regular, Min, Max uint32
	// PromoEnd is the latest stated end of the promotions in force at
	// Price, when Price is a promotion (Price < Regular); PromoEnded, when
	// it is not, the latest stated end of the stores' promotions that
	// ended before the day.
	PromoEnd, PromoEnded int32
	Stores               int   // stores whose price is in force
	Newest               int32 // the newest of their observations
	// Expires is the first day after the day on which the price can
	// change with no new observation: a store's observation leaves the
	// window, or a promotion in force ends.
	Expires int32
}

// InForceOn computes a banner SKU's price in force on day from its
// stores' latest observations on or before day (one each), with window
// the visit window; ok is false when no store's price is in force. buf
// is scratch space, returned grown for the next call.
func InForceOn(obs []StoreObs, day, window int32, buf []uint32) (bp BannerPrice, ok bool, out []uint32) {
	prices := buf[:0]
	for _, o := range obs {
		if p, _, _, in := InForce(o.Date, o.Price, o.Regular, o.PromoEnd, day, window); in {
			prices = append(prices, p)
		}
	}
	if len(prices) == 0 {
		return BannerPrice{}, false, prices
	}
	bp.Stores = len(prices)
	bp.Price, bp.Min, bp.Max = Mode(prices)
	prices = prices[:0]
	for _, o := range obs {
		if _, r, _, in := InForce(o.Date, o.Price, o.Regular, o.PromoEnd, day, window); in {
			prices = append(prices, r)
		}
	}
	bp.Regular, _, _ = Mode(prices)
	bp.Regular = max(bp.Regular, bp.Price)
	for _, o := range obs {
		p, r, ended, in := InForce(o.Date, o.Price, o.Regular, o.PromoEnd, day, window)
		if !in {
			continue
		}
		bp.Newest = max(bp.Newest, o.Date)
		switch {
		case bp.Price < bp.Regular && p == bp.Price && p < r:
			bp.PromoEnd = max(bp.PromoEnd, o.PromoEnd)
		case bp.Price == bp.Regular:
			bp.PromoEnded = max(bp.PromoEnded, ended)
		}
		bp.Expires = minDay(bp.Expires, o.Date+window)
		if p < r && o.PromoEnd != 0 {
			bp.Expires = minDay(bp.Expires, o.PromoEnd+1)
		}
	}
	return bp, true, prices
}

// minDay returns the earlier of two days, 0 being none.
func minDay(a, b int32) int32 {
	if a == 0 {
		return b
	}
	return min(a, b)
}
