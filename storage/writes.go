package storage

import (
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
// The stamps live beside the series, in the blockwrites bucket, under the
// series' own keys (banner 0x00 sku 0x00 province(2) day(4)): one record
// per block written since the file had them. A block that has none was
// last written before (write 0). A record is
//
//	uvarint(max)   the newest write of any observation of the block
//	uvarint(all)   a write that changed every row of the block (the SKU's
//	               product facts or barcode), 0 for none
//	days           by date, those written since: offset(1)
//	               uvarint(write) the newest write of the day's observations,
//	               uvarint(n), then n times uvarint(store delta)
//	               uvarint(write) for the day's stores written earlier

// keyFileID and keyWrite are the meta keys of the file's identity and its
// last write number.
var (
	keyFileID = []byte("fileid")
	keyWrite  = []byte("write")
)

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
// stamps what it writes (PutBlockWrites).
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

// blockWrites is a decoded blockwrites record.
type blockWrites struct {
	max, all uint64
	days     [blockDays]dayWrites
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

// decodeBlockWrites decodes v into w (all zero for a nil v).
func decodeBlockWrites(v []byte, w *blockWrites) error {
	for i := range w.days {
		w.days[i].write, w.days[i].older = 0, w.days[i].older[:0]
	}
	w.max, w.all = 0, 0
	if v == nil {
		return nil
	}
	r := dec{b: v}
	w.max, w.all = r.uvarint(), r.uvarint()
	for len(r.b) > 0 && r.err == nil {
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
	return r.err
}

// encodeBlockWrites encodes w, nil when it records no write.
func encodeBlockWrites(w *blockWrites) []byte {
	if w.max == 0 && w.all == 0 {
		return nil
	}
	e := enc(nil).uvarint(w.max).uvarint(w.all)
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

// PutBlockWrites stamps the observations a write changed in one block of
// a series: old is the block as stored before the write (no days when
// none), merged as the write leaves it (both as ReadBlock gives them, in
// the same block). An observation of merged that old holds alike keeps
// its stamp; any other takes write.
func (t *Tx) PutBlockWrites(banner, sku, province string, old, merged *Block, write uint64) error {
	k := appendDay(seriesPrefix(banner, sku, province), merged.Start)
	var prev, next blockWrites
	if err := decodeBlockWrites(t.blockWrites().Get(k), &prev); err != nil {
		return err
	}
	next.all = prev.all
	var stamps []storeWrite
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
		stamps = stamps[:0]
		newest := uint64(0)
		for _, e := range d.Entries {
			for len(oes) > 0 && oes[0].Store < e.Store {
				oes = oes[1:]
			}
			s := write
			if len(oes) > 0 && oes[0] == e {
				s = prev.days[off].write
				for _, o := range prev.days[off].older {
					if o.store == e.Store {
						s = o.write
						break
					}
				}
			}
			stamps = append(stamps, storeWrite{e.Store, s})
			newest = max(newest, s)
		}
		nd := &next.days[off]
		nd.write = newest
		for _, s := range stamps {
			if s.write != newest {
				nd.older = append(nd.older, s)
			}
		}
		next.max = max(next.max, newest)
	}
	next.max = max(next.max, next.all)
	v := encodeBlockWrites(&next)
	if v == nil {
		return t.blockWrites().Delete(k)
	}
	return t.put(t.blockWrites(), k, v)
}

// MarkSKUWritten records that write changed every observation row of a
// banner SKU, in every province (its product's facts or its barcode
// changed, which each row shows): readers of the writes after an earlier
// number take all of them.
func (t *Tx) MarkSKUWritten(banner, sku string, write uint64) error {
	prefix := appendStr0(appendStr0(nil, banner), sku)
	var w blockWrites
	c := t.series().Cursor()
	for k, _ := c.Seek(prefix); hasPrefix(k, prefix); k, _ = c.Next() {
		if err := decodeBlockWrites(t.blockWrites().Get(k), &w); err != nil {
			return err
		}
		w.all, w.max = write, write
		if err := t.put(t.blockWrites(), k, encodeBlockWrites(&w)); err != nil {
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
