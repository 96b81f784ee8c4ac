//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// checkNewOnShelf compares new_on_shelf's products with new_on_shelf.sql.
func checkNewOnShelf(t *testing.T, fx *fixture) {
	reqs := []grocery.NewOnShelfInput{
		{Province: "ON", Days: grocery.Some(14)},
		{Province: "ON", Banner: "metro", Days: grocery.Some(30)},
		{Province: "QC", Category: "Dairy & Eggs", Days: grocery.Some(14)},
		{Province: "BC", Days: grocery.Some(7)},
		{Province: "MB", Days: grocery.Some(14)},
		{Province: "NT", Days: grocery.Some(30)},
	}
	for _, in := range reqs {
		name := fmt.Sprintf("province=%s banner=%s category=%s days=%d", in.Province, in.Banner, in.Category, in.Days.V)
		t.Run(name, func(t *testing.T) {
			in.Limit = grocery.Some(500)
			res, err := fx.svc.NewOnShelf(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var want []map[string]any
			fx.sql(t, "new_on_shelf.sql", map[string]string{"province": in.Province, "banner": in.Banner,
				"category": in.Category, "days": strconv.Itoa(in.Days.V)}, &want)
			g := asJSON(t, res)
			c := newChecker(t, "new_on_shelf "+name)
			c.exact("total", g["total"], len(want))
			c.list("results", g["results"], want, []string{"banner", "external_sku"}, []field{
				{name: "upc"}, {name: "name"}, {name: "brand"}, {name: "size"}, {name: "category"}, {name: "province"},
				{name: "first_seen"}, {name: "first_price", kind: kMoney}, {name: "first_stores"},
				{name: "latest_price", kind: kMoney}, {name: "last_seen"},
			})
			c.done()
		})
	}
}
