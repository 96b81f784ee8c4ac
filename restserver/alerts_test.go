package restserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
	opts := &grocery.Options{}
	if redisURL != "" {
		opts.Shared = servetest.Redis(t, redisURL)
	}
	s := servetest.Open(t, opts, servetest.File{Name: "stores.csv", Data: storesCSV},
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
		{"ErrUnknownSKU", "application/json", strings.Replace(rule, `"L7"`, `"NOPE"`, 1), 400, grocery.EINVALIDARGUMENT, "from GET /products/{upc} or GET /search"},
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

// ojStoresCSV and ojDays: orange juice (upc 058700001230) at a Farm Boy
// and a Loblaws in Ontario; on 2026-11-19 Farm Boy sells it at 3.88
// (regular 4.29), Loblaws at 4.49.
const ojStoresCSV = "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
	"fb-1,farm-boy,ON,Farm Boy 1,Ottawa,K1P 5J2,45.42,-75.69\n" +
	"lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40\n"

const ojDays = "date,store_id,banner,external_sku,price,regular_price,upc,name,brand,size,category\n" +
	"2026-11-18,fb-1,farm-boy,FB-OJ,4.29,4.29,058700001230,Orange Juice,Sunny,1.75 L,Juice\n" +
	"2026-11-18,lob-a,loblaws,L-OJ,4.49,4.49,058700001230,,,,\n" +
	"2026-11-19,fb-1,farm-boy,FB-OJ,3.88,4.29,,,,,\n" +
	"2026-11-19,lob-a,loblaws,L-OJ,4.49,4.49,,,,,\n"

// ojServer is a REST server over the orange juice data, with keys, rules
// and events in Redis when rs is not nil, and a key of account "acme".
func ojServer(t *testing.T, rs *redistest.Server) (*grocery.Service, string, string) {
	t.Helper()
	opts := &grocery.Options{}
	if rs != nil {
		opts.Shared = servetest.Redis(t, rs.URL())
	}
	s := servetest.Open(t, opts, servetest.File{Name: "stores.csv", Data: ojStoresCSV}, servetest.File{Name: "oj.csv", Data: ojDays})
	ts := httptest.NewServer(restserver.New(s, nil))
	t.Cleanup(ts.Close)
	return s, ts.URL, servetest.AccountKey(t, s, "acme", "integration", 0)
}

type eventPage struct {
	Results []grocery.AlertEvent `json:"results"`
	Total   int                  `json:"total"`
}

// TestAlerts_AtCreation: a rule "orange juice under 4 dollars" created
// while Farm Boy already sells it at 3.88 records one event at creation
// (reason at_creation) and answers it; a rule whose condition does not
// hold answers where each banner stands instead, and records nothing.
func TestAlerts_AtCreation(t *testing.T) {
	t.Parallel()
	t.Run("bbolt", func(t *testing.T) { t.Parallel(); testAlertsAtCreation(t, nil) })
	t.Run("redis", func(t *testing.T) { t.Parallel(); testAlertsAtCreation(t, redistest.Start(t)) })
}

func testAlertsAtCreation(t *testing.T, rs *redistest.Server) {
	s, base, key := ojServer(t, rs)
	r := call(t, key, "POST", base+"/b2b/alerts", "application/json",
		`{"name":"Orange juice under 4 dollars","upc":"058700001230","province":"ON","condition":"price_below","threshold":4}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create: got %d, want 201\n%s", r.status, r.body)
	}
	rule := decodeStatus[grocery.AlertRule](t, r, http.StatusCreated)
	st := rule.Standing
	if st == nil || !st.Holds || !st.Recorded || st.Event == nil {
		t.Fatalf("created rule's standing: got %s, want it to hold with an event recorded", r.body)
	}
	if e := st.Event; e.Reason != "at_creation" || e.Banner != "farm-boy" || e.Price != 388 || e.ObservedAt.String() != "2026-11-19" || e.RuleID != rule.ID {
		t.Errorf("event at creation: got %+v, want reason at_creation, farm-boy at 3.88 on 2026-11-19", *e)
	}
	ev := decode[eventPage](t, call(t, key, "GET", base+"/b2b/alerts/events", "", ""))
	if ev.Total != 1 || ev.Results[0].Reason != "at_creation" || ev.Results[0].Price != 388 || ev.Results[0].RuleID != rule.ID {
		t.Fatalf("events after creating the rule: got %+v, want one at_creation event at 3.88", ev)
	}
	if want := "Orange juice under 4 dollars: Orange Juice at Farm Boy in ON is $3.88 on 2026-11-19, at or below $4.00 (was $4.29 on 2026-11-18)"; ev.Results[0].Message != want {
		t.Errorf("message: got %q, want %q", ev.Results[0].Message, want)
	}

	// Under 3.50 holds nowhere: no event, and the answer says where each
	// banner stands, cheapest first.
	r = call(t, key, "POST", base+"/b2b/alerts", "application/json",
		`{"name":"OJ under 3.50","upc":"058700001230","province":"ON","condition":"price_below","threshold":3.5}`)
	low := decodeStatus[grocery.AlertRule](t, r, http.StatusCreated)
	if low.Standing == nil {
		t.Fatalf("create: got %d\n%s", r.status, r.body)
	}
	was := grocery.Cents(429)
	wantSeries := []grocery.AlertSeriesStanding{
		{Banner: "farm-boy", BannerName: "Farm Boy", SKU: "FB-OJ", Price: 388, RegularPrice: 429, OnPromo: true, ObservedAt: day(t, "2026-11-19"), PreviousPrice: &was},
		{Banner: "loblaws", BannerName: "Loblaws", SKU: "L-OJ", Price: 449, RegularPrice: 449, ObservedAt: day(t, "2026-11-19"), PreviousPrice: cents(449)},
	}
	if diff := cmp.Diff(wantSeries, low.Standing.Series); diff != "" || low.Standing.Holds || low.Standing.Event != nil || low.Standing.AsOf.String() != "2026-11-19" {
		t.Errorf("standing of a rule that does not hold: got %s (-want +got series):\n%s", r.body, diff)
	}
	if !strings.Contains(string(r.body), `"event":null`) {
		t.Errorf("the answer should carry event null: %s", r.body)
	}
	if ev := decode[eventPage](t, call(t, key, "GET", base+"/b2b/alerts/events?rule_id="+low.ID, "", "")); ev.Total != 0 {
		t.Errorf("events of the rule that does not hold: got %d, want 0", ev.Total)
	}

	// The next import, Farm Boy down to 3.40: under 4 stays under (no
	// crossing, no second event); under 3.50 is crossed, recorded with
	// reason import.
	importCSV(t, s, "date,store_id,banner,external_sku,price,regular_price\n2026-11-20,fb-1,farm-boy,FB-OJ,3.40,4.29\n2026-11-20,lob-a,loblaws,L-OJ,4.49,4.49\n")
	ev = decode[eventPage](t, call(t, key, "GET", base+"/b2b/alerts/events", "", ""))
	if ev.Total != 2 || ev.Results[0].RuleID != low.ID || ev.Results[0].Reason != "import" || ev.Results[0].Price != 340 {
		t.Errorf("events after the next import: got %+v, want the at_creation one and OJ under 3.50 at 3.40 by import", ev)
	}
}

func day(t *testing.T, s string) grocery.Date {
	t.Helper()
	d, err := grocery.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func cents(c grocery.Cents) *grocery.Cents { return &c }

// decodeStatus is decode for an answer of another status than 200.
func decodeStatus[T any](t *testing.T, r *reply, status int) T {
	t.Helper()
	if r.status != status {
		t.Fatalf("status: got %d, want %d\n%s", r.status, status, r.body)
	}
	r.status = http.StatusOK
	return decode[T](t, r)
}

// TestAlerts_PatchAndEvaluate: PATCH keeps a rule's id and events and
// pauses its recording; POST .../evaluate records once however often it
// is called; a bad PATCH is a 400 that names the problem and changes
// nothing.
func TestAlerts_PatchAndEvaluate(t *testing.T) {
	t.Parallel()
	t.Run("bbolt", func(t *testing.T) { t.Parallel(); testAlertsPatchAndEvaluate(t, nil) })
	t.Run("redis", func(t *testing.T) { t.Parallel(); testAlertsPatchAndEvaluate(t, redistest.Start(t)) })
}

func testAlertsPatchAndEvaluate(t *testing.T, rs *redistest.Server) {
	s, base, key := ojServer(t, rs)
	created := decodeStatus[grocery.AlertRule](t, call(t, key, "POST", base+"/b2b/alerts", "application/json",
		`{"name":"OJ under 3.50","upc":"058700001230","province":"ON","condition":"price_below","threshold":3.5}`), http.StatusCreated)
	path := base + "/b2b/alerts/" + created.ID

	changed := decode[grocery.AlertRule](t, call(t, key, "PATCH", path, "application/json", `{"threshold":3.9,"name":"OJ under 3.90"}`))
	if changed.ID != created.ID || *changed.Threshold != 3.9 || changed.Name != "OJ under 3.90" || !changed.Active || !changed.CreatedAt.Equal(created.CreatedAt) {
		t.Fatalf("PATCH: got %+v, want id %s, threshold 3.9, the new name, active", changed, created.ID)
	}

	// Farm Boy's 3.88 is under 3.90 now: the first evaluation records an
	// event, the second answers the same one and records nothing.
	var first string
	for i := range 2 {
		got := decode[grocery.AlertRule](t, call(t, key, "POST", path+"/evaluate", "", ""))
		st := got.Standing
		if st == nil || !st.Holds || st.Recorded != (i == 0) || st.Event == nil || st.Event.Reason != "evaluate" || st.Event.Price != 388 {
			t.Fatalf("evaluate %d: got %+v, want it to hold, recorded %v, the evaluate event at 3.88", i+1, st, i == 0)
		}
		if i == 0 {
			first = st.Event.ID
		} else if st.Event.ID != first {
			t.Errorf("second evaluate answered %s, want the first's event %s", st.Event.ID, first)
		}
	}
	if ev := decode[eventPage](t, call(t, key, "GET", base+"/b2b/alerts/events?rule_id="+created.ID, "", "")); ev.Total != 1 {
		t.Fatalf("events after two evaluations: got %d, want 1", ev.Total)
	}

	// Paused: Loblaws crossing under 3.90 records nothing; the rule keeps
	// its id and its event.
	paused := decode[grocery.AlertRule](t, call(t, key, "PATCH", path, "application/json", `{"active":false}`))
	if paused.Active || paused.ID != created.ID {
		t.Fatalf("pause: got %+v", paused)
	}
	importCSV(t, s, "date,store_id,banner,external_sku,price,regular_price\n2026-11-20,lob-a,loblaws,L-OJ,3.70,4.49\n")
	if ev := decode[eventPage](t, call(t, key, "GET", base+"/b2b/alerts/events?rule_id="+created.ID, "", "")); ev.Total != 1 || ev.Results[0].ID != first {
		t.Errorf("events of the paused rule after an import: got %+v, want only %s", ev, first)
	}
	if got := decode[grocery.AlertRule](t, call(t, key, "GET", path, "", "")); got.Active || *got.Threshold != 3.9 {
		t.Errorf("GET after pausing: got %+v", got)
	}

	before := call(t, key, "GET", path, "", "").body
	for _, tc := range []struct{ name, body, has string }{
		{"ErrEmpty", `{}`, "nothing to change: give name, condition, threshold or active"},
		{"ErrType", `{"threshold":"cheap"}`, "field threshold: want a number, got a JSON string"},
		{"ErrUPC", `{"upc":"058700001230"}`, "upc cannot change"},
		{"ErrUnknownField", `{"thresold":3}`, `unknown field "thresold"`},
		{"ErrNoThreshold", `{"condition":"price_drop_pct"}`, "threshold is required for price_drop_pct"},
		{"ErrThreshold", `{"threshold":0}`, "threshold 0 for price_below: want a price in dollars above 0"},
		{"ErrName", `{"name":""}`, "name is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, call(t, key, "PATCH", path, "application/json", tc.body), http.StatusBadRequest, grocery.EINVALIDARGUMENT, tc.has)
		})
	}
	if after := call(t, key, "GET", path, "", "").body; !bytes.Equal(after, before) {
		t.Errorf("the rule after refused changes:\n%s\nwant\n%s", after, before)
	}
}

// TestAlerts_IdempotencyKey: POST /b2b/alerts with an Idempotency-Key
// answers the same request again with the first answer and no second
// rule, refuses another request with that key with a 409, keeps keys per
// account and forgets them after 24 hours on the service's clock.
func TestAlerts_IdempotencyKey(t *testing.T) {
	t.Parallel()
	t.Run("bbolt", func(t *testing.T) { t.Parallel(); testAlertsIdempotencyKey(t, nil) })
	t.Run("redis", func(t *testing.T) { t.Parallel(); testAlertsIdempotencyKey(t, redistest.Start(t)) })
}

func testAlertsIdempotencyKey(t *testing.T, rs *redistest.Server) {
	var mu sync.Mutex
	now := servetest.Now()
	opts := &grocery.Options{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }}
	if rs != nil {
		opts.Shared = servetest.Redis(t, rs.URL())
	}
	s := servetest.Open(t, opts, servetest.File{Name: "stores.csv", Data: ojStoresCSV}, servetest.File{Name: "oj.csv", Data: ojDays})
	ts := httptest.NewServer(restserver.New(s, nil))
	t.Cleanup(ts.Close)
	keyA := servetest.AccountKey(t, s, "a", "integration", 0)
	keyB := servetest.AccountKey(t, s, "b", "integration", 0)
	post := func(key, idem, body string) *reply {
		t.Helper()
		req := servetest.Request(t, "POST", ts.URL+"/b2b/alerts", body)
		req.Header.Set("Content-Type", "application/json")
		if idem != "" {
			req.Header.Set("Idempotency-Key", idem)
		}
		return do(t, key, req)
	}
	rules := func(key string) int {
		t.Helper()
		return decode[grocery.AlertRules](t, call(t, key, "GET", ts.URL+"/b2b/alerts", "", "")).Total
	}
	const body = `{"name":"OJ under 4","upc":"058700001230","province":"ON","condition":"price_below","threshold":4}`

	first := post(keyA, "k1", body)
	if first.status != http.StatusCreated || first.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first request: got %d, replayed %q\n%s", first.status, first.header.Get("Idempotent-Replayed"), first.body)
	}
	// The same request again, and the same JSON written otherwise: the
	// first answer, and no second rule.
	same := strings.NewReplacer(`{"name":"OJ under 4",`, `{ "province": "ON", "name":"OJ under 4",`, `"province":"ON",`, ``).Replace(body)
	for _, b := range []string{body, same} {
		r := post(keyA, "k1", b)
		if r.status != http.StatusCreated || !bytes.Equal(r.body, first.body) || r.header.Get("Location") != first.header.Get("Location") || r.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("repeat with body %s: got %d %s (Location %q, replayed %q), want the first answer replayed", b, r.status, r.body, r.header.Get("Location"), r.header.Get("Idempotent-Replayed"))
		}
	}
	if n := rules(keyA); n != 1 {
		t.Fatalf("rules after three requests with one key: got %d, want 1", n)
	}
	wantProblem(t, post(keyA, "k1", strings.Replace(body, `"threshold":4`, `"threshold":3`, 1)), http.StatusConflict, grocery.ECONFLICT,
		`Idempotency-Key "k1" was used at 2026-11-20T12:00:00Z for another request`)
	wantProblem(t, post(keyA, strings.Repeat("k", 256), body), http.StatusBadRequest, grocery.EINVALIDARGUMENT, "Idempotency-Key: want 1 to 255 visible ASCII characters")

	// Another account's same key is its own.
	if r := post(keyB, "k1", body); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" || bytes.Equal(r.body, first.body) {
		t.Errorf("account b with a's key: got %d replayed %q\n%s, want a rule of its own", r.status, r.header.Get("Idempotent-Replayed"), r.body)
	}

	// A refused request keeps nothing: its key serves the corrected one.
	wantProblem(t, post(keyA, "k2", strings.Replace(body, "price_below", "cheap", 1)), http.StatusBadRequest, grocery.EINVALIDARGUMENT, "condition")
	if r := post(keyA, "k2", body); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("k2 after a refused request: got %d replayed %q, want a new rule", r.status, r.header.Get("Idempotent-Replayed"))
	}

	// 24 hours later k1 is new again.
	mu.Lock()
	now = now.Add(24*time.Hour - time.Millisecond)
	mu.Unlock()
	if r := post(keyA, "k1", body); r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("k1 a millisecond before 24 hours: got %d replayed %q, want the first answer", r.status, r.header.Get("Idempotent-Replayed"))
	}
	mu.Lock()
	now = now.Add(time.Millisecond)
	mu.Unlock()
	r := post(keyA, "k1", strings.Replace(body, `"threshold":4`, `"threshold":3`, 1))
	if r.status != http.StatusCreated || r.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("k1 after 24 hours with another body: got %d replayed %q\n%s, want a new rule", r.status, r.header.Get("Idempotent-Replayed"), r.body)
	}
	if n := rules(keyA); n != 3 {
		t.Errorf("a's rules: got %d, want 3 (k1, k2, k1 after 24 hours)", n)
	}
}
