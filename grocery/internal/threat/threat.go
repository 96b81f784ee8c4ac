// Package threat grades the competitors' moves under a banner's price
// behind grocery's threat signals, over plain data (the banners' current
// offers of a barcode, market.BannerOffer): a promotion in force under
// the banner's shelf price, or a regular price cut under its regular
// price, weighed by the size of the move and by the gap it opens. It
// imports nothing from grocery; the thresholds are grocery's, passed in.
package threat

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// Severity is how much a move weighs, the most severe first.
type Severity int

// The severities, the most severe first.
const (
	High   Severity = iota // a big move that opens a big gap
	Medium                 // a move of some size
	Low                    // a small move
)

// Thresholds grade a move: High when it is at least HighMovePct of the
// competitor's price before it and takes a competitor that was at or
// above your price to at least HighGapPct under it; Medium when it is at
// least MediumMovePct; Low otherwise.
type Thresholds struct {
	HighMovePct, HighGapPct, MediumMovePct float64
}

// Move is a competitor's move under your price.
type Move struct {
	Offer       market.BannerOffer // the competitor's current offer
	Promotion   bool               // a promotion in force; else a regular cut
	Before, Now float64            // its price before and after the move, cents
	Yours       float64            // your price it is compared with: shelf for a promotion, regular for a cut
	Severity    Severity
	From        int32         // the promotion's start or the first day at the cut price (the caller's to set for a promotion)
	Promo       storage.Promo // the promotion event (the caller's to read)
	Under       float64       // percent under yours now, exact
	MovePct     float64       // the move in percent of Before (negative), exact
}

// Promotion returns competitor c's promotion as a move, when c is on
// promotion (its price in force under its regular price) under own's
// shelf price.
func Promotion(c, own *market.BannerOffer, t Thresholds) (Move, bool) {
	if !c.OnPromo() || c.P >= own.P {
		return Move{}, false
	}
	m := Move{Offer: *c, Promotion: true, Before: float64(c.R) / 2, Now: float64(c.P) / 2, Yours: float64(own.P) / 2}
	m.grade(t)
	return m, true
}

// Cut returns competitor c's cut of its regular price from before to now
// (half-cents) on day from as a move, when it is a cut and now is under
// own's regular price.
func Cut(c, own *market.BannerOffer, before, now uint32, from int32, t Thresholds) (Move, bool) {
	if now >= before || now >= own.R {
		return Move{}, false
	}
	m := Move{Offer: *c, Before: float64(before) / 2, Now: float64(now) / 2, Yours: float64(own.R) / 2, From: from}
	m.grade(t)
	return m, true
}

// grade sets m's gap, move and severity.
func (m *Move) grade(t Thresholds) {
	m.Under = -pricestat.PctChange(m.Yours, m.Now)
	m.MovePct = pricestat.PctChange(m.Before, m.Now)
	switch {
	case pricestat.AtLeastBelow(m.Before, m.Now, t.HighMovePct) && m.Before >= m.Yours &&
		pricestat.AtLeastBelow(m.Yours, m.Now, t.HighGapPct):
		m.Severity = High
	case pricestat.AtLeastBelow(m.Before, m.Now, t.MediumMovePct):
		m.Severity = Medium
	default:
		m.Severity = Low
	}
}

// Leads reports whether move x leads y: more severe, then further under
// your price, then by banner.
func Leads(x, y *Move) bool {
	if x.Severity != y.Severity {
		return x.Severity < y.Severity
	}
	if x.Under != y.Under {
		return x.Under > y.Under
	}
	return x.Offer.Banner < y.Offer.Banner
}

// Sort sorts moves, the leader first.
func Sort(moves []Move) {
	slices.SortFunc(moves, func(x, y Move) int {
		switch {
		case Leads(&x, &y):
			return -1
		case Leads(&y, &x):
			return 1
		}
		return 0
	})
}

// Candidate is a competitor that may be behind a threat, with its
// promotion and its cut where it has them.
type Candidate struct {
	Offer            *market.BannerOffer
	Promo, Cut       Move
	HasPromo, HasCut bool
}

// Best returns the move x stands for: its promotion, else its cut; ok
// false when none.
func (x *Candidate) Best() (Move, bool) {
	switch {
	case x.HasPromo:
		return x.Promo, true
	case x.HasCut:
		return x.Cut, true
	}
	return Move{}, false
}

// Lead returns the leading move of cands; ok false when none.
func Lead(cands []Candidate) (lead Move, ok bool) {
	for i := range cands {
		if m, has := cands[i].Best(); has && (!ok || Leads(&m, &lead)) {
			lead, ok = m, true
		}
	}
	return lead, ok
}
