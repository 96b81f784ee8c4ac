package sqlitefile

import (
	"encoding/binary"
	"fmt"
)

// Rows streams a table's rows in rowid order:
//
//	rows := db.Rows(t)
//	for rows.Next() {
//		use(rows.RowID(), rows.Values())
//	}
//	if err := rows.Err(); err != nil { ... }
//
// It holds one page per level of the table's b-tree and the record being
// read.
type Rows struct {
	db      *DB
	t       *Table
	stack   []frame
	bufs    [][]byte // page buffers, one a level, kept for reuse
	visited uint32   // b-tree pages visited
	rowid   int64
	rows    int // rows read
	fields  []Value
	vals    []Value
	payload []byte // a record spilled to overflow pages, assembled
	ovbuf   []byte // an overflow page
	err     error
}

// frame is a b-tree page being walked and the next cell (interior: the
// next child) to take.
type frame struct {
	p btreePage
	i int
}

// Rows returns the rows of table t, which came from db's Tables.
func (db *DB) Rows(t *Table) *Rows {
	r := &Rows{db: db, t: t, err: t.err}
	if r.err == nil {
		r.err = r.push(t.RootPage)
	}
	return r
}

// Next reads the next row, false after the last or on an error (Err).
func (r *Rows) Next() bool {
	for r.err == nil && len(r.stack) > 0 {
		f := &r.stack[len(r.stack)-1]
		switch {
		case f.p.leaf && f.i < f.p.cells:
			f.i++
			r.err = r.readRow(&f.p, f.i-1)
			return r.err == nil
		case !f.p.leaf && f.i <= f.p.cells:
			child, err := f.p.child(f.i)
			f.i++
			if err == nil {
				err = r.push(child)
			}
			r.err = err
		default:
			r.stack = r.stack[:len(r.stack)-1]
		}
	}
	return false
}

// RowID returns the current row's rowid.
func (r *Rows) RowID() int64 { return r.rowid }

// Values returns the current row's values, one for each of the table's
// columns in order, valid until the next call to Next.
func (r *Rows) Values() []Value { return r.vals }

// Err returns the error that stopped Next, nil at the end of the table.
func (r *Rows) Err() error {
	if r.err != nil && r.t != schemaTable {
		return fmt.Errorf("table %s: %w", r.t.Name, r.err)
	}
	return r.err
}

// push reads page no as the next level of the walk: a page of the
// database not on the path from the root, within the depth and page
// count bounds.
func (r *Rows) push(no uint32) error {
	if len(r.stack) == maxDepth {
		return fmt.Errorf("%w: page %d: the b-tree is deeper than %d levels", ErrCorrupt, no, maxDepth)
	}
	for _, f := range r.stack {
		if f.p.no == no {
			return fmt.Errorf("%w: page %d is a child of its own descendant page %d: a cycle in the b-tree", ErrCorrupt, no, r.stack[len(r.stack)-1].p.no)
		}
	}
	if r.visited++; r.visited > r.db.pages {
		return fmt.Errorf("%w: the b-tree reaches more pages than the database's %d: a page is in it twice", ErrCorrupt, r.db.pages)
	}
	level := len(r.stack)
	if level == len(r.bufs) {
		r.bufs = append(r.bufs, nil)
	}
	p, err := r.db.loadTablePage(no, r.bufs[level])
	if err != nil {
		return err
	}
	r.bufs[level] = p.data
	r.stack = append(r.stack, frame{p: p})
	return nil
}

// readRow reads cell i of leaf page p as the current row.
func (r *Rows) readRow(p *btreePage, i int) error {
	c, err := r.db.leafCell(p, i)
	if err != nil {
		return err
	}
	if r.rows > 0 && c.rowid <= r.rowid {
		return fmt.Errorf("%w: page %d cell %d: rowid %d after rowid %d: want rowids in increasing order", ErrCorrupt, p.no, i, c.rowid, r.rowid)
	}
	r.rowid = c.rowid
	r.rows++
	payload := c.local
	if c.overflow != 0 {
		if payload, err = r.spilled(c); err != nil {
			return fmt.Errorf("page %d cell %d (rowid %d): %w", p.no, i, c.rowid, err)
		}
	}
	if r.fields, err = decodeRecord(payload, r.fields[:0], r.db.enc); err != nil {
		return fmt.Errorf("page %d cell %d (rowid %d): %w", p.no, i, c.rowid, err)
	}
	r.setValues()
	return nil
}

// setValues sets the row's values from its record: the rowid for the
// INTEGER PRIMARY KEY column, NULL for a virtual column and for those the
// record is too short for, and a real for an integer in a column of REAL
// affinity, as SQLite reads it.
func (r *Rows) setValues() {
	r.vals = r.vals[:0]
	stored := 0
	for _, col := range r.t.Columns {
		var v Value
		switch {
		case col.Virtual:
		case col.RowID:
			v = Value{Kind: Integer, Int: r.rowid}
			stored++
		case stored < len(r.fields):
			v = r.fields[stored]
			stored++
			if col.real && v.Kind == Integer {
				v = Value{Kind: Real, Float: float64(v.Int)}
			}
		}
		r.vals = append(r.vals, v)
	}
}

// spilled assembles the payload of a cell that spills to overflow pages:
// its bytes on the page, then the chain's, each overflow page the number
// of the next (0 for none) and U-4 bytes of payload. The chain is
// bounded by the pages the payload needs and the database has.
func (r *Rows) spilled(c leafCell) ([]byte, error) {
	per := uint64(r.db.usable - 4)
	// rest/per rounded up, without rest+per-1, which wraps for a size
	// near 2^64 and would let the chain below run on.
	rest := c.size - uint64(len(c.local))
	need := rest/per + min(rest%per, 1)
	if need > uint64(r.db.pages) {
		return nil, fmt.Errorf("%w: a payload of %d bytes needs %d overflow pages, more than the database's %d", ErrCorrupt, c.size, need, r.db.pages)
	}
	out := append(r.payload[:0], c.local...)
	next := c.overflow
	for uint64(len(out)) < c.size {
		if next == 0 {
			return nil, fmt.Errorf("%w: the overflow chain from page %d ends after %d of the payload's %d bytes", ErrCorrupt, c.overflow, len(out), c.size)
		}
		page, err := r.db.readPage(next, r.ovbuf)
		if err != nil {
			return nil, fmt.Errorf("the overflow chain from page %d: %w", c.overflow, err)
		}
		r.ovbuf = page
		take := min(c.size-uint64(len(out)), per)
		out = append(out, page[4:4+take]...)
		next = binary.BigEndian.Uint32(page)
	}
	r.payload = out
	// The last page of a chain links to none: one that goes on loops or
	// belongs to a longer payload.
	if next != 0 {
		return nil, fmt.Errorf("%w: the overflow chain from page %d goes on to page %d past the payload's %d bytes (%d pages): a cycle or a wrong size", ErrCorrupt, c.overflow, next, c.size, need)
	}
	return out, nil
}
