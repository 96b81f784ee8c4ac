package storage_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
)

// TestUpdateCatDay adds and removes observations as multisets: ties,
// a removal of a price not there (ignored), a correction (one of each),
// and the aggregate deleted when empty.
func TestUpdateCatDay(t *testing.T) {
	db := MustOpen(t)
	putStores(t, db, 4)
	k := storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000}
	read := func() *storage.CatDay {
		t.Helper()
		var got *storage.CatDay
		err := db.View(func(tx *storage.Tx) error {
			return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatAll, func(_ *storage.CatDayKey, c *storage.CatDay) error {
				// What CatAll reads.
				got = &storage.CatDay{Count: c.Count, Promo: c.Promo, Sum: c.Sum, SKUs: append([]storage.SKUDay{}, c.SKUs...),
					Prices: append([]uint32{}, c.Prices...), Units: append([]uint32{}, c.Units...), Stores: append([]storage.StoreCount{}, c.Stores...)}
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
	putStores(t, db, 1)
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

// TestCatDaysSKUsDayToDay: a scan of days whose SKUs are gained, lost
// and shared from one day to the next reads each day as written (the
// category's SKU list grows as days add SKUs). The reuse of the day
// before's strings, for format 4 days, is TestUpgradeFormat4's.
func TestCatDaysSKUsDayToDay(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	putStores(t, db, 1)
	days := [][]string{{"a10", "a2", "c", "m"}, {"a10", "a11", "a2", "b", "m", "z"}, {"c"}, {"a10", "a11", "c", "m", "z"}, {}}
	update(t, db, func(tx *storage.Tx) error {
		for i, skus := range days {
			ch := &storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}}}
			for j, s := range skus {
				ch.SKUs = append(ch.SKUs, storage.SKUDay{SKU: s, Price: uint32(10*i + j), Regular: uint32(10*i + j + 1)})
			}
			if err := tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: int32(20000 + i)}, ch); err != nil {
				return err
			}
		}
		return nil
	})
	var got [][]string
	err := db.View(func(tx *storage.Tx) error {
		return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs, func(k *storage.CatDayKey, c *storage.CatDay) error {
			i := int(k.Day - 20000)
			day := []string{}
			for j, sd := range c.SKUs {
				if sd.Price != uint32(10*i+j) {
					t.Errorf("day %d, %s: price got %d, want %d", i, sd.SKU, sd.Price, 10*i+j)
				}
				day = append(day, sd.SKU)
			}
			got = append(got, day)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(days, got); diff != "" {
		t.Errorf("SKUs by day (-want +got):\n%s", diff)
	}
}

// TestShelfSpans: the spans of a province's banner SKUs, of all its
// banners and of one, in key order (banner, SKU), as written; ShelfIn
// reads the same shelves, and ShelfFirsts their first days and prices.
func TestShelfSpans(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	update(t, db, func(tx *storage.Tx) error {
		for _, s := range []struct {
			province string
			shelf    storage.Shelf
		}{
			{"ON", storage.Shelf{Banner: "metro", SKU: "m1", GTIN: "00012345678905", Category: "Dairy", First: 20000, Last: 20010, FirstPrice: 399, LastPrice: 349}},
			{"ON", storage.Shelf{Banner: "metro", SKU: "m2", Category: "Bakery", First: 20005, Last: 20005}},
			{"ON", storage.Shelf{Banner: "sobeys", SKU: "s1", GTIN: "00012345678912", Category: "Dairy", First: 19990, Last: 20020, Min30: 5}},
			{"QC", storage.Shelf{Banner: "metro", SKU: "m1", GTIN: "00012345678905", Category: "Dairy", First: 20001, Last: 20002}},
		} {
			if err := tx.PutShelf(s.province, &s.shelf); err != nil {
				return err
			}
		}
		return nil
	})
	type span struct {
		GTIN, Category string
		First, Last    int32
	}
	m1 := span{"00012345678905", "Dairy", 20000, 20010}
	m2 := span{"", "Bakery", 20005, 20005}
	s1 := span{"00012345678912", "Dairy", 19990, 20020}
	for banner, want := range map[string][]span{"": {m1, m2, s1}, "metro": {m1, m2}} {
		var got, shelves []span
		err := db.View(func(tx *storage.Tx) error {
			err := tx.ShelfSpans("ON", banner, func(gtin, category []byte, first, last int32) error {
				got = append(got, span{string(gtin), string(category), first, last})
				return nil
			})
			if err != nil {
				return err
			}
			return tx.ShelfIn("ON", banner, func(s *storage.Shelf) error {
				shelves = append(shelves, span{s.GTIN, s.Category, s.First, s.Last})
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("banner %q: ShelfSpans (-want +got):\n%s", banner, diff)
		}
		if diff := cmp.Diff(want, shelves); diff != "" {
			t.Errorf("banner %q: ShelfIn (-want +got):\n%s", banner, diff)
		}
	}
	// ShelfFirsts: each banner SKU's banner, barcode, first day and price.
	type firstDay struct {
		Banner, GTIN string
		First        int32
		Price        uint32
	}
	var got []firstDay
	err := db.View(func(tx *storage.Tx) error {
		return tx.ShelfFirsts("ON", func(banner, gtin []byte, first int32, price uint32) error {
			got = append(got, firstDay{string(banner), string(gtin), first, price})
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []firstDay{{"metro", "00012345678905", 20000, 399}, {"metro", "", 20005, 0}, {"sobeys", "00012345678912", 19990, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ShelfFirsts (-want +got):\n%s", diff)
	}
}

// TestCatDayRuns: a read with CatRuns gives the prices and units as runs
// of equal values, a read with CatAll one by one; both worked out by hand
// from the eight observations.
func TestCatDayRuns(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	putStores(t, db, 3)
	var obs []storage.CatObs
	for i, p := range []uint32{300, 100, 300, 200, 300, 100, 129, 1 << 20} {
		obs = append(obs, storage.CatObs{Store: uint32(i%3 + 1), Price: p, Unit: (p/10)<<2 | uint32(i%2+1)})
	}
	update(t, db, func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000},
			&storage.CatDayChange{Add: obs, SKUs: []storage.SKUDay{{SKU: "a", Price: 2, Regular: 2}}})
	})
	read := func(parts storage.CatParts) (c storage.CatDay) {
		t.Helper()
		err := db.View(func(tx *storage.Tx) error {
			return tx.CatDays("ON", "", "", 0, 1<<30, parts, func(_ *storage.CatDayKey, d *storage.CatDay) error {
				c = *d
				c.SKUs, c.Prices, c.Units, c.Stores = slices.Clone(d.SKUs), slices.Clone(d.Prices), slices.Clone(d.Units), slices.Clone(d.Stores)
				c.PriceRuns, c.UnitRuns = slices.Clone(d.PriceRuns), slices.Clone(d.UnitRuns)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	all, runs := read(storage.CatAll), read(storage.CatRuns)
	if want := []uint32{100, 100, 129, 200, 300, 300, 300, 1 << 20}; !slices.Equal(all.Prices, want) {
		t.Errorf("CatAll prices: got %v, want %v", all.Prices, want)
	}
	wantRuns := []storage.Run{{Value: 100, N: 2}, {Value: 129, N: 1}, {Value: 200, N: 1}, {Value: 300, N: 3}, {Value: 1 << 20, N: 1}}
	if diff := cmp.Diff(wantRuns, runs.PriceRuns); diff != "" {
		t.Errorf("CatRuns price runs (-want +got):\n%s", diff)
	}
	// The units, (price/10)<<2 | basis, basis 1 for the even
	// observations and 2 for the odd: 30<<2|1 three times (the 300s),
	// 10<<2|2 twice (the 100s), 20<<2|2, 12<<2|1 and 104857<<2|2.
	wantUnits := []uint32{42, 42, 49, 82, 121, 121, 121, 419430}
	if !slices.Equal(all.Units, wantUnits) {
		t.Errorf("CatAll units: got %v, want %v", all.Units, wantUnits)
	}
	wantUnitRuns := []storage.Run{{Value: 42, N: 2}, {Value: 49, N: 1}, {Value: 82, N: 1}, {Value: 121, N: 3}, {Value: 419430, N: 1}}
	if diff := cmp.Diff(wantUnitRuns, runs.UnitRuns); diff != "" {
		t.Errorf("CatRuns unit runs (-want +got):\n%s", diff)
	}
	if len(runs.Prices)+len(runs.Units) != 0 || len(all.PriceRuns)+len(all.UnitRuns) != 0 {
		t.Errorf("CatRuns gave %d prices and units, CatAll %d runs: want none", len(runs.Prices)+len(runs.Units), len(all.PriceRuns)+len(all.UnitRuns))
	}
	// Stores i%3+1: 1 for observations 0, 3 and 6; 2 for 1, 4 and 7; 3
	// for 2 and 5. The sum: 300+100+300+200+300+100+129+1048576.
	wantStores := []storage.StoreCount{{Store: 1, N: 3}, {Store: 2, N: 3}, {Store: 3, N: 2}}
	for _, c := range []storage.CatDay{all, runs} {
		if diff := cmp.Diff(wantStores, c.Stores); diff != "" || c.Count != 8 || c.Sum != 1050005 {
			t.Errorf("count %d, sum %d: want 8, 1050005; stores (-want +got):\n%s", c.Count, c.Sum, diff)
		}
	}
}

// TestUpdateCatDayUnknownStore: an observation of a store PutStore has
// not numbered is refused, nothing written, as a read would refuse the
// day that named it.
func TestUpdateCatDayUnknownStore(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	putStores(t, db, 2)
	k := storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000}
	err := db.Update(func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&k, &storage.CatDayChange{Add: []storage.CatObs{{Store: 2, Price: 100}, {Store: 3, Price: 100}}})
	})
	if err == nil || !strings.Contains(err.Error(), "store 3") {
		t.Fatalf("an observation of store 3 of 2: got %v, want an error naming store 3", err)
	}
	n := 0
	err = db.View(func(tx *storage.Tx) error {
		return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatAll, func(*storage.CatDayKey, *storage.CatDay) error { n++; return nil })
	})
	if err != nil || n != 0 {
		t.Errorf("after the refused change: got %d days, %v, want none", n, err)
	}
}

// TestCatDayNamesAfterWrite: the SKU lists read transactions share are
// those of the state they read: a read after a write that numbers a new
// SKU names it, while a read of the state before saw the list without it.
func TestCatDayNamesAfterWrite(t *testing.T) {
	t.Parallel()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	putStores(t, db, 1)
	k := storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000}
	add := func(sku string) {
		update(t, db, func(tx *storage.Tx) error {
			return tx.UpdateCatDay(&k, &storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}},
				SKUs: []storage.SKUDay{{SKU: sku, Price: 200, Regular: 200}}})
		})
	}
	names := func() []string {
		var got []string
		err := db.View(func(tx *storage.Tx) error {
			return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs|storage.CatNumbered, func(_ *storage.CatDayKey, c *storage.CatDay) error {
				for _, n := range c.SKUNums {
					got = append(got, c.Names[n.Num])
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	add("a")
	if got := names(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after a: got %q", got)
	}
	add("b")
	if got := names(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("after b: got %q, want a and b (the list read before b was written is not this state's)", got)
	}
}

// TestSKUDayLookback: what a daily price looks back on comes back as
// written, read by name and by number (its links alone with CatLinks):
// with or without a previous day,
// Fell, and links either way (a link with no day in the lookback too, as
// a move since a day older than it).
func TestSKUDayLookback(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	putStores(t, db, 1)
	skus := []storage.SKUDay{
		{SKU: "a", Price: 10, Regular: 10},
		{SKU: "b", Price: 10, Regular: 12, Lookback: storage.Lookback{Low: 8, PrevGap: 3, PrevRegular: 12, Fell: true, Link: -1823215, RegularLink: 0}},
		{SKU: "c", Price: 20, Regular: 20, Lookback: storage.Lookback{Low: 20, PrevGap: 1, PrevRegular: 18, Link: 1053605, RegularLink: 1053605}},
		{SKU: "d", Price: 30, Regular: 30, Lookback: storage.Lookback{Link: 0, RegularLink: -2147483648}},
		{SKU: "e", Price: 30, Regular: 30, Lookback: storage.Lookback{Low: 25, PrevGap: 30, PrevRegular: 30, Link: 2147483647}},
	}
	update(t, db, func(tx *storage.Tx) error {
		return tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20000},
			&storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}}, SKUs: skus})
	})
	var named []storage.SKUDay
	var numbered, links []storage.SKUNum
	err := db.View(func(tx *storage.Tx) error {
		err := tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			named = append(named, c.SKUs...)
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs|storage.CatNumbered, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			numbered = append(numbered, c.SKUNums...)
			return nil
		})
		if err != nil {
			return err
		}
		return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatRuns|storage.CatNumbered|storage.CatLinks, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			links = append(links, c.SKUNums...)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(skus, named); diff != "" {
		t.Errorf("by name (-want +got):\n%s", diff)
	}
	var want []storage.SKUNum
	for i, sd := range skus {
		want = append(want, storage.SKUNum{Num: uint32(i), Lookback: sd.Lookback, Price: sd.Price, Regular: sd.Regular})
	}
	if diff := cmp.Diff(want, numbered); diff != "" {
		t.Errorf("by number (-want +got):\n%s", diff)
	}
	for i := range want {
		want[i] = storage.SKUNum{Num: want[i].Num, Lookback: storage.Lookback{Link: want[i].Link, RegularLink: want[i].RegularLink}}
	}
	if diff := cmp.Diff(want, links); diff != "" {
		t.Errorf("with CatLinks (-want +got):\n%s", diff)
	}
}

// TestSKULinksRandom: a read with CatLinks gives each SKU day's number
// and links as the whole read does, whatever the sizes of the values
// before them (a number, price or gap of one to five bytes, days with and
// without a previous day or links), each day's SKUs numbered past 127 too.
func TestSKULinksRandom(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	putStores(t, db, 1)
	r := rand.New(rand.NewPCG(5, 6))
	size := func() uint32 { return uint32(r.Uint64() >> (32 + r.IntN(32))) } // 0 to 2^32-1, small ones often
	link := func() int32 {
		if r.IntN(2) == 0 {
			return 0
		}
		return int32(r.Uint64()>>(33+r.IntN(31))) * int32(1-2*r.IntN(2))
	}
	for day := int32(20000); day < 20004; day++ {
		var skus []storage.SKUDay
		for n := range 200 + r.IntN(100) {
			p := size()
			sd := storage.SKUDay{SKU: fmt.Sprintf("sku%05d", n*int(day-19990)), Price: p, Regular: p + size()%5000*uint32(r.IntN(2)),
				Lookback: storage.Lookback{Low: size(), Fell: r.IntN(2) == 0, Link: link(), RegularLink: link()}}
			if r.IntN(3) > 0 {
				sd.PrevGap, sd.PrevRegular = 1+size()%40, size()
			}
			skus = append(skus, sd)
		}
		update(t, db, func(tx *storage.Tx) error {
			return tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: day},
				&storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}}, SKUs: skus})
		})
	}
	var whole, links []storage.SKUNum
	err := db.View(func(tx *storage.Tx) error {
		err := tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs|storage.CatNumbered, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			whole = append(whole, c.SKUNums...)
			return nil
		})
		if err != nil {
			return err
		}
		return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs|storage.CatNumbered|storage.CatLinks, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			links = append(links, c.SKUNums...)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) < 800 {
		t.Fatalf("read %d SKU days: want the 4 days' 800 or more", len(whole))
	}
	for i := range whole {
		whole[i] = storage.SKUNum{Num: whole[i].Num, Lookback: storage.Lookback{Link: whole[i].Link, RegularLink: whole[i].RegularLink}}
	}
	if diff := cmp.Diff(whole, links); diff != "" {
		t.Errorf("with CatLinks (-whole +links):\n%s", diff)
	}
}
