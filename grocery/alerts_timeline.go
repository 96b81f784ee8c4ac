package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// alertLookback is how many days before the first day evaluated a rule's
// state is read from (whether it is armed: see rearm): a price that stayed
// between a threshold and its re-arming margin for longer than this counts
// as re-armed.
const alertLookback = 30

// rearmPct is the margin, in percent of the threshold (or of the price a
// move fired at), that a price must move back past before a rule fires
// again on the same series; see the Alert* conditions.
const rearmPct = 2

// rearm returns the margin of a threshold or price in cents: rearmPct
// percent of it, rounded up, at least a cent.
func rearm(c uint32) uint32 { return max(1, (c*rearmPct+99)/100) }

// alertDay is one day of a series' timeline of prices in force (see
// timeline): a day its banner's price in force may have changed.
type alertDay struct {
	date    int32
	price   uint32 // the banner's price in force (the offer's); 0 on a gone day
	regular uint32
	promo   bool // price is under regular: a promotion in force
	gone    bool // no store's price is in force: no store observed it in the 14 days up to date
	// fell and rose: a store whose price is in force on the timeline's
	// day before and on this one has a lower (higher) price in force on
	// this one. A move of the banner's price with neither comes only from
	// which stores' prices are in force, and fires no move condition.
	fell, rose bool
}

// timeline is the read of one series for the alert rules: its prices in
// force on every day they may change, as the offers compute them, from
// the stores' latest observations (pricestat.InForceOn).
type timeline struct {
	days    []alertDay
	earlier bool // the series has days before those read: it was listed before

	obs    []pricestat.StoreObs
	stores []uint32 // the store of each obs
	inDay  []uint32 // each store's price in force on the timeline's last day, 0 for none
	byDate []dayObs // the days read, oldest first
	buf    []uint32
}

// dayObs is one observation day read: its entries, copied.
type dayObs struct {
	date    int32
	entries []storage.Entry
}

// read reads series k from the days that bear on from (alertLookback
// days before it, and the 14 before those for the prices then in force)
// to asOf and builds the timeline: a day on each observation day and on
// each day the price in force changes without one (a store's observation
// leaves the window, a promotion ends), up to asOf. A day on which no
// store's price is in force is gone; the timeline goes on at the next
// observation day.
func (t *timeline) read(tx *storage.Tx, k seriesKey, from, asOf int32) error {
	t.days, t.byDate, t.earlier = t.days[:0], t.byDate[:0], false
	start := from - alertLookback - freshDays + 1
	var last int32 // the newest day before start
	err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{To: start - 1, NewestFirst: true, SummaryOnly: true}, func(d *storage.Day) error {
		t.earlier, last = true, d.Date
		return storage.ErrStop
	})
	if err != nil {
		return err
	}
	err = tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{From: start, To: asOf}, func(d *storage.Day) error {
		var entries []storage.Entry
		if i := len(t.byDate); i < cap(t.byDate) {
			entries = t.byDate[:i+1][i].entries[:0]
		}
		t.byDate = append(t.byDate, dayObs{date: d.Date, entries: append(entries, d.Entries...)})
		return nil
	})
	if err != nil {
		return err
	}
	t.obs, t.stores, t.inDay = t.obs[:0], t.stores[:0], t.inDay[:0]
	if t.earlier && last+freshDays <= asOf && (len(t.byDate) == 0 || t.byDate[0].date-last >= freshDays) {
		// Every store's price before start had left the window by then.
		t.days = append(t.days, alertDay{date: last + freshDays, gone: true})
	}
	next := 0 // the next observation day to take in
	for next < len(t.byDate) {
		day := t.byDate[next].date
		for day <= asOf {
			for next < len(t.byDate) && t.byDate[next].date <= day {
				t.take(&t.byDate[next])
				next++
			}
			var bp pricestat.BannerPrice
			var ok bool
			bp, ok, t.buf = pricestat.InForceOn(t.obs, day, freshDays, t.buf)
			if !ok {
				t.days = append(t.days, alertDay{date: day, gone: true})
				clear(t.inDay)
				break
			}
			ad := alertDay{date: day, price: bp.Price, regular: bp.Regular, promo: bp.Price < bp.Regular}
			ad.fell, ad.rose = t.moved(day)
			t.days = append(t.days, ad)
			day = bp.Expires
			if next < len(t.byDate) {
				day = min(day, t.byDate[next].date)
			}
		}
		if day > asOf {
			break
		}
	}
	return nil
}

// moved takes the stores' prices in force on day, and reports whether a
// store in force on the timeline's day before and on day has a lower
// (fell) or higher (rose) price in force on day.
func (t *timeline) moved(day int32) (fell, rose bool) {
	for len(t.inDay) < len(t.obs) {
		t.inDay = append(t.inDay, 0)
	}
	for i, o := range t.obs {
		p, _, _, in := pricestat.InForce(o.Date, o.Price, o.Regular, o.PromoEnd, day, freshDays)
		if !in {
			p = 0
		}
		if before := t.inDay[i]; before != 0 && p != 0 {
			fell, rose = fell || p < before, rose || p > before
		}
		t.inDay[i] = p
	}
	return fell, rose
}

// take makes a day's observations the latest of their stores.
func (t *timeline) take(d *dayObs) {
	for _, e := range d.entries {
		o := pricestat.StoreObs{Date: d.date, Price: e.Price, Regular: e.Regular, PromoEnd: e.PromoEnd}
		i := 0
		for i < len(t.stores) && t.stores[i] != e.Store {
			i++
		}
		if i == len(t.stores) {
			t.stores = append(t.stores, e.Store)
			t.obs = append(t.obs, o)
			continue
		}
		t.obs[i] = o
	}
}

// fell reports whether to is at least bp hundredths of a percent under
// from: (from - to) / from * 10000 >= bp; rose, above it.
func fell(from, to uint32, bp int64) bool {
	return to < from && int64(from-to)*10000 >= bp*int64(from)
}

func rose(from, to uint32, bp int64) bool {
	return to > from && int64(to-from)*10000 >= bp*int64(from)
}

// ruleState is where a rule stands on one series as its timeline is
// walked: whether it may fire, and for the moves the price that re-arms it.
type ruleState struct {
	armed bool
	ref   uint32 // price_drop_pct: the lowest price since it fired; rise_pct: the highest
}

// newRuleState is a rule's state at the start of a timeline: armed, but
// for listed on a series listed before.
func newRuleState(r *storage.AlertRule, earlier bool) ruleState {
	return ruleState{armed: !(r.Condition == AlertListed && earlier)}
}

// step advances rule r's state over day cur of a series, after prev (nil:
// the timeline's first day), and reports whether the rule fires on cur;
// see the Alert* conditions for what each fires and re-arms on.
func step(r *storage.AlertRule, st *ruleState, prev *alertDay, cur alertDay, earlier bool) bool {
	fire := func() bool {
		f := st.armed
		st.armed = false
		st.ref = cur.price
		return f
	}
	switch r.Condition {
	case AlertDelisted:
		if cur.gone {
			return fire()
		}
		st.armed = true
		return false
	case AlertListed:
		if cur.gone {
			return false
		}
		return fire()
	case AlertBackInStock:
		if cur.gone {
			st.armed = true
			return false
		}
		if prev == nil && earlier {
			st.armed = false // listed before the days read, and in force on the first
		}
		return fire()
	}
	if cur.gone {
		st.armed = true
		return false
	}
	t := uint32(r.Threshold)
	switch r.Condition {
	case AlertPriceBelow:
		if cur.price <= t {
			return fire()
		}
		if cur.price > t+rearm(t) {
			st.armed = true
		}
	case AlertPriceAbove:
		if cur.price >= t {
			return fire()
		}
		if cur.price+rearm(t) < t {
			st.armed = true
		}
	case AlertPromoStart:
		if cur.promo {
			return fire()
		}
		st.armed = true
	case AlertPriceDropPct:
		if prev != nil && !prev.gone && cur.fell && fell(prev.price, cur.price, r.Threshold) && (st.armed || fell(st.ref, cur.price, r.Threshold)) {
			st.armed, st.ref = false, cur.price
			return true // armed, or a further move from the price it fired at
		}
		if !st.armed {
			st.ref = min(st.ref, cur.price)
			st.armed = cur.price > st.ref+rearm(st.ref)
		}
	case AlertRisePct:
		if prev != nil && !prev.gone && cur.rose && rose(prev.price, cur.price, r.Threshold) && (st.armed || rose(st.ref, cur.price, r.Threshold)) {
			st.armed, st.ref = false, cur.price
			return true
		}
		if !st.armed {
			st.ref = max(st.ref, cur.price)
			st.armed = cur.price+rearm(st.ref) < st.ref
		}
	}
	return false
}

// undercutDay is one day of a barcode's prices in force in a province for
// a competitor_undercut rule: the rule's banner's price (the lowest over
// its SKUs of the barcode) and the lowest other banner's, with its series.
type undercutDay struct {
	date        int32
	own, other  uint32 // 0: no price in force
	otherKey    seriesKey
	otherBefore *alertDay // the undercutting series' previous timeline day with a price, nil when none
}

// undercutDays reads the timelines of every banner SKU of rule r's barcode
// in its province from from (and what bears on it) to asOf, and returns
// the days on which any of them may change, oldest first.
func undercutDays(tx *storage.Tx, r *storage.AlertRule, from, asOf int32) ([]undercutDay, error) {
	var lines []struct {
		key  seriesKey
		days []alertDay
	}
	err := tx.SKUsOf(r.GTIN, func(banner, sku string) error {
		var t timeline
		k := seriesKey{Banner: banner, SKU: sku, Province: r.Province}
		if err := t.read(tx, k, from, asOf); err != nil {
			return err
		}
		if len(t.days) > 0 {
			lines = append(lines, struct {
				key  seriesKey
				days []alertDay
			}{k, t.days})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var dates []int32
	for _, l := range lines {
		for _, d := range l.days {
			dates = append(dates, d.date)
		}
	}
	slices.Sort(dates)
	dates = slices.Compact(dates)
	out := make([]undercutDay, 0, len(dates))
	at := make([]int, len(lines)) // each line's day in force on the date
	for i := range at {
		at[i] = -1
	}
	for _, date := range dates {
		u := undercutDay{date: date}
		for i, l := range lines {
			for at[i]+1 < len(l.days) && l.days[at[i]+1].date <= date {
				at[i]++
			}
			if at[i] < 0 || l.days[at[i]].gone {
				continue
			}
			p := l.days[at[i]].price
			if l.key.Banner == r.Banner {
				if u.own == 0 || p < u.own {
					u.own = p
				}
				continue
			}
			if u.other == 0 || p < u.other || p == u.other && l.key.Banner < u.otherKey.Banner {
				u.other, u.otherKey, u.otherBefore = p, l.key, nil
				if j := at[i] - 1; j >= 0 && !l.days[j].gone {
					u.otherBefore = &l.days[j]
				}
			}
		}
		out = append(out, u)
	}
	return out, nil
}

// undercut advances a competitor_undercut rule's state over day u and
// reports whether it fires there: another banner's price in force is
// under the rule's banner's. It re-arms once the lowest other price is at
// or above the banner's by the margin of its price, or either has no
// price in force.
func undercut(st *ruleState, u undercutDay) bool {
	switch {
	case u.own == 0 || u.other == 0:
		st.armed = true
	case u.other < u.own:
		f := st.armed
		st.armed = false
		return f
	case u.other >= u.own+rearm(u.own):
		st.armed = true
	}
	return false
}
