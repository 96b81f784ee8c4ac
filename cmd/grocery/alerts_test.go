package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

const (
	cliAlertStores = "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nf-1,no-frills,ON,No Frills 1,Hamilton,L8P 4R5,43.25,-79.87\n"
	// No Frills N1 (milk, 068000000154) at 4.50 on 2026-11-18, then 3.99
	// on 2026-11-19: at or below 4.00 after above it.
	cliAlertDay1 = "date,store_id,banner,external_sku,price,upc,name\n" +
		"2026-11-18,nf-1,no-frills,N1,4.50,068000000154,2% Milk\n"
	cliAlertDay2 = "date,store_id,banner,external_sku,price\n" +
		"2026-11-19,nf-1,no-frills,N1,3.99\n"
)

// TestAlertsCommands runs the alerts commands on a data file, on the
// same file held by a server (through its admin socket: the file is
// locked, so a command that opened it would fail), and with keys, rules
// and events in Redis (GROCERY_REDIS_URL).
func TestAlertsCommands(t *testing.T) {
	t.Parallel() // each case has its own data file and Redis
	for _, tc := range []struct {
		name          string
		socket, redis bool
	}{{"File", false, false}, {"Socket", true, false}, {"Redis", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := env{}
			if tc.redis {
				e["GROCERY_REDIS_URL"] = redistest.Start(t).URL()
			}
			db := keyDB(t)
			dir := t.TempDir()
			stores := writeFile(t, dir, "stores.csv", cliAlertStores)
			day1 := writeFile(t, dir, "day1.csv", cliAlertDay1)
			day2 := writeFile(t, dir, "day2.csv", cliAlertDay2)
			ok(t, cli(t, e, "import", "--db", db, stores, day1))
			createKey(t, e, db, "--account", "acme", "--plan", "integration")
			createKey(t, e, db, "--account", "beta", "--plan", "integration")
			if tc.socket {
				serveAdmin(t, db)
			}

			r := cli(t, e, "alerts", "create", "--db", db, "--account", "acme", "--name", "milk under 4",
				"--upc", "068000000154", "--province", "ontario", "--condition", "price_below", "--threshold", "4", "--json")
			ok(t, r)
			var rule grocery.AlertRule
			if err := json.Unmarshal([]byte(r.stdout), &rule); err != nil || !alertIDForm.MatchString(rule.ID) || rule.Province != "ON" || *rule.Threshold != 4 {
				t.Fatalf("create: got %q (%v), want a rule alr_<16 hex digits> in ON at 4", r.stdout, err)
			}
			id := rule.ID
			r = cli(t, e, "alerts", "list", "--db", db, "--account", "acme")
			ok(t, r)
			if want := id + "  milk under 4  upc 068000000154  ON        price_below $4.00  yes\n"; !strings.HasSuffix(r.stdout, want) {
				t.Errorf("list: got %q, want a line %q", r.stdout, want)
			}

			r = cli(t, e, "alerts", "list", "--db", db, "--account", "acme", "--ids")
			ok(t, r)
			if r.stdout != id+"\n" {
				t.Errorf("list --ids: got %q, want %q", r.stdout, id+"\n")
			}

			// beta sees none of acme's rules and cannot delete them.
			r = cli(t, e, "alerts", "list", "--db", db, "--account", "beta")
			ok(t, r)
			if !strings.HasPrefix(r.stdout, "Account beta has no alert rules") {
				t.Errorf("beta list: got %q, want no rules", r.stdout)
			}
			r = cli(t, e, "alerts", "delete", "--db", db, "--account", "beta", id)
			if r.code != exitFailed || r.stderr != "grocery: no alert rule "+id+"\n" {
				t.Errorf("beta delete: got exit %d, stderr %q; want 1 and no alert rule %s", r.code, r.stderr, id)
			}

			// The import fires the rule once; importing again records nothing.
			for range 2 {
				ok(t, cli(t, e, "import", "--db", db, day2))
			}
			r = cli(t, e, "alerts", "events", "--db", db, "--account", "acme", "--json")
			ok(t, r)
			var events grocery.AlertEventList
			if err := json.Unmarshal([]byte(r.stdout), &events); err != nil {
				t.Fatal(err)
			}
			if events.Total != 1 || events.Results[0].Price != 399 || *events.Results[0].PreviousPrice != 450 || events.Results[0].RuleID != id {
				t.Fatalf("events: got %s, want one event of %s at 3.99 after 4.50", r.stdout, id)
			}
			r = cli(t, e, "alerts", "events", "--db", db, "--account", "beta")
			ok(t, r)
			if !strings.HasPrefix(r.stdout, "No alert events match") {
				t.Errorf("beta events: got %q, want none", r.stdout)
			}
			r = cli(t, e, "alerts", "evaluate", "--db", db)
			ok(t, r)
			if want := "Evaluated 1 rule on 1 series, days 2026-11-06 to 2026-11-19: 0 new events recorded.\n"; r.stdout != want {
				t.Errorf("evaluate: got %q, want %q", r.stdout, want)
			}

			// Paused, the rule is evaluated on demand but records nothing
			// more; the import's event of the day is its event.
			r = cli(t, e, "alerts", "update", "--db", db, "--account", "acme", id, "--active=false")
			ok(t, r)
			if !strings.HasSuffix(r.stdout, "price_below $4.00  paused\n") {
				t.Errorf("update --active=false: got %q, want the rule paused", r.stdout)
			}
			r = cli(t, e, "alerts", "evaluate", "--db", db, "--account", "acme", id, "--json")
			ok(t, r)
			var evaluated grocery.AlertRule
			if err := json.Unmarshal([]byte(r.stdout), &evaluated); err != nil {
				t.Fatal(err)
			}
			if st := evaluated.Standing; evaluated.ID != id || evaluated.Active || st == nil || !st.Holds || st.Recorded || st.Event == nil || st.Event.Reason != "import" {
				t.Errorf("evaluate ID of the paused rule: got %s, want it to hold, nothing recorded, the import's event", r.stdout)
			}
			r = cli(t, e, "alerts", "update", "--db", db, "--account", "acme", id, "--active=true", "--threshold", "3.5", "--name", "milk under 3.50")
			ok(t, r)
			if !strings.HasSuffix(r.stdout, id+"  milk under 3.50  upc 068000000154  ON        price_below $3.50  yes\n") {
				t.Errorf("update: got %q, want the rule renamed, at 3.50, active", r.stdout)
			}
			r = cli(t, e, "alerts", "evaluate", "--db", db, "--account", "acme", id)
			ok(t, r)
			if !strings.Contains(r.stdout, "Its condition does not hold now: nothing recorded") {
				t.Errorf("evaluate ID at 3.50: got %q, want it not to hold", r.stdout)
			}
			r = cli(t, e, "alerts", "update", "--db", db, "--account", "acme", id, "--threshold", "0")
			if r.code != exitInvalid || !strings.Contains(r.stderr, "threshold 0 for price_below: want a price in dollars above 0") {
				t.Errorf("update --threshold 0: got exit %d, stderr %q; want 3", r.code, r.stderr)
			}
			r = cli(t, e, "alerts", "evaluate", "--db", db, id)
			if r.code != exitInvalid || !strings.Contains(r.stderr, "--account is required with a rule id") {
				t.Errorf("evaluate ID without --account: got exit %d, stderr %q; want 3", r.code, r.stderr)
			}

			r = cli(t, e, "alerts", "create", "--db", db, "--account", "acme", "--name", "x", "--upc", "068000000154",
				"--province", "ON", "--condition", "promo_start", "--threshold", "3")
			if r.code != exitInvalid || !strings.Contains(r.stderr, "threshold is not taken by promo_start") {
				t.Errorf("create with a threshold for promo_start: got exit %d, stderr %q; want 3", r.code, r.stderr)
			}
			r = cli(t, e, "alerts", "list", "--db", db, "--account", "ghost")
			if r.code != exitFailed || !strings.Contains(r.stderr, `account "ghost" does not exist`) {
				t.Errorf("unknown account: got exit %d, stderr %q", r.code, r.stderr)
			}
			r = cli(t, e, "alerts", "delete", "--db", db, "--account", "acme", id)
			if r.code != 0 || r.stderr != "Deleted alert rule "+id+" of account acme.\n" {
				t.Errorf("delete: got exit %d, stderr %q", r.code, r.stderr)
			}
			r = cli(t, e, "alerts", "list", "--db", db, "--account", "acme", "--json")
			ok(t, r)
			if !strings.Contains(r.stdout, `"total": 0`) {
				t.Errorf("after delete: got %q, want no rules", r.stdout)
			}
		})
	}
}

// alertIDForm is the form of a rule's id.
var alertIDForm = regexp.MustCompile(`^alr_[0-9a-f]{16}$`)
