package alertstore

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
)

// DeliveryKeep is how long delivered and failed webhook deliveries stay
// listed: an endpoint's older ones are pruned as new ones are queued.
const DeliveryKeep = 30 * 24 * time.Hour

// SenderLease is how long a server holds the sender's lease without
// renewing it (HookStore.HoldSender): longer than an attempt may take
// (10 s), so that a server that stops renewing has finished its attempts
// before another takes over.
const SenderLease = 15 * time.Second

// PruneEvery: an endpoint's outbox is pruned at every PruneEvery-th
// delivery queued to it.
const PruneEvery = 64

// HookStore keeps webhook endpoints and their outboxes (the deliveries
// queued to each, in event order), where the alert events are: Bolt in
// the data file, Redis in Redis, shared by every server pointed at it.
// The node that evaluates rules sends the deliveries (HookHeads, then
// EditHook to record each attempt); any node may create, change or
// delete an endpoint, or queue to it.
type HookStore interface {
	// CreateHook gives w a new random id and stores it, unless its
	// account holds max endpoints (fault.Conflict), atomically.
	// With claim not nil, as CreateRule.
	CreateHook(ctx context.Context, w *storage.Webhook, max int, claim *storage.IdempotencyRecord) error
	// Hook reads one endpoint of an account.
	Hook(ctx context.Context, account string, id uint64, w *storage.Webhook) (bool, error)
	// Hooks calls fn for each endpoint of account, in id order. fn may
	// keep w only until it returns; storage.ErrStop ends the scan.
	Hooks(ctx context.Context, account string, fn func(w *storage.Webhook) error) error
	// EditHook reads an endpoint into an Edit, lets edit change it and
	// its deliveries, and writes what edit changed, atomically (edit may
	// be called more than once, on the endpoint as stored each time). It
	// reports whether the endpoint exists. An error of edit is returned
	// as it is, and nothing is stored.
	EditHook(ctx context.Context, account string, id uint64, edit func(e *Edit) error) (bool, error)
	// DeleteHook removes an endpoint with its deliveries, reporting
	// whether it existed.
	DeleteHook(ctx context.Context, account string, id uint64) (bool, error)
	// HookDeliveries calls fn for the deliveries of an endpoint, newest
	// first, from the offset-th (0 the newest), at most limit of them,
	// and returns how many the endpoint holds. fn may keep d only until
	// it returns.
	HookDeliveries(ctx context.Context, account string, id uint64, offset, limit int, fn func(d *storage.WebhookDelivery)) (int, error)
	// HookHeads calls fn with each endpoint that has a pending delivery
	// and the first of them (the one to attempt next). fn may keep
	// neither; storage.ErrStop ends the scan.
	HookHeads(ctx context.Context, fn func(w *storage.Webhook, d *storage.WebhookDelivery) error) error
	// FanOut queues the alert events recorded but not yet queued to
	// their endpoints (a shared store's: the data file's events are queued in
	// the transaction that records them, EnqueueEventsTx), in the order
	// recorded, at most max of them (0: all): each to every endpoint of
	// its account that existed when it was recorded and that want
	// accepts, as the delivery build makes of it. It returns how many
	// deliveries it queued.
	FanOut(ctx context.Context, max int, want func(w *storage.Webhook) bool, build func(e *storage.AlertEvent) (storage.WebhookDelivery, error)) (int, error)
	// HoldSender takes, or keeps, for ttl the lease of the one server
	// that sends the deliveries, for node (a server's random name), and
	// reports whether node holds it: servers sharing Redis must not each
	// send (the data file has one holder, and always reports true).
	HoldSender(ctx context.Context, node string, ttl time.Duration) (bool, error)
	// ReleaseSender gives the lease up, if node holds it.
	ReleaseSender(ctx context.Context, node string) error
	// HookPending reports whether any endpoint has a pending delivery:
	// a server that finds none neither takes nor keeps the lease.
	HookPending(ctx context.Context) (bool, error)
}

// Edit is one change of a webhook endpoint and its deliveries, made by
// HookStore.EditHook: W is the endpoint as stored, changed in place;
// Delivery and Pending read its deliveries, Put and Enqueue write them
// (with W) once the edit returns.
type Edit struct {
	W       storage.Webhook
	get     func(seq uint64, d *storage.WebhookDelivery) (bool, error)
	pending func(fn func(d *storage.WebhookDelivery)) error
	puts    []storage.WebhookDelivery
	// pruneBefore, when not 0: the outbox's delivered and failed
	// deliveries created before it (Unix ms) go with the edit.
	pruneBefore int64
}

// Delivery reads one delivery of the endpoint.
func (e *Edit) Delivery(seq uint64, d *storage.WebhookDelivery) (bool, error) { return e.get(seq, d) }

// Pending returns the endpoint's pending deliveries.
func (e *Edit) Pending() ([]storage.WebhookDelivery, error) {
	var out []storage.WebhookDelivery
	err := e.pending(func(d *storage.WebhookDelivery) { out = append(out, *d) })
	return out, err
}

// Put writes d, a delivery of the endpoint, with the edit.
func (e *Edit) Put(d *storage.WebhookDelivery) {
	d.Account, d.Endpoint = e.W.Account, e.W.ID
	e.puts = append(e.puts, *d)
}

// Enqueue adds d to the endpoint's outbox, after what waits there: it
// numbers it (Seq) and writes it with the edit.
func (e *Edit) Enqueue(d *storage.WebhookDelivery) {
	e.W.Seq++
	d.Seq = e.W.Seq
	if d.Seq%PruneEvery == 0 {
		e.pruneBefore = d.Created - DeliveryKeep.Milliseconds()
	}
	e.Put(d)
}

// SetReader sets how the edit reads its endpoint's deliveries: get one
// by number (Delivery), and list the pending ones (Pending). A store other
// than Bolt calls it when it makes an edit.
func (e *Edit) SetReader(get func(seq uint64, d *storage.WebhookDelivery) (bool, error), pending func(fn func(d *storage.WebhookDelivery)) error) {
	e.get, e.pending = get, pending
}

// Puts returns the deliveries the edit writes (Put, Enqueue).
func (e *Edit) Puts() []storage.WebhookDelivery { return e.puts }

// PruneOlder makes the edit remove, with its writes, the outbox's
// delivered and failed deliveries created before before (Unix ms).
func (e *Edit) PruneOlder(before int64) { e.pruneBefore = before }

// PruneBefore returns, when not 0, the time (Unix ms) before which the
// outbox's delivered and failed deliveries go with the edit.
func (e *Edit) PruneBefore() int64 { return e.pruneBefore }

// NewHookID returns a random endpoint id, never 0.
func NewHookID() uint64 {
	for {
		var b [8]byte
		rand.Read(b[:])
		if id := binary.BigEndian.Uint64(b[:]); id != 0 {
			return id
		}
	}
}

// HookLimit is CreateHook's fault.Conflict for an account that holds n
// endpoints.
func HookLimit(account string, n int) error {
	return fault.New(fault.Conflict, "account %s has %d webhook endpoints, the most an account may hold: delete one first", account, n)
}

// CreateHook gives w a new id and stores it, unless its account holds
// max endpoints, in one transaction.
func (b Bolt) CreateHook(ctx context.Context, w *storage.Webhook, max int, claim *storage.IdempotencyRecord) error {
	return b.DB.Update(func(tx *storage.Tx) error {
		n := 0
		if err := tx.Webhooks(w.Account, func(*storage.Webhook) error { n++; return nil }); err != nil {
			return err
		}
		if n >= max {
			return HookLimit(w.Account, n)
		}
		for {
			w.ID = NewHookID()
			var old storage.Webhook
			if found, err := tx.Webhook(w.Account, w.ID, &old); err != nil {
				return err
			} else if !found {
				if claim != nil {
					if err := idemstore.RecordObject(tx, claim, HookObject(w.ID)); err != nil {
						return err
					}
				}
				return tx.PutWebhook(w)
			}
		}
	})
}

// Hook reads one endpoint of an account.
func (b Bolt) Hook(ctx context.Context, account string, id uint64, w *storage.Webhook) (bool, error) {
	var found bool
	err := b.DB.View(func(tx *storage.Tx) (err error) {
		found, err = tx.Webhook(account, id, w)
		return err
	})
	return found, err
}

// Hooks calls fn for each endpoint of account, in id order.
func (b Bolt) Hooks(ctx context.Context, account string, fn func(w *storage.Webhook) error) error {
	return b.DB.View(func(tx *storage.Tx) error { return tx.Webhooks(account, fn) })
}

// EditHook changes an endpoint and its deliveries in one transaction.
func (b Bolt) EditHook(ctx context.Context, account string, id uint64, edit func(e *Edit) error) (bool, error) {
	var found bool
	err := b.DB.Update(func(tx *storage.Tx) error {
		e := boltEdit(tx)
		var err error
		if found, err = tx.Webhook(account, id, &e.W); err != nil || !found {
			return err
		}
		if err := edit(e); err != nil {
			return err
		}
		return writeEdit(tx, e)
	})
	return found, err
}

func boltEdit(tx *storage.Tx) *Edit {
	e := &Edit{}
	e.get = func(seq uint64, d *storage.WebhookDelivery) (bool, error) {
		return tx.WebhookDelivery(e.W.Account, e.W.ID, seq, d)
	}
	e.pending = func(fn func(d *storage.WebhookDelivery)) error {
		return tx.WebhookDeliveries(e.W.Account, e.W.ID, func(d *storage.WebhookDelivery) error {
			if d.Status == storage.DeliveryPending {
				fn(d)
			}
			return nil
		})
	}
	return e
}

func writeEdit(tx *storage.Tx, e *Edit) error {
	for i := range e.puts {
		if err := tx.PutWebhookDelivery(&e.puts[i]); err != nil {
			return err
		}
	}
	if e.pruneBefore != 0 {
		if _, err := tx.PruneWebhookDeliveries(e.W.Account, e.W.ID, e.pruneBefore, 1000); err != nil {
			return err
		}
	}
	return tx.PutWebhook(&e.W)
}

// EnqueueEventsTx queues, in the transaction tx that recorded them, a
// delivery of each recorded event (ID set) to each endpoint of its
// account that want accepts, built by build with the ids of tx's alert
// store; each goes to the endpoint's outbox after what waits there,
// numbered (Seq). It reports whether it queued any: how the data file's
// alert events are queued in the transaction that records them.
func EnqueueEventsTx(tx *storage.Tx, events []storage.AlertEvent, want func(w *storage.Webhook) bool,
	build func(ids IDs, e *storage.AlertEvent) (storage.WebhookDelivery, error)) (bool, error) {
	var ids *IDs
	endpoints := map[string][]storage.Webhook{}
	queued := false
	for i := range events {
		e := &events[i]
		if e.ID == 0 {
			continue // not recorded: its rule fired that day already
		}
		eps, seen := endpoints[e.Account]
		if !seen {
			err := tx.Webhooks(e.Account, func(w *storage.Webhook) error {
				if want(w) {
					eps = append(eps, *w)
				}
				return nil
			})
			if err != nil {
				return false, err
			}
			endpoints[e.Account] = eps
		}
		if len(eps) == 0 {
			continue
		}
		if ids == nil {
			key, err := tx.AlertIDKey()
			if err != nil {
				return false, err
			}
			x, err := NewIDs(key)
			if err != nil {
				return false, err
			}
			ids = &x
		}
		tmpl, err := build(*ids, e)
		if err != nil {
			return false, err
		}
		for j := range eps {
			d := tmpl
			ed := boltEdit(tx)
			ed.W = eps[j]
			ed.Enqueue(&d)
			if err := writeEdit(tx, ed); err != nil {
				return false, err
			}
			eps[j] = ed.W
			queued = true
		}
	}
	return queued, nil
}

// RestartPending makes the endpoint's pending deliveries due at now,
// their time before they fail starting again.
func (e *Edit) RestartPending(now time.Time) error {
	pending, err := e.Pending()
	if err != nil {
		return err
	}
	for i := range pending {
		pending[i].Since, pending[i].Next = 0, now.UnixMilli()
		e.Put(&pending[i])
	}
	return nil
}

// DeleteHook removes an endpoint with its deliveries.
func (b Bolt) DeleteHook(ctx context.Context, account string, id uint64) (bool, error) {
	var found bool
	err := b.DB.Update(func(tx *storage.Tx) (err error) {
		found, err = tx.DeleteWebhook(account, id)
		return err
	})
	return found, err
}

// HookDeliveries calls fn for a page of an endpoint's deliveries, newest
// first, and counts them all.
func (b Bolt) HookDeliveries(ctx context.Context, account string, id uint64, offset, limit int, fn func(d *storage.WebhookDelivery)) (int, error) {
	total := 0
	err := b.DB.View(func(tx *storage.Tx) error {
		return tx.WebhookDeliveries(account, id, func(d *storage.WebhookDelivery) error {
			if total >= offset && total < offset+limit {
				fn(d)
			}
			total++
			return nil
		})
	})
	return total, err
}

// HookHeads calls fn with each endpoint that has a pending delivery and
// the first of them, in key order.
func (b Bolt) HookHeads(ctx context.Context, fn func(w *storage.Webhook, d *storage.WebhookDelivery) error) error {
	return b.DB.View(func(tx *storage.Tx) error {
		var w storage.Webhook
		var d storage.WebhookDelivery
		return tx.WebhookHeads(func(account string, ep, seq uint64) error {
			if found, err := tx.Webhook(account, ep, &w); err != nil || !found {
				return err
			}
			if found, err := tx.WebhookDelivery(account, ep, seq, &d); err != nil || !found {
				return err
			}
			return fn(&w, &d)
		})
	})
}

// FanOut queues nothing: the data file's events are queued as they are
// recorded (EnqueueEventsTx).
func (Bolt) FanOut(context.Context, int, func(*storage.Webhook) bool, func(*storage.AlertEvent) (storage.WebhookDelivery, error)) (int, error) {
	return 0, nil
}

// HoldSender reports true: the server holding the data file for writing
// is its only sender.
func (Bolt) HoldSender(context.Context, string, time.Duration) (bool, error) { return true, nil }

// ReleaseSender does nothing.
func (Bolt) ReleaseSender(context.Context, string) error { return nil }

// HookPending reports true: the data file's only sender needs no lease,
// and HookHeads finds what is pending.
func (Bolt) HookPending(context.Context) (bool, error) { return true, nil }
