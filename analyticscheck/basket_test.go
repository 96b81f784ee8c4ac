//go:build unix

package analyticscheck

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// basketRequest is one basket checked: items by barcode (a name resolves
// by search ranking, which is not an analytic of the definitions).
type basketRequest struct {
	province string
	items    []grocery.BasketItemInput
}

// basketRequests picks, per province, the barcode most banners offer, the
// README's orange juice, a barcode few banners offer (so that banners lack
// it or substitute it), and a counted good.
func basketRequests(t *testing.T, fx *fixture) []basketRequest {
	var reqs []basketRequest
	for _, p := range []string{"ON", "QC", "BC", "NT"} {
		var upcs []string
		fx.query(t, `SELECT json_agg(upc) FROM (
			(SELECT upc FROM offer WHERE province = '`+p+`' GROUP BY upc ORDER BY count(DISTINCT banner) DESC, upc LIMIT 1)
			UNION ALL (SELECT '067000378089')
			UNION ALL (SELECT upc FROM offer WHERE province = '`+p+`' GROUP BY upc HAVING count(DISTINCT banner) = 2 ORDER BY upc LIMIT 1)
			UNION ALL (SELECT upc FROM offer WHERE province = '`+p+`' AND unit_basis(size) = 'per unit' GROUP BY upc ORDER BY count(*), upc LIMIT 1)) x`, &upcs)
		r := basketRequest{province: p}
		for i, u := range upcs {
			r.items = append(r.items, grocery.BasketItemInput{UPC: u, Quantity: 1 + i%3})
		}
		reqs = append(reqs, r)
	}
	return reqs
}

type sqlBasketBanner struct {
	Banner string `json:"banner"`
	Direct []struct {
		Item        int           `json:"item"`
		ExternalSKU string        `json:"external_sku"`
		PriceModes  []json.Number `json:"price_modes"`
		StoreCount  json.Number   `json:"store_count"`
	} `json:"direct"`
	Substitutes []struct {
		Item        int         `json:"item"`
		ExternalSKU string      `json:"external_sku"`
		UPC         string      `json:"upc"`
		Price       json.Number `json:"price"`
		PriceTied   bool        `json:"price_tied"`
		PriceModes  []any       `json:"price_modes"`
		Packs       json.Number `json:"packs"`
		LineTotal   json.Number `json:"line_total"`
	} `json:"substitutes"`
	Lacking []int `json:"lacking"`
}

// checkBasket compares the basket with basket.sql: "totals" the lines
// priced at an offer and the totals of the banners that need no
// substitute (as today), "substitutes (M8)" the whole-pack substitutes and
// everything that depends on them.
func checkBasket(t *testing.T, fx *fixture) {
	for _, r := range basketRequests(t, fx) {
		var desc []string
		for _, it := range r.items {
			desc = append(desc, fmt.Sprintf("%s:%d", it.UPC, it.Quantity))
		}
		name := fmt.Sprintf("province=%s items=%s", r.province, strings.Join(desc, ","))
		res, err := fx.svc.CompareBasket(context.Background(), grocery.BasketInput{Province: r.province, Items: r.items})
		if err != nil {
			t.Fatal(err)
		}
		g := asJSON(t, res)
		itemsJSON, _ := json.Marshal(r.items)
		var want []sqlBasketBanner
		fx.sql(t, "basket.sql", map[string]string{"province": r.province, "items": string(itemsJSON)}, &want)
		goBanners := map[string]map[string]any{}
		gb, _ := g["banners"].([]any)
		for _, b := range gb {
			m := b.(map[string]any)
			goBanners[fmt.Sprint(m["banner"])] = m
		}
		lines := func(b map[string]any) map[int]map[string]any {
			out := map[int]map[string]any{}
			ls, _ := b["lines"].([]any)
			for _, l := range ls {
				m := l.(map[string]any)
				var i int
				fmt.Sscan(fmt.Sprint(m["item"]), &i)
				out[i] = m
			}
			return out
		}
		qty := func(item int) int64 { return int64(r.items[item].Quantity) }
		t.Run("totals "+name, func(t *testing.T) {
			c := newChecker(t, "basket "+name)
			c.exact("banners", len(gb), len(want))
			for _, s := range want {
				b := goBanners[s.Banner]
				if b == nil {
					c.diff("banners "+s.Banner, nil, "a banner with current offers", "")
					continue
				}
				ls := lines(b)
				total := new(big.Rat)
				for _, d := range s.Direct {
					id := fmt.Sprintf("%s item %d ", s.Banner, d.Item)
					l := ls[d.Item]
					if l == nil {
						c.diff(id+"line", nil, "priced at "+d.ExternalSKU, "")
						continue
					}
					c.exact(id+"substitute", l["substitute"], false)
					c.exact(id+"external_sku", l["external_sku"], d.ExternalSKU)
					c.exact(id+"store_count", l["store_count"], d.StoreCount)
					modes := make([]any, len(d.PriceModes))
					for i, m := range d.PriceModes {
						modes[i] = m
					}
					price := oneOf(c, id+"price", l["price"], modes)
					if price == nil {
						continue
					}
					c.money(id+"shelf_price", l["shelf_price"], price.FloatString(2))
					lt := new(big.Rat).Mul(price, big.NewRat(qty(d.Item), 1))
					c.money(id+"line_total", l["line_total"], lt.FloatString(2))
					total.Add(total, lt)
				}
				c.exact(s.Banner+" lacking", b["lacking"], s.Lacking)
				c.exact(s.Banner+" substitutes", b["substitutes"], len(s.Substitutes))
				c.exact(s.Banner+" priced", b["priced"], len(s.Direct)+len(s.Substitutes))
				c.exact(s.Banner+" exact", b["exact"], len(s.Direct))
				c.exact(s.Banner+" lacking_count", b["lacking_count"], len(s.Lacking))
				c.exact(s.Banner+" complete", b["complete"], len(s.Lacking) == 0 && len(s.Substitutes) == 0)
				c.exact(s.Banner+" complete_with_substitutes", b["complete_with_substitutes"], len(s.Lacking) == 0)
				if len(s.Substitutes) == 0 {
					c.money(s.Banner+" total", b["total"], total.FloatString(2))
				}
			}
			c.done()
		})
		t.Run("substitutes (M8) "+name, func(t *testing.T) {
			c := newChecker(t, "basket "+name)
			type total struct {
				banner string
				cents  *big.Rat
			}
			var complete, withSubs []total
			for _, s := range want {
				b := goBanners[s.Banner]
				if b == nil {
					continue // reported by totals
				}
				ls := lines(b)
				sum := new(big.Rat)
				for _, d := range s.Direct {
					if l := ls[d.Item]; l != nil {
						if v, ok := ratOf(l["line_total"]); ok {
							sum.Add(sum, v.Mul(v, big.NewRat(100, 1)))
						}
					}
				}
				for _, sub := range s.Substitutes {
					id := fmt.Sprintf("%s item %d ", s.Banner, sub.Item)
					l := ls[sub.Item]
					if l == nil {
						c.diff(id+"line", nil, "a substitute "+sub.UPC, "")
						continue
					}
					c.exact(id+"substitute", l["substitute"], true)
					c.exact(id+"upc", l["upc"], sub.UPC)
					c.exact(id+"packs", lookup(l, "packs"), sub.Packs)
					// The shelf price is one of the most common prices
					// (tied ones too); the line is whole packs of it.
					shelf := oneOf(c, id+"shelf_price", l["shelf_price"], sub.PriceModes)
					if shelf == nil {
						continue
					}
					packs, _ := ratOf(sub.Packs)
					lt := new(big.Rat).Mul(packs, shelf)
					c.money(id+"line_total", l["line_total"], lt.FloatString(2))
					sum.Add(sum, lt)
				}
				if len(s.Substitutes) > 0 {
					c.money(s.Banner+" total", b["total"], sum.FloatString(2))
				}
				if len(s.Lacking) == 0 {
					withSubs = append(withSubs, total{s.Banner, sum})
					if len(s.Substitutes) == 0 {
						complete = append(complete, total{s.Banner, sum})
					}
				}
			}
			// cheapest_with_substitutes: the cheapest banner pricing every
			// item, exactly or by a substitute (issue 28).
			if len(withSubs) > 0 {
				lo := withSubs[0]
				for _, x := range withSubs[1:] {
					if x.cents.Cmp(lo.cents) < 0 {
						lo = x
					}
				}
				c.money("cheapest_with_substitutes.total", lookup(g, "cheapest_with_substitutes.total"), lo.cents.FloatString(2))
			} else {
				c.exact("cheapest_with_substitutes", g["cheapest_with_substitutes"], nil)
			}
			// cheapest and dearest baskets pricing every item exactly (issue
			// 28: like for like); ties by banner slug
			// are not documented: a tie is only logged.
			if len(complete) > 0 {
				lo, hi := complete[0], complete[0]
				for _, x := range complete[1:] {
					if x.cents.Cmp(lo.cents) < 0 {
						lo = x
					}
					if x.cents.Cmp(hi.cents) > 0 {
						hi = x
					}
				}
				c.money("cheapest.total", lookup(g, "cheapest.total"), lo.cents.FloatString(2))
				c.money("dearest.total", lookup(g, "dearest.total"), hi.cents.FloatString(2))
				c.money("savings", g["savings"], new(big.Rat).Sub(hi.cents, lo.cents).FloatString(2))
			} else {
				c.exact("cheapest", g["cheapest"], nil)
			}
			c.done()
		})
	}
}
