package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// presentPages counts the pages of the file db maps that this process's
// page table holds (/proc/self/pagemap), over the pages in use.
func presentPages(t *testing.T, db *DB) (present, pages int) {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skip("no /proc/self/pagemap:", err)
	}
	defer f.Close()
	b := db.cur.Load().bolt
	var size int64
	if err := b.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil }); err != nil {
		t.Fatal(err)
	}
	step := int64(os.Getpagesize())
	first := int64(b.Info().Data) / step
	pages = int((size + step - 1) / step)
	entries := make([]byte, 8*pages)
	if _, err := f.ReadAt(entries, first*8); err != nil && err != io.EOF {
		t.Skip("pagemap not readable:", err)
	}
	for i := range pages {
		if binary.LittleEndian.Uint64(entries[8*i:])&(1<<63) != 0 {
			present++
		}
	}
	return present, pages
}

// fillFile writes a data file at path holding about 8 MB in pages that
// no Open reads.
func fillFile(t *testing.T, path string) {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucket([]byte("zz-preload-test"))
		if err != nil {
			return err
		}
		v := make([]byte, 8000)
		for i := range 1000 {
			v[0] = byte(i)
			if err := bk.Put(binary.BigEndian.AppendUint32(nil, uint32(i)), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPreload: a file opened with Preload, read-only or writable (whose
// mapping reaches far past the file), has every page in use mapped into
// the process before Open returns, and so does the file Reopen moves to;
// without it, Open maps only the few pages it reads.
func TestPreload(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "c.db")
	for _, p := range []string{a, b, c} {
		fillFile(t, p)
	}

	plain, err := Open(a, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if n, pages := presentPages(t, plain); pages*os.Getpagesize() < 8e6 || n > pages/4 {
		t.Fatalf("without Preload: %d of %d pages mapped, want a file of at least 8 MB, at most a quarter mapped", n, pages)
	}

	db, err := Open(b, Options{ReadOnly: true, Preload: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, pages := presentPages(t, db); n != pages {
		t.Errorf("Preload: %d of %d pages mapped, want all", n, pages)
	}
	if err := db.Reopen(a); err != nil {
		t.Fatal(err)
	}
	if n, pages := presentPages(t, db); n != pages {
		t.Errorf("Preload, after Reopen: %d of %d pages mapped, want all", n, pages)
	}

	w, err := Open(c, Options{Preload: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if n, pages := presentPages(t, w); n != pages {
		t.Errorf("Preload, writable: %d of %d pages mapped, want all", n, pages)
	}
}

// TestPreloadShortFile: a file shorter than the pages its meta page
// claims (a truncated copy) is refused with ErrInconsistent by an Open
// with Preload, which would otherwise touch the pages that are not there
// (a SIGBUS).
func TestPreloadShortFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "short.db")
	fillFile(t, path)
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Emptied and written again, the file's live pages lie at its start
	// and the second half of its pages in use is free pages: cut that half
	// off.
	var size int64
	err = b.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("zz-preload-test")) })
	if err == nil {
		err = b.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("zz-after")); return err })
	}
	if err == nil {
		err = b.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil })
	}
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size/2); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(path, Options{ReadOnly: true, Preload: true}); !errors.Is(err, ErrInconsistent) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("Preload: got %v, want ErrInconsistent", err)
	}
}

// TestWritableMapping: a writable Open of an 8 MB file maps 1 GB of
// address space past the file, so that a write growing the file by less than that does not
// remap it at commit (which copies every dirty node's keys and values to
// the heap): with a fixed 1 GB mapping, a file near a gigabyte boundary
// remapped on its next large write.
func TestWritableMapping(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "map.db")
	fillFile(t, path)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps:", err)
	}
	start := db.cur.Load().bolt.Info().Data
	for line := range strings.Lines(string(maps)) {
		var lo, hi uintptr
		if _, err := fmt.Sscanf(line, "%x-%x", &lo, &hi); err != nil || lo != start {
			continue
		}
		if want := uintptr(fi.Size()) + 1<<30; hi-lo < want {
			t.Errorf("the %d-byte file is mapped over %d bytes, want at least %d", fi.Size(), hi-lo, want)
		}
		return
	}
	t.Fatalf("no mapping starts at the data file's %#x", start)
}
