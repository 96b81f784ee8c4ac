package storage

import (
	"encoding/binary"
	"io"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// handle is one open bbolt file with a count of its users: the DB holds
// one reference while the handle is current, and every transaction holds
// one while it runs. The last release closes the file, so a file that
// Reopen replaced stays open until the transactions that hold it end.
type handle struct {
	bolt   *bolt.DB
	asOf   atomic.Pointer[asOfAt] // the as-of date of the latest committed state a reader read
	refs   atomic.Int64
	closed chan struct{} // closed once bolt is closed
	err    error         // bolt's Close error, set before closed
	// legacyOffers is set while the file's offers are those of format 4
	// or 5 (an upgrade reads them, then rebuilds them).
	legacyOffers atomic.Bool
	dicts        sharedDicts // the SKU lists read transactions decoded
}

func newHandle(b *bolt.DB) *handle {
	h := &handle{bolt: b, closed: make(chan struct{})}
	h.refs.Store(1)
	b.View(func(tx *bolt.Tx) error {
		if m := tx.Bucket(bucketMeta); m != nil {
			if v := m.Get(keyFormat); len(v) == 4 && binary.BigEndian.Uint32(v) < 6 {
				h.legacyOffers.Store(true)
			}
		}
		return nil
	})
	return h
}

// tryRef takes a reference unless the handle is already being closed.
func (h *handle) tryRef() bool {
	for {
		n := h.refs.Load()
		if n <= 0 {
			return false
		}
		if h.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release drops a reference; the last one closes the file.
func (h *handle) release() {
	if h.refs.Add(-1) == 0 {
		h.err = h.bolt.Close()
		close(h.closed)
	}
}

// acquire returns the current handle with a reference taken, or nil once
// the DB is closed.
func (db *DB) acquire() *handle {
	for {
		h := db.cur.Load()
		if h == nil {
			return nil
		}
		if h.tryRef() {
			return h
		}
		// h was replaced and its last user closed it between the Load
		// and tryRef: the new one is current.
	}
}

// with runs fn on the current file, holding it open until fn returns.
func (db *DB) with(fn func(*handle) error) error {
	h := db.acquire()
	if h == nil {
		return bolterrors.ErrDatabaseNotOpen
	}
	defer h.release()
	return fn(h)
}

// Reopen opens the data file at path read-only (checking its format as a
// read-only Open does) and makes it the DB's file for every transaction
// that starts from now on. Transactions under way keep the file they
// started on, which is closed when the last of them ends, so a reader
// never sees part of one file and part of the other. When path cannot be
// opened, Reopen returns the error (ErrNotDataFile, ErrFormat or the
// file system's) and the DB keeps its file.
//
// Reopen is meant for read-only DBs (a replica following snapshots); a
// DB opened for writing is read-only after it. A DB opened with
// Options.Preload preloads the new file before it is used.
func (db *DB) Reopen(path string) error {
	next, err := openOnce(path, Options{ReadOnly: true, Preload: db.preload})
	if err != nil {
		return err
	}
	h := next.cur.Load()
	old := db.cur.Swap(h)
	if old == nil { // closed meanwhile
		db.cur.Store(nil)
		h.release()
		return bolterrors.ErrDatabaseNotOpen
	}
	old.release()
	return nil
}

// Pinned reads the file a DB had when Pin was called, even after a
// Reopen replaced it, until Release. Each View is its own transaction, so
// on a writable file it sees later commits; what it never does is move to
// another file. A Pinned is for one goroutine.
type Pinned struct {
	db *DB
	h  *handle
}

// Pin holds db's current file open for a reader that needs several
// transactions on one file (an export read in batches). It returns
// ErrDatabaseNotOpen once db is closed. Release it.
func (db *DB) Pin() (*Pinned, error) {
	h := db.acquire()
	if h == nil {
		return nil, bolterrors.ErrDatabaseNotOpen
	}
	return &Pinned{db: db, h: h}, nil
}

// View runs fn in a read-only transaction on the pinned file.
func (p *Pinned) View(fn func(*Tx) error) error {
	if p.h == nil {
		return bolterrors.ErrDatabaseNotOpen
	}
	return p.h.bolt.View(func(tx *bolt.Tx) error { return fn(p.db.newTx(p.h, tx)) })
}

// Release lets the pinned file close once nothing else holds it. A
// second Release does nothing.
func (p *Pinned) Release() {
	if p.h != nil {
		p.h.release()
		p.h = nil
	}
}

// Backup writes a consistent copy of the whole file to w, from one read
// transaction (bbolt's hot backup): writers and readers go on meanwhile,
// and the copy is the file as of the transaction's start. It returns the
// number of bytes written and the copy's as-of day (Tx.AsOf), read in the
// same transaction.
func (db *DB) Backup(w io.Writer) (n int64, asOf int32, err error) {
	err = db.with(func(h *handle) error {
		return h.bolt.View(func(tx *bolt.Tx) error {
			asOf = db.newTx(h, tx).AsOf()
			n, err = tx.WriteTo(w)
			return err
		})
	})
	return n, asOf, err
}
