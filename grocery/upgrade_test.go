package grocery

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

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
	errCode(t, err, EINVALID)
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
