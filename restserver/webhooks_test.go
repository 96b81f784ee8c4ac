package restserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/internal/webhookclient"
	"github.com/grocerydata/grocery/restserver"
)

// TestWebhooks: an endpoint registered over REST receives, signed, the
// event a rule created over REST records on an import, sent by the
// Service's worker; its delivery log shows it delivered; another account
// gets 404s; every call is metered.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	policy := grocery.WebhookPolicy{Loopback: true}
	s := servetest.Open(t, &grocery.Options{Webhooks: grocery.WebhookOptions{Sender: webhookclient.New(policy), AllowLoopback: true}},
		servetest.File{Name: "stores.csv", Data: storesCSV},
		servetest.File{Name: "data.csv", Data: "date,store_id,banner,external_sku,price\n2026-11-18,lob-c,loblaws,L7,3.00\n"})
	ts := httptest.NewServer(restserver.New(s, nil))
	t.Cleanup(ts.Close)
	base := ts.URL
	keyA := servetest.AccountKey(t, s, "a", "integration", 0)
	keyB := servetest.AccountKey(t, s, "b", "integration", 0)

	type got struct {
		body []byte
		sig  string
	}
	recv := make(chan got, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		recv <- got{body, r.Header.Get("Grocery-Signature")}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)

	r := call(t, keyA, "POST", base+"/b2b/webhooks", "application/json", `{"url":"`+rcv.URL+`/hooks","description":"test"}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create: got %d\n%s", r.status, r.body)
	}
	var hook grocery.Webhook
	if err := json.Unmarshal(r.body, &hook); err != nil {
		t.Fatal(err)
	}
	if r.header.Get("Location") != "/b2b/webhooks/"+hook.ID || len(hook.Secret) != 49 {
		t.Fatalf("created %+v at %q: want its Location and a secret", hook, r.header.Get("Location"))
	}
	if again := decode[grocery.Webhook](t, call(t, keyA, "GET", base+"/b2b/webhooks/"+hook.ID, "", "")); again.Secret != "" || again.URL != rcv.URL+"/hooks" {
		t.Errorf("get: got %+v, want the URL and no secret", again)
	}
	rule := `{"name":"L7 under 2.50","banner":"loblaws","sku":"L7","province":"ON","condition":"price_below","threshold":2.50}`
	if r := call(t, keyA, "POST", base+"/b2b/alerts", "application/json", rule); r.status != http.StatusCreated {
		t.Fatalf("create rule: got %d\n%s", r.status, r.body)
	}
	importCSV(t, s, "date,store_id,banner,external_sku,price\n2026-11-19,lob-c,loblaws,L7,2.49\n")

	var g got
	select {
	case g = <-recv:
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10 s of the import")
	}
	if err := grocery.VerifyWebhookSignature(hook.Secret, g.sig, g.body, time.Time{}, 0); err != nil { // the Service's clock is fixed
		t.Fatalf("signature: %v", err)
	}
	var ev struct {
		ID   string             `json:"id"`
		Type string             `json:"type"`
		Data grocery.AlertEvent `json:"data"`
	}
	if err := json.Unmarshal(g.body, &ev); err != nil {
		t.Fatal(err)
	}
	events := decode[grocery.AlertEventList](t, call(t, keyA, "GET", base+"/b2b/alerts/events", "", ""))
	if events.Total != 1 || ev.ID != events.Results[0].ID || ev.Type != "alert.triggered" || ev.Data.Price != 249 {
		t.Errorf("delivered %s, want the one event of GET /b2b/alerts/events %+v", g.body, events)
	}
	// DeliverWebhooks waits for the worker's round (one at a time), which
	// recorded the delivery, and finds nothing more to send.
	if run, err := s.DeliverWebhooks(context.Background()); err != nil || run.Attempts != 0 {
		t.Fatalf("DeliverWebhooks after the worker: got %+v, %v, want nothing to send", run, err)
	}
	ds := decode[grocery.WebhookDeliveryList](t, call(t, keyA, "GET", base+"/b2b/webhooks/"+hook.ID+"/deliveries", "", ""))
	if ds.Total != 1 || ds.Results[0].Status != "delivered" || *ds.Results[0].ResponseCode != 204 || ds.Results[0].EventID != ev.ID {
		t.Errorf("deliveries: got %+v, want one delivered, 204, event %s", ds, ev.ID)
	}

	for _, c := range []struct{ method, path string }{
		{"GET", "/b2b/webhooks/" + hook.ID}, {"DELETE", "/b2b/webhooks/" + hook.ID}, {"POST", "/b2b/webhooks/" + hook.ID + "/test"},
		{"GET", "/b2b/webhooks/" + hook.ID + "/deliveries"}, {"POST", "/b2b/webhooks/" + hook.ID + "/deliveries/whd_0000000000000001/redeliver"},
	} {
		wantProblem(t, call(t, keyB, c.method, base+c.path, "", ""), http.StatusNotFound, grocery.ENOTFOUND, "no webhook endpoint "+hook.ID)
	}
	wantProblem(t, call(t, keyB, "PATCH", base+"/b2b/webhooks/"+hook.ID, "application/json", `{"enabled":false}`), http.StatusNotFound, grocery.ENOTFOUND, "")
	if l := decode[grocery.WebhookList](t, call(t, keyB, "GET", base+"/b2b/webhooks", "", "")); l.Total != 0 {
		t.Errorf("B's endpoints: got %+v, want none", l)
	}
	wantProblem(t, call(t, keyA, "POST", base+"/b2b/webhooks", "application/json", `{"url":"https://169.254.169.254/latest"}`),
		http.StatusBadRequest, grocery.EINVALIDARGUMENT, "169.254.169.254 is a cloud metadata address")
	u, err := s.UsageOf(context.Background(), "b")
	if err != nil || u.Used != 7 {
		t.Errorf("B's usage: got %+v, %v, want 7 calls metered", u, err)
	}
}

// TestWebhooksRedis: a server keeping alert events in Redis serves every
// webhook path from Redis: an endpoint created there is listed, pinged
// and its delivery listed, and deleted.
func TestWebhooksRedis(t *testing.T) {
	t.Parallel()
	s, base := alertServer(t, redistest.Start(t).URL())
	key := servetest.AccountKey(t, s, "a", "integration", 0)
	hook := decodeStatus[grocery.Webhook](t, call(t, key, "POST", base+"/b2b/webhooks", "application/json", `{"url":"https://203.0.113.9/hooks"}`), http.StatusCreated)
	if l := decode[grocery.WebhookList](t, call(t, key, "GET", base+"/b2b/webhooks", "", "")); l.Total != 1 || l.Results[0].ID != hook.ID {
		t.Errorf("GET /b2b/webhooks: got %+v, want %s", l, hook.ID)
	}
	ping := decodeStatus[grocery.WebhookDelivery](t, call(t, key, "POST", base+"/b2b/webhooks/"+hook.ID+"/test", "", ""), http.StatusAccepted)
	ds := decode[grocery.WebhookDeliveryList](t, call(t, key, "GET", base+"/b2b/webhooks/"+hook.ID+"/deliveries", "", ""))
	if ds.Total != 1 || ds.Results[0].EventID != ping.EventID || ds.Results[0].Status != grocery.DeliveryPending {
		t.Errorf("deliveries: got %+v, want the ping %s pending (no sender)", ds, ping.EventID)
	}
	if r := call(t, key, "DELETE", base+"/b2b/webhooks/"+hook.ID, "", ""); r.status != http.StatusNoContent {
		t.Errorf("DELETE: got %d %s, want 204", r.status, r.body)
	}
	wantProblem(t, call(t, key, "GET", base+"/b2b/webhooks/"+hook.ID, "", ""), http.StatusNotFound, grocery.ENOTFOUND, "no webhook endpoint")
}

// TestWebhooksIdempotencyKey: POST /b2b/webhooks with an Idempotency-Key
// answers a retry with the first answer (the same endpoint and secret)
// and registers no second endpoint; the key with another body is a 409.
func TestWebhooksIdempotencyKey(t *testing.T) {
	t.Parallel()
	policy := grocery.WebhookPolicy{Loopback: true}
	s := servetest.Open(t, &grocery.Options{Webhooks: grocery.WebhookOptions{Sender: webhookclient.New(policy), AllowLoopback: true}},
		servetest.File{Name: "stores.csv", Data: storesCSV})
	ts := httptest.NewServer(restserver.New(s, nil))
	t.Cleanup(ts.Close)
	key := servetest.AccountKey(t, s, "a", "integration", 0)
	post := func(body string) *reply {
		t.Helper()
		req := servetest.Request(t, "POST", ts.URL+"/b2b/webhooks", body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "hook-1")
		return do(t, key, req)
	}
	const body = `{"url":"http://127.0.0.1:9/hooks","description":"retry me"}`
	first, again := post(body), post(body)
	if first.status != http.StatusCreated || again.status != http.StatusCreated || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("first %d, again %d (replayed %q)\n%s\n%s", first.status, again.status, again.header.Get("Idempotent-Replayed"), first.body, again.body)
	}
	var a, b grocery.Webhook
	if err := json.Unmarshal(first.body, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again.body, &b); err != nil {
		t.Fatal(err)
	}
	if a.ID != b.ID || a.Secret != b.Secret || a.Secret == "" {
		t.Errorf("retry answered %s (secret %t), want the first, %s", b.ID, b.Secret == a.Secret, a.ID)
	}
	if n := decode[grocery.WebhookList](t, call(t, key, "GET", ts.URL+"/b2b/webhooks", "", "")).Total; n != 1 {
		t.Errorf("endpoints after a retry: got %d, want 1", n)
	}
	if r := post(`{"url":"http://127.0.0.1:9/other"}`); r.status != http.StatusConflict {
		t.Errorf("the key with another body: got %d, want 409\n%s", r.status, r.body)
	}
}
