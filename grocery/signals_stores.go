package grocery

import (
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

// regularMoved reports whether a store of the banner SKU (banner, sku) in
// the province with a price in force on day from and on day to has on to
// a regular price in force under its regular price on from (down), or
// above it (!down) (pricestat.StoreMove). It reads the series once, from
// the window before from to to.
func (sc *signalScan) regularMoved(banner, sku string, from, to int32, down bool) (bool, error) {
	m := &sc.storeMove
	m.Reset(from, to, freshDays)
	scan := storage.SeriesScan{From: from - freshDays + 1, To: to}
	err := sc.tx.Series(banner, sku, sc.a.province, scan, func(d *storage.Day) error {
		for _, e := range d.Entries {
			m.Observe(d.Date, e.Store, e.Price, e.Regular, e.PromoEnd)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	return m.Moved(down), nil
}
