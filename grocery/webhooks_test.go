package grocery_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/webhookclient"
)

// receiver is a webhook receiver on loopback that checks each delivery's
// signature under secret, answers status(n) to its n-th request (1, 2,
// ...), and keeps what it got.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	status func(n int) int
	now    func() time.Time // the clock signatures are checked against
	n      int
	bad    []string                  // why a request was refused
	got    []grocery.WebhookEvent    // every request, in order
	ok     []string                  // ids of the events answered 2xx, in order
	hdr    []map[string]string       // the Grocery-* headers of each request
	recv   chan grocery.WebhookEvent // each event answered 2xx
}

func newReceiver(t *testing.T, now func() time.Time, status func(n int) int) *receiver {
	t.Helper()
	r := &receiver{status: status, now: now, recv: make(chan grocery.WebhookEvent, 100)}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.n++
		if err := grocery.VerifyWebhookSignature(r.secret, req.Header.Get(grocery.WebhookSignatureHeader), body, r.now(), 5*time.Minute); err != nil {
			r.bad = append(r.bad, err.Error())
		}
		var ev grocery.WebhookEvent
		if err := json.Unmarshal(body, &ev); err != nil {
			r.bad = append(r.bad, "body: "+err.Error())
		}
		if id := req.Header.Get(grocery.WebhookEventIDHeader); id != ev.ID {
			r.bad = append(r.bad, "event id header "+id+", body "+ev.ID)
		}
		r.got = append(r.got, ev)
		r.hdr = append(r.hdr, map[string]string{"type": req.Header.Get(grocery.WebhookEventTypeHeader),
			"delivery": req.Header.Get(grocery.WebhookDeliveryIDHeader)})
		code := r.status(r.n)
		if code/100 == 2 {
			r.ok = append(r.ok, ev.ID)
			r.recv <- ev
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) snapshot() (ok, bad []string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ok), slices.Clone(r.bad), r.n
}

// hookOptions are the options of a Service delivering to loopback
// receivers, with the fixture's clock, when the test calls
// DeliverWebhooks (Manual: no worker).
func hookOptions(f *alertFixture) *grocery.Options {
	p := grocery.WebhookPolicy{Loopback: true}
	return &grocery.Options{Now: f.clock, Webhooks: grocery.WebhookOptions{
		Sender: webhookclient.New(p), AllowLoopback: true, Manual: true}}
}

// newHookFixture is the alert fixture (acme, beta, four Ontario stores,
// day 1 imported) with a Service whose webhooks may reach loopback and
// are sent by a real HTTP client when DeliverWebhooks is called; with
// the webhooks in the Redis rs when it is not nil.
func newHookFixture(t *testing.T, rs *redistest.Server) *alertFixture {
	t.Helper()
	f := newAlertFixture(t, rs)
	if rs != nil {
		f.reopen(t, rs, *hookOptions(f))
		return f
	}
	f.svc.Close()
	f.open(t, hookOptions(f))
	return f
}

// open opens the fixture's file again with opts (closing it at the end).
func (f *alertFixture) open(t *testing.T, opts *grocery.Options) {
	t.Helper()
	svc, err := grocery.Open(f.path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	f.svc = svc
}

func (f *alertFixture) deliver(t *testing.T) *grocery.WebhookRun {
	t.Helper()
	run, err := f.svc.DeliverWebhooks(context.Background())
	if err != nil {
		t.Fatalf("DeliverWebhooks: %v", err)
	}
	return run
}

func (f *alertFixture) advance(d time.Duration) { f.setClock(f.clock().Add(d)) }

func (f *alertFixture) createHook(t *testing.T, ctx context.Context, rcv *receiver) *grocery.Webhook {
	t.Helper()
	w, err := f.svc.CreateWebhook(ctx, grocery.WebhookInput{URL: rcv.srv.URL + "/hooks", Description: "test receiver"})
	if err != nil {
		t.Fatalf("CreateWebhook: %v", err)
	}
	rcv.mu.Lock()
	rcv.secret = w.Secret
	rcv.mu.Unlock()
	return w
}

func (f *alertFixture) deliveries(t *testing.T, ctx context.Context, id string) []grocery.WebhookDelivery {
	t.Helper()
	l, err := f.svc.WebhookDeliveries(ctx, id, grocery.WebhookDeliveriesInput{Limit: grocery.Some(500)})
	if err != nil {
		t.Fatalf("WebhookDeliveries: %v", err)
	}
	return l.Results
}

// createMilkRules creates the three rules of TestAlerts_FireOnImport:
// day 2 fires three events for acme, day 3 two more.
func (f *alertFixture) createMilkRules(t *testing.T, ctx context.Context) {
	t.Helper()
	f.create(t, ctx, grocery.AlertInput{Name: "L1 drop", Banner: "loblaws", SKU: "L1", Province: "ON",
		Condition: "price_drop_pct", Threshold: num(10)})
	f.create(t, ctx, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	f.create(t, ctx, grocery.AlertInput{Name: "milk promo at loblaws", UPC: upcMilk, Banner: "loblaws",
		Province: "ON", Condition: "promo_start"})
}

// TestWebhooks_DeliveredInOrderWithRetries: a receiver answering 500
// twice, then 200, gets every event of two imports, each signed, in the
// order they were recorded, with the event as AlertEvents shows it; the
// later events wait while the first is retried.
func TestWebhooks_DeliveredInOrderWithRetries(t *testing.T) {
	t.Parallel()
	f := newHookFixture(t, nil)
	rcv := newReceiver(t, f.clock, func(n int) int {
		if n <= 2 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	hook := f.createHook(t, f.acme, rcv)
	if !strings.HasPrefix(hook.Secret, "whsec_") || len(hook.Secret) != 49 || !hook.Enabled ||
		!slices.Equal(hook.Events, []string{"alert.triggered"}) {
		t.Fatalf("created %+v: want a whsec_ secret of 49 characters, enabled, events [alert.triggered]", hook)
	}
	f.createMilkRules(t, f.acme)

	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if run := f.deliver(t); run.Attempts != 1 || run.Delivered != 0 {
		t.Fatalf("first round: got %+v, want 1 attempt (the first event; the others wait), none delivered", run)
	}
	ds := f.deliveries(t, f.acme, hook.ID)
	if len(ds) != 3 || ds[2].Status != "pending" || ds[2].Attempts != 1 || ds[2].ResponseCode == nil || *ds[2].ResponseCode != 500 ||
		ds[2].Error != "HTTP 500" || ds[1].Attempts != 0 {
		t.Fatalf("after the first attempt: got %+v, want 3 deliveries, the oldest pending after 1 attempt (HTTP 500), the next not tried", ds)
	}
	retry := ds[2].NextRetryAt.Sub(f.clock())
	if retry < 24*time.Second || retry > 36*time.Second {
		t.Errorf("first retry in %s, want 30s ± 20%%", retry)
	}
	if run := f.deliver(t); run.Attempts != 0 {
		t.Errorf("before the retry is due: got %+v, want no attempt", run)
	}
	f.advance(retry)
	f.deliver(t) // 500 again
	f.advance(2 * time.Minute)
	if run := f.deliver(t); run.Delivered != 3 {
		t.Fatalf("third round: got %+v, want 3 delivered (the first, then the two that waited)", run)
	}

	f.setClock(time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day3.csv", alertDay3)
	if run := f.deliver(t); run.Delivered != 2 || run.Attempts != 2 {
		t.Fatalf("after day 3: got %+v, want 2 delivered", run)
	}

	events := f.events(t, f.acme, grocery.AlertEventsInput{})
	var want []string
	for _, e := range slices.Backward(events.Results) {
		want = append(want, e.ID)
	}
	ok, bad, n := rcv.snapshot()
	if len(bad) != 0 {
		t.Errorf("receiver refused: %q", bad)
	}
	if diff := cmp.Diff(want, ok); diff != "" || n != 7 {
		t.Errorf("events answered 200 (%d requests, want 7), oldest first (-want +got):\n%s", n, diff)
	}
	// The payload's data is the event as AlertEvents shows it.
	rcv.mu.Lock()
	last := rcv.got[len(rcv.got)-1]
	hdr := rcv.hdr[len(rcv.hdr)-1]
	rcv.mu.Unlock()
	wantData, _ := json.Marshal(events.Results[0])
	if last.Type != "alert.triggered" || string(last.Data) != string(wantData) || !last.Created.Equal(events.Results[0].TriggeredAt) ||
		hdr["type"] != "alert.triggered" || hdr["delivery"] != "whd_0000000000000005" {
		t.Errorf("last delivery: got %+v, headers %v, want type alert.triggered, delivery whd_0000000000000005, data %s", last, hdr, wantData)
	}
	ds = f.deliveries(t, f.acme, hook.ID)
	if len(ds) != 5 || ds[4].Status != "delivered" || ds[4].Attempts != 3 || *ds[4].ResponseCode != 200 || ds[4].NextRetryAt != nil ||
		ds[4].EventID != want[0] || ds[0].EventID != want[4] {
		t.Errorf("deliveries: got %+v, want 5, newest first, the oldest delivered after 3 attempts", ds)
	}
}

// TestWebhooks_NeverAnswers: a receiver that closes every connection is
// retried on the backoff schedule, each delivery marked failed once 24
// hours have passed since its first attempt, and the endpoint disabled
// when every attempt has failed for 3 days.
func TestWebhooks_NeverAnswers(t *testing.T) {
	t.Parallel()
	f := newHookFixture(t, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	hook, err := f.svc.CreateWebhook(f.acme, grocery.WebhookInput{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := f.svc.TestWebhook(f.acme, hook.ID); err != nil {
			t.Fatal(err)
		}
	}
	start := f.clock()
	attempts := 0
	for step := 0; step < 200; step++ {
		run := f.deliver(t)
		attempts += run.Attempts
		h, err := f.svc.Webhook(f.acme, hook.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !h.Enabled {
			break
		}
		ds := f.deliveries(t, f.acme, hook.ID)
		var head *grocery.WebhookDelivery
		for i := range slices.Backward(ds) {
			if ds[i].Status == "pending" {
				head = &ds[i]
				break
			}
		}
		if head == nil {
			t.Fatalf("at %s: no pending delivery while the endpoint is enabled: %+v", f.clock().Sub(start), ds)
		}
		if head.Attempts > 0 {
			// The wait after the n-th failure is 30s·2^(n-1), at most 1h, ±20%.
			base := 30 * time.Second << min(head.Attempts-1, 7)
			base = min(base, time.Hour)
			wait := head.NextRetryAt.Sub(*head.LastAttemptAt)
			if wait < base*8/10 || wait > base*12/10 {
				t.Fatalf("after attempt %d of %s: retry in %s, want %s ± 20%%", head.Attempts, head.ID, wait, base)
			}
			if head.Error != "connection closed without an answer" || head.ResponseCode != nil {
				t.Fatalf("got error %q, code %v, want \"connection closed without an answer\", no code", head.Error, head.ResponseCode)
			}
		}
		f.setClock(*head.NextRetryAt)
	}
	h, _ := f.svc.Webhook(f.acme, hook.ID)
	elapsed := h.DisabledAt.Sub(start)
	if h.Enabled || elapsed < 72*time.Hour || elapsed > 72*time.Hour+72*time.Minute || !strings.Contains(h.DisabledReason, "every delivery attempt failed for 3 days") {
		t.Fatalf("got %+v after %s, want disabled 72 hours to 72h72m after the first failure, saying why", h, elapsed)
	}
	ds := f.deliveries(t, f.acme, hook.ID)
	var statuses []string
	for _, d := range slices.Backward(ds) {
		statuses = append(statuses, d.Status)
	}
	// The third delivery's 24 hours end within an hour of the endpoint's
	// 3 days (the retries' jitter decides which comes first).
	if len(statuses) != 4 || statuses[0] != "failed" || statuses[1] != "failed" || statuses[3] != "pending" || ds[0].Attempts != 0 {
		t.Errorf("statuses oldest first: got %v (newest tried %d times), want failed, failed, failed or pending, pending, the newest never tried", statuses, ds[0].Attempts)
	}
	first := ds[3]
	if d := first.LastAttemptAt.Sub(start); d < 24*time.Hour || d > 24*time.Hour+72*time.Minute || first.Attempts < 25 || first.Attempts > 40 {
		t.Errorf("first delivery: %d attempts, the last %s after the first; want 25 to 40 over 24 hours to 24h72m (the last wait, an hour +20%%)", first.Attempts, d)
	}
	// Disabled: nothing is attempted, a test is refused, enabling resumes.
	f.advance(time.Hour)
	if run := f.deliver(t); run.Attempts != 0 {
		t.Errorf("disabled endpoint: got %+v, want no attempt", run)
	}
	if _, err := f.svc.TestWebhook(f.acme, hook.ID); grocery.ErrorCode(err) != grocery.ECONFLICT {
		t.Errorf("TestWebhook on a disabled endpoint: got %v, want ECONFLICT", err)
	}
	on := true
	if h, err := f.svc.UpdateWebhook(f.acme, hook.ID, grocery.WebhookUpdate{Enabled: &on}); err != nil || !h.Enabled || h.DisabledReason != "" {
		t.Fatalf("enable: got %+v, %v, want enabled", h, err)
	}
	if run := f.deliver(t); run.Attempts != 1 {
		t.Errorf("enabled again: got %+v, want the waiting delivery attempted", run)
	}
}

// TestWebhooks_RefusedURLs: a URL to a private, link-local, metadata or
// (without the option) loopback address, or not https, is refused at
// creation with what is wrong; the options allow loopback and private
// targets.
func TestWebhooks_RefusedURLs(t *testing.T) {
	t.Parallel()
	open := func(t *testing.T, wo grocery.WebhookOptions) (*grocery.Service, context.Context) {
		svc, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Webhooks: wo})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		if _, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: "acme", Plan: "integration"}); err != nil {
			t.Fatal(err)
		}
		return svc, grocery.NewContextWithAccount(context.Background(), "acme")
	}
	strict, sctx := open(t, grocery.WebhookOptions{})
	for _, tc := range []struct{ url, want string }{
		{"https://10.0.0.1/hook", "10.0.0.1 is a private address"},
		{"https://192.168.1.20/hook", "192.168.1.20 is a private address"},
		{"https://169.254.169.254/latest/meta-data", "169.254.169.254 is a cloud metadata address"},
		{"https://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address"},
		{"https://169.254.10.1/", "169.254.10.1 is a link-local address"},
		{"https://[::1]/hook", "::1 is a loopback address"},
		{"https://127.0.0.1:8443/hook", "127.0.0.1 is a loopback address"},
		{"https://[::ffff:10.0.0.1]/", "10.0.0.1 is a private address"},
		{"https://[64:ff9b::a9fe:a9fe]/", "NAT64 form of 169.254.169.254: 169.254.169.254 is a cloud metadata address"},
		{"https://[2002:a9fe:a9fe::1]/", "6to4 form of 169.254.169.254"},
		{"https://localhost/hook", "localhost is a loopback host"},
		// Forms a resolver may read as a loopback or other address.
		{"https://localhost./", "localhost. is a loopback host"},
		{"https://api.localhost./", "api.localhost. is a loopback host"},
		{"https://2130706433/", `host "2130706433" is a number`},
		{"https://0x7f000001/", `host "0x7f000001" is a number`},
		{"https://0177.0.0.1/", `host "0177.0.0.1" is a number`},
		{"https://127.1/", `host "127.1" is a number`},
		{"https://0/", `host "0" is a number`},
		{"https://3405803785/", `host "3405803785" is a number`},
		{"https://[::127.0.0.1]/", "127.0.0.1 is a loopback address"},
		{"https://0.0.0.0/", "0.0.0.0 is not a unicast address"},
		{"http://example.com/hook", "scheme http: want https"},
		{"ftp://example.com/hook", `scheme "ftp": want https`},
		{"https://user:pw@example.com/", "credentials in the URL are not taken"},
		{"example.com/hook", "not an absolute URL"},
		{"", "url is required"},
	} {
		_, err := strict.CreateWebhook(sctx, grocery.WebhookInput{URL: tc.url})
		if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CreateWebhook(%q): got %v, want EINVALIDARGUMENT saying %q", tc.url, err, tc.want)
		}
	}
	if _, err := strict.CreateWebhook(sctx, grocery.WebhookInput{URL: "https://203.0.113.9/hook", Events: []string{"alert.fired"}}); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT ||
		!strings.Contains(err.Error(), `events: "alert.fired" is not an event type: want alert.triggered`) {
		t.Errorf("unknown event type: got %v, want EINVALIDARGUMENT naming it", err)
	}
	if l, _ := strict.ListWebhooks(sctx); l.Total != 0 {
		t.Errorf("after refusals: got %d endpoints, want 0", l.Total)
	}

	loop, lctx := open(t, grocery.WebhookOptions{AllowLoopback: true})
	for _, u := range []string{"http://127.0.0.1:9/hook", "http://[::1]:9/hook", "http://localhost:9/hook", "https://203.0.113.9/hook"} {
		if _, err := loop.CreateWebhook(lctx, grocery.WebhookInput{URL: u}); err != nil {
			t.Errorf("with loopback allowed, CreateWebhook(%q): %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1/hook", "http://203.0.113.9/hook"} {
		if _, err := loop.CreateWebhook(lctx, grocery.WebhookInput{URL: u}); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Errorf("with loopback allowed, CreateWebhook(%q): got %v, want EINVALIDARGUMENT", u, err)
		}
	}
	priv, pctx := open(t, grocery.WebhookOptions{AllowPrivate: true})
	if _, err := priv.CreateWebhook(pctx, grocery.WebhookInput{URL: "https://10.0.0.1/hook"}); err != nil {
		t.Errorf("with private allowed: %v", err)
	}
}

// TestWebhooks_DialChecked: the address is checked again when a delivery
// dials (a name that resolves elsewhere later is caught there): a sender
// whose policy refuses loopback does not reach a loopback receiver.
func TestWebhooks_DialChecked(t *testing.T) {
	t.Parallel()
	f := newHookFixture(t, nil)
	rcv := newReceiver(t, f.clock, func(int) int { return 200 })
	hook := f.createHook(t, f.acme, rcv)
	f.svc.Close()
	opts := hookOptions(f)
	opts.Webhooks.Sender = webhookclient.New(grocery.WebhookPolicy{})
	f.open(t, opts)
	if _, err := f.svc.TestWebhook(f.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	f.deliver(t)
	ds := f.deliveries(t, f.acme, hook.ID)
	if _, _, n := rcv.snapshot(); n != 0 || ds[0].Status != "pending" || !strings.Contains(ds[0].Error, "address refused: 127.0.0.1 is a loopback address") {
		t.Errorf("got %d requests, delivery %+v, want none, the delivery pending with the dial refused", n, ds[0])
	}
}

// TestWebhooks_OtherAccount: an account neither sees nor uses another's
// endpoint, and its events go only to its own.
func TestWebhooks_OtherAccount(t *testing.T) { alertStores(t, testWebhooksOtherAccount) }

func testWebhooksOtherAccount(t *testing.T, rs *redistest.Server) {
	f := newHookFixture(t, rs)
	rcv := newReceiver(t, f.clock, func(int) int { return 200 })
	hook := f.createHook(t, f.acme, rcv)
	if _, err := f.svc.TestWebhook(f.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	f.deliver(t)
	ds := f.deliveries(t, f.acme, hook.ID)
	off := false
	for name, call := range map[string]func() error{
		"Webhook": func() error { _, err := f.svc.Webhook(f.beta, hook.ID); return err },
		"UpdateWebhook": func() error {
			_, err := f.svc.UpdateWebhook(f.beta, hook.ID, grocery.WebhookUpdate{Enabled: &off})
			return err
		},
		"DeleteWebhook": func() error { return f.svc.DeleteWebhook(f.beta, hook.ID) },
		"TestWebhook":   func() error { _, err := f.svc.TestWebhook(f.beta, hook.ID); return err },
		"WebhookDeliveries": func() error {
			_, err := f.svc.WebhookDeliveries(f.beta, hook.ID, grocery.WebhookDeliveriesInput{})
			return err
		},
		"RedeliverWebhook": func() error { _, err := f.svc.RedeliverWebhook(f.beta, hook.ID, ds[0].ID); return err },
	} {
		if err := call(); grocery.ErrorCode(err) != grocery.ENOTFOUND || grocery.ErrorMessage(err) != "no webhook endpoint "+hook.ID {
			t.Errorf("%s by beta: got %v, want ENOTFOUND no webhook endpoint %s", name, err, hook.ID)
		}
	}
	if l, err := f.svc.ListWebhooks(f.beta); err != nil || l.Total != 0 {
		t.Errorf("beta's list: got %+v, %v, want empty", l, err)
	}
	// beta's events do not reach acme's endpoint.
	f.createMilkRules(t, f.beta)
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if run := f.deliver(t); run.Attempts != 0 {
		t.Errorf("after beta's events: got %+v, want nothing sent", run)
	}
	if h, err := f.svc.Webhook(f.acme, hook.ID); err != nil || !h.Enabled || h.Secret != "" {
		t.Errorf("acme's endpoint: got %+v, %v, want it enabled, its secret not shown again", h, err)
	}
	// Redelivery: the same event id and body again.
	if d, err := f.svc.RedeliverWebhook(f.acme, hook.ID, ds[0].ID); err != nil || d.Status != "pending" {
		t.Fatalf("RedeliverWebhook: got %+v, %v, want pending", d, err)
	}
	f.deliver(t)
	ok, _, _ := rcv.snapshot()
	if len(ok) != 2 || ok[0] != ok[1] || !strings.HasPrefix(ok[0], "evt_ping_") {
		t.Errorf("got %v, want the ping's event id twice", ok)
	}
	if err := f.svc.DeleteWebhook(f.acme, hook.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.WebhookDeliveries(f.acme, hook.ID, grocery.WebhookDeliveriesInput{}); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("deliveries of a deleted endpoint: got %v, want ENOTFOUND", err)
	}
}

// TestWebhooks_Restart: deliveries pending when the Service closes are
// sent by the next one on the same file, by its worker, without a call.
func TestWebhooks_Restart(t *testing.T) {
	t.Parallel()
	f := newHookFixture(t, nil)
	var mu sync.Mutex
	up := false
	rcv := newReceiver(t, f.clock, func(int) int {
		mu.Lock()
		defer mu.Unlock()
		if up {
			return 200
		}
		return 503
	})
	hook := f.createHook(t, f.acme, rcv)
	f.createMilkRules(t, f.acme)
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	f.deliver(t)
	if ok, _, n := rcv.snapshot(); n != 1 || len(ok) != 0 {
		t.Fatalf("before the restart: got %d requests, %d answered 2xx, want 1 refused", n, len(ok))
	}
	f.svc.Close()
	mu.Lock()
	up = true
	mu.Unlock()
	f.advance(time.Minute) // the retry is due
	opts := hookOptions(f)
	opts.Webhooks.Manual = false
	f.open(t, opts)
	for range 3 {
		select {
		case <-rcv.recv:
		case <-time.After(10 * time.Second):
			t.Fatal("the worker did not deliver the pending events within 10 s of the open")
		}
	}
	// Wait for the worker's round to record what it sent: DeliverWebhooks
	// runs after it (one round at a time) and finds nothing due.
	if run := f.deliver(t); run.Attempts != 0 {
		t.Errorf("after the worker: got %+v, want nothing left to send", run)
	}
	ds := f.deliveries(t, f.acme, hook.ID)
	for _, d := range ds {
		if d.Status != "delivered" {
			t.Errorf("after the restart: delivery %+v, want delivered", d)
		}
	}
}

// TestWebhooks_Limit: an account holds at most MaxWebhooks endpoints, in
// the data file and in Redis: the next is a conflict naming the limit;
// another account is not limited by it, and a deletion makes room.
func TestWebhooks_Limit(t *testing.T) { alertStores(t, testWebhooksLimit) }

func testWebhooksLimit(t *testing.T, rs *redistest.Server) {
	f := newHookFixture(t, rs)
	in := grocery.WebhookInput{URL: "http://127.0.0.1:9/hooks"}
	var last *grocery.Webhook
	for i := range grocery.MaxWebhooks {
		w, err := f.svc.CreateWebhook(f.acme, in)
		if err != nil {
			t.Fatalf("endpoint %d: %v", i+1, err)
		}
		last = w
	}
	_, err := f.svc.CreateWebhook(f.acme, in)
	if grocery.ErrorCode(err) != grocery.ECONFLICT || !strings.Contains(grocery.ErrorMessage(err), "100 webhook endpoints, the most an account may hold") {
		t.Fatalf("endpoint 101: got %v, want a conflict naming the limit", err)
	}
	if _, err := f.svc.CreateWebhook(f.beta, in); err != nil {
		t.Errorf("beta's first endpoint: got %v, want it created", err)
	}
	if err := f.svc.DeleteWebhook(f.acme, last.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateWebhook(f.acme, in); err != nil {
		t.Errorf("after a deletion: got %v, want room for one", err)
	}
	if l, err := f.svc.ListWebhooks(f.acme); err != nil || l.Total != grocery.MaxWebhooks {
		t.Errorf("ListWebhooks: got %+v, %v, want %d", l, err, grocery.MaxWebhooks)
	}
}
