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
