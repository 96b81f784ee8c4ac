package grocery

import (
	"errors"
	"io/fs"
	"time"

	"github.com/grocerydata/grocery/storage"
)

// Service is the grocery data service over one data file: every query,
// write and rule of the product goes through it. It is safe for
// concurrent use.
type Service struct {
	db  *storage.DB
	now func() time.Time
}

// Open opens the data file at path, creating it unless opts.ReadOnly.
// It returns ECONFLICT when another process holds the file for longer than
// opts.LockTimeout, ENOTFOUND when a read-only open finds no file, and
// EINVALID when the file is not a grocery data file of this version.
func Open(path string, opts *Options) (*Service, error) {
	if opts == nil {
		opts = &Options{}
	}
	return open(path, opts, storage.Options{ReadOnly: opts.ReadOnly, LockTimeout: opts.LockTimeout}, opts.Now)
}

func open(path string, opts *Options, so storage.Options, now func() time.Time) (*Service, error) {
	db, err := storage.Open(path, so)
	switch {
	case errors.Is(err, storage.ErrLocked):
		return nil, Errorf(ECONFLICT, "data file %s is in use by another process (a running server?)", path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, Errorf(ENOTFOUND, "no data file at %s", path)
	case errors.Is(err, storage.ErrNotDataFile):
		return nil, Errorf(EINVALID, "%s is not a grocery data file", path)
	case errors.Is(err, storage.ErrFormat):
		return nil, Errorf(EINVALID, "%s: %v", path, err)
	case err != nil:
		return nil, Errorf(EINVALID, "cannot open data file: %v", err)
	}
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, now: now}, nil
}

// Close closes the data file.
func (s *Service) Close() error { return s.db.Close() }

// Path returns the data file's path.
func (s *Service) Path() string { return s.db.Path() }

// today returns the clock's date.
func (s *Service) today() Date { return DateOf(s.now()) }
