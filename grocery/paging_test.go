package grocery_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestListPaging: ListReferenceStores, SearchProducts and LookupProduct
// take limits up to 500 and an offset; the pages, read one after the
// other, are the whole list in order, each with the same Total, and a page
// past the end is empty with the Total still counted.
func TestListPaging(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "demo.db")
	asOf, _ := grocery.ParseDate("2026-11-19")
	sum, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := grocery.Open(path, &grocery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	s := sum.Samples

	t.Run("stores", func(t *testing.T) {
		all, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Limit: grocery.Some(grocery.MaxLimit)})
		if err != nil {
			t.Fatal(err)
		}
		if all.Total <= grocery.DefaultLimit || len(all.Stores) != all.Total {
			t.Fatalf("limit 500 gave %d of %d stores; want all, more than %d", len(all.Stores), all.Total, grocery.DefaultLimit)
		}
		// Not given, the limit is 50.
		def, err := svc.ListReferenceStores(ctx, grocery.StoresInput{})
		if err != nil || len(def.Stores) != 50 || def.Total != all.Total {
			t.Fatalf("no limit: %d of %d stores, %v; want 50 of %d", len(def.Stores), def.Total, err, all.Total)
		}
		var paged []grocery.Store
		for off := 0; off < all.Total; off += 7 {
			p, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Limit: grocery.Some(7), Offset: off})
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != all.Total {
				t.Fatalf("offset %d: total %d, want %d", off, p.Total, all.Total)
			}
			paged = append(paged, p.Stores...)
		}
		if diff := cmp.Diff(all.Stores, paged); diff != "" {
			t.Fatalf("pages differ from the whole list (-whole +pages):\n%s", diff)
		}
		past, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Offset: all.Total})
		if err != nil || len(past.Stores) != 0 || past.Stores == nil || past.Total != all.Total {
			t.Fatalf("past the end: %+v, %v; want no stores, total %d", past, err, all.Total)
		}
	})

	t.Run("search", func(t *testing.T) {
		in := grocery.SearchInput{Query: s.Query, Province: s.Province, Limit: grocery.Some(grocery.MaxLimit)}
		all, err := svc.SearchProducts(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if all.Total < 3 {
			t.Fatalf("query %q has %d products; want at least 3 to page", s.Query, all.Total)
		}
		var paged []grocery.SearchProduct
		for off := 0; off < all.Total; off += 2 {
			in.Limit, in.Offset = grocery.Some(2), off
			p, err := svc.SearchProducts(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != all.Total {
				t.Fatalf("offset %d: total %d, want %d", off, p.Total, all.Total)
			}
			if n := len(p.Results); n != min(2, all.Total-off) {
				t.Fatalf("offset %d: %d products, want %d", off, n, min(2, all.Total-off))
			}
			if want := min(off+2, all.Total) % all.Total; p.NextOffset != want {
				t.Fatalf("offset %d: next_offset %d, want %d", off, p.NextOffset, want)
			}
			paged = append(paged, p.Results...)
		}
		if diff := cmp.Diff(all.Results, paged); diff != "" {
			t.Fatalf("pages differ from the whole list (-whole +pages):\n%s", diff)
		}
		in.Offset = all.Total
		past, err := svc.SearchProducts(ctx, in)
		if err != nil || len(past.Results) != 0 || past.Results == nil || past.Total != all.Total {
			t.Fatalf("past the end: %+v, %v; want no results, total %d", past, err, all.Total)
		}
	})

	t.Run("lookup", func(t *testing.T) {
		in := grocery.LookupInput{UPC: s.CarriedUPC, Province: s.Province, Limit: grocery.Some(grocery.MaxLimit)}
		all, err := svc.LookupProduct(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if all.Total < 3 || len(all.Offers) != all.Total {
			t.Fatalf("got %d of %d offers; want all, at least 3", len(all.Offers), all.Total)
		}
		var paged []grocery.Offer
		for off := 0; off < all.Total; off += 2 {
			in.Limit, in.Offset = grocery.Some(2), off
			p, err := svc.LookupProduct(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != all.Total {
				t.Fatalf("offset %d: total %d, want %d", off, p.Total, all.Total)
			}
			paged = append(paged, p.Offers...)
		}
		if diff := cmp.Diff(all.Offers, paged); diff != "" {
			t.Fatalf("pages differ from the whole list (-whole +pages):\n%s", diff)
		}
		in.Offset = all.Total
		past, err := svc.LookupProduct(ctx, in)
		if err != nil || len(past.Offers) != 0 || past.Offers == nil || past.Total != all.Total {
			t.Fatalf("past the end: %+v, %v; want no offers, total %d", past, err, all.Total)
		}
	})

	t.Run("bounds", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			call func() error
			want string
		}{
			{"StoresLimit", func() error {
				_, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Limit: grocery.Some(501)})
				return err
			}, "limit 501 is out of range: want 1 to 500"},
			{"StoresLimitZero", func() error { // given, 0 is a limit like any other, out of range
				_, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Limit: grocery.Some(0)})
				return err
			}, "limit 0 is out of range: want 1 to 500"},
			{"SearchLimitZero", func() error {
				_, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: "milk", Province: "ON", Limit: grocery.Some(0)})
				return err
			}, "limit 0 is out of range: want 1 to 500"},
			{"StoresOffset", func() error {
				_, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Offset: -1})
				return err
			}, "offset -1 is out of range: want 0 to "},
			{"SearchOffset", func() error {
				_, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: "milk", Province: "ON", Offset: -1})
				return err
			}, "offset -1 is out of range: want 0 to "},
			{"LookupOffset", func() error {
				_, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: s.CarriedUPC, Province: "ON", Offset: -1})
				return err
			}, "offset -1 is out of range: want 0 to "},
		} {
			err := tc.call()
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: got %v, want EINVALIDARGUMENT containing %q", tc.name, err, tc.want)
			}
		}
	})
}
