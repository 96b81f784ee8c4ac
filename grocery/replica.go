package grocery

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/replica"
	snapfile "github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/internal/fault"
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
	// 30 seconds); it still reads the manifest at every poll, and takes
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
// Publish returns EINVALIDARGUMENT when no snapshot directory is configured or
// the Service is a replica, and EINTERNAL when the directory cannot be
// written.
func (s *Service) Publish(ctx context.Context) (*PublishedSnapshot, error) {
	if s.replica != nil || s.snapDir == "" {
		return nil, Errorf(EINVALIDARGUMENT, "publishing a snapshot needs a writable data file and a snapshot directory (Options.SnapshotDir, --snapshots)")
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
		if cause := fault.SystemCause(err); cause != "" {
			return nil, Errorf(EINTERNAL, "publishing a snapshot to %s: %s (%v)", s.snapDir, cause, err)
		}
		return nil, Errorf(EINTERNAL, "publishing a snapshot to %s: %v", s.snapDir, err)
	}
	snap := snapshotOf(m)
	return &snap, nil
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
// EINVALIDARGUMENT. Keys, accounts and quota counters are those of
// opts.Shared (such as redisstore's Redis), which is required: a snapshot's keys would be stale (a
// key revoked on the ingest node would pass until the next snapshot) and
// its quota counters could not be written.
//
// OpenReplica returns EINVALIDARGUMENT without opts.Shared, ENOTFOUND when dir
// has no manifest, EINVALIDARGUMENT when the snapshot it names is damaged or not
// a data file, and the errors of Open.
func OpenReplica(dir string, opts *Options) (*Service, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Shared == nil {
		return nil, Errorf(EINVALIDARGUMENT, "a replica needs a shared store such as Redis (Options.Shared, --redis or GROCERY_REDIS_URL) for keys and quota counters: its snapshot is read-only and replaced")
	}
	f, path, err := replica.Prepare(dir, opts.SnapshotCache, opts.Logger)
	if err != nil {
		opts.Shared.Close()
		return nil, fromFault(err)
	}
	ro := *opts
	ro.ReadOnly = true
	s, err := open(path, &ro, storage.Options{ReadOnly: true, LockTimeout: opts.LockTimeout, Preload: opts.Preload}, opts.Now)
	if err != nil {
		f.RemoveCache()
		return nil, err
	}
	s.replica = f
	every := opts.SnapshotPoll
	if every == 0 {
		every = time.Second
	}
	f.Start(s.now, s.swap, every)
	return s, nil
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
// Refresh returns the reason of a refusal as EINVALIDARGUMENT (EINVALIDARGUMENT too on a
// Service that is not a replica), a reason that may pass as
// EUNAVAILABLE, and nil when there is nothing new.
func (s *Service) Refresh(ctx context.Context) error { return s.refresh(ctx, 0) }

// refresh is Refresh with the poller's interval (see replica.Follower.Refresh).
func (s *Service) refresh(ctx context.Context, every time.Duration) error {
	if s.replica == nil {
		return Errorf(EINVALIDARGUMENT, "not a replica: only a Service from OpenReplica follows snapshots")
	}
	return fromFault(s.replica.Refresh(ctx, every))
}

// swap opens the copy at path and serves it to the calls that start
// after; calls under way finish on the file they started on.
func (s *Service) swap(path string) error {
	old := s.db.Path()
	if err := s.db.Reopen(path); err != nil {
		return err
	}
	s.dataWritten()
	// The old copy stays mapped until its last reader ends; removing its
	// name now frees its space then.
	os.Remove(old)
	return nil
}

// Replica returns what a replica serves and what it last refused, and
// false for a Service that is not a replica.
func (s *Service) Replica() (ReplicaStatus, bool) {
	if s.replica == nil {
		return ReplicaStatus{}, false
	}
	st := s.replica.Status()
	return ReplicaStatus{Snapshot: snapshotOf(&st.Snapshot), Refused: st.Refused, Retry: st.Retry, Latest: snapshotOf(&st.Latest)}, true
}
