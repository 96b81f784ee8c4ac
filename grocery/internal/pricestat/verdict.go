package pricestat

// The price verdict: is a banner SKU's price in force on a day a good
// price? It compares the price with two figures over the days before it,
// both from the banner's daily prices in force (InForceOn):
//
//   - Low30: the lowest price in force over the LowDays days before the
//     day (the day itself left out); none when no price was in force on
//     any of them.
//   - Typical: the most common regular price in force over the
//     TypicalDays days up to and including the day (the lower on a tie),
//     counting each day with a price in force once.
//
// and says one of four verdicts, the first that holds:
//
//  1. VerdictLowest: there is a Low30, the price is at or below it, and
//     below Typical.
//  2. VerdictPromotion: the price is a promotion (below its regular price).
//  3. VerdictAbove: the price is above Typical.
//  4. VerdictUsual: otherwise.

// The windows of the verdict, in days.
const (
	LowDays     = 30
	TypicalDays = 60
)

// The verdicts.
const (
	VerdictLowest    = "lowest_in_30_days"
	VerdictPromotion = "on_promotion"
	VerdictUsual     = "usual_price"
	VerdictAbove     = "above_usual"
)

// Verdict returns the verdict of a price with its regular price, its
// Low30 (0 when none) and Typical.
func Verdict(price, regular, low30, typical uint32) string {
	switch {
	case low30 != 0 && price <= low30 && price < typical:
		return VerdictLowest
	case price < regular:
		return VerdictPromotion
	case price > typical:
		return VerdictAbove
	}
	return VerdictUsual
}

// Window holds a banner SKU's daily prices in force over the
// TypicalDays days up to a day, oldest first: Price[i] and Regular[i]
// of day (last - TypicalDays + 1 + i), 0 when no price was in force.
type Window struct {
	Price, Regular [TypicalDays]uint32
}

// Set records the price in force on the i-th day of the window.
func (w *Window) Set(i int, price, regular uint32) { w.Price[i], w.Regular[i] = price, regular }

// Clear forgets every day.
func (w *Window) Clear() { *w = Window{} }

// Figures returns the Low30 (0 when none) and Typical (0 when no day has
// a price in force) of the window's last day.
func (w *Window) Figures() (low30, typical uint32) {
	for _, p := range w.Price[TypicalDays-1-LowDays : TypicalDays-1] {
		if p != 0 && (low30 == 0 || p < low30) {
			low30 = p
		}
	}
	// A banner SKU has few regular prices in 60 days: count them in a
	// list, without a map or a sort.
	var vals [TypicalDays]struct {
		r uint32
		n int
	}
	distinct, best := 0, 0
	for _, r := range w.Regular {
		if r == 0 {
			continue
		}
		i := 0
		for i < distinct && vals[i].r != r {
			i++
		}
		if i == distinct {
			vals[i].r = r
			distinct++
		}
		vals[i].n++
		if n := vals[i].n; n > best || n == best && r < typical {
			best, typical = n, r
		}
	}
	return low30, typical
}

// Changes returns the first of the limit days after the window's last
// day on which its figures differ from the last day's when the price in
// force stays price and regular every day (1: the next day), 0 when they
// hold through them all. It moves the window on (each new day at price
// and regular).
func (w *Window) Changes(price, regular uint32, limit int) int {
	low, typical := w.Figures()
	for k := 1; k <= limit; k++ {
		copy(w.Price[:], w.Price[1:])
		copy(w.Regular[:], w.Regular[1:])
		w.Price[TypicalDays-1], w.Regular[TypicalDays-1] = price, regular
		if l, t := w.Figures(); l != low || t != typical {
			return k
		}
	}
	return 0
}

// Follow follows a banner SKU's observations day by day, oldest first,
// keeping each store's latest, to give its price in force on each day.
// Between observations the price in force changes only on its Expires
// day, so a day before it gets the last answer again.
type Follow struct {
	stores []uint32
	obs    []StoreObs
	buf    []uint32
	// On's last answer, for day to window, while no observation came
	// since (valid).
	last        BannerPrice
	lastOK      bool
	valid       bool
	day, window int32
}

// Reset forgets every store.
func (f *Follow) Reset() { f.stores, f.obs, f.valid = f.stores[:0], f.obs[:0], false }

// Observe takes a store's observation, newer than any it took of the
// store before.
func (f *Follow) Observe(store uint32, o StoreObs) {
	f.valid = false
	for i, s := range f.stores {
		if s == store {
			f.obs[i] = o
			return
		}
	}
	f.stores = append(f.stores, store)
	f.obs = append(f.obs, o)
}

// On returns the price in force on day (InForceOn) over the observations
// taken, none of which may be after day.
func (f *Follow) On(day, window int32) (BannerPrice, bool) {
	// No store in force stays so until an observation; a price in force
	// holds until it expires.
	if f.valid && window == f.window && day >= f.day && (!f.lastOK || day < f.last.Expires) {
		return f.last, f.lastOK
	}
	bp, ok, buf := InForceOn(f.obs, day, window, f.buf)
	f.buf = buf
	f.last, f.lastOK, f.valid, f.day, f.window = bp, ok, true, day, window
	return bp, ok
}
