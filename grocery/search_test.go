package grocery_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestShopperSearch: queries as shoppers write them find products on the
// demo data. A size is matched against the product's after unit
// normalisation (4L is 4 L is 4000 mL; a dozen is 12 eggs), stop words
// are left out, and a query that finds nothing says why.
func TestShopperSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, err := grocery.Open(grocery.DemoCopy(t), &grocery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	search := func(t *testing.T, q string) *grocery.SearchResult {
		t.Helper()
		res, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: q, Province: "ON", Limit: grocery.Some(50)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	milk := search(t, "milk")
	for _, tc := range []struct {
		name, query string
		size        string // every product found has this size; "" any
		words       []string
	}{
		{"OKSizeNoSpace", "2% milk 4L", "4 L", []string{"2%", "milk"}},
		{"OKSizeSpace", "milk 4 L", "4 L", []string{"milk"}},
		{"OKSizeMillilitres", "milk 4000 ml", "4 L", []string{"milk"}},
		{"OKStopWord", "cheapest milk", "", []string{"milk"}},
		{"OKStopWords", "the best milk", "", []string{"milk"}},
		{"OKDozen", "eggs dozen", "12 eggs", []string{"eggs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, tc.query)
			if res.Total == 0 || len(res.Results) != res.Total || res.Hint != "" {
				t.Fatalf("%q: got %d of %d products, hint %q; want some, all on the page, no hint", tc.query, len(res.Results), res.Total, res.Hint)
			}
			for _, p := range res.Results {
				name := strings.ToLower(p.Name + " " + p.Brand)
				for _, w := range tc.words {
					if !strings.Contains(name, w) {
						t.Errorf("%q: %s %s has no %q", tc.query, p.Brand, p.Name, w)
					}
				}
				if tc.size != "" && p.Size != tc.size {
					t.Errorf("%q: %s %s is %s, want %s", tc.query, p.Brand, p.Name, p.Size, tc.size)
				}
			}
			if tc.size == "" && res.Total != milk.Total {
				t.Errorf("%q: got %d products, want milk's %d", tc.query, res.Total, milk.Total)
			}
		})
	}
	// The 4 L milks are the milks of size 4 L, counted by hand from the
	// plain search.
	fourLitres := 0
	for _, p := range milk.Results {
		if p.Size == "4 L" {
			fourLitres++
		}
	}
	if got := search(t, "milk 4 L").Total; fourLitres == 0 || got != fourLitres {
		t.Errorf("milk 4 L: got %d products, want the %d milks of 4 L", got, fourLitres)
	}
	for _, tc := range []struct{ name, query, hint string }{
		{"HintSize", "milk 3 L", `match "milk", none of them of size 3 L`},
		{"HintWords", "milk oikos", `"oikos" finds 0 products`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := search(t, tc.query)
			if res.Total != 0 || !strings.Contains(res.Hint, tc.hint) {
				t.Fatalf("%q: got %d products, hint %q; want none, a hint with %q", tc.query, res.Total, res.Hint, tc.hint)
			}
		})
	}
	if res := search(t, "milk oikos"); !strings.Contains(res.Hint, fmt.Sprintf(`"milk" finds %d products`, milk.Total)) {
		t.Errorf("milk oikos: hint %q, want milk's count %d", res.Hint, milk.Total)
	}
}
