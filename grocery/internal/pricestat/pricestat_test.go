package pricestat

import (
	"math"
	"testing"
)

func TestMedian2(t *testing.T) {
	for _, c := range []struct {
		v    []uint32
		want uint32
	}{
		{[]uint32{499}, 998},
		{[]uint32{1129, 1159}, 2288}, // 11.44 exactly
		{[]uint32{100, 101}, 201},    // 100.5 cents
		{[]uint32{1, 2, 9}, 4},
		{[]uint32{1, 2, 8, 9}, 10},
	} {
		if got := Median2(c.v); got != c.want {
			t.Errorf("Median2(%v) = %d, want %d", c.v, got, c.want)
		}
	}
}

func TestMedian(t *testing.T) {
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("got %v, want 2", got)
	}
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("got %v, want 2.5", got)
	}
	if got := Median(nil); got != 0 {
		t.Errorf("got %v, want 0", got)
	}
}

func TestGeomean(t *testing.T) {
	var g Geomean
	g.Add(2)
	g.Add(8)
	g.Add(0)           // ignored
	g.Add(math.Inf(1)) // ignored
	if g.N() != 2 {
		t.Fatalf("N = %d, want 2", g.N())
	}
	// sqrt(2*8) = 4
	if got := g.Mean(); math.Abs(got-4) > 1e-12 {
		t.Errorf("Mean = %v, want 4", got)
	}
	if got := g.ChangePct(); math.Abs(got-300) > 1e-9 {
		t.Errorf("ChangePct = %v, want 300", got)
	}
	var empty Geomean
	if empty.Mean() != 0 || empty.Index() != 0 {
		t.Errorf("empty geomean: got %v, want 0", empty.Mean())
	}
}

func TestRound(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{14.95, 15.0}, {-0.04, 0}, {2.75, 2.8}, {-2.75, -2.8}, {99.949, 99.9},
	} {
		got := Round1(c.x)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("Round1(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := Cents(200 / (320.0 / 100)); got != 63 { // 62.49999999999999 in float64, 62.5 exactly
		t.Errorf("Cents(200 / 3.2) = %d, want 63", got)
	}
	if got := Cents(-62.5); got != -63 {
		t.Errorf("Cents(-62.5) = %d, want -63", got)
	}
	if got := Cents(62.4999); got != 62 {
		t.Errorf("Cents(62.4999) = %d, want 62", got)
	}
	if got := Cents(1143.5); got != 1144 {
		t.Errorf("Cents(1143.5) = %d, want 1144", got)
	}
	if got := HalfCents(uint32(2287)); got != 1144 {
		t.Errorf("HalfCents(2287) = %d, want 1144", got)
	}
}

// TestHalfCentsWide: the median of runs is a uint64 in half-cents; it
// rounds as the uint32 of a sorted slice does.
func TestHalfCentsWide(t *testing.T) {
	for _, h := range []uint32{0, 1, 2, 2287, 1<<32 - 2} {
		if got, want := HalfCents(uint64(h)), uint64(HalfCents(h)); got != want {
			t.Errorf("HalfCents(uint64(%d)) = %d, want %d", h, got, want)
		}
	}
}

// Mode takes the most common value, the lower on a tie, with the extremes.
func TestMode(t *testing.T) {
	for _, c := range []struct {
		in           []uint32
		most, lo, hi uint32
	}{
		{[]uint32{5}, 5, 5, 5},
		{[]uint32{7, 3, 7, 9}, 7, 3, 9},
		{[]uint32{9, 3, 9, 3, 4}, 3, 3, 9},
	} {
		if m, lo, hi := Mode(append([]uint32(nil), c.in...)); m != c.most || lo != c.lo || hi != c.hi {
			t.Errorf("Mode(%v) = %d, %d, %d; want %d, %d, %d", c.in, m, lo, hi, c.most, c.lo, c.hi)
		}
	}
}
