package grocery

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestVerify: the demo file is consistent; an aggregate that differs from
// the observations, and an offer whose product is gone, are reported by
// name, and Verify changes nothing.
func TestVerify(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "demo.db")
	asOf, _ := ParseDate("2026-11-19")
	if _, err := BuildDemo(ctx, path, &DemoOptions{AsOf: asOf}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify of a fresh demo file: %v", err)
	}
	for i := 0; i < 2; i++ { // twice: the first Verify must have changed nothing
		if err := s.Verify(ctx); err != nil {
			t.Fatalf("Verify again: %v", err)
		}
	}

	// One observation too many in a category day.
	var key storage.CatDayKey
	if err := s.db.View(func(tx *storage.Tx) error {
		return tx.CatDays("ON", "Dairy & Eggs", "no-frills", 0, int32(asOf), false, func(k *storage.CatDayKey, _ *storage.CatDay) error {
			key = *k
			return storage.ErrStop
		})
	}); err != nil {
		t.Fatal(err)
	}
	if key.Day == 0 {
		t.Fatal("no ON Dairy & Eggs category day in the demo")
	}
	extra := []storage.CatObs{{Store: 1, Price: 12345}}
	if err := s.db.Update(func(tx *storage.Tx) error { return tx.UpdateCatDay(&key, extra, nil) }); err != nil {
		t.Fatal(err)
	}
	err = s.Verify(ctx)
	errCode(t, err, ECONFLICT)
	t.Logf("an extra observation: %v", err)
	if err := s.db.Update(func(tx *storage.Tx) error { return tx.UpdateCatDay(&key, nil, extra) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatalf("Verify after taking it out again: %v", err)
	}

	// An offer naming a product that is not there.
	if err := s.db.Update(func(tx *storage.Tx) error {
		return tx.PutOffer("ON", "00000000000017", &storage.Offer{Banner: "no-frills", SKU: "nope", Price: 100, Regular: 100})
	}); err != nil {
		t.Fatal(err)
	}
	err = s.Verify(ctx)
	errCode(t, err, ECONFLICT)
	t.Logf("a dangling offer: %v", err)
}

func errCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := ErrorCode(err); got != want {
		tb.Fatalf("error %v: code %q, want %q", err, got, want)
	}
}
