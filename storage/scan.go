package storage

import (
	"bytes"
	"encoding/binary"
)

// Resumable scans. A long export reads in many short transactions rather
// than one long one, because a read transaction holds the pages it can
// see: while it is open, pages freed by writers cannot be reused (the file
// grows under a concurrent import) and a writer that must grow the memory
// map waits for it to end. Each scan below takes the position it returned
// last time and goes on after it, in key order, in a new transaction.

// SeriesRef names one stored series.
type SeriesRef struct {
	Banner, SKU, Province string
}

// SeriesFilter selects the series and days a ScanSeries reads. Empty
// fields select everything; SKU needs Banner.
type SeriesFilter struct {
	Banner, SKU, Province string
	From, To              int32 // days, inclusive
	// Writes, when set, keeps only the observations whose latest write
	// is in its range (see writes.go). With From above 0 the scan
	// decodes only the blocks written from From on.
	Writes *WriteRange
}

// ScanSeries calls fn for each stored block of the series f selects, in
// key order (banner, SKU, province, date), starting after pos (nil: from
// the first). b.Days holds only the days from f.From to f.To. Before the
// first block of each series it calls want, which skips the series when
// it returns false. fn stops the scan by returning ErrStop: ScanSeries
// then returns the position of the block fn saw last, to resume after;
// it returns a nil position when the scan is complete. fn may keep ref and
// b only until it returns. With f.Writes, b.Days holds only the days and
// observations of its range (each day's summary still describes all of
// its observations).
func (t *Tx) ScanSeries(pos []byte, f *SeriesFilter, want func(ref *SeriesRef) (bool, error), fn func(ref *SeriesRef, b *Block) error) ([]byte, error) {
	var prefix []byte
	if f.Banner != "" {
		prefix = appendStr0(nil, f.Banner)
		if f.SKU != "" {
			prefix = appendStr0(prefix, f.SKU)
		}
	}
	lo, hi := blockStart(f.From), blockStart(f.To)
	c := t.blockCursor()
	var bw *blockWrites
	if f.Writes != nil {
		bw = &blockWrites{}
	}
	var k, v []byte
	if pos == nil {
		k, v = c.Seek(prefix)
	} else if k, v = c.Seek(pos); bytes.Equal(k, pos) {
		k, v = c.Next()
	}
	var (
		ref  SeriesRef
		cur  []byte // the current series' key prefix, once wanted
		b    Block
		seek = make([]byte, 0, 64)
	)
	for hasPrefix(k, prefix) {
		if len(k) < 8 {
			return nil, errCorrupt
		}
		sp := k[:len(k)-4] // banner 0x00 sku 0x00 province
		day := int32(binary.BigEndian.Uint32(k[len(k)-4:]))
		if !bytes.Equal(sp, cur) {
			cur = cur[:0]
			province := sp[len(sp)-2:]
			keep := f.Province == "" || string(province) == f.Province
			if keep {
				bs, rest, ok := bytes.Cut(sp[:len(sp)-2], []byte{0})
				if !ok || len(rest) == 0 || rest[len(rest)-1] != 0 {
					return nil, errCorrupt
				}
				ref = SeriesRef{Banner: t.names.get(bs), SKU: string(rest[:len(rest)-1]), Province: t.names.get(province)}
				var err error
				if keep, err = want(&ref); err != nil {
					return nil, err
				}
			}
			if !keep {
				k, v = c.Seek(append(append(seek[:0], sp...), 0xff, 0xff, 0xff, 0xff))
				continue
			}
			cur = append(cur, sp...)
		}
		switch {
		case day < lo:
			k, v = c.Seek(appendDay(append(seek[:0], sp...), lo))
			continue
		case day > hi:
			// Past the days wanted: on to the next series.
			k, v = c.Seek(append(append(seek[:0], sp...), 0xff, 0xff, 0xff, 0xff))
			continue
		}
		stamps, days, err := splitBlock(v)
		if err != nil {
			return nil, err
		}
		if bw != nil {
			if err := decodeBlockWrites(stamps, bw); err != nil {
				return nil, err
			}
			if bw.max < f.Writes.From {
				k, v = c.Next() // nothing written since
				continue
			}
		}
		if err := decodeBlock(day, days, &b); err != nil {
			return nil, err
		}
		i, j := 0, len(b.Days)
		for i < j && b.Days[i].Date < f.From {
			i++
		}
		for j > i && b.Days[j-1].Date > f.To {
			j--
		}
		if i < j {
			days := b.Days
			b.Days = b.Days[i:j]
			var err error
			if bw != nil {
				keepWritten(&b, bw, f.Writes)
			}
			if len(b.Days) > 0 {
				err = fn(&ref, &b)
			}
			b.Days = days
			if err == ErrStop {
				return append([]byte(nil), k...), nil
			}
			if err != nil {
				return nil, err
			}
		}
		k, v = c.Next()
	}
	return nil, nil
}

// ScanOffers calls fn for each stored offer, of one province when
// province is not "" and of one GTIN when gtin is not "", in key order
// (province, GTIN, banner, SKU), starting after pos (nil: from the
// first). fn stops the scan by returning ErrStop: ScanOffers then returns
// the position of the offer fn saw last, to resume after; it returns a
// nil position when the scan is complete. fn may keep o only until it
// returns.
func (t *Tx) ScanOffers(pos []byte, province, gtin string, fn func(province, gtin string, o *Offer) error) ([]byte, error) {
	prefix := []byte(province)
	if province != "" {
		prefix = append(prefix, gtin...)
	}
	c := t.offers().Cursor()
	var k, v []byte
	if pos == nil {
		k, v = c.Seek(prefix)
	} else if k, v = c.Seek(pos); bytes.Equal(k, pos) {
		k, v = c.Next()
	}
	seek := make([]byte, 0, 16)
	for hasPrefix(k, prefix) {
		if len(k) < 16 {
			return nil, errCorrupt
		}
		if gtin != "" && province == "" {
			// Every province: jump to the GTIN in each.
			switch g := string(k[2:16]); {
			case g < gtin:
				k, v = c.Seek(append(append(seek[:0], k[:2]...), gtin...))
				continue
			case g > gtin:
				k, v = c.Seek(append(append(seek[:0], k[:2]...), 0xff))
				continue
			}
		}
		var o Offer
		if err := t.decodeOffer(k[16:], v, &o); err != nil {
			return nil, err
		}
		if err := fn(t.names.get(k[:2]), string(k[2:16]), &o); err != nil {
			if err == ErrStop {
				return append([]byte(nil), k...), nil
			}
			return nil, err
		}
		k, v = c.Next()
	}
	return nil, nil
}
