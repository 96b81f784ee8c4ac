package alertredis

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// testBolt returns the alert store of a new data file in tb.TempDir().
func testBolt(tb testing.TB) alertstore.Bolt {
	tb.Helper()
	db, err := storage.Open(filepath.Join(tb.TempDir(), "a.db"), storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return alertstore.Bolt{DB: db}
}

// testHookStores returns an empty alertstore.HookStore of each backend.
func testHookStores(t *testing.T) map[string]alertstore.HookStore {
	return map[string]alertstore.HookStore{"bolt": testBolt(t), "redis": testRedis(t)}
}

// queueAged stores an endpoint of acme and queues to it, oldest first,
// deliveries created at each of created (Unix ms) with status.
func queueAged(t *testing.T, st alertstore.HookStore, created []int64, status []uint8) storage.Webhook {
	t.Helper()
	ctx := context.Background()
	w := storage.Webhook{Account: "acme", URL: "https://example.com/h", Events: []string{"alert.triggered"}, Created: 1}
	if err := st.CreateHook(ctx, &w, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EditHook(ctx, "acme", w.ID, func(e *alertstore.Edit) error {
		for i := range created {
			e.Enqueue(&storage.WebhookDelivery{EventID: "evt", Created: created[i], Status: status[i], Body: []byte(`{}`)})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

// seqsOf returns the numbers of the endpoint's deliveries, oldest first.
func seqsOf(t *testing.T, st alertstore.HookStore, w storage.Webhook) []uint64 {
	t.Helper()
	var seqs []uint64
	if _, err := st.HookDeliveries(context.Background(), w.Account, w.ID, 0, 1000, func(d *storage.WebhookDelivery) {
		seqs = append(seqs, d.Seq)
	}); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(seqs)
	return seqs
}

// Queueing an endpoint's alertstore.PruneEvery-th delivery prunes its delivered and
// failed deliveries created more than alertstore.DeliveryKeep before it; pending
// ones, and recent ones, stay.
func TestPruneDeliveries(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC).UnixMilli()
	old, recent := now-alertstore.DeliveryKeep.Milliseconds()-1, now-24*time.Hour.Milliseconds()
	created := []int64{old, old, old, old}
	status := []uint8{storage.DeliveryDelivered, storage.DeliveryFailed, storage.DeliveryPending, storage.DeliveryDelivered}
	for len(created) < alertstore.PruneEvery-1 {
		created, status = append(created, recent), append(status, storage.DeliveryDelivered)
	}
	var want []uint64 // 3 (old but pending), 5.. (recent) and the new one
	for seq := uint64(3); seq <= alertstore.PruneEvery; seq++ {
		if seq != 4 {
			want = append(want, seq)
		}
	}
	for name, st := range testHookStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := queueAged(t, st, created, status)
			if got := seqsOf(t, st, w); len(got) != alertstore.PruneEvery-1 {
				t.Fatalf("before the %dth delivery: got %d deliveries, want %d (no prune yet)", alertstore.PruneEvery, len(got), alertstore.PruneEvery-1)
			}
			if _, err := st.EditHook(context.Background(), "acme", w.ID, func(e *alertstore.Edit) error {
				e.Enqueue(&storage.WebhookDelivery{EventID: "evt_new", Created: now, Next: now, Body: []byte(`{}`)})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if got := seqsOf(t, st, w); !slices.Equal(got, want) {
				t.Errorf("after the %dth delivery: got deliveries %v, want %v", alertstore.PruneEvery, got, want)
			}
		})
	}
}

// A prune of several endpoints at once (an event queued to each) prunes
// each, even when one of them cannot be read: deleted by another server
// between the write and the prune.
func TestRedisPruneSkipsGoneEndpoint(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC).UnixMilli()
	old := now - alertstore.DeliveryKeep.Milliseconds() - 1
	w := queueAged(t, a, []int64{old, now}, []uint8{storage.DeliveryDelivered, storage.DeliveryDelivered})
	gone := &redisEdit{Edit: alertstore.Edit{W: storage.Webhook{Account: "acme", ID: w.ID + 1}}}
	this := &redisEdit{Edit: alertstore.Edit{W: w}}
	gone.PruneOlder(now - alertstore.DeliveryKeep.Milliseconds())
	this.PruneOlder(now - alertstore.DeliveryKeep.Milliseconds())
	a.prune(ctx, []*redisEdit{gone, this})
	if got := seqsOf(t, a, w); !slices.Equal(got, []uint64{2}) {
		t.Errorf("deliveries after a prune led by a deleted endpoint: got %v, want [2] (the old delivered one pruned)", got)
	}
}

// TestRecordOnlyActiveRules: Record stores an event only while its rule
// exists and is not paused, in either store: an evaluation reads the rules
// before it records, and a rule paused or deleted in between must record
// nothing (nor queue a delivery).
func TestRecordOnlyActiveRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	stores := map[string]alertstore.Store{"bolt": testBolt(t), "redis": testRedis(t)}
	for name, st := range stores {
		t.Run(name, func(t *testing.T) {
			r := storage.AlertRule{Account: "acme", Province: "ON", Banner: "loblaws", SKU: "L1", Condition: "promo_start"}
			if err := st.CreateRule(ctx, &r, nil); err != nil {
				t.Fatal(err)
			}
			record := func(day int32) int {
				t.Helper()
				n, err := st.Record(ctx, []storage.AlertEvent{{Account: "acme", RuleID: r.ID, Day: day, Triggered: 5, Message: "m"}}, alertstore.Outbox{
					Want: func(*storage.Webhook) bool { return true },
					Build: func(alertstore.IDs, *storage.AlertEvent) (storage.WebhookDelivery, error) {
						return storage.WebhookDelivery{}, nil
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			setPaused := func(paused bool) {
				t.Helper()
				if _, err := st.UpdateRule(ctx, "acme", r.ID, func(r *storage.AlertRule) error { r.Paused = paused; return nil }); err != nil {
					t.Fatal(err)
				}
			}
			setPaused(true)
			if n := record(1); n != 0 {
				t.Errorf("paused rule: recorded %d events, want 0", n)
			}
			setPaused(false)
			if n := record(1); n != 1 {
				t.Errorf("resumed rule: recorded %d events, want 1", n)
			}
			if n := record(1); n != 0 {
				t.Errorf("the same day again: recorded %d events, want 0", n)
			}
			if _, err := st.DeleteRule(ctx, "acme", r.ID); err != nil {
				t.Fatal(err)
			}
			if n := record(2); n != 0 {
				t.Errorf("deleted rule: recorded %d events, want 0", n)
			}
			events := 0
			if err := st.Events(ctx, "acme", func(*storage.AlertEvent) error { events++; return nil }); err != nil {
				t.Fatal(err)
			}
			if events != 1 {
				t.Errorf("%d events stored, want 1", events)
			}
		})
	}
}
