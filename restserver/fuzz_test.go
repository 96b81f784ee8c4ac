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
	"github.com/grocerydata/grocery/restserver"
)

// fuzzHandler returns the real REST handler on the shared data file and
// the key of an account whose quota the fuzzing cannot spend.
func fuzzHandler(f *testing.F, account string) (http.Handler, string) {
	k, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: account, Plan: "integration", Quota: 1 << 40})
	if err != nil {
		f.Fatal(err)
	}
	return restserver.New(svc, &restserver.Options{MaxBodyBytes: 64 << 10}), k.Key
}

// checkREST fails on a 5xx, and on a 4xx that is not a problem+json body
// whose status is the answer's.
func checkREST(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("%s: status %d\n%s", what, rec.Code, rec.Body)
	}
	if rec.Code < 400 {
		return
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%s: status %d with Content-Type %q, want application/problem+json\n%s", what, rec.Code, ct, rec.Body)
	}
	var p restserver.Problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Code == "" || p.Detail == "" ||
		p.Type != restserver.ProblemBase+p.Code {
		t.Fatalf("%s: status %d, problem %s (%v)", what, rec.Code, rec.Body, err)
	}
}

// restGETPaths are the GET paths whose query strings FuzzRESTQuery sends.
var restGETPaths = []string{"/prices", "/price", "/search", "/b2b/alerts/zz", "/b2b/export", "/b2b/category_report", "/b2b/promo_calendar",
	"/b2b/new_on_shelf", "/b2b/alerts", "/b2b/alerts/events", "/b2b/geographic_prices", "/b2b/regional_comparison",
	"/b2b/competitive_benchmark", "/b2b/brand_insights", "/b2b/executive_brief"}

// FuzzRESTQuery sends any raw query string to each GET path through the
// real handler: never a panic or a 5xx, and every 4xx a problem.
func FuzzRESTQuery(f *testing.F) {
	h, key := fuzzHandler(f, "fuzz-rest-query")
	for _, q := range []string{
		"upc=" + upcMilk + "&province=ON", "upc=068000000154&province=ON&limit=5&offset=1", "q=milk&province=on&banner=loblaws",
		"sku=L1&banner=loblaws&province=ON&period=7d", "province=ON&from=2026-11-01&to=2026-11-19&format=csv",
		"province=ON&category=Dairy%20%26%20Eggs", "province=ON&province=QC", "limit=0", "limit=99999999999999999999",
		"offset=-1", "upc=%zz", "postal_code=M5V%202T6&q=milk", "province=ON&banner=no-frills&format=html", "&&=&a=b=c", ";",
	} {
		for i := range restGETPaths {
			f.Add(uint8(i), q)
		}
	}
	f.Fuzz(func(t *testing.T, path uint8, query string) {
		p := restGETPaths[int(path)%len(restGETPaths)]
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path, req.URL.RawQuery = p, query
		req.Header.Set("X-API-Key", key)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkREST(t, p+"?"+query, rec)
	})
}

// FuzzRESTBody sends any body to POST /b2b/basket and POST /b2b/alerts
// through the real handler: never a panic or a 5xx, and every 4xx a
// problem.
func FuzzRESTBody(f *testing.F) {
	h, key := fuzzHandler(f, "fuzz-rest-body")
	for _, s := range []string{
		`{"province":"ON","items":[{"upc":"` + upcMilk + `","quantity":2},{"name":"old cheddar","quantity":1}]}`,
		`{"province":"ON","items":[]}`, `{"province":"ON","items":[{"quantity":100}]}`, `{"province":"XX","items":null}`,
		`{"name":"milk","upc":"` + upcMilk + `","province":"ON","condition":"price_below","threshold":4.5}`,
		`{"name":"sku","sku":"L1","banner":"loblaws","province":"ON","condition":"price_drop_pct","threshold":1e308}`,
		`{"name":"p","upc":"` + upcMilk + `","province":"ON","condition":"promo_start","threshold":-0}`,
		`{"name":"","province":"ON","condition":"back_in_stock","extra":1}`, `{"items":[{"quantity":1.5}]}`,
		`[]`, `null`, `{`, ``, `{"province":"ON"}{"province":"ON"}`, "{\"name\":\"\xff\"}",
	} {
		f.Add(false, s)
		f.Add(true, s)
	}
	f.Fuzz(func(t *testing.T, alerts bool, body string) {
		p := "/b2b/basket"
		if alerts {
			p = "/b2b/alerts"
		}
		req := httptest.NewRequest(http.MethodPost, p, bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", key)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkREST(t, p+" "+body, rec)
		if alerts && rec.Code == http.StatusCreated {
			// Keep the account under its rule limit: delete what was made.
			loc := rec.Header().Get("Location")
			if !strings.HasPrefix(loc, "/b2b/alerts/") {
				t.Fatalf("%s: 201 with Location %q", body, loc)
			}
			del := httptest.NewRequest(http.MethodDelete, loc, nil)
			del.Header.Set("X-API-Key", key)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, del)
			if rec.Code >= 300 {
				t.Fatalf("DELETE %s: status %d\n%s", loc, rec.Code, rec.Body)
			}
		}
	})
}
