//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// checkPriceHistory compares price_history's points (M1's daily medians
// and the stores' spread) and its stats (M11) with price_history.sql.
func checkPriceHistory(t *testing.T, fx *fixture) {
	// The README's SKU, and in each province the SKU with the most store
	// observations in the last 30 days (the widest spread) and the SKU with
	// the most distinct daily prices over the year.
	type req struct{ province, banner, sku, period string }
	reqs := []req{{"ON", "no-frills", "20156839_EA", "90d"}}
	for _, p := range provinces {
		var rows []map[string]string
		fx.query(t, `SELECT json_agg(x) FROM (
			(SELECT banner, sku FROM daily, meta WHERE province = '`+p+`' AND d > asof - 30
			 GROUP BY banner, sku ORDER BY sum(stores) DESC, banner, sku LIMIT 1)
			UNION ALL
			(SELECT banner, sku FROM daily WHERE province = '`+p+`'
			 GROUP BY banner, sku ORDER BY count(DISTINCT p) DESC, banner, sku LIMIT 1)) x`, &rows)
		for i, r := range rows {
			reqs = append(reqs, req{p, r["banner"], r["sku"], []string{"30d", "365d"}[i%2]})
		}
	}
	for _, r := range reqs {
		name := fmt.Sprintf("sku=%s banner=%s province=%s period=%s", r.sku, r.banner, r.province, r.period)
		res, err := fx.svc.PriceHistory(context.Background(), grocery.HistoryInput{SKU: r.sku, Banner: r.banner, Province: r.province, Period: r.period})
		if err != nil {
			t.Fatal(err)
		}
		g := asJSON(t, res)
		days, _ := strconv.Atoi(r.period[:len(r.period)-1])
		var want map[string]any
		fx.sql(t, "price_history.sql", map[string]string{"province": r.province, "banner": r.banner, "sku": r.sku,
			"days": strconv.Itoa(days)}, &want)
		pts, _ := want["points"].([]any)
		var wantPts []map[string]any
		for _, p := range pts {
			wantPts = append(wantPts, p.(map[string]any))
		}
		t.Run("points (M1) "+name, func(t *testing.T) {
			c := newChecker(t, "price_history "+name)
			c.exact("from", g["from"], want["from"])
			c.exact("to", g["to"], want["to"])
			c.list("points", g["points"], wantPts, []string{"date"}, []field{
				{name: "min", kind: kMoney}, {name: "median", kind: kMoney}, {name: "max", kind: kMoney}, {name: "store_count"},
			})
			c.done()
		})
		t.Run("in force "+name, func(t *testing.T) {
			c := newChecker(t, "price_history "+name)
			var wantDays []map[string]any
			for _, d := range want["in_force"].([]any) {
				wantDays = append(wantDays, d.(map[string]any))
			}
			c.list("in_force", g["in_force"], wantDays, []string{"date"}, []field{
				{name: "price", kind: kMoney}, {name: "regular_price", kind: kMoney}, {name: "on_promo"}, {name: "store_count"},
			})
			c.done()
		})
		t.Run("stats (M11) "+name, func(t *testing.T) {
			c := newChecker(t, "price_history "+name)
			s, _ := want["stats"].(map[string]any)
			if s == nil {
				c.exact("stats", g["stats"], nil)
				c.done()
				return
			}
			gs, _ := g["stats"].(map[string]any)
			c.fields("stats.", gs, s, []field{
				{name: "min", kind: kMoney}, {name: "max", kind: kMoney}, {name: "latest", kind: kMoney},
				{name: "change_pct", kind: kPct}, {name: "store_min", kind: kMoney}, {name: "store_max", kind: kMoney},
			})
			c.done()
		})
	}
}
