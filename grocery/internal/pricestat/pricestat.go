// Package pricestat holds the arithmetic of the price statistics the
// analytics compute: medians kept exact in half-cents, geometric means of
// price relatives (Jevons indexes), a category's multisets of prices and
// unit prices by basis, kept as each day's runs (Levels), the
// matched-model accumulation of a banner's SKUs over two periods
// (Matched) with the day and store sets that count a report's basis,
// every banner SKU's daily prices over two four-week periods and their
// last weeks (Weeks) with what the brief reads of them (Inflation,
// PromoShares, PromoMoves, RegularMovers), a banner SKU's days since a
// date (SKUSince), whether a store moved its own regular price
// (StoreMove), a new pack's shrinkflation against its line's larger
// packs (Shrink), a promotion's unverified reference price
// (UnverifiedReference), a promotion's end, discount and whether it
// still runs (PromoEnd, DiscountPct, PromoOngoing), ranks with ties
// (Rank), exact percent tests, and the rounding applied when a figure is
// written. It speaks storage's vocabulary (integer cents, SKU numbers);
// what a figure is for (which prices go in, what a threshold means) is
// decided by grocery, which calls it.
package pricestat

import (
	"math"
	"slices"
)

// Median2 returns the median of v, in cents, as half-cents (twice the
// median): for an even count the mean of the two middle values, kept
// exact. v must be sorted and not empty.
func Median2(v []uint32) uint32 {
	n := len(v)
	if n%2 == 1 {
		return 2 * v[n/2]
	}
	return v[n/2-1] + v[n/2]
}

// Median returns the median of v (the mean of the two middle values for
// an even count). It sorts v. It returns 0 for an empty v.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// Geomean accumulates the geometric mean of positive ratios.
type Geomean struct {
	logs float64
	n    int
}

// Add adds the ratio x; a ratio that is not positive and finite is
// ignored (no price is zero).
func (g *Geomean) Add(x float64) {
	if x > 0 && !math.IsInf(x, 0) {
		g.logs += math.Log(x)
		g.n++
	}
}

// N returns how many ratios were added.
func (g *Geomean) N() int { return g.n }

// Mean returns the geometric mean of the ratios added, 0 with none.
func (g *Geomean) Mean() float64 {
	if g.n == 0 {
		return 0
	}
	return math.Exp(g.logs / float64(g.n))
}

// Index returns 100 times the geometric mean (100 = parity).
func (g *Geomean) Index() float64 { return 100 * g.Mean() }

// ChangePct returns the geometric mean as a percent change (0 = none).
func (g *Geomean) ChangePct() float64 { return 100 * (g.Mean() - 1) }

// Round1 rounds x to one decimal, halves away from zero, as a percent, an
// index or a distance in km is written; a negative zero becomes zero.
func Round1(x float64) float64 { return math.Round(x*10)/10 + 0 }

// Cents rounds an amount of cents to a whole cent, halves away from zero,
// as money is written. The amount is a ratio of exact quantities (a price
// over a size: 200 cents over 3.2 units of 100 g is 62.5), which float64
// may hold a few units in the last place under a half (62.49999999999999):
// a relative nudge of 1e-9, far below the distance of any other such
// ratio from a half, rounds it as the exact value would be.
func Cents(x float64) int64 { return int64(math.Round(x + x*1e-9)) }

// HalfCents rounds an amount in half-cents (see Median2) to a whole cent,
// halves up.
func HalfCents[T uint32 | uint64](h T) T { return (h + 1) / 2 }

// PctChange is the exact change from a to b in percent.
func PctChange(a, b float64) float64 { return (b/a - 1) * 100 }

// The thresholds compare exact values: prices are whole cents or
// half-cents (a median of two) and thresholds whole percents, so the
// products below are exact in float64 and a price exactly 15% above
// another is 15% above, while 14.99% is not.

// AtLeastAbove reports whether b is at least pct percent above a.
func AtLeastAbove(a, b, pct float64) bool { return b*100 >= a*(100+pct) }

// AtLeastBelow reports whether b is at least pct percent below a.
func AtLeastBelow(a, b, pct float64) bool { return b*100 <= a*(100-pct) }
