//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

var benchmarkRequests = []grocery.BenchmarkInput{
	{Banner: "no-frills", Province: "ON"},
	{Banner: "loblaws", Province: "ON"},
	{Banner: "costco", Province: "ON"},
	{Banner: "maxi", Province: "QC"},
	{Banner: "save-on-foods", Province: "BC"},
	{Banner: "walmart", Province: "MB"},
	{Banner: "walmart", Province: "NT"},
	{Banner: "no-frills", Province: "QC"}, // no reference store there: 404
}

// checkBenchmark compares competitive_benchmark with benchmark.sql (M3).
func checkBenchmark(t *testing.T, fx *fixture) {
	for _, in := range benchmarkRequests {
		name := fmt.Sprintf("banner=%s province=%s", in.Banner, in.Province)
		t.Run(name, func(t *testing.T) {
			var want map[string]any
			fx.sql(t, "benchmark.sql", map[string]string{"province": in.Province, "banner": in.Banner}, &want)
			res, err := fx.svc.CompetitiveBenchmark(context.Background(), in)
			if priced, _ := want["priced"].(bool); !priced {
				// "A banner not in the province's panel (no reference
				// store there, or no price in the flyer week) is 404".
				if grocery.ErrorCode(err) != grocery.ENOTFOUND {
					t.Fatalf("no current price in SQL: got %v, want %s", err, grocery.ENOTFOUND)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := asJSON(t, res)
			c := newChecker(t, "competitive_benchmark "+name)
			// One flyer week for every banner, named in the answer.
			c.exact("week_from", g["week_from"], want["week_from"])
			c.exact("week_to", g["week_to"], want["week_to"])
			figures := []field{
				{name: "index", kind: kPct}, {name: "regular_index", kind: kPct}, {name: "items"},
				{name: "total", kind: kMoney}, {name: "market_cost", kind: kMoney},
			}
			own, _ := want["banner"].(map[string]any)
			if own == nil {
				// B prices no barcode two other banners price: no item,
				// "index and regular_index are null (never 0)", no rank,
				// empty totals.
				own = map[string]any{"index": nil, "regular_index": nil, "items": 0, "total": 0, "market_cost": 0, "rank": 0}
				c.exact("index", g["index"], nil)
				c.exact("regular_index", g["regular_index"], nil)
				figures = []field{{name: "items"}, {name: "total", kind: kMoney}, {name: "market_cost", kind: kMoney}}
			}
			c.fields("", g, own, append(figures, field{name: "rank"}))
			var ranking []map[string]any
			rl, _ := want["ranking"].([]any)
			for _, r := range rl {
				ranking = append(ranking, r.(map[string]any))
			}
			// The ranking lists the ranked banners (items >= 20) by rank,
			// ties by slug; banners under the minimum are unranked.
			var ranked []any
			gr, _ := g["ranking"].([]any)
			for _, r := range gr {
				if rk, ok := ratOf(lookup(r, "rank")); ok && rk.Sign() > 0 {
					ranked = append(ranked, r)
				}
			}
			c.list("ranking (ranked)", ranked, ranking, []string{"banner"}, append(figures, field{name: "rank"}))
			var cats []map[string]any
			cl, _ := want["categories"].([]any)
			for _, r := range cl {
				cats = append(cats, r.(map[string]any))
			}
			c.list("categories", g["categories"], cats, []string{"category"}, figures)
			c.done()
		})
	}
}
