package grocery

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/extsort"
	snapfile "github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/storage"
)

// Service is the grocery data service over one data file: every query,
// write and rule of the product goes through it. It is safe for
// concurrent use.
type Service struct {
	db      *storage.DB
	now     func() time.Time
	keyring *keyring
	meter   *meter // nil when read-only
	access  accessStore
	alerts  alertStore

	stopFlush chan struct{}
	flushDone chan error

	signalBufs sync.Pool // of *signalBufs, reused by Signals

	snapDir   string     // publish a snapshot here after each import
	snapKeep  int        // snapshots kept in snapDir
	publishMu sync.Mutex // one Publish at a time
	replica   *replica   // nil unless OpenReplica

	log *slog.Logger // Options.Logger; may be nil
	// alertsMu, with rules in Redis, serializes writes (with the
	// evaluation after their commit) and the evaluations that clear the
	// file's alerts owed mark (lockAlerts).
	alertsMu   sync.Mutex
	settleStop func() // cancels and waits for settleOwedAlerts; nil when none runs
}

// Open opens the data file at path, creating it unless opts.ReadOnly.
// It returns ECONFLICT when another process holds the file for longer than
// opts.LockTimeout, ENOTFOUND when a read-only open finds no file, and
// EINVALID when the file is not a grocery data file of this version.
// With opts.RedisURL it returns EINVALID for a malformed URL, alert data
// in Redis of another format version, or alert rules in the file that
// cannot be copied to Redis (see Options.RedisURL), and EUNAVAILABLE when
// Redis does not answer.
func Open(path string, opts *Options) (*Service, error) {
	if opts == nil {
		opts = &Options{}
	}
	return open(path, opts, storage.Options{ReadOnly: opts.ReadOnly, LockTimeout: opts.LockTimeout}, opts.Now)
}

func open(path string, opts *Options, so storage.Options, now func() time.Time) (*Service, error) {
	if !so.ReadOnly {
		clock := now
		if clock == nil {
			clock = time.Now
		}
		so.Upgrade = upgradeFormat3(context.Background(), clock())
	}
	db, err := storage.Open(path, so)
	switch {
	case errors.Is(err, storage.ErrLocked):
		return nil, Errorf(ECONFLICT, "data file %s is in use by another process (a running server?)", path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, Errorf(ENOTFOUND, "no data file at %s", path)
	case errors.Is(err, storage.ErrNotDataFile):
		return nil, Errorf(EINVALID, "%s is not a grocery data file", path)
	case errors.Is(err, storage.ErrFormat):
		return nil, Errorf(EINVALID, "%s: %s", path, strings.TrimPrefix(err.Error(), "storage: "))
	case err != nil:
		return nil, Errorf(EINVALID, "cannot open data file: %v", err)
	}
	if now == nil {
		now = time.Now
	}
	if opts.KeyPrefix != "" && !validPrefix(opts.KeyPrefix) {
		db.Close()
		return nil, Errorf(EINVALID, "key prefix %q: want 1 to 16 lowercase letters or digits", opts.KeyPrefix)
	}
	s := &Service{db: db, now: now, log: opts.Logger}
	if !so.ReadOnly {
		s.snapDir, s.snapKeep = opts.SnapshotDir, opts.SnapshotKeep
		s.removeOrphans()
	}
	s.access, s.alerts = boltAccess{s}, boltAlerts{s}
	if err := s.start(opts, so.ReadOnly); err != nil {
		db.Close()
		return nil, err
	}
	if opts.RedisURL != "" {
		ra, err := openRedis(opts.RedisURL, s, opts.Plans, opts.KeyPrefix)
		if err != nil {
			s.Close()
			return nil, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		alerts, err := openAlerts(ctx, ra)
		cancel()
		if err != nil {
			ra.close()
			s.Close()
			return nil, err
		}
		s.access, s.alerts = ra, alerts
		if !so.ReadOnly {
			if err := s.copyFileAlerts(alerts); err != nil {
				s.Close()
				return nil, err
			}
			s.settleOwedAlerts()
		}
	}
	return s, nil
}

// Health is what a Service reports of its work in the background, for a
// server's /healthz: nothing in it names a path.
type Health struct {
	// UsageNotSaved is the cause of failing flushes of the usage counts
	// (to the data file, or to the usage journal while an import holds
	// the file), such as "the disk is full (no space left on device)";
	// empty when the last flush worked. While it fails, a crash loses
	// the calls counted since the last save. The log has the system's
	// error, said once per cause.
	UsageNotSaved string `json:"usage_not_saved,omitempty"`
	// UsageNotSavedSince is when the failing flushes began.
	UsageNotSavedSince time.Time `json:"usage_not_saved_since,omitzero"`
}

// Health returns what the Service reports of its work in the background.
func (s *Service) Health() Health {
	if s.meter == nil {
		return Health{}
	}
	cause, since := s.meter.failing()
	if cause == "" {
		return Health{}
	}
	return Health{UsageNotSaved: cause, UsageNotSavedSince: since}
}

// removeOrphans removes, when a writable file opens, what a process
// killed mid-way left behind: the snapshot directory's temporary files
// (only the file's holder publishes there) and the temporary files of
// imports whose process is gone. It logs what it removes; a failure is
// logged and changes nothing else.
func (s *Service) removeOrphans() {
	log := s.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if s.snapDir != "" {
		removed, err := snapfile.RemoveTemps(s.snapDir)
		for _, name := range removed {
			log.Info("removed a snapshot's temporary file left by a publisher that was stopped", "file", filepath.Join(s.snapDir, name))
		}
		if err != nil {
			log.Warn("snapshot directory: removing temporary files left by a stopped publisher", "err", err)
		}
	}
	removed, err := extsort.RemoveStale()
	for _, path := range removed {
		log.Info("removed the temporary file of an import whose process is gone", "file", path)
	}
	if err != nil {
		log.Warn("temporary directory: removing the files of imports whose process is gone", "err", err)
	}
}

// start loads the keyring and, for a writable file, starts the meter's
// flusher.
func (s *Service) start(opts *Options, readOnly bool) error {
	var secret []byte
	get := func(tx *storage.Tx) (err error) { secret, err = tx.KeySecret(); return err }
	if err := s.db.View(get); err != nil {
		return err
	}
	if secret == nil && !readOnly {
		if err := s.db.Update(get); err != nil {
			return err
		}
	}
	s.keyring = newKeyring(opts.KeyPrefix, opts.Plans, secret)
	// Counts a crash left in the usage journal: written to the data file
	// (then the journal is removed), or for a read-only open, only read.
	jpath, jid := journalPath(s.db.Path()), journalID(secret)
	j, err := readJournal(jpath, jid)
	if err != nil {
		return Errorf(EINVALID, "%v: remove it to drop the counts it keeps", err)
	}
	if j != nil && !readOnly {
		if err := s.db.Update(func(tx *storage.Tx) error { return applyJournal(tx, j) }); err != nil {
			return err
		}
		if err := os.Remove(jpath); err != nil {
			return err
		}
		j = nil
	}
	window := monthOf(s.now())
	if err := s.db.View(func(tx *storage.Tx) error { return s.keyring.load(tx, window, j) }); err != nil {
		return err
	}
	if readOnly {
		return nil
	}
	interval := opts.FlushInterval
	if interval <= 0 {
		interval = time.Second
	}
	s.meter = &meter{db: s.db, ring: s.keyring, journal: jpath, journalID: jid, log: opts.Logger}
	s.stopFlush, s.flushDone = make(chan struct{}), make(chan error, 1)
	go s.meter.run(interval, s.stopFlush, s.flushDone)
	return nil
}

// validPrefix reports whether p can start an API key.
func validPrefix(p string) bool {
	if len(p) == 0 || len(p) > 16 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Close stops metering, writes the last quota counts and closes the data
// file.
func (s *Service) Close() error {
	var err error
	if s.settleStop != nil {
		s.settleStop()
		s.settleStop = nil
	}
	if s.replica != nil {
		s.replica.stopPolling()
		defer s.replica.cache.Remove() // after the file is closed
	}
	if s.stopFlush != nil {
		close(s.stopFlush)
		err = <-s.flushDone
		s.stopFlush = nil
	}
	return errors.Join(err, s.access.close(), s.db.Close())
}

// Path returns the data file's path.
func (s *Service) Path() string { return s.db.Path() }

// today returns the clock's date.
func (s *Service) today() Date { return DateOf(s.now()) }
