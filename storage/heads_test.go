package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// headsSeries are the series of the heads tests: enough for their phases
// to cover all 16 values.
func headsSeries() [][3]string {
	var s [][3]string
	for i := range 96 {
		s = append(s, [3]string{[]string{"loblaws", "metro"}[i%2], fmt.Sprintf("S%03d", i), []string{"ON", "QC", "BC"}[i%3]})
	}
	return s
}

// headsDay is series i's observation on date: one store, a price that
// names both.
func headsDay(i int, date int32) Day {
	p := uint32(100 + i*1000 + int(date)%997)
	return Day{Date: date, Min: p, Median: p, Max: p, Count: 1, Entries: []Entry{{Store: uint32(i + 1), Price: p, Regular: p}}}
}

// putDays writes series s's days from to to (headsDay(i, date)).
func putDays(tx *Tx, s [3]string, i int, from, to int32) error {
	for date := from; date <= to; date++ {
		d := headsDay(i, date)
		if err := tx.PutDay(s[0], s[1], s[2], &d); err != nil {
			return err
		}
	}
	return nil
}

// blockKeys returns the block starts of series p in bucket id.
func blockKeys(tx *Tx, id int, p []byte) []int32 {
	var starts []int32
	c := tx.b(id).Cursor()
	for k, _ := c.Seek(p); hasPrefix(k, p) && len(k) == len(p)+4; k, _ = c.Next() {
		starts = append(starts, int32(binary.BigEndian.Uint32(k[len(p):])))
	}
	return starts
}

// TestHeadsDayByDay writes a day at a time, as a daily import does, over
// 100 days, each series skipping some days. After every day: each series
// written that day keeps in dayheads only the blocks not settled by the
// day (16 days plus its phase past their start), everything settled is in
// dayblocks, no block is in both, and every read (a series forward and
// back, over all days and a window, ScanSeries) gives exactly the days
// written. The moves are spread over the days: no day moves more than a
// quarter of the series' blocks.
func TestHeadsDayByDay(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	series := headsSeries()
	written := make([][]int32, len(series)) // dates, per series
	phases := map[int32]bool{}
	movedMost := 0
	for date := int32(20000); date < 20100; date++ {
		moved := 0
		err := db.Update(func(tx *Tx) error {
			for i, s := range series {
				if (int(date)+i)%5 == 0 {
					continue // no observation today
				}
				p := seriesPrefix(s[0], s[1], s[2])
				before := len(blockKeys(tx, idSeries, p))
				d := headsDay(i, date)
				if err := tx.PutDay(s[0], s[1], s[2], &d); err != nil {
					return err
				}
				written[i] = append(written[i], date)
				heads := blockKeys(tx, idHeads, p)
				if len(blockKeys(tx, idSeries, p)) > before {
					moved++
				}
				for _, start := range heads {
					if settled(p, start, date) {
						return fmt.Errorf("day %d: series %v keeps block %d in dayheads, settled by then (phase %d)", date, s, start, phase(p))
					}
				}
				for _, start := range blockKeys(tx, idSeries, p) {
					if !settled(p, start, date) {
						return fmt.Errorf("day %d: series %v has block %d in dayblocks, not settled by then (phase %d)", date, s, start, phase(p))
					}
				}
				phases[phase(p)] = true
			}
			return tx.SetAsOf(date)
		})
		if err != nil {
			t.Fatal(err)
		}
		movedMost = max(movedMost, moved)
		if date%7 == 0 || date == 20099 {
			checkHeadsReads(t, db, series, written)
		}
	}
	if len(phases) != 16 {
		t.Errorf("the series have %d phases, want all 16", len(phases))
	}
	if movedMost == 0 || movedMost > len(series)/4 {
		t.Errorf("at most %d of %d series moved a block on one day, want some and at most a quarter", movedMost, len(series))
	}
}

// checkHeadsReads checks every read of the series against the dates
// written, and that no block is in both buckets.
func checkHeadsReads(t *testing.T, db *DB, series [][3]string, written [][]int32) {
	t.Helper()
	err := db.View(func(tx *Tx) error {
		if err := tx.checkHeads(); err != nil {
			return err
		}
		scanned := map[string][]int32{}
		_, err := tx.ScanSeries(nil, &SeriesFilter{From: 0, To: 1 << 30}, func(*SeriesRef) (bool, error) { return true, nil }, func(ref *SeriesRef, b *Block) error {
			k := ref.Banner + "/" + ref.SKU + "/" + ref.Province
			for _, d := range b.Days {
				scanned[k] = append(scanned[k], d.Date)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i, s := range series {
			want := written[i]
			if got := scanned[s[0]+"/"+s[1]+"/"+s[2]]; !slices.Equal(got, want) {
				return fmt.Errorf("ScanSeries of %v: dates %v, want %v", s, got, want)
			}
			last := want[len(want)-1]
			for _, sc := range []SeriesScan{{From: -1, To: last}, {From: last - 40, To: last - 3}} {
				for _, back := range []bool{false, true} {
					sc.NewestFirst = back
					var got []Day
					err := tx.Series(s[0], s[1], s[2], sc, func(d *Day) error {
						c := *d
						c.Entries = slices.Clone(d.Entries)
						got = append(got, c)
						return nil
					})
					if err != nil {
						return err
					}
					var wantDays []Day
					for _, date := range want {
						if date >= sc.From && date <= sc.To {
							wantDays = append(wantDays, headsDay(i, date))
						}
					}
					if back {
						slices.Reverse(wantDays)
					}
					if diff := cmp.Diff(wantDays, got); diff != "" {
						return fmt.Errorf("Series %v %+v (-want +got):\n%s", s, sc, diff)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeadsBulk: a transaction that says the newest day it writes puts
// every block settled by then straight into dayblocks, none into dayheads;
// one without the hint settles by the data set's newest day and the days
// of the block it writes.
func TestHeadsBulk(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	series := headsSeries()[:20]
	err := db.Update(func(tx *Tx) error {
		tx.WritesThrough(20099)
		// Days up to 20050 are in blocks that end by 20063, settled by
		// 20063+16 = 20079 whatever the phase: written straight to
		// dayblocks, none to dayheads.
		for i, s := range series[:5] {
			if err := putDays(tx, s, i, 20000, 20050); err != nil {
				return err
			}
			p := seriesPrefix(s[0], s[1], s[2])
			if h, o := blockKeys(tx, idHeads, p), blockKeys(tx, idSeries, p); len(h) > 0 || !slices.Equal(o, []int32{20000, 20016, 20032, 20048}) {
				return fmt.Errorf("%v written to 20050 of 20099: dayheads %v, dayblocks %v; want none, all four", s, h, o)
			}
		}
		for i, s := range series {
			if err := putDays(tx, s, i, 20000, 20099); err != nil {
				return err
			}
			p := seriesPrefix(s[0], s[1], s[2])
			// Blocks start on 20000, 20016, ... 20096 (multiples of 16).
			var wantHeads, wantOld []int32
			for start := int32(20000); start <= 20096; start += 16 {
				if settled(p, start, 20099) {
					wantOld = append(wantOld, start)
				} else {
					wantHeads = append(wantHeads, start)
				}
			}
			if got := blockKeys(tx, idHeads, p); !slices.Equal(got, wantHeads) {
				return fmt.Errorf("%v (phase %d): dayheads holds %v, want %v", s, phase(p), got, wantHeads)
			}
			if got := blockKeys(tx, idSeries, p); !slices.Equal(got, wantOld) {
				return fmt.Errorf("%v (phase %d): dayblocks holds %v, want %v", s, phase(p), got, wantOld)
			}
		}
		return tx.SetAsOf(20099)
	})
	if err != nil {
		t.Fatal(err)
	}
	// A day long after, with no hint: the block of the day is new and
	// unsettled; the older ones in dayheads are settled by then and move.
	err = db.Update(func(tx *Tx) error {
		for i, s := range series {
			d := headsDay(i, 20200)
			if err := tx.PutDay(s[0], s[1], s[2], &d); err != nil {
				return err
			}
			p := seriesPrefix(s[0], s[1], s[2])
			if got, want := blockKeys(tx, idHeads, p), []int32{20192}; !slices.Equal(got, want) {
				return fmt.Errorf("%v: dayheads holds %v after day 20200, want %v", s, got, want)
			}
			if got, want := blockKeys(tx, idSeries, p), []int32{20000, 20016, 20032, 20048, 20064, 20080, 20096}; !slices.Equal(got, want) {
				return fmt.Errorf("%v: dayblocks holds %v after day 20200, want %v", s, got, want)
			}
		}
		return tx.checkHeads()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeadsWrites: a block written without being read (PutBlock of a new
// Block), a block emptied, and a SKU's stamps rewritten leave every block
// in one bucket, where it was.
func TestHeadsWrites(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	// One series with blocks in both buckets: days 20000-20040, settled
	// by 20040 up to the block of 20000 or 20016 by its phase.
	s := [3]string{"metro", "X", "ON"}
	p := seriesPrefix(s[0], s[1], s[2])
	var heads, old []int32
	err := db.Update(func(tx *Tx) error {
		for date := int32(20000); date <= 20040; date++ {
			d := headsDay(0, date)
			if err := tx.PutDay(s[0], s[1], s[2], &d); err != nil {
				return err
			}
			if err := tx.SetAsOf(date); err != nil {
				return err
			}
		}
		heads, old = blockKeys(tx, idHeads, p), blockKeys(tx, idSeries, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(heads) == 0 || len(old) == 0 {
		t.Fatalf("blocks in dayheads %v and dayblocks %v: want some in each", heads, old)
	}
	err = db.Update(func(tx *Tx) error {
		// Rewrite each block unread, with one day.
		for _, start := range append(slices.Clone(heads), old...) {
			b := Block{Start: start, Days: []Day{headsDay(0, start+1)}}
			if err := tx.PutBlock(s[0], s[1], s[2], &b); err != nil {
				return err
			}
		}
		if err := tx.MarkSKUWritten(s[0], s[1], 77); err != nil {
			return err
		}
		if got := blockKeys(tx, idHeads, p); !slices.Equal(got, heads) {
			return fmt.Errorf("dayheads holds %v after the rewrites, want %v", got, heads)
		}
		if got := blockKeys(tx, idSeries, p); !slices.Equal(got, old) {
			return fmt.Errorf("dayblocks holds %v after the rewrites, want %v", got, old)
		}
		if err := tx.checkHeads(); err != nil {
			return err
		}
		n := 0
		_, err := tx.ScanSeries(nil, &SeriesFilter{From: 1, To: 1 << 30, Writes: &WriteRange{From: 77}}, func(*SeriesRef) (bool, error) { return true, nil }, func(ref *SeriesRef, b *Block) error {
			n += len(b.Days)
			return nil
		})
		if err != nil {
			return err
		}
		if want := len(heads) + len(old); n != want {
			return fmt.Errorf("write 77 marked %d days, want %d (one a block)", n, want)
		}
		// Empty every block, read and unread (the first of dayheads
		// unread).
		for i, start := range append(slices.Clone(heads), old...) {
			var b Block
			if i%2 == 1 {
				if err := tx.ReadBlock(s[0], s[1], s[2], start, &b); err != nil {
					return err
				}
			}
			b.Start, b.Days = start, nil
			if err := tx.PutBlock(s[0], s[1], s[2], &b); err != nil {
				return err
			}
		}
		if h, o := blockKeys(tx, idHeads, p), blockKeys(tx, idSeries, p); len(h)+len(o) > 0 {
			return fmt.Errorf("blocks left after emptying them all: dayheads %v, dayblocks %v", h, o)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeadsMoveUnread: a block written without being read leaves the
// bucket it was in when its settlement puts it in the other: a block of
// dayheads settled by a later newest day, a block of dayblocks that a bulk
// write settled by a day later than the data set's.
func TestHeadsMoveUnread(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	s, read, bulk := [3]string{"metro", "X", "ON"}, [3]string{"metro", "Z", "ON"}, [3]string{"metro", "Y", "ON"}
	p, pr, pb := seriesPrefix(s[0], s[1], s[2]), seriesPrefix(read[0], read[1], read[2]), seriesPrefix(bulk[0], bulk[1], bulk[2])
	err := db.Update(func(tx *Tx) error {
		for _, s := range [][3]string{s, read} {
			if err := putDays(tx, s, 0, 20000, 20040); err != nil {
				return err
			}
		}
		return tx.SetAsOf(20040)
	})
	if err == nil {
		err = db.Update(func(tx *Tx) error {
			tx.WritesThrough(20200)
			return putDays(tx, bulk, 1, 20000, 20040)
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		// Block 20032 of the bulk series, in dayblocks, is not settled by
		// the data set's 20040: it goes to dayheads.
		if h, o := blockKeys(tx, idHeads, pb), blockKeys(tx, idSeries, pb); len(h) > 0 || !slices.Equal(o, []int32{20000, 20016, 20032}) {
			return fmt.Errorf("the bulk series as written: dayheads %v, dayblocks %v; want none, all three", h, o)
		}
		b := Block{Start: 20032, Days: []Day{headsDay(1, 20033)}}
		if err := tx.PutBlock(bulk[0], bulk[1], bulk[2], &b); err != nil {
			return err
		}
		if h, o := blockKeys(tx, idHeads, pb), blockKeys(tx, idSeries, pb); !slices.Equal(h, []int32{20032}) || !slices.Equal(o, []int32{20000, 20016}) {
			return fmt.Errorf("the bulk series after its unread write: dayheads %v, dayblocks %v; want [20032], [20000 20016]", h, o)
		}
		return tx.checkHeads()
	})
	if err == nil {
		err = db.Update(func(tx *Tx) error {
			// Every block of the first two series is settled by 20100:
			// the first's written unread, the second's read (PutDay).
			if err := tx.SetAsOf(20100); err != nil {
				return err
			}
			heads, readHeads := blockKeys(tx, idHeads, p), blockKeys(tx, idHeads, pr)
			if len(heads) == 0 || len(readHeads) == 0 {
				return fmt.Errorf("no block of %v or %v in dayheads to move", s, read)
			}
			for _, start := range heads {
				b := Block{Start: start, Days: []Day{headsDay(0, start+2)}}
				if err := tx.PutBlock(s[0], s[1], s[2], &b); err != nil {
					return err
				}
			}
			for _, start := range readHeads {
				d := headsDay(5, start+2)
				if err := tx.PutDay(read[0], read[1], read[2], &d); err != nil {
					return err
				}
			}
			for _, p := range [][]byte{p, pr} {
				if h, o := blockKeys(tx, idHeads, p), blockKeys(tx, idSeries, p); len(h) > 0 || !slices.Equal(o, []int32{20000, 20016, 20032}) {
					return fmt.Errorf("%q after writes settled by 20100: dayheads %v, dayblocks %v; want none, all three", p, h, o)
				}
			}
			return tx.checkHeads()
		})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeadsPhase: the phases of three series, worked out apart (FNV-1a
// of their keys, top four bits), and the day a block moves: metro X in
// Ontario, phase 8, keeps block 20016 in dayheads until its write of day
// 20016+16+8 = 20040.
func TestHeadsPhase(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]int32{"metro\x00X\x00ON": 8, "metro\x00Y\x00ON": 4, "metro\x00Z\x00ON": 1} {
		if got := phase([]byte(key)); got != want {
			t.Errorf("phase of %q: %d, want %d", key, got, want)
		}
	}
	db := tempDB(t)
	s := [3]string{"metro", "X", "ON"}
	p := seriesPrefix(s[0], s[1], s[2])
	for date := int32(20000); date <= 20041; date++ {
		err := db.Update(func(tx *Tx) error {
			if err := putDays(tx, s, 0, date, date); err != nil {
				return err
			}
			inHeads := slices.Contains(blockKeys(tx, idHeads, p), 20016)
			if date >= 20016 && inHeads != (date < 20040) {
				return fmt.Errorf("after day %d block 20016 in dayheads: %v, want %v", date, inHeads, date < 20040)
			}
			return tx.SetAsOf(date)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestHeadsStaleRead: a block read before a write that moved it, then
// written, is in one bucket (the write deletes it from the other whatever
// the read found).
func TestHeadsStaleRead(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	s := [3]string{"metro", "X", "ON"} // phase 8
	p := seriesPrefix(s[0], s[1], s[2])
	err := db.Update(func(tx *Tx) error {
		if err := putDays(tx, s, 0, 20000, 20040); err != nil {
			return err
		}
		return tx.SetAsOf(20040)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		var b Block
		if err := tx.ReadBlock(s[0], s[1], s[2], 20033, &b); err != nil {
			return err
		}
		if !slices.Contains(blockKeys(tx, idHeads, p), 20032) {
			return fmt.Errorf("block 20032 not in dayheads before the test's writes")
		}
		// Day 20060's write settles 20032 (20032+16+8 = 20056): it moves.
		if err := putDays(tx, s, 0, 20060, 20060); err != nil {
			return err
		}
		if !slices.Contains(blockKeys(tx, idSeries, p), 20032) {
			return fmt.Errorf("block 20032 not moved to dayblocks by day 20060's write")
		}
		b.Days[0].Count, b.Days[0].Entries = 2, append(b.Days[0].Entries, Entry{Store: 99, Price: 1, Regular: 1})
		if err := tx.PutBlock(s[0], s[1], s[2], &b); err != nil {
			return err
		}
		return tx.checkHeads()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHeadsReverseAfterDeletes: a newest-first read in the transaction
// that emptied whole leaves of dayheads (bbolt's Prev stops on such a
// leaf) still reads every block of a series before them.
func TestHeadsReverseAfterDeletes(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	// Series a/V, then 300 series a/W000.. with one block of wide days
	// each (a few to a page), then a/Z: all in dayheads.
	wide := func(date int32) Day {
		d := Day{Date: date, Min: 100, Median: 100, Max: 100, Count: 40}
		for st := range uint32(40) {
			d.Entries = append(d.Entries, Entry{Store: st + 1, Price: 100, Regular: 100})
		}
		return d
	}
	var ws [][3]string
	for i := range 300 {
		ws = append(ws, [3]string{"a", fmt.Sprintf("W%03d", i), "ON"})
	}
	err := db.Update(func(tx *Tx) error {
		for _, s := range append(append([][3]string{{"a", "V", "ON"}}, ws...), [3]string{"a", "Z", "ON"}) {
			for date := int32(20000); date < 20003; date++ {
				d := wide(date)
				if err := tx.PutDay(s[0], s[1], s[2], &d); err != nil {
					return err
				}
			}
		}
		return tx.SetAsOf(20002)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		if n := tx.heads().Stats().LeafPageN; n < 20 {
			return fmt.Errorf("dayheads has %d leaf pages, want many for whole ones to empty", n)
		}
		for _, s := range ws {
			if err := tx.PutBlock(s[0], s[1], s[2], &Block{Start: 20000}); err != nil {
				return err
			}
		}
		var got []int32
		err := tx.Series("a", "V", "ON", SeriesScan{From: -1, To: 1 << 30, NewestFirst: true}, func(d *Day) error {
			got = append(got, d.Date)
			return nil
		})
		if want := []int32{20002, 20001, 20000}; err == nil && !slices.Equal(got, want) {
			return fmt.Errorf("series a/V newest first after the deletes: %v, want %v", got, want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckHeads: the file check finds a block in both buckets.
func TestCheckHeads(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	update := func(fn func(tx *Tx) error) {
		t.Helper()
		if err := db.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	update(func(tx *Tx) error {
		if err := putDays(tx, [3]string{"metro", "X", "ON"}, 0, 20000, 20040); err != nil {
			return err
		}
		return tx.SetAsOf(20040)
	})
	wantInconsistent(t, db, func(tx *Tx) error {
		k, v := tx.series().Cursor().First()
		return tx.heads().Put(bytes.Clone(k), bytes.Clone(v))
	}, "in both dayheads and dayblocks")
}

// TestUpgradeHeads: a version 17 file (no dayheads) is refused read-only
// and upgraded by a writable open, its blocks read where they were.
func TestUpgradeHeads(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v17.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		tx.WritesThrough(20200)
		if err := putDays(tx, [3]string{"metro", "X", "ON"}, 0, 20000, 20039); err != nil {
			return err
		}
		return tx.SetAsOf(20040)
	})
	if err != nil {
		t.Fatal(err)
	}
	asVersion(t, db, path, 17, bucketHeads)
	if db, err = Open(path, Options{}); err != nil {
		t.Fatalf("writable open of a version 17 file: %v", err)
	}
	defer db.Close()
	checkHeadsReads(t, db, [][3]string{{"metro", "X", "ON"}}, [][]int32{seq(20000, 20040)})
	err = db.Update(func(tx *Tx) error {
		d := headsDay(0, 20041)
		return tx.PutDay("metro", "X", "ON", &d)
	})
	if err != nil {
		t.Fatal(err)
	}
	checkHeadsReads(t, db, [][3]string{{"metro", "X", "ON"}}, [][]int32{append(seq(20000, 20040), 20041)})
}

// seq returns the days from, from+1, ..., to-1.
func seq(from, to int32) []int32 {
	var s []int32
	for d := from; d < to; d++ {
		s = append(s, d)
	}
	return s
}
