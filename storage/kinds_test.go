package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpgradeKinds: a version 12 file has no kinds index. A read-only
// open refuses it, saying to open it once for writing; a writable open
// lists every product under its category and type, and the index checks.
// It leaves what version 12 has as it was: an offer's weekly prices (which
// the upgrade of a version 9 or 10 file takes from the category days,
// here none) and a store without a source (which that upgrade names).
func TestUpgradeKinds(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v12.db")
	week := Offer{Banner: "metro", SKU: "m1", Price: 399, Regular: 499, Min: 399, Max: 499, StoreCount: 1, ObservedAt: 20700,
		Expires: 20710, Low30: 399, Typical: 499, Daily: DayPrice{Day: 20700, Price: 798, Regular: 998}}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		for i, kind := range [][2]string{{"Dairy", "milk"}, {"Dairy", ""}, {"", ""}, {"Bakery", "bread"}} {
			p := &Product{GTIN: fmt.Sprintf("%014d", i+1), Name: "p", Category: kind[0], Type: kind[1]}
			if err := tx.PutProduct(p); err != nil {
				return err
			}
		}
		if err := tx.PutStore(&Store{ID: "s1", Banner: "metro", Province: "ON", Active: true}); err != nil {
			return err
		}
		return tx.PutOffer("ON", fmt.Sprintf("%014d", 1), &week)
	})
	if err != nil {
		t.Fatal(err)
	}
	asVersion(t, db, path, 12, bucketKinds)
	db, err = Open(path, Options{StoreSource: func(string) string { return "import" }})
	if err != nil {
		t.Fatalf("writable open of a version 12 file: %v", err)
	}
	defer db.Close()
	var got []string
	err = db.View(func(tx *Tx) error {
		if err := tx.checkKinds(); err != nil {
			return err
		}
		c := tx.kinds().Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			got = append(got, strings.ReplaceAll(string(k), "\x00", "|"))
		}
		var o Offer
		if found, err := tx.Offer("ON", fmt.Sprintf("%014d", 1), "metro", "m1", &o); err != nil || !found {
			return fmt.Errorf("the offer after the upgrade: found %v, %v", found, err)
		}
		if o != week {
			t.Errorf("the offer after the upgrade:\n got %+v\nwant %+v", o, week)
		}
		var st Store
		if found, err := tx.Store("s1", &st); err != nil || !found {
			return fmt.Errorf("the store after the upgrade: found %v, %v", found, err)
		}
		if st.Source != "" {
			t.Errorf("the store's source after the upgrade: %q, want none (version 12 keeps sources)", st.Source)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "||00000000000003 Bakery|bread|00000000000004 Dairy||00000000000002 Dairy|milk|00000000000001"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("kinds after the upgrade:\n got %s\nwant %s", g, want)
	}
}

// TestCheckKinds: a product missing from the kinds index, or listed
// under another kind, or an entry naming no product, fails the check.
func TestCheckKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		break_ func(tx *Tx) error
		want   string
	}{
		{"missing", func(tx *Tx) error { return tx.kinds().Delete(kindKey("Dairy", "milk", "00000000000001")) }, "kinds holds 1 products, the catalogue 2"},
		{"stale", func(tx *Tx) error {
			return tx.put(tx.products(), []byte("00000000000001"), (&Product{Name: "p", Category: "Dairy", Type: "cream"}).encode(nil))
		}, `product 00000000000001 is of category "Dairy", type "cream"`},
		{"orphan", func(tx *Tx) error { return tx.put(tx.kinds(), kindKey("Dairy", "milk", "00000000000009"), nil) }, "names no product"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tempDB(t)
			err := db.Update(func(tx *Tx) error {
				for i, typ := range []string{"milk", "butter"} {
					if err := tx.PutProduct(&Product{GTIN: fmt.Sprintf("%014d", i+1), Name: "p", Category: "Dairy", Type: typ}); err != nil {
						return err
					}
				}
				return tx.CheckIndexes()
			})
			if err != nil {
				t.Fatalf("before: %v", err)
			}
			wantInconsistent(t, db, tc.break_, tc.want)
		})
	}
}

// TestPutProductNul: a category or type holding a 0x00 byte would not
// parse back from the kinds index's key; PutProduct refuses it and writes
// nothing.
func TestPutProductNul(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	for _, p := range []Product{
		{GTIN: "00000000000017", Name: "p", Category: "Dairy\x00Eggs", Type: "milk"},
		{GTIN: "00000000000017", Name: "p", Category: "Dairy", Type: "milk\x00cream"},
	} {
		err := db.Update(func(tx *Tx) error { return tx.PutProduct(&p) })
		if !errors.Is(err, ErrNulKind) {
			t.Errorf("PutProduct of category %q, type %q: got %v, want ErrNulKind", p.Category, p.Type, err)
		}
	}
	err := db.View(func(tx *Tx) error {
		if k, _ := tx.kinds().Cursor().First(); k != nil {
			t.Errorf("kinds holds %q after the refusals", k)
		}
		if k, _ := tx.products().Cursor().First(); k != nil {
			t.Errorf("products holds %q after the refusals", k)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// asVersion makes the file at path, open as db, look as a file of an
// older format version left it, without bucket (when not nil), then
// closes db, and checks that a read-only open refuses it, saying to open
// it once for writing.
func asVersion(t *testing.T, db *DB, path string, version int, bucket []byte) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		if bucket != nil {
			if err := tx.tx.DeleteBucket(bucket); err != nil {
				return err
			}
		}
		return tx.meta().Put(keyFormat, binary.BigEndian.AppendUint32(nil, uint32(version)))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("version %d, this program reads version %d: open it once for writing", version, FormatVersion)
	if _, err := Open(path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("read-only open of a version %d file: got %v, want it refused until a writable open", version, err)
	}
}

// wantInconsistent breaks db's file with break_ and checks that
// CheckIndexes then fails with ErrInconsistent saying want (the write is
// rolled back).
func wantInconsistent(t *testing.T, db *DB, break_ func(tx *Tx) error, want string) {
	t.Helper()
	err := db.Update(func(tx *Tx) error {
		if err := break_(tx); err != nil {
			return err
		}
		return tx.CheckIndexes()
	})
	if !errors.Is(err, ErrInconsistent) || !strings.Contains(err.Error(), want) {
		t.Errorf("check: got %v, want ErrInconsistent saying %q", err, want)
	}
}

// tempDB opens a new data file in the test's directory, closed when the
// test ends.
func tempDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
