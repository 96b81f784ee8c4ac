package grocery

import (
	"testing"
)

// TestChooseSubstitute: a substitute is from half to twice the item's
// size, the closest in size, then the cheapest by unit price, and is
// bought in whole packs covering the amount asked for.
func TestChooseSubstitute(t *testing.T) {
	// Milk 4 L (40 units of 100 mL), 3 wanted: 120 units.
	cands := []substituteCandidate{
		{Size: 10, Price: 200},  // 1 L: under half the size, not a candidate
		{Size: 20, Price: 325},  // 2 L: half the size, a candidate at distance ln 2
		{Size: 30, Price: 499},  // 3 L: the closest (ln 4/3)
		{Size: 90, Price: 1200}, // 9 L: over twice the size
	}
	best, packs := chooseSubstitute(40, 3, cands)
	if best != 2 || packs != 4 { // 120 / 30 = 4 packs exactly
		t.Errorf("3 × 4 L: got candidate %d × %d packs, want 2 × 4", best, packs)
	}
	best, packs = chooseSubstitute(40, 1, cands[:2])
	if best != 1 || packs != 2 { // 40 / 20 = 2
		t.Errorf("1 × 4 L among 1 L and 2 L: got %d × %d, want 1 × 2", best, packs)
	}
	best, packs = chooseSubstitute(25, 1, []substituteCandidate{{Size: 30, Price: 500}, {Size: 20, Price: 300}})
	// 30 is ln(30/25) = 0.182 away, 20 is ln(25/20) = 0.223 away: 30 is closer.
	if best != 0 || packs != 1 {
		t.Errorf("25 among 30 and 20: got %d × %d, want 0 × 1", best, packs)
	}
	best, packs = chooseSubstitute(20, 1, []substituteCandidate{{Size: 40, Price: 800}, {Size: 10, Price: 300}})
	// Equal distance (ln 2 both ways): the cheaper by unit price, 800/40 = 20 < 300/10 = 30.
	if best != 0 || packs != 1 {
		t.Errorf("tie in size: got %d × %d, want 0 × 1", best, packs)
	}
	if best, _ := chooseSubstitute(40, 1, cands[:1]); best != -1 {
		t.Errorf("no candidate in range: got %d, want -1", best)
	}
}
