//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// verdictFields are the figures of a price verdict (verdict.sql).
var verdictFields = []field{
	{name: "price", kind: kMoney}, {name: "low_30d", kind: kMoney}, {name: "typical_price", kind: kMoney}, {name: "verdict"},
}

// checkVerdict compares the price verdict of lookup_product's offers, for
// the barcodes with the most current offers in ON and the README's in each
// province, and of price_history's last day for the SKUs with the most
// distinct daily prices (promotions come and go), with verdict.sql.
func checkVerdict(t *testing.T, fx *fixture) {
	var upcs []string
	fx.query(t, `SELECT json_agg(upc) FROM (SELECT upc FROM cur WHERE province = 'ON'
		GROUP BY upc ORDER BY count(*) DESC, upc LIMIT 3) x`, &upcs)
	upcs = append(upcs, "067000378089")
	verdicts := map[string]int{}
	for _, p := range provinces {
		for _, upc := range upcs {
			t.Run("lookup "+p+" "+upc, func(t *testing.T) {
				res, err := fx.svc.LookupProduct(context.Background(), grocery.LookupInput{UPC: upc, Province: p, Limit: grocery.Some(50)})
				if err != nil {
					t.Fatal(err)
				}
				var want []map[string]any
				fx.sql(t, "verdict.sql", map[string]string{"province": p, "upc": upc, "banner": "", "sku": ""}, &want)
				byKey := map[string]map[string]any{}
				for _, w := range want {
					byKey[fmt.Sprint(w["banner"], " ", w["external_sku"])] = w
				}
				c := newChecker(t, fmt.Sprintf("lookup_product upc=%s province=%s", upc, p))
				offers, _ := asJSON(t, res)["offers"].([]any)
				c.exact("offers", len(offers), len(want))
				for _, o := range offers {
					om := o.(map[string]any)
					key := fmt.Sprint(om["banner"], " ", om["external_sku"])
					s := byKey[key]
					if s == nil {
						c.diff(key, "an offer", "no current offer", "")
						continue
					}
					c.fields(key+" ", om, s, verdictFields)
					verdicts[fmt.Sprint(s["verdict"])]++
				}
				c.done()
			})
		}
	}
	var skus []map[string]string
	fx.query(t, `SELECT json_agg(x) FROM (SELECT province, banner, sku FROM offer WHERE province IN ('ON', 'QC')
		AND (province, banner, sku) IN (SELECT province, banner, sku FROM daily GROUP BY 1, 2, 3 ORDER BY count(DISTINCT p) DESC LIMIT 400)
		ORDER BY province, banner, sku LIMIT 12) x`, &skus)
	for _, r := range skus {
		t.Run("price_history "+r["province"]+" "+r["banner"]+" "+r["sku"], func(t *testing.T) {
			res, err := fx.svc.PriceHistory(context.Background(), grocery.HistoryInput{SKU: r["sku"], Banner: r["banner"], Province: r["province"], Period: "7d"})
			if err != nil {
				t.Fatal(err)
			}
			var want []map[string]any
			fx.sql(t, "verdict.sql", map[string]string{"province": r["province"], "upc": "", "banner": r["banner"], "sku": r["sku"]}, &want)
			c := newChecker(t, fmt.Sprintf("price_history sku=%s banner=%s province=%s", r["sku"], r["banner"], r["province"]))
			g, _ := asJSON(t, res)["verdict"].(map[string]any)
			if len(want) != 1 || g == nil {
				c.diff("verdict", g, want, "one current offer")
			} else {
				c.fields("verdict.", g, want[0], verdictFields)
				verdicts[fmt.Sprint(want[0]["verdict"])]++
			}
			c.done()
		})
	}
	// The requests must reach more than one verdict, or the check says
	// little.
	if len(verdicts) < 3 {
		t.Errorf("verdicts checked: %v, want at least three kinds", verdicts)
	}
	t.Logf("verdicts checked: %v", verdicts)
}
