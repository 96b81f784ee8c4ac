package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/redistest"
)

var webhookIDForm = regexp.MustCompile(`whk_[0-9a-f]{16}`)

// TestWebhooksCommands runs the webhooks commands on a data file and on
// the same file held by a server (through its admin socket).
func TestWebhooksCommands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		socket bool
	}{{"File", false}, {"Socket", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := env{}
			db := keyDB(t)
			dir := t.TempDir()
			ok(t, cli(t, e, "import", "--db", db, writeFile(t, dir, "stores.csv", cliAlertStores), writeFile(t, dir, "day1.csv", cliAlertDay1)))
			createKey(t, e, db, "--account", "acme", "--plan", "integration")
			createKey(t, e, db, "--account", "beta", "--plan", "integration")
			if tc.socket {
				serveAdmin(t, db)
			}

			r := cli(t, e, "webhooks", "create", "--db", db, "--account", "acme", "--url", "http://127.0.0.1:9/hooks")
			if r.code == 0 || !strings.Contains(r.stderr, "127.0.0.1 is a loopback address") {
				t.Errorf("create on loopback: got exit %d, stderr %q, want a refusal naming the loopback address", r.code, r.stderr)
			}
			r = cli(t, e, "webhooks", "create", "--db", db, "--account", "acme", "--url", "https://203.0.113.9/hooks", "--description", "relay")
			ok(t, r)
			id := webhookIDForm.FindString(r.stdout)
			if id == "" || !regexp.MustCompile(`\nwhsec_[A-Za-z0-9_-]{43}\n`).MatchString(r.stdout) {
				t.Fatalf("create: got %q, want the endpoint's id and its secret on a line of its own", r.stdout)
			}
			r = cli(t, e, "webhooks", "list", "--db", db, "--account", "acme")
			ok(t, r)
			if !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "enabled") || strings.Contains(r.stdout, "whsec_") {
				t.Errorf("list: got %q, want %s enabled, no secret", r.stdout, id)
			}
			if r = cli(t, e, "webhooks", "list", "--db", db, "--account", "acme", "--ids"); r.stdout != id+"\n" {
				t.Errorf("list --ids: got %q, want %q", r.stdout, id+"\n")
			}
			r = cli(t, e, "webhooks", "test", "--db", db, "--account", "acme", id)
			ok(t, r)
			if !strings.Contains(r.stdout, "Queued ping evt_ping_") || strings.Contains(r.stdout, "No server holds the data file") == tc.socket {
				t.Errorf("test: got %q, want the ping queued (and, without a server, that it waits for one)", r.stdout)
			}
			r = cli(t, e, "webhooks", "deliveries", "--db", db, "--account", "acme", id)
			ok(t, r)
			if !regexp.MustCompile(`whd_0000000000000001 +evt_ping_[0-9a-f]{16} +ping +pending +0 +- +- +- +20`).MatchString(r.stdout) {
				t.Errorf("deliveries: got %q, want the ping pending, not tried yet", r.stdout)
			}
			for _, sub := range []string{"deliveries", "test", "delete"} {
				if r = cli(t, e, "webhooks", sub, "--db", db, "--account", "beta", id); r.code == 0 || !strings.Contains(r.stderr, "no webhook endpoint "+id) {
					t.Errorf("%s by beta: got exit %d, stderr %q, want not found", sub, r.code, r.stderr)
				}
			}
			if r = cli(t, e, "webhooks", "delete", "--db", db, "--account", "acme", id); r.code != 0 || r.stderr != "Deleted webhook endpoint "+id+" of account acme.\n" {
				t.Errorf("delete: got exit %d, stderr %q, want it deleted", r.code, r.stderr)
			}
			if r = cli(t, e, "webhooks", "list", "--db", db, "--account", "acme"); !strings.Contains(r.stdout, "Account acme has no webhook endpoints") {
				t.Errorf("list after delete: got %q, want none", r.stdout)
			}
			if !tc.socket {
				ok(t, cli(t, e, "webhooks", "create", "--db", db, "--account", "acme", "--url", "http://127.0.0.1:9/hooks", "--webhook-allow-loopback"))
			}
		})
	}
}

// TestWebhooksRedisWithoutDataFile: on a host with no data file (a
// replica's), the webhooks commands with --redis create, list, ping,
// show the deliveries of and delete an endpoint in Redis alone, and
// leave no data file behind.
func TestWebhooksRedisWithoutDataFile(t *testing.T) {
	t.Parallel() // a Redis of its own
	url := redistest.Start(t).URL()
	db := filepath.Join(t.TempDir(), "none.db")
	run := func(args ...string) result { return cli(t, nil, append(args, "--redis", url, "--db", db)...) }
	if r := run("keys", "create", "--account", "acme", "--plan", "integration"); r.code != 0 {
		t.Fatalf("keys create: got exit %d, stderr %q, want 0", r.code, r.stderr)
	}
	r := run("webhooks", "create", "--account", "acme", "--url", "https://203.0.113.9/hooks")
	ok(t, r)
	id := webhookIDForm.FindString(r.stdout)
	if id == "" {
		t.Fatalf("create: got %q, want the endpoint's id", r.stdout)
	}
	if r = run("webhooks", "list", "--account", "acme", "--ids"); r.stdout != id+"\n" {
		t.Errorf("list --ids: got %q, %q, want %q", r.stdout, r.stderr, id+"\n")
	}
	r = run("webhooks", "test", "--account", "acme", id)
	ok(t, r)
	if !strings.Contains(r.stdout, "Queued ping evt_ping_") {
		t.Errorf("test: got %q, want the ping queued", r.stdout)
	}
	r = run("webhooks", "deliveries", "--account", "acme", id)
	ok(t, r)
	if !regexp.MustCompile(`whd_0000000000000001 +evt_ping_[0-9a-f]{16} +ping +pending`).MatchString(r.stdout) {
		t.Errorf("deliveries: got %q, want the ping pending", r.stdout)
	}
	if r = run("webhooks", "delete", "--account", "acme", id); r.code != 0 || !strings.Contains(r.stderr, "Deleted webhook endpoint "+id) {
		t.Errorf("delete: got exit %d, stderr %q, want it deleted", r.code, r.stderr)
	}
	if r = run("webhooks", "list", "--account", "acme"); !strings.Contains(r.stdout, "Account acme has no webhook endpoints") {
		t.Errorf("list after delete: got %q, %q, want none", r.stdout, r.stderr)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("%s after the commands: %v, want no file", db, err)
	}
}
