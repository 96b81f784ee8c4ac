package market

import "github.com/grocerydata/grocery/grocery/internal/pricestat"

// Side is where a banner's regular price stands to the market's.
type Side int

// The sides of the market.
const (
	Below Side = iota // at least the gap under the market
	Above             // at least the gap over it
)

// Scratch is Position's scratch space, kept grown for the next call: a
// caller positioning barcode after barcode passes the same one.
type Scratch struct {
	floats []float64
	prices []Price
}

// Reset empties s, keeping its room, and lets go of the banner names it
// held.
func (s *Scratch) Reset() {
	clear(s.prices)
	s.prices, s.floats = s.prices[:0], s.floats[:0]
}

// Position compares own's regular price with the market's, the median of
// others' regular prices (as Compare gives it, with at least minOthers
// others), and reports on which side it stands when it is at least gapPct
// percent off, with the market's shelf and regular medians, in cents; ok
// is false (and the rest zero) when it is nearer, or there are too few
// others.
func Position(own *BannerOffer, others []BannerOffer, minOthers int, gapPct float64, s *Scratch) (side Side, marketShelf, marketRegular float64, ok bool) {
	if len(others) < minOthers {
		return 0, 0, 0, false
	}
	// A shortcut with the same answer: the others' regular median
	// decides whether there is a gap at all.
	s.floats = s.floats[:0]
	for i := range others {
		s.floats = append(s.floats, float64(others[i].R)/2)
	}
	if mr, r := pricestat.Median(s.floats), float64(own.R)/2; !pricestat.AtLeastAbove(mr, r, gapPct) && !pricestat.AtLeastBelow(mr, r, gapPct) {
		return 0, 0, 0, false
	}
	s.prices = append(s.prices[:0], own.Price())
	for i := range others {
		s.prices = append(s.prices, others[i].Price())
	}
	Compare(s.prices, minOthers, &s.floats, func(b *Price, m, mr float64) {
		if b == &s.prices[0] {
			marketShelf, marketRegular = m, mr
		}
	})
	switch r := s.prices[0].Regular; {
	case pricestat.AtLeastAbove(marketRegular, r, gapPct):
		return Above, marketShelf, marketRegular, true
	case pricestat.AtLeastBelow(marketRegular, r, gapPct):
		return Below, marketShelf, marketRegular, true
	}
	return 0, 0, 0, false
}
