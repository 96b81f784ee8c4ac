package main

import (
	"io"
	"net"
	"os"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
)

// copyDemo copies the demo data file to a new file with a short path (a
// Unix socket beside it must fit in about 100 bytes) and returns its path.
func copyDemo(t *testing.T) string {
	t.Helper()
	db := keyDB(t)
	src, err := os.Open(demoDB)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return db
}

// serveAdmin holds db for writing and serves it on its admin socket, as
// 'grocery serve' does, until the test ends.
func serveAdmin(t *testing.T, db string) {
	t.Helper()
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	srv, err := admin.Listen(svc, admin.SocketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
}

// TestQueriesThroughServer: while a server holds the data file, the
// lookup commands ask it through its admin socket and print, byte for
// byte, what they print from the file: tables, JSON and errors with their
// exit statuses.
func TestQueriesThroughServer(t *testing.T) {
	s := demoSummary.Samples
	db := copyDemo(t)
	lines := []struct {
		name string
		args []string
		ok   bool // whether the command succeeds
	}{
		{"Lookup", []string{"lookup", s.CarriedUPC, "--province", s.Province}, true},
		{"LookupJSON", []string{"lookup", s.CarriedUPC, "--province", s.Province, "--limit", "2", "--json"}, true},
		{"LookupNotCarried", []string{"lookup", s.NotCarriedUPC, "--province", s.Province}, true},
		{"Search", []string{"search", s.Query, "--province", s.Province}, true},
		{"SearchJSON", []string{"search", s.Query, "--province", s.Province, "--limit", "20", "--json"}, true},
		{"History", []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--period", "90d"}, true},
		{"HistoryJSON", []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--json"}, true},
		{"Stores", []string{"stores", "--province", s.Province}, true},
		{"StoresJSON", []string{"stores", "--limit", "50", "--json"}, true},
		{"ReportSignals", []string{"report", "signals", "--province", s.Province, "--banner", s.Banner}, true},
		{"ReportSignalsJSON", []string{"report", "signals", "--province", s.Province, "--banner", s.Banner, "--kind", "threats", "--limit", "3", "--json"}, true},
		{"ReportCategory", []string{"report", "category", "--province", s.Province}, true},
		{"ReportCategoryJSON", []string{"report", "category", "--province", s.Province, "--banner", "metro", "--period", "90d", "--json"}, true},
		{"ReportPromos", []string{"report", "promos", "--province", s.Province, "--category", "Dairy & Eggs", "--limit", "5"}, true},
		{"ReportPromosJSON", []string{"report", "promos", "--province", s.Province, "--json"}, true},
		{"ReportNew", []string{"report", "new", "--province", s.Province, "--days", "30"}, true},
		{"ReportNewJSON", []string{"report", "new", "--province", s.Province, "--json"}, true},
		{"ErrReportPeriod", []string{"report", "category", "--province", s.Province, "--period", "2y"}, false},
		{"ErrReportPromosRange", []string{"report", "promos", "--province", s.Province, "--from", "2026-11-10", "--to", "2026-11-01"}, false},
		{"ErrLookupUnknown", []string{"lookup", s.UnknownUPC, "--province", s.Province}, false},
		{"ErrLookupUnknownJSON", []string{"lookup", s.UnknownUPC, "--province", s.Province, "--json"}, false},
		{"ErrLookupProvince", []string{"lookup", s.CarriedUPC, "--province", "ZZ"}, false},
		{"ErrSearchProvince", []string{"search", "milk", "--province", "Atlantis"}, false},
		{"ErrHistoryUnknown", []string{"history", "NOPE_EA", "--banner", s.Banner, "--province", s.Province}, false},
		{"ErrHistoryPeriod", []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--period", "2y"}, false},
		{"ErrStoresBanner", []string{"stores", "--banner", "nope"}, false},
		{"ErrReportSignalsKind", []string{"report", "signals", "--province", s.Province, "--kind", "rumours"}, false},
	}
	// What each line prints from the file, no server running.
	fromFile := make([]result, len(lines))
	for i, l := range lines {
		fromFile[i] = cli(t, nil, append(l.args, "--db", db)...)
		if (fromFile[i].code == 0) != l.ok {
			t.Fatalf("%s from the file: got exit %d, stderr %q; want success %v", l.name, fromFile[i].code, fromFile[i].stderr, l.ok)
		}
	}

	serveAdmin(t, db)
	for i, l := range lines {
		t.Run(l.name, func(t *testing.T) {
			got, want := cli(t, nil, append(l.args, "--db", db)...), fromFile[i]
			if got.code != want.code || got.stderr != want.stderr {
				t.Errorf("through the server: got exit %d, stderr %q\nwant exit %d, stderr %q", got.code, got.stderr, want.code, want.stderr)
			}
			if got.stdout != want.stdout {
				t.Errorf("through the server, stdout differs from byte %d:\n got %q\nwant %q", firstDiff(got.stdout, want.stdout), got.stdout, want.stdout)
			}
		})
	}
}

// firstDiff returns the index of the first byte where a and b differ.
func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// TestQueriesFileHeld: a process holds the data file and a stale socket
// (one nothing listens on) lies beside it: a lookup falls back to the file
// and says in one line, after the lock timeout, that the file is in use.
func TestQueriesFileHeld(t *testing.T) {
	t.Parallel()
	db := copyDemo(t)
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ln, err := net.Listen("unix", admin.SocketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	s := demoSummary.Samples
	r := cli(t, nil, "lookup", s.CarriedUPC, "--province", s.Province, "--db", db)
	fails(t, r, exitUnavailable, "grocery: data file "+db+" is in use by another process (a running server?): stop it, or open another file (a copy, or a demo data file of your own); a program can also ask the running server over REST or MCP")
}
