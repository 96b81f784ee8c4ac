package grocery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/redisconn"
	snapfile "github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/storage"
)

// PublishedSnapshot describes a published snapshot of the data file.
type PublishedSnapshot struct {
	Seq     uint64    `json:"seq"`   // 1, 2, ... in the snapshot directory
	File    string    `json:"file"`  // snapshot-<seq>.db
	AsOf    Date      `json:"as_of"` // the data's as-of date
	SHA256  string    `json:"sha256"`
	Size    int64     `json:"size"`
	Created time.Time `json:"created"`
}

// ReplicaStatus is what a replica serves and what it last refused.
type ReplicaStatus struct {
	Snapshot PublishedSnapshot `json:"snapshot"`
	// Refused says why the newest snapshot of the directory was not
	// taken (with file names, never the directories' paths): a size or SHA-256 that disagrees with the manifest, a file
	// that is not a data file (the replica waits for the next sequence
	// number), or, with Retry, a reason that may pass (the file not
	// visible yet, a full or unreadable disk). Empty once it is taken.
	Refused string `json:"refused,omitempty"`
	// Retry says that Refused may pass: the replica fetches the same
	// snapshot again, less often while it fails (up to every
	// maxRetryWait); it still reads the manifest at every poll, and takes
	// a newer snapshot as soon as one is published.
	Retry bool `json:"retry,omitempty"`
	// Latest is the newest snapshot the manifest named at the last poll:
	// when its Seq is above Snapshot's, the replica lags by that many
	// snapshots, published since Latest.Created.
	Latest PublishedSnapshot `json:"latest"`
}

// Behind returns how many snapshots the one served lags the newest the
// manifest names, and since when that newest one was published (zero
// when none lags).
func (st ReplicaStatus) Behind() (snapshots uint64, since time.Time) {
	if st.Latest.Seq <= st.Snapshot.Seq {
		return 0, time.Time{}
	}
	return st.Latest.Seq - st.Snapshot.Seq, st.Latest.Created
}

// maxRetryWait is the longest a replica waits before fetching again a
// snapshot that could not be fetched for a reason that may pass.
const maxRetryWait = 30 * time.Second

func snapshotOf(m *snapfile.Manifest) PublishedSnapshot {
	d, _ := ParseDate(m.AsOf)
	return PublishedSnapshot{Seq: m.Seq, File: m.File, AsOf: d, SHA256: m.SHA256, Size: m.Size, Created: m.Created}
}

// Publish writes a consistent copy of the data file to the snapshot
// directory of Options.SnapshotDir as snapshot-<seq>.db, then its
// manifest.json (sequence number, as-of date, SHA-256, size), each
// through a temporary file, synced and renamed, and removes the
// snapshots older than the newest Options.SnapshotKeep. The copy is
// taken in one read transaction (bbolt's hot backup): queries go on
// meanwhile. Import calls it after each file when a directory is set.
//
// Publish returns EINVALID when no snapshot directory is configured or
// the Service is a replica, and EINTERNAL when the directory cannot be
// written.
func (s *Service) Publish(ctx context.Context) (*PublishedSnapshot, error) {
	if s.replica != nil || s.snapDir == "" {
		return nil, Errorf(EINVALID, "publishing a snapshot needs a writable data file and a snapshot directory (Options.SnapshotDir, --snapshots)")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	m, err := snapfile.Publish(s.snapDir, s.now(), s.snapKeep, func(w io.Writer) (int64, string, error) {
		n, asOf, err := s.db.Backup(w)
		return n, Date(asOf).String(), err
	})
	if err != nil {
		if cause := systemCause(err); cause != "" {
			return nil, Errorf(EINTERNAL, "publishing a snapshot to %s: %s (%v)", s.snapDir, cause, err)
		}
		return nil, Errorf(EINTERNAL, "publishing a snapshot to %s: %v", s.snapDir, err)
	}
	snap := snapshotOf(m)
	return &snap, nil
}

// replica is the state of a Service that follows a snapshot directory.
type replica struct {
	dir, local string          // the snapshot directory; cache.Dir
	cache      *snapfile.Cache // the private copies
	log        *slog.Logger

	refreshing sync.Mutex // one Refresh at a time
	mu         sync.Mutex // guards status and refused
	status     ReplicaStatus
	refused    *snapfile.Manifest // the last snapshot refused, not fetched again
	// The snapshot whose fetch failed for a reason that may pass, and when
	// the poller fetches it again (refreshing guards them).
	retrySeq  uint64
	retryAt   time.Time
	now       func() time.Time // the Service's clock (Options.Now): drives the backoff
	retryWait time.Duration

	manifestRead func(*snapfile.Manifest) // tests: runs after Refresh reads the manifest

	stop chan struct{}
	done chan struct{}
}

// OpenReplica opens the newest snapshot that the manifest of dir names,
// read-only, as a replica: it copies the snapshot to a private directory
// (bbolt maps the file it reads; a shared volume may not allow that),
// checks its size and SHA-256 and the consistency of its pages
// (storage.CheckFile), and opens the copy. The private directory
// is grocery-replica-<pid>-<digits> under opts.SnapshotCache (the
// system's temporary directory when empty); Close removes it, and
// OpenReplica first removes those that replicas no longer running (killed
// before their Close) left there. It then polls the
// manifest every opts.SnapshotPoll (default 1s; negative: only when
// Refresh is called) and swaps each new snapshot in for the calls that
// start after it; calls under way finish on the snapshot they started on,
// whose file is closed and removed after the last of them.
//
// A replica writes nothing to its file: Import and Publish return
// EINVALID. Keys, accounts and quota counters are those of the Redis at
// opts.RedisURL, which is required: a snapshot's keys would be stale (a
// key revoked on the ingest node would pass until the next snapshot) and
// its quota counters could not be written.
//
// OpenReplica returns EINVALID without opts.RedisURL, ENOTFOUND when dir
// has no manifest, EINVALID when the snapshot it names is damaged or not
// a data file, and the errors of Open.
func OpenReplica(dir string, opts *Options) (*Service, error) {
	return openReplica(dir, opts, redisconn.DefaultPrefix)
}

// openReplica is OpenReplica with the prefix of the keys in Redis (see
// openPrefixed).
func openReplica(dir string, opts *Options, redisPrefix string) (*Service, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.RedisURL == "" {
		return nil, Errorf(EINVALID, "a replica needs Redis (Options.RedisURL, --redis or GROCERY_REDIS_URL) for keys and quota counters: its snapshot is read-only and replaced")
	}
	m, err := snapfile.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Errorf(ENOTFOUND, "no snapshot manifest in %s: publish one from the ingest node first", dir)
	} else if err != nil {
		return nil, Errorf(EINVALID, "%v", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A replica killed before its Close left its copies behind.
	removed, err := snapfile.RemoveStale(opts.SnapshotCache)
	for _, d := range removed {
		log.Info("removed the snapshot cache of a replica that no longer runs", "dir", d)
	}
	if err != nil {
		log.Warn("snapshot cache: removing those of replicas that no longer run", "err", err)
	}
	cache, err := snapfile.NewCache(opts.SnapshotCache)
	if err != nil {
		return nil, Errorf(EINVALID, "snapshot cache: %v", err)
	}
	path := filepath.Join(cache.Dir, m.File)
	if err := snapfile.Fetch(dir, m, path); err != nil {
		cache.Remove()
		return nil, Errorf(EINVALID, "%v", err)
	}
	if err := storage.CheckFile(path); err != nil {
		cache.Remove()
		return nil, Errorf(EINVALID, "snapshot %d (%s): %v", m.Seq, m.File, err)
	}
	ro := *opts
	ro.ReadOnly = true
	s, err := openPrefixed(path, &ro, storage.Options{ReadOnly: true, LockTimeout: opts.LockTimeout}, opts.Now, redisPrefix)
	if err != nil {
		cache.Remove()
		return nil, err
	}
	r := &replica{dir: dir, local: cache.Dir, cache: cache, log: log, now: s.now, status: ReplicaStatus{Snapshot: snapshotOf(m), Latest: snapshotOf(m)}}
	s.replica = r
	if opts.SnapshotPoll >= 0 {
		every := opts.SnapshotPoll
		if every == 0 {
			every = time.Second
		}
		r.stop, r.done = make(chan struct{}), make(chan struct{})
		go r.poll(s, every)
	}
	return s, nil
}

// poll calls Refresh every every until stopPolling; while a snapshot
// cannot be fetched for a reason that may pass, it waits twice as long
// after each failure, up to maxRetryWait (never less than every).
func (r *replica) poll(s *Service, every time.Duration) {
	defer close(r.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		s.refresh(context.Background(), every)
	}
}

// Refresh reads a replica's snapshot manifest and, when it names a newer
// snapshot, fetches, checks and opens it and swaps it in. A snapshot
// whose size or SHA-256 disagrees with the manifest, that is not a data
// file, or whose pages fail bbolt's consistency check (storage.CheckFile:
// every page is read before the swap, while the previous snapshot goes on
// serving) is refused: the replica keeps serving the one it has, logs
// the reason and reports it in ReplicaStatus until a later snapshot is
// taken. A refused snapshot is not fetched again: the replica waits for
// the next sequence number. A snapshot that cannot be fetched for a
// reason that may pass (a manifest seen before its file on a shared
// volume, a full cache disk, a permission error, an unreadable manifest)
// is not refused for good: it is reported the same way, with Retry, and
// fetched again at the next Refresh. A snapshot removed by the
// publisher's retention between the manifest's reading and the copy is
// not refused: the newer one that the manifest now names is taken.
//
// Refresh returns the reason of a refusal as EINVALID (EINVALID too on a
// Service that is not a replica), a reason that may pass as
// EUNAVAILABLE, and nil when there is nothing new.
func (s *Service) Refresh(ctx context.Context) error { return s.refresh(ctx, 0) }

// refresh is Refresh. With a poll interval (the poller's), a snapshot
// whose fetch failed for a reason that may pass is fetched again only
// after a wait that doubles from a second up to maxRetryWait; the
// manifest is read every time, so a newer snapshot is taken at once.
func (s *Service) refresh(ctx context.Context, every time.Duration) error {
	r := s.replica
	if r == nil {
		return Errorf(EINVALID, "not a replica: only a Service from OpenReplica follows snapshots")
	}
	r.refreshing.Lock()
	defer r.refreshing.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		seen := s.now()
		m, err := snapfile.ReadManifest(r.dir)
		if err != nil {
			return r.fail(nil, fmt.Errorf("snapshot manifest: %w", err), true)
		}
		r.mu.Lock()
		r.status.Latest = snapshotOf(m)
		r.mu.Unlock()
		if cur, _ := s.Replica(); m.Seq <= cur.Snapshot.Seq {
			return nil
		}
		if r.manifestRead != nil {
			r.manifestRead(m)
		}
		if r.refused != nil && r.refused.Seq == m.Seq && r.refused.SHA256 == m.SHA256 {
			r.mu.Lock()
			msg := r.status.Refused
			r.mu.Unlock()
			return Errorf(EINVALID, "%s", msg)
		}
		if every > 0 && m.Seq == r.retrySeq && s.now().Before(r.retryAt) {
			r.mu.Lock()
			msg := r.status.Refused
			r.mu.Unlock()
			return Errorf(EUNAVAILABLE, "%s", msg)
		}
		path := filepath.Join(r.local, m.File)
		if err := snapfile.Fetch(r.dir, m, path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if next, nerr := snapfile.ReadManifest(r.dir); nerr == nil && next.Seq > m.Seq {
					continue // pruned after a newer one was published: take that
				}
			}
			var mismatch *snapfile.MismatchError
			return r.fail(m, err, !errors.As(err, &mismatch))
		}
		fetched := s.now()
		// A copy whose bytes match the manifest may still be damaged (the
		// publisher's disk or memory, or a hand on the shared volume):
		// bbolt trusts its pages, and a bad one faults the whole process
		// at the first read. The check reads every page first.
		if err := storage.CheckFile(path); err != nil {
			os.Remove(path)
			return r.fail(m, fmt.Errorf("snapshot %d (%s): %w", m.Seq, m.File, err), !badFile(err))
		}
		checked := s.now()
		old := s.db.Path()
		if err := s.db.Reopen(path); err != nil {
			os.Remove(path)
			return r.fail(m, fmt.Errorf("snapshot %d (%s): %w", m.Seq, m.File, err), !badFile(err))
		}
		// The old copy stays mapped until its last reader ends; removing its
		// name now frees its space then.
		os.Remove(old)
		r.mu.Lock()
		r.status = ReplicaStatus{Snapshot: snapshotOf(m), Latest: r.status.Latest}
		r.refused = nil
		r.mu.Unlock()
		// fetch: the copy and its SHA-256; check: its pages; reopen:
		// opening the copy and swapping it in; the calls that start after
		// serve it.
		r.log.Info("snapshot taken", "seq", m.Seq, "as_of", m.AsOf, "size", m.Size,
			"fetch", fetched.Sub(seen), "check", checked.Sub(fetched), "reopen", s.now().Sub(checked))
		return nil
	}
}

// badFile says whether err, from checking or opening a copy that has the
// manifest's bytes, comes back with the same bytes: only the file
// system's errors (a descriptor or memory limit) may pass; any other (not
// a data file, damaged pages, a format this program does not read, a file
// bbolt finds too small) would not.
func badFile(err error) bool {
	var pe *fs.PathError
	var errno syscall.Errno
	osErr := errors.As(err, &pe) || errors.As(err, &errno)
	return errors.Is(err, storage.ErrNotDataFile) || errors.Is(err, storage.ErrDamaged) || errors.Is(err, storage.ErrFormat) || !osErr
}

// fail records and logs why the newest snapshot, m (nil when the
// manifest itself could not be read), was not taken. Unless retry, m's
// copy disagrees with its manifest and is not fetched again; with retry,
// the reason may pass and the next Refresh fetches it again.
func (r *replica) fail(m *snapfile.Manifest, err error, retry bool) error {
	full := err.Error()
	msg := r.withoutPaths(full)
	r.mu.Lock()
	again, serving := r.status.Refused == msg, r.status.Snapshot.Seq
	r.status.Refused, r.status.Retry = msg, retry
	if !retry {
		r.refused = m
	}
	r.mu.Unlock()
	if retry && m != nil { // the next fetch of m waits twice as long as the last
		if m.Seq != r.retrySeq {
			r.retrySeq, r.retryWait = m.Seq, 0
		}
		r.retryWait = min(max(2*r.retryWait, time.Second), maxRetryWait)
		r.retryAt = r.now().Add(r.retryWait)
	}
	if retry {
		if !again {
			r.log.Warn("snapshot not taken yet; serving the previous one, trying again", "err", full, "serving", serving)
		}
		return Errorf(EUNAVAILABLE, "%s", msg)
	}
	if !again {
		r.log.Error("snapshot refused; serving the previous one", "err", full, "serving", serving)
	}
	return Errorf(EINVALID, "%s", msg)
}

// withoutPaths returns msg with the snapshot and cache directories taken
// out of the file names in it (open /srv/snaps/snapshot-8.db reads open
// snapshot-8.db): ReplicaStatus.Refused is shown by the unauthenticated
// /healthz, which names no path of the host. The log keeps the paths.
func (r *replica) withoutPaths(msg string) string {
	for _, d := range []string{r.local, r.dir} {
		if d == "" {
			continue
		}
		msg = strings.ReplaceAll(msg, d+string(filepath.Separator), "")
		if abs, err := filepath.Abs(d); err == nil && abs != d {
			msg = strings.ReplaceAll(msg, abs+string(filepath.Separator), "")
		}
		msg = strings.ReplaceAll(msg, d, "the snapshot directory")
	}
	return msg
}

// Replica returns what a replica serves and what it last refused, and
// false for a Service that is not a replica.
func (s *Service) Replica() (ReplicaStatus, bool) {
	r := s.replica
	if r == nil {
		return ReplicaStatus{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, true
}

// stopPolling stops the poller.
func (r *replica) stopPolling() {
	if r.stop != nil {
		close(r.stop)
		<-r.done
		r.stop = nil
	}
}
