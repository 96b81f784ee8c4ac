package restserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestPeriodAnalytics: every period analytics path answers an integration
// key over HTTP, refuses a starter key with 403 plan_required, and names
// the bad parameter in a 400.
func TestPeriodAnalytics(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	starter := servetest.AccountKey(t, svc, "TestPeriodAnalytics.starter", "starter", 0)
	for _, tc := range []struct {
		path, bad, has string // a bad request and what its problem names
	}{
		{"/b2b/category_report?province=ON", "/b2b/category_report?province=ON&period=2d", "period"},
		{"/b2b/promo_calendar?province=ON&banner=loblaws", "/b2b/promo_calendar?province=ON&from=2026-12-01&to=2026-11-01", "from 2026-12-01 is after to"},
		{"/b2b/new_on_shelf?province=ON&days=30", "/b2b/new_on_shelf?province=ON&days=400", "days"},
		{"/b2b/new_on_shelf?province=ON", "/b2b/new_on_shelf?province=ON&days=0", "days 0 is out of range: want 1 to 365"},
	} {
		t.Run(strings.TrimPrefix(strings.SplitN(tc.path, "?", 2)[0], "/b2b/"), func(t *testing.T) {
			r := send(t, key, "GET", tc.path, "", "")
			if r.status != http.StatusOK {
				t.Fatalf("integration: got %d, want 200\n%s", r.status, r.body)
			}
			var v struct {
				Province string `json:"province"`
				Basis    struct {
					Comparison string `json:"comparison"`
				} `json:"basis"`
			}
			if err := json.Unmarshal(r.body, &v); err != nil || v.Province != "ON" || v.Basis.Comparison == "" {
				t.Errorf("no province or basis in %s (%v)", r.body, err)
			}
			if r := send(t, starter, "GET", tc.path, "", ""); r.status != http.StatusForbidden || r.problem.Code != "plan_required" {
				t.Errorf("starter: got %d %q, want 403 plan_required", r.status, r.problem.Code)
			}
			r = send(t, key, "GET", tc.bad, "", "")
			if r.status != http.StatusBadRequest || r.problem.Code != "invalid_argument" || !strings.Contains(r.problem.Detail, tc.has) {
				t.Errorf("bad: got %d %q %q, want 400 naming %s", r.status, r.problem.Code, r.problem.Detail, tc.has)
			}
		})
	}
}
