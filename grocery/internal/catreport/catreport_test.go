package catreport

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/storage"
)

// link is a move by ratio r as the category days store it.
func link(r float64) int32 { return int32(math.Round(math.Log(r) * storage.LinkScale)) }

// unit is a unit price of hundredths of a cent in basis 1 (per 100 g), as
// storage.CatObs.Unit holds it.
func unit(hundredths uint32) uint32 { return hundredths<<2 | 1 }

// span is category day c of day as CatSpans gives it: a span of one day.
func span(day int32, c *storage.CatDay) *storage.CatSpan {
	s := &storage.CatSpan{First: day, Last: day, Count: uint64(c.Count), Promo: uint64(c.Promo), Sum: c.Sum,
		Observed: []uint64{1}, Names: c.Names, PriceRuns: c.PriceRuns, UnitRuns: c.UnitRuns, Stores: c.Stores}
	s.Days = []uint64{0}
	if len(c.SKUNums) > 0 {
		s.Days, s.Nums = []uint64{1}, c.SKUNums
	}
	return s
}

// TestScan works two 2-day periods by hand: the previous one days 10-11,
// this one days 12-13.
//
// Dairy: banner a's SKUs x and y priced on days 10 and 12, x up 10% (its
// stores' move), y level; banner b's SKU z priced on days 11 and 13, down
// 10% on the shelf and regular. Its period's observations: 200, 200, 300
// (a, stores 1 and 2, one on promotion) and 450 (b, store 3); unit prices
// 50, 50 and 70 cents per 100 g. Previous period: 4 observations, 1200
// cents, one of them banner d's, whose SKU q has no day in the period.
//
// Bakery: banner a's SKU w on day 13 only (not matched), two observations
// at 300 on promotion. Toys is not asked for.
func TestScan(t *testing.T) {
	days := []struct {
		k storage.CatDayKey
		c storage.CatDay
	}{
		{storage.CatDayKey{Province: "ON", Category: "Bakery", Banner: "a", Day: 13}, storage.CatDay{Count: 2, Promo: 2, Sum: 600,
			PriceRuns: []storage.Run{{Value: 300, N: 2}}, Stores: []storage.StoreCount{{Store: 1, N: 2}},
			SKUNums: []storage.SKUNum{{Num: 0}}, Names: []string{"w"}}},
		{storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "a", Day: 10}, storage.CatDay{Count: 2, Sum: 400,
			SKUNums: []storage.SKUNum{{Num: 0}, {Num: 1}}, Names: []string{"x", "y"}}},
		{storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "a", Day: 12}, storage.CatDay{Count: 3, Promo: 1, Sum: 700,
			PriceRuns: []storage.Run{{Value: 200, N: 2}, {Value: 300, N: 1}},
			UnitRuns:  []storage.Run{{Value: unit(5000), N: 2}, {Value: unit(7000), N: 1}},
			Stores:    []storage.StoreCount{{Store: 1, N: 2}, {Store: 2, N: 1}},
			SKUNums:   []storage.SKUNum{{Num: 0, Lookback: storage.Lookback{Link: link(1.1)}}, {Num: 1}}, Names: []string{"x", "y"}}},
		{storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "b", Day: 11}, storage.CatDay{Count: 1, Sum: 500,
			SKUNums: []storage.SKUNum{{Num: 0}}, Names: []string{"z"}}},
		{storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "b", Day: 13}, storage.CatDay{Count: 1, Sum: 450,
			PriceRuns: []storage.Run{{Value: 450, N: 1}}, Stores: []storage.StoreCount{{Store: 3, N: 1}},
			SKUNums: []storage.SKUNum{{Num: 0, Lookback: storage.Lookback{Link: link(0.9), RegularLink: link(0.9)}}}, Names: []string{"z"}}},
		// Banner d's SKU q on day 11 only: the previous period's count
		// and sum, no match, and not a banner of the period.
		{storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "d", Day: 11}, storage.CatDay{Count: 1, Sum: 300,
			SKUNums: []storage.SKUNum{{Num: 0}}, Names: []string{"q"}}},
		{storage.CatDayKey{Province: "ON", Category: "Toys", Banner: "c", Day: 12}, storage.CatDay{Count: 5, Sum: 5000,
			PriceRuns: []storage.Run{{Value: 1000, N: 5}}, Stores: []storage.StoreCount{{Store: 9, N: 5}},
			SKUNums: []storage.SKUNum{{Num: 0}}, Names: []string{"t"}}},
	}
	shelves := []struct {
		gtin, category string
		first, last    int32
	}{
		{"g1", "Dairy", 11, 12},
		{"g1", "Dairy", 12, 13}, // another banner's SKU of g1: counted once
		{"g2", "Dairy", 5, 9},   // left before the period
		{"g3", "Bakery", 13, 13},
		{"g1", "Bakery", 12, 12}, // g1 is in Bakery too
		{"", "Dairy", 12, 12},    // no barcode
		{"g4", "Toys", 12, 12},   // not asked for
	}
	want := []Category{
		{Name: "Bakery", Count: 2, Promo: 2, Sum: 600, MinPrice: 300, MaxPrice: 300, Median2: 600, Products: 2, Stores: 1,
			Days: 1},
		{Name: "Dairy", Count: 4, Promo: 1, Sum: 1150, MinPrice: 200, MaxPrice: 450, Median2: 200 + 300,
			Units:    &Units{Basis: 1, N: 3, Sum: 17000, Min: 5000, Max: 7000, Median2: 10000},
			Products: 1, Stores: 3, PrevCount: 4, PrevSum: 1200, Matched: 3, MatchedBanners: 2,
			ChangePct: (math.Cbrt(1.1*1*0.9) - 1) * 100, RegularChangePct: (math.Cbrt(1*1*0.9) - 1) * 100,
			Days: 2, PreviousDays: 2},
	}
	// Twice: the second scan reuses the first one's accumulators.
	for run := range 2 {
		s := New(10, 12, 13, func(c string) bool { return c != "Toys" })
		for i := range days {
			if err := s.Add(&days[i].k, span(days[i].k.Day, &days[i].c)); err != nil {
				t.Fatal(err)
			}
		}
		for _, sh := range shelves {
			s.AddShelf([]byte(sh.gtin), []byte(sh.category), sh.first, sh.last)
		}
		if diff := cmp.Diff(want, s.Categories(), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
			t.Errorf("scan %d: categories (-want +got):\n%s", run, diff)
		}
		if got := s.Banners(); !cmp.Equal(got, []string{"a", "b"}) {
			t.Errorf("scan %d: banners %q, want a and b (c's category is not asked for, d has no day in the period)", run, got)
		}
		if first, last := s.Dates(); first != 12 || last != 13 {
			t.Errorf("scan %d: dates %d..%d, want 12..13", run, first, last)
		}
		if got, prev := s.Days(12, 13), s.Days(10, 11); s.Stores() != 3 || got != 2 || prev != 2 {
			t.Errorf("scan %d: %d stores, %d and %d days with a daily price, want 3 stores, 2 days in each period", run, s.Stores(), got, prev)
		}
		s.Release()
	}
	// A scan of Dairy alone, without its shelf spans, reusing those
	// accumulators: nothing of the scans before is left in it.
	s := New(10, 12, 13, func(c string) bool { return c == "Dairy" })
	defer s.Release()
	for i := range days {
		if err := s.Add(&days[i].k, span(days[i].k.Day, &days[i].c)); err != nil {
			t.Fatal(err)
		}
	}
	dairy := want[1]
	dairy.Products = 0
	if diff := cmp.Diff([]Category{dairy}, s.Categories(), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
		t.Errorf("a third scan, of Dairy without shelf spans: categories (-want +got):\n%s", diff)
	}
}

// TestScanEmpty: a scan of nothing has no category, no banner (empty, not
// nil) and no dates.
func TestScanEmpty(t *testing.T) {
	s := New(10, 12, 13, func(string) bool { return true })
	defer s.Release()
	if got := s.Categories(); len(got) != 0 {
		t.Errorf("categories %+v, want none", got)
	}
	if got := s.Banners(); got == nil || len(got) != 0 {
		t.Errorf("banners %#v, want empty, not nil", got)
	}
	if first, last := s.Dates(); first <= last {
		t.Errorf("dates %d..%d, want none (first after last)", first, last)
	}
}

// TestScanBlocks: each period one block of four days. The previous one,
// days 8-11: observations on 8, 9 and 10 (3, 300 cents), x priced on 8
// and 9 at an unmoved index. This one, days 12-15: observations on 13
// and 15 (200 and 240 cents, store 1), x priced on 15 after its stores
// moved it up 10%. So: dates 13 to 15, 1 day with a daily price (2
// before), x's index 1.1 against a mean of 1: +10%.
func TestScanBlocks(t *testing.T) {
	k := storage.CatDayKey{Province: "ON", Category: "Dairy", Banner: "a"}
	prev := &storage.CatSpan{First: 8, Last: 11, Count: 3, Sum: 300, Observed: []uint64{0b0111}, Days: []uint64{0b0011},
		SKUs: []storage.SKUSpan{{Num: 0, Days: 2, Index: 2, RegularIndex: 2}}, Names: []string{"x"}}
	cur := &storage.CatSpan{First: 12, Last: 15, Count: 2, Sum: 440, Observed: []uint64{0b1010}, Days: []uint64{0b1000},
		SKUs:      []storage.SKUSpan{{Num: 0, Days: 1, Link: link(1.1), Index: 1, RegularIndex: 1}},
		PriceRuns: []storage.Run{{Value: 200, N: 1}, {Value: 240, N: 1}}, Stores: []storage.StoreCount{{Store: 1, N: 2}}, Names: []string{"x"}}
	s := New(8, 12, 15, func(string) bool { return true })
	defer s.Release()
	for _, span := range []*storage.CatSpan{prev, cur} {
		k.Day = span.First
		if err := s.Add(&k, span); err != nil {
			t.Fatal(err)
		}
	}
	want := []Category{{Name: "Dairy", Count: 2, Sum: 440, MinPrice: 200, MaxPrice: 240, Median2: 440, Stores: 1,
		PrevCount: 3, PrevSum: 300, Matched: 1, MatchedBanners: 1, ChangePct: 10, Days: 1, PreviousDays: 2}}
	if diff := cmp.Diff(want, s.Categories(), cmpopts.EquateApprox(0, 1e-5)); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	if first, last := s.Dates(); first != 13 || last != 15 {
		t.Errorf("dates %d..%d, want 13..15", first, last)
	}
}
