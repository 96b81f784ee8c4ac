package brieftext

import "testing"

func TestSummary(t *testing.T) {
	t.Parallel()
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name string
		in   Figures
		want string
	}{
		{"Empty", Figures{Province: "Ontario", From: "2024-10-04", To: "2024-10-10"},
			"Ontario, 2024-10-04 to 2024-10-10: no price was observed in the panel this week."},
		{"Full", Figures{Province: "Ontario", From: "2024-10-04", To: "2024-10-10",
			Ranked:   []Banner{{Name: "A", Index: 95.25, Total: "41.37", Items: 20}, {Name: "B", Index: 104.04, Total: "50.00", Items: 21}},
			MinItems: 13, Items: 25, BasketFrom: "2024-10-03", BasketTo: "2024-10-09",
			Overall:     Change{Week: f(0.03), Series: 1, FourWeek: f(-1.26)},
			Categories:  []Change{{Name: "Dairy", Week: f(-2.5)}, {Name: "Bakery", Week: f(3.1)}, {Name: "X"}},
			Up:          &Move{Brand: "B", Name: "Milk", Banner: "A", Before: "4.99", Now: "5.49", Pct: 10.02},
			Down:        &Move{Brand: "C", Name: "Bread", Banner: "B", Before: "3.99", Now: "2.99", Pct: -25.06},
			Promotions:  []Promotions{{Banner: "A", Products: 1, OnPromotion: 1, SharePct: 100, AvgDiscountPct: 12.34, Started: 1, Ended: 2}, {Started: 3}},
			NewProducts: 1, AlertEvents: 1},
			"Ontario, 2024-10-04 to 2024-10-10: of 2 banners pricing at least 13 of the 25 shared products in the flyer week 2024-10-03 to 2024-10-09, A had the cheapest basket (index 95.2 against the other banners' median prices, $41.37 for the 20 it prices) and B the dearest (index 104.0). Prices held steady (0.0%) week over week across 1 banner SKU compared like for like (-1.3% over the last four weeks against the four before); the largest category move was Bakery (+3.1%). The biggest regular-price rise was B Milk at A ($4.99 to $5.49, +10.0%); the biggest cut C Bread at B ($3.99 to $2.99, -25.1%). A promoted the most (100.0% of 1 product, 12.3% off on average); 4 promotions started and 2 ended. 1 product was new in the panel. Your alert rules recorded 1 event."},
		{"CutOnly", Figures{Province: "Québec", From: "2024-10-04", To: "2024-10-10",
			Ranked:   []Banner{{Name: "A", Index: 95.25, Total: "41.37", Items: 1}},
			MinItems: 13, Items: 25, BasketFrom: "2024-10-03", BasketTo: "2024-10-09",
			Overall:     Change{Week: f(-3.3), Series: 5},
			Categories:  []Change{{Name: "Dairy", Week: f(-2.5)}},
			Down:        &Move{Brand: "C", Name: "Bread", Banner: "B", Before: "3.99", Now: "2.99", Pct: -25.06},
			Promotions:  []Promotions{{Banner: "A", Products: 3}},
			NewProducts: 7, AlertEvents: 3},
			"Québec, 2024-10-04 to 2024-10-10: of 1 banner pricing at least 13 of the 25 shared products in the flyer week 2024-10-03 to 2024-10-09, A had the cheapest basket (index 95.2 against the other banners' median prices, $41.37 for the 1 it prices). Prices fell 3.3% week over week across 5 banner SKUs compared like for like; the largest category move was Dairy (-2.5%). The biggest regular-price cut was C Bread at B ($3.99 to $2.99, -25.1%). 7 products were new in the panel. Your alert rules recorded 3 events."},
		{"NoBasket", Figures{Province: "Québec", From: "2024-10-04", To: "2024-10-10",
			Overall:    Change{Week: f(2.04), Series: 2},
			Categories: []Change{{Name: "Dairy", Week: f(2.04)}},
			Promotions: []Promotions{{Banner: "A", Products: 3, OnPromotion: 2, Started: 1}}},
			"Québec, 2024-10-04 to 2024-10-10: Prices rose 2.0% week over week across 2 banner SKUs compared like for like; the largest category move was Dairy (+2.0%). A promoted the most (0.0% of 3 products, 0.0% off on average); 1 promotion started and 0 ended. No product was new in the panel."},
		// Issue 28: Pet moves most but rests on 3 SKUs: the headline is
		// Dairy's move, and Pet is named as left out.
		{"LowSample", Figures{Province: "Manitoba", From: "2024-10-04", To: "2024-10-10",
			Overall:    Change{Week: f(-1.5), Series: 40},
			Categories: []Change{{Name: "Dairy", Week: f(-2.5), Series: 20}, {Name: "Pet", Week: f(-19.6), Series: 3, LowSample: true}, {Name: "Bakery", Week: f(1), Series: 17}},
			Minimums:   "under 5 SKUs, 3 stores or 2 banners"},
			"Manitoba, 2024-10-04 to 2024-10-10: Prices fell 1.5% week over week across 40 banner SKUs compared like for like; the largest category move was Dairy (-2.5%); left out as too small a sample (under 5 SKUs, 3 stores or 2 banners): Pet. No product was new in the panel."},
		{"AllLowSample", Figures{Province: "Manitoba", From: "2024-10-04", To: "2024-10-10",
			Overall:    Change{Week: f(-1.5), Series: 4},
			Categories: []Change{{Name: "Pet", Week: f(-19.6), Series: 3, LowSample: true}, {Name: "Dairy", Week: f(2), Series: 1, LowSample: true}},
			Minimums:   "under 5 SKUs, 3 stores or 2 banners"},
			"Manitoba, 2024-10-04 to 2024-10-10: Prices fell 1.5% week over week across 4 banner SKUs compared like for like; left out as too small a sample (under 5 SKUs, 3 stores or 2 banners): Pet, Dairy. No product was new in the panel."},
	} {
		if got := tc.in.Summary(); got != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestFigures(t *testing.T) {
	t.Parallel()
	x, zero := -0.04, 0.0
	for _, tc := range []struct{ got, want string }{
		{Pct(nil), "n/a"}, {Pct(&x), "+0.0%"}, {Pct(&zero), "+0.0%"},
		{Signed(2.54), "+2.5%"}, {Signed(-12.36), "-12.4%"}, {F1(95.26), "95.3"}, {F1(0.06), "0.1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
