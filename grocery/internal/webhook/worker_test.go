package webhook

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/alertredis"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/storage"
)

// testStores returns an empty store of each backend: a data file in
// t.TempDir() and a Redis of its own prefix.
func testStores(t *testing.T) map[string]alertstore.Store {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "w.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	rs := redistest.Shared(t)
	c, err := redisconn.Dial(rs.URL(), rs.Prefix(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r, err := alertredis.OpenRedis(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]alertstore.Store{"bolt": alertstore.Bolt{DB: db}, "redis": r}
}

// testWorker returns a manual Worker on st at the fixed clock now, sending
// with send, and an endpoint of acme with n deliveries queued, due at now.
func testWorker(t *testing.T, st alertstore.Store, now time.Time, senders, n int, send func(ctx context.Context, req *Request) Response) (*Worker, storage.Webhook) {
	t.Helper()
	ctx := context.Background()
	h := storage.Webhook{Account: "acme", URL: "https://example.com/h", Events: []string{"alert.triggered"}, Secret: []byte("whsec_x"), Created: now.Unix()}
	if err := st.CreateHook(ctx, &h, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EditHook(ctx, "acme", h.ID, func(e *alertstore.Edit) error {
		for i := range n {
			e.Enqueue(&storage.WebhookDelivery{EventID: fmt.Sprintf("evt_%d", i+1), Type: "alert.triggered", Created: now.UnixMilli(), Next: now.UnixMilli(), Body: []byte(`{}`)})
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w := NewWorker()
	w.Start(Config{
		Store: st, Send: send, Senders: senders, Now: func() time.Time { return now },
		FanOut:         func(context.Context) error { return nil },
		DeliveryID:     func(seq uint64) string { return fmt.Sprint(seq) },
		RetryFor:       time.Hour,
		DisableAfter:   24 * time.Hour,
		DisabledReason: func(time.Time, string) string { return "off" },
		Manual:         true,
	})
	t.Cleanup(w.Stop)
	return w, h
}

// storedDeliveries returns the endpoint's deliveries, oldest first.
func storedDeliveries(t *testing.T, st alertstore.Store, h storage.Webhook) []storage.WebhookDelivery {
	t.Helper()
	var ds []storage.WebhookDelivery
	if _, err := st.HookDeliveries(context.Background(), h.Account, h.ID, 0, 100, func(d *storage.WebhookDelivery) {
		ds = append([]storage.WebhookDelivery{*d}, ds...)
	}); err != nil {
		t.Fatal(err)
	}
	return ds
}

// addHook stores another endpoint of acme with one delivery due at now.
func addHook(t *testing.T, st alertstore.Store, now time.Time, event string) {
	t.Helper()
	ctx := context.Background()
	h := storage.Webhook{Account: "acme", URL: "https://example.com/h", Events: []string{"alert.triggered"}, Created: now.Unix()}
	if err := st.CreateHook(ctx, &h, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EditHook(ctx, "acme", h.ID, func(e *alertstore.Edit) error {
		e.Enqueue(&storage.WebhookDelivery{EventID: event, Created: now.UnixMilli(), Next: now.UnixMilli(), Body: []byte(`{}`)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A Deliver keeps the sender's lease before each round, and a round is at
// most one delivery per sender (it lasts no longer than an attempt): when
// another node takes the lease meanwhile (it ran out), Deliver stops with
// ErrNotSender and sends nothing more, so no delivery goes out from both
// nodes. Rounds follow one another for an endpoint's next delivery and
// for endpoints past the senders' number.
func TestDeliverStopsWhenLeaseTaken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		queued, others int
	}{{"NextOfEndpoint", 3, 0}, {"MoreEndpointsThanSenders", 1, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testLeaseTaken(t, tc.queued, tc.others)
		})
	}
}

func testLeaseTaken(t *testing.T, queued, others int) {
	st := testStores(t)["redis"]
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	var sent []string
	var w *Worker
	w, _ = testWorker(t, st, now, 1, queued, func(ctx context.Context, req *Request) Response {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, req.Header[EventIDHeader])
		if len(sent) == 1 { // the lease runs out and another node takes it
			if err := st.ReleaseSender(ctx, w.node); err != nil {
				t.Error(err)
			}
			if ok, err := st.HoldSender(ctx, "other", alertstore.SenderLease); err != nil || !ok {
				t.Errorf("other node's HoldSender: got %v, %v, want the lease", ok, err)
			}
		}
		return Response{Code: 200}
	})
	for i := range others {
		addHook(t, st, now, fmt.Sprintf("evt_other%d", i))
	}
	run, err := w.Deliver(ctx)
	if !errors.Is(err, ErrNotSender) {
		t.Errorf("Deliver after another node took the lease: got %v, want ErrNotSender", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 1 || run == nil || run.Attempts != 1 {
		t.Errorf("got %v sent, run %+v; want one alone (1 attempt), the rest left to the lease's holder", sent, run)
	}
}

// An attempt is recorded only on the delivery as it was claimed: when
// another sender recorded it meanwhile, or it was delivered and
// redelivered, the earlier attempt writes nothing over it.
func TestRecordSkipsChangedDelivery(t *testing.T) {
	t.Parallel()
	for name, st := range testStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
			var h storage.Webhook
			var w *Worker
			w, h = testWorker(t, st, now, 1, 1, func(ctx context.Context, req *Request) Response {
				// Meanwhile another sender delivered it, and a user redelivered it.
				if _, err := st.EditHook(ctx, "acme", h.ID, func(e *alertstore.Edit) error {
					var d storage.WebhookDelivery
					if ok, err := e.Delivery(1, &d); err != nil || !ok {
						return fmt.Errorf("delivery 1: %v, %v", ok, err)
					}
					d.Attempts, d.Status, d.Code, d.Next = 1, storage.DeliveryPending, 204, now.Add(time.Hour).UnixMilli()
					e.Put(&d)
					return nil
				}); err != nil {
					t.Error(err)
				}
				return Response{Code: 500, Err: errors.New("HTTP 500")}
			})
			if _, err := w.Deliver(ctx); err != nil {
				t.Fatal(err)
			}
			ds := storedDeliveries(t, st, h)
			if len(ds) != 1 || ds[0].Attempts != 1 || ds[0].Code != 204 || ds[0].Error != "" {
				t.Errorf("delivery: got %+v, want the other sender's record (1 attempt, 204), not the earlier attempt's 500", ds)
			}
			var got storage.Webhook
			if _, err := st.Hook(ctx, "acme", h.ID, &got); err != nil || got.FailingSince != 0 {
				t.Errorf("endpoint: got FailingSince %d, %v, want 0 (the skipped attempt marks nothing)", got.FailingSince, err)
			}
		})
	}
}

// addAccountHook stores an endpoint of account with one delivery due at
// now and returns it.
func addAccountHook(t *testing.T, st alertstore.Store, now time.Time, account, event string) storage.Webhook {
	t.Helper()
	ctx := context.Background()
	h := storage.Webhook{Account: account, URL: "https://example.com/h", Events: []string{"alert.triggered"}, Created: now.Unix()}
	if err := st.CreateHook(ctx, &h, 100, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EditHook(ctx, account, h.ID, func(e *alertstore.Edit) error {
		e.Enqueue(&storage.WebhookDelivery{EventID: event, Created: now.UnixMilli(), Next: now.UnixMilli(), Body: []byte(`{}`)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestClaimFairShare: one account's endpoints take at most half the
// senders, so another account's delivery goes out beside them; and
// endpoints whose latest attempt succeeded slowly (SlowAfter or more)
// take at most half the senders between them, as failing ones do.
func TestClaimFairShare(t *testing.T) {
	t.Parallel()
	for name, st := range testStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
			const senders = 8
			w, _ := testWorker(t, st, now, senders, 0, func(ctx context.Context, req *Request) Response {
				return Response{Code: 204, Latency: 9 * time.Second} // a success, but slow (the latency is reported, not waited for)
			})
			// Account "aaa" (listed first) has 20 endpoints due, "zzz" one.
			for i := range 20 {
				addAccountHook(t, st, now, "aaa", fmt.Sprintf("evt_a%d", i))
			}
			addAccountHook(t, st, now, "zzz", "evt_z")
			jobs, _, err := w.claimDue(ctx, now, senders)
			if err != nil {
				t.Fatal(err)
			}
			per := map[string]int{}
			for _, j := range jobs {
				per[j.key.account]++
			}
			if per["zzz"] != 1 || per["aaa"] > senders/2 {
				t.Errorf("claimed %v, want zzz's delivery and at most %d of aaa's", per, senders/2)
			}
			for _, j := range jobs {
				w.mu.Lock()
				w.release(j)
				w.mu.Unlock()
			}
			// Every endpoint answers slowly: once that is known, they take
			// at most half the senders between them, whatever the account.
			if _, err := w.Deliver(ctx); err != nil {
				t.Fatal(err)
			}
			requeue := func(account string) {
				var ids []uint64
				st.Hooks(ctx, account, func(h *storage.Webhook) error { ids = append(ids, h.ID); return nil })
				for _, id := range ids {
					if _, err := st.EditHook(ctx, account, id, func(e *alertstore.Edit) error {
						e.Enqueue(&storage.WebhookDelivery{EventID: "again", Created: now.UnixMilli(), Next: now.UnixMilli(), Body: []byte(`{}`)})
						return nil
					}); err != nil {
						t.Fatal(err)
					}
				}
			}
			requeue("aaa")
			requeue("zzz")
			jobs, _, err = w.claimDue(ctx, now, senders)
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) > senders/2 {
				t.Errorf("claimed %d deliveries to endpoints known to be slow, want at most %d", len(jobs), senders/2)
			}
		})
	}
}

// Config.Failed is told of each failed attempt once it is recorded, with
// the delivery as recorded (its next attempt scheduled, no body), and of
// nothing else.
func TestFailedTold(t *testing.T) {
	t.Parallel()
	st := testStores(t)["bolt"]
	now := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	w, h := testWorker(t, st, now, 2, 1, func(ctx context.Context, req *Request) Response {
		if req.Header[EventIDHeader] == "evt_ok" {
			return Response{Code: 204}
		}
		return Response{Code: 503, Err: errors.New("HTTP 503")}
	})
	addHook(t, st, now, "evt_ok")
	var mu sync.Mutex
	var told []storage.WebhookDelivery
	w.cfg.Failed = func(d *storage.WebhookDelivery) { // Manual: no loop runs yet
		mu.Lock()
		defer mu.Unlock()
		told = append(told, *d)
	}
	run, err := w.Deliver(context.Background())
	if err != nil || run.Attempts != 2 || run.Delivered != 1 {
		t.Fatalf("Deliver: %+v, %v; want 2 attempts, 1 delivered", run, err)
	}
	stored := storedDeliveries(t, st, h)
	if len(told) != 1 || len(stored) != 1 {
		t.Fatalf("told of %d failed attempts, %d deliveries stored; want 1 each (evt_1)", len(told), len(stored))
	}
	d := told[0]
	want := stored[0]
	want.Body = nil
	if d.EventID != "evt_1" || d.Attempts != 1 || d.Code != 503 || d.Error != "HTTP 503" || d.Next <= now.UnixMilli() || d.Body != nil {
		t.Errorf("told %+v, want evt_1 after 1 attempt, 503, HTTP 503, a next attempt after now, no body", d)
	}
	if d.Next != want.Next || d.Seq != want.Seq || d.Status != want.Status {
		t.Errorf("told next %d, seq %d, status %d; recorded %d, %d, %d", d.Next, d.Seq, d.Status, want.Next, want.Seq, want.Status)
	}
}
