package pricestat

import (
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestPromoEnd: the latest end of the entries on promotion; an entry off
// promotion does not count, whatever it carries.
func TestPromoEnd(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []storage.Entry
		want    int32
	}{
		{"two stores' ends", []storage.Entry{{Store: 1, Price: 299, Regular: 399, PromoEnd: 105}, {Store: 2, Price: 299, Regular: 399, PromoEnd: 107}}, 107},
		{"one store gives none", []storage.Entry{{Store: 1, Price: 299, Regular: 399}, {Store: 2, Price: 349, Regular: 399, PromoEnd: 104}}, 104},
		{"off promotion", []storage.Entry{{Store: 1, Price: 399, Regular: 399, PromoEnd: 120}}, 0},
		{"no end given", []storage.Entry{{Store: 1, Price: 299, Regular: 399}}, 0},
		{"no entry", nil, 0},
	} {
		if got := PromoEnd(tc.entries); got != tc.want {
			t.Errorf("%s: PromoEnd = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestPromoOngoing: on day 100, with a gap of 7 days.
func TestPromoOngoing(t *testing.T) {
	for _, tc := range []struct {
		ends, last int32
		want       bool
	}{
		{100, 90, true}, // ends today
		{99, 99, false}, // ended yesterday, though observed then
		{0, 93, true},   // no end: last observed 7 days ago
		{0, 92, false},  // no end: 8 days ago
		{110, 80, true}, // an end ahead rules, however old the last day
	} {
		if got := PromoOngoing(tc.ends, tc.last, 100, 7); got != tc.want {
			t.Errorf("PromoOngoing(ends %d, last %d) = %v, want %v", tc.ends, tc.last, got, tc.want)
		}
	}
}

// TestDiscountPct: 299 against 399 is 100 off, 25.06%.
func TestDiscountPct(t *testing.T) {
	for _, tc := range []struct {
		price, regular uint32
		want           float64
	}{
		{299, 399, 100.0 * 100 / 399},
		{300, 400, 25},
		{400, 400, 0},
		{450, 400, 0},
		{100, 0, 0},
	} {
		if got := DiscountPct(tc.price, tc.regular); got != tc.want {
			t.Errorf("DiscountPct(%d, %d) = %v, want %v", tc.price, tc.regular, got, tc.want)
		}
	}
}
