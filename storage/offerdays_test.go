package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// putOffers writes an offer of each gtin, banner and day of offers in
// province, in one transaction, with what the offer's index check asks
// for: its product, its SKU and its observation.
func putOffers(t *testing.T, db *DB, province string, offers []testOffer) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		for _, o := range offers {
			sku := "s" + o.gtin
			if err := tx.PutProduct(&Product{GTIN: o.gtin, Name: "p"}); err != nil {
				return err
			}
			if err := tx.PutSKU(&SKU{Banner: o.banner, SKU: sku, GTIN: o.gtin}); err != nil {
				return err
			}
			if err := tx.PutDay(o.banner, sku, province, &Day{Date: o.day, Min: 100, Median: 100, Max: 100, Count: 1, Entries: []Entry{{Store: 1, Price: 100, Regular: 100}}}); err != nil {
				return err
			}
			if err := tx.PutOffer(province, o.gtin, &Offer{Banner: o.banner, SKU: sku, Price: 100, Regular: 100, ObservedAt: o.day}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type testOffer struct {
	gtin, banner string
	day          int32
}

func gtinN(n int) string { return fmt.Sprintf("%014d", n) }

// newest looks gtins up in d in the order given and returns their days,
// -1 for none.
func newest(d *OfferDays, gtins []string) []int32 {
	var got []int32
	for _, g := range gtins {
		day, ok := d.Newest([]byte(g))
		if !ok {
			day = -1
		}
		got = append(got, day)
	}
	return got
}

// TestOfferDays: a province's offer days are the newest ObservedAt of each
// product's offers, over its banners, as the last committed write left
// them: after puts, a delete, every offer of a province deleted, and a
// write rolled back.
func TestOfferDays(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100}, {gtinN(1), "loblaws", 105}, {gtinN(3), "metro", 90}})
	putOffers(t, db, "QC", []testOffer{{gtinN(2), "metro", 50}})
	check := func(step, province string, gtins []string, want []int32) {
		t.Helper()
		err := db.View(func(tx *Tx) error {
			d, err := tx.OfferDays(province)
			if err != nil {
				return err
			}
			if got := newest(&d, gtins); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s offer days of %v: got %v, want %v", step, province, gtins, got, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	all := []string{gtinN(0), gtinN(1), gtinN(2), gtinN(3), gtinN(4)}
	check("puts", "ON", all, []int32{-1, 105, -1, 90, -1})
	check("puts", "QC", all, []int32{-1, -1, 50, -1, -1})
	check("puts", "NB", all, []int32{-1, -1, -1, -1, -1})

	err := db.Update(func(tx *Tx) error { return tx.DeleteOffer("ON", gtinN(1), "loblaws", "s"+gtinN(1)) })
	if err != nil {
		t.Fatal(err)
	}
	check("a delete", "ON", all, []int32{-1, 100, -1, 90, -1})

	err = db.Update(func(tx *Tx) error {
		if err := tx.PutOffer("ON", gtinN(4), &Offer{Banner: "metro", SKU: "x", ObservedAt: 200}); err != nil {
			return err
		}
		return errors.New("rolled back")
	})
	if err == nil {
		t.Fatal("the failing write committed")
	}
	check("a write rolled back", "ON", all, []int32{-1, 100, -1, 90, -1})

	err = db.Update(func(tx *Tx) error {
		if err := tx.DeleteOffer("ON", gtinN(1), "metro", "s"+gtinN(1)); err != nil {
			return err
		}
		return tx.DeleteOffer("ON", gtinN(3), "metro", "s"+gtinN(3))
	})
	if err != nil {
		t.Fatal(err)
	}
	check("every offer deleted", "ON", all, []int32{-1, -1, -1, -1, -1})
	err = db.View(func(tx *Tx) error {
		if v := tx.offerDays().Get([]byte("ON")); v != nil {
			t.Errorf("a province without offers keeps a record of %d bytes", len(v))
		}
		return tx.CheckIndexes()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOfferDaysLookups: Newest finds every product, and none between them,
// whatever the order of the lookups: ascending with gaps (galloped),
// descending, shuffled and repeated (searched).
func TestOfferDaysLookups(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	var offers []testOffer
	want := map[string]int32{}
	for i := 0; i < 600; i += 2 { // the even GTINs have offers, the odd ones none
		day := int32(20000 + i%37)
		offers = append(offers, testOffer{gtinN(i), "metro", day})
		if i%3 == 0 {
			offers = append(offers, testOffer{gtinN(i), "sobeys", day + 5})
			day += 5
		}
		want[gtinN(i)] = day
	}
	putOffers(t, db, "ON", offers)
	orders := map[string][]string{}
	for i := 0; i < 601; i++ {
		orders["ascending"] = append(orders["ascending"], gtinN(i))
		orders["descending"] = append(orders["descending"], gtinN(600-i))
		if i%97 == 0 {
			orders["far apart"] = append(orders["far apart"], gtinN(i))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	orders["shuffled, repeated"] = append(append([]string{}, orders["ascending"]...), orders["ascending"][:50]...)
	r.Shuffle(len(orders["shuffled, repeated"]), func(i, j int) {
		s := orders["shuffled, repeated"]
		s[i], s[j] = s[j], s[i]
	})
	orders["past the last"] = []string{gtinN(598), gtinN(599), gtinN(700), gtinN(2)}
	err := db.View(func(tx *Tx) error {
		for name, gtins := range orders {
			d, err := tx.OfferDays("ON")
			if err != nil {
				return err
			}
			if d.Len() != 300 {
				t.Errorf("Len: %d, want 300", d.Len())
			}
			for i, day := range newest(&d, gtins) {
				w, ok := want[gtins[i]]
				if !ok {
					w = -1
				}
				if day != w {
					t.Errorf("%s: lookup %d, %s: got %d, want %d", name, i, gtins[i], day, w)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeOfferDays: a version 13 file has no offer days. A read-only
// open refuses it, saying to open it once for writing; a writable open
// writes them, and they check.
func TestUpgradeOfferDays(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v13.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100}, {gtinN(1), "loblaws", 105}})
	putOffers(t, db, "BC", []testOffer{{gtinN(7), "metro", 60}})
	asVersion(t, db, path, 13, bucketOfferDays)
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("writable open of a version 13 file: %v", err)
	}
	defer db.Close()
	err = db.View(func(tx *Tx) error {
		if err := tx.checkOfferDays(); err != nil {
			return err
		}
		on, err := tx.OfferDays("ON")
		if err != nil {
			return err
		}
		bc, err := tx.OfferDays("BC")
		if err != nil {
			return err
		}
		if got := fmt.Sprint(newest(&on, []string{gtinN(1), gtinN(7)}), newest(&bc, []string{gtinN(1), gtinN(7)})); got != "[105 -1] [-1 60]" {
			t.Errorf("offer days after the upgrade: ON, BC: %s, want [105 -1] [-1 60]", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckOfferDays: CheckIndexes finds offer days that differ from
// their offers, those of a province without offers, and a province's
// missing record; a record of a length no entries make is corrupt.
func TestCheckOfferDays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		break_ func(tx *Tx) error
		want   string
	}{
		{"stale day", func(tx *Tx) error {
			return tx.offerDays().Put([]byte("ON"), binary.BigEndian.AppendUint32([]byte(gtinN(1)), 104))
		}, `offerdays of "ON" differ from its offers at product 1 (of 1, its offers give 1)`},
		{"orphan", func(tx *Tx) error {
			return tx.offerDays().Put([]byte("QC"), binary.BigEndian.AppendUint32([]byte(gtinN(1)), 104))
		}, `offerdays of "QC" differ from its offers at product 1 (of 1, its offers give 0)`},
		{"missing", func(tx *Tx) error { return tx.offerDays().Delete([]byte("ON")) }, `offerdays of "ON" differ from its offers at product 1 (of 0, its offers give 1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tempDB(t)
			putOffers(t, db, "ON", []testOffer{{gtinN(1), "metro", 100}, {gtinN(1), "loblaws", 105}})
			err := db.View(func(tx *Tx) error { return tx.CheckIndexes() })
			if err != nil {
				t.Fatalf("before: %v", err)
			}
			wantInconsistent(t, db, tc.break_, tc.want)
		})
	}
	db := tempDB(t)
	err := db.Update(func(tx *Tx) error {
		if err := tx.offerDays().Put([]byte("ON"), []byte(gtinN(1))); err != nil {
			return err
		}
		_, err := tx.OfferDays("ON")
		return err
	})
	if !errors.Is(err, errCorrupt) {
		t.Errorf("a record of 14 bytes: got %v, want errCorrupt", err)
	}
}

// BenchmarkOfferDaysNewest looks up 600 of 20,000 products (a search's
// matches against a province of the national set) in ascending order, as
// a search's token runs mostly give them, and shuffled.
func BenchmarkOfferDaysNewest(b *testing.B) {
	var rec []byte
	for i := 0; i < 20000; i++ {
		rec = binary.BigEndian.AppendUint32(append(rec, gtinN(i*3)...), 20000)
	}
	var asc [][]byte
	for i := 0; i < 600; i++ {
		asc = append(asc, []byte(gtinN(i*100)))
	}
	shuffled := append([][]byte{}, asc...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, c := range []struct {
		name  string
		gtins [][]byte
	}{{"ascending", asc}, {"shuffled", shuffled}} {
		b.Run(c.name, func(b *testing.B) {
			found := 0
			for b.Loop() {
				d := OfferDays{b: rec}
				for _, g := range c.gtins {
					if _, ok := d.Newest(g); ok {
						found++
					}
				}
			}
			if found == 0 {
				b.Fatal("found none")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.gtins)), "ns/lookup")
		})
	}
}

// TestOfferDaysWrites: the offer days follow every way offers are written:
// TryUpdate; a write transaction reads its own writes; ClearOffers clears
// every province's record, and offers put again after it make theirs
// anew.
func TestOfferDaysWrites(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	ran, err := db.TryUpdate(func(tx *Tx) error {
		if err := tx.PutOffer("ON", gtinN(1), &Offer{Banner: "metro", SKU: "a", ObservedAt: 100}); err != nil {
			return err
		}
		return tx.PutOffer("QC", gtinN(2), &Offer{Banner: "metro", SKU: "b", ObservedAt: 50})
	})
	if err != nil || !ran {
		t.Fatalf("TryUpdate: ran %v, %v", ran, err)
	}
	err = db.Update(func(tx *Tx) error {
		on, err := tx.OfferDays("ON")
		if err != nil {
			return err
		}
		if got := newest(&on, []string{gtinN(1)}); got[0] != 100 {
			t.Errorf("after TryUpdate: ON %v, want [100]", got)
		}
		if err := tx.PutOffer("ON", gtinN(1), &Offer{Banner: "loblaws", SKU: "c", ObservedAt: 200}); err != nil {
			return err
		}
		if on, err = tx.OfferDays("ON"); err != nil {
			return err
		}
		if got := newest(&on, []string{gtinN(1)}); got[0] != 200 {
			t.Errorf("in the write that put day 200: ON %v, want [200]", got)
		}
		if err := tx.ClearOffers(); err != nil {
			return err
		}
		return tx.PutOffer("QC", gtinN(3), &Offer{Banner: "metro", SKU: "d", ObservedAt: 70})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		if v := tx.offerDays().Get([]byte("ON")); v != nil {
			t.Errorf("ON keeps a record of %d bytes after ClearOffers", len(v))
		}
		qc, err := tx.OfferDays("QC")
		if err != nil {
			return err
		}
		if got := newest(&qc, []string{gtinN(2), gtinN(3)}); fmt.Sprint(got) != "[-1 70]" {
			t.Errorf("QC after ClearOffers and a put: %v, want [-1 70]", got)
		}
		return tx.checkOfferDays()
	})
	if err != nil {
		t.Fatal(err)
	}
}
