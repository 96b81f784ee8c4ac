package pricestat

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestMatchedOrder: SKUs first read on later days, sorting before
// or between those read already, are taken in SKU order, and the price
// relatives are those of each SKU's mean index (its stores' moves chained
// from its first day), added in SKU order: a daily price that moves with
// no store's move (m on day 2) moves no index.
func TestMatchedOrder(t *testing.T) {
	t.Parallel()
	ln := func(x float64) int32 { return int32(math.Round(storage.LinkScale * math.Log(x))) }
	day := func(num, p, r uint32, shelf, regular float64) storage.SKUNum {
		return storage.SKUNum{Num: num, Price: p, Regular: r, Lookback: storage.Lookback{Link: ln(shelf), RegularLink: ln(regular)}}
	}
	// Numbers in the order the SKUs were first written, not by name.
	names := []string{"m", "c", "x", "a", "e"}
	var m Matched
	m.AddDay([]storage.SKUNum{day(1, 100, 100, 1, 1), day(0, 200, 220, 2, 2)}, names[:2], Previous)
	m.AddDay([]storage.SKUNum{day(3, 50, 50, 1, 1), day(1, 300, 300, 3, 3), day(0, 240, 240, 1, 1), day(2, 9, 9, 1, 1)}, names[:4], Previous)
	m.AddDay([]storage.SKUNum{day(3, 60, 50, 1.2, 1), day(1, 400, 400, 4.0/3, 4.0/3), day(4, 70, 70, 1, 1), day(0, 110, 220, 0.5, 0.9)}, names, Current)
	var got []string
	for _, i := range m.inOrder() {
		got = append(got, names[m.skus[i].num])
	}
	if want := []string{"a", "c", "e", "m", "x"}; !slices.Equal(got, want) {
		t.Fatalf("SKUs in order: got %v, want %v", got, want)
	}
	var shelf, regular Geomean
	if n := m.AddRatios(&shelf, &regular); n != 3 {
		t.Fatalf("matched: got %d, want 3 (a, c, m)", n)
	}
	// a: index 1, then 1.2 (regular 1, 1); c: 1, 3 | 4 (both), ratio
	// 4/((1+3)/2) = 2; m: 1, 1 | 0.5 (regular 1, 1 | 0.9), its link of
	// day 1 being before its first day read. The logs in SKU order.
	want := math.Exp((math.Log(1.2) + math.Log(2) + math.Log(0.5)) / 3)
	if got := shelf.Mean(); math.Abs(got-want) > 1e-6 {
		t.Errorf("shelf geomean: got %v, want %v", got, want)
	}
	wantReg := math.Exp((math.Log(1) + math.Log(2) + math.Log(0.9)) / 3)
	if got := regular.Mean(); math.Abs(got-wantReg) > 1e-6 {
		t.Errorf("regular geomean: got %v, want %v", got, wantReg)
	}
}

// TestDaySetAndSet: days before First are left out, a day counts once,
// Count takes both ends, and Reset keeps nothing of before.
func TestDaySetAndSet(t *testing.T) {
	t.Parallel()
	days := DaySet{First: 100}
	for _, d := range []int32{99, 100, 100, 163, 164, 300} {
		days.Add(d)
	}
	for _, c := range []struct {
		from, to int32
		want     int
	}{
		{0, 1000, 4}, {100, 100, 1}, {101, 162, 0}, {163, 164, 2}, {165, 299, 0}, {300, 300, 1},
	} {
		if got := days.Count(c.from, c.to); got != c.want {
			t.Errorf("Count(%d, %d): got %d, want %d", c.from, c.to, got, c.want)
		}
	}
	days.Reset(200)
	days.Add(201)
	if got := days.Count(0, 1000); got != 1 {
		t.Errorf("after Reset(200), Add(201): Count got %d, want 1", got)
	}

	var s Set
	for _, n := range []uint32{0, 63, 64, 63, 1000, 0} {
		s.Add(n)
	}
	if s.Len() != 4 {
		t.Errorf("Set of 0, 63, 64, 63, 1000, 0: Len got %d, want 4", s.Len())
	}
	s.Reset()
	s.Add(64)
	if s.Len() != 1 {
		t.Errorf("after Reset, Add(64): Len got %d, want 1", s.Len())
	}
}

// TestMatchedInOrder: however the SKUs arrive (day by day, each day in
// SKU order), AddRatios takes them in SKU order.
func TestMatchedInOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		names := make([]string, 1+r.IntN(40))
		for i := range names {
			names[i] = fmt.Sprintf("sku%03d", r.IntN(1000)) + fmt.Sprint(i) // unique
		}
		var m Matched
		for day := 0; day < 5; day++ {
			var nums []uint32
			for i := range names {
				if r.IntN(3) == 0 {
					nums = append(nums, uint32(i))
				}
			}
			slices.SortFunc(nums, func(a, b uint32) int { return strings.Compare(names[a], names[b]) })
			var sd []storage.SKUNum
			for _, n := range nums {
				sd = append(sd, storage.SKUNum{Num: n})
			}
			m.AddDay(sd, names, Previous)
		}
		var got []string
		for _, i := range m.inOrder() {
			got = append(got, names[m.skus[i].num])
		}
		if len(got) != len(m.skus) || !slices.IsSorted(got) {
			t.Fatalf("in order: got %v of %d SKUs", got, len(m.skus))
		}
	}
}

// TestMatchedSpans: blocks of days chain on from the SKU's index before
// them. x's previous period is one block of 3 days, its price up by 10%
// on the second (index 1, 1.1, 1.1: Index 3.2, Inner ln 1.1), and its
// current period a day back down (index 1): ratio 1 / (3.2/3) = 0.9375.
// y's previous period is 2 days, doubling on the second (index 1, 2), its
// current a block of 2 days from no move, up 50% on its second (Index
// 1 + 1.5), chained from 2: mean 2.5 against 1.5, ratio 5/3. The
// geometric mean: √(0.9375 × 5/3) = 1.25; the regular prices did not
// move.
func TestMatchedSpans(t *testing.T) {
	t.Parallel()
	ln := func(x float64) int32 { return int32(math.Round(storage.LinkScale * math.Log(x))) }
	names := []string{"y", "x"}
	var m Matched
	m.AddSpan(&storage.CatSpan{Names: names, SKUs: []storage.SKUSpan{
		{Num: 1, Days: 3, Inner: int64(ln(1.1)), Index: 1 + 2*math.Exp(float64(ln(1.1))/storage.LinkScale), RegularIndex: 3},
	}}, Previous)
	m.AddSpan(&storage.CatSpan{Names: names, Nums: []storage.SKUNum{{Num: 0}}}, Previous)
	m.AddSpan(&storage.CatSpan{Names: names, Nums: []storage.SKUNum{{Num: 0, Lookback: storage.Lookback{Link: ln(2)}}}}, Previous)
	m.AddSpan(&storage.CatSpan{Names: names, Nums: []storage.SKUNum{{Num: 1, Lookback: storage.Lookback{Link: -ln(1.1)}}}}, Current)
	m.AddSpan(&storage.CatSpan{Names: names, SKUs: []storage.SKUSpan{
		{Num: 0, Days: 2, Inner: int64(ln(1.5)), Index: 1 + math.Exp(float64(ln(1.5))/storage.LinkScale), RegularIndex: 2},
	}}, Current)
	var shelf, regular Geomean
	if n := m.AddRatios(&shelf, &regular); n != 2 {
		t.Fatalf("matched: got %d, want 2", n)
	}
	if got := shelf.Mean(); math.Abs(got-1.25) > 1e-6 {
		t.Errorf("shelf geomean: got %v, want 1.25", got)
	}
	if got := regular.Mean(); math.Abs(got-1) > 1e-9 {
		t.Errorf("regular geomean: got %v, want 1", got)
	}
}
