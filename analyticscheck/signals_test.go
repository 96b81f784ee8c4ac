//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

var signalRequests = []grocery.SignalsInput{
	{Province: "ON", Banner: "loblaws"},
	{Province: "ON", Banner: "no-frills"},
	{Province: "AB", Banner: "safeway"},
	{Province: "QC", Banner: "iga"},
	{Province: "BC", Banner: "save-on-foods"},
	{Province: "YT", Banner: "walmart"},
}

// signalTypes are the signal types checked, as sets: M6's and the
// changes of prices.
var signalTypes = []string{"priced_above_market", "priced_below_market", "competitor_promotion", "competitor_price_cut",
	"assortment_gap", "delisted", "price_increase", "price_decrease", "lowest_in_30_days"}

// threatTypes are the types of a threat: one per barcode, keyed by it,
// its leading competitor and severity.
var threatTypes = map[string]bool{"competitor_promotion": true, "competitor_price_cut": true}

// changeTypes are the signal types of a banner SKU's own prices: keyed by
// barcode, banner and SKU.
var changeTypes = map[string]bool{"price_increase": true, "price_decrease": true, "lowest_in_30_days": true}

// checkSignals compares the market-position signals with signals.sql (M6):
// for each type, the same barcodes (and competitors), and the prices
// compared.
func checkSignals(t *testing.T, fx *fixture) {
	for _, in := range signalRequests {
		name := fmt.Sprintf("province=%s banner=%s", in.Province, in.Banner)
		in.Limit = grocery.Some(500)
		got := map[string]map[string]map[string]any{} // type -> key -> evidence
		for {
			res, err := fx.svc.Signals(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			g := asJSON(t, res)
			page, _ := g["results"].([]any)
			for _, s := range page {
				typ := fmt.Sprint(lookup(s, "type"))
				ev, _ := lookup(s, "evidence").(map[string]any)
				key := fmt.Sprint(ev["upc"])
				if threatTypes[typ] {
					key += " " + fmt.Sprint(ev["banner"]) + " " + fmt.Sprint(lookup(s, "severity"))
					var behind []any
					cs, _ := ev["competitors"].([]any)
					for _, c := range cs {
						behind = append(behind, fmt.Sprint(lookup(c, "banner"), " ", lookup(c, "severity")))
					}
					slices.SortFunc(behind, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
					ev["behind"] = behind
				}
				if changeTypes[typ] {
					key += " " + fmt.Sprint(ev["banner"]) + " " + fmt.Sprint(ev["external_sku"])
				}
				if got[typ] == nil {
					got[typ] = map[string]map[string]any{}
				}
				got[typ][key] = ev
			}
			if len(page) < in.Limit.V {
				break
			}
			in.Offset += len(page)
		}
		var rows []map[string]any
		fx.sql(t, "signals.sql", map[string]string{"province": in.Province, "banner": in.Banner}, &rows)
		want := map[string]map[string]map[string]any{}
		for _, r := range rows {
			typ := fmt.Sprint(r["type"])
			key := fmt.Sprint(r["upc"])
			if threatTypes[typ] || changeTypes[typ] {
				key += " " + fmt.Sprint(r["competitor"])
			}
			if want[typ] == nil {
				want[typ] = map[string]map[string]any{}
			}
			want[typ][key] = r
		}
		for _, typ := range signalTypes {
			t.Run(typ+" "+name, func(t *testing.T) {
				c := newChecker(t, "signals "+name+" "+typ)
				c.exact("count", len(got[typ]), len(want[typ]))
				for _, key := range sortedKeys(want[typ]) {
					ev := got[typ][key]
					if ev == nil {
						c.diff(key, "no signal", "a signal", "")
						continue
					}
					if typ == "priced_above_market" || typ == "priced_below_market" {
						// A market position compares regular prices: the
						// evidence gives them as own_regular_price and
						// market_regular_median.
						c.money(key+" own_regular_price", lookup(ev, "own_regular_price"), want[typ][key]["own_price"])
						c.money(key+" market_regular_median", lookup(ev, "market_regular_median"), want[typ][key]["market_median"])
					}
					if threatTypes[typ] {
						c.exact(key+" competitors", ev["behind"], want[typ][key]["behind"])
					}
					if changeTypes[typ] {
						w := want[typ][key]
						c.money(key+" price", lookup(ev, "price"), w["price"])
						c.money(key+" previous_price", lookup(ev, "previous_price"), w["previous"])
						c.exact(key+" date", lookup(ev, "date"), w["date"])
						if typ != "lowest_in_30_days" {
							c.money(key+" regular_price", lookup(ev, "regular_price"), w["own_price"])
						}
					}
				}
				for _, key := range sortedKeys(got[typ]) {
					if want[typ][key] == nil {
						c.diff(key, "a signal", "no signal", "")
					}
				}
				c.done()
			})
		}
	}
}
