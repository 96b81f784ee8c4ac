//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

var briefRequests = []grocery.BriefInput{
	{Province: "ON", Banner: "no-frills"},
	{Province: "QC"},
	{Province: "BC", Banner: "save-on-foods"},
	{Province: "NU"},
}

// moversShown is how many movers the brief lists each way: five up and
// five down (the "all ten ON movers"); the definitions do not say.
const moversShown = 5

// checkBrief compares the executive brief with brief.sql: movers and
// promotion intensity (M7), the basket (M7 with M3), and the week and
// four-week inflation (M2).
func checkBrief(t *testing.T, fx *fixture) {
	for _, in := range briefRequests {
		name := fmt.Sprintf("province=%s banner=%s", in.Province, in.Banner)
		res, err := fx.svc.ExecutiveBrief(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		g := asJSON(t, res)
		var want map[string]any
		fx.sql(t, "brief.sql", map[string]string{"province": in.Province}, &want)
		rows := func(k string) []map[string]any {
			var out []map[string]any
			l, _ := want[k].([]any)
			for _, r := range l {
				out = append(out, r.(map[string]any))
			}
			return out
		}
		t.Run("movers (M7) "+name, func(t *testing.T) {
			c := newChecker(t, "executive_brief "+name)
			for _, k := range []string{"movers_up", "movers_down"} {
				w := rows(k)
				if len(w) > moversShown {
					w = w[:moversShown]
				}
				c.list(k, g[k], w, []string{"banner", "external_sku"}, []field{
					{name: "upc"}, {name: "before", kind: kMoney}, {name: "before_date"}, {name: "now", kind: kMoney},
					{name: "now_date"}, {name: "change_pct", kind: kPct},
				})
			}
			c.done()
		})
		t.Run("promotions (M7) "+name, func(t *testing.T) {
			c := newChecker(t, "executive_brief "+name)
			byBanner := map[string]any{}
			gl, _ := g["promotions"].([]any)
			for _, p := range gl {
				byBanner[fmt.Sprint(lookup(p, "banner"))] = p
			}
			w := rows("promotions")
			c.exact("promotions length", len(gl), len(w))
			for _, s := range w {
				b := fmt.Sprint(s["banner"])
				gp, _ := byBanner[b].(map[string]any)
				if gp == nil {
					c.diff("promotions "+b, nil, "a banner with SKUs this week", "")
					continue
				}
				c.fields("promotions "+b+" ", gp, s, []field{
					{name: "products"}, {name: "on_promotion"}, {name: "share_pct", kind: kPct}, {name: "avg_discount_pct", kind: kPct},
				})
			}
			c.done()
		})
		t.Run("basket (M7, M3) "+name, func(t *testing.T) {
			c := newChecker(t, "executive_brief "+name)
			c.exact("basket.items", lookup(g, "basket.items"), want["basket_items"])
			c.exact("basket.week_from", lookup(g, "basket.week_from"), want["basket_week_from"])
			c.exact("basket.week_to", lookup(g, "basket.week_to"), want["basket_week_to"])
			byBanner := map[string]map[string]any{}
			gl, _ := lookup(g, "basket.banners").([]any)
			for _, b := range gl {
				m := b.(map[string]any)
				byBanner[fmt.Sprint(m["banner"])] = m
			}
			w := rows("basket")
			c.exact("basket.banners length", len(gl), len(w))
			for _, s := range w {
				b := fmt.Sprint(s["banner"])
				if byBanner[b] == nil {
					c.diff("basket.banners "+b, nil, "a banner", "")
					continue
				}
				c.fields("basket.banners "+b+" ", byBanner[b], s, []field{
					{name: "index", kind: kPct}, {name: "items"}, {name: "total", kind: kMoney},
				})
			}
			c.done()
		})
		t.Run("inflation (M2) "+name, func(t *testing.T) {
			c := newChecker(t, "executive_brief "+name)
			fs := []field{
				{name: "week_pct", kind: kChained}, {name: "week_series"}, {name: "four_week_pct", kind: kChained}, {name: "four_week_series"},
				{name: "week_banners"}, {name: "week_stores"}, {name: "low_sample"},
			}
			c.list("categories", g["categories"], rows("categories"), []string{"category"}, fs)
			if o, ok := want["overall"].(map[string]any); ok {
				og, _ := g["overall"].(map[string]any)
				c.fields("overall.", og, o, fs)
			}
			c.done()
		})
	}
}
