package storage_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

// TestUpdateCatDay adds and removes observations as multisets: ties,
// a removal of a price not there (ignored), a correction (one of each),
// and the aggregate deleted when empty.
func TestUpdateCatDay(t *testing.T) {
	db := MustOpen(t)
	k := storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000}
	read := func() *storage.CatDay {
		t.Helper()
		var got *storage.CatDay
		err := db.View(func(tx *storage.Tx) error {
			return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatAll, func(_ *storage.CatDayKey, c *storage.CatDay) error {
				cp := *c
				cp.SKUs = append([]storage.SKUDay{}, c.SKUs...)
				cp.Prices, cp.Units, cp.Stores = append([]uint32{}, c.Prices...), append([]uint32{}, c.Units...), append([]storage.StoreCount{}, c.Stores...)
				got = &cp
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	update(t, db, func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&k, &storage.CatDayChange{Add: []storage.CatObs{
			{Store: 2, Price: 300, Unit: 40<<2 | 1},
			{Store: 1, Price: 100, Unit: 20<<2 | 1, Promo: true},
			{Store: 1, Price: 300},
			{Store: 3, Price: 200, Unit: 20<<2 | 1},
		}, SKUs: []storage.SKUDay{{SKU: "b", Price: 400, Regular: 600}, {SKU: "a", Price: 401, Regular: 401}}})
	})
	want := &storage.CatDay{Count: 4, Promo: 1, Sum: 900, Prices: []uint32{100, 200, 300, 300},
		SKUs:  []storage.SKUDay{{SKU: "a", Price: 401, Regular: 401}, {SKU: "b", Price: 400, Regular: 600}},
		Units: []uint32{20<<2 | 1, 20<<2 | 1, 40<<2 | 1}, Stores: []storage.StoreCount{{1, 2}, {2, 1}, {3, 1}}}
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Fatalf("after adding (-want +got):\n%s", diff)
	}
	update(t, db, func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&k, &storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 150}, {Store: 4, Price: 300}},
			Remove: []storage.CatObs{{Store: 1, Price: 100, Unit: 20<<2 | 1, Promo: true}, {Store: 2, Price: 999}, {Store: 2, Price: 300, Unit: 40<<2 | 1}},
			SKUs:   []storage.SKUDay{{SKU: "b", Price: 500, Regular: 600}, {SKU: "c", Price: 7, Regular: 9}}})
	})
	want = &storage.CatDay{Count: 4, Promo: 0, Sum: 950, Prices: []uint32{150, 200, 300, 300},
		SKUs:  []storage.SKUDay{{SKU: "a", Price: 401, Regular: 401}, {SKU: "b", Price: 500, Regular: 600}, {SKU: "c", Price: 7, Regular: 9}},
		Units: []uint32{20<<2 | 1}, Stores: []storage.StoreCount{{1, 2}, {3, 1}, {4, 1}}}
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Fatalf("after correcting (-want +got):\n%s", diff)
	}
	update(t, db, func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&k, &storage.CatDayChange{Remove: []storage.CatObs{{Store: 1, Price: 150}, {Store: 4, Price: 300}, {Store: 1, Price: 300}, {Store: 3, Price: 200, Unit: 20<<2 | 1}}})
	})
	if got := read(); got != nil {
		t.Fatalf("after removing all: got %+v, want no aggregate", got)
	}
}

// TestUpdateCatDaySKUs: a change's SKU days replace those of the same
// SKU, the last of the same SKU in one change winning, and the list stays
// sorted by SKU.
func TestUpdateCatDaySKUs(t *testing.T) {
	db := MustOpen(t)
	k := storage.CatDayKey{Province: "QC", Category: "Bakery", Banner: "maxi", Day: 20001}
	set := func(skus ...storage.SKUDay) {
		update(t, db, func(tx *storage.Tx) error {
			return tx.UpdateCatDay(&k, &storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}}, SKUs: skus})
		})
	}
	set(storage.SKUDay{SKU: "m", Price: 2, Regular: 2}, storage.SKUDay{SKU: "c", Price: 4, Regular: 6})
	set(storage.SKUDay{SKU: "z", Price: 8, Regular: 8}, storage.SKUDay{SKU: "a", Price: 1, Regular: 1},
		storage.SKUDay{SKU: "m", Price: 3, Regular: 5}, storage.SKUDay{SKU: "m", Price: 7, Regular: 9})
	var got []storage.SKUDay
	err := db.View(func(tx *storage.Tx) error {
		return tx.CatDays("QC", "", "", 0, 1<<30, storage.CatSKUs, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			got = append(got, c.SKUs...)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []storage.SKUDay{{SKU: "a", Price: 1, Regular: 1}, {SKU: "c", Price: 4, Regular: 6},
		{SKU: "m", Price: 7, Regular: 9}, {SKU: "z", Price: 8, Regular: 8}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SKU days (-want +got):\n%s", diff)
	}
}
