package pricestat

import "github.com/grocerydata/grocery/storage"

// PromoEnd returns the end of a promotion as one day's stores gave it:
// the latest promo_end of the entries on promotion (price under
// regular), 0 when none gave one. A promotion event's end is that of
// its last day on which a store gave one.
func PromoEnd(entries []storage.Entry) int32 {
	var end int32
	for _, e := range entries {
		if e.Price < e.Regular {
			end = max(end, e.PromoEnd)
		}
	}
	return end
}

// PromoOngoing reports whether a promotion still runs on asOf: with an
// end its stores gave (ends, 0 for none), when it ends on or after asOf;
// with none, when it was last observed on promotion (last) no more than
// gap days before asOf, the most days between two observation days of
// one event.
func PromoOngoing(ends, last, asOf, gap int32) bool {
	if ends != 0 {
		return ends >= asOf
	}
	return last >= asOf-gap
}

// DiscountPct is a promotion's percent off its regular price,
// 100 × (regular - price) ÷ regular; 0 for a price not under regular or
// no regular price.
func DiscountPct(price, regular uint32) float64 {
	if regular == 0 || price >= regular {
		return 0
	}
	return float64(regular-price) * 100 / float64(regular)
}
