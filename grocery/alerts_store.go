package grocery

import (
	"context"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// MaxAlertRules and alertstore.MaxRules are one number: this does not
// compile when they differ.
const _ = uint(MaxAlertRules-alertstore.MaxRules) + uint(alertstore.MaxRules-MaxAlertRules)

// alertStore is the store of alert rules and events (alertstore.Store:
// the data file's own, or the shared store's of Options.Shared) with its
// faults converted to *Error.
//
// Evaluation is one path whichever it is: a write marks in its
// transaction the series it wrote as owed an evaluation (alertHook); once
// it commits, the rules watching them are evaluated in a read transaction
// of the committed data, their events recorded in the store, and the mark
// cleared (settleAlerts). A process that dies between the commit and the
// record leaves the mark, which the next write, open or EvaluateAlerts
// settles.
//
// hooks is the Service's webhook state: record puts each new event in its
// account's outbox (alertstore.Outbox) and wakes the delivery worker.
type alertStore struct {
	st    alertstore.Store
	hooks *webhookHooks
}

// ids returns how the store's rules and events are shown (alertstore.IDs).
// A store without an id secret has no rules: its IDs are of a zero
// secret, never shown, and a rule id given to it is found by no account.
func (a alertStore) ids(ctx context.Context) (alertstore.IDs, error) {
	key, err := a.st.IDKey(ctx)
	if err != nil {
		return alertstore.IDs{}, fromFault(err)
	}
	if key == nil {
		key = make([]byte, 32)
	}
	ids, err := alertstore.NewIDs(key)
	return ids, fromFault(err)
}

func (a alertStore) createRule(ctx context.Context, r *storage.AlertRule, claim *storage.IdempotencyRecord) error {
	return fromFault(a.st.CreateRule(ctx, r, claim))
}

func (a alertStore) rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error) {
	found, err := a.st.Rule(ctx, account, id, r)
	return found, fromFault(err)
}

func (a alertStore) rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error {
	return fromFault(a.st.Rules(ctx, account, fn))
}

// updateRule applies change to an account's rule and stores the result
// in out, reporting whether the rule exists; an error of change stores
// nothing and is returned as it is.
func (a alertStore) updateRule(ctx context.Context, account string, id uint64, change func(r *storage.AlertRule) error, out *storage.AlertRule) (bool, error) {
	found, err := a.st.UpdateRule(ctx, account, id, func(r *storage.AlertRule) error {
		if err := change(r); err != nil {
			return err
		}
		*out = *r
		return nil
	})
	return found, fromFault(err)
}

func (a alertStore) deleteRule(ctx context.Context, account string, id uint64) (bool, error) {
	found, err := a.st.DeleteRule(ctx, account, id)
	return found, fromFault(err)
}

func (a alertStore) events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	return fromFault(a.st.Events(ctx, account, fn))
}

func (a alertStore) hasRules(ctx context.Context, tx *storage.Tx) (bool, error) {
	has, err := a.st.HasRules(ctx, tx)
	return has, fromFault(err)
}

func (a alertStore) watching(ctx context.Context, tx *storage.Tx, qs []alertstore.WatchQuery) ([][]*storage.AlertRule, error) {
	rules, err := a.st.Watching(ctx, tx, qs)
	return rules, fromFault(err)
}

// record stores the events of a batch that are new and puts them in the
// outbox: the data file's store queues their deliveries as it stores them;
// a shared store's wait on its fanout list, queued here (fanOut) so that
// an endpoint gets events in the order they were recorded, whichever
// server recorded them (what fails here waits for the evaluating server's
// worker).
func (a alertStore) record(ctx context.Context, b alertBatch) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := a.st.Record(ctx, b, alertstore.Outbox{Want: wantsAlerts, Build: alertDelivery})
	if err != nil || n == 0 {
		return n, fromFault(err)
	}
	a.fanOut(ctx, n)
	a.hooks.kick()
	return n, nil
}

// fanOut queues the alert events kept in the shared store that wait for their
// endpoints (alertstore.HookStore's FanOut: any server may, none queues
// one twice); the data file's store queues them as it records them, and
// its FanOut has nothing to do. It queues at most max events (0: all
// that wait).
func (a alertStore) fanOut(ctx context.Context, max int) error {
	var ids *alertstore.IDs
	_, err := a.st.FanOut(ctx, max, wantsAlerts, func(e *storage.AlertEvent) (storage.WebhookDelivery, error) {
		if ids == nil {
			x, err := a.ids(ctx)
			if err != nil {
				return storage.WebhookDelivery{}, err
			}
			ids = &x
		}
		return alertDelivery(*ids, e)
	})
	return fromFault(err)
}
