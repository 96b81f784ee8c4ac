package storage

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// openBlocks opens a new file with n stores numbered.
func openBlocks(t *testing.T, n int) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "blocks.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Update(func(tx *Tx) error {
		for i := 1; i <= n; i++ {
			if err := tx.PutStore(&Store{ID: fmt.Sprint("store", i), Banner: "metro", Province: "ON", Active: true}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// spanOf is what a test compares of a span: its days and figures, a
// block's SKUs by name.
type spanOf struct {
	First, Last         int32
	Count, Sum          uint64
	Days, Observed      []uint64
	SKUs                map[string]SKUSpan
	Nums                []string
	PriceRuns, UnitRuns []Run
	Stores              []StoreCount
}

func readSpans(t *testing.T, db *DB, periods ...CatPeriod) []spanOf {
	t.Helper()
	var got []spanOf
	err := db.View(func(tx *Tx) error {
		return tx.CatSpans("ON", "Dairy", "metro", periods, func(k *CatDayKey, s *CatSpan) error {
			if k.Day != s.First {
				t.Errorf("span from %d given as day %d", s.First, k.Day)
			}
			o := spanOf{First: s.First, Last: s.Last, Count: s.Count, Sum: s.Sum, Days: slices.Clone(s.Days), Observed: slices.Clone(s.Observed),
				PriceRuns: slices.Clone(s.PriceRuns), UnitRuns: slices.Clone(s.UnitRuns), Stores: slices.Clone(s.Stores)}
			for _, k := range s.SKUs {
				if o.SKUs == nil {
					o.SKUs = map[string]SKUSpan{}
				}
				name := s.Names[k.Num]
				k.Num = 0
				o.SKUs[name] = k
			}
			for _, n := range s.Nums {
				o.Nums = append(o.Nums, s.Names[n.Num])
			}
			got = append(got, o)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestCatSpansHandWorked: a series of 12 days, 20000 to 20011 (20000 a
// multiple of 8), one observation a day at 100 cents plus the day's
// number, SKU a on every day, its price up by ℓ = ln 1.1 on 20002 and
// back on 20005, SKU b on 20004-20007, its regular price up by 0.1 (in
// logs) on 20006.
//
// The whole of it is a block of 8 days and one of 4. a's block of 8: its
// index exp(0) on 20000-20001 and 20005-20007, exp(ℓ) on 20002-20004:
// 5 + 3 e^ℓ, its links adding up to 0. b's: regular index 1, 1, e^0.1,
// e^0.1. From 20001 to 20010: the days 20001-20003 and 20008-20010, and
// the block of 20004-20007, where a's index is 1 on 20004 and e^-ℓ after.
func TestCatSpansHandWorked(t *testing.T) {
	t.Parallel()
	db := openBlocks(t, 1)
	const ell = 953102 // 10^7 ln 1.1
	err := db.Update(func(tx *Tx) error {
		for d := int32(20000); d <= 20011; d++ {
			a := SKUDay{SKU: "a", Price: 200, Regular: 200}
			switch d {
			case 20002:
				a.Link = ell
			case 20005:
				a.Link = -ell
			}
			skus := []SKUDay{a}
			if d >= 20004 && d <= 20007 {
				b := SKUDay{SKU: "b", Price: 300, Regular: 300}
				if d == 20006 {
					b.RegularLink = 1000000
				}
				skus = append(skus, b)
			}
			k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: d}
			obs := []CatObs{{Store: 1, Price: uint32(100 + d - 20000)}}
			if err := tx.UpdateCatDay(&k, &CatDayChange{Add: obs, SKUs: skus}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	runs := func(from, to uint32) []Run {
		var r []Run
		for v := from; v <= to; v++ {
			r = append(r, Run{v, 1})
		}
		return r
	}
	eEll, e01 := math.Exp(0.0953102), math.Exp(0.1)
	whole := []spanOf{
		{First: 20000, Last: 20007, Count: 8, Sum: 828, Days: []uint64{0xff}, Observed: []uint64{0xff},
			SKUs: map[string]SKUSpan{
				"a": {Days: 8, Index: 5 + 3*eEll, RegularIndex: 8},
				"b": {Days: 4, RegularInner: 1000000, Index: 4, RegularIndex: 2 + 2*e01},
			},
			PriceRuns: runs(100, 107), Stores: []StoreCount{{1, 8}}},
		{First: 20008, Last: 20011, Count: 4, Sum: 438, Days: []uint64{0xf}, Observed: []uint64{0xf},
			SKUs:      map[string]SKUSpan{"a": {Days: 4, Index: 4, RegularIndex: 4}},
			PriceRuns: runs(108, 111), Stores: []StoreCount{{1, 4}}},
	}
	opts := cmp.Options{cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-9 })}
	if diff := cmp.Diff(whole, readSpans(t, db, CatPeriod{From: 20000, To: 20011, Levels: true}), opts); diff != "" {
		t.Errorf("20000-20011 (-want +got):\n%s", diff)
	}
	day := func(d int32, skus ...string) spanOf {
		p := uint32(100 + d - 20000)
		return spanOf{First: d, Last: d, Count: 1, Sum: uint64(p), Days: []uint64{1}, Observed: []uint64{1}, Nums: skus,
			PriceRuns: []Run{{p, 1}}, Stores: []StoreCount{{1, 1}}}
	}
	inner := []spanOf{day(20001, "a"), day(20002, "a"), day(20003, "a"),
		{First: 20004, Last: 20007, Count: 4, Sum: 422, Days: []uint64{0xf}, Observed: []uint64{0xf},
			SKUs: map[string]SKUSpan{
				"a": {Days: 4, Inner: -ell, Index: 1 + 3/eEll, RegularIndex: 4},
				"b": {Days: 4, RegularInner: 1000000, Index: 4, RegularIndex: 2 + 2*e01},
			},
			PriceRuns: runs(104, 107), Stores: []StoreCount{{1, 4}}},
		day(20008, "a"), day(20009, "a"), day(20010, "a")}
	if diff := cmp.Diff(inner, readSpans(t, db, CatPeriod{From: 20001, To: 20010, Levels: true}), opts); diff != "" {
		t.Errorf("20001-20010 (-want +got):\n%s", diff)
	}
	// Without levels, split in two periods: the block of 20004-20007 is
	// in neither whole.
	got := readSpans(t, db, CatPeriod{From: 20000, To: 20005}, CatPeriod{From: 20006, To: 20011})
	var firsts []int32
	for _, s := range got {
		firsts = append(firsts, s.First)
		if s.PriceRuns != nil || s.Stores != nil {
			t.Errorf("span from %d read without levels has runs %v, stores %v", s.First, s.PriceRuns, s.Stores)
		}
	}
	if want := []int32{20000, 20004, 20005, 20006, 20007, 20008}; !slices.Equal(firsts, want) {
		t.Errorf("two periods: spans from %v, want %v (a block of 4, 2 days, 2 days, a block of 4)", firsts, want)
	}
	// A change that changes nothing leaves no block to rebuild.
	err = db.Update(func(tx *Tx) error {
		k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20005}
		if err := tx.UpdateCatDay(&k, &CatDayChange{SKUs: []SKUDay{{SKU: "b", Price: 300, Regular: 300}}}); err != nil {
			return err
		}
		if len(tx.catTouched) != 0 {
			t.Errorf("a change to day 20005 that leaves it as it was touched %d series", len(tx.catTouched))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A day after a gap: the block of 20012-20015 is not complete, so
	// its days are read.
	err = db.Update(func(tx *Tx) error {
		k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: 20013}
		return tx.UpdateCatDay(&k, &CatDayChange{Add: []CatObs{{Store: 1, Price: 113}}})
	})
	if err != nil {
		t.Fatal(err)
	}
	firsts = firsts[:0]
	for _, s := range readSpans(t, db, CatPeriod{From: 20008, To: 20015}) {
		firsts = append(firsts, s.First)
	}
	if want := []int32{20008, 20013}; !slices.Equal(firsts, want) {
		t.Errorf("after day 20013: spans of 20008-20015 from %v, want %v", firsts, want)
	}
	// Day 20020 completes the blocks of 20012-20015, 20008-20015 and
	// 20000-20015 (7 blocks with the 4 of before); taking it out again
	// leaves 20013 the last day, and those three not complete: they go,
	// though none holds 20020.
	dayObs := func(d int32, remove bool) error {
		return db.Update(func(tx *Tx) error {
			k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: d}
			ch := &CatDayChange{Add: []CatObs{{Store: 1, Price: uint32(100 + d - 20000)}}}
			if remove {
				ch.Add, ch.Remove = nil, ch.Add
			}
			return tx.UpdateCatDay(&k, ch)
		})
	}
	for _, step := range []struct {
		day    int32
		remove bool
		blocks int // stored
	}{{20020, false, 7}, {20020, true, 4}} {
		if err := dayObs(step.day, step.remove); err != nil {
			t.Fatal(err)
		}
		err := db.View(func(tx *Tx) error {
			if n := tx.catBlocks().Stats().KeyN; n != step.blocks {
				t.Errorf("day %d (taken out: %v): %d blocks stored, want %d", step.day, step.remove, n, step.blocks)
			}
			return tx.checkCatBlocks()
		})
		if err != nil {
			t.Fatalf("day %d (taken out: %v): %v", step.day, step.remove, err)
		}
	}
}

// TestCatBlocksRandom writes, corrects and deletes category days of
// three series at random over 30 transactions, over up to 1,270 days (the
// blocks of 512 days among them), every tenth transaction clearing the
// aggregates and writing the days' observations again; each compares a
// period's spans with its days before it commits. After each, the stored
// blocks are those a merge of the days gives (checkCatBlocks), and the
// spans of random periods add up to what their days give: counts, sums,
// runs, stores, days, and each SKU's chained index summed over the
// period (from its first day in the period, as storage.Lookback.Link
// chains it).
func TestCatBlocksRandom(t *testing.T) {
	t.Parallel()
	db := openBlocks(t, 5)
	r := rand.New(rand.NewPCG(17, 29))
	type series struct{ category, banner string }
	all := []series{{"Dairy", "metro"}, {"Bakery", "metro"}, {"Dairy", "loblaws"}}
	held := map[CatDayKey][]CatObs{} // what each day holds
	for round := range 30 {
		err := db.Update(func(tx *Tx) error {
			for range 1 + r.IntN(40) {
				s := all[r.IntN(len(all))]
				k := CatDayKey{Province: "ON", Category: s.category, Banner: s.banner, Day: 20000 + int32(r.IntN(400+30*round))}
				var ch CatDayChange
				switch have := held[k]; {
				case len(have) > 0 && r.IntN(4) == 0: // take the day out
					ch.Remove = slices.Clone(have)
				case len(have) > 0 && r.IntN(3) == 0: // a correction
					i := r.IntN(len(have))
					ch.Remove = []CatObs{have[i]}
					ch.Add = []CatObs{{Store: uint32(1 + r.IntN(5)), Price: uint32(100 + r.IntN(50)), Unit: uint32(r.IntN(3)) * (uint32(r.IntN(40))<<2 | 1)}}
				default:
					for range 1 + r.IntN(3) {
						ch.Add = append(ch.Add, CatObs{Store: uint32(1 + r.IntN(5)), Price: uint32(100 + r.IntN(50)), Promo: r.IntN(4) == 0})
					}
					for _, sku := range []string{"a", "b", "c"} {
						if r.IntN(2) == 0 {
							ch.SKUs = append(ch.SKUs, SKUDay{SKU: sku, Price: 200, Regular: 200,
								Lookback: Lookback{Link: int32(r.IntN(2000001) - 1000000), RegularLink: int32(r.IntN(3)-1) * 500000}})
						}
					}
				}
				next := slices.Clone(held[k])
				for _, o := range ch.Remove {
					next = slices.Delete(next, slices.Index(next, o), slices.Index(next, o)+1)
				}
				held[k] = append(next, ch.Add...)
				if err := tx.UpdateCatDay(&k, &ch); err != nil {
					return err
				}
			}
			// A read in the transaction sees its writes' blocks.
			if err := compareSpans(tx, 20000+int32(r.IntN(400)), 20000+int32(400+r.IntN(900))); err != nil {
				return err
			}
			if round%10 != 9 {
				return nil
			}
			// The aggregates cleared and written again, as a
			// recomputation does, in one transaction: all but those of
			// the third series, which are gone.
			if err := tx.ClearAnalytics(); err != nil {
				return err
			}
			for k, obs := range held {
				if k.Banner == "loblaws" {
					delete(held, k)
					continue
				}
				if len(obs) > 0 {
					if err := tx.UpdateCatDay(&k, &CatDayChange{Add: obs}); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = db.View(func(tx *Tx) error {
			if err := tx.checkCatBlocks(); err != nil {
				return err
			}
			for range 5 {
				from := 20000 + int32(r.IntN(400+30*round))
				to := from + int32(r.IntN(900))
				if err := compareSpans(tx, from, to); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// compareSpans checks that the spans of from..to add up to its days.
func compareSpans(tx *Tx, from, to int32) error {
	byDays, bySpans := map[string]*spanTotal{}, map[string]*spanTotal{}
	get := func(m map[string]*spanTotal, k *CatDayKey) *spanTotal {
		key := k.Category + "/" + k.Banner
		if m[key] == nil {
			m[key] = &spanTotal{skus: map[string]*skuTotal{}}
		}
		return m[key]
	}
	err := tx.CatDays("ON", "", "", from, to, CatRuns|CatNumbered|CatLinks, func(k *CatDayKey, c *CatDay) error {
		x := get(byDays, k)
		x.count, x.promo, x.sum = x.count+uint64(c.Count), x.promo+uint64(c.Promo), x.sum+c.Sum
		x.prices, x.units, x.stores = mergeRuns(x.prices, c.PriceRuns), mergeRuns(x.units, c.UnitRuns), mergeStores(x.stores, c.Stores)
		x.observed = append(x.observed, k.Day)
		if len(c.SKUNums) > 0 {
			x.days = append(x.days, k.Day)
		}
		for _, n := range c.SKUNums {
			x.sku(c.Names[n.Num]).add(1, n.Link, n.RegularLink, 0, 0, 1, 1)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = tx.CatSpans("ON", "", "", []CatPeriod{{From: from, To: to, Levels: true}}, func(k *CatDayKey, s *CatSpan) error {
		x := get(bySpans, k)
		x.count, x.promo, x.sum = x.count+s.Count, x.promo+s.Promo, x.sum+s.Sum
		x.prices, x.units, x.stores = mergeRuns(x.prices, s.PriceRuns), mergeRuns(x.units, s.UnitRuns), mergeStores(x.stores, s.Stores)
		for d := s.First; d <= s.Last; d++ {
			i := d - s.First
			if s.Observed[i/64]&(1<<(i%64)) != 0 {
				x.observed = append(x.observed, d)
			}
			if s.Days[i/64]&(1<<(i%64)) != 0 {
				x.days = append(x.days, d)
			}
		}
		for _, n := range s.Nums {
			x.sku(s.Names[n.Num]).add(1, n.Link, n.RegularLink, 0, 0, 1, 1)
		}
		for _, b := range s.SKUs {
			x.sku(s.Names[b.Num]).add(b.Days, b.Link, b.RegularLink, b.Inner, b.RegularInner, b.Index, b.RegularIndex)
		}
		return nil
	})
	if err != nil {
		return err
	}
	approx := cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) })
	if diff := cmp.Diff(byDays, bySpans, cmp.AllowUnexported(spanTotal{}, skuTotal{}), approx); diff != "" {
		return fmt.Errorf("%d-%d: spans against days (-days +spans):\n%s", from, to, diff)
	}
	return nil
}

// skuTotal chains a SKU's index over the spans of a period read in order,
// as the category report does.
type skuTotal struct {
	days       uint32
	lnP, lnR   int64 // the index's log (× LinkScale) at the end of the last span
	sumP, sumR float64
	started    bool
}

// spanTotal adds up a series' days or spans over a period.
type spanTotal struct {
	count, promo, sum uint64
	prices, units     []Run
	stores            []StoreCount
	days, observed    []int32
	skus              map[string]*skuTotal
}

func (x *spanTotal) sku(name string) *skuTotal {
	if x.skus[name] == nil {
		x.skus[name] = &skuTotal{}
	}
	return x.skus[name]
}

func (s *skuTotal) add(days uint32, link, regLink int32, inner, regInner int64, index, regIndex float64) {
	baseP, baseR := int64(0), int64(0)
	if s.started {
		baseP, baseR = s.lnP+int64(link), s.lnR+int64(regLink)
	}
	s.started = true
	s.sumP += math.Exp(float64(baseP)/LinkScale) * index
	s.sumR += math.Exp(float64(baseR)/LinkScale) * regIndex
	s.lnP, s.lnR = baseP+inner, baseR+regInner
	s.days += days
}

// TestUpgradeCatBlocks: a version 16 file has no category blocks. A
// read-only open refuses it, saying to open it once for writing; a
// writable open writes every series' blocks, which then check.
func TestUpgradeCatBlocks(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v16.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		if err := tx.PutStore(&Store{ID: "store1", Banner: "metro", Province: "ON", Active: true}); err != nil {
			return err
		}
		for d := int32(20000); d < 20040; d += 3 {
			k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: d}
			ch := &CatDayChange{Add: []CatObs{{Store: 1, Price: 100}}, SKUs: []SKUDay{{SKU: "a", Price: 200, Regular: 200}}}
			if err := tx.UpdateCatDay(&k, ch); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	asVersion(t, db, path, 16, bucketCatBlocks)
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("writable open of a version 16 file: %v", err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		// Days 20000 to 20039, every third (20000 a multiple of 32):
		// 10 blocks of 4 days, 5 of 8, 2 of 16, 1 of 32, and the block
		// of 64 from 19968, which ends on 20031.
		if n := tx.catBlocks().Stats().KeyN; n != 19 {
			t.Errorf("%d blocks after the upgrade, want 19", n)
		}
		return tx.checkCatBlocks()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckCatBlocks: the file check finds a block that is not its days'
// merge, a complete block missing, and a block of an incomplete range.
func TestCheckCatBlocks(t *testing.T) {
	t.Parallel()
	db := openBlocks(t, 1)
	gp := []byte("ON" + "Dairy\x00metro\x00")
	err := db.Update(func(tx *Tx) error {
		for d := int32(20000); d <= 20009; d++ {
			k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: d}
			a := SKUDay{SKU: "a", Price: 200, Regular: 200}
			if d == 20002 {
				a.Link = 953102
			}
			if err := tx.UpdateCatDay(&k, &CatDayChange{Add: []CatObs{{Store: 1, Price: 100}}, SKUs: []SKUDay{a}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error { return tx.CheckIndexes() }); err != nil {
		t.Fatal(err)
	}
	// The index sums of the block of 20000-20003 (a moved on its third
	// day) off by their last bit, as another machine's math.Exp may
	// leave them, check; off by a billionth, they do not.
	nudge := func(tx *Tx, by func(float64) float64) error {
		b, err := tx.storedBlock(gp, 2, 20000)
		if err != nil {
			return err
		}
		b.SKUs[0].Index = by(b.SKUs[0].Index)
		return tx.catBlocks().Put(catBlockKey(nil, gp, 2, 20000), encodeCatBlock(b))
	}
	errRollback := errors.New("rolled back")
	err = db.Update(func(tx *Tx) error {
		if err := nudge(tx, func(x float64) float64 { return math.Nextafter(x, 0) }); err != nil {
			return err
		}
		if err := tx.CheckIndexes(); err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Errorf("an index sum off by its last bit: %v, want the check to pass", err)
	}
	wantInconsistent(t, db, func(tx *Tx) error {
		return nudge(tx, func(x float64) float64 { return x * (1 + 1e-9) })
	}, `the category block of ON "Dairy" "metro", the 4 days from 2024-10-04 is not the merge of its days`)
	wantInconsistent(t, db, func(tx *Tx) error {
		b, err := tx.storedBlock(gp, 2, 20004)
		if err != nil {
			return err
		}
		b.Sum++
		return tx.catBlocks().Put(catBlockKey(nil, gp, 2, 20004), encodeCatBlock(b))
	}, `the category block of ON "Dairy" "metro", the 4 days from 2024-10-08 is not the merge of its days`)
	wantInconsistent(t, db, func(tx *Tx) error {
		return tx.catBlocks().Delete(catBlockKey(nil, gp, 3, 20000))
	}, `the category block of ON "Dairy" "metro", the 8 days from 2024-10-04 is missing`)
	wantInconsistent(t, db, func(tx *Tx) error {
		b, err := tx.buildBlock(gp, 2, 20008)
		if err != nil {
			return err
		}
		return tx.catBlocks().Put(catBlockKey(nil, gp, 2, 20008), encodeCatBlock(b))
	}, "4 category blocks stored, where 3 complete blocks hold a day")
}

// TestCatBlockCorrupt: a block whose value is damaged is an error to a
// read of its spans and to a write that builds on it, never a panic or a
// figure: masks with days past the block's, a priced day not observed, no
// day observed, a SKU numbered past its list, a SKU priced on more days
// than the block, an index that is not a positive number, stores whose
// observations do not add up to the block's, a cut value.
func TestCatBlockCorrupt(t *testing.T) {
	t.Parallel()
	gp := []byte("ON" + "Dairy\x00metro\x00")
	for _, c := range []struct {
		name   string
		break_ func(b *CatSpan, v []byte) []byte
	}{
		{"a day past the block", func(b *CatSpan, _ []byte) []byte { b.Days[0] |= 1 << 10; b.Observed[0] |= 1 << 10; return nil }},
		{"a priced day not observed", func(b *CatSpan, _ []byte) []byte { b.Observed[0] &^= 1; return nil }},
		{"no day observed", func(b *CatSpan, _ []byte) []byte { b.Days[0], b.Observed[0], b.SKUs = 0, 0, nil; return nil }},
		{"a SKU past its list", func(b *CatSpan, _ []byte) []byte { b.SKUs[0].Num = 7; return nil }},
		{"a SKU on more days than priced", func(b *CatSpan, _ []byte) []byte { b.Days[0] &^= 1; return nil }},
		{"an index not a number", func(b *CatSpan, _ []byte) []byte { b.SKUs[0].Index = math.NaN(); return nil }},
		{"a negative index", func(b *CatSpan, _ []byte) []byte { b.SKUs[0].RegularIndex = -1; return nil }},
		{"stores short of the observations", func(b *CatSpan, _ []byte) []byte { b.Stores[0].N = 1; return nil }},
		{"a cut value", func(_ *CatSpan, v []byte) []byte { return v[:len(v)-3] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := openBlocks(t, 1)
			put := func(tx *Tx, d int32) error {
				k := CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: d}
				return tx.UpdateCatDay(&k, &CatDayChange{Add: []CatObs{{Store: 1, Price: 100}}, SKUs: []SKUDay{{SKU: "a", Price: 200, Regular: 200}}})
			}
			err := db.Update(func(tx *Tx) error {
				for d := int32(20000); d <= 20006; d++ {
					if err := put(tx, d); err != nil {
						return err
					}
				}
				if err := tx.putCatBlocks(); err != nil {
					return err
				}
				b, err := tx.storedBlock(gp, 2, 20000)
				if err != nil {
					return err
				}
				v := c.break_(b, encodeCatBlock(b))
				if v == nil {
					v = encodeCatBlock(b)
				}
				return tx.catBlocks().Put(catBlockKey(nil, gp, 2, 20000), v)
			})
			if err != nil {
				t.Fatal(err)
			}
			err = db.View(func(tx *Tx) error {
				return tx.CatSpans("ON", "", "", []CatPeriod{{From: 20000, To: 20006, Levels: true}}, func(*CatDayKey, *CatSpan) error { return nil })
			})
			if !errors.Is(err, errCorrupt) {
				t.Errorf("a read of its spans: got %v, want errCorrupt", err)
			}
			// Day 20007 completes the block of 20000-20007, built on it.
			if err := db.Update(func(tx *Tx) error { return put(tx, 20007) }); !errors.Is(err, errCorrupt) {
				t.Errorf("a write completing the block of 8 days: got %v, want errCorrupt", err)
			}
		})
	}
}
