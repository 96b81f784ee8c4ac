package pricestat

// PromoShare is one banner's promotions of a week over its banner SKUs
// with a weekly price this week.
type PromoShare struct {
	Products    int     // SKUs with a weekly price this week
	OnPromotion int     // of those, on promotion (price < regular)
	Started     int     // on promotion now and not last week (of those with a weekly price last week)
	Ended       int     // on promotion last week and not now
	discount    float64 // Σ percent off over OnPromotion
}

// SharePct is 100 × OnPromotion ÷ Products, exact.
func (p *PromoShare) SharePct() float64 { return 100 * float64(p.OnPromotion) / float64(p.Products) }

// AvgDiscountPct is the mean percent off, 100 × (1 - price ÷ regular),
// over the SKUs on promotion; 0 when none is.
func (p *PromoShare) AvgDiscountPct() float64 {
	if p.OnPromotion == 0 {
		return 0
	}
	return p.discount / float64(p.OnPromotion)
}

// PromoShares returns each banner's promotions of the week, by banner.
func PromoShares(skus []WeekSKU) map[string]*PromoShare {
	by := map[string]*PromoShare{}
	for i := range skus {
		s := &skus[i]
		if s.Day == 0 {
			continue
		}
		p := by[s.Banner]
		if p == nil {
			p = &PromoShare{}
			by[s.Banner] = p
		}
		p.Products++
		on := s.P < s.R
		if on {
			p.OnPromotion++
			p.discount += 100 * (1 - float64(s.P)/float64(s.R))
		}
		switch s.promoTurn() {
		case promoStarted:
			p.Started++
		case promoEnded:
			p.Ended++
		}
	}
	return by
}
