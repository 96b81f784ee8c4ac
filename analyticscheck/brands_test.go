//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

var brandRequests = []grocery.BrandInput{
	{Brand: "Tropicana", Province: "ON"},
	{Brand: "Natrel", Province: "QC"},
	{Brand: "Heinz"},
	{Brand: "Great Value", Province: "NT"},
	{Brand: "President's Choice", Province: "BC"},
	{Brand: "Compliments", Province: "MB"},
}

// checkBrands compares brand_insights with brands.sql (M5).
func checkBrands(t *testing.T, fx *fixture) {
	for _, in := range brandRequests {
		name := fmt.Sprintf("brand=%s province=%s", in.Brand, in.Province)
		t.Run(name, func(t *testing.T) {
			res, err := fx.svc.BrandInsights(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			g := asJSON(t, res)
			var want []map[string]any
			fx.sql(t, "brands.sql", map[string]string{"brand": in.Brand, "province": in.Province}, &want)
			c := newChecker(t, "brand_insights "+name)
			c.list("rows", g["rows"], want, []string{"province", "banner"}, []field{
				{name: "products"}, {name: "index", kind: kPct}, {name: "products_without_peers"},
				{name: "promo_share", kind: kPct}, {name: "promo_depth", kind: kPct},
			})
			c.done()
		})
	}
}
