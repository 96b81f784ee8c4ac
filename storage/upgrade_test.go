package storage_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/storage"
	bolt "go.etcd.io/bbolt"
)

// format4File writes days 20000..20002 of ON Dairy metro, turns the file
// into a version 4 one (the category days as version 4 wrote them, as
// ForEachAnalytics gives them; no SKU lists; the format number), lets
// edit change the days' values (by key), and returns its path.
func format4File(t *testing.T, edit func(days map[string][]byte)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v4.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	putStores(t, db, 2)
	update(t, db, func(tx *storage.Tx) error {
		for day := int32(20000); day < 20003; day++ {
			ch := &storage.CatDayChange{Add: []storage.CatObs{{Store: 1, Price: 100}, {Store: 2, Price: 150}},
				SKUs: []storage.SKUDay{{SKU: "a", Price: 200, Regular: 200}, {SKU: "b", Price: 300, Regular: 300}}}
			if err := tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "metro", Day: day}, ch); err != nil {
				return err
			}
		}
		return nil
	})
	days := map[string][]byte{}
	err = db.View(func(tx *storage.Tx) error {
		return tx.ForEachAnalytics(func(bucket string, k, v []byte) error {
			if bucket == "catdays" {
				days[string(k)] = bytes.Clone(v)
			}
			return nil
		})
	})
	db.Close()
	if err != nil || len(days) != 3 {
		t.Fatalf("read %d category days, want 3: %v", len(days), err)
	}
	edit(days)
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bolt.Tx) error {
		for k, v := range days {
			if err := tx.Bucket([]byte("catdays")).Put([]byte(k), v); err != nil {
				return err
			}
		}
		if err := tx.DeleteBucket([]byte("catskus")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 4))
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUpgradeFormat4CorruptDay: a corrupt category day stops the upgrade
// of a version 4 file with an error that names the day and says what is
// left: the file untouched at version 4, which a read-only open refuses
// as it refuses any file to upgrade.
func TestUpgradeFormat4CorruptDay(t *testing.T) {
	t.Parallel()
	path := format4File(t, func(days map[string][]byte) {
		for k, v := range days {
			if strings.HasSuffix(k, string(binary.BigEndian.AppendUint32(nil, 20001))) {
				days[k] = v[:len(v)-1] // the last store's count cut off
			}
		}
	})
	// Upgrade is grocery's rebuild of the offers, which the corrupt day
	// stops before.
	_, err := storage.Open(path, storage.Options{Upgrade: func(*storage.Tx, int) error { return nil }})
	want := `category day ON "Dairy" "metro" 2024-10-05`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "left at version 4") {
		t.Fatalf("writable open: got %v, want an error naming %q and the file left at version 4", err, want)
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	err = b.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte("meta")).Get([]byte("format")); binary.BigEndian.Uint32(v) != 4 {
			t.Errorf("format after the failed upgrade: got %d, want 4", binary.BigEndian.Uint32(v))
		}
		if tx.Bucket([]byte("catskus")) != nil {
			t.Errorf("after the failed upgrade: got a catskus bucket, want none")
		}
		return nil
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, storage.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("version 4, this program reads version %d: open it once for writing", storage.FormatVersion)) {
		t.Fatalf("read-only open after the failed upgrade: got %v, want the version 4 file refused until a writable open upgrades it", err)
	}
}

// TestUpgradeFormat10: a version 10 file keeps no store's source. A
// read-only open refuses it; a writable open names every store's source
// by Options.StoreSource, in the store and in its listing, and the rest
// of the store is as it was.
func TestUpgradeFormat10(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v10.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	putStores(t, db, 2)
	var before []storage.Store
	db.View(func(tx *storage.Tx) error {
		return tx.ForEachStore(func(s *storage.Store) error { before = append(before, *s); return nil })
	})
	db.Close()
	// The stores as version 10 wrote them: without the source's byte.
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"stores", "storeloc"} {
			bk := tx.Bucket([]byte(name))
			kvs := map[string][]byte{}
			bk.ForEach(func(k, v []byte) error { kvs[string(k)] = bytes.Clone(v[:len(v)-1]); return nil })
			for k, v := range kvs {
				if err := bk.Put([]byte(k), v); err != nil {
					return err
				}
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 10))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, storage.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("version 10, this program reads version %d: open it once for writing", storage.FormatVersion)) {
		t.Fatalf("read-only open of a version 10 file: got %v, want it refused until a writable open", err)
	}
	db, err = storage.Open(path, storage.Options{StoreSource: func(id string) string { return "from-" + id }})
	if err != nil {
		t.Fatalf("writable open of a version 10 file: %v", err)
	}
	defer db.Close()
	var after, listed []storage.Store
	db.View(func(tx *storage.Tx) error {
		tx.ForEachStore(func(s *storage.Store) error { after = append(after, *s); return nil })
		return tx.ActiveStores("ON", "metro", func(s *storage.Store) error { listed = append(listed, *s); return nil })
	})
	for i := range before {
		before[i].Source = "from-" + before[i].ID
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("stores after the upgrade (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, listed); diff != "" {
		t.Errorf("store listing after the upgrade (-want +got):\n%s", diff)
	}
}
