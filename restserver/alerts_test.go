package restserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// alertServer is a server on a data file of its own, since its imports
// change prices: two Ontario Loblaws stores; SKU L7 at 3.00 on 2026-11-18.
// Keys, rules and events are in the Redis at redisURL when it is not "".
func alertServer(t *testing.T, redisURL string) (*grocery.Service, string) {
	t.Helper()
	s := servetest.Open(t, &grocery.Options{RedisURL: redisURL}, servetest.File{Name: "stores.csv", Data: storesCSV},
		servetest.File{Name: "data.csv", Data: "date,store_id,banner,external_sku,price\n2026-11-18,lob-c,loblaws,L7,3.00\n"})
	ts := httptest.NewServer(restserver.New(s, nil))
	t.Cleanup(ts.Close)
	return s, ts.URL
}

func importCSV(t *testing.T, s *grocery.Service, data string) {
	t.Helper()
	if _, err := s.Import(context.Background(), "data.csv", strings.NewReader(data), nil); err != nil {
		t.Fatal(err)
	}
}

func call(t *testing.T, key, method, url, contentType, body string) *reply {
	t.Helper()
	req := servetest.Request(t, method, url, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(t, key, req)
}

// TestAlerts: a rule created over REST fires on an import exactly once;
// no account reads, lists or deletes another's rules or events. It runs
// with rules in the data file and in Redis; with Redis gone, alert calls
// are a 503.
func TestAlerts(t *testing.T) {
	t.Parallel()
	t.Run("bbolt", func(t *testing.T) { testAlerts(t, nil) })
	t.Run("redis", func(t *testing.T) { testAlerts(t, redistest.Start(t)) })
}

func testAlerts(t *testing.T, rs *redistest.Server) {
	url := ""
	if rs != nil {
		url = rs.URL()
	}
	s, base := alertServer(t, url)
	ctx := context.Background()
	keyA, err := s.CreateKey(ctx, grocery.KeyInput{Account: "a", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	keyB, err := s.CreateKey(ctx, grocery.KeyInput{Account: "b", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	const rule = `{"name":"L7 under 2.50","banner":"loblaws","sku":"L7","province":"ON","condition":"price_below","threshold":2.50}`
	r := call(t, keyA.Key, "POST", base+"/b2b/alerts", "application/json", rule)
	if r.status != http.StatusCreated {
		t.Fatalf("create: got %d\n%s", r.status, r.body)
	}
	var created grocery.AlertRule
	if err := json.Unmarshal(r.body, &created); err != nil {
		t.Fatal(err)
	}
	if loc := r.header.Get("Location"); loc != "/b2b/alerts/"+created.ID || created.Condition != "price_below" || *created.Threshold != 2.50 {
		t.Fatalf("created %+v at %q", created, loc)
	}
	if got := decode[grocery.AlertRule](t, call(t, keyA.Key, "GET", base+"/b2b/alerts/"+created.ID, "", "")); got.ID != created.ID {
		t.Errorf("get: got %+v", got)
	}

	// 2.49 at or below 2.50 after 3.00: one event; the same file again: none.
	day2 := "date,store_id,banner,external_sku,price\n2026-11-19,lob-c,loblaws,L7,2.49\n"
	for range 2 {
		importCSV(t, s, day2)
	}
	type events struct {
		Results []grocery.AlertEvent `json:"results"`
		Total   int                  `json:"total"`
	}
	ev := decode[events](t, call(t, keyA.Key, "GET", base+"/b2b/alerts/events", "", ""))
	if ev.Total != 1 || len(ev.Results) != 1 || ev.Results[0].RuleID != created.ID || ev.Results[0].Price != 249 || ev.Results[0].PreviousPrice == nil || *ev.Results[0].PreviousPrice != 300 {
		t.Fatalf("events after two imports of the same day: %+v", ev)
	}

	// B sees none of A's: its lists are empty, A's id is not found (never
	// forbidden), and B's delete leaves the rule in place.
	if got := decode[events](t, call(t, keyB.Key, "GET", base+"/b2b/alerts/events", "", "")); got.Total != 0 {
		t.Errorf("B's events: got %+v, want none", got)
	}
	if got := decode[grocery.AlertRules](t, call(t, keyB.Key, "GET", base+"/b2b/alerts", "", "")); got.Total != 0 {
		t.Errorf("B's rules: got %+v, want none", got)
	}
	for _, method := range []string{"GET", "DELETE"} {
		wantProblem(t, call(t, keyB.Key, method, base+"/b2b/alerts/"+created.ID, "", ""), http.StatusNotFound, grocery.ENOTFOUND, "")
	}
	if got := decode[events](t, call(t, keyB.Key, "GET", base+"/b2b/alerts/events?rule_id="+created.ID, "", "")); got.Total != 0 {
		t.Errorf("B's events of A's rule: got %+v, want none", got)
	}

	// Bad requests store nothing.
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		code, has               string
	}{
		{"ErrUnknownField", "application/json", strings.Replace(rule, `"name"`, `"nmae"`, 1), 400, grocery.EINVALIDARGUMENT, "nmae"},
		{"ErrCondition", "application/json", strings.Replace(rule, "price_below", "cheap", 1), 400, grocery.EINVALIDARGUMENT, "price_below"},
		{"ErrEmpty", "application/json", "", 400, grocery.EINVALIDARGUMENT, "got nothing"},
		{"ErrArray", "application/json", "[]", 400, grocery.EINVALIDARGUMENT, "request body: want a JSON object, got a JSON array"},
		{"ErrFieldType", "application/json", `{"name":5}`, 400, grocery.EINVALIDARGUMENT, "request body: field name: want a string, got a JSON number"},
		{"ErrSyntax", "application/json", `{"name":}`, 400, grocery.EINVALIDARGUMENT, "request body: not valid JSON at byte 9"},
		{"ErrCut", "application/json", `{"name":"x"`, 400, grocery.EINVALIDARGUMENT, "request body: the JSON object is cut short"},
		{"ErrUnknownSKU", "application/json", strings.Replace(rule, `"L7"`, `"NOPE"`, 1), 400, grocery.EINVALIDARGUMENT, "from GET /prices or GET /search"},
		{"ErrTwoObjects", "application/json", rule + rule, 400, grocery.EINVALIDARGUMENT, "one JSON object"},
		{"ErrNotJSON", "text/plain", rule, 415, "unsupported_media_type", ""},
		{"ErrTooLarge", "application/json", `{"name":"` + string(bytes.Repeat([]byte("x"), 1<<20)) + `"}`, 413, "body_too_large", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, call(t, keyA.Key, "POST", base+"/b2b/alerts", tc.contentType, tc.body), tc.status, tc.code, tc.has)
		})
	}
	if got := decode[grocery.AlertRules](t, call(t, keyA.Key, "GET", base+"/b2b/alerts", "", "")); got.Total != 1 {
		t.Errorf("A's rules after the refused requests: got %d, want 1", got.Total)
	}

	r = call(t, keyA.Key, "DELETE", base+"/b2b/alerts/"+created.ID, "", "")
	if r.status != http.StatusNoContent {
		t.Fatalf("delete: got %d\n%s", r.status, r.body)
	}
	wantProblem(t, call(t, keyA.Key, "GET", base+"/b2b/alerts/"+created.ID, "", ""), http.StatusNotFound, grocery.ENOTFOUND, "")
	if got := decode[events](t, call(t, keyA.Key, "GET", base+"/b2b/alerts/events?rule_id="+created.ID, "", "")); got.Total != 1 {
		t.Errorf("the deleted rule's events: got %d, want 1 (they stay)", got.Total)
	}

	if rs == nil {
		return
	}
	rs.Stop()
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/b2b/alerts", rule}, {"GET", "/b2b/alerts", ""}, {"GET", "/b2b/alerts/" + created.ID, ""},
		{"DELETE", "/b2b/alerts/" + created.ID, ""}, {"GET", "/b2b/alerts/events", ""},
	} {
		ct := ""
		if c.body != "" {
			ct = "application/json"
		}
		wantProblem(t, call(t, keyA.Key, c.method, base+c.path, ct, c.body), http.StatusServiceUnavailable, grocery.EUNAVAILABLE, "")
	}
	rs.Restart()
	if got := decode[grocery.AlertRules](t, call(t, keyA.Key, "GET", base+"/b2b/alerts", "", "")); got.Total != 0 {
		t.Errorf("rules after Redis came back: got %d, want 0 (the POST during the outage stored nothing)", got.Total)
	}
}

// TestAlertPages: the alert lists take the same limit and offset bounds as
// every other list.
func TestAlertPages(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	for _, path := range []string{"/b2b/alerts", "/b2b/alerts/events"} {
		wantProblem(t, get(t, key, path+"?offset=1000001"), http.StatusBadRequest, grocery.EINVALIDARGUMENT, "offset 1000001 is out of range: want 0 to 1000000")
		wantProblem(t, get(t, key, path+"?limit=501"), http.StatusBadRequest, grocery.EINVALIDARGUMENT, "limit 501 is out of range: want 1 to 500")
	}
}

// TestKeyStoreFailure: when the key store (Redis) cannot check a key, the
// client is never told its key is invalid: a Redis reply error (the
// account's record is of the wrong type) is a 500 internal problem
// without its text, Redis not answering a 503 with Retry-After.
func TestKeyStoreFailure(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	s, base := alertServer(t, rs.URL())
	good := servetest.AccountKey(t, s, "good", "integration", 0)
	broken := servetest.AccountKey(t, s, "broken", "integration", 0)
	const path = "/b2b/alerts"
	if r := call(t, good, "GET", base+path, "", ""); r.status != http.StatusOK {
		t.Fatalf("good key: status %d\n%s", r.status, r.body)
	}
	c := rs.Client()
	accts, err := c.Keys(context.Background(), "*acct:broken").Result()
	if err != nil || len(accts) != 1 {
		t.Fatalf("the account's record in Redis: %v, %v", accts, err)
	}
	if err := c.Set(context.Background(), accts[0], "not a hash", 0).Err(); err != nil {
		t.Fatal(err)
	}
	r := call(t, broken, "GET", base+path, "", "")
	wantProblem(t, r, http.StatusInternalServerError, grocery.EINTERNAL, "internal error")
	if r.header.Get("WWW-Authenticate") != "" || strings.Contains(string(r.body), "WRONGTYPE") {
		t.Errorf("a key store failure answered as a bad key or with its text: %v\n%s", r.header, r.body)
	}
	rs.Stop()
	r = call(t, good, "GET", base+path, "", "")
	wantProblem(t, r, http.StatusServiceUnavailable, grocery.EUNAVAILABLE, "does not answer")
	if r.header.Get("Retry-After") != "1" || r.header.Get("WWW-Authenticate") != "" {
		t.Errorf("Redis down: headers %v", r.header)
	}
}
