package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/redistest"
)

func TestServeRoleFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ErrSnapshotsWithoutRole", []string{"serve", "--snapshots", "x"}, "--snapshots needs --role"},
		{"ErrUnknownRole", []string{"serve", "--role", "leader", "--snapshots", "x"}, `--role "leader": want ingest or replica`},
		{"ErrIngestWithoutSnapshots", []string{"serve", "--role", "ingest"}, "--role ingest needs --snapshots"},
		{"ErrReplicaWithoutRedis", []string{"serve", "--role", "replica", "--snapshots", "x"}, "--role replica needs --redis"},
		{"ErrIngestWithoutRedis", []string{"serve", "--role", "ingest", "--snapshots", "x"}, "--role ingest needs --redis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, nil, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("%v: got code %d, stderr %q; want 2 and %q", tt.args, r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestImportSnapshots: import --snapshots publishes one snapshot per file.
func TestImportSnapshots(t *testing.T) {
	t.Parallel() // its own files and Redis
	dir := t.TempDir()
	db, snaps, stores := filepath.Join(dir, "g.db"), filepath.Join(dir, "snaps"), filepath.Join(dir, "stores.csv")
	csv := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"ON-ZZZ-001,loblaws,ON,Loblaws Test,Toronto,M5J 2R6,43.6410,-79.3760\n"
	if err := os.WriteFile(stores, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := cli(t, nil, "import", "--db", db, "--snapshots", snaps, stores); r.code != 2 || !strings.Contains(r.stderr, "--snapshots needs --redis") {
		t.Fatalf("import --snapshots without Redis: got code %d, stderr %q; want 2 naming --redis", r.code, r.stderr)
	}
	ok(t, cli(t, nil, "import", "--db", db, "--snapshots", snaps, "--redis", redistest.Start(t).URL(), stores, stores))
	got, _ := filepath.Glob(filepath.Join(snaps, "*"))
	for i := range got {
		got[i] = filepath.Base(got[i])
	}
	if want := "manifest.json snapshot-1.db snapshot-2.db"; strings.Join(got, " ") != want {
		t.Errorf("snapshot directory: got %v, want %s", got, want)
	}
}

// TestServeHelpRoles: serve's help says what each role holds, and that
// both need --redis.
func TestServeHelpRoles(t *testing.T) {
	r := cli(t, nil, "serve", "--help")
	help := strings.Join(strings.Fields(r.stdout), " ")
	for _, want := range []string{
		"Alone (no --role) or with --role ingest, it holds the data file and listens on an admin socket",
		"With --role replica it has no data file and no admin socket",
		"both roles need --redis",
		"evaluates the alert rules after each import",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("serve --help: want %q in\n%s", want, r.stdout)
		}
	}
	if strings.Contains(help, "and needs --redis for keys and quota") {
		t.Errorf("serve --help: --role still says only the replica needs --redis:\n%s", r.stdout)
	}
}

// TestRedisWithoutDataFile: on a host with no data file (a replica's),
// the key, usage and alert-list commands with --redis work on Redis alone
// and leave no data file behind; the alert commands that need the file
// (create checks the catalogue, evaluate reads the prices) say it is missing.
func TestRedisWithoutDataFile(t *testing.T) {
	t.Parallel() // a Redis of its own
	url := redistest.Start(t).URL()
	db := filepath.Join(t.TempDir(), "none.db")
	if r := cli(t, nil, "keys", "create", "--account", "acme", "--plan", "integration", "--redis", url, "--db", db); r.code != 0 {
		t.Fatalf("keys create --redis without a data file: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"keys", "list"},
		{"usage", "--account", "acme"},
		{"alerts", "list", "--account", "acme"},
		{"alerts", "events", "--account", "acme"},
	} {
		if r := cli(t, nil, append(args, "--redis", url, "--db", db)...); r.code != 0 {
			t.Errorf("%v --redis without a data file: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"alerts", "create", "--account", "acme", "--name", "n", "--banner", "loblaws", "--sku", "L1", "--province", "ON", "--condition", "promo_start"},
		{"alerts", "evaluate"},
	} {
		if r := cli(t, nil, append(args, "--redis", url, "--db", db)...); r.code == 0 || !strings.Contains(r.stderr, "no data file at "+db) {
			t.Errorf("%v --redis without a data file: exit %d, stderr %q; want the missing file named", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("%s after the commands: %v, want no file", db, err)
	}
}
