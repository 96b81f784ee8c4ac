// Package regional computes grocery's geographic prices and regional
// comparison from the current banner prices of a selection (one barcode,
// a category or the panel), province by province: each province's
// levels, each (banner, barcode) pair's population-weighted national
// prices, and each province's Jevons indexes against them over the pairs
// priced in another province too. grocery reads the prices in one read
// transaction and writes the answer from the result; this package
// imports nothing from grocery.
package regional

import (
	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
)

// national is a (banner, barcode) pair's population-weighted national
// prices.
type national struct {
	shelf, regular, weight float64
	provinces              int
}

// price is a banner's prices of a barcode in a province, the banner
// and the barcode by their numbers in the geography.
type price struct {
	gtin, banner   int32
	price, regular float64 // cents
}

// prices is a list of prices in blocks that double in size up to
// block, so that it grows without copying.
type prices struct {
	blocks [][]price
	n      int
}

const block = 8192

func (l *prices) add(p price) {
	k := len(l.blocks)
	if k == 0 || len(l.blocks[k-1]) == cap(l.blocks[k-1]) {
		size := 8
		if k > 0 {
			size = min(2*cap(l.blocks[k-1]), block)
		}
		l.blocks = append(l.blocks, make([]price, 0, size))
		k++
	}
	l.blocks[k-1] = append(l.blocks[k-1], p)
	l.n++
}

// Province gathers one province's prices of the selection and, once
// Compute ran, its figures.
type Province struct {
	Code   string
	Weight float64 // population, thousands
	Price  float64 // with one barcode selected: its province price (median of banner prices), cents
	Sum    float64 // Σ banner prices, cents
	N      int     // banner prices
	Lo, Hi float64 // the lowest and highest banner price, cents
	Obs    int     // store-level prices
	// AllStores are the active reference stores of the banners pricing
	// the selection in the province.
	AllStores int

	Index, ShelfIndex         float64 // over the pairs compared, regular and shelf prices
	Compared                  int     // pairs compared
	Banners, Products, Stores int     // of the pairs compared

	prices prices // barcode by barcode
}

// Geography is what GeographicPrices and RegionalComparison compute:
// Start each province, Add its prices barcode by barcode, then Compute.
// Banners and barcodes are numbered in the order first read, so that a
// (banner, barcode) pair is a slot of a table, found without hashing.
type Geography struct {
	Provinces []*Province // those with a price, in the order started (after Compute)
	Price     float64     // with one barcode selected: its national price (of the province prices), cents
	started   []*Province
	banners   []string // by number
	bannerNo  map[string]int32
	gtinNo    map[string]int32 // Add's barcodes' numbers
	placeNo   []int32          // AddAt's: by place in the selection, -1 until added
	barcodes  int32            // the barcodes numbered
	slots     []int32          // by barcode number × len(banners) + banner number: the pair's number in pairs
	pairs     []national       // the pairs' national prices
	one       bool             // one barcode selected
	buf       []float64        // add's scratch space
}

// banner returns the number of a banner, numbering it when new.
func (geo *Geography) banner(slug string) int32 {
	if n, ok := geo.bannerNo[slug]; ok {
		return n
	}
	n := int32(len(geo.banners))
	geo.banners = append(geo.banners, slug)
	geo.bannerNo[slug] = n
	return n
}

// pair returns the national prices of a province price's pair.
func (geo *Geography) pair(p *price) *national {
	return &geo.pairs[geo.slots[int(p.gtin)*len(geo.banners)+int(p.banner)]]
}

// New returns the geography of one barcode (one) or of many. selected is
// the number of barcodes of a selection, whose prices AddAt adds by their
// place in it; with none selected (0), Add adds a scan's by barcode.
func New(one bool, selected int) *Geography {
	geo := &Geography{bannerNo: make(map[string]int32, 64), one: one, buf: make([]float64, 0, 32)}
	if selected > 0 {
		geo.placeNo = make([]int32, selected)
		for i := range geo.placeNo {
			geo.placeNo[i] = -1
		}
	} else {
		// Sized for a scan of a panel at once: a map grown entry by
		// entry rehashes at every doubling.
		geo.gtinNo = make(map[string]int32, 2048)
	}
	return geo
}

// Start returns a new province, of population weight (thousands).
func (geo *Geography) Start(code string, weight float64) *Province {
	gp := &Province{Code: code, Weight: weight}
	geo.started = append(geo.started, gp)
	return gp
}

// Pairs returns the (banner, barcode) pairs priced (after Compute).
func (geo *Geography) Pairs() int { return len(geo.pairs) }

// Barcodes returns the barcodes priced.
func (geo *Geography) Barcodes() int { return int(geo.barcodes) }

// BannerCount returns the banners pricing one of them.
func (geo *Geography) BannerCount() int { return len(geo.banners) }

// Compute sets the national prices and each province's figures; stores
// gives the active reference stores of a banner in a province.
func (geo *Geography) Compute(stores func(province, banner string) (int, error)) error {
	for _, gp := range geo.started {
		if gp.prices.n > 0 {
			geo.Provinces = append(geo.Provinces, gp)
		}
	}
	if geo.one {
		geo.nationalPrice()
	}
	geo.nationalPairs()
	seen, priced := make([]bool, len(geo.banners)), make([]bool, len(geo.banners)) // index's scratch space
	for _, gp := range geo.Provinces {
		if err := geo.index(gp, seen, priced, stores); err != nil {
			return err
		}
	}
	return nil
}

// Add adds to gp the current banner prices ps of barcode g, from obs
// store-level prices, in a geography of no selection.
func (geo *Geography) Add(gp *Province, g string, ps []market.Price, obs int) {
	if geo.gtinNo == nil {
		geo.gtinNo = map[string]int32{}
	}
	gi, ok := geo.gtinNo[g]
	if !ok {
		gi = geo.barcodes
		geo.gtinNo[g] = gi
		geo.barcodes++
	}
	geo.add(gp, gi, ps, obs)
}

// AddAt is Add for the barcode at place at of a selection (New): a number
// looked up rather than a barcode hashed.
func (geo *Geography) AddAt(gp *Province, at int, ps []market.Price, obs int) {
	gi := geo.placeNo[at]
	if gi < 0 {
		gi = geo.barcodes
		geo.placeNo[at] = gi
		geo.barcodes++
	}
	geo.add(gp, gi, ps, obs)
}

// add adds to gp the prices of barcode number gi.
func (geo *Geography) add(gp *Province, gi int32, ps []market.Price, obs int) {
	for _, p := range ps {
		if gp.N == 0 || p.Price < gp.Lo {
			gp.Lo = p.Price
		}
		gp.Hi = max(gp.Hi, p.Price)
		gp.Sum += p.Price
		gp.N++
		gp.prices.add(price{gtin: gi, banner: geo.banner(p.Banner), price: p.Price, regular: p.Regular})
	}
	if geo.one {
		geo.buf = geo.buf[:0]
		for _, p := range ps {
			geo.buf = append(geo.buf, p.Price)
		}
		gp.Price = pricestat.Median(geo.buf)
	}
	gp.Obs += obs
}

// nationalPrice sets the national price of the one barcode selected: the
// population-weighted mean of its province prices (a level).
func (geo *Geography) nationalPrice() {
	var weights float64
	for _, gp := range geo.Provinces {
		geo.Price += gp.Weight * gp.Price
		weights += gp.Weight
	}
	if weights > 0 {
		geo.Price /= weights
	}
}

// nationalPairs numbers the (barcode, banner) pairs priced and sets each
// pair's national prices: the population-weighted means of the banner's
// prices over the provinces, in order.
func (geo *Geography) nationalPairs() {
	nb := len(geo.banners)
	geo.slots = make([]int32, int(geo.barcodes)*nb)
	for i := range geo.slots {
		geo.slots[i] = -1
	}
	n := int32(0)
	for _, gp := range geo.Provinces {
		for _, b := range gp.prices.blocks {
			for i := range b {
				if slot := &geo.slots[int(b[i].gtin)*nb+int(b[i].banner)]; *slot < 0 {
					*slot = n
					n++
				}
			}
		}
	}
	geo.pairs = make([]national, n)
	for _, gp := range geo.Provinces {
		for _, b := range gp.prices.blocks {
			for i := range b {
				nat := geo.pair(&b[i])
				nat.shelf += gp.Weight * b[i].price
				nat.regular += gp.Weight * b[i].regular
				nat.weight += gp.Weight
				nat.provinces++
			}
		}
	}
	for i := range geo.pairs {
		nat := &geo.pairs[i]
		nat.shelf /= nat.weight
		nat.regular /= nat.weight
	}
}

// index computes gp's indexes over its pairs priced in another province
// too, and the banners, products and stores they rest on. seen and
// priced are scratch space, one per banner.
func (geo *Geography) index(gp *Province, seen, priced []bool, stores func(province, banner string) (int, error)) error {
	var regular, shelf pricestat.Geomean
	clear(seen)
	clear(priced)
	last := int32(-1) // the barcode of the last pair compared: a province's prices come barcode by barcode
	for _, b := range gp.prices.blocks {
		for i := range b {
			p := &b[i]
			priced[p.banner] = true
			nat := geo.pair(p)
			if nat.provinces < 2 {
				continue
			}
			regular.Add(p.regular / nat.regular)
			shelf.Add(p.price / nat.shelf)
			if !seen[p.banner] {
				seen[p.banner] = true
				gp.Banners++
			}
			if p.gtin != last {
				last = p.gtin
				gp.Products++
			}
			gp.Compared++
		}
	}
	if gp.Compared > 0 {
		gp.Index, gp.ShelfIndex = regular.Index(), shelf.Index()
	}
	// The stores of every banner pricing the selection, and of those
	// compared.
	for b, ok := range priced {
		if !ok {
			continue
		}
		n, err := stores(gp.Code, geo.banners[b])
		if err != nil {
			return err
		}
		gp.AllStores += n
		if seen[b] {
			gp.Stores += n
		}
	}
	return nil
}
