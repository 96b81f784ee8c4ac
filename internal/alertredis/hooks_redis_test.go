package alertredis

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/storage"
)

// An edit of an endpoint that another server changes between the read and
// the write is made again on what that server stored: neither change is
// lost (a replica pausing an endpoint while the evaluating node records
// an attempt on it), and the delivery is written once.
func TestRedisEditHookAgainOnConflict(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	w := createTestHook(t, a, []string{"alert.triggered"}, 1)
	var seq uint64
	if _, err := a.EditHook(ctx, "acme", w.ID, func(e *alertstore.Edit) error {
		d := storage.WebhookDelivery{EventID: "evt_1", Type: "alert.triggered", Created: 1000, Body: []byte(`{}`), Next: 1000}
		e.Enqueue(&d)
		seq = d.Seq
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	calls := 0
	found, err := a.EditHook(ctx, "acme", w.ID, func(e *alertstore.Edit) error {
		calls++
		if calls == 1 { // another server pauses the endpoint meanwhile
			if _, err := a.EditHook(ctx, "acme", w.ID, func(o *alertstore.Edit) error { o.W.Disabled = 99; return nil }); err != nil {
				return err
			}
		}
		var d storage.WebhookDelivery
		if ok, err := e.Delivery(seq, &d); err != nil || !ok {
			t.Fatalf("Delivery(%d): %v, %v", seq, ok, err)
		}
		d.Status, d.Attempts = storage.DeliveryDelivered, d.Attempts+1
		e.Put(&d)
		e.W.FailingSince = 0
		return nil
	})
	if err != nil || !found || calls != 2 {
		t.Fatalf("EditHook: found %v, err %v, edit called %d times; want found, made again once (2 calls)", found, err, calls)
	}
	var got storage.Webhook
	if ok, err := a.Hook(ctx, "acme", w.ID, &got); err != nil || !ok || got.Disabled != 99 || got.Seq != 1 {
		t.Errorf("endpoint: got %+v, %v, %v; want the pause kept (Disabled 99) and Seq 1", got, ok, err)
	}
	var ds []storage.WebhookDelivery
	if _, err := a.HookDeliveries(ctx, "acme", w.ID, 0, 10, func(d *storage.WebhookDelivery) { ds = append(ds, *d) }); err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Status != storage.DeliveryDelivered || ds[0].Attempts != 1 {
		t.Errorf("deliveries: got %+v, want one, delivered after 1 attempt", ds)
	}
	heads := 0
	if err := a.HookHeads(ctx, func(*storage.Webhook, *storage.WebhookDelivery) error { heads++; return nil }); err != nil || heads != 0 {
		t.Errorf("heads: got %d, %v, want none (nothing pending)", heads, err)
	}
}

// Events recorded in Redis for an account with an endpoint wait on the
// fanout list, in the script that records them, until FanOut queues them
// to the endpoints its want accepts that existed when they were recorded,
// in the order recorded: a server stopped between recording and queueing
// loses none, and a second FanOut (another server's, or after a restart)
// queues none twice.
func TestRedisFanOut(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	var hooks []storage.Webhook
	for i, events := range [][]string{{"alert.triggered"}, {"alert.triggered"}, {}, {"alert.triggered"}} {
		created := int64(1)
		if i == 3 {
			created = 200 // after the events: it gets none of them
		}
		hooks = append(hooks, createTestHook(t, a, events, created))
	}
	var rules []storage.AlertRule
	for _, acct := range []string{"acme", "acme", "beta"} { // beta has no endpoint: nothing waits for it
		r := storage.AlertRule{Account: acct, Province: "ON", Banner: "loblaws", SKU: "L1", Condition: "promo_start"}
		if err := a.CreateRule(ctx, &r, nil); err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	events := []storage.AlertEvent{
		{Account: "acme", RuleID: rules[0].ID, Day: 10, Triggered: 100}, {Account: "beta", RuleID: rules[2].ID, Day: 10, Triggered: 100},
		{Account: "acme", RuleID: rules[1].ID, Day: 10, Triggered: 100}, {Account: "acme", RuleID: rules[0].ID, Day: 11, Triggered: 100},
	}
	if n, err := a.Record(ctx, events, alertstore.Outbox{}); err != nil || n != 4 {
		t.Fatalf("Record: %d, %v", n, err)
	}
	if n, err := a.c.Client.LLen(ctx, a.hookKey("fanout")).Result(); err != nil || n != 3 {
		t.Fatalf("fanout list: got %d, %v, want acme's 3 events", n, err)
	}
	want := func(w *storage.Webhook) bool { return len(w.Events) > 0 }
	var built []uint64
	build := func(e *storage.AlertEvent) (storage.WebhookDelivery, error) {
		built = append(built, e.ID)
		return storage.WebhookDelivery{EventID: fmt.Sprintf("evt_%d", e.ID), Type: "alert.triggered", Created: int64(e.Day), Next: int64(e.Day)}, nil
	}
	for i, wantN := range []int{6, 0} {
		if n, err := a.FanOut(ctx, 0, want, build); err != nil || n != wantN {
			t.Fatalf("FanOut #%d: got %d, %v, want %d deliveries queued", i+1, n, err, wantN)
		}
	}
	if len(built) != 3 || built[0] >= built[1] || built[1] >= built[2] {
		t.Errorf("events built: got %v, want acme's 3, in the order recorded", built)
	}
	for i, w := range hooks {
		var got []string
		_, err := a.HookDeliveries(ctx, "acme", w.ID, 0, 100, func(d *storage.WebhookDelivery) {
			got = append(got, fmt.Sprintf("%d:%s", d.Seq, d.EventID))
		})
		if err != nil {
			t.Fatal(err)
		}
		var wantDs []string
		if i < 2 {
			for j := len(built) - 1; j >= 0; j-- { // newest first
				wantDs = append(wantDs, fmt.Sprintf("%d:evt_%d", j+1, built[j]))
			}
		}
		if !slices.Equal(got, wantDs) {
			t.Errorf("endpoint %d deliveries: got %v, want %v", i+1, got, wantDs)
		}
	}
	heads := 0
	err := a.HookHeads(ctx, func(w *storage.Webhook, d *storage.WebhookDelivery) error {
		heads++
		if d.Seq != 1 || d.Status != storage.DeliveryPending {
			t.Errorf("head of %x: got delivery %d (status %d), want 1, pending", w.ID, d.Seq, d.Status)
		}
		return nil
	})
	if err != nil || heads != 2 {
		t.Errorf("heads: got %d, %v, want the 2 subscribed endpoints", heads, err)
	}
}

// One server at a time holds the sender's lease: another is refused
// until the holder gives it up; the holder keeps it by asking again.
func TestRedisSenderLease(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	for i, c := range []struct {
		node string
		want bool
	}{{"a", true}, {"b", false}, {"a", true}, {"b", false}} {
		if got, err := a.HoldSender(ctx, c.node, alertstore.SenderLease); err != nil || got != c.want {
			t.Fatalf("step %d: HoldSender(%s): got %v, %v, want %v", i+1, c.node, got, err, c.want)
		}
	}
	if err := a.ReleaseSender(ctx, "b"); err != nil { // not b's: nothing happens
		t.Fatal(err)
	}
	if got, _ := a.HoldSender(ctx, "b", alertstore.SenderLease); got {
		t.Fatalf("b took the lease after releasing one it did not hold")
	}
	if err := a.ReleaseSender(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got, err := a.HoldSender(ctx, "b", alertstore.SenderLease); err != nil || !got {
		t.Fatalf("b after a released: got %v, %v, want the lease", got, err)
	}
}

// A page of deliveries reads that page, newest first, with the count of
// all; an entry of the fanout list whose event cannot be read is set
// aside, and the events after it are queued.
func TestRedisDeliveryPagesAndBadEntry(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	w := createTestHook(t, a, []string{"alert.triggered"}, 1)
	for i := range 5 {
		if _, err := a.EditHook(ctx, "acme", w.ID, func(e *alertstore.Edit) error {
			e.Enqueue(&storage.WebhookDelivery{EventID: fmt.Sprintf("evt_%d", i+1), Created: 1, Next: 1})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	total, err := a.HookDeliveries(ctx, "acme", w.ID, 1, 2, func(d *storage.WebhookDelivery) { got = append(got, d.EventID) })
	if err != nil || total != 5 || !slices.Equal(got, []string{"evt_4", "evt_3"}) {
		t.Errorf("page at 1 of 2: got %v of %d, %v; want [evt_4 evt_3] of 5", got, total, err)
	}

	r := storage.AlertRule{Account: "acme", Province: "ON", Banner: "loblaws", SKU: "L1", Condition: "promo_start"}
	if err := a.CreateRule(ctx, &r, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Record(ctx, []storage.AlertEvent{{Account: "acme", RuleID: r.ID, Day: 1, Triggered: 5, Message: "m"}}, alertstore.Outbox{}); err != nil {
		t.Fatal(err)
	}
	fanout := a.hookKey("fanout")
	if err := a.c.Client.HSet(ctx, a.key("event", "acme"), "999999", "{not json").Err(); err != nil {
		t.Fatal(err)
	}
	if err := a.c.Client.LPush(ctx, fanout, "999999:acme").Err(); err != nil { // ahead of the good one
		t.Fatal(err)
	}
	n, err := a.FanOut(ctx, 0, func(*storage.Webhook) bool { return true }, func(e *storage.AlertEvent) (storage.WebhookDelivery, error) {
		return storage.WebhookDelivery{EventID: "evt_recorded", Created: 5, Next: 5}, nil
	})
	if err != nil || n != 1 {
		t.Fatalf("FanOut past a bad entry: got %d, %v, want 1 queued", n, err)
	}
	if failed, _ := a.c.Client.LRange(ctx, a.hookKey("fanout", "failed"), 0, -1).Result(); !slices.Equal(failed, []string{"999999:acme"}) {
		t.Errorf("failed list: got %v, want the bad entry", failed)
	}
}

// createTestHook stores an endpoint of acme taking events, created at the
// Unix second created.
func createTestHook(t *testing.T, a Redis, events []string, created int64) storage.Webhook {
	t.Helper()
	w := storage.Webhook{Account: "acme", URL: "https://example.com/h", Events: events, Created: created}
	if err := a.CreateHook(context.Background(), &w, 100, nil); err != nil {
		t.Fatal(err)
	}
	return w
}
