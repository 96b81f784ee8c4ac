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
// the analytics, through scanPrices and seekPrices) and market.Offers.Read
// for the signals; the brief's basket folds the offers of the brief's
// week only, not of 14 days.

// scanPrices calls fn for each barcode of province with a current offer
// (restricted-circulation barcodes left out), with its banner prices, by
// banner slug, and the store-level prices behind them. The offers used
// are added to sn for the basis. prices is valid only until fn returns.
func scanPrices(tx *storage.Tx, sn *snapshot, province string, fn func(gtin string, prices []market.Price, storePrices int) error) error {
	return market.Scan(tx, province, func(g string) bool { return GTIN(g).Restricted() }, sn.use(province), fn)
}

// seekPrices is scanPrices for one barcode: it calls fn once when the
// barcode has a current offer in province.
func seekPrices(tx *storage.Tx, sn *snapshot, province, gtin string, prices []market.Price, fn func(prices []market.Price, storePrices int) error) error {
	if GTIN(gtin).Restricted() {
		return nil
	}
	return market.Seek(tx, province, gtin, prices, sn.use(province), fn)
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
