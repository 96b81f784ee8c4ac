package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// snapshotAt writes db's file to path with Backup after setting its
// as-of day to day.
func snapshotAt(tb testing.TB, db *storage.DB, day int32, path string) {
	tb.Helper()
	update(tb, db, func(tx *storage.Tx) error { return tx.SetAsOf(day) })
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, _, err := db.Backup(f); err != nil {
		tb.Fatal(err)
	}
}

func asOf(tb testing.TB, db *storage.DB) int32 {
	tb.Helper()
	var d int32
	if err := db.View(func(tx *storage.Tx) error { d = tx.AsOf(); return nil }); err != nil {
		tb.Fatal(err)
	}
	return d
}

// openFiles counts this process's open descriptors on path (Linux).
func openFiles(tb testing.TB, path string) int {
	tb.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		tb.Skip("no /proc/self/fd:", err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			n++
		}
	}
	return n
}

func TestReopen(t *testing.T) {
	src := MustOpen(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	snapshotAt(t, src, 100, a)
	snapshotAt(t, src, 200, b)

	db, err := storage.Open(a, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// A reader that started on a holds it across the swap.
	started, swapped, done := make(chan struct{}), make(chan struct{}), make(chan [2]int32)
	go func() {
		var seen [2]int32
		db.View(func(tx *storage.Tx) error {
			seen[0] = tx.AsOf()
			close(started)
			<-swapped
			seen[1] = tx.AsOf()
			return nil
		})
		done <- seen
	}()
	<-started
	if err := db.Reopen(b); err != nil {
		t.Fatal(err)
	}
	if got := asOf(t, db); got != 200 {
		t.Errorf("a transaction after Reopen: as-of %d, want 200", got)
	}
	if got, want := db.Path(), b; got != want {
		t.Errorf("Path: got %s, want %s", got, want)
	}
	if got := openFiles(t, a); got != 1 {
		t.Errorf("while its reader runs: %d descriptors on the old file, want 1", got)
	}
	close(swapped)
	if seen := <-done; seen != [2]int32{100, 100} {
		t.Errorf("the reader across the swap saw as-of %v, want [100 100]", seen)
	}
	if got := openFiles(t, a); got != 0 {
		t.Errorf("after its last reader: %d descriptors on the old file, want 0", got)
	}

	t.Run("ErrNotDataFile", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.db")
		if err := os.WriteFile(bad, []byte("not a bbolt file, not at all, no"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := db.Reopen(bad); !errors.Is(err, storage.ErrNotDataFile) {
			t.Errorf("Reopen of a foreign file: got %v, want ErrNotDataFile", err)
		}
		if got := asOf(t, db); got != 200 {
			t.Errorf("after a refused Reopen: as-of %d, want 200", got)
		}
	})

	t.Run("Closed", func(t *testing.T) {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if got := openFiles(t, b); got != 0 {
			t.Errorf("after Close: %d descriptors on the file, want 0", got)
		}
		if err := db.View(func(*storage.Tx) error { return nil }); err == nil {
			t.Error("View after Close: got nil error")
		}
	})
}

// TestPin: a pinned reader keeps reading its file across a Reopen, in
// every transaction, and the file closes at its Release.
func TestPin(t *testing.T) {
	src := MustOpen(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	snapshotAt(t, src, 100, a)
	snapshotAt(t, src, 200, b)
	db, err := storage.Open(a, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pin, err := db.Pin()
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Reopen(b); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		var d int32
		if err := pin.View(func(tx *storage.Tx) error { d = tx.AsOf(); return nil }); err != nil {
			t.Fatal(err)
		}
		if d != 100 {
			t.Errorf("pinned transaction %d after Reopen: as-of %d, want 100", i, d)
		}
	}
	if got := asOf(t, db); got != 200 {
		t.Errorf("unpinned after Reopen: as-of %d, want 200", got)
	}
	pin.Release()
	pin.Release()
	if got := openFiles(t, a); got != 0 {
		t.Errorf("after Release: %d descriptors on the old file, want 0", got)
	}
	if err := pin.View(func(*storage.Tx) error { return nil }); err == nil {
		t.Error("View after Release: got nil error")
	}
}
