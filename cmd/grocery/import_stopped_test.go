package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

// TestImportServerStopped: the server commits an import but its answer
// never reaches the CLI (it died in the publish window): the CLI does not
// say that nothing was imported; it says that whether the file was
// imported is not known and that running the import again is safe, which
// then reports the rows as unchanged.
func TestImportServerStopped(t *testing.T) {
	db := copyDemo(t)
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(filepath.Dir(db), "real.sock")
	srv, err := admin.Listen(svc, real)
	if err != nil {
		t.Fatal(err)
	}
	// In front of the server, on the socket the CLI dials: every request
	// reaches the server, every answer is cut before its first byte.
	ln, err := net.Listen("unix", admin.SocketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(admin.SocketPath(db), 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("unix", real)
				if err != nil {
					return
				}
				defer s.Close()
				go io.Copy(s, c)
				var b [1]byte
				s.Read(b[:]) // the server has answered: it is done
			}()
		}
	}()
	file := filepath.Join(t.TempDir(), "prices.csv")
	rows := "date,store_id,banner,external_sku,price\n2026-11-19,costco-on-5524,costco,STOPPED-1,1.23\n"
	if err := os.WriteFile(file, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	r := cli(t, nil, "import", "--db", db, file)
	if r.code == 0 || strings.Contains(r.stderr, "nothing of") ||
		!strings.Contains(r.stderr, "stopped before answering") ||
		!strings.Contains(r.stderr, "whether "+file+" was imported is not known") ||
		!strings.Contains(r.stderr, "running the same import again is safe") {
		t.Fatalf("import cut off after the commit: exit %d, stderr %q; want a failure saying the server stopped and a re-run is safe", r.code, r.stderr)
	}
	ln.Close()
	srv.Close()
	svc.Close()
	r = cli(t, nil, "import", "--db", db, file)
	if r.code != 0 || !strings.Contains(r.stdout, "0 new, 0 updated, 1 unchanged") {
		t.Fatalf("the import again: exit %d, stdout %q, stderr %q; want it unchanged", r.code, r.stdout, r.stderr)
	}
}

// TestImportNotPublished: an import whose snapshot cannot be published
// exits 5 (done, with a warning) and says exactly what happened: the file
// is imported, its snapshot is not published, and why; never that
// nothing was imported.
func TestImportNotPublished(t *testing.T) {
	t.Parallel() // its own files and Redis
	e := env{"GROCERY_REDIS_URL": redistest.Start(t).URL()}
	db := keyDB(t)
	dir := t.TempDir()
	blocker := writeFile(t, dir, "a-file", "")
	stores := writeFile(t, dir, "stores.csv", cliAlertStores)
	r := cli(t, e, "import", "--db", db, "--snapshots", filepath.Join(blocker, "snaps"), stores)
	if r.code != exitWarning || strings.Contains(r.stderr, "nothing of") ||
		!strings.Contains(r.stderr, stores+" imported, but its snapshot was not published") ||
		!strings.Contains(r.stdout, stores+": stores csv") {
		t.Fatalf("import with an unwritable snapshot directory: exit %d, stdout %q, stderr %q; want 5, the counts, and the snapshot named as not published", r.code, r.stdout, r.stderr)
	}
}
