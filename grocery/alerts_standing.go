package grocery

import (
	"cmp"
	"context"
	"slices"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// AlertStanding is where a rule stands on the latest data, as CreateAlert
// and EvaluateAlert evaluate it: each series it watches (banner SKU in
// its province) observed within the 14 days up to the data set's latest
// observation day (AsOf), at its price in force on AsOf (as its offer:
// the most common of its stores' prices in force, a promotion past its
// stated end at its regular price), with whether the condition holds.
//
// What holds on a series now: for price_below, its price in force is at
// or under the threshold; for price_above, at or over it; for
// promo_start, it is on promotion (its price in force under its regular
// price), whatever the days before were. The moves (price_drop_pct,
// rise_pct, back_in_stock, listed) hold when the rule fires on the
// series' timeline on or after its latest observation day (as an import
// would record it); they hold at creation on no series, since the moves
// before a rule existed are not news to it. A series off the shelf has no
// standing: delisted is recorded by imports and EvaluateAlerts.
//
// When the condition holds on one series or more, one event is recorded
// for the rule, on the cheapest such series (then the latest day), unless
// the rule has an event for that observation day already: an import, an
// earlier evaluation or its creation recorded it (one event per rule and
// day). Event is then that day's event, new or earlier, and Recorded says
// whether this call recorded it. A paused rule records nothing.
type AlertStanding struct {
	AsOf     Date                  `json:"as_of"`    // the data set's latest observation day; zero with no data
	Holds    bool                  `json:"holds"`    // the condition holds on at least one series
	Recorded bool                  `json:"recorded"` // this call recorded Event
	Event    *AlertEvent           `json:"event"`    // the rule's event for the day it holds on, null when none
	Series   []AlertSeriesStanding `json:"series"`   // cheapest first; empty, never null, when nothing it watches was observed in the 14 days
	Currency string                `json:"currency"`
}

// AlertSeriesStanding is one watched series on its latest observation day.
type AlertSeriesStanding struct {
	Banner        string `json:"banner"`
	BannerName    string `json:"banner_name"`
	SKU           string `json:"external_sku"`
	Price         Cents  `json:"price"`          // the price in force on AsOf (the offer's)
	RegularPrice  Cents  `json:"regular_price"`  // the regular price in force
	OnPromo       bool   `json:"on_promo"`       // Price is under RegularPrice
	ObservedAt    Date   `json:"observed_at"`    // the series' latest observation day
	PreviousPrice *Cents `json:"previous_price"` // the previous timeline day's price in force, null when none
	Holds         bool   `json:"holds"`          // the condition holds on this series
}

// standingMode is what an evaluation of one rule may record.
type standingMode int8

const (
	atCreation standingMode = iota // CreateAlert: only the state conditions
	onDemand                       // EvaluateAlert: every condition
)

// holdsNow reports whether r's condition, one statesNow tests, holds on
// a series whose price in force is now's.
func holdsNow(r *storage.AlertRule, now alertDay) bool {
	switch r.Condition {
	case AlertPriceBelow:
		return now.price <= uint32(r.Threshold)
	case AlertPriceAbove:
		return now.price >= uint32(r.Threshold)
	}
	return now.promo
}

// undercutNow reports whether competitor_undercut rule r holds on asOf:
// another banner's price in force of its barcode is under its banner's,
// whatever the days before were; t names the lowest such.
func undercutNow(tx *storage.Tx, r *storage.AlertRule, asOf int32) (t alertTrigger, ok bool, err error) {
	days, err := undercutDays(tx, r, asOf, asOf)
	if err != nil || len(days) == 0 {
		return t, false, err
	}
	u := days[len(days)-1]
	if u.own == 0 || u.other == 0 || u.other >= u.own {
		return t, false, nil
	}
	return u.trigger(r), true, nil
}

// statesNow reports whether r's condition is one holdsNow tests on the
// price in force (the others are moves between days).
func statesNow(r *storage.AlertRule) bool {
	switch r.Condition {
	case AlertPriceBelow, AlertPriceAbove, AlertPromoStart, AlertCompetitorUndercut:
		return true
	}
	return false
}

// standing evaluates rule r on the latest data (see AlertStanding), in a
// read transaction, and records its event, with the reason of mode, once
// that is over (alertStore.record).
func (s *Service) standing(ctx context.Context, ids alertstore.IDs, r *storage.AlertRule, mode standingMode) (*AlertStanding, error) {
	res := &AlertStanding{Series: []AlertSeriesStanding{}, Currency: Currency}
	reason := AlertReasonAtCreation
	if mode == onDemand {
		reason = AlertReasonEvaluate
	}
	var best *alertTrigger
	var batch alertBatch
	err := s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		res.AsOf = Date(asOf)
		if asOf == 0 {
			return nil
		}
		triggers, err := standings(tx, r, asOf, mode, res)
		if err != nil || len(triggers) == 0 {
			return err
		}
		// One event: the cheapest series, then the latest day.
		b := slices.MinFunc(triggers, func(a, b alertTrigger) int {
			return cmp.Or(cmp.Compare(a.cur.price, b.cur.price), cmp.Compare(b.cur.date, a.cur.date), cmp.Compare(a.seriesRank, b.seriesRank))
		})
		best = &b
		if r.Paused {
			return nil
		}
		ev := alertEval{tx: tx, store: s.alerts, account: r.Account, now: s.now(), reason: reason}
		batch = ev.events([]alertTrigger{b})
		return nil
	})
	if err != nil {
		return nil, err
	}
	n, err := s.alerts.record(ctx, batch)
	if err != nil {
		return nil, err
	}
	res.Recorded = n == 1
	if best == nil {
		return res, nil
	}
	// The rule's event of that day, recorded now or before: events list
	// newest first, so it is among the first.
	err = s.alerts.events(ctx, r.Account, func(e *storage.AlertEvent) error {
		if e.RuleID == r.ID && e.Day == best.cur.date {
			ae := alertEvent(ids, e)
			res.Event = &ae
			return storage.ErrStop
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// standings sets res's series (by price) and Holds from rule r's series
// on asOf, and returns the triggers of those where it holds.
func standings(tx *storage.Tx, r *storage.AlertRule, asOf int32, mode standingMode, res *AlertStanding) ([]alertTrigger, error) {
	keys, err := ruleSeries(tx, r)
	if err != nil {
		return nil, err
	}
	var triggers []alertTrigger
	var tl timeline
	for i, k := range keys {
		if err := tl.read(tx, k, asOf, asOf); err != nil {
			return nil, err
		}
		st, t, ok := seriesStanding(r, k, i, &tl, mode)
		if !ok {
			continue // no store's price in force on asOf
		}
		res.Series = append(res.Series, st)
		if st.Holds {
			res.Holds = true
			var sku storage.SKU
			if found, err := tx.SKU(k.Banner, k.SKU, &sku); err != nil {
				return nil, err
			} else if found {
				t.gtin = sku.GTIN
			}
			triggers = append(triggers, t)
		}
	}
	if r.Condition == AlertCompetitorUndercut {
		t, ok, err := undercutNow(tx, r, asOf)
		if err != nil {
			return nil, err
		}
		if ok {
			res.Holds = true
			for j := range res.Series {
				res.Series[j].Holds = uint32(res.Series[j].Price) > t.cur.price
			}
			triggers = append(triggers, t)
		}
	}
	slices.SortStableFunc(res.Series, func(a, b AlertSeriesStanding) int { return cmp.Compare(a.Price, b.Price) })
	return triggers, nil
}

// ruleSeries returns the series rule r watches: its banner SKU's, or
// those of its barcode (under its banner when it names one).
func ruleSeries(tx *storage.Tx, r *storage.AlertRule) ([]seriesKey, error) {
	if r.GTIN == "" {
		return []seriesKey{{Banner: r.Banner, SKU: r.SKU, Province: r.Province}}, nil
	}
	var keys []seriesKey
	err := tx.SKUsOf(r.GTIN, func(banner, sku string) error {
		if r.Banner == "" || r.Banner == banner {
			keys = append(keys, seriesKey{Banner: banner, SKU: sku, Province: r.Province})
		}
		return nil
	})
	return keys, err
}

// seriesStanding returns the standing of rule r on series k (the i-th it
// watches), whose timeline tl reaches the latest day, and the trigger of
// its event when it holds; false when no store's price is in force on
// the latest day. An undercut is left to the caller, against the other
// banners.
func seriesStanding(r *storage.AlertRule, k seriesKey, i int, tl *timeline, mode standingMode) (AlertSeriesStanding, alertTrigger, bool) {
	n := len(tl.days)
	if n == 0 || tl.days[n-1].gone {
		return AlertSeriesStanding{}, alertTrigger{}, false
	}
	now := tl.days[n-1] // the price in force on asOf: no change after it
	var prev *alertDay
	if n > 1 {
		prev = &tl.days[n-2]
	}
	st := AlertSeriesStanding{Banner: k.Banner, BannerName: bannerName(k.Banner), SKU: k.SKU, Price: Cents(now.price),
		RegularPrice: Cents(now.regular), OnPromo: now.promo, ObservedAt: Date(tl.byDate[len(tl.byDate)-1].date)}
	if prev != nil && !prev.gone {
		pp := Cents(prev.price)
		st.PreviousPrice = &pp
	}
	var t alertTrigger
	switch {
	case r.Condition == AlertCompetitorUndercut:
		// Against the other banners: the caller's.
	case statesNow(r):
		st.Holds = holdsNow(r, now)
		t = trigger(r, k, "", prev, now, i)
	case mode == onDemand:
		// A move fires on the days since the latest observation day.
		rs := newRuleState(r, tl.earlier)
		var before *alertDay
		for j := range tl.days {
			cur := &tl.days[j]
			if step(r, &rs, before, *cur, tl.earlier) && cur.date >= int32(st.ObservedAt) {
				st.Holds, t = true, trigger(r, k, "", before, *cur, i)
			}
			before = cur
		}
	}
	return st, t, true
}

// EvaluateAlert evaluates one rule of the account in ctx on the latest
// data, at once, and returns it with its Standing: when its condition
// holds on the latest day (see AlertStanding for each condition), one
// event with reason evaluate is recorded, unless the rule has an event
// for that observation day already; calling it again the same day
// records nothing more and answers that day's event with Recorded false.
// A paused rule is evaluated but records nothing.
//
// It returns EINVALIDARGUMENT for an id not of the form alr_ and 16 hexadecimal
// digits, ENOTFOUND when the account has no such rule (another account's
// rule is not found either), EUNAUTHENTICATED or ENOTFOUND for a missing
// or unknown account, and EUNAVAILABLE when the rules are in a shared store that
// does not answer.
func (s *Service) EvaluateAlert(ctx context.Context, id string) (*AlertRule, error) {
	rec, ids, err := s.ownRule(ctx, id)
	if err != nil {
		return nil, err
	}
	out := alertRule(ids, rec)
	if out.Standing, err = s.standing(ctx, ids, rec, onDemand); err != nil {
		return nil, err
	}
	return &out, nil
}
