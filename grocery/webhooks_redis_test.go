package grocery_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

// openRedisHooks reopens the alert fixture's file as an ingest node with
// keys, rules, events and webhooks in the Redis rs, publishing snapshots
// to the directory it returns; manual: no delivery worker.
func openRedisHooks(t *testing.T, f *alertFixture, rs *redistest.Server, manual bool) string {
	t.Helper()
	snaps := filepath.Join(t.TempDir(), "snapshots")
	opts := hookOptions(f)
	opts.Webhooks.Manual = manual
	opts.SnapshotDir = snaps
	f.reopen(t, rs, *opts)
	if _, err := f.svc.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	return snaps
}

// waitEvents waits for n events answered 2xx by rcv, or fails after 20
// seconds: the ingest node's worker sends them on its own.
func waitEvents(t *testing.T, rcv *receiver, n int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for range n {
		select {
		case <-rcv.recv:
		case <-deadline:
			ok, bad, got := rcv.snapshot()
			t.Fatalf("waited for %d events: got %d requests, %d answered 2xx, refused: %v", n, got, len(ok), bad)
		}
	}
}

// TestWebhooksRedis_OncePerEndpoint: with webhooks in Redis, an ingest node
// and two replicas (each given a sender, as the servers are), endpoints
// created through either replica get each event of an import on the
// ingest node once, in order, signed; a ping queued through a replica is
// sent by the ingest node; the replicas send nothing and list what the
// ingest node delivered. The ingest node sends at DeliverWebhooks
// (TestWebhooksRedis_LoopSends covers its worker's loop).
func TestWebhooksRedis_OncePerEndpoint(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	f := newAlertFixture(t, rs)
	snaps := openRedisHooks(t, f, rs, true)
	var replicas []*grocery.Service
	for range 2 {
		opts := hookOptions(f)
		opts.Shared, opts.SnapshotPoll, opts.SnapshotCache = grocery.RedisStore(rs.URL(), rs.Prefix()), -1, t.TempDir()
		r, err := grocery.OpenReplica(snaps, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		replicas = append(replicas, r)
	}
	ok := func(n int) int { return http.StatusOK }
	rcvs := []*receiver{newReceiver(t, f.clock, ok), newReceiver(t, f.clock, ok)}
	var hooks []*grocery.Webhook
	for i, rcv := range rcvs {
		w, err := replicas[i].CreateWebhook(f.acme, grocery.WebhookInput{URL: rcv.srv.URL + "/hooks"})
		if err != nil {
			t.Fatalf("CreateWebhook through replica %d: %v", i+1, err)
		}
		rcv.mu.Lock()
		rcv.secret = w.Secret
		rcv.mu.Unlock()
		hooks = append(hooks, w)
	}
	if l, err := replicas[1].ListWebhooks(f.acme); err != nil || l.Total != 2 {
		t.Fatalf("endpoints through replica 2: got %+v, %v, want both", l, err)
	}
	if _, err := replicas[0].DeliverWebhooks(context.Background()); grocery.ErrorCode(err) != grocery.ECONFLICT {
		t.Errorf("DeliverWebhooks on a replica: got %v, want conflict (a replica sends nothing)", err)
	}
	(&alertFixture{svc: replicas[0]}).createMilkRules(t, f.acme) // the rules too go through a replica

	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if run := f.deliver(t); run.Attempts != 6 || run.Delivered != 6 {
		t.Fatalf("DeliverWebhooks after the import: got %+v, want the 3 events delivered to each endpoint (6)", run)
	}
	events, err := f.svc.AlertEvents(f.acme, grocery.AlertEventsInput{})
	if err != nil || events.Total != 3 {
		t.Fatalf("AlertEvents: got %+v, %v, want 3", events, err)
	}
	var want []string // oldest first, as recorded
	for i := len(events.Results) - 1; i >= 0; i-- {
		want = append(want, events.Results[i].ID)
	}

	ping, err := replicas[1].TestWebhook(f.acme, hooks[0].ID)
	if err != nil {
		t.Fatalf("TestWebhook through replica 2: %v", err)
	}
	if run := f.deliver(t); run.Attempts != 1 || run.Delivered != 1 {
		t.Fatalf("DeliverWebhooks after the ping: got %+v, want the ping delivered", run)
	}
	for i, rcv := range rcvs {
		got, bad, n := rcv.snapshot()
		wantHere := want
		if i == 0 {
			wantHere = append(slices.Clone(want), ping.EventID)
		}
		if !slices.Equal(got, wantHere) || n != len(wantHere) || len(bad) != 0 {
			t.Errorf("endpoint %d: got %d requests, events %v, refused %v; want each of %v once, in order, signed", i+1, n, got, bad, wantHere)
		}
		for _, r := range replicas {
			ds, err := r.WebhookDeliveries(f.acme, hooks[i].ID, grocery.WebhookDeliveriesInput{})
			if err != nil || ds.Total != len(wantHere) {
				t.Fatalf("deliveries of endpoint %d through a replica: got %+v, %v, want %d", i+1, ds, err, len(wantHere))
			}
			for _, d := range ds.Results {
				if d.Status != grocery.DeliveryDelivered || d.Attempts != 1 {
					t.Errorf("endpoint %d delivery %s: got %s after %d attempts, want delivered after 1", i+1, d.ID, d.Status, d.Attempts)
				}
			}
		}
	}
}

// TestWebhooksRedis_LoopSends: the ingest node's worker, woken by what
// queues a delivery (a ping), sends it on its own.
func TestWebhooksRedis_LoopSends(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	f := newAlertFixture(t, rs)
	openRedisHooks(t, f, rs, false)
	rcv := newReceiver(t, f.clock, func(int) int { return http.StatusOK })
	hook := f.createHook(t, f.acme, rcv)
	ping, err := f.svc.TestWebhook(f.acme, hook.ID)
	if err != nil {
		t.Fatal(err)
	}
	waitEvents(t, rcv, 1)
	if got, bad, n := rcv.snapshot(); !slices.Equal(got, []string{ping.EventID}) || n != 1 || len(bad) != 0 {
		t.Errorf("receiver: got %d requests, events %v, refused %v; want the ping once, signed", n, got, bad)
	}
}

// TestWebhooksRedis_SurviveRestart: deliveries queued in Redis by an
// ingest node that stopped before sending them are sent by the next one,
// in order; pausing and enabling the endpoint through a replica while a
// delivery waits keeps it, and an endpoint deleted through a replica gets
// nothing more. (alertstore's TestRedisFanOut covers a node stopped
// between recording events and queueing them.)
func TestWebhooksRedis_SurviveRestart(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	f := newAlertFixture(t, rs)
	snaps := openRedisHooks(t, f, rs, true)
	rcv := newReceiver(t, f.clock, func(n int) int {
		if n == 1 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	hook := f.createHook(t, f.acme, rcv)
	f.createMilkRules(t, f.acme)
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2) // recorded and queued; the Manual node sends at DeliverWebhooks
	if ds := f.deliveries(t, f.acme, hook.ID); len(ds) != 3 || ds[0].Status != grocery.DeliveryPending {
		t.Fatalf("deliveries after the import: got %+v, want 3 pending", ds)
	}
	openRedisHooks(t, f, rs, true) // closes the first node, opens another
	if run := f.deliver(t); run.Attempts != 1 || run.Delivered != 0 {
		t.Fatalf("after the restart: got %+v, want the first event tried (HTTP 500), the others waiting", run)
	}

	opts := hookOptions(f)
	opts.Shared, opts.SnapshotPoll, opts.SnapshotCache = grocery.RedisStore(rs.URL(), rs.Prefix()), -1, t.TempDir()
	replica, err := grocery.OpenReplica(snaps, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { replica.Close() })
	off, on := false, true
	for _, enabled := range []*bool{&off, &on} {
		if _, err := replica.UpdateWebhook(f.acme, hook.ID, grocery.WebhookUpdate{Enabled: enabled}); err != nil {
			t.Fatalf("UpdateWebhook(enabled %v) through the replica: %v", *enabled, err)
		}
	}
	if run := f.deliver(t); run.Delivered != 3 { // enabling made the waiting one due now
		t.Fatalf("after enabling: got %+v, want the 3 events delivered", run)
	}
	events, err := f.svc.AlertEvents(f.acme, grocery.AlertEventsInput{})
	if err != nil || events.Total != 3 {
		t.Fatalf("AlertEvents: got %+v, %v", events, err)
	}
	got, bad, n := rcv.snapshot()
	want := []string{events.Results[2].ID, events.Results[1].ID, events.Results[0].ID}
	if !slices.Equal(got, want) || n != 4 || len(bad) != 0 {
		t.Errorf("receiver: got %d requests, delivered %v, refused %v; want 4 requests delivering %v", n, got, bad, want)
	}

	if err := replica.DeleteWebhook(f.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	f.setClock(time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day3.csv", alertDay3)
	if run := f.deliver(t); run.Attempts != 0 {
		t.Errorf("after the endpoint was deleted: got %+v, want no attempt", run)
	}
	if _, err := f.svc.Webhook(f.acme, hook.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("deleted endpoint through the ingest node: got %v, want not_found", err)
	}
}

// TestWebhooksRedis_OneSender: two servers holding data files (each its
// own) on one Redis share the outbox, and only the one holding the
// sender's lease sends, so a delivery goes out once; once it closes, the
// other sends.
func TestWebhooksRedis_OneSender(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	a, b := newAlertFixture(t, rs), newAlertFixture(t, rs)
	for _, f := range []*alertFixture{a, b} {
		opts := hookOptions(f)
		f.reopen(t, rs, *opts)
	}
	rcv := newReceiver(t, a.clock, func(int) int { return http.StatusNoContent })
	hook := a.createHook(t, a.acme, rcv)
	if _, err := b.svc.TestWebhook(b.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	if run := a.deliver(t); run.Delivered != 1 {
		t.Fatalf("first server: got %+v, want the ping delivered", run)
	}
	if _, err := b.svc.TestWebhook(b.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.DeliverWebhooks(context.Background()); grocery.ErrorCode(err) != grocery.ECONFLICT ||
		!strings.Contains(grocery.ErrorMessage(err), "sender's lease") {
		t.Fatalf("second server while the first holds the lease: got %v, want a conflict naming the lease", err)
	}
	if err := a.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if run := b.deliver(t); run.Delivered != 1 {
		t.Fatalf("second server after the first closed: got %+v, want the second ping delivered", run)
	}
	if ok, bad, n := rcv.snapshot(); len(ok) != 2 || n != 2 || len(bad) != 0 {
		t.Errorf("receiver: got %d requests (%v delivered, %v refused), want the 2 pings once each", n, ok, bad)
	}
}

// TestWebhooksRedis_PingLeavesFanout: a ping queues its own delivery and
// nothing else: the events waiting on the fanout list, any account's,
// are the worker's to queue before its next round, not the work of the
// request that asked for a ping.
func TestWebhooksRedis_PingLeavesFanout(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	f := newAlertFixture(t, rs)
	f.reopen(t, rs, *hookOptions(f))
	rcv := newReceiver(t, f.clock, func(int) int { return http.StatusNoContent })
	hook := f.createHook(t, f.acme, rcv)
	ctx, c, fanout := context.Background(), rs.Client(), rs.Prefix()+"alerts:hooks:fanout"
	if err := c.RPush(ctx, fanout, "1:another").Err(); err != nil { // another account's, waiting
		t.Fatal(err)
	}
	if _, err := f.svc.TestWebhook(f.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := c.LLen(ctx, fanout).Result(); err != nil || n != 1 {
		t.Fatalf("fanout list after a ping: got %d entries, %v, want 1 (left for the worker)", n, err)
	}
	if run := f.deliver(t); run.Delivered != 1 {
		t.Errorf("DeliverWebhooks: got %+v, want the ping delivered", run)
	}
	if n, err := c.LLen(ctx, fanout).Result(); err != nil || n != 0 {
		t.Errorf("fanout list after DeliverWebhooks: got %d entries, %v, want 0 (the worker fans out first)", n, err)
	}
}
