package alertstore

import (
	"context"
	"testing"

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
	w := storage.Webhook{Account: "acme", URL: "https://example.com/h", Events: []string{"alert.triggered"}, Created: 1}
	if err := a.CreateHook(ctx, &w, 100); err != nil {
		t.Fatal(err)
	}
	var seq uint64
	if _, err := a.EditHook(ctx, "acme", w.ID, func(e *Edit) error {
		d := storage.WebhookDelivery{EventID: "evt_1", Type: "alert.triggered", Created: 1000, Body: []byte(`{}`), Next: 1000}
		e.Enqueue(&d)
		seq = d.Seq
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	calls := 0
	found, err := a.EditHook(ctx, "acme", w.ID, func(e *Edit) error {
		calls++
		if calls == 1 { // another server pauses the endpoint meanwhile
			if _, err := a.EditHook(ctx, "acme", w.ID, func(o *Edit) error { o.W.Disabled = 99; return nil }); err != nil {
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
	if err := a.HookDeliveries(ctx, "acme", w.ID, func(d *storage.WebhookDelivery) error { ds = append(ds, *d); return nil }); err != nil {
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
