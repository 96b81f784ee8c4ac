package storage_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
	bolt "go.etcd.io/bbolt"
)

func MustOpen(tb testing.TB) *storage.DB {
	tb.Helper()
	db, err := storage.Open(filepath.Join(tb.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func update(tb testing.TB, db *storage.DB, fn func(tx *storage.Tx) error) {
	tb.Helper()
	if err := db.Update(fn); err != nil {
		tb.Fatal(err)
	}
}

// putStores numbers n stores (1 to n), which the category aggregates
// may then name.
func putStores(tb testing.TB, db *storage.DB, n int) {
	tb.Helper()
	update(tb, db, func(tx *storage.Tx) error {
		for i := 1; i <= n; i++ {
			if err := tx.PutStore(&storage.Store{ID: fmt.Sprint("store", i), Banner: "metro", Province: "ON", Active: true}); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestSeries(t *testing.T) {
	db := MustOpen(t)
	days := []storage.Day{
		{Date: 100, Min: 399, Median: 450, Max: 500, Count: 2, Entries: []storage.Entry{
			{Store: 1, Price: 399, Regular: 499, PromoEnd: 106}, {Store: 7, Price: 500, Regular: 500}}},
		{Date: 103, Min: 499, Median: 499, Max: 499, Count: 1, Entries: []storage.Entry{{Store: 7, Price: 499, Regular: 499}}},
		{Date: 110, Min: 1, Median: 1, Max: 1, Count: 1, Entries: []storage.Entry{{Store: 300000, Price: 1, Regular: 1 << 30}}},
	}
	update(t, db, func(tx *storage.Tx) error {
		for i := range days {
			if err := tx.PutDay("loblaws", "A_EA", "ON", &days[i]); err != nil {
				return err
			}
		}
		// Neighbours that must never leak into the scans: another
		// province, a SKU that extends the first one, another banner.
		for _, k := range [][3]string{{"loblaws", "A_EA", "QC"}, {"loblaws", "A_EAX", "ON"}, {"metro", "A_EA", "ON"}} {
			if err := tx.PutDay(k[0], k[1], k[2], &storage.Day{Date: 101, Count: 1, Min: 9, Median: 9, Max: 9, Entries: []storage.Entry{{Store: 2, Price: 9, Regular: 9}}}); err != nil {
				return err
			}
		}
		return nil
	})
	scan := func(from, to int32, reverse, entries bool, stopAfter int) []storage.Day {
		t.Helper()
		var got []storage.Day
		err := db.View(func(tx *storage.Tx) error {
			return tx.Series("loblaws", "A_EA", "ON", storage.SeriesScan{From: from, To: to, NewestFirst: reverse, SummaryOnly: !entries}, func(d *storage.Day) error {
				c := *d
				c.Entries = append([]storage.Entry(nil), d.Entries...)
				if !entries {
					c.Entries = nil
				}
				got = append(got, c)
				if len(got) == stopAfter {
					return storage.ErrStop
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	header := func(d storage.Day) storage.Day { d.Entries = nil; return d }
	for _, tc := range []struct {
		name     string
		from, to int32
		reverse  bool
		stop     int
		want     []storage.Day
	}{
		{"All", 0, 1 << 30, false, 0, days},
		{"Window", 101, 109, false, 0, days[1:2]},
		{"Inclusive", 100, 103, false, 0, days[:2]},
		{"Reverse", 0, 1 << 30, true, 0, []storage.Day{days[2], days[1], days[0]}},
		{"ReverseFromGap", 0, 105, true, 0, []storage.Day{days[1], days[0]}},
		{"ReverseStop", 0, 1 << 30, true, 1, days[2:3]},
		{"Empty", 104, 109, false, 0, nil},
		// math.MinInt32 as "from the first day" (the writer asks so).
		{"FromMinInt", math.MinInt32, 1 << 30, false, 0, days},
		{"ReverseFromMinInt", math.MinInt32, 102, true, 0, days[:1]},
		{"NegativeTo", math.MinInt32, -1, false, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, scan(tc.from, tc.to, tc.reverse, true, tc.stop)); diff != "" {
				t.Fatalf("scan (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("HeaderOnly", func(t *testing.T) {
		want := []storage.Day{header(days[0]), header(days[1]), header(days[2])}
		if diff := cmp.Diff(want, scan(0, 1<<30, false, false, 0)); diff != "" {
			t.Fatalf("scan (-want +got):\n%s", diff)
		}
	})
	t.Run("ReversePastLastKey", func(t *testing.T) {
		// metro/A_EA/ON is the last key of the bucket: a reverse scan
		// from beyond it must start at its last day, not stop.
		var got []int32
		err := db.View(func(tx *storage.Tx) error {
			return tx.Series("metro", "A_EA", "ON", storage.SeriesScan{To: 1 << 30, NewestFirst: true, SummaryOnly: true}, func(d *storage.Day) error {
				got = append(got, d.Date)
				return nil
			})
		})
		if err != nil || len(got) != 1 || got[0] != 101 {
			t.Fatalf("got %v, %v; want [101]", got, err)
		}
	})
}

func TestStores(t *testing.T) {
	db := MustOpen(t)
	update(t, db, func(tx *storage.Tx) error {
		for _, s := range []storage.Store{
			{ID: "b", Banner: "metro", Province: "ON", Active: true},
			{ID: "a", Banner: "metro", Province: "ON", Active: true},
			{ID: "c", Banner: "maxi", Province: "QC", Active: true},
			{ID: "d", Banner: "metro", Province: "QC", Active: false},
		} {
			if err := tx.PutStore(&s); err != nil {
				return err
			}
		}
		// Moving a store and closing one keep the listing in step.
		moved := storage.Store{ID: "a", Banner: "metro", Province: "QC", Active: true}
		if err := tx.PutStore(&moved); err != nil {
			return err
		}
		closed := storage.Store{ID: "c", Banner: "maxi", Province: "QC", Active: false}
		return tx.PutStore(&closed)
	})
	err := db.View(func(tx *storage.Tx) error {
		var ids []string
		var ords []uint32
		err := tx.ActiveStores("", "", func(s *storage.Store) error {
			ids, ords = append(ids, s.Province+"/"+s.ID), append(ords, s.Ord)
			return nil
		})
		if err != nil {
			return err
		}
		// ErrStop ends the scan without an error; another error ends it
		// with that error.
		n := 0
		if err := tx.ActiveStores("", "", func(*storage.Store) error { n++; return storage.ErrStop }); err != nil || n != 1 {
			t.Errorf("stopped scan: %d stores, error %v; want 1, nil", n, err)
		}
		boom := errors.New("boom")
		if err := tx.ActiveStores("", "", func(*storage.Store) error { return boom }); err != boom {
			t.Errorf("failed scan: error %v, want %v", err, boom)
		}
		if diff := cmp.Diff([]string{"ON/b", "QC/a"}, ids); diff != "" {
			t.Errorf("active stores (-want +got):\n%s", diff)
		}
		// Ords are assigned once, in creation order, and survive updates.
		if diff := cmp.Diff([]uint32{1, 2}, ords); diff != "" {
			t.Errorf("ords (-want +got):\n%s", diff)
		}
		for _, tc := range []struct {
			province, banner string
			want             int
		}{{"", "", 2}, {"QC", "", 1}, {"ON", "metro", 1}, {"", "maxi", 0}, {"QC", "metro", 1}} {
			if n, err := tx.CountActiveStores(tc.province, tc.banner); err != nil || n != tc.want {
				t.Errorf("count %q %q: got %d, %v; want %d", tc.province, tc.banner, n, err, tc.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSKULinks(t *testing.T) {
	db := MustOpen(t)
	update(t, db, func(tx *storage.Tx) error {
		for _, s := range []storage.SKU{
			{Banner: "loblaws", SKU: "1_EA", GTIN: "00000000000017"},
			{Banner: "metro", SKU: "M1", GTIN: "00000000000017"},
			{Banner: "metro", SKU: "M1", GTIN: "00000000000024"}, // relinked
		} {
			if err := tx.PutSKU(&s); err != nil {
				return err
			}
		}
		return nil
	})
	err := db.View(func(tx *storage.Tx) error {
		for gtin, want := range map[string][]string{"00000000000017": {"loblaws/1_EA"}, "00000000000024": {"metro/M1"}} {
			var got []string
			if err := tx.SKUsOf(gtin, func(b, s string) error { got = append(got, b+"/"+s); return nil }); err != nil {
				return err
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("SKUs of %s (-want +got):\n%s", gtin, diff)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenForeignFiles(t *testing.T) {
	dir := t.TempDir()
	t.Run("ErrNotDataFile", func(t *testing.T) {
		path := filepath.Join(dir, "other.db")
		b, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("x")); return err }); err != nil {
			t.Fatal(err)
		}
		b.Close()
		if _, err := storage.Open(path, storage.Options{}); !errors.Is(err, storage.ErrNotDataFile) {
			t.Fatalf("got %v, want ErrNotDataFile", err)
		}
	})
	t.Run("ErrFormat", func(t *testing.T) {
		path := filepath.Join(dir, "future.db")
		db, err := storage.Open(path, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		b, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = b.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, storage.FormatVersion+1))
		})
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{false, true} {
			if _, err := storage.Open(path, storage.Options{ReadOnly: ro}); !errors.Is(err, storage.ErrFormat) {
				t.Fatalf("read-only %v: got %v, want ErrFormat", ro, err)
			}
		}
	})
}

// TestSeriesCompact checks the bytes a series costs when few stores share
// a SKU-day (one or two entries a day, prices differing by store and day):
// format 1 took about 110 bytes per observation, one half-full page
// record a day.
func TestSeriesCompact(t *testing.T) {
	t.Parallel() // a file of its own
	db := MustOpen(t)
	before, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}
	obs := 0
	update(t, db, func(tx *storage.Tx) error {
		tx.Packed()
		for s := range 2000 {
			for day := int32(20000); day < 20064; day++ {
				d := storage.Day{Date: day}
				for st := range 1 + (s+int(day))%2 {
					p := uint32(199 + s%700 + int(day)%5 + st*10)
					d.Entries = append(d.Entries, storage.Entry{Store: uint32(st*3 + s%4), Price: p, Regular: p})
				}
				d.Count = uint32(len(d.Entries))
				d.Min, d.Max = d.Entries[0].Price, d.Entries[len(d.Entries)-1].Price
				d.Median = (d.Min + d.Max + 1) / 2
				obs += len(d.Entries)
				if err := tx.PutDay("no-frills", fmt.Sprintf("SKU%05d", s), "ON", &d); err != nil {
					return err
				}
			}
		}
		return nil
	})
	after, err := db.Size()
	if err != nil {
		t.Fatal(err)
	}
	if per := float64(after-before) / float64(obs); per > 16 {
		t.Errorf("got %.1f bytes per observation, want at most 16", per)
	}
}

// TestOldFormatRefused checks that a file of format 1 or 2 (without the
// analytics aggregates of format 3) is refused by every open, read-only
// or not, with a message saying how to rebuild it, and left unchanged.
func TestOldFormatRefused(t *testing.T) {
	for _, v := range []uint32{1, 2} {
		path := filepath.Join(t.TempDir(), "old.db")
		db, err := storage.Open(path, storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		b, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = b.Update(func(tx *bolt.Tx) error {
			if err := tx.DeleteBucket([]byte("catdays")); err != nil {
				return err
			}
			return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, v))
		})
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{true, false} {
			_, err := storage.Open(path, storage.Options{ReadOnly: ro})
			if !errors.Is(err, storage.ErrFormat) || !strings.Contains(err.Error(), "grocery demo") || !strings.Contains(err.Error(), fmt.Sprintf("version %d,", v)) {
				t.Fatalf("version %d, read-only %v: got %v, want ErrFormat saying to rebuild with grocery demo", v, ro, err)
			}
		}
		b, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		_ = b.View(func(tx *bolt.Tx) error {
			if tx.Bucket([]byte("catdays")) != nil {
				t.Errorf("version %d: a refused open created a bucket", v)
			}
			return nil
		})
		b.Close()
	}
}

// A file written before the alert buckets existed gets them at its first
// writable open; a read-only open asks for one.
func TestAlertBuckets_OldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"alertrules", "alertwatch", "alertevents", "alertfired"} {
			if err := tx.DeleteBucket([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, storage.Options{ReadOnly: true}); !errors.Is(err, storage.ErrFormat) || !strings.Contains(err.Error(), `"alertrules"`) {
		t.Fatalf("read-only: got %v, want ErrFormat naming the missing bucket", err)
	}
	db, err = storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *storage.Tx) error {
		if tx.HasAlertRules() {
			t.Error("HasAlertRules on a file without rules: got true")
		}
		r := storage.AlertRule{Account: "acme", ID: 7, Name: "n", Banner: "loblaws", SKU: "A_EA", Province: "ON", Condition: "promo_start"}
		if err := tx.PutAlertRule(&r); err != nil {
			return err
		}
		var watchers []string
		err := tx.AlertsWatching("ON", "00068000000154", "loblaws", "A_EA", func(acct string, id uint64) error {
			watchers = append(watchers, fmt.Sprint(acct, id))
			return nil
		})
		if err != nil {
			return err
		}
		if diff := cmp.Diff([]string{"acme7"}, watchers); diff != "" {
			t.Errorf("watchers (-want +got):\n%s", diff)
		}
		for id := uint64(1); id <= 2; id++ {
			if err := tx.PutAlertEvent(&storage.AlertEvent{Account: "acme", ID: id, RuleID: 7, Day: 20000 + int32(id)}); err != nil {
				return err
			}
		}
		var ids []uint64
		if err := tx.AlertEvents("acme", func(e *storage.AlertEvent) error { ids = append(ids, e.ID); return nil }); err != nil {
			return err
		}
		if diff := cmp.Diff([]uint64{2, 1}, ids); diff != "" {
			t.Errorf("events newest first (-want +got):\n%s", diff)
		}
		if !tx.AlertFired("acme", 7, 20001) || tx.AlertFired("acme", 7, 20003) || tx.AlertFired("beta", 7, 20001) {
			t.Error("AlertFired: want true for acme's rule 7 on day 20001 only")
		}
		if found, err := tx.DeleteAlertRule("acme", 7); err != nil || !found {
			t.Fatalf("DeleteAlertRule: %v, %v", found, err)
		}
		if tx.HasAlertRules() || tx.AlertFired("acme", 7, 20001) || tx.CountAlertRules("acme") != 0 {
			t.Error("after DeleteAlertRule: want no index entry, no fired day, no rule")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOffersStringsKept reads more SKUs in one transaction than one of
// its string chunks holds, and SKUs both shorter and longer than the
// chunked ones: every SKU kept from an earlier call must read as it was
// written, during the transaction and after it.
func TestOffersStringsKept(t *testing.T) {
	db := MustOpen(t)
	const gtin = "00000000000017"
	var want []string
	update(t, db, func(tx *storage.Tx) error {
		for i := range 120 {
			sku := fmt.Sprintf("SKU-%03d-%s", i, strings.Repeat("x", i%80))
			want = append(want, sku)
			if err := tx.PutOffer("ON", gtin, &storage.Offer{Banner: "loblaws", SKU: sku, Price: uint32(100 + i)}); err != nil {
				return err
			}
		}
		return nil
	})
	slices.Sort(want)
	var got []string
	err := db.View(func(tx *storage.Tx) error {
		for range 3 { // later reads must not overwrite what the first kept
			var n int
			err := tx.Offers("ON", gtin, func(o *storage.Offer) error {
				if len(got) < len(want) {
					got = append(got, o.SKU)
				}
				n++
				return nil
			})
			if err != nil || n != len(want) {
				return fmt.Errorf("read %d offers, %v", n, err)
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("during the transaction: got %q, want %q", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after the transaction: got %q, want %q", got, want)
	}
}

// TestAsOfPerState: AsOf answers for the state a transaction reads, though
// readers share the latest reader's answer: a reader open across a commit
// keeps its date even after a later reader has read the new one, a writer
// sees the date it set before committing, and a reader after the commit
// sees the new one.
func TestAsOfPerState(t *testing.T) {
	db := MustOpen(t)
	update(t, db, func(tx *storage.Tx) error { return tx.SetAsOf(100) })
	asOf := func() (d int32) {
		if err := db.View(func(tx *storage.Tx) error { d = tx.AsOf(); return nil }); err != nil {
			t.Fatal(err)
		}
		return d
	}
	inside, resume, old := make(chan int32), make(chan struct{}), make(chan int32)
	go func() {
		db.View(func(tx *storage.Tx) error {
			inside <- tx.AsOf()
			<-resume
			old <- tx.AsOf()
			return nil
		})
	}()
	if got := <-inside; got != 100 {
		t.Fatalf("reader before the second commit: got %d, want 100", got)
	}
	update(t, db, func(tx *storage.Tx) error {
		if err := tx.SetAsOf(101); err != nil {
			return err
		}
		if got := tx.AsOf(); got != 101 {
			t.Errorf("writer after SetAsOf(101): got %d", got)
		}
		return nil
	})
	if got := asOf(); got != 101 {
		t.Errorf("reader after the commit: got %d, want 101", got)
	}
	close(resume)
	if got := <-old; got != 100 {
		t.Errorf("reader open across the commit, after a later reader read 101: got %d, want 100", got)
	}
}

// TestWritersWaiting: an Update waiting for the one under way is
// counted until it runs; TryUpdate does not wait and is not counted.
func TestWritersWaiting(t *testing.T) {
	db := MustOpen(t)
	held, release := make(chan struct{}), make(chan struct{})
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- db.Update(func(*storage.Tx) error { close(held); <-release; return nil }) }()
	<-held
	if n := db.WritersWaiting(); n != 0 {
		t.Fatalf("with one Update under way and none waiting: WritersWaiting = %d, want 0", n)
	}
	if ran, err := db.TryUpdate(func(*storage.Tx) error { return nil }); ran || err != nil {
		t.Fatalf("TryUpdate while an Update is under way: ran %v, %v; want not run", ran, err)
	}
	go func() { second <- db.Update(func(*storage.Tx) error { return nil }) }()
	for deadline := time.Now().Add(10 * time.Second); db.WritersWaiting() != 1; runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatalf("WritersWaiting = %d after 10 s of an Update waiting, want 1", db.WritersWaiting())
		}
	}
	close(release)
	for _, c := range []chan error{first, second} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	if n := db.WritersWaiting(); n != 0 {
		t.Fatalf("after both ran: WritersWaiting = %d, want 0", n)
	}
}

// TestKinds: the kinds index lists each product under its category and
// type as written, moves it when a rewrite changes either, and leaves it
// when neither changed; ProductCategories gives each category once.
func TestKinds(t *testing.T) {
	db := MustOpen(t)
	products := []storage.Product{
		{GTIN: "00000000000017", Name: "Skim Milk", Brand: "Natrel", Size: "2 L", Category: "Dairy & Eggs", NameFr: "Lait écrémé", Type: "skim milk", FirstSeen: 20000},
		{GTIN: "00000000000024", Name: "Organic Skim Milk", Brand: "Natrel", Size: "4 L", Category: "Dairy & Eggs", Type: "skim milk"},
		{GTIN: "00000000000031", Name: "Skim Milk Powder", Brand: "Carnation", Size: "500 g", Category: "Pantry", Type: "skim milk"},
		{GTIN: "00000000000048", Name: "Butter", Brand: "Gay Lea", Size: "454 g", Category: "Dairy & Eggs", NameFr: "Beurre"},
		{GTIN: "00000000000055", Name: "Eggs", Brand: "Burnbrae", Size: "12 eggs", Category: "Dairy & Eggs"},
		{GTIN: "00000000000062", Name: "Mystery", Size: "1 ea"},
	}
	update(t, db, func(tx *storage.Tx) error {
		for i := range products {
			if err := tx.PutProduct(&products[i]); err != nil {
				return err
			}
		}
		return nil
	})
	read := func() (categories []string, kinds map[string][]string) {
		t.Helper()
		kinds = map[string][]string{}
		err := db.View(func(tx *storage.Tx) error {
			return tx.ProductCategories(func(category []byte) error {
				categories = append(categories, string(category))
				return tx.ProductsOfCategory(string(category), nil, func(typ, gtin []byte) error {
					kinds[string(category)] = append(kinds[string(category)], string(typ)+"/"+string(gtin))
					return nil
				})
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return categories, kinds
	}
	categories, kinds := read()
	if diff := cmp.Diff([]string{"", "Dairy & Eggs", "Pantry"}, categories); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	want := map[string][]string{
		"":             {"/00000000000062"},
		"Dairy & Eggs": {"/00000000000048", "/00000000000055", "skim milk/00000000000017", "skim milk/00000000000024"},
		"Pantry":       {"skim milk/00000000000031"},
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("products by category (-want +got):\n%s", diff)
	}

	// keep is asked once a type; the products of the types it refuses
	// are passed over.
	var asked, kept []string
	err := db.View(func(tx *storage.Tx) error {
		keep := func(typ []byte) bool {
			asked = append(asked, string(typ))
			return string(typ) == "skim milk"
		}
		return tx.ProductsOfCategory("Dairy & Eggs", keep, func(typ, gtin []byte) error {
			kept = append(kept, string(typ)+"/"+string(gtin))
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"", "skim milk"}, asked); diff != "" {
		t.Errorf("types keep was asked about (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"skim milk/00000000000017", "skim milk/00000000000024"}, kept); diff != "" {
		t.Errorf("products of the kept type (-want +got):\n%s", diff)
	}

	// The powder moves to Dairy & Eggs as "milk powder"; the butter is
	// renamed, its kind unchanged; the mystery gets a category.
	products[2].Category, products[2].Type = "Dairy & Eggs", "milk powder"
	products[3].Name = "Salted Butter"
	products[5].Category = "Pantry"
	update(t, db, func(tx *storage.Tx) error {
		for _, i := range []int{2, 3, 5} {
			if err := tx.PutProduct(&products[i]); err != nil {
				return err
			}
		}
		return tx.CheckIndexes()
	})
	categories, kinds = read()
	if diff := cmp.Diff([]string{"Dairy & Eggs", "Pantry"}, categories); diff != "" {
		t.Errorf("categories after the moves (-want +got):\n%s", diff)
	}
	want = map[string][]string{
		"Dairy & Eggs": {"/00000000000048", "/00000000000055", "milk powder/00000000000031", "skim milk/00000000000017", "skim milk/00000000000024"},
		"Pantry":       {"/00000000000062"},
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("products by category after the moves (-want +got):\n%s", diff)
	}
}

// TestLastPromoBeforeAfterDeletes reads each series' last promotion the
// way an import's derive does: series by series in key order, in one
// transaction that deletes each series' events once read. Every other
// series has events; the last has none, so that its read starts past the
// last key once every event before it is deleted. bbolt keeps the leaves
// a delete empties until the commit, and its Cursor.Last never returns
// on a bucket whose every leaf is empty: the read must not step back.
func TestLastPromoBeforeAfterDeletes(t *testing.T) {
	const series = 400 // several leaves of events
	// Not MustOpen: its cleanup closes the file, which would wait for a
	// transaction that never ends, and hang the test instead of failing
	// it. The file is closed once the reads end.
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	name := func(i int) string { return fmt.Sprintf("%08d_EA", i) }
	update(t, db, func(tx *storage.Tx) error {
		var ps []storage.Promo
		for i := 0; i < series; i += 2 {
			for _, start := range []int32{20700, 20740, 20760} {
				ps = append(ps, storage.Promo{Banner: "loblaws", SKU: name(i), Province: "ON", Start: start, End: start + 6, Regular: 599, Price: 499, Stores: 2, Days: 7})
			}
		}
		return tx.PutPromos(ps)
	})
	done := make(chan error, 1)
	go func() {
		done <- db.Update(func(tx *storage.Tx) error {
			var p storage.Promo
			for i := range series {
				// 20750: the event of 20740 is the last on or before it;
				// 20760's is after.
				found, err := tx.LastPromoBefore("loblaws", name(i), "ON", 20750, &p)
				if err != nil {
					return err
				}
				if want := i%2 == 0; found != want || found && (p.Start != 20740 || p.End != 20746 || p.Price != 499) {
					return fmt.Errorf("series %d: got %v, %+v, want %v: the event of 2026-10-14 (day 20740)", i, found, p, want)
				}
				if err := tx.DeletePromosFrom("loblaws", name(i), "ON", 0); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the reads did not end in 2 minutes (they take about a millisecond): a cursor loops over emptied leaves")
	}
}
