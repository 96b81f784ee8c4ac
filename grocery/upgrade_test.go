package grocery

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
	bolt "go.etcd.io/bbolt"
)

// TestUpgradeFormat3: a version 3 file lacks the daily prices of format
// 4. A read-only open refuses it, naming the upgrade; a writable open
// derives them in place, so that the offers and category days equal a
// file built by this version, and Verify finds it consistent.
func TestUpgradeFormat3(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := DemoCopy(t)
	offers, days := readDaily(t, path)
	if len(offers) == 0 || len(days) == 0 {
		t.Fatalf("the demo has %d offers and %d SKU days, want some of each", len(offers), len(days))
	}

	// Make it a version 3 file: the format number, and none of what
	// version 4 adds (the upgrade reads neither bucket's old values).
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"offers", "catdays"} {
			if err := tx.DeleteBucket([]byte(name)); err != nil {
				return err
			}
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 3))
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	_, err = Open(path, &Options{ReadOnly: true})
	errCode(t, err, EINVALIDARGUMENT)
	if msg := ErrorMessage(err); !strings.Contains(msg, "version 3") || !strings.Contains(msg, "open it once for writing") {
		t.Errorf("read-only open of a version 3 file: %q, want it to name version 3 and the upgrade", msg)
	}

	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("writable open of a version 3 file: %v", err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Errorf("Verify after the upgrade: %v", err)
	}
	s.Close()
	gotOffers, gotDays := readDaily(t, path)
	if diff := cmp.Diff(offers, gotOffers); diff != "" {
		t.Errorf("offers after the upgrade (-built +upgraded):\n%s", diff)
	}
	if diff := cmp.Diff(days, gotDays); diff != "" {
		t.Errorf("SKU days after the upgrade (-built +upgraded):\n%s", diff)
	}
}

// readDaily returns every offer and every SKU day of ON.
func readDaily(t *testing.T, path string) ([]storage.Offer, []storage.SKUDay) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var offers []storage.Offer
	var days []storage.SKUDay
	err = db.View(func(tx *storage.Tx) error {
		if err := tx.OffersIn("ON", func(_ string, o *storage.Offer) error {
			offers = append(offers, *o)
			return nil
		}); err != nil {
			return err
		}
		return tx.CatDays("ON", "", "", 0, 1<<30, storage.CatSKUs, func(_ *storage.CatDayKey, c *storage.CatDay) error {
			days = append(days, c.SKUs...)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return offers, days
}

// TestUpgradeFormat4: a version 4 file names the SKUs of its category
// days in full, where version 5 numbers them in each category's list, and
// keeps no daily price in force. A read-only open refuses it, saying to
// open it once for writing; a writable open upgrades it in place, and
// then it answers as the file built by this version: the category
// reports, the brief, a brand's insights and every SKU day.
func TestUpgradeFormat4(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := DemoCopy(t)
	clock := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	answers := func(what string, opts *Options) map[string]any {
		t.Helper()
		opts.Now = clock
		s, err := Open(path, opts)
		if err != nil {
			t.Fatalf("%s: open: %v", what, err)
		}
		defer s.Close()
		got := map[string]any{}
		for _, in := range []CategoryReportInput{{Province: "ON"}, {Province: "BC", Period: "90d"}, {Province: "ON", Banner: "metro", Category: "Dairy & Eggs", Period: "7d"}} {
			res, err := s.CategoryReport(ctx, in)
			if err != nil {
				t.Fatalf("%s: CategoryReport %+v: %v", what, in, err)
			}
			got[fmt.Sprintf("category %+v", in)] = res
		}
		brief, err := s.ExecutiveBrief(ctx, BriefInput{Province: "ON"})
		if err != nil {
			t.Fatalf("%s: ExecutiveBrief: %v", what, err)
		}
		brand, err := s.BrandInsights(ctx, BrandInput{Brand: "Lactantia", Province: "ON", Period: "90d"})
		if err != nil {
			t.Fatalf("%s: BrandInsights: %v", what, err)
		}
		got["brief"], got["brand"] = brief, brand
		return got
	}
	want := answers("built", &Options{ReadOnly: true})
	if r := want["category {Province:ON Banner: Category: Period:}"].(*CategoryReport); len(r.Categories) == 0 || r.Categories[0].Matched == 0 {
		t.Fatalf("the demo's ON category report has no matched SKUs: %+v", r.Categories)
	}
	_, wantDays := readDaily(t, path)

	// Make it a version 4 file: the category days as version 4 wrote
	// them (ForEachAnalytics gives them so), no SKU lists, the format
	// number.
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	named := map[string][]byte{}
	err = db.View(func(tx *storage.Tx) error {
		return tx.ForEachAnalytics(func(bucket string, k, v []byte) error {
			if bucket == "catdays" {
				named[string(k)] = bytes.Clone(v)
			}
			return nil
		})
	})
	db.Close()
	if err != nil || len(named) == 0 {
		t.Fatalf("read %d category days: %v", len(named), err)
	}
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		for k, v := range named {
			if err := tx.Bucket([]byte("catdays")).Put([]byte(k), v); err != nil {
				return err
			}
		}
		if err := tx.DeleteBucket([]byte("catskus")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 4))
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	refusedReadOnly(t, path, 4)
	if diff := cmp.Diff(want, answers("version 4, upgraded", &Options{})); diff != "" {
		t.Errorf("upgraded file (-built +upgraded):\n%s", diff)
	}
	s, err := Open(path, &Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Errorf("Verify after the upgrade: %v", err)
	}
	s.Close()
	if diff := cmp.Diff(want, answers("upgraded, read only", &Options{ReadOnly: true})); diff != "" {
		t.Errorf("upgraded file read only (-built +upgraded):\n%s", diff)
	}
	if _, days := readDaily(t, path); !cmp.Equal(wantDays, days) {
		t.Errorf("upgraded file: the SKU days differ from the built file's")
	}
	b, err = bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte("meta")).Get([]byte("format")); binary.BigEndian.Uint32(v) != storage.FormatVersion {
			t.Errorf("format after the upgrade: got %d, want %d", binary.BigEndian.Uint32(v), storage.FormatVersion)
		}
		if tx.Bucket([]byte("catskus")) == nil {
			t.Errorf("after the upgrade: no catskus bucket, want the SKU lists")
		}
		return tx.Bucket([]byte("catdays")).ForEach(func(k, v []byte) error {
			if len(v) == 0 || v[0] != 1 { // SKUs numbered, in three parts
				t.Fatalf("category day %q after the upgrade: not in this version's encoding", k)
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeFormat5: a version 5 file's offers summarise each store's
// latest observation around the SKU's newest day, with its daily prices,
// where version 6 keeps the price in force on the data set's latest day
// and the day it expires. A read-only open refuses it; a writable open
// rebuilds every offer, so that they equal a file built by this version,
// and Verify finds it consistent.
func TestUpgradeFormat5(t *testing.T) {
	t.Parallel()
	path := DemoCopy(t)
	offers, _ := readDaily(t, path)
	if len(offers) == 0 {
		t.Fatal("the demo has no ON offers")
	}

	// Make it a version 5 file: each offer in version 5's layout (price,
	// regular, min, max, promotion end, stores, observed, then the daily
	// price and regular price in half-cents), its prices all 1 cent, so
	// that an offer not rebuilt shows.
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := 0
	if err := b.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte("offers"))
		vals := map[string][]byte{}
		if err := bk.ForEach(func(k, _ []byte) error {
			v := binary.AppendUvarint(nil, 1)
			v = binary.AppendUvarint(v, 1)
			v = binary.AppendUvarint(v, 1)
			v = binary.AppendUvarint(v, 1)
			v = binary.AppendVarint(v, 0)
			v = binary.AppendUvarint(v, 1)
			v = binary.AppendVarint(v, 20000)
			v = binary.AppendUvarint(v, 2)
			v = binary.AppendUvarint(v, 0)
			vals[string(k)] = v
			return nil
		}); err != nil {
			return err
		}
		for k, v := range vals {
			if err := bk.Put([]byte(k), v); err != nil {
				return err
			}
			old++
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 5))
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	refusedReadOnly(t, path, 5)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("writable open of a version 5 file: %v", err)
	}
	if err := s.Verify(context.Background()); err != nil {
		t.Errorf("Verify after the upgrade: %v", err)
	}
	s.Close()
	got, _ := readDaily(t, path)
	if diff := cmp.Diff(offers, got); diff != "" {
		t.Errorf("offers after the upgrade of %d (-built +upgraded):\n%s", old, diff)
	}
}

// refusedReadOnly checks that a read-only open refuses the file at path,
// of format version, saying to open it once for writing, and leaves it
// at that version.
func refusedReadOnly(t *testing.T, path string, version int) {
	t.Helper()
	_, err := Open(path, &Options{ReadOnly: true})
	want := fmt.Sprintf("version %d, this program reads version %d: open it once for writing", version, storage.FormatVersion)
	if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), want) {
		t.Fatalf("read-only open of a version %d file: got %v, want EINVALIDARGUMENT saying %q", version, err, want)
	}
}

// TestUpgradeFormat10: a version 10 file's offers lack the weekly prices
// of version 11 (storage.Offer.Daily, WeekBefore). A read-only open
// refuses it, saying to open it once for writing; a writable open, even
// without Options.Upgrade, takes them from the category days, so that
// every offer equals a file built by this version and the comparisons of
// one flyer week give the same answers.
func TestUpgradeFormat10(t *testing.T) {
	t.Parallel()
	path := DemoCopy(t)
	offers, _ := readDaily(t, path)
	ctx := context.Background()
	built, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	wantBench, err := built.CompetitiveBenchmark(ctx, BenchmarkInput{Banner: "loblaws", Province: "ON"})
	built.Close()
	if err != nil {
		t.Fatal(err)
	}
	weekly := 0
	for _, o := range offers {
		if o.WeekBefore.Day != 0 {
			weekly++
		}
	}
	if weekly == 0 {
		t.Fatal("no ON offer of the demo has a weekly price the week before its newest day's")
	}

	// Each offer as version 10 wrote it: cut after its typical price
	// (the eleventh number).
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte("offers"))
		vals := map[string][]byte{}
		if err := bk.ForEach(func(k, v []byte) error {
			n := 0
			for range 11 {
				_, m := binary.Uvarint(v[n:]) // a varint is as long as a uvarint of the same bytes
				n += m
			}
			vals[string(k)] = bytes.Clone(v[:n])
			return nil
		}); err != nil {
			return err
		}
		for k, v := range vals {
			if err := bk.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 10))
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	refusedReadOnly(t, path, 10)
	db, err := storage.Open(path, storage.Options{}) // no Upgrade: storage does it alone
	if err != nil {
		t.Fatalf("writable open of a version 10 file: %v", err)
	}
	db.Close()
	got, _ := readDaily(t, path)
	if diff := cmp.Diff(offers, got); diff != "" {
		t.Errorf("ON offers after the upgrade (-built +upgraded):\n%s", diff)
	}
	checkWeeklyPrices(t, path)
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gotBench, err := s.CompetitiveBenchmark(ctx, BenchmarkInput{Banner: "loblaws", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantBench, gotBench); diff != "" {
		t.Errorf("benchmark after the upgrade (-built +upgraded):\n%s", diff)
	}
}
