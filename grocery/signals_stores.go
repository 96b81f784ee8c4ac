package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// A change is a store's change: a banner SKU's daily price (its price in
// force over its stores) also moves when a store's observation enters or
// leaves the visit window, with no store's own price moving. So a regular
// move since `since` (price_increase, price_decrease, a competitor's cut
// behind a threat) is kept only when a store whose price is in force on
// both days compared moved its own regular price the same way; a 30-day
// low only when a store made it, which the import records
// (storage.Lookback.Fell).

// storeRegular is a store's regular prices in force on the two days
// regularMoved compares.
type storeRegular struct {
	store        uint32
	from, to     uint32
	inFrom, inTo bool
}

// regularMoved reports whether a store of the banner SKU (banner, sku) in
// the province with a price in force on day from and on day to has on to
// a regular price in force under its regular price on from (down), or
// above it (!down). It reads the series once, from the window before from
// to to.
func (sc *signalScan) regularMoved(banner, sku string, from, to int32, down bool) (bool, error) {
	ps := sc.storeBuf[:0]
	scan := storage.SeriesScan{From: from - freshDays + 1, To: to}
	err := sc.tx.Series(banner, sku, sc.a.province, scan, func(d *storage.Day) error {
		for _, e := range d.Entries {
			i := slices.IndexFunc(ps, func(s storeRegular) bool { return s.store == e.Store })
			if i < 0 {
				i = len(ps)
				ps = append(ps, storeRegular{store: e.Store})
			}
			// Oldest first: the latest observation on or before a day wins.
			if _, r, _, ok := pricestat.InForce(d.Date, e.Price, e.Regular, e.PromoEnd, from, freshDays); ok {
				ps[i].from, ps[i].inFrom = r, true
			}
			if _, r, _, ok := pricestat.InForce(d.Date, e.Price, e.Regular, e.PromoEnd, to, freshDays); ok {
				ps[i].to, ps[i].inTo = r, true
			}
		}
		return nil
	})
	sc.storeBuf = ps
	if err != nil {
		return false, err
	}
	for _, s := range ps {
		if s.inFrom && s.inTo && (down && s.to < s.from || !down && s.to > s.from) {
			return true, nil
		}
	}
	return false, nil
}
