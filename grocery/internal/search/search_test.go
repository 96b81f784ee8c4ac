package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestKMBetween: one degree along the equator or a meridian is 1/360 of a
// great circle of radius 6,371 km (111.195 km); a point is 0 km from
// itself; antipodes are half a great circle apart.
func TestKMBetween(t *testing.T) {
	t.Parallel()
	degree := 2 * math.Pi * 6371 / 360
	for _, c := range []struct {
		lat1, lon1, lat2, lon2, want float64
	}{
		{0, 0, 0, 1, degree},
		{45, -75, 46, -75, degree},
		{43.65, -79.38, 43.65, -79.38, 0},
		{0, 0, 0, 180, math.Pi * 6371},
	} {
		if got := kmBetween(c.lat1, c.lon1, c.lat2, c.lon2); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("kmBetween(%v, %v, %v, %v) = %v, want %v", c.lat1, c.lon1, c.lat2, c.lon2, got, c.want)
		}
	}
}

func gtinHit(n int, score int8, weight byte) Hit {
	return Hit{GTIN: [14]byte([]byte(fmt.Sprintf("%014d", n))), score: score, weight: weight}
}

// TestRank: the higher score first, then the fewer words, then the lower
// barcode; the first n of a partial rank are those of a whole one.
func TestRank(t *testing.T) {
	t.Parallel()
	a, b, c, d, e := gtinHit(3, 6, 3), gtinHit(2, 8, 5), gtinHit(9, 6, 2), gtinHit(1, 6, 3), gtinHit(0, 4, 1)
	hits := []Hit{a, b, c, d, e}
	Rank(hits, len(hits))
	if want := []Hit{b, c, d, a, e}; !slices.Equal(hits, want) {
		t.Errorf("Rank: got %v, want %v", hits, want)
	}

	r := rand.New(rand.NewPCG(1, 2))
	all := make([]Hit, 500)
	for i := range all {
		all[i] = gtinHit(r.IntN(1_000_000)*1000+i, int8(r.IntN(13)), byte(r.IntN(6)))
	}
	// The rank rule, as the test states it.
	want := slices.Clone(all)
	sort.Slice(want, func(i, j int) bool {
		x, y := want[i], want[j]
		if x.score != y.score {
			return x.score > y.score
		}
		if x.weight != y.weight {
			return x.weight < y.weight
		}
		return string(x.GTIN[:]) < string(y.GTIN[:])
	})
	for _, n := range []int{0, 1, 5, 10, 62, 63, 64, 200, 500, 600} {
		got := slices.Clone(all)
		Rank(got, n)
		k := min(n, len(got))
		if !slices.Equal(got[:k], want[:k]) {
			t.Errorf("Rank(500 hits, %d): the first %d differ from a whole sort", n, k)
		}
		rest := slices.Clone(got)
		sort.Slice(rest, func(i, j int) bool { return string(rest[i].GTIN[:]) < string(rest[j].GTIN[:]) })
		byGTIN := slices.Clone(all)
		sort.Slice(byGTIN, func(i, j int) bool { return string(byGTIN[i].GTIN[:]) < string(byGTIN[j].GTIN[:]) })
		if !slices.Equal(rest, byGTIN) {
			t.Errorf("Rank(500 hits, %d): lost or duplicated hits", n)
		}
	}
}
