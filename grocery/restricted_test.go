package grocery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/storage"
)

// TestRestrictedNotCompared: a restricted-circulation barcode (an in-store
// code: it names different items at different banners) is never compared
// across banners, even when a data file holds offers of it under several
// banners. The import never links one, so the offers are written to the
// store directly here.
func TestRestrictedNotCompared(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
	svc, err := Open(filepath.Join(t.TempDir(), "grocery.db"), &Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	const csv = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob,loblaws,ON,Loblaws,Toronto,M5V 1A1,43.60,-79.40
nf,no-frills,ON,No Frills,Toronto,M5V 2B2,43.62,-79.40
met,metro,ON,Metro,Toronto,M4C 1B5,43.63,-79.40
`
	const obs = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-19,lob,loblaws,L1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf,no-frills,N1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,met,metro,M1,4.00,4.00,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`
	ctx := context.Background()
	for i, c := range []string{csv, obs} {
		if _, err := svc.Import(ctx, "f"+string(rune('0'+i))+".csv", strings.NewReader(c), nil); err != nil {
			t.Fatal(err)
		}
	}
	body := "020000000001"
	in := GTIN("0" + body + string(checkDigit(body)))
	if !in.Restricted() {
		t.Fatalf("%s is not restricted", in)
	}
	err = svc.db.Update(func(tx *storage.Tx) error {
		if err := tx.PutProduct(&storage.Product{GTIN: string(in), Name: "Ham by weight", Category: "Meat & Deli", Size: "1 kg"}); err != nil {
			return err
		}
		for i, b := range []string{"loblaws", "no-frills", "metro"} {
			p := uint32(500 + 300*i) // 5.00, 8.00, 11.00: whatever they are, not comparable
			o := storage.Offer{Banner: b, SKU: "W" + b, Price: p, Regular: p, Min: p, Max: p, StoreCount: 1,
				ObservedAt: tx.AsOf()}
			if err := tx.PutOffer("ON", string(in), &o); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Milk at 4.00 at all three: each banner's index 100 on 1 item.
	b, err := svc.CompetitiveBenchmark(ctx, BenchmarkInput{Banner: "loblaws", Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Items != 1 || b.Index == nil || *b.Index != 100 {
		t.Errorf("benchmark: %d items, index %v; want 1 item (milk), 100", b.Items, b.Index)
	}
	r, err := svc.RegionalComparison(ctx, RegionalInput{})
	if err != nil {
		t.Fatal(err)
	}
	// ON alone: nothing compared with another province; the store-level
	// prices are milk's three, the ham's left out.
	if len(r.Provinces) != 1 || r.Provinces[0].Observations != 3 {
		t.Errorf("regional: %+v; want ON on 3 store prices (milk)", r.Provinces)
	}
	g, err := svc.GeographicPrices(ctx, GeoPricesInput{UPC: in.UPC()})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Provinces) != 0 {
		t.Errorf("geographic prices of %s: %+v; want none", in.UPC(), g.Provinces)
	}
}
