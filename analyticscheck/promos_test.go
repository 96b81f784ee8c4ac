//go:build unix

package analyticscheck

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// promoRequests are the promo_calendar requests checked.
var promoRequests = []grocery.PromoCalendarInput{
	{Province: "ON", Banner: "metro"},
	{Province: "ON", Category: "Dairy & Eggs", From: "2026-10-01", To: "2026-10-31"},
	{Province: "QC"},
	{Province: "BC"},
	{Province: "MB"},
	{Province: "YT"},
}

// promoEvents reads every page of a promo_calendar answer.
func promoEvents(t *testing.T, fx *fixture, in grocery.PromoCalendarInput) (total any, events []any) {
	in.Limit = grocery.Some(500)
	for {
		res, err := fx.svc.PromoCalendar(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		g := asJSON(t, res)
		page, _ := g["results"].([]any)
		events = append(events, page...)
		total = g["total"]
		if len(page) < in.Limit.V {
			return total, events
		}
		in.Offset += len(page)
	}
}

// checkPromoCalendar compares promo_calendar's events with
// promo_calendar.sql: the events and their figures, and, apart, ongoing
// (M10).
func checkPromoCalendar(t *testing.T, fx *fixture) {
	for _, in := range promoRequests {
		name := fmt.Sprintf("province=%s banner=%s category=%s from=%s to=%s", in.Province, in.Banner, in.Category, in.From, in.To)
		total, events := promoEvents(t, fx, in)
		var want []map[string]any
		fx.sql(t, "promo_calendar.sql", map[string]string{"province": in.Province, "banner": in.Banner,
			"category": in.Category, "from": in.From, "to": in.To}, &want)
		t.Run("events "+name, func(t *testing.T) {
			c := newChecker(t, "promo_calendar "+name)
			c.exact("total", total, len(want))
			key := []string{"start", "banner", "external_sku"}
			c.list("results", events, want, key, []field{
				{name: "upc"}, {name: "name"}, {name: "brand"}, {name: "category"}, {name: "province"},
				{name: "end"}, {name: "stores"}, {name: "observation_days"},
			})
			// Prices: any of the tied most common prices; the discount
			// from the prices written.
			for i := 0; i < len(events) && i < len(want); i++ {
				g, _ := events[i].(map[string]any)
				s := want[i]
				id := fmt.Sprintf("results[%d] (%v %v %v) ", i, s["start"], s["banner"], s["external_sku"])
				promo := oneOf(c, id+"promo_price", g["promo_price"], s["promo_modes"])
				regular := oneOf(c, id+"regular_price", g["regular_price"], s["regular_modes"])
				if promo != nil && regular != nil && regular.Sign() > 0 {
					d := new(big.Rat).Quo(new(big.Rat).Sub(regular, promo), regular)
					d.Mul(d, big.NewRat(100, 1))
					c.pct(id+"discount_pct", g["discount_pct"], d.FloatString(12))
				}
			}
			c.done()
		})
		t.Run("ongoing (M10) "+name, func(t *testing.T) {
			c := newChecker(t, "promo_calendar "+name)
			c.exact("total", total, len(want))
			c.list("results", events, want, []string{"start", "banner", "external_sku"}, []field{{name: "ongoing"}})
			c.done()
		})
	}
}

// oneOf checks that Go's dollars are one of the SQL's tied cents and
// returns them in cents.
func oneOf(c *checker, name string, goVal any, modes any) *big.Rat {
	c.checked++
	g, ok := ratOf(goVal)
	if !ok {
		c.diff(name, goVal, modes, "not a number")
		return nil
	}
	g.Mul(g, big.NewRat(100, 1))
	ms, _ := modes.([]any)
	for _, m := range ms {
		if r, ok := ratOf(m); ok && r.Cmp(g) == 0 {
			return g
		}
	}
	b, _ := json.Marshal(modes)
	c.diff(name, goVal, "one of "+string(b)+" cents (most common)", "")
	return g
}
