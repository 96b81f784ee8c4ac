package restserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestAnalyticsPlan: each of the ten analytics paths answers an
// integration key and refuses a starter key with 403 plan_required (not
// metered: the plan has no REST at all, see restserver/README.md).
func TestAnalyticsPlan(t *testing.T) {
	t.Parallel()
	integration := servetest.Key(t, svc, "integration", 0)
	starter := servetest.AccountKey(t, svc, "TestAnalyticsPlan.starter", "starter", 0)
	basket := `{"province":"ON","items":[{"upc":"068000000154","quantity":1}]}`
	for _, path := range []string{
		"/b2b/signals?province=ON&banner=loblaws",
		"/b2b/category_report?province=ON",
		"/b2b/promo_calendar?province=ON",
		"/b2b/geographic_prices?upc=068000000154",
		"/b2b/brand_insights?brand=Natrel",
		"/b2b/competitive_benchmark?banner=loblaws&province=ON",
		"/b2b/executive_brief?province=ON",
		"POST /b2b/basket",
		"/b2b/new_on_shelf?province=ON",
		"/b2b/regional_comparison",
	} {
		send := func(key string) *reply {
			if p, ok := strings.CutPrefix(path, "POST "); ok {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+p, strings.NewReader(basket))
				req.Header.Set("Content-Type", "application/json")
				return do(t, key, req)
			}
			return get(t, key, path)
		}
		if r := send(integration); r.status != http.StatusOK {
			t.Errorf("%s, integration key: %d %s", path, r.status, r.body)
		}
		wantProblem(t, send(starter), http.StatusForbidden, "plan_required", "integration")
	}
}
