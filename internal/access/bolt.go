package access

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// Bolt is the Store of the data file: the Keyring in memory, the meter
// flushing counts to the file (meter.go, journal.go).
type Bolt struct {
	db    *storage.DB
	now   func() time.Time
	ring  *Keyring
	meter *meter // nil when read-only

	stopFlush chan struct{}
	flushDone chan error
}

// BoltConfig is what OpenBolt needs beside Config.
type BoltConfig struct {
	ReadOnly      bool
	FlushInterval time.Duration      // how often the meter flushes; 0 for a second
	Cause         func(error) string // names a file system error in an operator's words, or ""
}

// OpenBolt loads the Keyring of db (making its key secret when the file
// has none and is writable) and, for a writable file, applies the usage
// journal a crash left and starts the meter's flusher. It returns a
// fault.Invalid when the journal cannot be read.
func OpenBolt(db *storage.DB, c Config, bc BoltConfig) (*Bolt, error) {
	var secret []byte
	get := func(tx *storage.Tx) (err error) { secret, err = tx.KeySecret(); return err }
	if err := db.View(get); err != nil {
		return nil, err
	}
	if secret == nil && !bc.ReadOnly {
		if err := db.Update(get); err != nil {
			return nil, err
		}
	}
	b := &Bolt{db: db, now: c.Now, ring: NewKeyring(c.KeyPrefix, c.Plans, secret)}
	// Counts a crash left in the usage journal: written to the data file
	// (then the journal is removed), or for a read-only open, only read.
	jpath, jid := journalPath(db.Path()), journalID(secret)
	j, err := readJournal(jpath, jid)
	if err != nil {
		return nil, fault.New(fault.Invalid, "%v: remove it to drop the counts it keeps", err)
	}
	if j != nil && !bc.ReadOnly {
		if err := db.Update(func(tx *storage.Tx) error { return applyJournal(tx, j) }); err != nil {
			return nil, err
		}
		if err := os.Remove(jpath); err != nil {
			return nil, err
		}
		j = nil
	}
	window := MonthOf(b.now())
	if err := db.View(func(tx *storage.Tx) error { return b.ring.load(tx, window, j) }); err != nil {
		return nil, err
	}
	if bc.ReadOnly {
		return b, nil
	}
	interval := bc.FlushInterval
	if interval <= 0 {
		interval = time.Second
	}
	cause := bc.Cause
	if cause == nil {
		cause = func(error) string { return "" }
	}
	b.meter = &meter{db: db, ring: b.ring, journal: jpath, journalID: jid, now: c.Now, cause: cause, log: c.Log}
	b.stopFlush, b.flushDone = make(chan struct{}), make(chan error, 1)
	go b.meter.run(interval, b.stopFlush, b.flushDone)
	return b, nil
}

// Close stops the flusher after a last flush, which waits for the write
// transaction if need be, and returns that flush's error.
func (b *Bolt) Close() error {
	if b.stopFlush == nil {
		return nil
	}
	close(b.stopFlush)
	err := <-b.flushDone
	b.stopFlush = nil
	return err
}

// Metering reports whether the store charges calls: false for a data file
// opened read-only.
func (b *Bolt) Metering() bool { return b.meter != nil }

// Failing returns the cause of the meter's failing flushes and since when,
// or "" when the last one worked (or the store does not meter).
func (b *Bolt) Failing() (string, time.Time) {
	if b.meter == nil {
		return "", time.Time{}
	}
	return b.meter.failing()
}

// Tick flushes as the flusher does each interval, without waiting for the
// write transaction, and records the outcome for Failing.
func (b *Bolt) Tick() {
	if b.meter != nil {
		b.meter.tick()
	}
}

// AccountExists reports whether the Keyring holds the account.
func (b *Bolt) AccountExists(ctx context.Context, account string) (bool, error) {
	b.ring.mu.RLock()
	_, ok := b.ring.accounts[account]
	b.ring.mu.RUnlock()
	return ok, nil
}

// Plans returns the plans keys can be created on.
func (b *Bolt) Plans() []Plan { return slices.Clone(b.ring.plans) }

var _ Store = (*Bolt)(nil)

// Flush writes the counts changed since the last flush, as the flusher
// does, without waiting for the write transaction (the journal keeps them
// meanwhile), and returns its error without recording it for Failing.
func (b *Bolt) Flush() error {
	if b.meter == nil {
		return nil
	}
	return b.meter.flush(unlessBusy)
}
