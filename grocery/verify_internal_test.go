package grocery

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestCheckShelfOffer: the file check finds a shelf record whose banner
// SKU has no offer under its barcode in the province, which readers of the
// offer prices rely on (a barcode the province has no offer of has no
// shelf record there: signals' shrinkflation and the basket pass it over).
func TestCheckShelfOffer(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := BuildDemo(context.Background(), path, &DemoOptions{Scale: "small", AsOf: Date(20776)}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.db.View(func(tx *storage.Tx) error { return tx.CheckIndexes() }); err != nil {
		t.Fatalf("the demo's file: %v", err)
	}
	rollback := errors.New("rolled back")
	var checked error
	err = s.db.Update(func(tx *storage.Tx) error {
		var sh *storage.Shelf
		err := tx.ShelfIn("ON", "", func(s *storage.Shelf) error {
			if s.GTIN == "" {
				return nil
			}
			c := *s
			sh = &c
			return storage.ErrStop
		})
		if err != nil || sh == nil {
			t.Fatalf("no shelf record with a barcode in ON: %v", err)
		}
		if err := tx.DeleteOffer("ON", sh.GTIN, sh.Banner, sh.SKU); err != nil {
			return err
		}
		checked = tx.CheckIndexes()
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if want := "which has no offer of the banner SKU in the province"; !errors.Is(checked, storage.ErrInconsistent) || !strings.Contains(checked.Error(), want) {
		t.Errorf("a shelf record without its offer: got %v, want ErrInconsistent saying %q", checked, want)
	}
}
