package grocery

import (
	"context"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// AlertUpdate holds the changes of UpdateAlert: each field given replaces
// the rule's, each left nil keeps it. What a rule watches (upc, banner,
// sku, province) does not change: for another product, create another
// rule. The fields UPC, Banner, SKU and Province are here only so that a
// request naming them is refused with a message that says so.
type AlertUpdate struct {
	Name      *string  `json:"name,omitempty"`
	Condition *string  `json:"condition,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"` // dollars for price_below, percent for price_drop_pct
	Active    *bool    `json:"active,omitempty"`    // false pauses the rule, true resumes it

	UPC      *string `json:"upc,omitempty"`
	Banner   *string `json:"banner,omitempty"`
	SKU      *string `json:"sku,omitempty"`
	Province *string `json:"province,omitempty"`
}

// UpdateAlert changes a rule of the account in ctx and returns it: its
// name, condition, threshold or whether it is active. The rule keeps its
// id, its creation time, its events and its record of the days it fired
// (one event per rule and observation day holds across changes). The
// changed rule is checked exactly as CreateAlert checks a new one (one
// parser): when the condition changes and no threshold is given, the old
// threshold goes with the old condition, so a change to price_below or
// price_drop_pct must give one. A paused rule (Active false) records
// nothing: imports and evaluations skip it until it is resumed; nothing
// is recorded for the days it was paused, unless a later evaluation
// (EvaluateAlerts, EvaluateAlert) finds them within its window.
//
// It returns EINVALIDARGUMENT naming the field when nothing is to change, when a
// watched field (upc, banner, sku, province) is given, or when the
// changed rule would be invalid (as CreateAlert); nothing is then
// stored. It returns ENOTFOUND when the account has no such rule
// (another account's rule is not found either), EINVALIDARGUMENT for an id not
// of the form alr_ and 16 hexadecimal digits, EUNAUTHENTICATED or
// ENOTFOUND for a missing or unknown account, and EUNAVAILABLE when the
// rules are in the shared store and it does not answer (the rule then stays as it
// was).
func (s *Service) UpdateAlert(ctx context.Context, id string, in AlertUpdate) (*AlertRule, error) {
	account, err := s.accountOf(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"upc", in.UPC}, {"banner", in.Banner}, {"sku", in.SKU}, {"province", in.Province}} {
		if f.v != nil {
			return nil, Errorf(EINVALIDARGUMENT, "%s cannot change: a rule keeps what it watches; create another rule to watch another product, banner or province", f.name)
		}
	}
	if in.Name == nil && in.Condition == nil && in.Threshold == nil && in.Active == nil {
		return nil, Errorf(EINVALIDARGUMENT, "nothing to change: give name, condition, threshold or active")
	}
	n, err := s.parseRuleID(ctx, id, "alert rule id")
	if err != nil {
		return nil, err
	}
	var rec storage.AlertRule
	found, err := s.alerts.updateRule(ctx, account, n, func(r *storage.AlertRule) error {
		next, err := changedRule(r, in)
		if err != nil {
			return err
		}
		*r = next
		return nil
	}, &rec)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, noRule(id)
	}
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return nil, err
	}
	out := alertRule(ids, &rec)
	return &out, nil
}

// changedRule returns r with the changes of in, checked by
// parseAlertInput as a new rule is.
func changedRule(r *storage.AlertRule, in AlertUpdate) (storage.AlertRule, error) {
	cur := alertInputOf(r)
	if in.Name != nil {
		cur.Name = *in.Name
	}
	if in.Condition != nil && !strings.EqualFold(strings.TrimSpace(*in.Condition), r.Condition) {
		cur.Condition, cur.Threshold = *in.Condition, nil
	}
	if in.Threshold != nil {
		cur.Threshold = in.Threshold
	}
	next, err := parseAlertInput(cur)
	if err != nil {
		return next, err
	}
	next.Account, next.ID, next.Created, next.Paused = r.Account, r.ID, r.Created, r.Paused
	if in.Active != nil {
		next.Paused = !*in.Active
	}
	return next, nil
}

// alertInputOf is the AlertInput that creates a rule like r.
func alertInputOf(r *storage.AlertRule) AlertInput {
	in := AlertInput{Name: r.Name, Banner: r.Banner, SKU: r.SKU, Province: r.Province, Condition: r.Condition}
	if r.GTIN != "" {
		in.UPC = r.GTIN
	}
	if takesThreshold(r.Condition) {
		t := float64(r.Threshold) / 100
		in.Threshold = &t
	}
	return in
}
