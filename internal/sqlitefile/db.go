package sqlitefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Magic is the first 16 bytes of every SQLite 3 database file.
const Magic = "SQLite format 3\x00"

// Errors Open and Rows wrap: the file is not a SQLite 3 database, or it is
// one that contradicts the file format.
var (
	ErrNotSQLite = errors.New("not a SQLite 3 database")
	ErrCorrupt   = errors.New("corrupt SQLite database")
)

// headerSize is the size of the database header at the start of page 1.
const headerSize = 100

// maxDepth is the deepest b-tree read, as SQLite's own limit: a deeper one
// is corrupt.
const maxDepth = 20

// DB is a SQLite database file opened for reading.
type DB struct {
	r        io.ReaderAt
	pageSize int    // bytes a page
	usable   int    // pageSize less the reserved bytes at each page's end
	pages    uint32 // pages in the database
	enc      binary.ByteOrder
}

// Open reads the header of the database file r of size bytes. It returns
// ErrNotSQLite for a file that is not a SQLite 3 database and ErrCorrupt
// for a header the format does not allow, each wrapped with what is wrong.
func Open(r io.ReaderAt, size int64) (*DB, error) {
	if size < headerSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrNotSQLite, size, headerSize)
	}
	h := make([]byte, headerSize)
	if _, err := r.ReadAt(h, 0); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	if string(h[:16]) != Magic {
		return nil, fmt.Errorf("%w: the file does not start with %q", ErrNotSQLite, "SQLite format 3\\0")
	}
	db := &DB{r: r}
	if err := db.readHeader(h, size); err != nil {
		return nil, err
	}
	return db, nil
}

// readHeader checks the header h of a file of size bytes and sets db's
// page geometry and text encoding.
func (db *DB) readHeader(h []byte, size int64) error {
	ps := int(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return fmt.Errorf("%w: page size %d: want a power of two from 512 to 65536", ErrCorrupt, ps)
	}
	if h[18] > 2 || h[19] > 2 {
		return fmt.Errorf("%w: file format write version %d, read version %d: want 1 (rollback journal) or 2 (WAL)", ErrCorrupt, h[18], h[19])
	}
	db.pageSize, db.usable = ps, ps-int(h[20])
	if db.usable < 480 {
		return fmt.Errorf("%w: %d reserved bytes in a page of %d leave %d usable: want at least 480", ErrCorrupt, h[20], ps, db.usable)
	}
	if h[21] != 64 || h[22] != 32 || h[23] != 32 {
		return fmt.Errorf("%w: payload fractions %d, %d, %d: want 64, 32, 32", ErrCorrupt, h[21], h[22], h[23])
	}
	if err := db.countPages(h, size); err != nil {
		return err
	}
	switch e := binary.BigEndian.Uint32(h[56:]); e {
	case 0, 1:
	case 2:
		db.enc = binary.LittleEndian
	case 3:
		db.enc = binary.BigEndian
	default:
		return fmt.Errorf("%w: text encoding %d: want 1 (UTF-8), 2 (UTF-16le) or 3 (UTF-16be)", ErrCorrupt, e)
	}
	if f := binary.BigEndian.Uint32(h[44:]); f > 4 {
		return fmt.Errorf("%w: schema format %d: want 1 to 4", ErrCorrupt, f)
	}
	return nil
}

// countPages sets db.pages: the header's page count when it is valid
// (written by SQLite 3.7.0 or later: the change counter matches the
// version-valid-for number), else the pages the file's size holds.
func (db *DB) countPages(h []byte, size int64) error {
	inFile := size / int64(db.pageSize)
	if inFile == 0 {
		return fmt.Errorf("%w: %d bytes, less than one page of %d", ErrCorrupt, size, db.pageSize)
	}
	if inFile > 1<<32-2 {
		inFile = 1<<32 - 2
	}
	db.pages = uint32(inFile)
	n := binary.BigEndian.Uint32(h[28:])
	if n == 0 || binary.BigEndian.Uint32(h[24:]) != binary.BigEndian.Uint32(h[92:]) {
		return nil
	}
	if int64(n) > inFile {
		return fmt.Errorf("%w: the header counts %d pages, the file of %d bytes holds %d: truncated", ErrCorrupt, n, size, inFile)
	}
	db.pages = n
	return nil
}

// PageSize returns the database's page size in bytes.
func (db *DB) PageSize() int { return db.pageSize }

// Pages returns the number of pages in the database.
func (db *DB) Pages() uint32 { return db.pages }

// readPage reads page no into buf (reallocated when shorter than a page)
// and returns the page's usable bytes.
func (db *DB) readPage(no uint32, buf []byte) ([]byte, error) {
	if no < 1 || no > db.pages {
		return nil, fmt.Errorf("%w: page %d is beyond the database's %d pages", ErrCorrupt, no, db.pages)
	}
	if cap(buf) < db.pageSize {
		buf = make([]byte, db.pageSize)
	}
	buf = buf[:db.pageSize]
	n, err := db.r.ReadAt(buf, int64(no-1)*int64(db.pageSize))
	if n < len(buf) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading page %d: %w", no, err)
	}
	return buf[:db.usable], nil
}
