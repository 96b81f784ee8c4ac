package grocery

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	follower "github.com/grocerydata/grocery/grocery/internal/replica"
	snapfile "github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/internal/redistest"
)

// openIngest opens a writable service that publishes to a new snapshot
// directory, with the import tests' stores and observations.
func openIngest(tb testing.TB) (*Service, string) {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "snapshots")
	svc, err := Open(filepath.Join(tb.TempDir(), "grocery.db"), &Options{Now: importClock, SnapshotDir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { svc.Close() })
	mustImport(tb, svc, "stores.csv", testStoresCSV, nil)
	mustImport(tb, svc, "prices.csv", testObsCSV, nil)
	return svc, dir
}

// openTestReplica opens a replica of dir, with keys under a prefix of its
// own on the shared Redis, that polls only when told.
func openTestReplica(tb testing.TB, dir string) *Service {
	tb.Helper()
	rs := redistest.Shared(tb)
	r, err := OpenReplica(dir, &Options{Now: importClock, SnapshotPoll: -1, SnapshotCache: tb.TempDir(), Shared: RedisStore(rs.URL(), rs.Prefix())})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close() })
	return r
}

// milkPrices imports one price for the milk at both Ontario stores that
// carry it, so that every answer from one file shows one price twice.
func milkPrices(tb testing.TB, svc *Service, price string) {
	tb.Helper()
	mustImport(tb, svc, "milk.csv", lines(obsHeader,
		"2026-11-18,ON-LOB-001,loblaws,20001,"+price+",,,,,,,",
		"2026-11-18,ON-NOF-001,no-frills,NF-77,"+price+",,,,,,,",
	), nil)
}

func milk(tb testing.TB, svc *Service) map[string]Cents {
	tb.Helper()
	res, err := svc.LookupProduct(context.Background(), LookupInput{UPC: "066800000152", Province: "ON"})
	if err != nil {
		tb.Fatal(err)
	}
	got := map[string]Cents{}
	for _, o := range res.Offers {
		got[o.Banner] = o.Price
	}
	return got
}

func TestPublish(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	m, err := snapfile.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Seq != 2 || m.AsOf != "2026-11-18" {
		t.Errorf("manifest after two imports: got seq %d as-of %s, want 2 2026-11-18", m.Seq, m.AsOf)
	}

	replica := openTestReplica(t, dir)
	for _, in := range []LookupInput{{UPC: "066800000152", Province: "ON"}, {UPC: "7540123456788", Province: "QC"}} {
		want, err := ingest.LookupProduct(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := replica.LookupProduct(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("LookupProduct(%s) on the replica (-ingest +replica):\n%s", in.UPC, diff)
		}
	}

	t.Run("KeepsThree", func(t *testing.T) {
		for _, p := range []string{"4.10", "4.20", "4.30"} {
			milkPrices(t, ingest, p)
		}
		got, _ := filepath.Glob(filepath.Join(dir, "snapshot-*.db"))
		for i := range got {
			got[i] = filepath.Base(got[i])
		}
		if want := []string{"snapshot-3.db", "snapshot-4.db", "snapshot-5.db"}; !cmp.Equal(got, want) {
			t.Errorf("snapshot files: got %v, want %v", got, want)
		}
		if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) > 0 {
			t.Errorf("temporary files left: %v", tmp)
		}
	})

	// The sequence goes on from the files when the manifest is lost: a
	// replica ignores any sequence number it has passed.
	t.Run("SeqAfterLostManifest", func(t *testing.T) {
		if err := os.Remove(filepath.Join(dir, snapfile.ManifestName)); err != nil {
			t.Fatal(err)
		}
		snap, err := ingest.Publish(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Seq != 6 {
			t.Errorf("Publish after the manifest was removed: got seq %d, want 6", snap.Seq)
		}
		if _, err := os.Stat(filepath.Join(dir, "snapshot-5.db")); err != nil {
			t.Errorf("snapshot 5: %v, want it kept", err)
		}
	})

	t.Run("ErrInvalidWithoutDir", func(t *testing.T) {
		svc := openImportService(t)
		_, err := svc.Publish(ctx)
		errCode(t, err, EINVALIDARGUMENT)
	})
}

func TestOpenReplica(t *testing.T) {
	t.Parallel()
	_, dir := openIngest(t)
	t.Run("ErrInvalidWithoutRedis", func(t *testing.T) {
		r, err := OpenReplica(dir, &Options{SnapshotPoll: -1, SnapshotCache: t.TempDir()})
		if err == nil {
			r.Close()
		}
		errCode(t, err, EINVALIDARGUMENT)
		if err != nil && !strings.Contains(err.Error(), "Redis") {
			t.Errorf("got %q, want it to say a replica needs Redis", err)
		}
	})
}

// TestReplicaExportOneSnapshot: an export reads in batches, each its own
// transaction; a snapshot swapped in between two batches does not reach
// the rest of the export.
func TestReplicaExportOneSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)
	milkPrices(t, ingest, "3.49") // published as seq 3, not taken yet
	in := ExportInput{Format: "csv", Province: "ON"}
	export := func(between func()) string {
		t.Helper()
		exp, err := replica.PrepareExport(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		exp.batch = 1
		exp.progress = func(int64) { between() }
		var b strings.Builder
		if _, err := exp.Stream(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := export(func() {})
	swapped := false
	got := export(func() {
		if !swapped {
			swapped = true
			if err := replica.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
	if st, _ := replica.Replica(); st.Snapshot.Seq != 3 {
		t.Fatalf("Replica after the swap: seq %d, want 3", st.Snapshot.Seq)
	}
	if got != want {
		t.Errorf("an export with a swap between its batches:\n%s\nwant all of the snapshot it started on:\n%s", got, want)
	}
	if after := export(func() {}); !strings.Contains(after, ",3.49,") {
		t.Errorf("an export after the swap:\n%s\nwant the new price 3.49", after)
	}
}

func TestReplicaRefresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)

	milkPrices(t, ingest, "3.49")
	if got, want := milk(t, replica), map[string]Cents{"loblaws": 499, "no-frills": 449}; !cmp.Equal(got, want) {
		t.Errorf("before Refresh: got %v, want %v", got, want)
	}
	if err := replica.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := milk(t, replica), map[string]Cents{"loblaws": 349, "no-frills": 349}; !cmp.Equal(got, want) {
		t.Errorf("after Refresh: got %v, want %v", got, want)
	}
	st, ok := replica.Replica()
	if !ok || st.Snapshot.Seq != 3 || st.Refused != "" {
		t.Errorf("Replica: got %+v %v, want seq 3, nothing refused", st, ok)
	}
	if err := replica.Refresh(ctx); err != nil {
		t.Errorf("Refresh with nothing new: %v", err)
	}

	t.Run("ErrInvalidImport", func(t *testing.T) {
		_, err := importString(t, replica, "milk.csv", testObsCSV, nil)
		errCode(t, err, EINVALIDARGUMENT)
		if err != nil && !strings.Contains(err.Error(), "replica") {
			t.Errorf("got %q, want it to say the server is a replica", err)
		}
	})
	t.Run("ErrInvalidPublish", func(t *testing.T) {
		_, err := replica.Publish(ctx)
		errCode(t, err, EINVALIDARGUMENT)
	})
	t.Run("ErrInvalidNotReplica", func(t *testing.T) {
		errCode(t, ingest.Refresh(ctx), EINVALIDARGUMENT)
	})
}

func TestReplicaRefuses(t *testing.T) {
	t.Parallel()
	damage := map[string]func(t *testing.T, dir string, m *snapfile.Manifest){
		"Truncated": func(t *testing.T, dir string, m *snapfile.Manifest) {
			if err := os.Truncate(filepath.Join(dir, m.File), m.Size/2); err != nil {
				t.Fatal(err)
			}
		},
		"WrongSHA256": func(t *testing.T, dir string, m *snapfile.Manifest) {
			b, err := os.ReadFile(filepath.Join(dir, snapfile.ManifestName))
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), m.SHA256, strings.Repeat("0", 64), 1))
			if err := os.WriteFile(filepath.Join(dir, snapfile.ManifestName), b, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"CorruptPages": func(t *testing.T, dir string, m *snapfile.Manifest) {
			// Size and sum agree, the meta pages are intact, but the
			// first 64 bytes (header and first elements) of every branch
			// or leaf page past the first 16 KiB are random: served, the
			// first read of such a page faults the whole process.
			path := filepath.Join(dir, m.File)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			const page = 4096
			rnd := rand.New(rand.NewPCG(19, 1))
			n := 0
			for at := 16 << 10; at+page <= len(b); at += page {
				if flags := b[at+8]; flags != 1 && flags != 2 {
					continue
				}
				for i := range 64 {
					b[at+i] = byte(rnd.Uint32())
				}
				n++
			}
			if n == 0 {
				t.Fatalf("no branch or leaf page past 16 KiB in a %d-byte snapshot", len(b))
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			fixed := *m
			fixed.SHA256 = fmt.Sprintf("%x", sha256Sum(b))
			writeManifest(t, dir, &fixed)
		},
		"NotDataFile": func(t *testing.T, dir string, m *snapfile.Manifest) {
			// Size and sum agree, but the file is not a data file.
			junk := []byte(strings.Repeat("junk", 1024))
			if err := os.WriteFile(filepath.Join(dir, m.File), junk, 0o644); err != nil {
				t.Fatal(err)
			}
			fixed := *m
			fixed.Size = int64(len(junk))
			fixed.SHA256 = fmt.Sprintf("%x", sha256Sum(junk))
			writeManifest(t, dir, &fixed)
		},
	}
	for name, damage := range damage {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			ingest, dir := openIngest(t)
			replica := openTestReplica(t, dir)

			milkPrices(t, ingest, "3.49")
			m, err := snapfile.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			damage(t, dir, m)
			errCode(t, replica.Refresh(ctx), EINVALIDARGUMENT)
			if got, want := milk(t, replica), map[string]Cents{"loblaws": 499, "no-frills": 449}; !cmp.Equal(got, want) {
				t.Errorf("after a refused snapshot: got %v, want the previous data %v", got, want)
			}
			st, _ := replica.Replica()
			if st.Snapshot.Seq != 2 || !strings.Contains(st.Refused, "snapshot 3") {
				t.Errorf("Replica: got seq %d refused %q, want seq 2 and a reason naming snapshot 3", st.Snapshot.Seq, st.Refused)
			}

			// The next good snapshot is taken and clears the refusal.
			milkPrices(t, ingest, "3.59")
			if err := replica.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := milk(t, replica), map[string]Cents{"loblaws": 359, "no-frills": 359}; !cmp.Equal(got, want) {
				t.Errorf("after the next snapshot: got %v, want %v", got, want)
			}
			if st, _ := replica.Replica(); st.Snapshot.Seq != 4 || st.Refused != "" {
				t.Errorf("Replica: got seq %d refused %q, want seq 4, nothing refused", st.Snapshot.Seq, st.Refused)
			}
		})
	}
}

// TestReplicaRefusedOnce: a refused snapshot is not fetched again (a
// large one would be copied and hashed at every poll); the replica waits
// for the next sequence number.
func TestReplicaRefusedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)
	milkPrices(t, ingest, "3.49")
	m, err := snapfile.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, m.File), m.Size/2); err != nil {
		t.Fatal(err)
	}
	first := replica.Refresh(ctx)
	errCode(t, first, EINVALIDARGUMENT)
	// Fetched again, the file would now fail otherwise.
	if err := os.Remove(filepath.Join(dir, m.File)); err != nil {
		t.Fatal(err)
	}
	again := replica.Refresh(ctx)
	if first == nil || again == nil || again.Error() != first.Error() {
		t.Errorf("Refresh of a refused snapshot again: got %v, want the first refusal %v", again, first)
	}
	milkPrices(t, ingest, "3.59")
	if err := replica.Refresh(ctx); err != nil {
		t.Errorf("Refresh with the next snapshot: %v", err)
	}
	if st, _ := replica.Replica(); st.Snapshot.Seq != 4 || st.Refused != "" {
		t.Errorf("Replica: got seq %d refused %q, want seq 4, nothing refused", st.Snapshot.Seq, st.Refused)
	}
}

// TestReplicaPruned: the snapshot a replica read in the manifest is
// removed by the publisher's retention before the replica copies it
// (three newer ones were published meanwhile): the replica takes the
// newest, refusing nothing.
func TestReplicaPruned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)
	milkPrices(t, ingest, "3.00")
	once := false
	replica.replica.AfterManifest = func(m *snapfile.Manifest) {
		if once {
			return
		}
		once = true
		for _, p := range []string{"3.01", "3.02", "3.03"} {
			milkPrices(t, ingest, p)
		}
		if _, err := os.Stat(filepath.Join(dir, m.File)); err == nil {
			t.Fatalf("%s is still there: the test needs it pruned", m.File)
		}
	}
	if err := replica.Refresh(ctx); err != nil {
		t.Fatalf("Refresh: %v, want the newest snapshot taken", err)
	}
	if st, _ := replica.Replica(); st.Snapshot.Seq != 6 || st.Refused != "" {
		t.Errorf("Replica: got seq %d refused %q, want seq 6, nothing refused", st.Snapshot.Seq, st.Refused)
	}
	if got := milk(t, replica)["loblaws"]; got != 303 {
		t.Errorf("milk at loblaws: got %v, want 303", got)
	}
}

// TestReplicaSwapUnderLoad queries a replica without pause while it takes
// snapshot after snapshot: every answer comes from one snapshot (both
// stores show the same price, as every import sets them together), and
// the replaced files are closed once their readers end.
func TestReplicaSwapUnderLoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	milkPrices(t, ingest, "3.00")
	replica := openTestReplica(t, dir)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var mixed []map[string]Cents
	seen := map[Cents]bool{}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := replica.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"})
				if err != nil {
					t.Error(err)
					return
				}
				got := map[string]Cents{}
				for _, o := range res.Offers {
					got[o.Banner] = o.Price
				}
				mu.Lock()
				if len(got) != 2 || got["loblaws"] != got["no-frills"] {
					mixed = append(mixed, got)
				}
				seen[got["loblaws"]] = true
				mu.Unlock()
			}
		}()
	}
	const n = 15
	for i := 1; i <= n; i++ {
		milkPrices(t, ingest, fmt.Sprintf("3.%02d", i))
		if err := replica.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if len(mixed) > 0 {
		t.Errorf("%d answers mixed two snapshots, first %v", len(mixed), mixed[0])
	}
	if got, want := milk(t, replica)["loblaws"], Cents(300+n); got != want {
		t.Errorf("after the last Refresh: got %v, want %v", got, want)
	}
	t.Logf("%d distinct prices seen during the swaps", len(seen))

	// Only the current snapshot is open, and only its copy is left.
	cache := replica.replica.CacheDir()
	if got := openFilesUnder(t, cache); got != 1 {
		t.Errorf("%d descriptors open on the replica's snapshot copies, want 1", got)
	}
	if files, _ := os.ReadDir(cache); len(files) != 1 {
		t.Errorf("%d files in the replica's cache, want 1", len(files))
	}
	replica.Close()
	if got := openFilesUnder(t, cache); got != 0 {
		t.Errorf("after Close: %d descriptors open on the replica's snapshot copies, want 0", got)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Errorf("after Close: the cache %s is still there (%v)", cache, err)
	}
}

// openFilesUnder counts this process's open descriptors on files under
// dir, removed ones included (Linux).
func openFilesUnder(tb testing.TB, dir string) int {
	tb.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		tb.Skip("no /proc/self/fd:", err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			n++
		}
	}
	return n
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

func writeManifest(tb testing.TB, dir string, m *snapfile.Manifest) {
	tb.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, snapfile.ManifestName), b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestReplicaRetries: a snapshot that cannot be fetched for a reason that
// may pass (here a manifest seen before its file, as on a shared volume)
// is reported, with Retry, and taken once the file is there, by Refresh
// and by the poller.
func TestReplicaRetries(t *testing.T) {
	t.Parallel()
	// The replica follows a directory of its own, where the test copies
	// the ingest node's manifest before its snapshot.
	copyFile := func(t *testing.T, from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		tmp := filepath.Join(filepath.Dir(to), ".tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, to); err != nil {
			t.Fatal(err)
		}
	}
	follow := func(t *testing.T, src string) string {
		t.Helper()
		dst := t.TempDir()
		copyFile(t, filepath.Join(src, "snapshot-2.db"), filepath.Join(dst, "snapshot-2.db"))
		copyFile(t, filepath.Join(src, snapfile.ManifestName), filepath.Join(dst, snapfile.ManifestName))
		return dst
	}
	hide := func(t *testing.T, ingest *Service, src, dst string) (restore func()) {
		t.Helper()
		milkPrices(t, ingest, "3.49")
		copyFile(t, filepath.Join(src, snapfile.ManifestName), filepath.Join(dst, snapfile.ManifestName))
		return func() {
			copyFile(t, filepath.Join(src, "snapshot-3.db"), filepath.Join(dst, "snapshot-3.db"))
		}
	}
	checkReported := func(t *testing.T, st ReplicaStatus) {
		t.Helper()
		if st.Snapshot.Seq != 2 || !st.Retry || !strings.HasPrefix(st.Refused, "snapshot 3 (snapshot-3.db): ") ||
			!strings.Contains(st.Refused, "no such file") {
			t.Errorf("Replica: got %+v, want seq 2, retry, and a reason beginning \"snapshot 3 (snapshot-3.db): \" saying the file is missing", st)
		}
		// /healthz shows it to anyone: no path of the host.
		if strings.Contains(st.Refused, string(filepath.Separator)) {
			t.Errorf("Replica: the reason %q names a path", st.Refused)
		}
	}

	t.Run("Refresh", func(t *testing.T) {
		ctx := context.Background()
		ingest, src := openIngest(t)
		dir := follow(t, src)
		replica := openTestReplica(t, dir)
		restore := hide(t, ingest, src, dir)
		for range 2 {
			errCode(t, replica.Refresh(ctx), EUNAVAILABLE)
		}
		st, _ := replica.Replica()
		checkReported(t, st)
		if got, want := milk(t, replica), map[string]Cents{"loblaws": 499, "no-frills": 449}; !cmp.Equal(got, want) {
			t.Errorf("while snapshot 3 is missing: got %v, want the previous data %v", got, want)
		}
		restore()
		if err := replica.Refresh(ctx); err != nil {
			t.Fatalf("Refresh once the file is there: %v", err)
		}
		if st, _ := replica.Replica(); st.Snapshot.Seq != 3 || st.Refused != "" || st.Retry {
			t.Errorf("Replica: got %+v, want seq 3, nothing refused", st)
		}
		if got, want := milk(t, replica), map[string]Cents{"loblaws": 349, "no-frills": 349}; !cmp.Equal(got, want) {
			t.Errorf("after the retry: got %v, want %v", got, want)
		}
	})

	// The copy cannot be written (here the cache directory is gone; a
	// full disk or a permission error fail the same way): retried.
	t.Run("CacheError", func(t *testing.T) {
		ctx := context.Background()
		ingest, dir := openIngest(t)
		replica := openTestReplica(t, dir)
		milkPrices(t, ingest, "3.49")
		cache := replica.replica.CacheDir()
		if err := os.RemoveAll(cache); err != nil {
			t.Fatal(err)
		}
		errCode(t, replica.Refresh(ctx), EUNAVAILABLE)
		if st, _ := replica.Replica(); st.Snapshot.Seq != 2 || !st.Retry || !strings.HasPrefix(st.Refused, "snapshot 3 (snapshot-3.db): copying it to ") {
			t.Errorf("Replica: got %+v, want seq 2, retry, and a reason naming snapshot 3 and its copy", st)
		}
		if err := os.Mkdir(cache, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := replica.Refresh(ctx); err != nil {
			t.Fatalf("Refresh once the cache is back: %v", err)
		}
		if st, _ := replica.Replica(); st.Snapshot.Seq != 3 || st.Refused != "" {
			t.Errorf("Replica: got %+v, want seq 3, nothing refused", st)
		}
	})

	t.Run("Poll", func(t *testing.T) {
		ingest, src := openIngest(t)
		dir := follow(t, src)
		clk := newReplicaClock()
		rs := redistest.Shared(t)
		// The follower logs each snapshot it takes or does not take once
		// its status says so: the test checks the status at each record.
		logged := logSignal(make(chan struct{}, 1))
		replica, err := OpenReplica(dir, &Options{Now: clk.now, SnapshotPoll: 5 * time.Millisecond,
			SnapshotCache: t.TempDir(), Shared: RedisStore(rs.URL(), rs.Prefix()), Logger: slog.New(logged)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { replica.Close() })
		restore := hide(t, ingest, src, dir)
		waitReplica := func(what string, ok func(ReplicaStatus) bool) ReplicaStatus {
			t.Helper()
			deadline := time.NewTimer(20 * time.Second)
			defer deadline.Stop()
			for {
				st, _ := replica.Replica()
				if ok(st) {
					return st
				}
				select {
				case <-logged:
				case <-deadline.C:
					t.Fatalf("Replica: got %+v, waited for %s", st, what)
				}
			}
		}
		checkReported(t, waitReplica("a reason", func(st ReplicaStatus) bool { return st.Refused != "" }))
		restore()
		clk.add(follower.MaxRetryWait) // the backoff passes: the poller fetches again
		waitReplica("seq 3, nothing refused", func(st ReplicaStatus) bool { return st.Snapshot.Seq == 3 && st.Refused == "" && !st.Retry })
		if got, want := milk(t, replica), map[string]Cents{"loblaws": 349, "no-frills": 349}; !cmp.Equal(got, want) {
			t.Errorf("after the poller's retry: got %v, want %v", got, want)
		}
	})

	// While snapshot 3 waits out its backoff, snapshot 4 is published: the
	// poller still reads the manifest at every interval and takes it at
	// once, not after the backoff. The poller's step (refresh with its
	// interval) runs here, on a clock the test moves.
	t.Run("NewerWhileRetrying", func(t *testing.T) {
		ingest, src := openIngest(t)
		dir := follow(t, src)
		clk := newReplicaClock()
		rs := redistest.Shared(t)
		replica, err := OpenReplica(dir, &Options{Now: clk.now, SnapshotPoll: -1,
			SnapshotCache: t.TempDir(), Shared: RedisStore(rs.URL(), rs.Prefix())})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { replica.Close() })
		hide(t, ingest, src, dir)
		ctx := context.Background()
		const every = 5 * time.Millisecond
		// Snapshot 3 fails all along, its backoff grows: 1 s, then 2 s.
		errCode(t, replica.refresh(ctx, every), EUNAVAILABLE)
		clk.add(time.Second)
		errCode(t, replica.refresh(ctx, every), EUNAVAILABLE)
		if w := replica.replica.RetryWait(); w != 2*time.Second {
			t.Fatalf("backoff after two failures: %v, want 2s", w)
		}
		// Within the backoff, the poller does not fetch snapshot 3 again.
		clk.add(time.Second)
		errCode(t, replica.refresh(ctx, every), EUNAVAILABLE)
		if w := replica.replica.RetryWait(); w != 2*time.Second {
			t.Fatalf("backoff after a refresh within it: %v, want 2s still (snapshot 3 not fetched again)", w)
		}
		if st, _ := replica.Replica(); st.Snapshot.Seq != 2 || !st.Retry {
			t.Fatalf("Replica: got %+v, want seq 2 and a retry", st)
		}
		milkPrices(t, ingest, "2.99")
		copyFile(t, filepath.Join(src, "snapshot-4.db"), filepath.Join(dir, "snapshot-4.db"))
		copyFile(t, filepath.Join(src, snapfile.ManifestName), filepath.Join(dir, snapfile.ManifestName))
		if err := replica.refresh(ctx, every); err != nil {
			t.Fatalf("refresh once snapshot 4 is published, within snapshot 3's backoff: %v", err)
		}
		if st, _ := replica.Replica(); st.Snapshot.Seq != 4 || st.Retry || st.Refused != "" {
			t.Fatalf("Replica after snapshot 4 was published: %+v, want seq 4 (the poller waited out snapshot 3's backoff)", st)
		}
	})
}

// replicaClock is a clock the test moves, from importClock's time.
type replicaClock struct{ ns atomic.Int64 }

func newReplicaClock() *replicaClock {
	c := &replicaClock{}
	c.ns.Store(importClock().UnixNano())
	return c
}

func (c *replicaClock) now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *replicaClock) add(d time.Duration) { c.ns.Add(int64(d)) }

// TestReplicaExportPreparedSnapshot: an export streams the snapshot it was
// prepared on, whose as-of date gave its file name and default dates,
// even when a newer one is swapped in between PrepareExport and Stream;
// Close lets go of a prepared export's snapshot.
func TestReplicaExportPreparedSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)
	in := ExportInput{Format: "csv", Province: "ON"}
	var want strings.Builder
	if _, err := replica.Export(ctx, in, &want); err != nil {
		t.Fatal(err)
	}
	// Snapshot 3 changes the milk of 2026-11-18 and moves the as-of date
	// to 2026-11-19.
	mustImport(t, ingest, "milk.csv", lines(obsHeader,
		"2026-11-18,ON-LOB-001,loblaws,20001,3.49,,,,,,,",
		"2026-11-18,ON-NOF-001,no-frills,NF-77,3.49,,,,,,,",
		"2026-11-19,ON-LOB-001,loblaws,20001,3.59,,,,,,,",
	), nil)

	exp, err := replica.PrepareExport(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := replica.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := replica.Replica(); st.Snapshot.Seq != 3 || st.Snapshot.AsOf.String() != "2026-11-19" {
		t.Fatalf("Replica after the swap: got seq %d as of %s, want 3 as of 2026-11-19", st.Snapshot.Seq, st.Snapshot.AsOf)
	}
	var got strings.Builder
	if _, err := exp.Stream(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if wantName := "grocery-observations-ON-2026-10-20-2026-11-18.csv"; exp.FileName != wantName {
		t.Errorf("FileName: got %q, want %q", exp.FileName, wantName)
	}
	if got.String() != want.String() {
		t.Errorf("an export prepared before the swap and streamed after it:\n%s\nwant the snapshot it was prepared on:\n%s", got.String(), want.String())
	}
	_, err = exp.Stream(ctx, &got)
	errCode(t, err, EINVALIDARGUMENT)

	t.Run("Close", func(t *testing.T) {
		milkPrices(t, ingest, "3.69") // seq 4
		exp, err := replica.PrepareExport(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := replica.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		cache := replica.replica.CacheDir()
		if got := openFilesUnder(t, cache); got != 2 {
			t.Errorf("%d descriptors open on the snapshot copies with an export prepared on the previous one, want 2", got)
		}
		exp.Close()
		exp.Close()
		if got := openFilesUnder(t, cache); got != 1 {
			t.Errorf("%d descriptors open on the snapshot copies after Close, want 1", got)
		}
		var b strings.Builder
		sum, err := exp.Stream(ctx, &b)
		errCode(t, err, EINVALIDARGUMENT)
		if sum.Bytes != 0 || b.Len() != 0 {
			t.Errorf("Stream after Close wrote %d bytes", b.Len())
		}
	})
}

// TestImportNotPublished: an import whose snapshot cannot be published
// (here the snapshot directory cannot be created) stands: the rows are
// committed, and the report says why its snapshot was not published
// instead of an error claiming nothing was imported.
func TestImportNotPublished(t *testing.T) {
	t.Parallel()
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	svc, err := Open(filepath.Join(t.TempDir(), "grocery.db"), &Options{Now: importClock, SnapshotDir: filepath.Join(blocker, "snaps")})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	rep, err := svc.Import(context.Background(), "stores.csv", strings.NewReader(testStoresCSV), nil)
	if err != nil {
		t.Fatalf("Import: %v, want the report of an import that stands", err)
	}
	if !strings.Contains(rep.PublishError, "imported, but its snapshot was not published") || rep.New == 0 {
		t.Errorf("report: %+v, want new rows and the reason the snapshot was not published", rep)
	}
	again, err := svc.Import(context.Background(), "stores.csv", strings.NewReader(testStoresCSV), nil)
	if err != nil || again.New != 0 || again.Unchanged != rep.New {
		t.Errorf("the same file again: %+v, %v; want every row unchanged (the first import committed)", again, err)
	}
}

// TestReplicaBehind: a replica that refused the newest snapshot says how
// many it lags and since when.
func TestReplicaBehind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ingest, dir := openIngest(t)
	replica := openTestReplica(t, dir)
	if st, _ := replica.Replica(); st.Latest.Seq != 2 {
		t.Fatalf("Latest at start: %+v, want seq 2", st.Latest)
	}
	if n, _ := func() (uint64, time.Time) { st, _ := replica.Replica(); return st.Behind() }(); n != 0 {
		t.Fatalf("Behind at start: %d, want 0", n)
	}
	milkPrices(t, ingest, "3.49")
	m, err := snapfile.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, m.File), m.Size/2); err != nil {
		t.Fatal(err)
	}
	errCode(t, replica.Refresh(ctx), EINVALIDARGUMENT)
	st, _ := replica.Replica()
	if n, since := st.Behind(); n != 1 || !since.Equal(m.Created) {
		t.Errorf("Behind after a refusal: %d since %v, want 1 since %v", n, since, m.Created)
	}
}

// logSignal is a slog.Handler that signals each record on its channel
// (buffered: a record while nobody waits is not lost), for a test to wait
// for what a component logs once its state has changed.
type logSignal chan struct{}

func (s logSignal) Enabled(context.Context, slog.Level) bool { return true }

func (s logSignal) Handle(context.Context, slog.Record) error {
	select {
	case s <- struct{}{}:
	default: // one already waits to be read
	}
	return nil
}

func (s logSignal) WithAttrs([]slog.Attr) slog.Handler { return s }
func (s logSignal) WithGroup(string) slog.Handler      { return s }
