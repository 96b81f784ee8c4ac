package pricestat

import (
	"cmp"
	"slices"
)

// Weighted is a banner SKU of a week (its index in a []WeekSKU) and the
// exact figure a list of the brief orders it by.
type Weighted struct {
	I int
	W float64
}

// PromoMoves returns the SKUs with a weekly price this week and the week
// before whose promotion started this week (on promotion now, not then)
// and those whose promotion ended (on promotion then, not now), each
// weighted by its discount, 1 - price / regular, of the week it was on
// promotion.
func PromoMoves(skus []WeekSKU) (started, ended []Weighted) {
	for i := range skus {
		s := &skus[i]
		switch s.promoTurn() {
		case promoStarted:
			started = append(started, Weighted{i, 1 - float64(s.P)/float64(s.R)})
		case promoEnded:
			ended = append(ended, Weighted{i, 1 - float64(s.PrevP)/float64(s.PrevR)})
		}
	}
	return started, ended
}

// A promotion's turn between the week before and this week.
const (
	promoSame    = iota // no turn, or not both weeks priced
	promoStarted        // on promotion this week, not the week before
	promoEnded          // on promotion the week before, not this week
)

// promoTurn returns s's promotion turn, when s has a weekly price in both
// weeks.
func (s *WeekSKU) promoTurn() int {
	if s.Day == 0 || s.PrevDay == 0 {
		return promoSame
	}
	switch on, was := s.P < s.R, s.PrevP < s.PrevR; {
	case on && !was:
		return promoStarted
	case was && !on:
		return promoEnded
	}
	return promoSame
}

// RegularMovers returns the SKUs whose weekly regular price rose and
// those whose regular price fell from the week before to this week, each
// weighted by the size of the change in percent. A change counts only
// when the SKU's stores moved their own regular prices the same way
// (RegMove of the same sign), not when it comes only from which stores
// were in force.
func RegularMovers(skus []WeekSKU) (up, down []Weighted) {
	for i := range skus {
		s := &skus[i]
		if s.Day == 0 || s.PrevDay == 0 || s.R == s.PrevR || s.RegMove == 0 || (s.R > s.PrevR) != (s.RegMove > 0) {
			continue
		}
		if ch := PctChange(float64(s.PrevR), float64(s.R)); ch > 0 {
			up = append(up, Weighted{i, ch})
		} else {
			down = append(down, Weighted{i, -ch})
		}
	}
	return up, down
}

// SortWeighted sorts ws, the largest weight first, ties by banner then
// SKU (of skus, which ws index).
func SortWeighted(skus []WeekSKU, ws []Weighted) {
	slices.SortFunc(ws, func(x, y Weighted) int {
		sx, sy := &skus[x.I], &skus[y.I]
		return cmp.Or(cmp.Compare(y.W, x.W), cmp.Compare(sx.Banner, sy.Banner), cmp.Compare(sx.SKU, sy.SKU))
	})
}
