// Package alertstore keeps grocery's alert rules and events, in
// storage's vocabulary (storage.AlertRule, storage.AlertEvent): the Store
// interface and the data file's store (Bolt); package alertredis keeps
// them in a shared Redis. It imports nothing from grocery: grocery
// converts its fault kinds at the edge.
package alertstore

import (
	"context"
	"strconv"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
)

// MaxRules is the number of alert rules an account may hold
// (grocery.MaxRules).
const MaxRules = 1000

// Store keeps alert rules and events. There are two, as for keys: Bolt,
// the data file's own (the default), and Redis, the Redis server the
// service's keys are in, so that every server pointed at it shares the
// rules and events, and the node that imports records events there.
//
// Evaluation is the same whichever the store: it reads the price series
// from the data file after a write commits, in a read transaction of the
// committed data (HasRules and Watching are given it: the data file's
// store reads its rules there), and records the events afterwards.
type Store interface {
	// Local reports whether the store is the data file's own: no other
	// server queues deliveries to its outbox.
	Local() bool
	// MayHaveRules reports, inside a write transaction of the data file,
	// whether the store may hold a rule: the data file's store reads tx;
	// a shared one cannot tell without a round trip and reports true.
	MayHaveRules(tx *storage.Tx) bool
	// IDKey returns the secret the store's ids are shown under (IDs), nil
	// while the store has none: the data file makes its own with its
	// first rule, Redis on first use.
	IDKey(ctx context.Context) ([]byte, error)
	// CreateRule gives r a new id and stores it, unless its account holds
	// MaxRules rules (fault.Conflict), atomically.
	// With claim not nil (an idempotency key's claim), the rule is
	// recorded in it in the same transaction (idemstore.RecordObject),
	// or not created at all (idemstore.ClaimLost).
	CreateRule(ctx context.Context, r *storage.AlertRule, claim *storage.IdempotencyRecord) error
	// Rule reads one rule of an account.
	Rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error)
	// Rules calls fn for each rule of account, oldest first, or of every
	// account when account is "". fn may keep r only until it returns;
	// storage.ErrStop ends the scan.
	Rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error
	// UpdateRule changes an account's rule by change (which may be called
	// more than once, on the rule as stored each time), atomically, and
	// reports whether the rule exists. What the rule watches does not
	// change; a paused rule (Paused) is taken off the watch index, a
	// resumed one put back. An error of change is returned as it is, and
	// nothing is stored.
	UpdateRule(ctx context.Context, account string, id uint64, change func(r *storage.AlertRule) error) (bool, error)
	// DeleteRule removes a rule and its record of the days it fired (its
	// events stay), reporting whether it existed.
	DeleteRule(ctx context.Context, account string, id uint64) (bool, error)
	// Events calls fn for each event of account, newest first. fn may keep
	// e only until it returns; storage.ErrStop ends the scan.
	Events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error
	// HasRules reports whether any account has a rule (tx: a transaction
	// of the data file, where the data file's store reads).
	HasRules(ctx context.Context, tx *storage.Tx) (bool, error)
	// Watching returns, for each query, the rules that watch its series:
	// those on its barcode (when it has one) and on its banner SKU, in
	// that order. One rule has one pointer in the whole answer.
	Watching(ctx context.Context, tx *storage.Tx, qs []WatchQuery) ([][]*storage.AlertRule, error)
	// Record stores the events whose rule still exists, is not paused and
	// has not fired on their day yet, in order, numbering them, and puts
	// them in the
	// outbox (out); it returns how many it stored. The events come sorted
	// by day, with their Message. The data file's store queues their
	// deliveries in the transaction that stores them; a shared store puts
	// them on its fanout list, which FanOut empties.
	Record(ctx context.Context, events []storage.AlertEvent, out Outbox) (int, error)

	// The webhook endpoints of the accounts and their outboxes.
	HookStore
}

// Outbox is how an event recorded goes to the webhook endpoints: to each
// endpoint of its account that Want accepts, the delivery Build makes of
// it, shown under the store's ids.
type Outbox struct {
	Want  func(w *storage.Webhook) bool
	Build func(ids IDs, e *storage.AlertEvent) (storage.WebhookDelivery, error)
}

// WatchQuery names one series for Store.Watching: GTIN is "" when its SKU
// is linked to no barcode.
type WatchQuery struct {
	Province, GTIN, Banner, SKU string
}

// Bolt is the Store of the data file (storage/alerts.go). Its zero value,
// without a DB, serves the methods given a transaction (MayHaveRules,
// HasRules, Watching).
type Bolt struct{ DB *storage.DB }

// Local reports true: rules and events live in the data file.
func (Bolt) Local() bool { return true }

// MayHaveRules reports whether the file holds any rule.
func (Bolt) MayHaveRules(tx *storage.Tx) bool { return tx.HasAlertRules() }

// IDKey returns the data file's alert id secret, nil when it has none.
func (b Bolt) IDKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := b.DB.View(func(tx *storage.Tx) (err error) { key, err = tx.AlertIDKey(); return err })
	return key, err
}

// EnsureIDKey makes the data file's alert id secret when it holds rules
// but no secret (rules written by a build that showed their numbers), so
// that a read-only open of it shows ids too. It writes only then.
func (b Bolt) EnsureIDKey() error {
	var need bool
	err := b.DB.View(func(tx *storage.Tx) error {
		key, err := tx.AlertIDKey()
		need = key == nil && tx.HasAlertRules()
		return err
	})
	if err != nil || !need {
		return err
	}
	return b.DB.Update(func(tx *storage.Tx) error { _, err := tx.AlertIDKey(); return err })
}

// CreateRule gives r a new id and stores it, unless its account holds
// MaxRules rules, making the file's alert id secret with its first rule;
// with claim, recording it there in the same transaction.
func (b Bolt) CreateRule(ctx context.Context, r *storage.AlertRule, claim *storage.IdempotencyRecord) error {
	return b.DB.Update(func(tx *storage.Tx) error {
		if n := tx.CountAlertRules(r.Account); n >= MaxRules {
			return RuleLimit(r.Account, n)
		}
		if _, err := tx.AlertIDKey(); err != nil {
			return err
		}
		id, err := tx.NewAlertRuleID()
		if err != nil {
			return err
		}
		r.ID = id
		if claim != nil {
			if err := idemstore.RecordObject(tx, claim, RuleObject(id)); err != nil {
				return err
			}
		}
		return tx.PutAlertRule(r)
	})
}

// RuleObject and HookObject name a created rule and endpoint in an
// idempotency record (storage.IdempotencyRecord.Object).
func RuleObject(id uint64) string { return "alert:" + strconv.FormatUint(id, 10) }

// HookObject: see RuleObject.
func HookObject(id uint64) string { return "webhook:" + strconv.FormatUint(id, 10) }

// RuleLimit is CreateAlert's fault.Conflict for an account that holds n rules.
func RuleLimit(account string, n int) error {
	return fault.New(fault.Conflict, "account %s has %d alert rules, the most an account may hold: delete one first", account, n)
}

// Rule reads one rule of an account.
func (b Bolt) Rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error) {
	var found bool
	err := b.DB.View(func(tx *storage.Tx) (err error) {
		found, err = tx.AlertRule(account, id, r)
		return err
	})
	return found, err
}

// Rules calls fn for each rule of account, oldest first, or of every
// account when account is "".
func (b Bolt) Rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error {
	return b.DB.View(func(tx *storage.Tx) error { return tx.AlertRules(account, fn) })
}

// UpdateRule changes an account's rule by change in one transaction.
func (b Bolt) UpdateRule(ctx context.Context, account string, id uint64, change func(r *storage.AlertRule) error) (bool, error) {
	var found bool
	err := b.DB.Update(func(tx *storage.Tx) error {
		var r storage.AlertRule
		var err error
		if found, err = tx.AlertRule(account, id, &r); err != nil || !found {
			return err
		}
		if err := change(&r); err != nil {
			return err
		}
		r.Account, r.ID = account, id
		return tx.PutAlertRule(&r)
	})
	return found, err
}

// DeleteRule removes a rule and its record of the days it fired.
func (b Bolt) DeleteRule(ctx context.Context, account string, id uint64) (bool, error) {
	var found bool
	err := b.DB.Update(func(tx *storage.Tx) (err error) {
		found, err = tx.DeleteAlertRule(account, id)
		return err
	})
	return found, err
}

// Events calls fn for each event of account, newest first.
func (b Bolt) Events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	return b.DB.View(func(tx *storage.Tx) error { return tx.AlertEvents(account, fn) })
}

// HasRules reports whether the file holds any rule.
func (Bolt) HasRules(ctx context.Context, tx *storage.Tx) (bool, error) {
	return tx.HasAlertRules(), nil
}

// Watching returns, for each query, the rules that watch its series.
func (Bolt) Watching(ctx context.Context, tx *storage.Tx, qs []WatchQuery) ([][]*storage.AlertRule, error) {
	out := make([][]*storage.AlertRule, len(qs))
	cache := map[uint64]*storage.AlertRule{} // rule ids are unique in the file
	for i, q := range qs {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		err := tx.AlertsWatching(q.Province, q.GTIN, q.Banner, q.SKU, func(account string, id uint64) error {
			r, ok := cache[id]
			if !ok {
				r = new(storage.AlertRule)
				found, err := tx.AlertRule(account, id, r)
				if err != nil {
					return err
				}
				if !found {
					return fault.New(fault.Internal, "alert index names a missing rule")
				}
				cache[id] = r
			}
			out[i] = append(out[i], r)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Record stores the events whose rule still exists, is not paused and has
// not fired on their day yet, and queues their deliveries, in one write
// transaction: a rule paused or deleted after the evaluation read it
// records nothing.
func (b Bolt) Record(ctx context.Context, events []storage.AlertEvent, out Outbox) (int, error) {
	n := 0
	err := b.DB.Update(func(tx *storage.Tx) error {
		n = 0
		var r storage.AlertRule
		for i := range events {
			e := &events[i]
			e.ID = 0
			if tx.AlertFired(e.Account, e.RuleID, e.Day) {
				continue
			}
			if found, err := tx.AlertRule(e.Account, e.RuleID, &r); err != nil {
				return err
			} else if !found || r.Paused {
				continue
			}
			id, err := tx.NewAlertEventID()
			if err != nil {
				return err
			}
			e.ID = id
			if err := tx.PutAlertEvent(e); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return nil
		}
		_, err := EnqueueEventsTx(tx, events, out.Want, out.Build)
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
