package grocery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grocerydata/grocery/grocery"
)

// The exact total of a store search comes from an index of the data
// version: it counts every current store and SKU, every page agrees with
// the whole list, and a write is counted by the next search.
func TestSearchStoresTotal(t *testing.T) {
	t.Parallel()
	s := MustFixture(t)
	ctx := context.Background()
	search := func(limit, offset int) *grocery.StoreSearchResult {
		t.Helper()
		res, err := s.SearchStores(ctx, grocery.StoreSearchInput{Query: "milk", Province: "ON", Limit: grocery.Some(limit), Offset: offset})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Milk: three Loblaws stores and one No Frills (the Metro store is
	// closed); chocolate milk: one Loblaws store.
	all := search(500, 0)
	if all.Total != 5 || len(all.Results) != 5 {
		t.Fatalf("got total %d and %d results, want 5 and 5", all.Total, len(all.Results))
	}
	for limit := 1; limit <= 5; limit++ {
		for offset := 0; offset <= 5; offset++ {
			res := search(limit, offset)
			want := all.Results[offset:min(offset+limit, 5)]
			if res.Total != 5 {
				t.Errorf("limit %d offset %d: got total %d, want 5", limit, offset, res.Total)
			}
			if diff := cmp.Diff(want, res.Results); diff != "" {
				t.Errorf("limit %d offset %d: the page differs from the whole list (-want +got):\n%s", limit, offset, diff)
			}
		}
	}
	// A new data version: chocolate milk observed at a second store.
	b := &grocery.Batch{Observations: []grocery.Observation{{Date: day(t, "2026-11-19"), StoreID: "lob-on-2", Banner: "loblaws",
		ExternalSKU: "21000002_EA", Price: 349, RegularPrice: 349}}}
	before := s.DataVersion()
	if _, err := grocery.WriteBatch(ctx, s, b); err != nil {
		t.Fatal(err)
	}
	if s.DataVersion() == before {
		t.Fatal("the write left the data version as it was")
	}
	if got := search(10, 0); got.Total != 6 || len(got.Results) != 6 {
		t.Errorf("after the write: got total %d and %d results, want 6 and 6", got.Total, len(got.Results))
	}
	// By postal code, the same count.
	res, err := s.SearchStores(ctx, grocery.StoreSearchInput{Query: "milk", PostalCode: "M5V 2T6", Limit: grocery.Some(2)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 6 || len(res.Results) != 2 {
		t.Errorf("by postal code: got total %d and %d results, want 6 and 2", res.Total, len(res.Results))
	}
}

// TestStorePriceBarcodeAsSKU: a barcode given as sku is named as one,
// with what to give instead, as price_history names it; an unknown SKU
// is still "never observed".
func TestStorePriceBarcodeAsSKU(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	for _, c := range []struct{ sku, want string }{
		{upcMilk, `sku "068000000154" is a barcode, not an external_sku: give it as upc`},
		{"NO-SUCH-SKU", `store lob-on-1 (loblaws) has never observed sku "NO-SUCH-SKU"`},
	} {
		_, err := s.StorePrice(ctx, grocery.StorePriceInput{Banner: "loblaws", Store: "lob-on-1", SKU: c.sku})
		if grocery.ErrorCode(err) != grocery.ENOTFOUND || !strings.Contains(grocery.ErrorMessage(err), c.want) {
			t.Errorf("sku %s: got %v, want ENOTFOUND saying %q", c.sku, err, c.want)
		}
	}
}

// TestSearchStoresBarcode: a barcode as the query answers that product's
// prices store by store (spaces and hyphens allowed, as a lookup takes
// them), where words of a name would find nothing; a wrong check digit
// is invalid and a barcode the catalogue does not know is not found.
func TestSearchStoresBarcode(t *testing.T) {
	s := MustFixture(t)
	ctx := context.Background()
	for _, q := range []string{upcMilk, "0 68000 00015 4"} {
		res, err := s.SearchStores(ctx, grocery.StoreSearchInput{Query: q, Province: "ON"})
		if err != nil {
			t.Fatalf("q %q: %v", q, err)
		}
		if len(res.Results) == 0 {
			t.Fatalf("q %q: got no hits, want the milk's", q)
		}
		for _, h := range res.Results {
			if h.UPC != upcMilk {
				t.Errorf("q %q: got a hit of %s, want only %s", q, h.UPC, upcMilk)
			}
		}
	}
	for _, c := range []struct{ q, code, want string }{
		{"068000000155", grocery.EINVALIDARGUMENT, "check digit"},
		{upcUnknown, grocery.ENOTFOUND, "not in the catalogue"},
	} {
		_, err := s.SearchStores(ctx, grocery.StoreSearchInput{Query: c.q, Province: "ON"})
		if grocery.ErrorCode(err) != c.code || !strings.Contains(grocery.ErrorMessage(err), c.want) {
			t.Errorf("q %s: got %v, want %s saying %q", c.q, err, c.code, c.want)
		}
	}
}
