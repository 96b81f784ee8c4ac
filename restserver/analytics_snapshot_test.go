package restserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestSnapshotAnalytics: every snapshot analytics path answers an
// integration key over HTTP, refuses a starter key with 403
// plan_required, and names the bad parameter in a 400.
func TestSnapshotAnalytics(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	starter := servetest.AccountKey(t, svc, "TestSnapshotAnalytics.starter", "starter", 0)
	const basket = `{"province":"ON","items":[{"upc":"` + upcMilk + `","quantity":2}]}`
	for _, tc := range []struct {
		method, path, body string
		bad, badBody, has  string // a bad request and the parameter its problem names
	}{
		{"GET", "/b2b/geographic_prices?upc=" + upcMilk, "", "/b2b/geographic_prices?upc=123", "", "upc"},
		{"GET", "/b2b/regional_comparison?category=Dairy%20%26%20Eggs", "", "/b2b/regional_comparison?upc=" + upcMilk + "&category=Dairy", "", "upc or category"},
		{"GET", "/b2b/competitive_benchmark?banner=no-frills&province=ON", "", "/b2b/competitive_benchmark?banner=nope&province=ON", "", "banner"},
		{"GET", "/b2b/brand_insights?brand=Natrel", "", "/b2b/brand_insights?brand=Natrel&province=Atlantis", "", "province"},
		{"POST", "/b2b/basket", basket, "/b2b/basket", `{"province":"ON","items":[{"name":"milk","quantity":1},{"name":"milk","quantity":100}]}`, "items[1].quantity"},
	} {
		t.Run(strings.TrimPrefix(strings.SplitN(tc.path, "?", 2)[0], "/b2b/"), func(t *testing.T) {
			r := send(t, key, tc.method, tc.path, "application/json", tc.body)
			if r.status != http.StatusOK {
				t.Fatalf("integration: got %d, want 200\n%s", r.status, r.body)
			}
			var v struct {
				Basis struct {
					Comparison string `json:"comparison"`
				} `json:"basis"`
			}
			if err := json.Unmarshal(r.body, &v); err != nil || v.Basis.Comparison == "" {
				t.Errorf("no basis in %s (%v)", r.body, err)
			}
			if r := send(t, starter, tc.method, tc.path, "application/json", tc.body); r.status != http.StatusForbidden || r.problem.Code != "plan_required" {
				t.Errorf("starter: got %d %q, want 403 plan_required", r.status, r.problem.Code)
			}
			r = send(t, key, tc.method, tc.bad, "application/json", tc.badBody)
			if r.status != http.StatusBadRequest || r.problem.Code != "invalid_argument" || !strings.Contains(r.problem.Detail, tc.has) {
				t.Errorf("bad: got %d %q %q, want 400 naming %s", r.status, r.problem.Code, r.problem.Detail, tc.has)
			}
		})
	}
}

// TestBrandInsightsPeriod: brand_insights passes period through (its
// promotion figures' window) and names a bad one in a 400.
func TestBrandInsightsPeriod(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	r := send(t, key, "GET", "/b2b/brand_insights?brand=Natrel&period=90d", "application/json", "")
	var v struct {
		Period string `json:"period"`
		From   string `json:"from"`
		To     string `json:"to"`
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &v) != nil || v.Period != "90d" || v.From != "2026-08-22" || v.To != "2026-11-19" {
		t.Errorf("90d: got %d %s", r.status, r.body)
	}
	r = send(t, key, "GET", "/b2b/brand_insights?brand=Natrel&period=2d", "application/json", "")
	if r.status != http.StatusBadRequest || r.problem.Code != "invalid_argument" || !strings.Contains(r.problem.Detail, "period") {
		t.Errorf("2d: got %d %q %q, want 400 naming period", r.status, r.problem.Code, r.problem.Detail)
	}
}

// TestBasketQuantityDefault: a basket item without a quantity counts
// once: the answer is that of quantity 1, not a 400.
func TestBasketQuantityDefault(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	post := func(items string) *reply {
		req := servetest.Request(t, http.MethodPost, srv.URL+"/b2b/basket", `{"province":"ON","items":[`+items+`]}`)
		req.Header.Set("Content-Type", "application/json")
		return do(t, key, req)
	}
	without := post(`{"upc":"` + upcMilk + `"},{"name":"cheddar"}`)
	with := post(`{"upc":"` + upcMilk + `","quantity":1},{"name":"cheddar","quantity":1}`)
	if without.status != http.StatusOK || string(without.body) != string(with.body) {
		t.Errorf("without quantity: got %d\n%s\nwant quantity 1's 200\n%s", without.status, without.body, with.body)
	}
}
