package storage_test

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
	bolt "go.etcd.io/bbolt"
)

// writeBlock merges days into the stored block of metro/a in ON as a
// write numbered by the file does: the block, then its stamps.
func writeBlock(t *testing.T, db *storage.DB, days ...storage.Day) uint64 {
	t.Helper()
	var n uint64
	update(t, db, func(tx *storage.Tx) error {
		var err error
		if n, err = tx.NextWrite(); err != nil {
			return err
		}
		var old, merged storage.Block
		if err := tx.ReadBlock("metro", "a", "ON", days[0].Date, &old); err != nil {
			return err
		}
		if err := tx.ReadBlock("metro", "a", "ON", days[0].Date, &merged); err != nil {
			return err
		}
		// ReadBlock reuses its entries: old needs a copy of its own.
		for i := range old.Days {
			old.Days[i].Entries = append([]storage.Entry(nil), old.Days[i].Entries...)
		}
		for _, d := range days {
			i := 0
			for i < len(merged.Days) && merged.Days[i].Date < d.Date {
				i++
			}
			if i < len(merged.Days) && merged.Days[i].Date == d.Date {
				merged.Days[i] = d
			} else {
				merged.Days = append(merged.Days[:i], append([]storage.Day{d}, merged.Days[i:]...)...)
			}
		}
		return tx.PutWrittenBlock("metro", "a", "ON", &old, &merged, n)
	})
	return n
}

func day(date int32, es ...storage.Entry) storage.Day {
	d := storage.Day{Date: date, Count: uint32(len(es)), Entries: es}
	d.Min, d.Median, d.Max = es[0].Price, es[0].Price, es[0].Price
	for _, e := range es {
		d.Min, d.Max = min(d.Min, e.Price), max(d.Max, e.Price)
	}
	return d
}

// written returns "date/store/price" of each observation a scan of the
// writes in r gives.
func written(t *testing.T, db *storage.DB, r storage.WriteRange) []string {
	t.Helper()
	var got []string
	err := db.View(func(tx *storage.Tx) error {
		f := storage.SeriesFilter{From: 0, To: 1 << 30, Writes: &r}
		_, err := tx.ScanSeries(nil, &f, func(*storage.SeriesRef) (bool, error) { return true, nil }, func(ref *storage.SeriesRef, b *storage.Block) error {
			for _, d := range b.Days {
				for _, e := range d.Entries {
					got = append(got, fmt.Sprintf("%d/%d/%d", d.Date, e.Store, e.Price))
				}
			}
			return nil
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestWriteStamps: each observation carries the write that last changed
// it, an unchanged one keeps its own, and a scan of the writes after a
// number gives exactly those changed since, up to Until.
func TestWriteStamps(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	var id uint64
	db.View(func(tx *storage.Tx) error { id = tx.FileID(); return nil })
	if id == 0 {
		t.Fatal("a new file has no identity")
	}
	w1 := writeBlock(t, db, day(20000, storage.Entry{Store: 1, Price: 100, Regular: 100}, storage.Entry{Store: 2, Price: 200, Regular: 200}))
	w2 := writeBlock(t, db, day(20001, storage.Entry{Store: 1, Price: 110, Regular: 110}))
	// The same day again, store 2 corrected, store 1 given alike.
	w3 := writeBlock(t, db, day(20000, storage.Entry{Store: 1, Price: 100, Regular: 100}, storage.Entry{Store: 2, Price: 190, Regular: 200}, storage.Entry{Store: 3, Price: 300, Regular: 300}))
	if w1 != 1 || w2 != 2 || w3 != 3 {
		t.Fatalf("write numbers: got %d %d %d, want 1 2 3", w1, w2, w3)
	}
	for _, tc := range []struct {
		name string
		r    storage.WriteRange
		want []string
	}{
		{"All", storage.WriteRange{}, []string{"20000/1/100", "20000/2/190", "20000/3/300", "20001/1/110"}},
		{"From2", storage.WriteRange{From: 2}, []string{"20000/2/190", "20000/3/300", "20001/1/110"}},
		{"From3", storage.WriteRange{From: 3}, []string{"20000/2/190", "20000/3/300"}},
		{"From4", storage.WriteRange{From: 4}, nil},
		{"Until2", storage.WriteRange{Until: 2}, []string{"20000/1/100", "20001/1/110"}},
		{"From2Until2", storage.WriteRange{From: 2, Until: 2}, []string{"20001/1/110"}},
	} {
		if diff := cmp.Diff(tc.want, written(t, db, tc.r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	// A change of the SKU's facts: every row of it is written again.
	var w4 uint64
	update(t, db, func(tx *storage.Tx) error {
		var err error
		if w4, err = tx.NextWrite(); err != nil {
			return err
		}
		return tx.MarkSKUWritten("metro", "a", w4)
	})
	if got := written(t, db, storage.WriteRange{From: 4}); len(got) != 4 {
		t.Errorf("after MarkSKUWritten, from 4: got %v, want the 4 observations", got)
	}
	db.View(func(tx *storage.Tx) error {
		if got := tx.LastWrite(); got != w4 {
			t.Errorf("LastWrite: got %d, want %d", got, w4)
		}
		if got := tx.FileID(); got != id {
			t.Errorf("FileID after writes: got %d, want %d", got, id)
		}
		return nil
	})
}

// TestUpgradeFormat9: a version 9 file (no identity, no write number,
// blocks without stamps) is refused read-only and upgraded by a writable open without
// Options.Upgrade: it gets an identity, its last write is 0 and its
// observations count as written before write 1.
func TestUpgradeFormat9(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v9.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A block as version 9 wrote it: no stamps.
	update(t, db, func(tx *storage.Tx) error {
		return tx.PutBlock("metro", "a", "ON", &storage.Block{Start: 20000, Days: []storage.Day{day(20000, storage.Entry{Store: 1, Price: 100, Regular: 100})}})
	})
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte("meta"))
		for _, k := range []string{"fileid", "write"} {
			if err := meta.Delete([]byte(k)); err != nil {
				return err
			}
		}
		return meta.Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 9))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, storage.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("version 9, this program reads version %d: open it once for writing", storage.FormatVersion)) {
		t.Fatalf("read-only open of a version 9 file: got %v, want it refused until a writable open", err)
	}
	db, err = storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatalf("writable open of a version 9 file: %v", err)
	}
	defer db.Close()
	db.View(func(tx *storage.Tx) error {
		if tx.FileID() == 0 || tx.LastWrite() != 0 {
			t.Errorf("after the upgrade: FileID %d, LastWrite %d, want an identity and 0", tx.FileID(), tx.LastWrite())
		}
		return nil
	})
	if got := written(t, db, storage.WriteRange{}); len(got) != 1 {
		t.Errorf("every observation after the upgrade: got %v, want 1", got)
	}
	if n := writeBlock(t, db, day(20001, storage.Entry{Store: 1, Price: 120, Regular: 120})); n != 1 {
		t.Errorf("first write after the upgrade: got %d, want 1", n)
	}
	if diff := cmp.Diff([]string{"20001/1/120"}, written(t, db, storage.WriteRange{From: 1})); diff != "" {
		t.Errorf("written from 1 after the upgrade (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"20000/1/100"}, written(t, db, storage.WriteRange{})[:1]); diff != "" {
		t.Errorf("every observation after the upgrade (-want +got):\n%s", diff)
	}
}
