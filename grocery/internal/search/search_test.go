package search

import (
	"math"
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
