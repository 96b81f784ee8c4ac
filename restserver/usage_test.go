package restserver_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestUsage: GET /usage agrees with the quota headers of the account's
// latest metered call, REST's and MCP's alike, costs no call itself, and
// counts today's calls, the refused ones included.
func TestUsage(t *testing.T) {
	t.Parallel()
	key := servetest.AccountKey(t, svc, "TestUsage", "integration", 5)
	get(t, key, "/price?banner=loblaws&store=lob-a&sku=L1")
	get(t, key, "/price?banner=loblaws&store=lob-a") // a 400, counted
	mcpResult(t, key, "lookup_product", `{"upc":"`+upcMilk+`","province":"ON"}`)
	metered := get(t, key, "/stores?province=ON")
	if metered.status != http.StatusOK {
		t.Fatalf("metered call: got %d\n%s", metered.status, metered.body)
	}
	for i := range 2 { // the second sees the first cost nothing
		r := get(t, key, "/usage")
		u := decode[grocery.AccountUsage](t, r)
		for _, h := range []string{"X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset"} {
			if got, want := r.header.Get(h), metered.header.Get(h); got != want {
				t.Errorf("/usage %d: %s %q, the metered call's %q", i, h, got, want)
			}
		}
		if got := strconv.FormatInt(u.Limit, 10); got != metered.header.Get("X-Quota-Limit") {
			t.Errorf("/usage %d: limit %s, X-Quota-Limit %s", i, got, metered.header.Get("X-Quota-Limit"))
		}
		if got := strconv.FormatInt(u.Remaining, 10); got != metered.header.Get("X-Quota-Remaining") {
			t.Errorf("/usage %d: remaining %s, X-Quota-Remaining %s", i, got, metered.header.Get("X-Quota-Remaining"))
		}
		if got := u.Reset.UTC().Format("2006-01-02T15:04:05Z07:00"); got != metered.header.Get("X-Quota-Reset") {
			t.Errorf("/usage %d: reset %s, X-Quota-Reset %s", i, got, metered.header.Get("X-Quota-Reset"))
		}
		if u.Account != "TestUsage" || u.Plan != "integration" || u.Used != 4 {
			t.Errorf("/usage %d: got account %q plan %q used %d, want TestUsage, integration, 4", i, u.Account, u.Plan, u.Used)
		}
		today := u.Days[len(u.Days)-1]
		if len(u.Days) != grocery.UsageDays || today.Date.String() != "2026-11-20" || today.Calls != 4 || u.Days[0].Calls != 0 {
			t.Errorf("/usage %d: got %d days ending %+v, want %d ending 2026-11-20 with 4 calls", i, len(u.Days), today, grocery.UsageDays)
		}
		if cc := r.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("/usage %d: Cache-Control %q, want no-store", i, cc)
		}
	}
}
