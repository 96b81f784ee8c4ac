package grocery

import (
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
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

// bannerPrice is one banner's price of one barcode, in cents (exact: a
// daily price is a median and may be a half cent).
type bannerPrice struct {
	banner         string
	price, regular float64
}

// marketOf calls fn for each banner of prices that at least
// MarketMinOthers other banners price too, with its own price and the
// market's: the medians of the other banners' shelf and regular prices.
// prices holds one entry per banner. buf is scratch space.
func marketOf(prices []bannerPrice, buf []float64, fn func(own *bannerPrice, market, marketRegular float64)) {
	if len(prices) < MarketMinOthers+1 {
		return
	}
	for i := range prices {
		buf = buf[:0]
		for j := range prices {
			if j != i {
				buf = append(buf, prices[j].price)
			}
		}
		m := pricestat.Median(buf)
		buf = buf[:0]
		for j := range prices {
			if j != i {
				buf = append(buf, prices[j].regular)
			}
		}
		fn(&prices[i], m, pricestat.Median(buf))
	}
}

// standing accumulates one banner's comparison with the market.
type standing struct {
	items          int
	shelf, regular pricestat.Geomean
	own, market    float64 // Σ own shelf price, Σ market shelf price, in cents
}

func (s *standing) add(own *bannerPrice, market, marketRegular float64) {
	s.items++
	s.shelf.Add(own.price / market)
	s.regular.Add(own.regular / marketRegular)
	s.own += own.price
	s.market += market
}

// A banner's current price of a barcode in a province (the OpenAPI
// document defines it): of its current offers of the barcode (one banner
// SKU each), the lowest daily price on the offer's latest observation day
// and, apart, the lowest daily regular price. A daily price is the median
// of the stores' prices that day, kept exact. Restricted-circulation
// barcodes (GTIN.Restricted: in-store codes) name different items at
// different banners and are never priced across banners.

// addBannerPrice folds a current offer of one barcode into prices, that
// barcode's banner prices. Offers of a barcode come ordered by banner, so
// a banner's SKUs are consecutive.
func addBannerPrice(prices []bannerPrice, o *storage.Offer) []bannerPrice {
	p, r := float64(o.DayPrice)/2, float64(o.DayRegular)/2
	if n := len(prices); n > 0 && prices[n-1].banner == o.Banner {
		prices[n-1].price = min(prices[n-1].price, p)
		prices[n-1].regular = min(prices[n-1].regular, r)
		return prices
	}
	return append(prices, bannerPrice{banner: o.Banner, price: p, regular: r})
}

// scanPrices calls fn for each barcode of province with a current offer
// (restricted-circulation barcodes and those want refuses left out),
// with its banner prices, by banner slug, and the store-level prices
// behind them. The offers used are added to sn for the basis. prices is
// valid only until fn returns. want may be nil.
func scanPrices(tx *storage.Tx, sn *snapshot, province string, want func(gtin string) bool, fn func(gtin string, prices []bannerPrice, storePrices int) error) error {
	var (
		cur    string
		skip   bool
		prices []bannerPrice
		obs    int
	)
	flush := func() error {
		if len(prices) == 0 {
			return nil
		}
		err := fn(cur, prices, obs)
		prices, obs = prices[:0], 0
		return err
	}
	err := tx.OffersIn(province, func(g string, o *storage.Offer) error {
		if g != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = g
			skip = GTIN(g).Restricted() || want != nil && !want(g)
		}
		if skip || !sn.current(o) {
			return nil
		}
		prices = addBannerPrice(prices, o)
		obs += int(o.StoreCount)
		sn.add(province, g, o)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// seekPrices is scanPrices for one barcode: it calls fn once when the
// barcode has a current offer in province.
func seekPrices(tx *storage.Tx, sn *snapshot, province, gtin string, prices []bannerPrice, fn func(prices []bannerPrice, storePrices int) error) error {
	if GTIN(gtin).Restricted() {
		return nil
	}
	prices, obs := prices[:0], 0
	err := tx.Offers(province, gtin, func(o *storage.Offer) error {
		if sn.current(o) {
			prices = addBannerPrice(prices, o)
			obs += int(o.StoreCount)
			sn.add(province, gtin, o)
		}
		return nil
	})
	if err != nil || len(prices) == 0 {
		return err
	}
	return fn(prices, obs)
}
