package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"math"
)

// AlertRule is an account's price alert rule. It watches either a barcode
// (GTIN set; Banner, when set, restricts it to one banner) or one banner
// SKU (GTIN empty, Banner and SKU set), in one province. Condition and
// Threshold mean what package grocery says they mean.
type AlertRule struct {
	Account   string
	ID        uint64
	Name      string
	GTIN      string
	Banner    string
	SKU       string
	Province  string
	Condition string
	Threshold int64
	Created   int64 // Unix seconds
	// Paused is set on a rule that records nothing until it is resumed: it
	// is kept off the watch index, so no evaluation finds it. A rule
	// written without it is active.
	Paused bool `json:",omitempty"`
}

// AlertEvent is a recorded trigger of an alert rule on one observation
// day of one series (banner SKU in a province).
type AlertEvent struct {
	Account   string
	ID        uint64
	RuleID    uint64
	Triggered int64 // Unix seconds
	Day       int32 // the observation day that triggered it
	Condition string
	GTIN      string // "" when the SKU is linked to no barcode
	Banner    string
	SKU       string
	Province  string
	Price     uint32 // cents
	Previous  uint32 // cents; 0 when there was no previous observation day
	Message   string
	// Reason names what recorded the event (package grocery's values); ""
	// on an event written without one.
	Reason string `json:",omitempty"`
}

func alertKey(account string, id uint64) []byte {
	return binary.BigEndian.AppendUint64(appendStr0(make([]byte, 0, len(account)+9), account), id)
}

// alertWatchPrefix is the index prefix of what a rule watches:
// province 'g' gtin(14), or province 's' banner 0x00 sku 0x00.
func alertWatchPrefix(province, gtin, banner, sku string) []byte {
	b := make([]byte, 0, 4+len(gtin)+len(banner)+len(sku)+16)
	b = append(b, province...)
	if gtin != "" {
		return append(append(b, 'g'), gtin...)
	}
	return appendStr0(appendStr0(append(b, 's'), banner), sku)
}

func alertWatchKey(r *AlertRule) []byte {
	p := alertWatchPrefix(r.Province, r.GTIN, r.Banner, r.SKU)
	return binary.BigEndian.AppendUint64(appendStr0(p, r.Account), r.ID)
}

// encodeAlertRule writes a rule; fields added after the first encoding
// (Paused) follow as optional trailing bytes, so that a rule written
// before them decodes with their zero value.
func encodeAlertRule(r *AlertRule) []byte {
	e := enc(nil).str(r.Name).str(r.GTIN).str(r.Banner).str(r.SKU).str(r.Province).str(r.Condition).
		varint(r.Threshold).varint(r.Created)
	if r.Paused {
		e = e.bool(true)
	}
	return e
}

func decodeAlertRule(k, v []byte, r *AlertRule) error {
	acct, id, ok := splitAlertKey(k)
	if !ok {
		return errCorrupt
	}
	d := dec{b: v}
	*r = AlertRule{Account: acct, ID: id, Name: d.str(), GTIN: d.str(), Banner: d.str(), SKU: d.str(),
		Province: d.str(), Condition: d.str(), Threshold: d.varint(), Created: d.varint()}
	if d.err == nil && len(d.b) > 0 {
		r.Paused = d.bool()
	}
	return d.err
}

// splitAlertKey splits account 0x00 id(8).
func splitAlertKey(k []byte) (string, uint64, bool) {
	if len(k) < 9 || k[len(k)-9] != 0 {
		return "", 0, false
	}
	return string(k[:len(k)-9]), binary.BigEndian.Uint64(k[len(k)-8:]), true
}

// AlertIDKey returns the secret under which the ids of the file's alert
// rules and events are shown, creating it on first use in a writable
// transaction; a read-only one that finds none returns nil.
func (t *Tx) AlertIDKey() ([]byte, error) {
	if v := t.meta().Get(alertIDKey); len(v) == 32 {
		return append([]byte(nil), v...), nil
	}
	if !t.tx.Writable() {
		return nil, nil
	}
	s := make([]byte, 32)
	if _, err := rand.Read(s); err != nil {
		return nil, err
	}
	return s, t.put(t.meta(), alertIDKey, s)
}

// NewAlertRuleID returns a new rule id, unique in the file.
func (t *Tx) NewAlertRuleID() (uint64, error) { return t.alertRules().NextSequence() }

// PutAlertRule writes a rule, new or changed, and indexes it under what it
// watches while it is active (a paused rule is taken off the index). What
// a rule watches (province, barcode, banner, SKU) never changes: a changed
// rule keeps its index key.
func (t *Tx) PutAlertRule(r *AlertRule) error {
	if err := t.put(t.alertRules(), alertKey(r.Account, r.ID), encodeAlertRule(r)); err != nil {
		return err
	}
	if r.Paused {
		return t.alertWatch().Delete(alertWatchKey(r))
	}
	return t.put(t.alertWatch(), alertWatchKey(r), nil)
}

// AlertRule reads an account's rule.
func (t *Tx) AlertRule(account string, id uint64, r *AlertRule) (bool, error) {
	k := alertKey(account, id)
	v := t.alertRules().Get(k)
	if v == nil {
		return false, nil
	}
	return true, decodeAlertRule(k, v, r)
}

// DeleteAlertRule removes an account's rule, its index entry and its
// record of the days it fired (its events stay). It reports whether the
// rule existed.
func (t *Tx) DeleteAlertRule(account string, id uint64) (bool, error) {
	var r AlertRule
	found, err := t.AlertRule(account, id, &r)
	if err != nil || !found {
		return false, err
	}
	if err := t.alertWatch().Delete(alertWatchKey(&r)); err != nil {
		return false, err
	}
	if err := t.alertRules().Delete(alertKey(account, id)); err != nil {
		return false, err
	}
	prefix := alertKey(account, id)
	c := t.alertFired().Cursor()
	for k, _ := c.Seek(prefix); hasPrefix(k, prefix); k, _ = c.Seek(prefix) {
		if err := c.Delete(); err != nil {
			return false, err
		}
	}
	return true, nil
}

// AlertRules calls fn for each rule of an account, oldest first, or of
// every account (by account) when account is "". fn may keep r only until
// it returns; ErrStop ends the scan.
func (t *Tx) AlertRules(account string, fn func(r *AlertRule) error) error {
	var prefix []byte
	if account != "" {
		prefix = appendStr0(nil, account)
	}
	var r AlertRule
	c := t.alertRules().Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := decodeAlertRule(k, v, &r); err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// CountAlertRules returns the number of an account's rules, from the keys
// alone.
func (t *Tx) CountAlertRules(account string) int {
	prefix := appendStr0(nil, account)
	n := 0
	c := t.alertRules().Cursor()
	for k, _ := c.Seek(prefix); hasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}

// HasAlertRules reports whether any account has an active rule: a write
// with none to evaluate skips evaluation at the cost of this one seek.
func (t *Tx) HasAlertRules() bool {
	k, _ := t.alertWatch().Cursor().First()
	return k != nil
}

// AlertsWatching calls fn with the account and id of each active rule that
// watches a series: the rules on its barcode gtin (when not "") and the
// rules on its banner SKU, in that order, in province.
func (t *Tx) AlertsWatching(province, gtin, banner, sku string, fn func(account string, id uint64) error) error {
	prefixes := [][]byte{alertWatchPrefix(province, "", banner, sku)}
	if gtin != "" {
		prefixes = [][]byte{alertWatchPrefix(province, gtin, "", ""), prefixes[0]}
	}
	c := t.alertWatch().Cursor()
	for _, p := range prefixes {
		for k, _ := c.Seek(p); hasPrefix(k, p); k, _ = c.Next() {
			acct, id, ok := splitAlertKey(k[len(p):])
			if !ok {
				return errCorrupt
			}
			if err := fn(acct, id); err != nil {
				return stopped(err)
			}
		}
	}
	return nil
}

// AlertFired reports whether an account's rule recorded an event for an
// observation day.
func (t *Tx) AlertFired(account string, ruleID uint64, day int32) bool {
	return t.alertFired().Get(appendDay(alertKey(account, ruleID), day)) != nil
}

// NewAlertEventID returns a new event id, unique in the file and greater
// than every earlier one.
func (t *Tx) NewAlertEventID() (uint64, error) { return t.alertEvents().NextSequence() }

// eventKey orders an account's events newest first: account 0x00
// (MaxUint64 - id)(8).
func eventKey(account string, id uint64) []byte { return alertKey(account, math.MaxUint64-id) }

// PutAlertEvent records an event and marks its rule as fired on its day.
func (t *Tx) PutAlertEvent(e *AlertEvent) error {
	v := enc(nil).uvarint(e.RuleID).varint(e.Triggered).varint(int64(e.Day)).str(e.Condition).str(e.GTIN).
		str(e.Banner).str(e.SKU).str(e.Province).uvarint(uint64(e.Price)).uvarint(uint64(e.Previous)).str(e.Message)
	if e.Reason != "" {
		v = v.str(e.Reason) // optional trailing field: events written without it decode with ""
	}
	if err := t.put(t.alertEvents(), eventKey(e.Account, e.ID), v); err != nil {
		return err
	}
	return t.put(t.alertFired(), appendDay(alertKey(e.Account, e.RuleID), e.Day), binary.BigEndian.AppendUint64(nil, e.ID))
}

// AlertEvents calls fn for each event of an account, newest first, or of
// every account (by account) when account is "". fn may keep e only until
// it returns; ErrStop ends the scan.
func (t *Tx) AlertEvents(account string, fn func(e *AlertEvent) error) error {
	var prefix []byte
	if account != "" {
		prefix = appendStr0(nil, account)
	}
	var e AlertEvent
	c := t.alertEvents().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		acct, inv, ok := splitAlertKey(k)
		if !ok {
			return errCorrupt
		}
		d := dec{b: v}
		e = AlertEvent{Account: acct, ID: math.MaxUint64 - inv, RuleID: d.uvarint(), Triggered: d.varint(),
			Day: int32(d.varint()), Condition: d.str(), GTIN: d.str(), Banner: d.str(),
			SKU: d.str(), Province: d.str(), Price: d.u32(), Previous: d.u32(), Message: d.str()}
		if d.err == nil && len(d.b) > 0 {
			e.Reason = d.str()
		}
		if d.err != nil {
			return d.err
		}
		if err := fn(&e); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// AlertsOwed returns the earliest observation day whose alert evaluation
// is owed (OweAlerts), and whether one is.
func (t *Tx) AlertsOwed() (int32, bool) {
	v := t.meta().Get(keyOwed)
	if len(v) != 4 {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(v)), true
}

// OweAlerts marks, in the write transaction of the data it concerns, that
// the alert rules (in the file or in a shared store) are owed an
// evaluation of the days from day on, until ClearAlertsOwed: the earliest
// day stays when one is owed already.
func (t *Tx) OweAlerts(day int32) error {
	if d, ok := t.AlertsOwed(); ok && d <= day {
		return nil
	}
	return t.put(t.meta(), keyOwed, binary.BigEndian.AppendUint32(nil, uint32(day)))
}

// ClearAlertsOwed drops the mark of OweAlerts once the evaluation it asked
// for recorded its events.
func (t *Tx) ClearAlertsOwed() error { return t.meta().Delete(keyOwed) }

// AlertsCopied reports whether the file's alert rules and events were
// copied to the store kept outside the file (SetAlertsCopied).
func (t *Tx) AlertsCopied() bool { return t.meta().Get(keyCopied) != nil }

// SetAlertsCopied records that the file's alert rules and events were
// copied to the store kept outside the file (Redis), so that they are
// never copied twice.
func (t *Tx) SetAlertsCopied() error { return t.put(t.meta(), keyCopied, []byte{1}) }
