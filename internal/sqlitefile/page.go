package sqlitefile

import (
	"encoding/binary"
	"fmt"
)

// B-tree page types (the first byte of a b-tree page's header).
const (
	interiorIndex = 0x02
	interiorTable = 0x05
	leafIndex     = 0x0A
	leafTable     = 0x0D
)

// btreePage is a table b-tree page read from the file.
type btreePage struct {
	no    uint32
	data  []byte // the page's usable bytes
	leaf  bool
	cells int    // the number of cells
	ptrs  int    // offset of the cell pointer array
	right uint32 // an interior page's right-most child
}

// loadTablePage reads page no into buf as a page of a table b-tree.
func (db *DB) loadTablePage(no uint32, buf []byte) (btreePage, error) {
	data, err := db.readPage(no, buf)
	if err != nil {
		return btreePage{}, err
	}
	p := btreePage{no: no, data: data}
	h := 0
	if no == 1 {
		h = headerSize
	}
	switch data[h] {
	case leafTable:
		p.leaf, p.ptrs = true, h+8
	case interiorTable:
		p.ptrs = h + 12
		p.right = binary.BigEndian.Uint32(data[h+8:])
	case interiorIndex, leafIndex:
		return p, fmt.Errorf("%w: page %d is an index b-tree page (type %#02x) in a table's b-tree", ErrCorrupt, no, data[h])
	default:
		return p, fmt.Errorf("%w: page %d has type %#02x: want a table b-tree page (0x05 or 0x0d)", ErrCorrupt, no, data[h])
	}
	p.cells = int(binary.BigEndian.Uint16(data[h+3:]))
	if p.ptrs+2*p.cells > len(data) {
		return p, fmt.Errorf("%w: page %d: %d cell pointers do not fit in its %d usable bytes", ErrCorrupt, no, p.cells, len(data))
	}
	return p, nil
}

// cell returns the offset of cell i, checked to lie past the cell pointer
// array and within the page's usable bytes.
func (p *btreePage) cell(i int) (int, error) {
	off := int(binary.BigEndian.Uint16(p.data[p.ptrs+2*i:]))
	if off < p.ptrs+2*p.cells || off >= len(p.data) {
		return 0, fmt.Errorf("%w: page %d cell %d at offset %d: want one from %d to %d", ErrCorrupt, p.no, i, off, p.ptrs+2*p.cells, len(p.data)-1)
	}
	return off, nil
}

// child returns the page number of an interior page's child i: the left
// child of cell i, or the right-most child for i == cells.
func (p *btreePage) child(i int) (uint32, error) {
	if i == p.cells {
		return p.right, nil
	}
	off, err := p.cell(i)
	if err != nil {
		return 0, err
	}
	if off+4 > len(p.data) {
		return 0, fmt.Errorf("%w: page %d cell %d runs past the page", ErrCorrupt, p.no, i)
	}
	return binary.BigEndian.Uint32(p.data[off:]), nil
}

// leafCell is a cell of a table b-tree leaf page.
type leafCell struct {
	rowid    int64
	size     uint64 // the payload's size
	local    []byte // the payload's bytes on the page
	overflow uint32 // the first overflow page, 0 for none
}

// leafCell reads cell i of a leaf page: its rowid and payload, the part of
// the payload kept on the page following the file format's rule.
func (db *DB) leafCell(p *btreePage, i int) (leafCell, error) {
	off, err := p.cell(i)
	if err != nil {
		return leafCell{}, err
	}
	size, n := uvarint(p.data[off:])
	rowid, m := uvarint(p.data[off+n:])
	if n == 0 || m == 0 {
		return leafCell{}, fmt.Errorf("%w: page %d cell %d: its header runs past the page", ErrCorrupt, p.no, i)
	}
	c := leafCell{rowid: int64(rowid), size: size}
	off += n + m
	local := db.localSize(size)
	end := uint64(off) + local
	if local < size {
		end += 4
	}
	if end > uint64(len(p.data)) {
		return leafCell{}, fmt.Errorf("%w: page %d cell %d: a payload of %d bytes, %d of them on the page, runs past the page", ErrCorrupt, p.no, i, size, local)
	}
	c.local = p.data[off : off+int(local)]
	if local < size {
		c.overflow = binary.BigEndian.Uint32(p.data[off+int(local):])
	}
	return c, nil
}

// localSize returns how many bytes of a table leaf cell's payload of size
// bytes are on its page, the rest spilling to overflow pages: all of it
// up to U-35 bytes (U the usable size), else M=((U-12)*32/255)-23 bytes
// plus the remainder of the rest over overflow pages of U-4 bytes when
// that fits in U-35, else M.
func (db *DB) localSize(size uint64) uint64 {
	u := uint64(db.usable)
	x := u - 35
	if size <= x {
		return size
	}
	m := (u-12)*32/255 - 23
	k := m + (size-m)%(u-4)
	if k <= x {
		return k
	}
	return m
}

// uvarint reads a SQLite varint (1 to 9 bytes, big-endian, 7 bits a byte
// but the ninth's 8) at the start of b: its value and length, 0 when b
// ends first.
func uvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i == len(b) {
			return 0, 0
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return v, 9
}
