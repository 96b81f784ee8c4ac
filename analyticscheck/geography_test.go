//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// geoRequests: a barcode, categories, and (regional only) the whole panel.
var geoRequests = []struct{ upc, category string }{
	{upc: "067000378089"},
	{category: "Dairy & Eggs"},
	{category: "Pantry"},
	{},
}

// checkGeography compares geographic_prices and regional_comparison with
// geography.sql (M4).
func checkGeography(t *testing.T, fx *fixture) {
	for _, r := range geoRequests {
		name := fmt.Sprintf("upc=%s category=%s", r.upc, r.category)
		var want []map[string]any
		fx.sql(t, "geography.sql", map[string]string{"upc": r.upc, "category": r.category}, &want)
		if r.upc != "" || r.category != "" {
			t.Run("geographic_prices "+name, func(t *testing.T) {
				res, err := fx.svc.GeographicPrices(context.Background(), grocery.GeoPricesInput{UPC: r.upc, Category: r.category})
				if err != nil {
					t.Fatal(err)
				}
				g := asJSON(t, res)
				c := newChecker(t, "geographic_prices "+name)
				c.list("provinces", g["provinces"], want, []string{"province"}, []field{
					{name: "index", kind: kPct}, {name: "shelf_index", kind: kPct}, {name: "pairs"}, {name: "banners"},
					{name: "products"}, {name: "average", kind: kMoney}, {name: "min", kind: kMoney}, {name: "max", kind: kMoney},
					{name: "stores"}, {name: "thin"}, {name: "low_sample"},
				})
				c.pct("national.index", lookup(g, "national.index"), 100)
				c.done()
			})
		}
		t.Run("regional_comparison "+name, func(t *testing.T) {
			res, err := fx.svc.RegionalComparison(context.Background(), grocery.RegionalInput{UPC: r.upc, Category: r.category})
			if err != nil {
				t.Fatal(err)
			}
			g := asJSON(t, res)
			c := newChecker(t, "regional_comparison "+name)
			c.list("provinces", g["provinces"], want, []string{"province"}, []field{
				{name: "delta_pct", kind: kPct}, {name: "index", kind: kPct}, {name: "shelf_delta_pct", kind: kPct},
				{name: "shelf_index", kind: kPct}, {name: "pairs"}, {name: "banners"}, {name: "products"},
				{name: "stores"}, {name: "thin"}, {name: "low_sample"},
			})
			c.done()
		})
	}
}
