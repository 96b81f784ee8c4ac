// Package market is the machinery of grocery's one comparison between
// banners, in storage's vocabulary (storage.Offer): each banner's current
// price of a barcode folded from a province's offers (Price, Add, Scan,
// Seek), the market of a banner on a barcode, the median of the other
// banners' prices (Compare), a banner's standing against the market over
// many barcodes (Standing) and the brief's shared basket of the barcodes
// the most banners price (Basket); and, for the signals, where a
// banner's regular price stands to its market (Position), a province's
// offers gathered per barcode and banner with the own banner's past
// prices (Offers) and its shelf records by banner and SKU (Shelves). It
// imports nothing from grocery; what counts as current, which barcodes
// are compared and how many other banners a comparison needs are
// grocery's, passed in.
package market

import (
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// Price is one banner's price of one barcode, in cents (a float, as the
// medians of the market may be a half cent).
type Price struct {
	Banner         string
	Price, Regular float64
}

// Compare calls fn for each banner of prices that at least minOthers
// other banners price too, with its own price and the market's: the
// medians of the other banners' shelf and regular prices. prices holds
// one entry per banner. buf is scratch space, kept grown for the next
// call: a caller comparing barcode after barcode passes the same one.
//
// The prices are sorted once (shelf and regular apart) and each
// banner's market read from them without its own price (othersMedian),
// rather than sorting the others again for each banner: the same
// medians, the same float arithmetic.
func Compare(prices []Price, minOthers int, buf *[]float64, fn func(own *Price, market, marketRegular float64)) {
	n := len(prices)
	if n < minOthers+1 {
		return
	}
	b := slices.Grow((*buf)[:0], 2*n)[:2*n]
	shelf, regular := b[:n], b[n:]
	for i := range prices {
		shelf[i], regular[i] = prices[i].Price, prices[i].Regular
	}
	slices.Sort(shelf)
	slices.Sort(regular)
	for i := range prices {
		fn(&prices[i], othersMedian(shelf, prices[i].Price), othersMedian(regular, prices[i].Regular))
	}
	*buf = b[:0]
}

// othersMedian returns the median of sorted without one value equal to
// own (pricestat.Median of the others: the mean of the two middle values
// for an even count). Which of equal values is left out does not change
// the others.
func othersMedian(sorted []float64, own float64) float64 {
	k, _ := slices.BinarySearch(sorted, own) // own's place: the others are sorted[:k] and sorted[k+1:]
	at := func(j int) float64 {              // the j-th of the others
		if j >= k {
			j++
		}
		return sorted[j]
	}
	m := len(sorted) - 1
	switch {
	case m == 0:
		return 0 // pricestat.Median of nothing
	case m%2 == 1:
		return at(m / 2)
	}
	return (at(m/2-1) + at(m/2)) / 2
}

// Standing accumulates one banner's comparison with the market.
type Standing struct {
	Items   int               // barcodes compared
	Shelf   pricestat.Geomean // of own shelf price / market shelf price
	Regular pricestat.Geomean // of own regular price / market regular price
	Own     float64           // Σ own shelf price, in cents
	Market  float64           // Σ market shelf price, in cents
}

// Add counts one barcode compared: own's prices against the market's.
func (s *Standing) Add(own *Price, market, marketRegular float64) {
	s.Items++
	s.Shelf.Add(own.Price / market)
	s.Regular.Add(own.Regular / marketRegular)
	s.Own += own.Price
	s.Market += market
}

// Add folds an offer of one barcode into prices, that barcode's banner
// prices: a banner's price is the lowest price in force of its offers,
// its regular price the lowest regular price in force. Offers of a barcode come
// ordered by banner, so a banner's SKUs are consecutive.
func Add(prices []Price, o *storage.Offer) []Price {
	return AddPrice(prices, o.Banner, float64(o.Price), float64(o.Regular))
}

// AddPrice is Add for a banner SKU's prices p and r taken from elsewhere
// than its offer (its weekly prices): the banner's price is the lowest p
// of its SKUs, its regular price the lowest r.
func AddPrice(prices []Price, banner string, p, r float64) []Price {
	if n := len(prices); n > 0 && prices[n-1].Banner == banner {
		prices[n-1].Price = min(prices[n-1].Price, p)
		prices[n-1].Regular = min(prices[n-1].Regular, r)
		return prices
	}
	return append(prices, Price{Banner: banner, Price: p, Regular: r})
}

// Scan calls fn for each barcode of province that skip does not refuse
// and that has an offer use takes, with its banner prices, by banner
// slug, and the store-level prices behind them (Σ StoreCount). use is
// called once for each offer of a barcode not skipped and reports
// whether the offer counts; it sees of the offer what the offer prices
// keep (storage.OfferPrices: Banner, Price, Regular, StoreCount and
// ObservedAt), the other fields zero. prices is valid only until fn
// returns. fn's first error ends the scan and Scan returns it as it is.
func Scan(tx *storage.Tx, province string, skip func(gtin string) bool, use func(gtin string, o *storage.Offer) bool, fn func(gtin string, prices []Price, storePrices int) error) error {
	op, err := tx.OfferPrices(province)
	if err != nil {
		return err
	}
	f := folder{fn: fn}
	var o storage.Offer
	for p := range op.Products() {
		if f.cur = op.Product(p); skip(f.cur) {
			continue
		}
		if err := f.product(&op, p, &o, use); err != nil {
			return err
		}
		if err := f.flush(); err != nil {
			return err
		}
	}
	return nil
}

// ScanPriced is Scan reading the offers themselves, every field, with
// each offer's prices given by price, which reports whether the offer
// counts (and is called once per offer of a barcode not skipped): the
// banner prices of a barcode are folded from those prices (AddPrice),
// the store-level prices behind them are the offers' StoreCount.
func ScanPriced(tx *storage.Tx, province string, skip func(gtin string) bool, price func(gtin string, o *storage.Offer) (p, r float64, ok bool), fn func(gtin string, prices []Price, storePrices int) error) error {
	f := folder{fn: fn}
	var skipped bool
	err := tx.OffersIn(province, func(g string, o *storage.Offer) error {
		if first, err := f.next(g); err != nil {
			return err
		} else if first {
			skipped = skip(g)
		}
		if skipped {
			return nil
		}
		if p, r, ok := price(g, o); ok {
			f.add(o, p, r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return f.flush()
}

// SeekEach is Scan for the barcodes of gtins (ascending, without
// repeats), none skipped, each sought in the province's offer prices from
// the one before: it calls fn once for each barcode that has an offer use
// takes, with its place in gtins. prices is scratch space. fn's first
// error ends the read and SeekEach returns it as it is.
func SeekEach(tx *storage.Tx, province string, gtins []string, prices []Price, use func(gtin string, o *storage.Offer) bool, fn func(at int, gtin string, prices []Price, storePrices int) error) error {
	op, err := tx.OfferPrices(province)
	if err != nil {
		return err
	}
	var at int // the place of the barcode being folded
	f := folder{fn: func(g string, ps []Price, n int) error { return fn(at, g, ps, n) }, prices: prices[:0]}
	var o storage.Offer
	for i, g := range gtins {
		p, ok := op.Find([]byte(g))
		if !ok {
			continue
		}
		at, f.cur = i, g
		if err := f.product(&op, p, &o, use); err != nil {
			return err
		}
		if err := f.flush(); err != nil {
			return err
		}
	}
	return nil
}

// folder folds the offers of one barcode after another into its banner
// prices, and hands each barcode's to fn.
type folder struct {
	fn     func(gtin string, prices []Price, storePrices int) error
	cur    string
	prices []Price
	obs    int
}

// next moves on to barcode g, handing the previous one's prices to fn
// when g is another; first reports whether it is.
func (f *folder) next(g string) (first bool, err error) {
	if g == f.cur {
		return false, nil
	}
	err = f.flush()
	f.cur = g
	return true, err
}

// add folds the prices p and r of offer o into the barcode's.
func (f *folder) add(o *storage.Offer, p, r float64) {
	f.prices = AddPrice(f.prices, o.Banner, p, r)
	f.obs += int(o.StoreCount)
}

// product folds the offers of product p of op that use takes into the
// barcode's prices; o is scratch space.
func (f *folder) product(op *storage.OfferPrices, p int, o *storage.Offer, use func(gtin string, o *storage.Offer) bool) error {
	first, end, err := op.Offers(p)
	if err != nil {
		return err
	}
	var e storage.PriceEntry
	for i := first; i < end; i++ {
		banner, err := op.Entry(i, &e)
		if err != nil {
			return err
		}
		*o = storage.Offer{Banner: banner, Price: e.Price, Regular: e.Regular, StoreCount: e.StoreCount, ObservedAt: e.ObservedAt}
		if use(f.cur, o) {
			f.add(o, float64(o.Price), float64(o.Regular))
		}
	}
	return nil
}

// flush hands the barcode's prices to fn, when it has any.
func (f *folder) flush() error {
	if len(f.prices) == 0 {
		return nil
	}
	err := f.fn(f.cur, f.prices, f.obs)
	f.prices, f.obs = f.prices[:0], 0
	return err
}
