package pricestat

import "testing"

// TestVerdict: the four verdicts, the first rule that holds winning.
func TestVerdict(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		price, regular, low, typical uint32
		want                         string
	}{
		{349, 499, 499, 499, VerdictLowest},    // a promotion below every day's price
		{499, 499, 499, 599, VerdictLowest},    // a regular price cut to the month's low
		{399, 449, 299, 449, VerdictPromotion}, // a promotion, a deeper one this month
		{350, 350, 300, 300, VerdictAbove},     // raised above the usual
		{500, 500, 400, 500, VerdictUsual},     // the usual price
		{600, 600, 0, 600, VerdictUsual},       // new: no low
		{500, 500, 500, 500, VerdictUsual},     // at the low, but the low is the usual
	} {
		if got := Verdict(tc.price, tc.regular, tc.low, tc.typical); got != tc.want {
			t.Errorf("Verdict(%d, %d, %d, %d) = %s, want %s", tc.price, tc.regular, tc.low, tc.typical, got, tc.want)
		}
	}
}

// TestWindow: the 30-day low leaves out the last day and the days
// before the 30; the typical price counts the 60 days, the lower on a
// tie; Changes finds the first day a figure moves.
func TestWindow(t *testing.T) {
	t.Parallel()
	var w Window
	// Days 0..59 (59 the last): 500 regular, except a promotion at 400
	// (regular 500) on days 25..28 and 300 on the last day.
	for i := range TypicalDays {
		w.Set(i, 500, 500)
	}
	for i := 25; i <= 28; i++ {
		w.Set(i, 400, 500)
	}
	w.Set(59, 300, 500)
	// The low looks at days 29..58: day 28's 400 is one day too old.
	if low, typ := w.Figures(); low != 500 || typ != 500 {
		t.Fatalf("figures: got %d, %d; want 500, 500", low, typ)
	}
	w.Set(29, 400, 500)
	if low, _ := w.Figures(); low != 400 {
		t.Fatalf("low with day 29 at 400: got %d, want 400", low)
	}
	// Tomorrow day 59's 300 enters the 30 days: the low moves on day 1.
	if k := w.Changes(300, 500, 60); k != 1 {
		t.Fatalf("changes: got %d, want 1", k)
	}
	// 30 days at 450 regular, 30 at 550: a tie, the lower wins; the next
	// day at 550 breaks it.
	w.Clear()
	for i := range TypicalDays {
		r := uint32(450)
		if i >= 30 {
			r = 550
		}
		w.Set(i, r, r)
	}
	if low, typ := w.Figures(); low != 450 || typ != 450 {
		t.Fatalf("tie: got %d, %d; want low 450, typical 450", low, typ)
	}
	if k := w.Changes(550, 550, 60); k != 1 {
		// Day 0 leaves: 29 days at 450 against 31 at 550.
		t.Fatalf("tie broken: got %d, want 1", k)
	}
}
