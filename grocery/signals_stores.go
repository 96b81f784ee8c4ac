package grocery

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// A change is a store's change: a banner SKU's daily price (its price in
// force over its stores) can also move when a store's observation enters
// or leaves the visit window, or when different stores are in force, with
// no store's own price moving. So the signals of change (price_increase,
// price_decrease, lowest_in_30_days, and the competitors' cuts behind the
// threats) are kept only when a store made them: a store whose price is in
// force on both days compared moved its own price in force the same way.

// storeDays holds, for one banner SKU, each store's prices in force on a
// few days (storesIn): inForce[s*len(days)+i] is store s's on days[i].
type storeDays struct {
	days    []int32
	stores  []uint32
	inForce []storeInForce
}

// storeInForce is a store's price and regular price in force on a day (the
// regular never below the price); ok is false when it has none.
type storeInForce struct {
	p, r uint32
	ok   bool
}

// storesIn reads the banner SKU (banner, sku) in the province once, from
// the window before the first of days (sorted) to the last, and keeps each
// store's prices in force on each of days in sc.storeDays.
func (sc *signalScan) storesIn(banner, sku string, days []int32) (*storeDays, error) {
	sd := &sc.storeDays
	sd.days, sd.stores, sd.inForce = append(sd.days[:0], days...), sd.stores[:0], sd.inForce[:0]
	n := len(days)
	scan := storage.SeriesScan{From: days[0] - freshDays + 1, To: days[n-1]}
	err := sc.tx.Series(banner, sku, sc.a.province, scan, func(d *storage.Day) error {
		for _, e := range d.Entries {
			s := slices.Index(sd.stores, e.Store)
			if s < 0 {
				s = len(sd.stores)
				sd.stores = append(sd.stores, e.Store)
				sd.inForce = append(sd.inForce, make([]storeInForce, n)...)
			}
			row := sd.inForce[s*n : (s+1)*n]
			for i, day := range days {
				// Oldest first: the latest observation on or before day wins.
				if p, r, _, ok := pricestat.InForce(d.Date, e.Price, e.Regular, e.PromoEnd, day, freshDays); ok {
					row[i] = storeInForce{p, r, true}
				}
			}
		}
		return nil
	})
	return sd, err
}

// moved reports whether a store with a price in force on days[i] and on
// days[j] has on days[j] a price (its regular price when regular is set)
// under its price on days[i] when down is set, above it otherwise.
func (sd *storeDays) moved(i, j int, regular, down bool) bool {
	n := len(sd.days)
	for s := range sd.stores {
		a, b := sd.inForce[s*n+i], sd.inForce[s*n+j]
		if !a.ok || !b.ok {
			continue
		}
		x, y := a.p, b.p
		if regular {
			x, y = a.r, b.r
		}
		if down && y < x || !down && y > x {
			return true
		}
	}
	return false
}
