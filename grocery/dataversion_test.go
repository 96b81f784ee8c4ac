package grocery_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestDataVersion: DataVersion moves after an import of stores or of
// observations, and after a write of a batch; a failed import, keys and
// alert rules leave it; two opens of one file never share it.
func TestDataVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "grocery.db")
	s, err := grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	step := func(name string, moves, fails bool, write func() error) {
		t.Helper()
		before := s.DataVersion()
		err := write()
		if (err != nil) != fails {
			t.Fatalf("%s: got err %v, want failing %v", name, err, fails)
		}
		if moved := s.DataVersion() != before; moved != moves {
			t.Errorf("%s: DataVersion moved %v, want %v", name, moved, moves)
		}
	}
	imp := func(name, data string) func() error {
		return func() error { _, err := s.Import(ctx, name, strings.NewReader(data), nil); return err }
	}
	step("stores", true, false, imp("stores.csv", "store_id,banner,province,name,city,postal_code,latitude,longitude\nlob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40\n"))
	const obs = "date,store_id,banner,external_sku,price,upc,name\n2026-11-19,lob-a,loblaws,L1,4.99,068000000154,Milk\n"
	step("observations", true, false, imp("obs.csv", obs))
	step("a bad row", false, true, imp("bad.csv", "date,store_id,banner,external_sku,price\n2026-11-19,nope,loblaws,L1,4.99\n"))
	step("a key", false, false, func() error {
		_, err := s.CreateKey(ctx, grocery.KeyInput{Account: "a", Plan: "integration"})
		return err
	})
	step("an alert rule", false, false, func() error {
		_, err := s.CreateAlert(grocery.NewContextWithAccount(ctx, "a"), grocery.AlertInput{Name: "m", UPC: "068000000154", Province: "ON", Condition: grocery.AlertPromoStart})
		return err
	})
	first := s.DataVersion()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.DataVersion() == first {
		t.Errorf("reopened: got DataVersion %d again, want another", first)
	}
}
