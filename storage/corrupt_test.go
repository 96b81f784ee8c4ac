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
	// day is a numbered category day of count observations, all at 100
	// cents in one run of n, its one SKU numbered num, its one store
	// store with storeN observations.
	day := func(count, n, num, store, storeN uint64) []byte {
		e := enc(nil).uvarint(catDayNumbered).uvarint(count).uvarint(0).uvarint(100 * count)
		e = e.uvarint(1).uvarint(num).uvarint(200).uvarint(0).uvarint(0).uvarint(0) // no lookback
		runs := enc(nil).uvarint(100).uvarint(n - 1)
		e = append(e.uvarint(1).uvarint(uint64(len(runs))), runs...)
		e = e.uvarint(0).uvarint(0) // no units
		return e.uvarint(1).uvarint(store).uvarint(storeN)
	}
	for _, c := range []struct {
		name      string
		skus, day []byte
	}{
		{"OK", list, day(3, 3, 1, 2, 3)},
		{"ErrSKUListHugeCount", enc(nil).uvarint(1 << 62).str("a"), day(3, 3, 0, 1, 3)},
		{"ErrSKUListLengthPastEnd", append(enc(nil).uvarint(2).str("a").uvarint(100), 'b'), day(3, 3, 0, 1, 3)},
		{"ErrSKUListTruncated", list[:len(list)-1], day(3, 3, 0, 1, 3)},
		{"ErrSKUNumberOutsideList", list, day(3, 3, 2, 1, 3)},
		// Count and its one run of 2^24 copies agree; its one store made
		// 3 observations.
		{"ErrHugeCount", list, day(1<<24, 1<<24, 0, 1, 3)},
		{"ErrCountAboveUint32", list, day(1<<32+3, 3, 0, 1, 3)},
		{"ErrHugeStore", list, day(3, 3, 0, 1<<31, 3)},
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
			for _, parts := range []CatParts{CatAll, CatRuns | CatNumbered} {
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
