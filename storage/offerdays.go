package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"maps"
	"slices"
)

// The offer days: per province, the newest observation day of every
// product with an offer there (the greatest Offer.ObservedAt over its
// banner SKUs), so that a search tells which of its matches have a
// current price without reading their offers. A province's record is
// rebuilt from its offers when a write transaction that put or deleted
// one of them commits (DB.Update), so it always agrees with them.
//
//	offerdays  province(2) -> entries of 18 bytes, ascending by GTIN:
//	           gtin(14) day(4)

const offerDayLen = 14 + 4

// OfferDays is one province's offer days as its transaction reads them
// (Tx.OfferDays). It remembers where its last lookup ended, so it is not
// safe for concurrent use; copy it for another goroutine.
type OfferDays struct {
	b  []byte // the record: valid as long as the transaction
	at int    // the entry the last lookup ended at
}

// OfferDays returns the offer days of province: none when it has no
// offer. In a write transaction they include its own writes of offers.
// Unlike the values most reads return, they are a view of the file, valid
// only until the transaction ends.
func (t *Tx) OfferDays(province string) (OfferDays, error) {
	if len(t.offerProvinces) > 0 {
		if err := t.putOfferDays(); err != nil {
			return OfferDays{}, err
		}
	}
	v := t.offerDays().Get([]byte(province))
	if len(v)%offerDayLen != 0 {
		return OfferDays{}, errCorrupt
	}
	return OfferDays{b: v}, nil
}

// Len returns the number of products with an offer in the province.
func (d *OfferDays) Len() int { return len(d.b) / offerDayLen }

// gtinKey returns a GTIN (14 bytes) as two numbers that order as its bytes
// do: its first 8 bytes, then its last 8 (bytes 6 and 7 counted twice).
func gtinKey(gtin []byte) (hi, lo uint64) {
	return binary.BigEndian.Uint64(gtin[:8]), binary.BigEndian.Uint64(gtin[6:14])
}

// cmp compares entry i's GTIN with the one whose key is hi, lo.
func (d *OfferDays) cmp(i int, hi, lo uint64) int {
	h, l := gtinKey(d.b[i*offerDayLen:])
	if h != hi {
		return cmp.Compare(h, hi)
	}
	return cmp.Compare(l, lo)
}

// Newest returns the newest observation day of the offers of gtin (14
// bytes), false when the province has none. Lookups in ascending GTIN
// order cost about log2 of the distance from one to the next (the record
// is galloped from the last one); any other order costs a binary search.
func (d *OfferDays) Newest(gtin []byte) (int32, bool) {
	if len(gtin) != 14 {
		return 0, false
	}
	hi, lo := gtinKey(gtin)
	n := d.Len()
	first, end := 0, n // the entry sought is the first in [first, end) not below gtin, else end
	if d.at < n && d.cmp(d.at, hi, lo) <= 0 {
		// At or after the last one: gallop to a bound past it.
		step := 1
		first = d.at
		for first+step < n && d.cmp(first+step, hi, lo) <= 0 {
			first, step = first+step, 2*step
		}
		end = min(n, first+step)
	}
	for first < end {
		m := int(uint(first+end) >> 1)
		if d.cmp(m, hi, lo) < 0 {
			first = m + 1
		} else {
			end = m
		}
	}
	d.at = min(first, max(n-1, 0))
	if first == n || d.cmp(first, hi, lo) != 0 {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(d.b[first*offerDayLen+14:])), true
}

// offersPut notes that a province's offers changed, for putOfferDays.
func (t *Tx) offersPut(province string) {
	if n := len(t.offerProvinces); n > 0 && t.offerProvinces[n-1] == province {
		return
	}
	if !slices.Contains(t.offerProvinces, province) {
		t.offerProvinces = append(t.offerProvinces, province)
	}
}

// putOfferDays rebuilds the offer days of every province whose offers
// the transaction changed; DB.Update calls it before committing.
func (t *Tx) putOfferDays() error {
	slices.Sort(t.offerProvinces)
	for _, p := range t.offerProvinces {
		v, err := t.buildOfferDays(p)
		if err != nil {
			return err
		}
		if bytes.Equal(v, t.offerDays().Get([]byte(p))) {
			continue // unchanged: leave its pages clean
		}
		if len(v) == 0 {
			err = t.offerDays().Delete([]byte(p))
		} else {
			err = t.offerDays().Put([]byte(p), v)
		}
		if err != nil {
			return err
		}
	}
	t.offerProvinces = t.offerProvinces[:0]
	return nil
}

// buildOfferDays returns province's offer days record from its offers.
func (t *Tx) buildOfferDays(province string) ([]byte, error) {
	var v []byte
	err := t.offerDaysIn(province, func(gtin []byte, observed int32) error {
		if n := len(v); n > 0 && bytes.Equal(v[n-offerDayLen:n-4], gtin) {
			if observed > int32(binary.BigEndian.Uint32(v[n-4:])) {
				binary.BigEndian.PutUint32(v[n-4:], uint32(observed))
			}
			return nil
		}
		v = binary.BigEndian.AppendUint32(append(v, gtin...), uint32(observed))
		return nil
	})
	return v, err
}

// eachOfferProvince calls fn with each province that has an offer, one
// seek a province.
func (t *Tx) eachOfferProvince(fn func(province string)) error {
	c := t.offers().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Seek(append(bytes.Clone(k[:2]), 0xff)) {
		if len(k) < 2 {
			return errCorrupt
		}
		fn(string(k[:2]))
	}
	return nil
}

// fillOfferDays marks every province with an offer for putOfferDays (the
// upgrade of a file older than version 14).
func (t *Tx) fillOfferDays() error { return t.eachOfferProvince(t.offersPut) }

// checkOfferDays checks that each province's offer days are those its
// offers give, and that no province without offers has a record. In a
// write transaction it checks what the transaction would commit.
func (t *Tx) checkOfferDays() error {
	if len(t.offerProvinces) > 0 {
		if err := t.putOfferDays(); err != nil {
			return err
		}
	}
	provinces := map[string]bool{}
	c := t.offerDays().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		provinces[string(k)] = true
	}
	if err := t.eachOfferProvince(func(p string) { provinces[p] = true }); err != nil {
		return err
	}
	for _, p := range slices.Sorted(maps.Keys(provinces)) {
		want, err := t.buildOfferDays(p)
		if err != nil {
			return err
		}
		if got := t.offerDays().Get([]byte(p)); !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			return inconsistent("offerdays of %q differ from its offers at product %d (of %d, its offers give %d)", p, i/offerDayLen+1, len(got)/offerDayLen, len(want)/offerDayLen)
		}
	}
	return nil
}
