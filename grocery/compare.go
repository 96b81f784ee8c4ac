package grocery

import (
	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/storage"
)

// One comparison between banners serves the competitive benchmark, the
// executive brief's basket and the market-position signals: a banner is
// compared with the market on the same items, the market never includes
// the banner itself, and shelf and regular prices are compared apart.
// The OpenAPI document defines the figures; in short, for a banner B and
// a barcode g that B prices:
//
//	market(B, g) = median of the other banners' prices of g
//	index(B)     = 100 × geomean over g of price(B, g) / market(B, g)
//
// over the barcodes that at least MarketMinOthers other banners price.

// MarketMinOthers is how many other banners must price a barcode for it
// to count in a banner's comparison with the market.
const MarketMinOthers = 2

// BenchmarkMinItems is how many compared barcodes a banner needs to be
// ranked (and named cheapest or dearest): an index on fewer items says
// little about a banner.
const BenchmarkMinItems = 20

// A banner's current price of a barcode in a province (the OpenAPI
// document defines it): of its current offers of the barcode (one banner
// SKU each, a store's price in force: freshDays), the lowest price in
// force and, apart, the lowest regular price in force (storage.Offer,
// pricestat.InForceOn: the most common of its stores' prices in force,
// a promotion past its stated end at its regular price). Restricted-circulation barcodes (GTIN.Restricted:
// in-store codes) name different items at different banners and are
// never priced across banners. market.Add folds the offers into it (for
// the analytics, through scanPrices and seekEachPrices) and market.Offers.Read
// for the signals. The competitive benchmark and the brief's basket
// compare weekly prices of one flyer week instead (below).

// scanPrices calls fn for each barcode of province with a current offer
// (restricted-circulation barcodes left out), with its banner prices, by
// banner slug, and the store-level prices behind them. The offers used
// are added to sn for the basis. prices is valid only until fn returns.
func scanPrices(tx *storage.Tx, sn *snapshot, province string, fn func(gtin string, prices []market.Price, storePrices int) error) error {
	return market.Scan(tx, province, func(g string) bool { return GTIN(g).Restricted() }, sn.use(province), fn)
}

// seekEachPrices is scanPrices for the barcodes of gtins (ascending,
// without repeats), each sought in the province's offer prices from the
// one before: it calls fn once for each barcode with a current offer in
// province, with its place in gtins.
func seekEachPrices(tx *storage.Tx, sn *snapshot, province string, gtins []string, prices []market.Price, fn func(at int, gtin string, prices []market.Price, storePrices int) error) error {
	use := sn.use(province)
	return market.SeekEach(tx, province, gtins, prices, func(g string, o *storage.Offer) bool {
		return !GTIN(g).Restricted() && use(g, o)
	}, fn)
}

// use returns what takes an offer of province into banner prices: a
// current offer, added to sn for the basis.
func (sn *snapshot) use(province string) func(gtin string, o *storage.Offer) bool {
	return func(gtin string, o *storage.Offer) bool {
		if !sn.current(o) {
			return false
		}
		sn.add(province, gtin, o)
		return true
	}
}

// The flyer week. Grocery flyers run from Thursday to Wednesday, and the
// panel visits each banner's stores on its own days of the week, so the
// prices in force on one day mix this week's flyer at some banners with
// last week's at others. The competitive benchmark and the brief's basket
// therefore compare the banners on one flyer week, the same for every
// banner (readFlyerWeek): the flyer week of the data set's latest day
// once every banner of the province that has a daily price in the week
// before has one in it too, and otherwise the week before, complete. A
// banner SKU's weekly price is its daily price (its price in force and
// regular price in force: storage.CatDay.SKUs) on its last day with a
// daily price in that week; a banner's weekly price of a barcode is the
// lowest weekly price over its SKUs of the barcode, its weekly regular
// price the lowest weekly regular price. Restricted-circulation barcodes
// are left out, as in every comparison between banners.
//
// The writer keeps each offer's weekly prices of the two latest flyer
// weeks its SKU has (storage.Offer.Daily, on its newest day, and
// Offer.WeekBefore), so a comparison reads them with the offers; the
// category days' counts choose the week.

// The baskets a comparison of banners names (BenchmarkResult.Basket,
// BriefBasket.Basket).
const (
	// BasketOwnItems: each banner on its own items, the barcodes it
	// prices that at least MarketMinOthers other banners price.
	BasketOwnItems = "own_items"
	// BasketShared: every banner on the same barcodes, those priced by
	// the most banners.
	BasketShared = "shared"
)

// flyerWeekOf returns the flyer week of a day: the Thursday on or before
// it and the Wednesday after (storage.WeekOf).
func flyerWeekOf(day int32) (from, to int32) {
	from = storage.WeekOf(day)
	return from, from + 6
}

// weekPrices is a province's flyer week compared.
type weekPrices struct {
	province string
	from, to int32           // the flyer week compared
	banners  map[string]bool // banners with a weekly price in the week
	first    int32           // first and last day of the weekly prices used, 0 when none
	last     int32
	obs      int // store-level prices of the week
}

// readFlyerWeek chooses the flyer week the banners of province are
// compared on, for the data set's latest day asOf: its flyer week when
// every banner with a daily price in the week before has one in it,
// otherwise the week before. It reads the category days' counts of the
// two weeks; the weekly prices come with the offers (scan).
func readFlyerWeek(tx *storage.Tx, province string, asOf int32) (*weekPrices, error) {
	w := &weekPrices{province: province, banners: map[string]bool{}}
	if asOf < 7 {
		return w, nil // no observation: no week
	}
	curFrom, curTo := flyerWeekOf(asOf)
	var (
		banners [2]map[string]bool // the week before's, the latest day's
		obs     [2]int
	)
	banners[0], banners[1] = map[string]bool{}, map[string]bool{}
	err := tx.CatDays(province, "", "", curFrom-7, asOf, storage.CatCounts, func(k *storage.CatDayKey, c *storage.CatDay) error {
		if c.Count == 0 {
			return nil
		}
		i := 0
		if k.Day >= curFrom {
			i = 1
		}
		banners[i][k.Banner] = true
		obs[i] += int(c.Count)
		return nil
	})
	if err != nil {
		return nil, err
	}
	w.from, w.to, w.banners, w.obs = curFrom, curTo, banners[1], obs[1]
	for b := range banners[0] {
		if !banners[1][b] {
			w.from, w.to, w.banners, w.obs = curFrom-7, curFrom-1, banners[0], obs[0]
			break
		}
	}
	return w, nil
}

// price returns an offer's SKU's weekly price in the week, from the
// weekly prices the offer keeps, and whether it has one.
func (w *weekPrices) price(o *storage.Offer) (storage.DayPrice, bool) {
	var dp storage.DayPrice
	switch storage.WeekOf(o.ObservedAt) {
	case w.from:
		dp = o.Daily
	case w.from + 7:
		dp = o.WeekBefore
	}
	return dp, dp.Price != 0
}

// scan calls fn for each barcode of the province with a weekly price
// (restricted-circulation barcodes left out), with its banner weekly
// prices in cents, by banner slug. A SKU's barcode is its offer's (the
// offers are kept after a SKU leaves the shelf). prices is valid only
// until fn returns. It records the days of the weekly prices used.
func (w *weekPrices) scan(tx *storage.Tx, fn func(gtin string, prices []market.Price) error) error {
	return market.ScanPriced(tx, w.province, func(g string) bool { return GTIN(g).Restricted() },
		func(g string, o *storage.Offer) (p, r float64, ok bool) {
			s, ok := w.price(o)
			if !ok {
				return 0, 0, false
			}
			if w.first == 0 || s.Day < w.first {
				w.first = s.Day
			}
			w.last = max(w.last, s.Day)
			return float64(s.Price) / 2, float64(s.Regular) / 2, true
		}, func(g string, prices []market.Price, _ int) error { return fn(g, prices) })
}

// basis is the coverage of the weekly prices: the province, the banners
// with a weekly price and their active reference stores, the days of the
// weekly prices used and the store-level prices of the week.
func (w *weekPrices) basis(tx *storage.Tx, comparison string) (Basis, error) {
	b := newBasis(w.province, comparison)
	b.Banners = sortedKeys(w.banners)
	for _, banner := range b.Banners {
		n, err := tx.CountActiveStores(w.province, banner)
		if err != nil {
			return b, err
		}
		b.Stores += n
	}
	b.Observations = w.obs
	if w.first != 0 {
		b.setDates(w.first, w.last)
	}
	return b, nil
}
