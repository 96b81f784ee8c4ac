package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// FuzzHandler sends any method, path (with its query) and body to the
// socket's handler on a real data file: it never panics, every error is a
// JSON body with a code and a message, and the only 5xx is the documented
// one, a code statusOf does not list; never EINTERNAL, which bad input
// must not reach.
func FuzzHandler(f *testing.F) {
	ctx := context.Background()
	svc, err := grocery.Open(filepath.Join(f.TempDir(), "g.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { svc.Close() })
	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nf-1,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.68,-79.31\n"
	obs := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n" +
		"2026-11-18,nf-1,no-frills,21000001_EA,4.79,,,068000000154,2% Milk,Natrel,2 L,Dairy\n"
	for _, file := range []struct{ name, body string }{{"stores.csv", stores}, {"prices.csv", obs}} {
		if _, err := svc.Import(ctx, file.name, strings.NewReader(file.body), nil); err != nil {
			f.Fatalf("%s: %v", file.name, err)
		}
	}
	if _, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		f.Fatal(err)
	}
	h := handler(svc)

	seeds := []struct{ method, path, body string }{
		{"POST", "/v1/keys", `{"account":"a","plan":"starter"}`},
		{"GET", "/v1/keys", ``},
		{"POST", "/v1/keys/revoke", `{"key":"gk_nope"}`},
		{"GET", "/v1/usage?account=acme", ``},
		{"GET", "/v1/plans", ``},
		{"POST", "/v1/import?name=s.csv", stores},
		{"POST", "/v1/import?name=p.csv&skip_invalid=true", obs + "bad,row\n"},
		{"POST", "/v1/import?name=p.jsonl", `{"date":"2026-11-18","store_id":"nf-1","banner":"no-frills","external_sku":"x","price":"1.99"}`},
		{"POST", "/v1/export", `{"format":"csv","province":"ON"}`},
		{"POST", "/v1/export", `{"format":"xml"}`},
		{"POST", "/v1/lookup", `{"upc":"068000000154","province":"ON"}`},
		{"POST", "/v1/search", `{"query":"milk","province":"ON"}`},
		{"POST", "/v1/history", `{"sku":"21000001_EA","banner":"no-frills","province":"ON","period":"7d"}`},
		{"POST", "/v1/stores", `{"province":"ON"}`},
		{"POST", "/v1/report/geographic_prices", `{"upc":"068000000154"}`},
		{"POST", "/v1/report/regional_comparison", `{"province":"ON"}`},
		{"POST", "/v1/report/competitive_benchmark", `{"province":"ON","banner":"no-frills"}`},
		{"POST", "/v1/report/brand_insights", `{"brand":"Natrel"}`},
		{"POST", "/v1/report/basket", `{"province":"ON","items":[{"upc":"068000000154","quantity":1}]}`},
		{"POST", "/v1/brief?account=acme", `{"province":"ON","banner":"no-frills"}`},
		{"POST", "/v1/alerts?account=acme", `{"name":"m","upc":"068000000154","province":"ON","condition":"price_below","threshold":4}`},
		{"POST", "/v1/alerts/list?account=acme", `{}`},
		{"POST", "/v1/alerts/get?account=acme", `{"id":"1"}`},
		{"POST", "/v1/alerts/delete?account=nobody", `{"id":"1"}`},
		{"POST", "/v1/alerts/events?account=acme", `{}`},
		{"POST", "/v1/alerts/evaluate?account=acme", `{}`},
		{"DELETE", "/v1/keys", ``},
		{"POST", "/v2/unknown", `{}`},
		{"POST", "/v1/lookup", `{"upc":1}`},
		{"POST", "/v1/lookup", `{"up":"1"} {}`},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, target string, body []byte) {
		path, query, _ := strings.Cut(target, "?")
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Method, req.URL.Path, req.URL.RawQuery = method, path, query
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		what := method + " " + target + " " + string(body)
		if rec.Code < 400 {
			if path != "/v1/export" && !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%q: status %d, the answer is not JSON\n%s", what, rec.Code, rec.Body)
			}
			return
		}
		var e errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code == "" || e.Message == "" {
			t.Fatalf("%q: status %d, want a JSON error with a code and a message\n%s", what, rec.Code, rec.Body)
		}
		// A method a path does not take is 405 with EINVALIDARGUMENT; any other
		// error has statusOf's status, or 500 for a code it does not list.
		if want, ok := statusOf[e.Code]; rec.Code != http.StatusMethodNotAllowed && (ok && rec.Code != want || !ok && rec.Code != http.StatusInternalServerError) {
			t.Fatalf("%q: status %d for code %s", what, rec.Code, e.Code)
		}
		if e.Code == grocery.EINTERNAL {
			t.Fatalf("%q: an internal error\n%s", what, rec.Body)
		}
	})
}
