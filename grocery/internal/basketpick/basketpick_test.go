package basketpick

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSubstitute: a substitute is from half to twice the item's
// size, the closest in size, then the cheapest by unit price, and is
// bought in whole packs covering the amount asked for.
func TestSubstitute(t *testing.T) {
	// Milk 4 L (40 units of 100 mL), 3 wanted: 120 units.
	cands := []Candidate{
		{Size: 10, Price: 200},  // 1 L: under half the size, not a candidate
		{Size: 20, Price: 325},  // 2 L: half the size, a candidate at distance ln 2
		{Size: 30, Price: 499},  // 3 L: the closest (ln 4/3)
		{Size: 90, Price: 1200}, // 9 L: over twice the size
	}
	best, packs := Substitute(40, 3, cands)
	if best != 2 || packs != 4 { // 120 / 30 = 4 packs exactly
		t.Errorf("3 × 4 L: got candidate %d × %d packs, want 2 × 4", best, packs)
	}
	best, packs = Substitute(40, 1, cands[:2])
	if best != 1 || packs != 2 { // 40 / 20 = 2
		t.Errorf("1 × 4 L among 1 L and 2 L: got %d × %d, want 1 × 2", best, packs)
	}
	best, packs = Substitute(25, 1, []Candidate{{Size: 30, Price: 500}, {Size: 20, Price: 300}})
	// 30 is ln(30/25) = 0.182 away, 20 is ln(25/20) = 0.223 away: 30 is closer.
	if best != 0 || packs != 1 {
		t.Errorf("25 among 30 and 20: got %d × %d, want 0 × 1", best, packs)
	}
	best, packs = Substitute(20, 1, []Candidate{{Size: 40, Price: 800}, {Size: 10, Price: 300}})
	// Equal distance (ln 2 both ways): the cheaper by unit price, 800/40 = 20 < 300/10 = 30.
	if best != 0 || packs != 1 {
		t.Errorf("tie in size: got %d × %d, want 0 × 1", best, packs)
	}
	// 3 × 1.1 units covered by packs of 1.65 are 2 packs, though
	// 3 × 1.1 / 1.65 is 2.0000000000000004 in float64.
	if best, packs = Substitute(1.1, 3, []Candidate{{Size: 1.65, Price: 100}}); best != 0 || packs != 2 {
		t.Errorf("3 × 1.1 in packs of 1.65: got %d × %d, want 0 × 2", best, packs)
	}
	if best, _ := Substitute(40, 1, cands[:1]); best != -1 {
		t.Errorf("no candidate in range: got %d, want -1", best)
	}
}

// TestCheapestSplit works a three-item basket by hand at three banners:
// a prices items 0 and 1 at 300 and 500, b items 1 and 2 at 450 and 200,
// c every item at 320, 480 and 260. Pairs: a+b 300+450+200 = 950, a+c
// 300+480+260 = 1040, b+c 320+450+200 = 970. An item only one of a pair
// prices is bought there; a tie goes to the first banner by name.
func TestCheapestSplit(t *testing.T) {
	banners := []Banner{
		{Name: "c", Lines: map[int]int64{0: 320, 1: 480, 2: 260}},
		{Name: "b", Lines: map[int]int64{1: 450, 2: 200}},
		{Name: "a", Lines: map[int]int64{0: 300, 1: 500}},
	}
	got, ok := CheapestSplit([]int{0, 1, 2}, banners)
	want := Split{Banners: [2]string{"a", "b"}, Total: 950, Items: []string{"a", "b", "b"}}
	if !ok || !cmp.Equal(got, want) {
		t.Errorf("got %+v, %v; want %+v", got, ok, want)
	}
	// Without c's third item and b: no pair prices item 2.
	if got, ok := CheapestSplit([]int{0, 1, 2}, []Banner{banners[2], {Name: "c", Lines: map[int]int64{0: 320, 1: 480}}}); ok {
		t.Errorf("item 2 priced by no banner: got %+v, want none", got)
	}
	// Equal lines: each at the first banner by name; equal totals: the
	// pair first by name.
	even := []Banner{{Name: "z", Lines: map[int]int64{0: 100}}, {Name: "y", Lines: map[int]int64{0: 100}}, {Name: "x", Lines: map[int]int64{0: 100}}}
	want = Split{Banners: [2]string{"x", "y"}, Total: 100, Items: []string{"x"}}
	if got, ok := CheapestSplit([]int{0}, even); !ok || !cmp.Equal(got, want) {
		t.Errorf("ties: got %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := CheapestSplit(nil, banners); ok {
		t.Error("no item: want no split")
	}
}
