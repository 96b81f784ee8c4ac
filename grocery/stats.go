package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
)

// median returns the median of v (the mean of the middle two, rounded to
// the cent halves up, for an even count), reordering v. It is
// pricestat.Median2 as a whole cent, for the callers that still want one.
func median(v []uint32) uint32 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return pricestat.HalfCents(pricestat.Median2(v))
}

// pct rounds a percent as it is written: pricestat.Round1.
func pct(x float64) float64 { return pricestat.Round1(x) }
