package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// Writes. Every write of the data (an import, a demo build) takes the
// next write number of the file (NextWrite) and stamps each observation
// it adds or changes with it, so that a reader can later select the
// observations written after a number it was given (an incremental
// export). The file's identity (FileID), made at random when the file is
// made, tells a number of this file from a number of another one: a
// rebuilt or replaced file starts again with another identity.
//
// The stamps of a block's observations head its dayblocks value, after
// the mark 0xff (no day's offset is that): 0xff uvarint(len) record, then
// the days. A block without them was last written before the file had
// stamps (write 0). A record is
//
//	uvarint(max)   the newest write of any observation of the block
//	uvarint(all)   a write that changed every row of the block (the SKU's
//	               product facts or barcode), 0 for none
//	days           none when every day was last written by max (a block
//	               one import wrote); else by date, those written since: offset(1)
//	               uvarint(write) the newest write of the day's observations,
//	               uvarint(n), then n times uvarint(store delta)
//	               uvarint(write) for the day's stores written earlier

// keyFileID and keyWrite are the meta keys of the file's identity and its
// last write number.
var (
	keyFileID = []byte("fileid")
	keyWrite  = []byte("write")
	keyResume = []byte("importresume")
)

// ImportResume is where an import written in batches stands after one
// of its batches, not its last, committed: the digest of its file, the
// last day its batches wrote and the write number of the last of them.
// While no other write followed (LastWrite is still Write), an import of
// the same file may take the rows up to Through as written.
type ImportResume struct {
	Digest  [32]byte
	Through int32
	Write   uint64
}

// PutImportResume records r, in place of any earlier record.
func (t *Tx) PutImportResume(r *ImportResume) error {
	v := append(r.Digest[:len(r.Digest):len(r.Digest)], 0, 0, 0, 0)
	binary.BigEndian.PutUint32(v[32:], uint32(r.Through))
	return t.put(t.meta(), keyResume, binary.BigEndian.AppendUint64(v, r.Write))
}

// ImportResume returns the record PutImportResume made, false when there
// is none.
func (t *Tx) ImportResume() (r ImportResume, ok bool) {
	v := t.meta().Get(keyResume)
	if len(v) != 44 {
		return ImportResume{}, false
	}
	copy(r.Digest[:], v)
	r.Through = int32(binary.BigEndian.Uint32(v[32:]))
	r.Write = binary.BigEndian.Uint64(v[36:])
	return r, true
}

// ClearImportResume removes the record, if any.
func (t *Tx) ClearImportResume() error {
	if t.meta().Get(keyResume) == nil {
		return nil
	}
	return t.meta().Delete(keyResume)
}

// FileID returns the identity of the data file: a random number made
// with the file (or at its upgrade to format 9), kept by its copies (a
// backup, a replica's snapshot) and never by another file.
func (t *Tx) FileID() uint64 {
	if v := t.meta().Get(keyFileID); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// LastWrite returns the number of the file's latest write of the data, 0
// before the first.
func (t *Tx) LastWrite() uint64 {
	if v := t.meta().Get(keyWrite); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// NextWrite numbers a write of the data: it returns LastWrite plus one,
// recorded as the file's last write. A write calls it once, before it
// stamps what it writes (PutWrittenBlock).
func (t *Tx) NextWrite() (uint64, error) {
	n := t.LastWrite() + 1
	return n, t.put(t.meta(), keyWrite, binary.BigEndian.AppendUint64(nil, n))
}

// initWrites gives a file its identity, once.
func initWrites(meta *bolt.Bucket) error {
	if len(meta.Get(keyFileID)) == 8 {
		return nil
	}
	id := make([]byte, 8)
	for binary.BigEndian.Uint64(id) == 0 {
		if _, err := rand.Read(id); err != nil {
			return err
		}
	}
	return meta.Put(keyFileID, id)
}

// storeWrite is the write of one store's observation on a day.
type storeWrite struct {
	store uint32
	write uint64
}

// dayWrites are the writes of one day's observations: write, the newest,
// for all but those in older.
type dayWrites struct {
	write uint64 // 0: the day was last written before the file had stamps
	older []storeWrite
}

// blockWrites is a decoded stamps record.
type blockWrites struct {
	max, all uint64
	days     [blockDays]dayWrites
	// uniform: every day of the block was last written by max (the
	// common case: a block written by one import); the record then
	// holds no day.
	uniform bool
}

// of returns the write of a store's observation on the day at offset off.
func (w *blockWrites) of(off int32, store uint32) uint64 {
	d := &w.days[off]
	s := d.write
	for _, o := range d.older {
		if o.store == store {
			s = o.write
			break
		}
	}
	return max(s, w.all)
}

// decodeBlockWrites decodes v into w (all zero for an empty v).
func decodeBlockWrites(v []byte, w *blockWrites) error {
	for i := range w.days {
		w.days[i].write, w.days[i].older = 0, w.days[i].older[:0]
	}
	w.max, w.all, w.uniform = 0, 0, false
	if len(v) == 0 {
		return nil
	}
	r := dec{b: v}
	w.max, w.all = r.uvarint(), r.uvarint()
	read := 0 // days
	for len(r.b) > 0 && r.err == nil {
		read++
		off := r.b[0]
		r.b = r.b[1:]
		if off >= blockDays {
			return errCorrupt
		}
		d := &w.days[off]
		d.write = r.uvarint()
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			return errCorrupt
		}
		store := uint32(0)
		for range n {
			store += r.u32()
			d.older = append(d.older, storeWrite{store, r.uvarint()})
		}
	}
	if read == 0 && r.err == nil {
		w.uniform = true
		for i := range w.days {
			w.days[i].write = w.max
		}
	}
	return r.err
}

// encodeBlockWrites encodes w, nil when it records no write.
func encodeBlockWrites(w *blockWrites) []byte { return appendBlockWrites(nil, w) }

// appendBlockWrites appends w's encoding to dst, nothing when it records
// no write.
func appendBlockWrites(dst []byte, w *blockWrites) []byte {
	if w.max == 0 && w.all == 0 {
		return dst
	}
	e := enc(dst).uvarint(w.max).uvarint(w.all)
	if w.uniform {
		return e
	}
	for off := range w.days {
		d := &w.days[off]
		if d.write == 0 {
			continue
		}
		e = append(e, byte(off))
		e = e.uvarint(d.write).uvarint(uint64(len(d.older)))
		prev := uint32(0)
		for _, o := range d.older {
			e = e.uvarint(uint64(o.store - prev)).uvarint(o.write)
			prev = o.store
		}
	}
	return e
}

// stampMark starts a dayblocks value that carries its stamps.
const stampMark = 0xff

// splitBlock returns the stamps record (nil when none) and the days of a
// dayblocks value.
func splitBlock(v []byte) (stamps, days []byte, err error) {
	if len(v) == 0 || v[0] != stampMark {
		return nil, v, nil
	}
	n, k := binary.Uvarint(v[1:])
	if k <= 0 || uint64(len(v)-1-k) < n {
		return nil, nil, errCorrupt
	}
	return v[1+k : 1+k+int(n)], v[1+k+int(n):], nil
}

// appendStamps appends a dayblocks value's stamps (none when empty).
func appendStamps(e enc, stamps []byte) enc {
	if len(stamps) == 0 {
		return e
	}
	return append(append(e, stampMark).uvarint(uint64(len(stamps))), stamps...)
}

// PutWrittenBlock writes merged, one block of a series as a write of the
// data leaves it, and stamps the observations it changed: old is the
// block as ReadBlock read it before the write (no days when none). An
// observation of merged that old holds alike keeps its stamp; any other
// takes write.
func (t *Tx) PutWrittenBlock(banner, sku, province string, old, merged *Block, write uint64) error {
	var prev, next blockWrites
	if err := decodeBlockWrites(old.stamps, &prev); err != nil {
		return err
	}
	next.all = prev.all
	oi := 0
	for i := range merged.Days {
		d := &merged.Days[i]
		for oi < len(old.Days) && old.Days[oi].Date < d.Date {
			oi++
		}
		var oes []Entry
		if oi < len(old.Days) && old.Days[oi].Date == d.Date {
			oes = old.Days[oi].Entries
		}
		off := d.Date - merged.Start
		pd := &prev.days[off]
		// stampOf is the stamp of entry j of the day; rest is the old
		// entries from the one it is compared with, in store order.
		rest := oes
		stampOf := func(e *Entry) uint64 {
			for len(rest) > 0 && rest[0].Store < e.Store {
				rest = rest[1:]
			}
			if len(rest) == 0 || rest[0] != *e {
				return write
			}
			for _, o := range pd.older {
				if o.store == e.Store {
					return o.write
				}
			}
			return pd.write
		}
		// Two passes, no buffer: the newest, then those older than it.
		newest := uint64(0)
		for j := range d.Entries {
			newest = max(newest, stampOf(&d.Entries[j]))
		}
		nd := &next.days[off]
		nd.write = newest
		if newest != write || len(oes) > 0 {
			rest = oes
			for j := range d.Entries {
				if s := stampOf(&d.Entries[j]); s != newest {
					nd.older = append(nd.older, storeWrite{d.Entries[j].Store, s})
				}
			}
		}
		next.max = max(next.max, newest)
	}
	next.max = max(next.max, next.all)
	next.uniform = true
	for i := range merged.Days {
		nd := &next.days[merged.Days[i].Date-merged.Start]
		next.uniform = next.uniform && nd.write == next.max && len(nd.older) == 0
	}
	var buf [256]byte
	return t.putBlock(banner, sku, province, merged, appendBlockWrites(buf[:0], &next))
}

// MarkSKUWritten records that write changed every observation row of a
// banner SKU, in every province (its product's facts or its barcode
// changed, which each row shows): readers of the writes after an earlier
// number take all of them.
func (t *Tx) MarkSKUWritten(banner, sku string, write uint64) error {
	prefix := appendStr0(appendStr0(nil, banner), sku)
	// Read first, then write: a Put moves a cursor's page under it.
	var keys, vals [][]byte
	var heads []bool // the key's block is in dayheads
	c := t.blockCursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		keys, vals = append(keys, bytes.Clone(k)), append(vals, bytes.Clone(v))
		heads = append(heads, c.InHeads())
	}
	var w blockWrites
	for i, k := range keys {
		stamps, days, err := splitBlock(vals[i])
		if err != nil {
			return err
		}
		if err := decodeBlockWrites(stamps, &w); err != nil {
			return err
		}
		w.all, w.max = write, write
		v := append(appendStamps(enc(nil), encodeBlockWrites(&w)), days...)
		b := t.series()
		if heads[i] {
			b = t.heads()
		}
		if err := t.put(b, k, v); err != nil {
			return err
		}
	}
	return nil
}

// WriteRange selects observations by the write that last changed them
// (0 for those last written before the file had stamps): from write From
// to write Until, inclusive; Until 0 is no bound.
type WriteRange struct {
	From, Until uint64
}

// keeps reports whether the range keeps an observation of write s.
func (r *WriteRange) keeps(s uint64) bool { return s >= r.From && (r.Until == 0 || s <= r.Until) }

// keepWritten keeps in b only the observations of the range, by the
// record w, dropping the days left with none. The kept days' summaries
// still describe every observation of the day.
func keepWritten(b *Block, w *blockWrites, r *WriteRange) {
	n := 0
	for i := range b.Days {
		d := &b.Days[i]
		off := d.Date - b.Start
		es := d.Entries[:0]
		for _, e := range d.Entries {
			if r.keeps(w.of(off, e.Store)) {
				es = append(es, e)
			}
		}
		if len(es) > 0 {
			// Swapped, not copied over: each day keeps entries storage of
			// its own, which the next decode reuses.
			b.Days[i].Entries = es
			b.Days[n], b.Days[i] = b.Days[i], b.Days[n]
			n++
		}
	}
	b.Days = b.Days[:n]
}
