package storage

import (
	"errors"
	"math"
	"path/filepath"
	"testing"
)

// TestCorruptCatDay: a damaged category day or SKU list is an error
// (errCorrupt), read at once, never a huge allocation or a value taken
// for another. The file has stores 1 and 2 and the SKU list "a", "b" of
// ON Dairy metro; each case writes one value of that prefix.
func TestCorruptCatDay(t *testing.T) {
	t.Parallel()
	gp := appendStr0(appendStr0([]byte("ON"), "Dairy"), "metro")
	key := appendDay(gp, 20000)
	list := enc(nil).uvarint(2).str("a").str("b")
	// sku is the SKU part of a day of one SKU numbered num (encodeSKUs):
	// links, its links' part, and a rest of its price at 200 half-cents
	// and nothing looked back on, then extra.
	sku := func(num uint64, links, extra []byte) []byte {
		rest := append(enc(nil).uvarint(200).uvarint(0).uvarint(0).uvarint(0), extra...)
		e := append(enc(nil).uvarint(1).uvarint(num), links...)
		return append(e.uvarint(uint64(len(rest))), rest...)
	}
	noLinks := enc(nil).uvarint(0)
	// restOnly is the SKU part of a day of SKU 0, no links, and rest.
	restOnly := func(rest []byte) []byte {
		return append(enc(nil).uvarint(1).uvarint(0).uvarint(0).uvarint(uint64(len(rest))), rest...)
	}
	// dayOf is a numbered category day of count observations, all at 100
	// cents in one run of n, its SKUs skus, its one store store with
	// storeN observations.
	dayOf := func(skus []byte, count, n, store, storeN uint64) []byte {
		e := append(enc(nil).uvarint(catDayParts).uvarint(count).uvarint(0).uvarint(100*count), skus...)
		runs := enc(nil).uvarint(100).uvarint(n - 1)
		e = append(e.uvarint(1).uvarint(uint64(len(runs))), runs...)
		e = e.uvarint(0).uvarint(0) // no units
		return e.uvarint(1).uvarint(store).uvarint(storeN)
	}
	day := func(count, n, num, store, storeN uint64) []byte {
		return dayOf(sku(num, noLinks, nil), count, n, store, storeN)
	}
	for _, c := range []struct {
		name      string
		skus, day []byte
		// restRead: only a read of the SKUs' rest finds the damage; one
		// of their links alone (CatLinks) passes over it by its size.
		restRead bool
	}{
		{"OK", list, day(3, 3, 1, 2, 3), false},
		{"ErrSKUListHugeCount", enc(nil).uvarint(1 << 62).str("a"), day(3, 3, 0, 1, 3), false},
		{"ErrSKUListLengthPastEnd", append(enc(nil).uvarint(2).str("a").uvarint(100), 'b'), day(3, 3, 0, 1, 3), false},
		{"ErrSKUListTruncated", list[:len(list)-1], day(3, 3, 0, 1, 3), false},
		{"ErrSKUNumberOutsideList", list, day(3, 3, 2, 1, 3), false},
		{"ErrMoreLinksThanSKUs", list, dayOf(sku(0, enc(nil).uvarint(2).uvarint(0).uvarint(2).uvarint(2), nil), 3, 3, 1, 3), false},
		{"ErrLinkPastLastSKU", list, dayOf(sku(0, enc(nil).uvarint(1).uvarint(1).uvarint(2).uvarint(2), nil), 3, 3, 1, 3), false},
		{"ErrLinkAboveUint32", list, dayOf(sku(0, enc(nil).uvarint(1).uvarint(0).uvarint(1<<33).uvarint(2), nil), 3, 3, 1, 3), false},
		{"ErrRestPastEnd", list, dayOf(enc(nil).uvarint(1).uvarint(0).uvarint(0).uvarint(1000).uvarint(200), 3, 3, 1, 3), false},
		{"ErrRestLongerThanItsSKUs", list, dayOf(sku(0, noLinks, []byte{7}), 3, 3, 1, 3), true},
		{"ErrRestPriceAboveUint32", list, dayOf(restOnly(enc(nil).uvarint(1<<40).uvarint(0).uvarint(0).uvarint(0)), 3, 3, 1, 3), true},
		{"ErrRestRegularAboveUint32", list, dayOf(restOnly(enc(nil).uvarint(5).uvarint(1<<64-3).uvarint(0).uvarint(0)), 3, 3, 1, 3), true},
		{"ErrUnknownEncoding", list, append([]byte{2}, day(3, 3, 0, 1, 3)[1:]...), false},
		// Count and its one run of 2^24 copies agree; its one store made
		// 3 observations.
		{"ErrHugeCount", list, day(1<<24, 1<<24, 0, 1, 3), false},
		{"ErrCountAboveUint32", list, day(1<<32+3, 3, 0, 1, 3), false},
		{"ErrHugeStore", list, day(3, 3, 0, 1<<31, 3), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.Update(func(tx *Tx) error {
				for _, id := range []string{"s1", "s2"} {
					if err := tx.PutStore(&Store{ID: id, Banner: "metro", Province: "ON", Active: true}); err != nil {
						return err
					}
				}
				if err := tx.put(tx.catSKUs(), gp, c.skus); err != nil {
					return err
				}
				return tx.put(tx.catDays(), key, c.day)
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, parts := range []CatParts{CatAll, CatRuns | CatNumbered, CatRuns | CatNumbered | CatLinks} {
				var got *CatDay
				err := db.View(func(tx *Tx) error {
					return tx.CatDays("ON", "", "", 0, 1<<30, parts, func(_ *CatDayKey, d *CatDay) error {
						got = d
						return nil
					})
				})
				switch {
				case c.name == "OK" && (err != nil || got == nil || got.Count != 3 || len(got.Stores) != 1 || got.Stores[0] != StoreCount{2, 3}):
					t.Errorf("parts %d: got %+v, %v, want the day of 3 observations at store 2", parts, got, err)
				case c.restRead && parts&CatLinks != 0:
					if err != nil || got == nil || got.Count != 3 || len(got.SKUNums) != 1 {
						t.Errorf("parts %d: got %+v, %v, want the day's one SKU, its rest passed over", parts, got, err)
					}
				case c.name != "OK" && !errors.Is(err, errCorrupt):
					count := uint32(math.MaxUint32)
					if got != nil {
						count = got.Count
					}
					t.Errorf("parts %d: got count %d, %v, want errCorrupt", parts, count, err)
				}
			}
		})
	}
}
