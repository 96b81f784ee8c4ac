package pricestat

import "testing"

// TestWeeksPeriod: over 56 days ending on day 100, this week is days 94
// to 100, the week before 87 to 93, the last four weeks 73 to 100, the
// four weeks before 45 to 72; day 45 is bit 0.
func TestWeeksPeriod(t *testing.T) {
	t.Parallel()
	w := Weeks{AsOf: 100, Week: 7, FourWeeks: 28}
	for _, tc := range []struct {
		day  int32
		week bool
		per  [2]int
		bit  uint64
	}{
		{100, true, [2]int{PerWeek, PerFour}, 1 << 55},
		{94, true, [2]int{PerWeek, PerFour}, 1 << 49},
		{93, false, [2]int{PerPrevWeek, PerFour}, 1 << 48},
		{87, false, [2]int{PerPrevWeek, PerFour}, 1 << 42},
		{86, false, [2]int{-1, PerFour}, 1 << 41},
		{73, false, [2]int{-1, PerFour}, 1 << 28},
		{72, false, [2]int{-1, PerPrevFour}, 1 << 27},
		{45, false, [2]int{-1, PerPrevFour}, 1},
	} {
		week, per, bit := w.period(tc.day)
		if week != tc.week || per != tc.per || bit != tc.bit {
			t.Errorf("day %d: got %v %v %b, want %v %v %b", tc.day, week, per, bit, tc.week, tc.per, tc.bit)
		}
	}
}
