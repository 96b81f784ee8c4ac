package pricestat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestWeekMoves works the brief's lists by hand over ten banner SKUs,
// weekly prices in cents (this week's on day 10, last week's on day 3).
func TestWeekMoves(t *testing.T) {
	up := int64(953102) // 10^7 × ln 1.1: the stores raised their regular prices
	skus := []WeekSKU{
		{Banner: "a", SKU: "x", Day: 10, PrevDay: 3, P: 400, R: 500, PrevP: 500, PrevR: 500},               // 0: promotion started, 20% off
		{Banner: "a", SKU: "y", Day: 10, PrevDay: 3, P: 600, R: 600, PrevP: 450, PrevR: 600},               // 1: promotion ended, 25% off
		{Banner: "b", SKU: "x", Day: 10, PrevDay: 3, P: 400, R: 500, PrevP: 400, PrevR: 500},               // 2: on promotion both weeks
		{Banner: "b", SKU: "z", Day: 10, P: 400, R: 500},                                                   // 3: no week before
		{Banner: "c", SKU: "w", Day: 10, PrevDay: 3, P: 550, R: 550, PrevP: 500, PrevR: 500, RegMove: up},  // 4: +10%
		{Banner: "c", SKU: "v", Day: 10, PrevDay: 3, P: 450, R: 450, PrevP: 500, PrevR: 500, RegMove: -up}, // 5: -10%
		{Banner: "c", SKU: "u", Day: 10, PrevDay: 3, P: 550, R: 550, PrevP: 500, PrevR: 500},               // 6: no store moved
		{Banner: "c", SKU: "t", Day: 10, PrevDay: 3, P: 550, R: 550, PrevP: 500, PrevR: 500, RegMove: -up}, // 7: the stores moved the other way
		{Banner: "a", SKU: "s", Day: 10, PrevDay: 3, P: 600, R: 600, PrevP: 500, PrevR: 500, RegMove: up},  // 8: +20%
		{Banner: "b", SKU: "r", Day: 10, PrevDay: 3, P: 550, R: 550, PrevP: 500, PrevR: 500, RegMove: up},  // 9: +10%, b before c
		{Banner: "b", SKU: "q", Day: 10, PrevDay: 3, P: 550, R: 550, PrevP: 500, PrevR: 500, RegMove: up},  // 10: +10%, q before r
		{Banner: "b", SKU: "p", Day: 10, PrevDay: 3, P: 500, R: 500, PrevP: 500, PrevR: 500, RegMove: -up}, // 11: no change, whatever the index says
	}
	approx := cmpopts.EquateApprox(0, 1e-9)
	started, ended := PromoMoves(skus)
	if diff := cmp.Diff([]Weighted{{0, 0.2}}, started, approx); diff != "" {
		t.Errorf("started (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Weighted{{1, 0.25}}, ended, approx); diff != "" {
		t.Errorf("ended (-want +got):\n%s", diff)
	}
	rose, fell := RegularMovers(skus)
	SortWeighted(skus, rose)
	SortWeighted(skus, fell)
	if diff := cmp.Diff([]Weighted{{8, 20}, {10, 10}, {9, 10}, {4, 10}}, rose, approx); diff != "" {
		t.Errorf("up, sorted (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Weighted{{5, 10}}, fell, approx); diff != "" {
		t.Errorf("down (-want +got):\n%s", diff)
	}
}
