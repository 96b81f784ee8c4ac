package grocery

import (
	"context"

	"github.com/grocerydata/grocery/storage"
)

// alertStore keeps alert rules and events. There are two, as for keys
// (accessStore): boltAlerts, the data file's own (the default), and
// redisAlerts, the Redis server the service's keys are in
// (Options.RedisURL), so that every server pointed at it shares the rules
// and events, and the node that imports records events there.
//
// Evaluation reads the price series from the data file either way. With
// bbolt it runs inside the import's write transaction (the events commit
// with the data); with Redis it runs after the import commits, in a read
// transaction of the committed data, and writes the events to Redis
// (local reports false).
type alertStore interface {
	// local reports whether rules and events live in the data file:
	// evaluation then runs inside the write transaction that wrote the
	// data, and watching and record use its tx.
	local() bool
	// createRule gives r a new id and stores it, unless its account holds
	// MaxAlertRules rules (ECONFLICT), atomically.
	createRule(ctx context.Context, r *storage.AlertRule) error
	// rule reads one rule of an account.
	rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error)
	// rules calls fn for each rule of account, oldest first, or of every
	// account when account is "". fn may keep r only until it returns;
	// storage.ErrStop ends the scan.
	rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error
	// deleteRule removes a rule and its record of the days it fired (its
	// events stay), reporting whether it existed.
	deleteRule(ctx context.Context, account string, id uint64) (bool, error)
	// events calls fn for each event of account, newest first. fn may keep
	// e only until it returns; storage.ErrStop ends the scan.
	events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error
	// hasRules reports whether any account has a rule (tx: the write
	// transaction, for the local store).
	hasRules(ctx context.Context, tx *storage.Tx) (bool, error)
	// watching returns, for each query, the rules that watch its series:
	// those on its barcode (when it has one) and on its banner SKU, in
	// that order. One rule has one pointer in the whole answer.
	watching(ctx context.Context, tx *storage.Tx, qs []watchQuery) ([][]*storage.AlertRule, error)
	// record stores the events whose rule has not fired on their day yet
	// (and still exists), in order, numbering them; it returns how many it
	// stored. The events come sorted by day, without their Message, which
	// message(i) writes for events[i] when it is needed.
	record(ctx context.Context, tx *storage.Tx, events []storage.AlertEvent, message func(i int) string) (int, error)
}

// watchQuery names one series for alertStore.watching: gtin is "" when
// its SKU is linked to no barcode.
type watchQuery struct {
	province, gtin, banner, sku string
}

// boltAlerts is the alertStore of the data file (storage/alerts.go).
type boltAlerts struct{ s *Service }

func (boltAlerts) local() bool { return true }

func (b boltAlerts) createRule(ctx context.Context, r *storage.AlertRule) error {
	return b.s.db.Update(func(tx *storage.Tx) error {
		if n := tx.CountAlertRules(r.Account); n >= MaxAlertRules {
			return ruleLimit(r.Account, n)
		}
		id, err := tx.NewAlertRuleID()
		if err != nil {
			return err
		}
		r.ID = id
		return tx.PutAlertRule(r)
	})
}

// ruleLimit is CreateAlert's ECONFLICT for an account that holds n rules.
func ruleLimit(account string, n int) error {
	return Errorf(ECONFLICT, "account %s has %d alert rules, the most an account may hold: delete one first", account, n)
}

func (b boltAlerts) rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error) {
	var found bool
	err := b.s.db.View(func(tx *storage.Tx) (err error) {
		found, err = tx.AlertRule(account, id, r)
		return err
	})
	return found, err
}

func (b boltAlerts) rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error {
	return b.s.db.View(func(tx *storage.Tx) error { return tx.AlertRules(account, fn) })
}

func (b boltAlerts) deleteRule(ctx context.Context, account string, id uint64) (bool, error) {
	var found bool
	err := b.s.db.Update(func(tx *storage.Tx) (err error) {
		found, err = tx.DeleteAlertRule(account, id)
		return err
	})
	return found, err
}

func (b boltAlerts) events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	return b.s.db.View(func(tx *storage.Tx) error { return tx.AlertEvents(account, fn) })
}

func (boltAlerts) hasRules(ctx context.Context, tx *storage.Tx) (bool, error) {
	return tx.HasAlertRules(), nil
}

func (boltAlerts) watching(ctx context.Context, tx *storage.Tx, qs []watchQuery) ([][]*storage.AlertRule, error) {
	out := make([][]*storage.AlertRule, len(qs))
	cache := map[uint64]*storage.AlertRule{} // rule ids are unique in the file
	for i, q := range qs {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		err := tx.AlertsWatching(q.province, q.gtin, q.banner, q.sku, func(account string, id uint64) error {
			r, ok := cache[id]
			if !ok {
				r = new(storage.AlertRule)
				found, err := tx.AlertRule(account, id, r)
				if err != nil {
					return err
				}
				if !found {
					return Errorf(EINTERNAL, "alert index names a missing rule")
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

func (boltAlerts) record(ctx context.Context, tx *storage.Tx, events []storage.AlertEvent, message func(i int) string) (int, error) {
	n := 0
	for i := range events {
		e := &events[i]
		if tx.AlertFired(e.Account, e.RuleID, e.Day) {
			continue
		}
		id, err := tx.NewAlertEventID()
		if err != nil {
			return n, err
		}
		e.ID, e.Message = id, message(i)
		if err := tx.PutAlertEvent(e); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
