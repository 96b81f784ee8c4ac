package pricestat

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/storage"
)

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

// TestWeeksRead: over 56 days ending on day 100 (this week 94-100, the
// week before 87-93, the four weeks 73-100, the four before 45-72),
// metro's SKUs s1, s2 and s3 of Dairy and no-frills' s1 (another SKU: the
// same code under another banner); days 44 and 101 are outside. s3's
// only day of the week before is that week's first, and its day before
// that is read for its link only. Each
// day carries its stores' move since the SKU's day before (the links): a
// SKU's first day read starts its index at 1, whatever its link.
func TestWeeksRead(t *testing.T) {
	t.Parallel()
	type sd = storage.SKUDay
	ln := func(x float64) int32 { return int32(math.Round(storage.LinkScale * math.Log(x))) }
	link := func(sku string, p, r uint32, shelf, regular float64) sd {
		return sd{SKU: sku, Price: p, Regular: r, Lookback: storage.Lookback{Link: ln(shelf), RegularLink: ln(regular)}}
	}
	days := []struct {
		banner string
		day    int32
		skus   []sd
	}{
		{"metro", 44, []sd{link("s1", 999, 999, 3, 3)}},
		{"metro", 60, []sd{link("s1", 220, 220, 2, 2)}}, // its first day: index 1
		{"metro", 80, []sd{link("s1", 230, 230, 1.1, 1.1)}},
		{"metro", 86, []sd{link("s3", 777, 777, 3, 3)}},                               // its first day: index 1
		{"metro", 87, []sd{link("s2", 280, 290, 5, 5), link("s3", 250, 260, 1.1, 1)}}, // s2's first day: index 1
		{"metro", 90, []sd{{SKU: "s1", Price: 210, Regular: 210}}},
		{"metro", 93, []sd{link("s2", 290, 300, 1, 1.05)}},
		{"metro", 94, []sd{{SKU: "s2", Price: 300, Regular: 300}}},
		{"metro", 95, []sd{{SKU: "s1", Price: 200, Regular: 200}}},
		{"metro", 96, []sd{link("s3", 240, 260, 1, 1)}},
		{"metro", 98, []sd{link("s1", 180, 200, 0.9, 1), link("s2", 310, 310, 1.05, 1)}},
		{"metro", 100, []sd{link("s2", 320, 330, 1, 1.1)}},
		{"metro", 101, []sd{{SKU: "s1", Price: 1, Regular: 1}}},
		{"no-frills", 99, []sd{link("s1", 500, 500, 1.2, 1.2)}},
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Update(func(tx *storage.Tx) error {
		for _, id := range []string{"s1", "s2", "s3"} { // stores 1 to 3, which the observations name
			if err := tx.PutStore(&storage.Store{ID: id, Banner: "metro", Province: "ON", Active: true}); err != nil {
				return err
			}
		}
		for _, d := range days {
			ch := &storage.CatDayChange{SKUs: d.skus}
			for i := range d.skus { // one store-level price per SKU
				ch.Add = append(ch.Add, storage.CatObs{Store: uint32(i + 1), Price: d.skus[i].Price / 2})
			}
			if err := tx.UpdateCatDay(&storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: d.banner, Day: d.day}, ch); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w := Weeks{AsOf: 100, Week: 7, FourWeeks: 28}
	if err := db.View(func(tx *storage.Tx) error { return w.Read(tx, "ON") }); err != nil {
		t.Fatal(err)
	}
	// Per period (week, week before, four weeks, four before):
	// metro s1: 95+98 | 90 | 80+90+95+98 | 60; weekly price the
	// day-98 one, the week before's day 90's. Its index, shelf: 1 on
	// 60, 1.1 on 80, 90 and 95, 0.99 on 98; regular: 1 on 60, then 1.1.
	// No regular move from day 90 to 98.
	// metro s3: 96 | 87 | 86+87+96 | none; weekly price the day-96
	// one, the week before's day 87's. Its index, shelf: 1 on 86, 1.1 on
	// 87 and 96; regular: 1. No regular move.
	// metro s2: 94+98+100 | 87+93 | all five | none; weekly price
	// the day-100 one, the week before's day 93's. Its index, shelf: 1
	// on 87, 93 and 94, 1.05 on 98 and 100; regular: 1 on 87, 1.05 on 93,
	// 94 and 98, 1.155 on 100. Regular move from 93 to 100: ln 1.1.
	want := []WeekSKU{
		{Category: "Dairy", Banner: "metro", SKU: "s1", Day: 98, P: 180, R: 200, PrevDay: 90, PrevP: 210, PrevR: 210,
			IdxP: [Periods]float64{1.1 + 0.99, 1.1, 1.1 + 1.1 + 1.1 + 0.99, 1},
			IdxR: [Periods]float64{1.1 + 1.1, 1.1, 4 * 1.1, 1},
			N:    [Periods]int32{2, 1, 4, 1}},
		{Category: "Dairy", Banner: "metro", SKU: "s3", Day: 96, P: 240, R: 260, PrevDay: 87, PrevP: 250, PrevR: 260,
			IdxP: [Periods]float64{1.1, 1.1, 1 + 1.1 + 1.1, 0},
			IdxR: [Periods]float64{1, 1, 3, 0},
			N:    [Periods]int32{1, 1, 3, 0}},
		{Category: "Dairy", Banner: "metro", SKU: "s2", Day: 100, P: 320, R: 330, PrevDay: 93, PrevP: 290, PrevR: 300,
			IdxP: [Periods]float64{1 + 1.05 + 1.05, 1 + 1, 1 + 1 + 1 + 1.05 + 1.05, 0},
			IdxR: [Periods]float64{1.05 + 1.05 + 1.155, 1 + 1.05, 1 + 1.05 + 1.05 + 1.05 + 1.155, 0},
			N:    [Periods]int32{3, 2, 5, 0}, RegMove: int64(ln(1.1))},
		{Category: "Dairy", Banner: "no-frills", SKU: "s1", Day: 99, P: 500, R: 500,
			IdxP: [Periods]float64{1, 0, 1, 0}, IdxR: [Periods]float64{1, 0, 1, 0}, N: [Periods]int32{1, 0, 1, 0}},
	}
	if diff := cmp.Diff(want, w.SKUs, cmpopts.IgnoreUnexported(WeekSKU{}), cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("SKUs (-want +got):\n%s", diff)
	}
	var mask uint64 // bit day-45 of each day with data in 45..100
	for _, d := range []int32{60, 80, 86, 87, 90, 93, 94, 95, 96, 98, 99, 100} {
		mask |= 1 << (d - 45)
	}
	if got := w.Days["Dairy"]; got != mask || len(w.Days) != 1 {
		t.Errorf("days: got %b (%d categories), want %b (Dairy only)", got, len(w.Days), mask)
	}
	if want := map[string]bool{"metro": true, "no-frills": true}; !cmp.Equal(w.Banners, want) {
		t.Errorf("banners: got %v, want %v", w.Banners, want)
	}
	if w.Obs != 14 { // one per SKU of each day read: 11 days of metro, two SKUs on days 87 and 98, one day of no-frills
		t.Errorf("store-level prices: got %d, want 14", w.Obs)
	}
	// 33 days a period would need bits past the 64 of a mask.
	w = Weeks{AsOf: 100, Week: 7, FourWeeks: 33}
	if err := db.View(func(tx *storage.Tx) error { return w.Read(tx, "ON") }); err == nil || len(w.SKUs) != 0 {
		t.Errorf("FourWeeks 33: got error %v and %d SKUs, want an error and none", err, len(w.SKUs))
	}
}
