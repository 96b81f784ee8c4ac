package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
)

type health struct {
	Status   string `json:"status"`
	Snapshot struct {
		Seq  uint64 `json:"seq"`
		AsOf string `json:"as_of"`
	} `json:"snapshot"`
	Refused string `json:"refused"`
	Retry   bool   `json:"retry"`
	Behind  *struct {
		Snapshots uint64 `json:"snapshots"`
		LatestSeq uint64 `json:"latest_seq"`
		Seconds   int64  `json:"seconds"`
	} `json:"behind"`
}

// start runs a server with cfg until the test ends and returns its base
// URL. Its log is discarded unless cfg.Logger is set.
func start(t *testing.T, cfg server.Config) string {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	cfg.Addr = "127.0.0.1:0"
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	cfg.Ready = func(base string) { ready <- base }
	go func() { done <- server.Run(ctx, cfg) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run(%s): %v", cfg.Role, err)
		}
	})
	select {
	case base := <-ready:
		return base
	case err := <-done:
		t.Fatalf("Run(%s): %v", cfg.Role, err)
	}
	return ""
}

func getHealth(t *testing.T, base string) health {
	t.Helper()
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/healthz: %d, %v", resp.StatusCode, err)
	}
	return h
}

// skipClock is the real clock plus a time the test adds, to pass a wait
// at once.
type skipClock struct{ skipped atomic.Int64 }

func (c *skipClock) now() time.Time      { return time.Now().Add(time.Duration(c.skipped.Load())) }
func (c *skipClock) add(d time.Duration) { c.skipped.Add(int64(d)) }

// logged waits for the replica's log line holding every one of parts
// (the replica logs each snapshot it takes or does not take once its
// /healthz says so) and returns its /healthz then.
func logged(t *testing.T, log *servetest.LogBuffer, base string, parts ...string) health {
	t.Helper()
	log.WaitFor(t, 15*time.Second, fmt.Sprintf("replica log line with %q", parts), func(text string) bool {
		for _, line := range strings.Split(text, "\n") {
			if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(line, p) }) {
				return true
			}
		}
		return false
	})
	return getHealth(t, base)
}

// TestRoles runs an ingest node and a replica over one snapshot
// directory: an import through the ingest node's admin socket reaches
// the replica, and a damaged snapshot is refused and reported on
// /healthz while the replica keeps serving.
func TestRoles(t *testing.T) {
	// In parallel: servers, data files and a Redis of its own.
	t.Parallel()
	dir, err := os.MkdirTemp("", "srv") // short: Unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, snaps := filepath.Join(dir, "g.db"), filepath.Join(dir, "snaps")
	ctx := context.Background()
	demoCopy(t, db)
	rs := redistest.Start(t)
	// The replica reads the manifest every 10 ms, not every second, and
	// its clock is the real one plus what the test adds: a snapshot whose
	// file was missing is fetched again a second later by that clock.
	clock := &skipClock{}
	ingest := start(t, server.Config{DB: db, Role: server.RoleIngest, Snapshots: snaps, Options: server.Options{RedisURL: rs.URL()}})
	if h := getHealth(t, ingest); h.Status != "ok" || h.Snapshot.Seq != 0 {
		t.Errorf("ingest /healthz: got %+v, want a plain ok", h)
	}
	var replicaLog servetest.LogBuffer
	replica := start(t, server.Config{Role: server.RoleReplica, Snapshots: snaps, DB: "./grocery.db",
		Logger:  slog.New(slog.NewTextHandler(&replicaLog, nil)),
		Options: server.Options{RedisURL: rs.URL(), Options: grocery.Options{SnapshotCache: t.TempDir(), SnapshotPoll: 10 * time.Millisecond, Now: clock.now}}})
	if h := getHealth(t, replica); h.Snapshot.Seq != 1 || h.Snapshot.AsOf != "2026-11-19" || h.Refused != "" {
		t.Errorf("replica /healthz: got %+v, want seq 1 as of 2026-11-19", h)
	}
	// The replica's start-up line names what it serves, not a data file
	// it does not use (the --db default).
	for _, line := range strings.Split(replicaLog.String(), "\n") {
		if strings.Contains(line, "msg=serving ") {
			if !strings.Contains(line, "snapshots="+snaps) || strings.Contains(line, "db=") || strings.Contains(line, "admin_socket") {
				t.Errorf("replica start-up line: got %q, want snapshots=%s and no db or admin socket", line, snaps)
			}
		}
	}
	if !strings.Contains(replicaLog.String(), "msg=serving ") {
		t.Errorf("replica log: no start-up line in\n%s", replicaLog.String())
	}

	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"ON-ZZZ-001,loblaws,ON,Loblaws Test,Toronto,M5J 2R6,43.6410,-79.3760\n"
	if _, err := admin.Dial(admin.SocketPath(db)).Import(ctx, "stores.csv", strings.NewReader(stores), nil); err != nil {
		t.Fatal(err)
	}
	if h := logged(t, &replicaLog, replica, `msg="snapshot taken" seq=2 `); h.Snapshot.Seq != 2 {
		t.Fatalf("replica /healthz after an import on the ingest node: got %+v, want seq 2", h)
	}

	// Snapshots written by hand (damaging a published one would race
	// with the replica's poll), each file and manifest through a
	// temporary file and a rename.
	b, err := os.ReadFile(filepath.Join(snaps, "snapshot-2.db"))
	if err != nil {
		t.Fatal(err)
	}
	put := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(snaps, ".tmp"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(snaps, ".tmp"), filepath.Join(snaps, name)); err != nil {
			t.Fatal(err)
		}
	}
	manifest := func(seq int, sum string) []byte {
		return []byte(fmt.Sprintf(`{"seq":%d,"file":"snapshot-%d.db","as_of":"2026-11-19","sha256":"%s","size":%d}`, seq, seq, sum, len(b)))
	}

	// Snapshot 3's manifest seen before its file (a shared volume): not
	// taken yet, said on /healthz, and taken once the file is there.
	put("manifest.json", manifest(3, fmt.Sprintf("%x", sha256.Sum256(b))))
	h := logged(t, &replicaLog, replica, `msg="snapshot not taken yet`, "snapshot 3 (snapshot-3.db)")
	if h.Status != "ok" || h.Snapshot.Seq != 2 || !h.Retry || !strings.HasPrefix(h.Refused, "snapshot 3 (snapshot-3.db): ") {
		t.Errorf("replica /healthz with snapshot 3's file missing: got %+v, want ok, seq 2, retry and a reason naming snapshot 3", h)
	}
	put("snapshot-3.db", b)
	clock.add(time.Second) // the retry's wait has passed
	if h := logged(t, &replicaLog, replica, `msg="snapshot taken" seq=3 `); h.Snapshot.Seq != 3 || h.Refused != "" || h.Retry || h.Behind != nil {
		t.Fatalf("replica /healthz once snapshot 3's file is there: got %+v, want seq 3, nothing refused", h)
	}

	// A snapshot 4 whose sha256 disagrees with its file: refused, and
	// seq 3 still served.
	put("snapshot-4.db", b)
	put("manifest.json", manifest(4, strings.Repeat("0", 64)))
	h = logged(t, &replicaLog, replica, `msg="snapshot refused`, "snapshot 4 (snapshot-4.db)")
	if h.Status != "ok" || h.Snapshot.Seq != 3 || h.Retry || !strings.Contains(h.Refused, "snapshot 4") {
		t.Errorf("replica /healthz after a damaged snapshot: got %+v, want ok, seq 3 and a reason naming snapshot 4, no retry", h)
	}
	if h.Behind == nil || h.Behind.Snapshots != 1 || h.Behind.LatestSeq != 4 {
		t.Errorf("replica /healthz after a damaged snapshot: behind %+v, want 1 snapshot behind 4", h.Behind)
	}
}
