package grocery

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// Alert conditions. A rule watches one series or several: a banner SKU in
// a province (banner + sku), or every banner SKU linked to a barcode in a
// province (upc, optionally restricted to one banner). Each series is
// evaluated on its own, on its timeline of prices in force: the banner's
// price in force (the offer's: the most common of its stores' prices in
// force, a promotion past its stated end at its regular price) on every
// day it may change, which is each observation day and each day a store's
// observation leaves the 14-day window or a promotion ends. A day when no
// store's price is in force any more is the day the series left the shelf
// (gone). A day is on promotion when its price in force is under its
// regular price in force.
//
// No rule fires again and again while a price hovers at its threshold:
// after firing on a series, a rule re-arms only once the price has moved
// back past the threshold by a margin of 2% (rearmPct) of it, as each
// condition says, or the series left the shelf; a rule's state is read
// from the 30 days before the days evaluated (alertLookback).
const (
	// AlertPriceBelow fires on a day whose price is at or below the
	// threshold (dollars); it re-arms on a day whose price is above the
	// threshold by more than the margin.
	AlertPriceBelow = "price_below"
	// AlertPriceAbove fires on a day whose price is at or above the
	// threshold (dollars); it re-arms on a day whose price is below the
	// threshold by more than the margin.
	AlertPriceAbove = "price_above"
	// AlertPriceDropPct fires on a day whose price is at least threshold
	// percent below the previous day's: (previous - price) / previous *
	// 100 >= threshold, when a store whose price is in force on both days
	// lowered its own (a move that comes only from which stores' prices
	// are in force is none); it re-arms once the price is above the lowest
	// price since it fired by more than the margin of that price.
	AlertPriceDropPct = "price_drop_pct"
	// AlertRisePct fires on a day whose price is at least threshold
	// percent above the previous day's: (price - previous) / previous *
	// 100 >= threshold, when a store whose price is in force on both days
	// raised its own; it re-arms once the price is below the highest
	// price since it fired by more than the margin of that price.
	AlertRisePct = "rise_pct"
	// AlertPromoStart fires on a day on promotion; it re-arms on a day
	// that is not.
	AlertPromoStart = "promo_start"
	// AlertBackInStock fires on a day the series has a price in force
	// after a day it left the shelf, or on the first day it is observed at
	// all (new in the province).
	AlertBackInStock = "back_in_stock"
	// AlertListed fires on the first day the series is observed at all:
	// a new listing in the province. It fires once.
	AlertListed = "listed"
	// AlertDelisted fires on the day the series leaves the shelf: 14 days
	// after the last observation of any of its stores, when the data set
	// reaches that day; it re-arms when the series is observed again.
	AlertDelisted = "delisted"
	// AlertCompetitorUndercut watches a barcode (upc) at the rule's banner
	// against every other banner in the province: it fires on a day the
	// lowest other banner's price in force of the barcode goes under the
	// banner's own (the lowest over its SKUs of the barcode); it re-arms
	// once the lowest other price is at or above the banner's by the
	// margin of the banner's price, or either has no price in force. Its
	// event names the competitor's SKU and price.
	AlertCompetitorUndercut = "competitor_undercut"
)

// alertConditions lists the conditions in the order errors name them.
var alertConditions = []string{AlertPriceBelow, AlertPriceAbove, AlertPriceDropPct, AlertRisePct, AlertPromoStart,
	AlertBackInStock, AlertListed, AlertDelisted, AlertCompetitorUndercut}

// MaxAlertRules is the number of alert rules an account may hold. Creating
// one more is ECONFLICT, not EINVALIDARGUMENT: the request is well formed and
// succeeds once a rule is deleted.
const MaxAlertRules = 1000

// NewContextWithAccount returns a copy of ctx that acts as the named
// account without an API key. It is for trusted local callers only (the
// CLI, the admin socket), which name an account on the command line; a
// server authenticates a key and uses NewContextWithPrincipal instead.
// Methods that act for an account return ENOTFOUND when it does not exist.
func NewContextWithAccount(ctx context.Context, account string) context.Context {
	return NewContextWithPrincipal(ctx, &Principal{Account: account})
}

// accountOf returns the account ctx acts for. It returns EUNAUTHENTICATED
// when ctx carries none and ENOTFOUND when it does not exist.
func (s *Service) accountOf(ctx context.Context) (string, error) {
	p := PrincipalFromContext(ctx)
	if p == nil || p.Account == "" {
		return "", Errorf(EUNAUTHENTICATED, "no account: alert rules belong to an account, given by an API key (or NewContextWithAccount)")
	}
	ok, err := s.access.AccountExists(ctx, p.Account)
	if err != nil {
		return "", fromFault(err)
	}
	if !ok {
		return "", Errorf(ENOTFOUND, "account %q does not exist: create it with a key first", p.Account)
	}
	return p.Account, nil
}

// AlertInput holds the arguments of CreateAlert: what to watch, either UPC
// (with Banner optionally restricting it to one banner) or Banner + SKU,
// in Province, and when to fire.
type AlertInput struct {
	Name      string   `json:"name"`
	UPC       string   `json:"upc,omitempty"`
	Banner    string   `json:"banner,omitempty"`
	SKU       string   `json:"sku,omitempty"`
	Province  string   `json:"province"`
	Condition string   `json:"condition"`           // price_below, price_drop_pct, promo_start or back_in_stock
	Threshold *float64 `json:"threshold,omitempty"` // dollars for price_below, percent for price_drop_pct; none for the others
}

// AlertRule is a stored alert rule. UPC and GTIN are set for a rule on a
// barcode, SKU for a rule on a banner SKU; Banner for the latter and for a
// barcode rule restricted to one banner.
type AlertRule struct {
	ID        string    `json:"id"` // "alr_" and 16 hexadecimal digits
	Name      string    `json:"name"`
	UPC       string    `json:"upc,omitempty"`
	GTIN      string    `json:"gtin,omitempty"`
	Banner    string    `json:"banner,omitempty"`
	SKU       string    `json:"sku,omitempty"`
	Province  string    `json:"province"`
	Condition string    `json:"condition"`
	Threshold *float64  `json:"threshold,omitempty"` // dollars or percent, as given
	Active    bool      `json:"active"`              // false: paused, it records nothing (UpdateAlert)
	CreatedAt time.Time `json:"created_at"`
	// Standing is where the rule stands on the latest data: set only in
	// the answers of CreateAlert and EvaluateAlert, which evaluate it.
	Standing *AlertStanding `json:"standing,omitempty"`
}

// AlertRules is a page of an account's rules, oldest first.
type AlertRules = Page[AlertRule]

// ListAlertsInput holds the arguments of ListAlerts.
type ListAlertsInput struct {
	Limit  Opt[int] `json:"limit,omitzero"`   // 1..500; 50 when not given
	Offset int      `json:"offset,omitempty"` // >= 0
}

// AlertEvent is a recorded trigger of a rule: the day of one series'
// timeline of prices in force (Banner, SKU, Province) that met its
// condition (see the Alert* conditions).
type AlertEvent struct {
	ID            string    `json:"id"` // "evt_" and 16 hexadecimal digits
	RuleID        string    `json:"rule_id"`
	TriggeredAt   time.Time `json:"triggered_at"` // when it was recorded
	ObservedAt    Date      `json:"observed_at"`  // the day of the series' timeline that met the condition
	Condition     string    `json:"condition"`
	UPC           *string   `json:"upc"` // null when the SKU is linked to no barcode
	Banner        string    `json:"banner"`
	SKU           string    `json:"external_sku"`
	Province      string    `json:"province"`
	Price         Cents     `json:"price"`          // the price in force that day; for delisted, the last one
	PreviousPrice *Cents    `json:"previous_price"` // the previous timeline day's, null when none
	Message       string    `json:"message"`
	Reason        string    `json:"reason,omitempty"` // what recorded it: AlertReasonImport, AlertReasonEvaluate or AlertReasonAtCreation
	Currency      string    `json:"currency"`
}

// Reasons an event was recorded (AlertEvent.Reason). Every event carries
// one; only an event written by a build that kept none omits it.
const (
	// AlertReasonImport: an import wrote the observation day (also the
	// evaluation an import owed, run by a later write or open).
	AlertReasonImport = "import"
	// AlertReasonEvaluate: EvaluateAlerts (the CLI's 'alerts evaluate')
	// or EvaluateAlert (POST /b2b/alerts/{id}/evaluate).
	AlertReasonEvaluate = "evaluate"
	// AlertReasonAtCreation: CreateAlert found the new rule's condition
	// holding on the latest day.
	AlertReasonAtCreation = "at_creation"
)

// AlertEventList is a page of an account's events, newest first.
type AlertEventList = Page[AlertEvent]

// AlertEventsInput holds the arguments of AlertEvents.
type AlertEventsInput struct {
	Since  string   `json:"since,omitempty"`   // RFC 3339 time or YYYY-MM-DD (midnight UTC): events recorded then or later
	RuleID string   `json:"rule_id,omitempty"` // one rule's events (a deleted rule's too)
	Limit  Opt[int] `json:"limit,omitzero"`    // 1..500; 50 when not given
	Offset int      `json:"offset,omitempty"`  // >= 0
}

// AlertEvaluation is what EvaluateAlerts did.
type AlertEvaluation struct {
	Rules  int  `json:"rules"`  // rules evaluated
	Series int  `json:"series"` // series (banner SKU, province) they watch that were read
	Events int  `json:"events"` // events recorded, new ones only
	From   Date `json:"from"`   // first observation day evaluated
	To     Date `json:"to"`     // the data set's latest observation day
}

// CreateAlert stores a new alert rule for the account in ctx and returns
// it, evaluated at once on the latest day (see AlertStanding): when the
// condition already holds there (a price_below rule on a series whose
// latest price is at or under the threshold, a promo_start rule on one
// whose latest day is on promotion), one event with reason at_creation is
// recorded, and Standing carries it; either way Standing says where each
// watched series stands. The change conditions (price_drop_pct,
// back_in_stock) record nothing at creation: they fire on a move from one
// observation day to the next, and the moves before the rule existed are
// not news to it. From then on every import evaluates the rule (see the
// Alert* conditions). Should the evaluation at creation fail (the shared store went
// away just after storing the rule), the rule is still returned, without
// Standing, and the failure is logged.
//
// It returns EINVALIDARGUMENT naming the field for a missing or overlong name, a
// malformed or unknown upc, both or neither of upc and sku, a sku without
// a banner, a sku the banner does not have, an unknown banner or province,
// a banner with no stores in the province, an unknown condition (listing
// the valid ones), a threshold missing or given where the condition needs
// none, or out of range; ECONFLICT when the account holds MaxAlertRules
// rules; EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account;
// EUNAVAILABLE when the rules are in a shared store that does not answer (no rule
// is then stored). The limit holds however many servers create rules at
// once: the count and the write are one transaction (bbolt) or one script
// (the shared store).
func (s *Service) CreateAlert(ctx context.Context, in AlertInput) (*AlertRule, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	rec, err := parseAlertInput(in)
	if err != nil {
		return nil, err
	}
	rec.Account = account
	rec.Created = s.now().Unix()
	claim := idemClaim(ctx, account)
	if id, ok, err := claimedObject(claim, "alert"); err != nil {
		return nil, err
	} else if ok {
		// Created by the first request with this idempotency key.
		if found, err := s.alerts.rule(ctx, account, id, &rec); err != nil {
			return nil, err
		} else if !found {
			return nil, claimedGone(claim, "alert rule")
		}
		return s.createdAlert(ctx, &rec)
	}
	err = s.db.View(func(tx *storage.Tx) error {
		if rec.GTIN != "" {
			var p storage.Product
			if found, err := tx.Product(rec.GTIN, &p); err != nil {
				return err
			} else if !found {
				return Errorf(EINVALIDARGUMENT, "upc %s is a valid barcode but not in the catalogue: a rule watches a known product", GTIN(rec.GTIN).UPC())
			}
			return nil
		}
		var sku storage.SKU
		if found, err := tx.SKU(rec.Banner, rec.SKU, &sku); err != nil {
			return err
		} else if !found {
			msg := fmt.Sprintf("sku %q: banner %s has no such external_sku", rec.SKU, rec.Banner)
			if _, err := ParseGTIN(rec.SKU); err == nil {
				msg = fmt.Sprintf("sku %q is a barcode, not an external_sku: give it as upc", rec.SKU)
			}
			return &Error{Code: EINVALIDARGUMENT, Message: msg, Next: NextSKU}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The catalogue only grows: a product or SKU found above stays.
	if err := s.alerts.createRule(ctx, &rec, claim); err != nil {
		return nil, err
	}
	return s.createdAlert(ctx, &rec)
}

// createdAlert is CreateAlert's answer for the rule rec it created: the
// rule with its standing at creation.
func (s *Service) createdAlert(ctx context.Context, rec *storage.AlertRule) (*AlertRule, error) {
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return nil, err
	}
	r := alertRule(ids, rec)
	st, err := s.standing(ctx, ids, rec, atCreation)
	if err != nil {
		if s.log != nil {
			s.log.Warn("alert rule created; its evaluation at creation failed", "rule", r.ID, "code", ErrorCode(err), "err", ErrorMessage(err))
		}
		return &r, nil
	}
	r.Standing = st
	return &r, nil
}

// parseAlertInput checks and normalises a rule's fields.
func parseAlertInput(in AlertInput) (storage.AlertRule, error) {
	var r storage.AlertRule
	r.Name = strings.TrimSpace(in.Name)
	switch {
	case r.Name == "":
		return r, Errorf(EINVALIDARGUMENT, "name is required: a short label for the rule, e.g. \"Orange juice under $4\"")
	case utf8.RuneCountInString(r.Name) > 100 || strings.ContainsFunc(r.Name, func(c rune) bool { return c < ' ' || c == 0x7f }):
		return r, Errorf(EINVALIDARGUMENT, "name: want 1 to 100 characters without control characters")
	}
	upc, sku := strings.TrimSpace(in.UPC), strings.TrimSpace(in.SKU)
	switch {
	case upc != "" && sku != "":
		return r, Errorf(EINVALIDARGUMENT, "upc and sku are both given: want a upc (optionally with a banner) or a banner and its sku")
	case upc == "" && sku == "":
		return r, Errorf(EINVALIDARGUMENT, "upc or sku is required: want a upc (optionally with a banner) or a banner and its sku")
	}
	prov, err := ParseProvince(in.Province)
	if err != nil {
		return r, err
	}
	r.Province = prov
	if strings.TrimSpace(in.Banner) != "" {
		b, err := ParseBanner(in.Banner)
		if err != nil {
			return r, err
		}
		if !b.OperatesIn(prov) {
			return r, Errorf(EINVALIDARGUMENT, "banner %s has no stores in province %s: want a banner of %s", b.Slug, prov, prov)
		}
		r.Banner = b.Slug
	}
	if upc != "" {
		g, err := ParseGTIN(upc)
		if err != nil {
			return r, err
		}
		if g.Restricted() {
			return r, Errorf(EINVALIDARGUMENT, "upc %s is a restricted-circulation (in-store) code: it names different items at different retailers; watch the banner's sku instead", upc)
		}
		r.GTIN = string(g)
	} else {
		if r.Banner == "" {
			return r, Errorf(EINVALIDARGUMENT, "banner is required with sku: an external_sku belongs to one banner")
		}
		r.SKU = sku
	}
	r.Condition = strings.ToLower(strings.TrimSpace(in.Condition))
	if !slices.Contains(alertConditions, r.Condition) {
		if r.Condition == "" {
			return r, Errorf(EINVALIDARGUMENT, "condition is required: want one of %s", strings.Join(alertConditions, ", "))
		}
		return r, Errorf(EINVALIDARGUMENT, "condition %q is unknown: want one of %s", in.Condition, strings.Join(alertConditions, ", "))
	}
	if r.Condition == AlertCompetitorUndercut && (r.GTIN == "" || r.Banner == "") {
		return r, Errorf(EINVALIDARGUMENT, "competitor_undercut watches a barcode at your banner against the other banners: give upc and banner")
	}
	t := in.Threshold
	switch r.Condition {
	case AlertPriceBelow, AlertPriceAbove:
		if t == nil {
			return r, Errorf(EINVALIDARGUMENT, "threshold is required for %s: a price in dollars, e.g. 3.99", r.Condition)
		}
		c, ok := hundredths(*t)
		if !ok || c <= 0 || c > 100_000_00 {
			return r, Errorf(EINVALIDARGUMENT, "threshold %v for %s: want a price in dollars above 0 and at most 100000, with at most two decimals", *t, r.Condition)
		}
		r.Threshold = c
	case AlertPriceDropPct, AlertRisePct:
		if t == nil {
			return r, Errorf(EINVALIDARGUMENT, "threshold is required for %s: a move in percent, e.g. 15", r.Condition)
		}
		bp, ok := hundredths(*t)
		if !ok || bp <= 0 || bp >= 100_00 {
			return r, Errorf(EINVALIDARGUMENT, "threshold %v for %s: want a percent above 0 and below 100, with at most two decimals", *t, r.Condition)
		}
		r.Threshold = bp
	default:
		if t != nil {
			return r, Errorf(EINVALIDARGUMENT, "threshold is not taken by %s: leave it out", r.Condition)
		}
	}
	return r, nil
}

// takesThreshold reports whether a condition has a threshold.
func takesThreshold(condition string) bool {
	switch condition {
	case AlertPriceBelow, AlertPriceAbove, AlertPriceDropPct, AlertRisePct:
		return true
	}
	return false
}

// hundredths returns v*100 as an integer when v has at most two decimals.
func hundredths(v float64) (int64, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
		return 0, false
	}
	h := math.Round(v * 100)
	if math.Abs(v*100-h) > 1e-6 {
		return 0, false
	}
	return int64(h), true
}

// parseRuleID returns the number of the rule whose id (as alertRule
// shows it) is id; what names the argument in the error.
func (s *Service) parseRuleID(ctx context.Context, id, what string) (uint64, error) {
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return 0, err
	}
	n, ok := ids.ParseRule(strings.TrimSpace(id))
	if !ok {
		return 0, Errorf(EINVALIDARGUMENT, "%s %q is not an alert rule id: want %s and 16 hexadecimal digits, as the rule's id field gives it", what, id, alertstore.RuleIDPrefix)
	}
	return n, nil
}

func alertRule(ids alertstore.IDs, r *storage.AlertRule) AlertRule {
	out := AlertRule{
		ID: ids.Rule(r.ID), Name: r.Name, GTIN: r.GTIN, Banner: r.Banner, SKU: r.SKU,
		Province: r.Province, Condition: r.Condition, Active: !r.Paused, CreatedAt: time.Unix(r.Created, 0).UTC(),
	}
	if r.GTIN != "" {
		out.UPC = GTIN(r.GTIN).UPC()
	}
	if takesThreshold(r.Condition) {
		t := float64(r.Threshold) / 100
		out.Threshold = &t
	}
	return out
}

// ListAlerts returns a page of the rules of the account in ctx, oldest
// first, with their total.
//
// It returns EINVALIDARGUMENT for a limit outside 1..500 or a negative offset,
// EUNAUTHENTICATED or ENOTFOUND for a missing or unknown account, and
// EUNAVAILABLE when the rules are in a shared store that does not answer.
func (s *Service) ListAlerts(ctx context.Context, in ListAlertsInput) (*AlertRules, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return nil, err
	}
	res := newPage[AlertRule](limit, offset)
	err = s.alerts.rules(ctx, account, func(r *storage.AlertRule) error {
		if res.Total >= offset && len(res.Results) < limit {
			res.Results = append(res.Results, alertRule(ids, r))
		}
		res.Total++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// Alert returns one rule of the account in ctx.
//
// It returns EINVALIDARGUMENT for an id not of the form alr_ and 16 hexadecimal digits, ENOTFOUND
// when the account has no such rule (another account's rule is not found
// either), EUNAUTHENTICATED or ENOTFOUND for a missing or unknown
// account, and EUNAVAILABLE when the rules are in a shared store that does not
// answer.
func (s *Service) Alert(ctx context.Context, id string) (*AlertRule, error) {
	r, ids, err := s.ownRule(ctx, id)
	if err != nil {
		return nil, err
	}
	out := alertRule(ids, r)
	return &out, nil
}

// ownRule reads the rule id of the account in ctx, with the ids of its
// store; its errors are Alert's.
func (s *Service) ownRule(ctx context.Context, id string) (*storage.AlertRule, alertstore.IDs, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, alertstore.IDs{}, err
	}
	n, err := s.parseRuleID(ctx, id, "alert rule id")
	if err != nil {
		return nil, alertstore.IDs{}, err
	}
	var r storage.AlertRule
	found, err := s.alerts.rule(ctx, account, n, &r)
	if err != nil {
		return nil, alertstore.IDs{}, err
	}
	if !found {
		return nil, alertstore.IDs{}, noRule(id)
	}
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return nil, alertstore.IDs{}, err
	}
	return &r, ids, nil
}

func noRule(id string) error {
	return Errorf(ENOTFOUND, "no alert rule %s", strings.TrimSpace(id))
}

// DeleteAlert deletes a rule of the account in ctx. Its events stay in
// the account's event list (AlertEvents with its rule_id still finds
// them); its record of the days it fired goes with it. Rule ids are never
// reused, so no later rule inherits them.
//
// It returns EINVALIDARGUMENT for an id not of the form alr_ and 16 hexadecimal digits, ENOTFOUND
// when the account has no such rule (another account's rule is not found
// either), EUNAUTHENTICATED or ENOTFOUND for a missing or unknown
// account, and EUNAVAILABLE when the rules are in a shared store that does not
// answer (the rule then stays whole).
func (s *Service) DeleteAlert(ctx context.Context, id string) error {
	account, err := s.accountOf(ctx)
	if err != nil {
		return err
	}
	n, err := s.parseRuleID(ctx, id, "alert rule id")
	if err != nil {
		return err
	}
	found, err := s.alerts.deleteRule(ctx, account, n)
	if err == nil && !found {
		return noRule(id)
	}
	return err
}

// AlertEvents returns a page of the events of the account in ctx, newest
// first (in the order they were recorded), with the total that match.
//
// It returns EINVALIDARGUMENT for a since that is neither an RFC 3339 time nor a
// YYYY-MM-DD date, a rule_id not of the form alr_ and 16 hexadecimal digits, a limit outside
// 1..500 or a negative offset, EUNAUTHENTICATED or ENOTFOUND for a
// missing or unknown account, and EUNAVAILABLE when the events are in
// the shared store and it does not answer.
func (s *Service) AlertEvents(ctx context.Context, in AlertEventsInput) (*AlertEventList, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	since := int64(math.MinInt64)
	if v := strings.TrimSpace(in.Since); v != "" {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			since = t.Unix()
		} else if d, err := ParseDate(v); err == nil {
			since = d.Time().Unix()
		} else {
			return nil, Errorf(EINVALIDARGUMENT, "since %q: want an RFC 3339 time (2026-11-20T00:00:00Z) or a date (2026-11-20)", in.Since)
		}
	}
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return nil, err
	}
	var rule uint64
	byRule := in.RuleID != ""
	if byRule {
		if rule, err = s.parseRuleID(ctx, in.RuleID, "rule_id"); err != nil {
			return nil, err
		}
	}
	res := newPage[AlertEvent](limit, offset)
	err = s.alerts.events(ctx, account, func(e *storage.AlertEvent) error {
		if e.Triggered < since {
			return storage.ErrStop // newest first: the rest are older
		}
		if byRule && e.RuleID != rule {
			return nil
		}
		if res.Total >= offset && len(res.Results) < limit {
			res.Results = append(res.Results, alertEvent(ids, e))
		}
		res.Total++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

func alertEvent(ids alertstore.IDs, e *storage.AlertEvent) AlertEvent {
	out := AlertEvent{
		ID: ids.Event(e.ID), RuleID: ids.Rule(e.RuleID),
		TriggeredAt: time.Unix(e.Triggered, 0).UTC(), ObservedAt: Date(e.Day), Condition: e.Condition,
		Banner: e.Banner, SKU: e.SKU, Province: e.Province, Price: Cents(e.Price), Message: e.Message, Reason: e.Reason,
		Currency: Currency,
	}
	if e.GTIN != "" {
		upc := GTIN(e.GTIN).UPC()
		out.UPC = &upc
	}
	if e.Previous != 0 {
		p := Cents(e.Previous)
		out.PreviousPrice = &p
	}
	return out
}

// EvaluateAlerts evaluates the rules of the account in ctx, or of every
// account when ctx carries none (the CLI's 'alerts evaluate'), over the
// latest data: every observation day, within the 14 days ending at the
// data set's latest day, of every series they watch. It records the
// events not recorded yet, so running it again records nothing new. An
// import does the same for the series it writes, from the first day it
// writes. It is also how events an import could not record
// (ImportReport.AlertsError) are recovered, while their day is within
// those 14 days: run for every account on a writable file, it clears the
// file's mark that an evaluation is owed. That mark is set in the
// transaction of each import that may concern a rule and cleared once the
// evaluation after its commit recorded the events; while it is set, the
// next import, and the open of a writable Service (in the background: Open
// does not wait for it, Close cancels it), run the owed evaluation, so
// events are not lost when a shared store is down at an import or the
// process dies between its commit and its evaluation.
//
// It returns ENOTFOUND for an unknown account in ctx and EUNAVAILABLE when
// the rules are in a shared store that does not answer; events recorded before
// the shared store went away stay recorded, and running it again records the rest.
func (s *Service) EvaluateAlerts(ctx context.Context) (*AlertEvaluation, error) {
	account := ""
	if p := PrincipalFromContext(ctx); p != nil {
		var err error
		if account, err = s.accountOf(ctx); err != nil {
			return nil, err
		}
	}
	if account != "" || !s.bolt.Metering() { // one account's, or a read-only file
		return s.evaluateRules(ctx, account, 0, AlertReasonEvaluate)
	}
	// Every account's rules: what the file owes is evaluated too (the 14
	// days cover it), so the mark is cleared.
	defer s.lockAlerts()()
	res, err := s.evaluateRules(ctx, "", 0, AlertReasonEvaluate)
	if err != nil {
		return nil, err
	}
	if err := s.db.Update(func(tx *storage.Tx) error {
		if _, owed := tx.AlertsOwed(); !owed {
			return nil
		}
		return tx.ClearAlertsOwed()
	}); err != nil {
		return nil, err
	}
	return res, nil
}

// evaluateRules is EvaluateAlerts for account ("" for every account),
// from the day from on (no earlier than the 14 days ending at the data
// set's latest day), recording its events with reason. Paused rules are
// left out.
func (s *Service) evaluateRules(ctx context.Context, account string, from int32, reason string) (*AlertEvaluation, error) {
	// The rules first, outside the data file's transaction: with bbolt
	// a read transaction inside the write one could deadlock on a remap.
	var rules []storage.AlertRule
	err := s.alerts.rules(ctx, account, func(r *storage.AlertRule) error {
		if !r.Paused {
			rules = append(rules, *r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &AlertEvaluation{}
	now := s.now()
	var batch alertBatch
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		from := max(from, asOf-freshDays+1)
		res.From, res.To = Date(from), Date(asOf)
		series := map[seriesKey]int32{}
		for i := range rules {
			r := &rules[i]
			res.Rules++
			if r.GTIN == "" {
				series[seriesKey{Banner: r.Banner, SKU: r.SKU, Province: r.Province}] = from
				continue
			}
			err := tx.SKUsOf(r.GTIN, func(banner, sku string) error {
				if r.Banner == "" || r.Banner == banner {
					series[seriesKey{Banner: banner, SKU: sku, Province: r.Province}] = from
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		if asOf == 0 || len(series) == 0 {
			return nil
		}
		ev := alertEval{tx: tx, store: s.alerts, account: account, now: now, reason: reason}
		batch, err = ev.run(ctx, series, asOf)
		res.Series = ev.series
		return err
	})
	if err != nil {
		return nil, err
	}
	if res.Events, err = s.alerts.record(ctx, batch); err != nil {
		return nil, err
	}
	return res, nil
}

// alertHook is the ingest.Hook of the alert rules: it records the series a
// write transaction wrote, marks them owed an evaluation in it, and
// evaluates the rules watching them once it committed (afterCommit).
type alertHook struct {
	s     *Service
	now   time.Time           // the clock, read once per write, in its transaction (BeforeCommit)
	state int8                // 0: not looked yet; 1: no rule to evaluate; 2: rules, maybe
	from  map[seriesKey]int32 // first day written, per series

	// The evaluation left for after the commit, and whether the file owed
	// one before this write (storage.Tx.AlertsOwed): an earlier one
	// failed, or its process died.
	pending    *pendingAlerts
	owedBefore bool
}

// alertHook returns the hook of one write, and the function that ends it,
// holding s.alertsMu until then: a write, from its transaction to the
// evaluation after its commit, runs alone with the other writes and the
// evaluations that clear the file's alerts owed mark, so that one clears
// only a mark whose evaluation it ran.
func (s *Service) alertHook() (h *alertHook, release func()) {
	h = &alertHook{s: s}
	return h, s.lockAlerts()
}

// lockAlerts holds s.alertsMu until the function it returns is called
// (see alertHook).
func (s *Service) lockAlerts() (unlock func()) {
	s.alertsMu.Lock()
	return s.alertsMu.Unlock
}

// SeriesWritten records that the write wrote days of a series from first
// on. When the store holds no rule (the data file's store tells in the
// transaction: one seek) it records nothing; a shared store may hold rules
// whatever the write, so every series is recorded, and the evaluation
// after the commit asks it once whether any rule exists.
func (h *alertHook) SeriesWritten(tx *storage.Tx, key seriesKey, first int32) {
	if h.state == 0 {
		h.state = 1
		if h.s.alerts.st.MayHaveRules(tx) {
			h.state, h.from = 2, map[seriesKey]int32{}
		}
	}
	if h.state != 2 {
		return
	}
	if d, ok := h.from[key]; !ok || first < d {
		h.from[key] = first
	}
}

// BeforeCommit marks, in the write transaction, that the series it wrote
// are owed an evaluation from their first day written
// (storage.Tx.OweAlerts), and leaves that evaluation for afterCommit. It
// notes whether the file owed one already.
func (h *alertHook) BeforeCommit(ctx context.Context, tx *storage.Tx, asOf int32) error {
	// Read inside the transaction, not when the write began: a write that
	// waited behind a long one triggers its events when it commits.
	h.now = h.s.now()
	_, h.owedBefore = tx.AlertsOwed()
	h.pending = nil
	if h.state != 2 || len(h.from) == 0 {
		return nil
	}
	first := int32(math.MaxInt32)
	for _, d := range h.from {
		first = min(first, d)
	}
	if err := tx.OweAlerts(first); err != nil {
		return err
	}
	h.pending = &pendingAlerts{from: h.from, asOf: max(asOf, 1), now: h.now}
	return nil
}

// afterCommit evaluates, once a write committed, what it owes (and what
// the file owed before it), logging a failure and returning it: the data
// stays written either way, and the mark the write left in the file
// (storage.Tx.OweAlerts) has the next write, open or EvaluateAlerts run
// the evaluation.
func (h *alertHook) afterCommit(ctx context.Context) error {
	pending := h.pending
	h.pending = nil
	if pending == nil && !h.owedBefore {
		return nil // nothing written that a rule may watch, nothing owed
	}
	if h.owedBefore {
		pending = nil // the file owed an evaluation before this write: every rule's
	}
	err := h.s.settleAlerts(ctx, pending)
	if err != nil {
		h.s.logAlerts("import", err)
	}
	return err
}

// settleAlerts runs, with s.alertsMu held, the
// evaluation the file owes (storage.Tx.AlertsOwed) and clears the mark
// once its events are recorded: pending's, the series a write just wrote
// (when the file owed nothing before it); with pending nil, every rule's,
// from the owed day on (within the 14 days EvaluateAlerts covers), which
// records only what is missing.
func (s *Service) settleAlerts(ctx context.Context, pending *pendingAlerts) error {
	var day int32
	var owed bool
	if err := s.db.View(func(tx *storage.Tx) error { day, owed = tx.AlertsOwed(); return nil }); err != nil {
		return err
	}
	if !owed {
		return nil
	}
	var err error
	if pending != nil {
		_, err = s.evaluateCommitted(ctx, pending)
	} else {
		_, err = s.evaluateRules(ctx, "", day, AlertReasonImport)
	}
	if err != nil {
		return err
	}
	return s.db.Update(func(tx *storage.Tx) error { return tx.ClearAlertsOwed() })
}

// settleOwedAlerts runs in the background, when a writable Service opens,
// the evaluation the file owes, if it owes one: what an
// import whose process died after its commit, or whose evaluation failed,
// did not record. Close cancels and waits for it. A failure is logged; the
// mark stays for the next import or EvaluateAlerts.
func (s *Service) settleOwedAlerts() {
	var owed bool
	if err := s.db.View(func(tx *storage.Tx) error { _, owed = tx.AlertsOwed(); return nil }); err != nil || !owed {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.settled, s.settleStop = done, func() { cancel(); <-done }
	go func() {
		defer close(done)
		s.alertsMu.Lock()
		defer s.alertsMu.Unlock()
		if err := s.settleAlerts(ctx, nil); err != nil && ctx.Err() == nil {
			s.logAlerts("open", err)
		}
	}()
}

// logAlerts logs, when Options.Logger is set, an evaluation after a
// write's commit (or at open) that could not record its events.
func (s *Service) logAlerts(when string, err error) {
	if s.log != nil {
		s.log.Warn(alertsNotRecorded(err), "when", when, "code", ErrorCode(err))
	}
}

// pendingAlerts is the evaluation a committed write leaves to do.
type pendingAlerts struct {
	from map[seriesKey]int32
	asOf int32
	now  time.Time
}

// evaluateCommitted evaluates the rules watching the series a committed
// write wrote, reading the committed data, and records the new events.
// The data is durable whatever happens here: an error (a shared store
// unreachable) leaves events unrecorded, which EvaluateAlerts records
// later. It returns the number of events recorded.
func (s *Service) evaluateCommitted(ctx context.Context, p *pendingAlerts) (int, error) {
	var batch alertBatch
	err := s.db.View(func(tx *storage.Tx) error {
		if has, err := s.alerts.hasRules(ctx, tx); err != nil || !has {
			return err
		}
		ev := alertEval{tx: tx, store: s.alerts, now: p.now, reason: AlertReasonImport}
		var err error
		batch, err = ev.run(ctx, p.from, p.asOf)
		return err
	})
	if err != nil {
		return 0, err
	}
	return s.alerts.record(ctx, batch)
}

// alertsNotRecorded is ImportReport.AlertsError for an evaluation after
// the commit that failed with err.
func alertsNotRecorded(err error) string {
	return "data imported; alert events not yet recorded (" + strings.TrimSuffix(ErrorMessage(err), fault.Refused) +
		"): they will be recorded by the next import or 'grocery alerts evaluate'"
}

// alertEval evaluates rules over series in one read transaction of the
// data file; alertStore.record stores its events once that is over.
type alertEval struct {
	tx      *storage.Tx
	store   alertStore
	account string // only this account's rules; "" for all
	now     time.Time
	reason  string // AlertEvent.Reason of the events it records
	series  int    // series read
	tl      timeline
}

// alertTrigger is a day a rule fired on a series. On a gone day (the
// series left the shelf), cur carries the last price in force.
type alertTrigger struct {
	rule       *storage.AlertRule
	key        seriesKey
	gtin       string
	cur, prev  alertDay
	hasPrev    bool // prev is a day with a price in force
	seriesRank int
	own        uint32 // competitor_undercut: the rule's banner's price
}

// compareRules orders rules by account and id.
func compareRules(a, b *storage.AlertRule) int {
	return cmp.Or(cmp.Compare(a.Account, b.Account), cmp.Compare(a.ID, b.ID))
}

// undercutTriggers evaluates competitor_undercut rule r on the days from
// from to asOf and returns its triggers.
func undercutTriggers(tx *storage.Tx, r *storage.AlertRule, from, asOf int32) ([]alertTrigger, error) {
	days, err := undercutDays(tx, r, from, asOf)
	if err != nil {
		return nil, err
	}
	var out []alertTrigger
	st := newRuleState(r, false)
	for _, u := range days {
		if undercut(&st, u) && u.date >= from {
			out = append(out, u.trigger(r))
		}
	}
	return out, nil
}

// trigger is the trigger of competitor_undercut rule r on day u: it names
// the undercutting series, its price and its previous price, and the
// rule's banner's price.
func (u *undercutDay) trigger(r *storage.AlertRule) alertTrigger {
	t := alertTrigger{rule: r, key: u.otherKey, gtin: r.GTIN, cur: alertDay{date: u.date, price: u.other}, own: u.own}
	if u.otherBefore != nil {
		t.prev, t.hasPrev = *u.otherBefore, true
	}
	return t
}

// trigger is the trigger of rule r firing on day cur after prev (nil:
// none) of series k.
func trigger(r *storage.AlertRule, k seriesKey, gtin string, prev *alertDay, cur alertDay, rank int) alertTrigger {
	t := alertTrigger{rule: r, key: k, gtin: gtin, cur: cur, seriesRank: rank}
	if prev != nil && !prev.gone {
		t.prev, t.hasPrev = *prev, true
	} else if prev != nil {
		t.prev = *prev
	}
	if cur.gone && t.hasPrev {
		t.cur.price = t.prev.price
	}
	return t
}

// run evaluates the rules watching each series of from (series -> first
// day to evaluate) on its days up to asOf, no earlier than the 14 days
// ending at asOf, and returns their events, for alertStore.record once
// the transaction is over.
// The rules come from the store's watch index, looked up for all the
// series at once (one pass over the file's index, or a few pipelined
// round trips to the shared store), never by scanning every rule.
func (ev *alertEval) run(ctx context.Context, from map[seriesKey]int32, asOf int32) (alertBatch, error) {
	keys, qs, err := ev.watchQueries(from)
	if err != nil {
		return nil, err
	}
	watch, err := ev.store.watching(ctx, ev.tx, qs)
	if err != nil {
		return nil, err
	}
	window := asOf - freshDays + 1
	var triggers []alertTrigger
	var watching []*storage.AlertRule
	undercuts := map[*storage.AlertRule]int32{} // competitor_undercut rules, from their first day to evaluate
	for i, k := range keys {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		start := max(from[k], window)
		if watching = ev.seriesRules(watch[i], k, start, undercuts, watching[:0]); len(watching) == 0 {
			continue
		}
		ev.series++
		if triggers, err = ev.seriesTriggers(triggers, watching, k, qs[i].GTIN, i, start, asOf); err != nil {
			return nil, err
		}
	}
	for _, r := range slices.SortedFunc(maps.Keys(undercuts), compareRules) {
		ts, err := undercutTriggers(ev.tx, r, undercuts[r], asOf)
		if err != nil {
			return nil, err
		}
		ev.series++
		triggers = append(triggers, ts...)
	}
	return ev.events(triggers), nil
}

// watchQueries returns the series of from in key order, with the watch
// index queries that find their rules (each with its SKU's barcode).
func (ev *alertEval) watchQueries(from map[seriesKey]int32) ([]seriesKey, []alertstore.WatchQuery, error) {
	keys := make([]seriesKey, 0, len(from))
	for k := range from {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b seriesKey) int {
		return cmp.Or(cmp.Compare(a.Banner, b.Banner), cmp.Compare(a.SKU, b.SKU), cmp.Compare(a.Province, b.Province))
	})
	qs := make([]alertstore.WatchQuery, len(keys))
	var sku storage.SKU
	for i, k := range keys {
		found, err := ev.tx.SKU(k.Banner, k.SKU, &sku)
		if err != nil {
			return nil, nil, err
		}
		qs[i] = alertstore.WatchQuery{Province: k.Province, Banner: k.Banner, SKU: k.SKU}
		if found {
			qs[i].GTIN = sku.GTIN
		}
	}
	return keys, qs, nil
}

// seriesRules appends to watching the rules of rules (those watching
// series k) that ev evaluates on k from start. A competitor_undercut rule
// goes to undercuts instead, from its earliest start: any banner's series
// of the barcode moves it, and it is evaluated once over all of them.
func (ev *alertEval) seriesRules(rules []*storage.AlertRule, k seriesKey, start int32, undercuts map[*storage.AlertRule]int32, watching []*storage.AlertRule) []*storage.AlertRule {
	for _, r := range rules {
		if ev.account != "" && r.Account != ev.account || r.Paused {
			continue
		}
		if r.Condition == AlertCompetitorUndercut {
			if d, ok := undercuts[r]; !ok || start < d {
				undercuts[r] = start
			}
			continue
		}
		if r.GTIN != "" && r.Banner != "" && r.Banner != k.Banner {
			continue // a barcode rule restricted to another banner
		}
		watching = append(watching, r)
	}
	return watching
}

// seriesTriggers appends to triggers those of the rules watching on
// series k (of barcode gtin, the rank-th series evaluated) from start to
// asOf.
func (ev *alertEval) seriesTriggers(triggers []alertTrigger, watching []*storage.AlertRule, k seriesKey, gtin string, rank int, start, asOf int32) ([]alertTrigger, error) {
	if err := ev.tl.read(ev.tx, k, start, asOf); err != nil {
		return nil, err
	}
	for _, r := range watching {
		st := newRuleState(r, ev.tl.earlier)
		var prev *alertDay
		for j := range ev.tl.days {
			cur := &ev.tl.days[j]
			if step(r, &st, prev, *cur, ev.tl.earlier) && cur.date >= start {
				triggers = append(triggers, trigger(r, k, gtin, prev, *cur, rank))
			}
			prev = cur
		}
	}
	return triggers, nil
}

// events returns the events of triggers: one per rule and observation
// day (of a rule's triggers on one day, as a barcode rule watches several
// banners, the lowest price, then the first series), in observation-day
// order, so that they are numbered in it and the newest day lists first.
// Each carries ev.reason and its message (which reads the product's name
// in ev.tx). It is the one place events are made, whatever records them
// (imports, evaluations, a rule's creation); the store drops those of a
// rule that fired that day before.
func (ev *alertEval) events(triggers []alertTrigger) alertBatch {
	slices.SortFunc(triggers, func(a, b alertTrigger) int {
		return cmp.Or(cmp.Compare(a.cur.date, b.cur.date), cmp.Compare(a.rule.Account, b.rule.Account),
			cmp.Compare(a.rule.ID, b.rule.ID), cmp.Compare(a.cur.price, b.cur.price), cmp.Compare(a.seriesRank, b.seriesRank))
	})
	events := make(alertBatch, 0, len(triggers))
	for i, t := range triggers {
		if i > 0 {
			p := triggers[i-1]
			if p.rule.Account == t.rule.Account && p.rule.ID == t.rule.ID && p.cur.date == t.cur.date {
				continue
			}
		}
		e := storage.AlertEvent{
			Account: t.rule.Account, RuleID: t.rule.ID, Triggered: ev.now.Unix(), Day: t.cur.date,
			Condition: t.rule.Condition, GTIN: t.gtin, Banner: t.key.Banner, SKU: t.key.SKU, Province: t.key.Province,
			Price: t.cur.price, Reason: ev.reason, Message: ev.message(&t),
		}
		if t.hasPrev {
			e.Previous = t.prev.price
		}
		events = append(events, e)
	}
	return events
}

// alertBatch is the events of an evaluation, for alertStore.record.
type alertBatch []storage.AlertEvent

// message says in a sentence what fired: "OJ deal: Orange Juice No Pulp at
// No Frills in ON is $3.49 on 2026-11-20, at or below $4.00 (was $4.29
// on 2026-11-16)".
func (ev *alertEval) message(t *alertTrigger) string {
	what := t.key.SKU
	if t.gtin != "" {
		var p storage.Product
		if found, err := ev.tx.Product(t.gtin, &p); err == nil && found && p.Name != "" {
			what = p.Name
		}
	}
	where := fmt.Sprintf("%s: %s at %s in %s", t.rule.Name, what, bannerName(t.key.Banner), t.key.Province)
	head := fmt.Sprintf("%s is $%s on %s", where, Cents(t.cur.price), Date(t.cur.date))
	was := ""
	if t.hasPrev {
		was = fmt.Sprintf(" (was $%s on %s)", Cents(t.prev.price), Date(t.prev.date))
	}
	switch t.rule.Condition {
	case AlertPriceBelow:
		return head + ", at or below $" + Cents(t.rule.Threshold).String() + was
	case AlertPriceAbove:
		return head + ", at or above $" + Cents(t.rule.Threshold).String() + was
	case AlertPriceDropPct:
		drop := float64(t.prev.price-t.cur.price) / float64(t.prev.price) * 100
		return fmt.Sprintf("%s, %.2f%% below the previous price%s", head, drop, was)
	case AlertRisePct:
		rise := float64(t.cur.price-t.prev.price) / float64(t.prev.price) * 100
		return fmt.Sprintf("%s, %.2f%% above the previous price%s", head, rise, was)
	case AlertPromoStart:
		return head + ", on promotion" + was
	case AlertListed:
		return head + ": observed in the province for the first time"
	case AlertBackInStock:
		if t.prev.gone {
			return fmt.Sprintf("%s: back on the shelf after leaving it on %s", head, Date(t.prev.date))
		}
		return head + ": observed in the province for the first time"
	case AlertCompetitorUndercut:
		return fmt.Sprintf("%s, under %s at $%s%s", head, bannerName(t.rule.Banner), Cents(t.own), was)
	case AlertDelisted:
		last := ""
		if t.hasPrev {
			last = fmt.Sprintf(" (last $%s on %s)", Cents(t.prev.price), Date(t.prev.date))
		}
		return fmt.Sprintf("%s left the shelf on %s: no store has observed it for 14 days%s", where, Date(t.cur.date), last)
	}
	return head
}
