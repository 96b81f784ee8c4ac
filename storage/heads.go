package storage

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// A series' newest blocks are kept apart from its older ones. A day's
// import writes the block that holds the day of nearly every series; in
// one bucket ordered by series those blocks lie on most of its pages, and
// a commit copies and rewrites every page it changes (at 100 million
// observations, 100,000 pages of dayblocks for a day). So the blocks that
// may still change live in dayheads, keyed as in dayblocks, and a block
// belongs in dayblocks once it is settled: when the data set's newest day
// is at least 16 days plus the series' phase past the block's start. The
// phase, 0 to 15 from a hash of the series' key, spreads the moves over a
// block's days: a sixteenth of the series move a block on any one day,
// rather than all of them on the day a block turns over. A write puts the
// block it writes where its settlement says, wherever it was, and moves
// the series' older blocks that are settled: blocks move when their series
// is written, so a series no longer written keeps its last blocks in
// dayheads. A block is in one of the two buckets, never both; readers
// merge their keys (blockCursor). Where a block is does not change what it
// holds: placement only decides which pages a write touches.

// phase returns the series' phase (0 to 15) from its key prefix p
// (banner 0x00 sku 0x00 province): the top four bits of its 32-bit
// FNV-1a hash.
func phase(p []byte) int32 {
	h := uint32(2166136261)
	for _, c := range p {
		h = (h ^ uint32(c)) * 16777619
	}
	return int32(h >> 28)
}

// settled reports whether the block of the series p that starts on start
// belongs in dayblocks once the data set's newest day is day.
func settled(p []byte, start, day int32) bool { return day >= start+blockDays+phase(p) }

// WritesThrough tells the transaction that the observations it writes
// are of day or earlier days. Its block writes then settle blocks by that
// day (or the data set's newest day, when later) rather than by the days
// written so far: a bulk import that gives its last day writes each
// settled block once, straight to dayblocks.
func (t *Tx) WritesThrough(day int32) { t.through = max(t.through, day) }

// newestDay returns the day the transaction's block writes settle blocks
// by: the data set's newest day as its first block write read it (after
// any SetAsOf before that write), or the day WritesThrough gave when
// later.
func (t *Tx) newestDay() int32 {
	if !t.asOfRead {
		t.asOfSeen, t.asOfRead = t.AsOf(), true
	}
	return max(t.asOfSeen, t.through)
}

// readBlockValue returns the stored value of a block key (nil when none),
// from whichever bucket holds it.
func (t *Tx) readBlockValue(k []byte) []byte {
	if v := t.get(idHeads, k); v != nil {
		return v
	}
	return t.get(idSeries, k)
}

// writeBlock stores the value v of block k of the series p in the bucket
// its settlement chooses, deleting it from the other (where a block was
// read from may be stale: a write between the read and this one can have
// moved it), then moves the series' older blocks in dayheads that are
// settled. newest is the block's newest day: the older blocks are settled
// by it too.
func (t *Tx) writeBlock(p, k, v []byte, start, newest int32) error {
	put, other := t.heads(), t.series()
	if settled(p, start, t.newestDay()) {
		put, other = other, put
	}
	// A missing key's Delete only seeks: it changes no page.
	if err := other.Delete(k); err != nil {
		return err
	}
	if err := t.put(put, k, v); err != nil {
		return err
	}
	return t.settleHeads(p, k, max(t.newestDay(), newest))
}

// settleHeads moves the blocks of series p in dayheads older than key k
// that are settled by day to dayblocks. Nearly always the series' first
// block in dayheads is k itself, or none is older, which one seek finds.
func (t *Tx) settleHeads(p, k []byte, day int32) error {
	c := t.heads().Cursor()
	var keys, vals [][]byte
	for hk, hv := c.Seek(p); hasPrefix(hk, p) && len(hk) == len(p)+4 && bytes.Compare(hk, k) < 0; hk, hv = c.Next() {
		if !settled(p, int32(binary.BigEndian.Uint32(hk[len(p):])), day) {
			break // the later ones are not settled either
		}
		// Read all first: a Put or Delete moves a cursor's page under it.
		keys, vals = append(keys, bytes.Clone(hk)), append(vals, bytes.Clone(hv))
	}
	for i, hk := range keys {
		if err := t.put(t.series(), hk, vals[i]); err != nil {
			return err
		}
		if err := t.heads().Delete(hk); err != nil {
			return err
		}
	}
	return nil
}

// deleteBlock deletes block k from whichever bucket holds it.
func (t *Tx) deleteBlock(k []byte) error {
	if err := t.heads().Delete(k); err != nil {
		return err
	}
	return t.series().Delete(k)
}

// blockCursor walks the blocks of both buckets as one, in key order: a
// cursor on each, the current key the lesser (going forward) or the
// greater (going back) of theirs. It goes one way from its seek: Seek
// then Next, or SeekLast then Prev.
type blockCursor struct {
	c    [2]*bolt.Cursor
	k, v [2][]byte
	at   int // which cursor holds the current key
}

// blockCursor returns a cursor over the series' blocks of both buckets.
func (t *Tx) blockCursor() *blockCursor {
	return &blockCursor{c: [2]*bolt.Cursor{t.series().Cursor(), t.heads().Cursor()}}
}

// Seek moves to the first key at or after key.
func (m *blockCursor) Seek(key []byte) ([]byte, []byte) {
	for i, c := range m.c {
		m.k[i], m.v[i] = c.Seek(key)
	}
	return m.least()
}

// Next moves to the next key, after a Seek or Next.
func (m *blockCursor) Next() ([]byte, []byte) {
	m.k[m.at], m.v[m.at] = m.c[m.at].Next()
	return m.least()
}

// SeekLast moves to the last key at or before key.
func (m *blockCursor) SeekLast(key []byte) ([]byte, []byte) {
	for i, c := range m.c {
		switch m.k[i], m.v[i] = c.Seek(key); {
		case m.k[i] == nil:
			m.k[i], m.v[i] = c.Last()
		case bytes.Compare(m.k[i], key) > 0:
			m.k[i], m.v[i] = prevKey(c, m.k[i])
		}
	}
	return m.greatest()
}

// Prev moves to the key before, after a SeekLast or Prev.
func (m *blockCursor) Prev() ([]byte, []byte) {
	m.k[m.at], m.v[m.at] = prevKey(m.c[m.at], m.k[m.at])
	return m.greatest()
}

// prevKey moves c, at key from, to the key before (nil when none). bbolt's
// Prev returns nil on reaching a leaf that deletes earlier in the same
// write transaction emptied (its Next and Last pass over such leaves):
// when the bucket has a key before from, prevKey steps on past them.
func prevKey(c *bolt.Cursor, from []byte) ([]byte, []byte) {
	if k, v := c.Prev(); k != nil {
		return k, v
	}
	if first, _ := c.First(); first == nil || bytes.Compare(first, from) >= 0 {
		return nil, nil
	}
	from = bytes.Clone(from) // the Seek below may not leave it where it was
	c.Seek(from)
	for {
		if k, v := c.Prev(); k != nil {
			return k, v
		}
	}
}

// InHeads reports whether the current key is in dayheads.
func (m *blockCursor) InHeads() bool { return m.at == 1 }

func (m *blockCursor) least() ([]byte, []byte) {
	m.at = 0
	if m.k[0] == nil || m.k[1] != nil && bytes.Compare(m.k[1], m.k[0]) < 0 {
		m.at = 1
	}
	return m.k[m.at], m.v[m.at]
}

func (m *blockCursor) greatest() ([]byte, []byte) {
	m.at = 0
	if m.k[0] == nil || m.k[1] != nil && bytes.Compare(m.k[1], m.k[0]) > 0 {
		m.at = 1
	}
	return m.k[m.at], m.v[m.at]
}

// checkHeads checks that no block is in both dayheads and dayblocks.
func (t *Tx) checkHeads() error {
	series := t.series()
	c := t.heads().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 8 {
			return errCorrupt
		}
		if series.Get(k) != nil {
			return inconsistent("block %q is in both dayheads and dayblocks", k)
		}
	}
	return nil
}
