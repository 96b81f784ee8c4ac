package replica

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/internal/fault"
)

// A manifest naming a snapshot whose file is not there yet is a reason
// that may pass: the poller's backoff grows from a second, doubling, on
// the follower's clock, and within it the snapshot is not fetched again;
// the reason names no directory.
func TestBackoffOnTheFollowersClock(t *testing.T) {
	dir := t.TempDir()
	m := snapshot.Manifest{Seq: 2, File: snapshot.FileName(2), AsOf: "2026-11-20", SHA256: strings.Repeat("0", 64), Size: 10}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, snapshot.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := snapshot.NewCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Remove() })
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	swapped := 0
	f := &Follower{dir: dir, cache: cache, log: discard(), status: Status{Snapshot: snapshot.Manifest{Seq: 1}}}
	f.Start(func() time.Time { return now }, func(string) error { swapped++; return nil }, -1)
	ctx := context.Background()
	const every = time.Millisecond
	want := func(what string, wait time.Duration) {
		t.Helper()
		err := f.Refresh(ctx, every)
		if k, ok := fault.KindOf(err); !ok || k != fault.Unavailable {
			t.Fatalf("%s: got %v, want a fault.Unavailable", what, err)
		}
		if strings.Contains(err.Error(), dir) {
			t.Errorf("%s: the reason %q names the snapshot directory", what, err)
		}
		if got := f.RetryWait(); got != wait {
			t.Errorf("%s: backoff %v, want %v", what, got, wait)
		}
	}
	want("first failure", time.Second)
	now = now.Add(time.Second)
	want("second failure", 2*time.Second)
	now = now.Add(time.Second)
	want("within the backoff", 2*time.Second) // not fetched again
	st := f.Status()
	if !st.Retry || st.Refused == "" || st.Snapshot.Seq != 1 || st.Latest.Seq != 2 {
		t.Errorf("status %+v: want seq 1 served, 2 latest, a retry", st)
	}
	if swapped != 0 {
		t.Errorf("swapped %d times, want none", swapped)
	}
	// Without the poller's interval (Refresh), the backoff does not hold.
	if err := f.Refresh(ctx, 0); errors.Is(err, context.Canceled) || err == nil {
		t.Fatalf("Refresh: got %v, want the same failure", err)
	}
	if got := f.RetryWait(); got != 4*time.Second {
		t.Errorf("after a Refresh that fetched again: backoff %v, want 4s", got)
	}
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
