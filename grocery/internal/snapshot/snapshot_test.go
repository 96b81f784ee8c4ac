package snapshot

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

func snapshots(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if _, ok := seqOf(e.Name()); ok {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestPublishShortOfSpace: Publish makes room before it writes (the
// directory never holds more than keep snapshots, the new one counted),
// and when the disk fills during the write it removes every snapshot but
// the one the manifest names and writes again; the manifest's snapshot is
// never removed before a new manifest names another.
func TestPublishShortOfSpace(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	good := func(w io.Writer) (int64, string, error) {
		n, err := w.Write([]byte("data"))
		return int64(n), "2026-11-19", err
	}
	for range 3 {
		if _, err := Publish(dir, now, 3, good); err != nil {
			t.Fatal(err)
		}
	}
	var during []string
	_, err := Publish(dir, now, 3, func(w io.Writer) (int64, string, error) {
		during = snapshots(t, dir)
		return good(w)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"snapshot-2.db", "snapshot-3.db"}; !slices.Equal(during, want) {
		t.Errorf("while writing snapshot 4: %v, want %v (room made first)", during, want)
	}
	// The disk fills during the write: all but the manifest's go, the
	// write is tried again.
	calls := 0
	m, err := Publish(dir, now, 3, func(w io.Writer) (int64, string, error) {
		calls++
		during = snapshots(t, dir)
		if calls == 1 {
			return 0, "", fmt.Errorf("write: %w", &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC})
		}
		return good(w)
	})
	if err != nil || m.Seq != 5 || calls != 2 {
		t.Fatalf("Publish with a full disk once: %+v, %v after %d writes; want snapshot 5 after 2", m, err, calls)
	}
	if want := []string{"snapshot-4.db"}; !slices.Equal(during, want) {
		t.Errorf("while writing snapshot 5 again: %v, want %v (the manifest's only)", during, want)
	}
	if got, want := snapshots(t, dir), []string{"snapshot-4.db", "snapshot-5.db"}; !slices.Equal(got, want) {
		t.Errorf("after: %v, want %v", got, want)
	}
	// Full for good: the error, and the manifest's snapshot still there.
	_, err = Publish(dir, now, 3, func(w io.Writer) (int64, string, error) {
		return 0, "", &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
	})
	if err == nil {
		t.Fatal("Publish on a full disk: no error")
	}
	if m, err := ReadManifest(dir); err != nil || m.Seq != 5 {
		t.Fatalf("manifest after a failed publish: %+v %v, want snapshot 5", m, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "snapshot-5.db")); err != nil {
		t.Errorf("the manifest's snapshot: %v", err)
	}
}
