package grocery

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/redistest"
)

// openBenchIngest opens the large demo file named by GROCERY_BENCH_DB
// (grocery demo --scale large) for writing, publishing to a new
// directory and keeping one snapshot.
func openBenchIngest(b *testing.B) (*Service, string) {
	path := os.Getenv("GROCERY_BENCH_DB")
	if path == "" {
		b.Skip("GROCERY_BENCH_DB names no large demo file")
	}
	dir := filepath.Join(b.TempDir(), "snapshots")
	svc, err := Open(path, &Options{SnapshotDir: dir, SnapshotKeep: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	return svc, dir
}

func p50ms(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// BenchmarkSnapshotPublish is the ingest node's cost of publishing the
// large demo file: hot backup, SHA-256, fsync, rename, manifest.
func BenchmarkSnapshotPublish(b *testing.B) {
	svc, _ := openBenchIngest(b)
	var size int64
	for b.Loop() {
		snap, err := svc.Publish(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		size = snap.Size
	}
	b.ReportMetric(float64(size)/(1<<20), "MB")
}

// swapTimes records the fetch and reopen times a replica logs.
type swapTimes struct {
	mu                   sync.Mutex
	fetch, check, reopen []time.Duration
}

func (s *swapTimes) Enabled(context.Context, slog.Level) bool { return true }
func (s *swapTimes) WithAttrs([]slog.Attr) slog.Handler       { return s }
func (s *swapTimes) WithGroup(string) slog.Handler            { return s }
func (s *swapTimes) Handle(_ context.Context, r slog.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "fetch":
			s.fetch = append(s.fetch, a.Value.Duration())
		case "check":
			s.check = append(s.check, a.Value.Duration())
		case "reopen":
			s.reopen = append(s.reopen, a.Value.Duration())
		}
		return true
	})
	return nil
}

// BenchmarkReplicaSwap is a replica's time from reading a manifest that
// names a new snapshot of the large demo file to serving it (ns/op):
// fetch-ms is the copy with its SHA-256, check-ms the consistency check
// of its pages (storage.CheckFile), reopen-ms opening the copy and
// swapping it in.
func BenchmarkReplicaSwap(b *testing.B) {
	ingest, dir := openBenchIngest(b)
	ctx := context.Background()
	if _, err := ingest.Publish(ctx); err != nil {
		b.Fatal(err)
	}
	rs := redistest.Start(b)
	times := &swapTimes{}
	replica, err := OpenReplica(dir, &Options{SnapshotPoll: -1, SnapshotCache: b.TempDir(), Shared: RedisStore(rs.URL(), ""), Logger: slog.New(times)})
	if err != nil {
		b.Fatal(err)
	}
	defer replica.Close()
	for b.Loop() {
		b.StopTimer()
		if _, err := ingest.Publish(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := replica.Refresh(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(p50ms(times.fetch), "fetch-ms")
	b.ReportMetric(p50ms(times.check), "check-ms")
	b.ReportMetric(p50ms(times.reopen), "reopen-ms")
}
