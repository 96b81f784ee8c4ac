package pricestat

import (
	"math"
	"slices"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// TestMatchedOrder: SKUs first read on later days, sorting before
// or between those read already, are filed by name, and the price
// relatives are those of each SKU's mean daily prices, added in SKU
// order.
func TestMatchedOrder(t *testing.T) {
	t.Parallel()
	// Numbers in the order the SKUs were first written, not by name.
	names := []string{"m", "c", "x", "a", "e"}
	var m Matched
	m.AddDay([]storage.SKUNum{{Num: 1, Price: 100, Regular: 100}, {Num: 0, Price: 200, Regular: 220}}, names[:2], Previous)
	m.AddDay([]storage.SKUNum{{Num: 3, Price: 50, Regular: 50}, {Num: 1, Price: 300, Regular: 300}, {Num: 0, Price: 240, Regular: 240}, {Num: 2, Price: 9, Regular: 9}}, names[:4], Previous)
	m.AddDay([]storage.SKUNum{{Num: 3, Price: 60, Regular: 50}, {Num: 1, Price: 400, Regular: 400}, {Num: 4, Price: 70, Regular: 70}, {Num: 0, Price: 110, Regular: 220}}, names, Current)
	var got []string
	for _, s := range m.skus {
		got = append(got, names[s.num])
	}
	if want := []string{"a", "c", "e", "m", "x"}; !slices.Equal(got, want) {
		t.Fatalf("SKUs filed: got %v, want %v", got, want)
	}
	var shelf, regular Geomean
	if n := m.AddRatios(&shelf, &regular); n != 3 {
		t.Fatalf("matched: got %d, want 3 (a, c, m)", n)
	}
	// a: 60/50; c: 400/((100+300)/2); m: 110/((200+240)/2), the logs in SKU order.
	want := math.Exp((math.Log(60.0/50) + math.Log(400.0/200) + math.Log(110.0/220)) / 3)
	if got := shelf.Mean(); got != want {
		t.Errorf("shelf geomean: got %v, want %v", got, want)
	}
	wantReg := math.Exp((math.Log(50.0/50) + math.Log(400.0/200) + math.Log(220.0/230)) / 3)
	if got := regular.Mean(); got != wantReg {
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
