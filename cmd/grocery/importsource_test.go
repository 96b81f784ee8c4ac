package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestImportSourceCLI imports the Project Hammer fixtures with one command,
// the two CSV files or the SQLite file, and reads them back with the
// query commands.
func TestImportSourceCLI(t *testing.T) {
	fixture := func(n string) string { return filepath.Join("..", "..", "publicdata", "testdata", n) }
	t.Run("CSV", func(t *testing.T) {
		testImportSourceCLI(t, "hammer-4-raw.csv:10", fixture("hammer-4-product.csv"), fixture("hammer-4-raw.csv"))
	})
	t.Run("SQLite", func(t *testing.T) { testImportSourceCLI(t, "hammer.sqlite raw rowid 9", fixture("hammer.sqlite")) })
}

// testImportSourceCLI imports files, whose sentinel date's row is at
// sentinelAt.
func testImportSourceCLI(t *testing.T, sentinelAt string, files ...string) {
	db := filepath.Join(t.TempDir(), "hammer.db")
	r := cli(t, nil, append([]string{"import", "--db", db, "--source", "hammer"}, files...)...)
	ok(t, r)
	for _, want := range []string{
		"hammer: 18 rows read, 12 kept (6 stores, 6 products, 3 of them by vendor SKU only",
		"not mapped: sentinel date -4713-11-24 (no date recorded): 1 (e.g. ",
		sentinelAt + `: "-4713-11-24 00:00:00")`,
		"not mapped: out of stock: not a price observation: 1",
		"not mapped: current_price is not a number (shifted columns): 1",
		"gap: no data from 2025-07-31 to 2025-08-19 (20 days)",
		"hammer observations: 12 rows: 12 new, 0 updated, 0 unchanged, 0 skipped",
		"Data: Project Hammer, Jacob Filipp",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	r = cli(t, nil, "history", "L3003", "--banner", "loblaws", "--province", "ON", "--period", "90d", "--db", db)
	ok(t, r)
	if !strings.Contains(r.stdout, "3.49") || !strings.Contains(r.stdout, "2.99") {
		t.Errorf("history of the vendor-SKU-only bread: got\n%s\nwant 3.49 and 2.99", r.stdout)
	}
	r = cli(t, nil, "lookup", "066800000152", "--province", "ON", "--db", db)
	ok(t, r)
	if !strings.Contains(r.stdout, "voila") && !strings.Contains(r.stdout, "Voilà") {
		t.Errorf("lookup: got\n%s\nwant the Voilà offer", r.stdout)
	}
}

func TestImportSourceCLIUnknown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	r := cli(t, nil, "import", "--db", db, "--source", "nielsen", filepath.Join("..", "..", "publicdata", "testdata", "hammer-4-raw.csv"))
	if r.code == 0 || !strings.Contains(r.stderr, "hammer, openprices, statcan") {
		t.Errorf("got exit %d, stderr %q; want an error listing the sources", r.code, r.stderr)
	}
}

// TestImportSourceThroughServer: while a server holds the data file, the
// source's stores and observations go through its admin socket.
func TestImportSourceThroughServer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "held.db")
	serveAdmin(t, db)
	fixture := func(n string) string { return filepath.Join("..", "..", "publicdata", "testdata", n) }
	r := cli(t, nil, "import", "--db", db, "--source", "hammer", fixture("hammer-4-product.csv"), fixture("hammer-4-raw.csv"))
	ok(t, r)
	if !strings.Contains(r.stdout, "hammer observations: 12 rows: 12 new") {
		t.Errorf("stdout:\n%s\nwant 12 new observations", r.stdout)
	}
	r = cli(t, nil, "history", "V1001", "--banner", "voila", "--province", "ON", "--period", "90d", "--db", db)
	ok(t, r)
	if !strings.Contains(r.stdout, "6.79") {
		t.Errorf("history through the server: got\n%s\nwant the last price 6.79", r.stdout)
	}
}
