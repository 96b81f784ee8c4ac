package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged means a file's pages are not a consistent bbolt file: a page
// pointing outside the file or to itself, elements reaching past their
// page, keys out of order, a page both used and free. CheckFile returns
// it; reading such a file could crash the process.
var ErrDamaged = errors.New("damaged data file")

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrDamaged}, args...)...)
}

// The on-disk layout of bbolt 1.x pages (go.etcd.io/bbolt/internal/common),
// in the machine's byte order, as bbolt writes it.
const (
	pageHeaderSize  = 16 // id u64, flags u16, count u16, overflow u32
	elementSize     = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	branchPageFlag  = 0x01
	leafPageFlag    = 0x02
	metaPageFlag    = 0x04
	freelistFlag    = 0x10
	bucketLeafFlag  = 0x01
	bucketValueSize = 16 // root pgid u64, sequence u64; an inline page follows when root is 0
	metaSize        = 56 // magic, version, page size, flags, root bucket, freelist, pgid, txid; then its checksum
	metaMagic       = 0xED0CDAED
	noFreelist      = ^uint64(0)
	maxTreeDepth    = 64
)

var ne = binary.NativeEndian

type boltMeta struct {
	root, freelist, hwm uint64
	txid                uint64
	checksumOK, magicOK bool
}

func parseMeta(page []byte) boltMeta {
	var m boltMeta
	if len(page) < pageHeaderSize+metaSize+8 {
		return m
	}
	b := page[pageHeaderSize:]
	m.magicOK = ne.Uint32(b[0:]) == metaMagic
	m.root = ne.Uint64(b[16:])
	m.freelist = ne.Uint64(b[32:])
	m.hwm = ne.Uint64(b[40:])
	m.txid = ne.Uint64(b[48:])
	h := fnv.New64a()
	h.Write(b[:metaSize])
	m.checksumOK = h.Sum64() == ne.Uint64(b[metaSize:])
	return m
}

// pageChecker validates the pages of a file read with ReadAt (not
// mapped: a damaged offset is an error here, not a fault).
type pageChecker struct {
	f        io.ReaderAt
	pageSize uint64
	hwm      uint64
	seen     []uint64 // a bit per page below hwm
	bufs     [][]byte // a page buffer per depth
	pages    int
}

func (c *pageChecker) mark(id uint64) bool {
	w, bit := id/64, uint64(1)<<(id%64)
	if c.seen[w]&bit != 0 {
		return false
	}
	c.seen[w] |= bit
	return true
}

// read returns the bytes of page id with its overflow pages, in the
// buffer of its depth in the tree.
func (c *pageChecker) read(id uint64, depth int) ([]byte, error) {
	if id < 2 || id >= c.hwm {
		return nil, damaged("page %d is outside the file's pages 2-%d", id, c.hwm-1)
	}
	for len(c.bufs) <= depth {
		c.bufs = append(c.bufs, make([]byte, c.pageSize))
	}
	buf := c.bufs[depth][:c.pageSize]
	if _, err := c.f.ReadAt(buf, int64(id*c.pageSize)); err != nil {
		return nil, err
	}
	if got := ne.Uint64(buf[0:]); got != id {
		return nil, damaged("page %d identifies itself as page %d", id, got)
	}
	overflow := uint64(ne.Uint32(buf[12:]))
	if overflow >= c.hwm-id {
		return nil, damaged("page %d: %d overflow pages reach past the file's %d pages", id, overflow, c.hwm)
	}
	if overflow > 0 {
		size := (overflow + 1) * c.pageSize
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
			copy(buf, c.bufs[depth][:c.pageSize])
			c.bufs[depth] = buf
		}
		buf = buf[:size]
		if _, err := c.f.ReadAt(buf[c.pageSize:], int64((id+1)*c.pageSize)); err != nil {
			return nil, err
		}
	}
	for i := uint64(0); i <= overflow; i++ {
		if !c.mark(id + i) {
			return nil, damaged("page %d is referenced twice", id+i)
		}
	}
	c.pages++
	return buf, nil
}

// tree checks the branch or leaf page id and everything under it.
func (c *pageChecker) tree(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return damaged("page %d: a tree deeper than %d levels", id, maxTreeDepth)
	}
	p, err := c.read(id, depth)
	if err != nil {
		return err
	}
	return c.page(id, p, depth)
}

// page checks a branch or leaf page's elements, whose keys and values
// must lie within p, then the pages and buckets they name.
func (c *pageChecker) page(id uint64, p []byte, depth int) error {
	flags, count := ne.Uint16(p[8:]), uint64(ne.Uint16(p[10:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		return damaged("page %d: type %#x where a branch or leaf page belongs", id, flags)
	}
	if pageHeaderSize+count*elementSize > uint64(len(p)) {
		return damaged("page %d: %d elements do not fit in it", id, count)
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at : at+elementSize]
		if flags == branchPageFlag {
			pos, ksize := uint64(ne.Uint32(e[0:])), uint64(ne.Uint32(e[4:]))
			if at+pos+ksize > uint64(len(p)) {
				return damaged("page %d: key %d reaches past the page", id, i)
			}
			if err := c.tree(ne.Uint64(e[8:]), depth+1); err != nil {
				return err
			}
			continue
		}
		eflags, pos := ne.Uint32(e[0:]), uint64(ne.Uint32(e[4:]))
		ksize, vsize := uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
		if at+pos+ksize+vsize > uint64(len(p)) {
			return damaged("page %d: element %d reaches past the page", id, i)
		}
		if eflags&bucketLeafFlag == 0 {
			continue
		}
		v := p[at+pos+ksize : at+pos+ksize+vsize]
		if len(v) < bucketValueSize {
			return damaged("page %d: bucket %d has a %d-byte header", id, i, len(v))
		}
		if root := ne.Uint64(v); root != 0 {
			if err := c.tree(root, depth+1); err != nil {
				return err
			}
			continue
		}
		// An inline bucket: its page follows its header.
		inline := v[bucketValueSize:]
		if len(inline) < pageHeaderSize {
			return damaged("page %d: inline bucket %d is shorter than a page header", id, i)
		}
		if depth+1 > maxTreeDepth {
			return damaged("page %d: a tree deeper than %d levels", id, maxTreeDepth)
		}
		if ne.Uint16(inline[8:]) != leafPageFlag {
			return damaged("page %d: inline bucket %d is not a leaf page", id, i)
		}
		if err := c.page(id, inline, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// freelistPage checks that the free list's ids lie within its pages.
func (c *pageChecker) freelistPage(id uint64) error {
	p, err := c.read(id, 0)
	if err != nil {
		return err
	}
	if ne.Uint16(p[8:]) != freelistFlag {
		return damaged("page %d: type %#x where the free list belongs", id, ne.Uint16(p[8:]))
	}
	n, at := uint64(ne.Uint16(p[10:])), uint64(pageHeaderSize)
	if n == 0xFFFF { // the count is the first element
		n, at = ne.Uint64(p[pageHeaderSize:]), at+8
	}
	if n > (uint64(len(p))-at)/8 {
		return damaged("page %d: a free list of %d ids does not fit in it", id, n)
	}
	for i := range n {
		if free := ne.Uint64(p[at+8*i:]); free < 2 || free >= c.hwm {
			return damaged("page %d: free page %d is outside the file", id, free)
		}
	}
	return nil
}

// CheckFile checks the structure of the bbolt file at path before it is
// opened for serving: every page reachable from the current meta page is
// read (with ReadAt, not mapped) and must lie within the file, identify
// itself by its id, be referenced once, and hold its elements, keys and
// values within itself; then bbolt's own consistency check (Tx.Check:
// key order, pages both used and free, pages neither) runs over every
// page. It reads the whole file and takes about as long as copying it.
//
// A file that fails returns an error wrapping ErrDamaged, or
// ErrNotDataFile when it is not a bbolt file at all; a read error is
// returned as it is.
func CheckFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	// bbolt picks the valid meta page with the higher transaction id;
	// reading it through bbolt (whose Open validates both) tells which.
	b, err := bolt.Open(path, 0o400, &bolt.Options{ReadOnly: true, Timeout: 2 * time.Second, NoStatistics: true})
	switch {
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, bolterrors.ErrVersionMismatch):
		return ErrNotDataFile
	case err != nil:
		return err
	}
	defer b.Close()
	pageSize := uint64(b.Info().PageSize)
	tx, err := b.Begin(false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var meta boltMeta
	for i := range uint64(2) {
		buf := make([]byte, pageHeaderSize+metaSize+8)
		if _, err := f.ReadAt(buf, int64(i*pageSize)); err != nil {
			return err
		}
		if m := parseMeta(buf); m.magicOK && m.checksumOK && m.txid == uint64(tx.ID()) {
			meta = m
			break
		}
	}
	if meta.hwm == 0 {
		return damaged("no meta page with transaction %d", tx.ID())
	}
	if meta.hwm*pageSize > uint64(st.Size()) || meta.hwm < 3 {
		return damaged("%d pages of %d bytes do not fit in a %d-byte file", meta.hwm, pageSize, st.Size())
	}
	c := &pageChecker{f: f, pageSize: pageSize, hwm: meta.hwm, seen: make([]uint64, (meta.hwm+63)/64)}
	if meta.freelist != noFreelist {
		if err := c.freelistPage(meta.freelist); err != nil {
			return err
		}
	}
	if err := c.tree(meta.root, 0); err != nil {
		return err
	}
	// Every page the checks above bound is mapped: bbolt's own check
	// reads nothing outside the file.
	var first error
	n := 0
	for err := range tx.Check() { // drained: Check's goroutine ends with it
		if n++; first == nil {
			first = err
		}
	}
	if first != nil {
		return damaged("%v (%d problems)", first, n)
	}
	return nil
}
