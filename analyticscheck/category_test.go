//go:build unix

package analyticscheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

var categoryRequests = []grocery.CategoryReportInput{
	{Province: "ON", Category: "Produce", Period: "30d"},
	{Province: "ON", Period: "30d"},
	{Province: "BC", Banner: "save-on-foods", Period: "90d"},
	{Province: "QC", Banner: "maxi", Category: "Dairy & Eggs", Period: "30d"},
	{Province: "MB", Period: "7d"},
	{Province: "NU", Period: "14d"},
}

// checkCategoryReport compares category_report with category_report.sql:
// the levels, the unit price in the category's most observed basis, and
// M2's like-for-like change.
func checkCategoryReport(t *testing.T, fx *fixture) {
	for _, in := range categoryRequests {
		name := fmt.Sprintf("province=%s banner=%s category=%s period=%s", in.Province, in.Banner, in.Category, in.Period)
		res, err := fx.svc.CategoryReport(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		g := asJSON(t, res)
		days, _ := strconv.Atoi(strings.TrimSuffix(in.Period, "d"))
		var want []map[string]any
		fx.sql(t, "category_report.sql", map[string]string{"province": in.Province, "banner": in.Banner,
			"category": in.Category, "days": strconv.Itoa(days)}, &want)
		key := []string{"category"}
		t.Run("levels "+name, func(t *testing.T) {
			c := newChecker(t, "category_report "+name)
			c.list("categories", g["categories"], want, key, []field{
				{name: "average_price", kind: kMoney}, {name: "min_price", kind: kMoney}, {name: "max_price", kind: kMoney},
				{name: "median_price", kind: kMoney}, {name: "products"}, {name: "stores"}, {name: "observations"},
				{name: "promo_share_pct", kind: kPct}, {name: "previous_average_price", kind: kMoney},
			})
			c.done()
		})
		t.Run("unit_price (M1, M9) "+name, func(t *testing.T) {
			c := newChecker(t, "category_report "+name)
			gl, _ := g["categories"].([]any)
			for i := 0; i < len(gl) && i < len(want); i++ {
				gu := lookup(gl[i], "unit_price")
				su, _ := want[i]["unit_price"].(map[string]any)
				id := fmt.Sprintf("categories[%d] (%v) unit_price", i, want[i]["category"])
				if su == nil || gu == nil {
					c.exact(id, gu, want[i]["unit_price"])
					continue
				}
				gm, _ := gu.(map[string]any)
				c.fields(id+".", gm, su, []field{
					{name: "basis"}, {name: "average", kind: kMoney}, {name: "min", kind: kMoney}, {name: "max", kind: kMoney},
					{name: "median", kind: kMoney}, {name: "observations"},
				})
			}
			c.done()
		})
		t.Run("change (M2) "+name, func(t *testing.T) {
			c := newChecker(t, "category_report "+name)
			c.list("categories", g["categories"], want, key, []field{
				{name: "change_pct", kind: kChained}, {name: "regular_change_pct", kind: kChained}, {name: "matched"}, {name: "matched_banners"}, {name: "low_sample"},
				{name: "days_with_data"}, {name: "previous_days_with_data"},
			})
			// the note when the previous period is thinner
			gl, _ := g["categories"].([]any)
			for i := 0; i < len(gl) && i < len(want); i++ {
				cur, _ := ratOf(want[i]["days_with_data"])
				prev, _ := ratOf(want[i]["previous_days_with_data"])
				if cur == nil || prev == nil || prev.Cmp(cur) >= 0 {
					continue
				}
				c.checked++
				note := fmt.Sprintf("the previous period has data on %s of its %d days", prev.RatString(), days)
				if got, _ := lookup(gl[i], "note").(string); !strings.Contains(got, note) {
					c.diff(fmt.Sprintf("categories[%d] (%v) note", i, want[i]["category"]), lookup(gl[i], "note"), note, "")
				}
			}
			c.done()
		})
	}
}
