// Package replica follows a snapshot directory: it fetches the newest
// snapshot its manifest names into a private cache, checks it, and hands
// it to the caller to swap in; a poller does so again at an interval,
// backing off while a fetch fails for a reason that may pass.
//
// It knows snapshots (package snapshot) and data files (package storage),
// never what the data means: the caller opens the copy and swaps it in.
package replica

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// MaxRetryWait is the longest a follower waits before fetching again a
// snapshot that could not be fetched for a reason that may pass.
const MaxRetryWait = 30 * time.Second

// Status is what a follower serves and what it last refused.
type Status struct {
	Snapshot snapshot.Manifest // the snapshot served
	Latest   snapshot.Manifest // the newest the manifest named at the last read
	Refused  string            // why the newest was not taken, without the directories' paths
	Retry    bool              // Refused may pass: the snapshot is fetched again
}

// Follower is the state of a data file that follows a snapshot directory.
type Follower struct {
	dir   string          // the snapshot directory
	cache *snapshot.Cache // the private copies
	log   *slog.Logger

	now  func() time.Time        // the caller's clock: drives the backoff
	swap func(path string) error // opens the copy at path and serves it

	refreshing sync.Mutex // one Refresh at a time
	mu         sync.Mutex // guards status
	status     Status
	refused    *snapshot.Manifest // the last snapshot refused, not fetched again
	// The snapshot whose fetch failed for a reason that may pass, and when
	// the poller fetches it again (refreshing guards them).
	retrySeq  uint64
	retryAt   time.Time
	retryWait time.Duration

	// AfterManifest, when set (by tests), runs after Refresh reads the
	// manifest of a newer snapshot.
	AfterManifest func(*snapshot.Manifest)

	stop chan struct{}
	done chan struct{}
}

// Prepare reads dir's manifest, removes the caches under cacheRoot that
// followers no longer running left there, makes a new cache, and copies
// and checks the snapshot the manifest names into it. It returns the
// follower, not yet started, and the path of the copy. Its errors are
// *fault.Error: NotFound when dir has no manifest, Invalid when the
// snapshot is damaged or not a data file.
func Prepare(dir, cacheRoot string, log *slog.Logger) (*Follower, string, error) {
	m, err := snapshot.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fault.New(fault.NotFound, "no snapshot manifest in %s: publish one from the ingest node first", dir)
	} else if err != nil {
		return nil, "", fault.New(fault.Invalid, "%v", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A follower killed before its Close left its copies behind.
	removed, err := snapshot.RemoveStale(cacheRoot)
	for _, d := range removed {
		log.Info("removed the snapshot cache of a replica that no longer runs", "dir", d)
	}
	if err != nil {
		log.Warn("snapshot cache: removing those of replicas that no longer run", "err", err)
	}
	cache, err := snapshot.NewCache(cacheRoot)
	if err != nil {
		return nil, "", fault.New(fault.Invalid, "snapshot cache: %v", err)
	}
	path := filepath.Join(cache.Dir, m.File)
	if err := snapshot.Fetch(dir, m, path); err != nil {
		cache.Remove()
		return nil, "", fault.New(fault.Invalid, "%v", err)
	}
	if err := storage.CheckFile(path); err != nil {
		cache.Remove()
		return nil, "", fault.New(fault.Invalid, "snapshot %d (%s): %v", m.Seq, m.File, err)
	}
	f := &Follower{dir: dir, cache: cache, log: log, status: Status{Snapshot: *m, Latest: *m}}
	return f, path, nil
}

// Start makes the follower take its time from now and swap each new
// snapshot in with swap, then polls the manifest every every (none when
// negative: only when Refresh is called).
func (f *Follower) Start(now func() time.Time, swap func(path string) error, every time.Duration) {
	f.now, f.swap = now, swap
	if every >= 0 {
		f.stop, f.done = make(chan struct{}), make(chan struct{})
		go f.poll(every)
	}
}

// CacheDir returns the directory of the private copies.
func (f *Follower) CacheDir() string { return f.cache.Dir }

// RetryWait returns how long the poller waits before fetching again the
// snapshot whose fetch failed for a reason that may pass.
func (f *Follower) RetryWait() time.Duration {
	f.refreshing.Lock()
	defer f.refreshing.Unlock()
	return f.retryWait
}

// Status returns what the follower serves and what it last refused.
func (f *Follower) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// Stop stops the poller.
func (f *Follower) Stop() {
	if f.stop != nil {
		close(f.stop)
		<-f.done
		f.stop = nil
	}
}

// RemoveCache removes the private copies; call it once the file served
// is closed.
func (f *Follower) RemoveCache() error { return f.cache.Remove() }

// poll calls Refresh every every until Stop; while a snapshot
// cannot be fetched for a reason that may pass, it waits twice as long
// after each failure, up to MaxRetryWait (never less than every).
func (f *Follower) poll(every time.Duration) {
	defer close(f.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		f.Refresh(context.Background(), every)
	}
}

// Refresh reads the manifest and, when it names a newer snapshot,
// fetches, checks and swaps it in. With a poll interval (the poller's),
// a snapshot whose fetch failed for a reason that may pass is fetched
// again only after a wait that doubles from a second up to MaxRetryWait;
// the manifest is read every time, so a newer snapshot is taken at once.
// It returns a refusal as a fault.Invalid, a reason that may pass as a
// fault.Unavailable, and nil when there is nothing new.
func (f *Follower) Refresh(ctx context.Context, every time.Duration) error {
	f.refreshing.Lock()
	defer f.refreshing.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		seen := f.now()
		m, err := snapshot.ReadManifest(f.dir)
		if err != nil {
			return f.fail(nil, fmt.Errorf("snapshot manifest: %w", err), mayPass)
		}
		f.mu.Lock()
		f.status.Latest = *m
		serving := f.status.Snapshot.Seq
		f.mu.Unlock()
		if m.Seq <= serving {
			return nil
		}
		if f.AfterManifest != nil {
			f.AfterManifest(m)
		}
		if f.refused != nil && f.refused.Seq == m.Seq && f.refused.SHA256 == m.SHA256 {
			return fault.New(fault.Invalid, "%s", f.Status().Refused)
		}
		if every > 0 && m.Seq == f.retrySeq && f.now().Before(f.retryAt) {
			return fault.New(fault.Unavailable, "%s", f.Status().Refused)
		}
		path := filepath.Join(f.cache.Dir, m.File)
		if err := snapshot.Fetch(f.dir, m, path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if next, nerr := snapshot.ReadManifest(f.dir); nerr == nil && next.Seq > m.Seq {
					continue // pruned after a newer one was published: take that
				}
			}
			var mismatch *snapshot.MismatchError
			return f.fail(m, err, outcomeOf(!errors.As(err, &mismatch)))
		}
		fetched := f.now()
		// A copy whose bytes match the manifest may still be damaged (the
		// publisher's disk or memory, or a hand on the shared volume):
		// bbolt trusts its pages, and a bad one faults the whole process
		// at the first read. The check reads every page first.
		if err := storage.CheckFile(path); err != nil {
			os.Remove(path)
			return f.fail(m, fmt.Errorf("snapshot %d (%s): %w", m.Seq, m.File, err), outcomeOf(!badFile(err)))
		}
		checked := f.now()
		if err := f.swap(path); err != nil {
			os.Remove(path)
			return f.fail(m, fmt.Errorf("snapshot %d (%s): %w", m.Seq, m.File, err), outcomeOf(!badFile(err)))
		}
		f.mu.Lock()
		f.status = Status{Snapshot: *m, Latest: f.status.Latest}
		f.refused = nil
		f.mu.Unlock()
		// fetch: the copy and its SHA-256; check: its pages; reopen:
		// opening the copy and swapping it in; the calls that start after
		// serve it.
		f.log.Info("snapshot taken", "seq", m.Seq, "as_of", m.AsOf, "size", m.Size,
			"fetch", fetched.Sub(seen), "check", checked.Sub(fetched), "reopen", f.now().Sub(checked))
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

// outcome is what a failed fetch means for the snapshot.
type outcome int

const (
	refusedForGood outcome = iota // the copy disagrees with its manifest: not fetched again
	mayPass                       // the reason may pass: fetched again
)

// outcomeOf returns mayPass when retry, refusedForGood otherwise.
func outcomeOf(retry bool) outcome {
	if retry {
		return mayPass
	}
	return refusedForGood
}

// fail records and logs why the newest snapshot, m (nil when the
// manifest itself could not be read), was not taken, and returns the
// reason as a fault: Invalid when refused for good, Unavailable when it
// may pass (the next Refresh fetches m again).
func (f *Follower) fail(m *snapshot.Manifest, err error, o outcome) error {
	retry := o == mayPass
	full := err.Error()
	msg := f.withoutPaths(full)
	f.mu.Lock()
	again, serving := f.status.Refused == msg, f.status.Snapshot.Seq
	f.status.Refused, f.status.Retry = msg, retry
	if !retry {
		f.refused = m
	}
	f.mu.Unlock()
	if retry && m != nil { // the next fetch of m waits twice as long as the last
		if m.Seq != f.retrySeq {
			f.retrySeq, f.retryWait = m.Seq, 0
		}
		f.retryWait = min(max(2*f.retryWait, time.Second), MaxRetryWait)
		f.retryAt = f.now().Add(f.retryWait)
	}
	if retry {
		if !again {
			f.log.Warn("snapshot not taken yet; serving the previous one, trying again", "err", full, "serving", serving)
		}
		return fault.New(fault.Unavailable, "%s", msg)
	}
	if !again {
		f.log.Error("snapshot refused; serving the previous one", "err", full, "serving", serving)
	}
	return fault.New(fault.Invalid, "%s", msg)
}

// withoutPaths returns msg with the snapshot and cache directories taken
// out of the file names in it (open /srv/snaps/snapshot-8.db reads open
// snapshot-8.db): Status.Refused is shown by the unauthenticated
// /healthz, which names no path of the host. The log keeps the paths.
func (f *Follower) withoutPaths(msg string) string {
	for _, d := range []string{f.cache.Dir, f.dir} {
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
