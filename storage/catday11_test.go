package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpgradeFormat11: a version 11 file keeps each category day's SKUs
// with all their fields in turn. A read-only open refuses it, saying to
// open it once for writing; a writable open rewrites every day in this
// version's encoding, and each day reads back as it was: whole, and its
// links alone (CatLinks) with nothing else set.
func TestUpgradeFormat11(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v11.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 200 SKUs, so that numbers past 127 take two bytes; every seventh
	// with links, every third with a previous day, every fifth Fell.
	var skus []SKUDay
	for i := range 200 {
		sd := SKUDay{SKU: fmt.Sprintf("sku%03d", i), Price: uint32(100 + i), Regular: uint32(120 + i)}
		if i%3 == 0 {
			sd.Low, sd.PrevGap, sd.PrevRegular = uint32(90+i), uint32(1+i%30), uint32(118+i)
		}
		sd.Fell = i%5 == 0
		if i%7 == 0 {
			sd.Link, sd.RegularLink = int32(-1000*i-1), int32(500*i)
		}
		skus = append(skus, sd)
	}
	err = db.Update(func(tx *Tx) error {
		if err := tx.PutStore(&Store{ID: "s1", Banner: "metro", Province: "ON", Active: true}); err != nil {
			return err
		}
		for d, cat := range []string{"Dairy", "Dairy", "Bakery"} {
			k := &CatDayKey{Province: "ON", Category: cat, Banner: "metro", Day: int32(20000 + d)}
			ch := &CatDayChange{Add: []CatObs{{Store: 1, Price: 100}, {Store: 1, Price: 250, Promo: true}}, SKUs: skus[d*50:]}
			if err := tx.UpdateCatDay(k, ch); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := readDays(t, db)
	if len(want) != 3 {
		t.Fatalf("wrote %d category days, want 3", len(want))
	}

	// The days as version 11 wrote them, and its format number.
	err = db.Update(func(tx *Tx) error {
		days := map[string][]byte{}
		var c CatDay
		err := tx.catDays().ForEach(func(k, v []byte) error {
			if err := tx.decodeCatDay(k[:len(k)-4], v, &c, CatAll|CatNumbered, nil, nil); err != nil {
				return err
			}
			days[string(k)] = encodeCatDay11(&c)
			return nil
		})
		if err != nil {
			return err
		}
		for k, v := range days {
			if err := tx.put(tx.catDays(), []byte(k), v); err != nil {
				return err
			}
		}
		return tx.meta().Put(keyFormat, binary.BigEndian.AppendUint32(nil, 11))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	if _, err := Open(path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("version 11, this program reads version %d: open it once for writing", FormatVersion)) {
		t.Fatalf("read-only open of a version 11 file: got %v, want it refused until a writable open", err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("writable open of a version 11 file: %v", err)
	}
	defer db.Close()
	if diff := cmp.Diff(want, readDays(t, db)); diff != "" {
		t.Errorf("category days after the upgrade (-want +got):\n%s", diff)
	}
	db.View(func(tx *Tx) error {
		if v := tx.meta().Get(keyFormat); binary.BigEndian.Uint32(v) != FormatVersion {
			t.Errorf("format after the upgrade: got %d, want %d", binary.BigEndian.Uint32(v), FormatVersion)
		}
		return tx.catDays().ForEach(func(k, v []byte) error {
			if v[0] != catDayParts {
				t.Errorf("%s after the upgrade: starts with %d, want %d", catDayName(k), v[0], catDayParts)
			}
			return nil
		})
	})
}

// dayRead is a category day as TestUpgradeFormat11 compares it: the
// whole day, and its SKUs' numbers and links as a read with CatLinks
// gives them, by SKU.
type dayRead struct {
	Count, Promo  uint32
	Sum           uint64
	SKUs          []SKUDay
	Prices, Units []uint32
	Stores        []StoreCount
	Links         map[string]SKUNum
}

func readDays(t *testing.T, db *DB) map[string]dayRead {
	t.Helper()
	days := map[string]dayRead{}
	name := func(k *CatDayKey) string { return fmt.Sprintf("%s %s %s %d", k.Province, k.Category, k.Banner, k.Day) }
	err := db.View(func(tx *Tx) error {
		err := tx.CatDays("ON", "", "", 0, 1<<30, CatAll, func(k *CatDayKey, c *CatDay) error {
			days[name(k)] = dayRead{Count: c.Count, Promo: c.Promo, Sum: c.Sum, SKUs: slices.Clone(c.SKUs),
				Prices: slices.Clone(c.Prices), Units: slices.Clone(c.Units), Stores: slices.Clone(c.Stores)}
			return nil
		})
		if err != nil {
			return err
		}
		return tx.CatDays("ON", "", "", 0, 1<<30, CatRuns|CatNumbered|CatLinks, func(k *CatDayKey, c *CatDay) error {
			d := days[name(k)]
			d.Links = map[string]SKUNum{}
			for _, s := range c.SKUNums {
				sku := c.Names[s.Num]
				s.Num = 0 // the list's number: the SKU it names is what counts
				d.Links[sku] = s
			}
			days[name(k)] = d
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return days
}

// encodeCatDay11 encodes c, read with CatAll|CatNumbered, as version 11
// did.
func encodeCatDay11(c *CatDay) []byte {
	e := enc(nil).uvarint(catDayNumbered11).uvarint(uint64(c.Count)).uvarint(uint64(c.Promo)).uvarint(c.Sum)
	e = e.uvarint(uint64(len(c.SKUNums)))
	for _, s := range c.SKUNums {
		e = e.uvarint(uint64(s.Num)).uvarint(uint64(s.Price)).uvarint(uint64(s.Regular - s.Price)).lookback(s.Lookback)
	}
	return bytes.Clone(encodeStores(encodeRuns(encodeRuns(e, c.Prices), c.Units), c.Stores))
}
