package grocery

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/answercache"
	"github.com/grocerydata/grocery/grocery/internal/replica"
	"github.com/grocerydata/grocery/grocery/internal/search"
	snapfile "github.com/grocerydata/grocery/grocery/internal/snapshot"
	"github.com/grocerydata/grocery/internal/access"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/extsort"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
)

// Service is the grocery data service over one data file: every query,
// write and rule of the product goes through it. It is safe for
// concurrent use.
type Service struct {
	db     *storage.DB
	now    func() time.Time
	bolt   *access.Bolt // the data file's keys and meter, even with a shared store
	access access.Store // bolt, or the shared store's keys
	alerts alertStore
	idem   idemstore.Store // idempotency records, where the alert rules are
	shared SharedStore     // Options.Shared; nil with the data file's stores

	signalBufs sync.Pool // of *signalBufs, reused by Signals

	snapDir   string            // publish a snapshot here after each import
	snapKeep  int               // snapshots kept in snapDir
	publishMu sync.Mutex        // one Publish at a time
	replica   *replica.Follower // nil unless OpenReplica

	log *slog.Logger // Options.Logger; may be nil
	// alertsMu serializes writes (with the
	// evaluation after their commit) and the evaluations that clear the
	// file's alerts owed mark (lockAlerts).
	alertsMu   sync.Mutex
	settleStop func()        // cancels and waits for settleOwedAlerts; nil when none runs
	settled    chan struct{} // closed when settleOwedAlerts ends; nil when none runs

	hooks       *webhookHooks      // webhook options and delivery worker
	dataVersion atomic.Uint64      // DataVersion
	answers     *answercache.Cache // Cached
	warm        *answerWarmer      // nil unless Options.WarmAnswers
	searchIndex search.Cache       // SearchStores' totals and stores, per data version

	batchWritten func(through Date) // called as each batch of an import commits; set by tests only
}

// Open opens the data file at path, creating it unless opts.ReadOnly.
// It returns ECONFLICT when another process holds the file for longer than
// opts.LockTimeout, ENOTFOUND when a read-only open finds no file, and
// EINVALIDARGUMENT when the file is not a grocery data file of this version.
// With opts.Shared it returns EINVALIDARGUMENT for alert data in the shared
// store of another format version, or alert rules in the file that cannot
// be copied to it (see Options.Shared), and EUNAVAILABLE when the shared
// store does not answer.
func Open(path string, opts *Options) (*Service, error) {
	if opts == nil {
		opts = &Options{}
	}
	return open(path, opts, storage.Options{ReadOnly: opts.ReadOnly, LockTimeout: opts.LockTimeout, Preload: opts.Preload}, opts.Now)
}

func open(path string, opts *Options, so storage.Options, now func() time.Time) (*Service, error) {
	if !so.ReadOnly {
		so.Upgrade = upgradeFormat(context.Background())
		so.StoreSource = StoreSource
	}
	db, err := storage.Open(path, so)
	if err != nil && opts.Shared != nil {
		opts.Shared.Close()
	}
	switch {
	case errors.Is(err, storage.ErrLocked):
		return nil, Errorf(ECONFLICT, "data file %s is in use by another process (a running server?): stop it, or open another file (a copy, or a demo data file of your own); a program can also ask the running server over REST or MCP", path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, Errorf(ENOTFOUND, "no data file at %s", path)
	case errors.Is(err, storage.ErrNotDataFile):
		return nil, Errorf(EINVALIDARGUMENT, "%s is not a grocery data file", path)
	case errors.Is(err, storage.ErrFormat):
		return nil, Errorf(EINVALIDARGUMENT, "%s: %s", path, strings.TrimPrefix(err.Error(), "storage: "))
	case err != nil:
		return nil, Errorf(EINVALIDARGUMENT, "cannot open data file: %v", err)
	}
	if now == nil {
		now = time.Now
	}
	if opts.KeyPrefix != "" && !validPrefix(opts.KeyPrefix) {
		db.Close()
		closeShared(opts)
		return nil, Errorf(EINVALIDARGUMENT, "key prefix %q: want 1 to 16 lowercase letters or digits", opts.KeyPrefix)
	}
	s := &Service{db: db, now: now, log: opts.Logger, shared: opts.Shared}
	answerBytes := opts.AnswerCacheBytes
	if answerBytes <= 0 {
		answerBytes = DefaultAnswerCacheBytes
	}
	s.answers = answercache.New(answerBytes)
	s.newDataVersion()
	if !so.ReadOnly {
		s.snapDir, s.snapKeep = opts.SnapshotDir, opts.SnapshotKeep
		s.removeOrphans()
	}
	s.hooks = newWebhookHooks(opts.Webhooks)
	s.alerts = alertStore{st: alertstore.Bolt{DB: db}, hooks: s.hooks}
	s.idem = idemstore.Bolt{DB: db}
	if !so.ReadOnly {
		if err := (alertstore.Bolt{DB: db}).EnsureIDKey(); err != nil {
			db.Close()
			closeShared(opts)
			return nil, Errorf(EINVALIDARGUMENT, "cannot open data file: %v", err)
		}
	}
	bolt, err := access.OpenBolt(db, s.accessConfig(opts), access.BoltConfig{ReadOnly: so.ReadOnly, FlushInterval: opts.FlushInterval, Cause: fault.SystemCause})
	if err != nil {
		db.Close()
		closeShared(opts)
		return nil, fromFault(err)
	}
	s.bolt, s.access = bolt, bolt
	if opts.Shared != nil {
		if err := s.openShared(db, opts, so.ReadOnly); err != nil {
			s.Close()
			return nil, err
		}
	}
	if !so.ReadOnly {
		s.startWebhooks()
		s.settleOwedAlerts()
	}
	if opts.WarmAnswers {
		s.warm = &answerWarmer{stop: make(chan struct{})}
		s.warmAnswers()
	}
	return s, nil
}

// openShared opens the stores of opts.Shared in place of the data file's:
// keys and quota, alerts and webhooks, idempotency records. A writable
// file's rules and events are copied to it the first time.
func (s *Service) openShared(db *storage.DB, opts *Options, readOnly bool) error {
	sh := opts.Shared
	acc, err := sh.OpenAccess(s.accessConfig(opts))
	if err != nil {
		return fromFault(err)
	}
	s.access = acc // Close closes it, and with it the shared store
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	alerts, err := sh.OpenAlerts(ctx)
	cancel()
	if err != nil {
		return fromFault(err)
	}
	s.alerts, s.idem = alertStore{st: alerts, hooks: s.hooks}, sh.Idempotency()
	if readOnly {
		return nil
	}
	if err := sh.CopyFile(db, s.log); err != nil {
		return fromFault(err)
	}
	s.warnFileWebhooks()
	return nil
}

// closeShared closes the shared store of a failed Open.
func closeShared(opts *Options) {
	if opts.Shared != nil {
		opts.Shared.Close()
	}
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
	cause, since := s.bolt.Failing()
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

// Close stops metering, writes the last quota counts and closes the data
// file.
func (s *Service) Close() error {
	var err error
	s.stopWarming()
	s.stopWebhooks()
	if s.settleStop != nil {
		s.settleStop()
		s.settleStop = nil
	}
	if s.replica != nil {
		s.replica.Stop()
		defer s.replica.RemoveCache() // after the file is closed
	}
	if s.access != s.bolt {
		err = s.access.Close()
	}
	if s.shared != nil {
		err = errors.Join(err, s.shared.Close())
	}
	return errors.Join(err, s.bolt.Close(), s.db.Close())
}

// Path returns the data file's path.
func (s *Service) Path() string { return s.db.Path() }

// today returns the clock's date.
func (s *Service) today() Date { return DateOf(s.now()) }

// warnFileWebhooks logs, when a data file holding webhook endpoints opens
// with a shared store, that they are not served: the endpoints in the shared store are.
func (s *Service) warnFileWebhooks() {
	n := 0
	s.db.View(func(tx *storage.Tx) error { n = tx.WebhookCount(); return nil })
	if n > 0 && s.log != nil {
		s.log.Warn("the data file holds webhook endpoints registered without Redis; with Redis they are not served: register them again through a server on Redis", "endpoints", n)
	}
}
