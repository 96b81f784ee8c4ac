package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// The snapshot analytics read the current offers: per province, the
// latest price of each banner SKU across the province's reference stores
// (observed within the last 14 days before the data set's latest date),
// with the number of stores that observed it. An average over stores
// weighs each offer by its store count, so a price seen at ten stores
// counts ten times one seen at one store.

// GeoPricesInput holds the arguments of GeographicPrices: exactly one of
// UPC or Category.
type GeoPricesInput struct {
	UPC      string `json:"upc,omitempty"`      // a barcode
	Category string `json:"category,omitempty"` // a catalogue category, case-insensitive
}

// GeoProvince is one province's prices in a GeoPricesResult.
type GeoProvince struct {
	Province   string  `json:"province"`
	Average    Cents   `json:"average"`     // store-weighted average shelf price
	Min        Cents   `json:"min"`         // lowest shelf price at any store
	Max        Cents   `json:"max"`         // highest shelf price at any store
	StoreCount int     `json:"store_count"` // store-level prices averaged: for one barcode, the stores that observed it
	Offers     int     `json:"offers"`      // banner SKU offers
	Products   int     `json:"products"`    // barcodes
	Index      float64 `json:"index"`       // like for like against the national average: 100 = average
}

// GeoPricesResult is the answer of GeographicPrices.
type GeoPricesResult struct {
	UPC       string        `json:"upc,omitempty"`
	Name      string        `json:"name,omitempty"` // the product's, with a UPC
	Category  string        `json:"category,omitempty"`
	National  *GeoProvince  `json:"national"`  // every province together (Province "CA", Index 100), or null when nothing was observed
	Provinces []GeoProvince `json:"provinces"` // by province code; only provinces with a current offer
	Currency  string        `json:"currency"`
	Basis     Basis         `json:"basis"`
}

// RegionalInput holds the arguments of RegionalComparison: a UPC, a
// Category, or neither for every product of the panel.
type RegionalInput struct {
	UPC      string `json:"upc,omitempty"`
	Category string `json:"category,omitempty"`
}

// RegionalProvince is one province's row of a RegionalResult.
type RegionalProvince struct {
	Province     string  `json:"province"`
	DeltaPct     float64 `json:"delta_pct"`    // price level against the national average, in percent (+3.5 = 3.5% dearer)
	Index        float64 `json:"index"`        // 100 + DeltaPct
	Products     int     `json:"products"`     // barcodes compared
	Stores       int     `json:"stores"`       // active reference stores of the banners priced
	Observations int     `json:"observations"` // store-level latest prices used
}

// RegionalResult is the answer of RegionalComparison.
type RegionalResult struct {
	UPC       string             `json:"upc,omitempty"`
	Category  string             `json:"category,omitempty"`
	Scope     string             `json:"scope"`     // "upc", "category" or "panel"
	Provinces []RegionalProvince `json:"provinces"` // by province code
	Basis     Basis              `json:"basis"`
}

// snapshot is what one read of the current offers gathers: per province
// and barcode, the store-weighted sums of its offers.
type snapshot struct {
	asOf    int32
	cells   map[string]map[string]*cell // province -> gtin -> cell
	banners map[[2]string]bool          // (province, banner) priced
	from    int32
	to      int32
	obs     int
}

type cell struct {
	sum      int64 // Σ price × stores
	stores   int64 // Σ stores
	min, max uint32
	offers   int
}

func (c *cell) avg() float64 { return float64(c.sum) / float64(c.stores) }

func newSnapshot(asOf int32) *snapshot {
	return &snapshot{asOf: asOf, cells: map[string]map[string]*cell{}, banners: map[[2]string]bool{}}
}

// current reports whether o is a current offer.
func (sn *snapshot) current(o *storage.Offer) bool {
	return o.ObservedAt > sn.asOf-freshDays && o.StoreCount > 0
}

func (sn *snapshot) add(province, gtin string, o *storage.Offer) {
	if !sn.current(o) {
		return
	}
	m := sn.cells[province]
	if m == nil {
		m = map[string]*cell{}
		sn.cells[province] = m
	}
	c := m[gtin]
	if c == nil {
		c = &cell{min: o.Min, max: o.Max}
		m[gtin] = c
	}
	c.sum += int64(o.Price) * int64(o.StoreCount)
	c.stores += int64(o.StoreCount)
	c.min, c.max = min(c.min, o.Min), max(c.max, o.Max)
	c.offers++
	sn.banners[[2]string{province, o.Banner}] = true
	sn.obs += int(o.StoreCount)
	if sn.from == 0 || o.ObservedAt < sn.from {
		sn.from = o.ObservedAt
	}
	sn.to = max(sn.to, o.ObservedAt)
}

// national returns each barcode's store-weighted national average.
func (sn *snapshot) national() map[string]*cell {
	nat := map[string]*cell{}
	for _, m := range sn.cells {
		for g, c := range m {
			n := nat[g]
			if n == nil {
				n = &cell{min: c.min, max: c.max}
				nat[g] = n
			}
			n.sum += c.sum
			n.stores += c.stores
			n.min, n.max = min(n.min, c.min), max(n.max, c.max)
			n.offers += c.offers
		}
	}
	return nat
}

// index returns a province's price level against the national averages:
// the cost of its basket (each barcode weighted by its store count in the
// province) at its own prices over the same basket at national average
// prices, times 100.
func index(m map[string]*cell, nat map[string]*cell) float64 {
	var own, ref float64
	for g, c := range m {
		own += float64(c.sum)
		ref += float64(c.stores) * nat[g].avg()
	}
	if ref == 0 {
		return 0
	}
	return round1(100 * own / ref)
}

// provincesOf returns the keys of m, sorted.
func provincesOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// basis fills the coverage of a snapshot: the provinces and banners
// priced, the days of the offers' latest observations, the active
// reference stores of the banners priced in their provinces.
func (sn *snapshot) basis(tx *storage.Tx, comparison string) (Basis, error) {
	b := Basis{Provinces: provincesOf(sn.cells), Banners: []string{}, Observations: sn.obs, Comparison: comparison}
	seen := map[string]bool{}
	for pb := range sn.banners {
		if !seen[pb[1]] {
			seen[pb[1]] = true
			b.Banners = append(b.Banners, pb[1])
		}
		n, err := tx.CountActiveStores(pb[0], pb[1])
		if err != nil {
			return b, err
		}
		b.Stores += n
	}
	slices.Sort(b.Banners)
	if sn.obs > 0 {
		from, to := Date(sn.from), Date(sn.to)
		b.From, b.To = &from, &to
	}
	return b, nil
}

// productFilter is the UPC-or-category choice of the geographic and
// regional analytics, checked against the catalogue.
type productFilter struct {
	gtin     GTIN
	category string          // the catalogue's spelling
	gtins    map[string]bool // the category's products
	product  storage.Product
}

func parseProductFilter(upc, category string, need bool) (GTIN, string, error) {
	upc, category = strings.TrimSpace(upc), strings.TrimSpace(category)
	switch {
	case upc != "" && category != "":
		return "", "", Errorf(EINVALID, "give upc or category, not both")
	case upc == "" && category == "" && need:
		return "", "", Errorf(EINVALID, "upc or category is required: a barcode or a catalogue category such as \"Dairy & Eggs\"")
	case len(category) > maxTextLen:
		return "", "", Errorf(EINVALID, "category is %d bytes long: want at most %d", len(category), maxTextLen)
	case upc != "":
		g, err := ParseGTIN(upc)
		return g, "", err
	}
	return "", category, nil
}

// resolve reads the product or the category's products. An unknown
// barcode is ENOTFOUND; an unknown category EINVALID naming the known ones.
func (f *productFilter) resolve(tx *storage.Tx, category string) error {
	if f.gtin != "" {
		found, err := tx.Product(string(f.gtin), &f.product)
		if err != nil {
			return err
		}
		if !found {
			return Errorf(ENOTFOUND, "upc %s is a valid barcode but not in the catalogue", f.gtin.UPC())
		}
		return nil
	}
	if category == "" {
		return nil
	}
	f.gtins = map[string]bool{}
	known := map[string]bool{}
	err := tx.ForEachProduct(func(p *storage.Product) error {
		known[p.Category] = true
		if strings.EqualFold(p.Category, category) {
			f.category = p.Category
			f.gtins[p.GTIN] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(f.gtins) == 0 {
		return Errorf(EINVALID, "category %q matches no product of the catalogue: want one of %s", category, strings.Join(provincesOf(known), ", "))
	}
	return nil
}

// read gathers the current offers f selects in every province: by
// seeking each barcode of a product or category, else by scanning.
func (f *productFilter) read(tx *storage.Tx, sn *snapshot) error {
	gtins := []string{string(f.gtin)}
	if f.gtins != nil {
		gtins = provincesOf(f.gtins)
	}
	for _, p := range provinces {
		var err error
		if f.gtin != "" || f.gtins != nil {
			for _, g := range gtins {
				err = tx.Offers(p.Code, g, func(o *storage.Offer) error {
					sn.add(p.Code, g, o)
					return nil
				})
				if err != nil {
					return err
				}
			}
		} else {
			err = tx.OffersIn(p.Code, func(g string, o *storage.Offer) error {
				if f.gtins == nil || f.gtins[g] {
					sn.add(p.Code, g, o)
				}
				return nil
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// GeographicPrices compares a product's (or a category's) current shelf
// prices province by province: the store-weighted average, the lowest
// and highest store price, how many store-level prices they rest on, and
// an index against the national average (100 = average). The index is
// like for like: each barcode's province average against its own national
// average, weighted by its store count in the province, so a category's
// index is not moved by which of its products a province carries.
// Average, Min and Max of a category mix its products' shelf prices.
//
// It returns EINVALID for neither or both of upc and category, a
// malformed barcode or a category the catalogue does not have (listing
// those it has), and ENOTFOUND for a barcode the catalogue does not know.
// A product observed nowhere gives no provinces and a Basis.Note saying so.
func (s *Service) GeographicPrices(ctx context.Context, in GeoPricesInput) (*GeoPricesResult, error) {
	gtin, category, err := parseProductFilter(in.UPC, in.Category, true)
	if err != nil {
		return nil, err
	}
	res := &GeoPricesResult{Provinces: []GeoProvince{}, Currency: Currency}
	err = s.db.View(func(tx *storage.Tx) error {
		f := productFilter{gtin: gtin}
		if err := f.resolve(tx, category); err != nil {
			return err
		}
		if gtin != "" {
			res.UPC, res.Name = gtin.UPC(), f.product.Name
		} else {
			res.Category = f.category
		}
		sn := newSnapshot(tx.AsOf())
		if err := f.read(tx, sn); err != nil {
			return err
		}
		nat := sn.national()
		all := &GeoProvince{Province: "CA", Index: 100}
		first := true
		for _, p := range provincesOf(sn.cells) {
			m := sn.cells[p]
			row := GeoProvince{Province: p, Products: len(m), Index: index(m, nat)}
			var sum, stores int64
			for _, c := range m {
				sum += c.sum
				stores += c.stores
				row.Offers += c.offers
				if row.Offers == c.offers {
					row.Min, row.Max = Cents(c.min), Cents(c.max)
				}
				row.Min, row.Max = min(row.Min, Cents(c.min)), max(row.Max, Cents(c.max))
			}
			row.Average = Cents(math.Round(float64(sum) / float64(stores)))
			row.StoreCount = int(stores)
			res.Provinces = append(res.Provinces, row)
			if first {
				all.Min, all.Max, first = row.Min, row.Max, false
			}
			all.Min, all.Max = min(all.Min, row.Min), max(all.Max, row.Max)
			all.Average += Cents(sum) // the sum until divided below
			all.StoreCount += row.StoreCount
			all.Offers += row.Offers
		}
		if all.StoreCount > 0 {
			all.Average = Cents(math.Round(float64(all.Average) / float64(all.StoreCount)))
			all.Products = len(nat)
			res.National = all
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		if len(res.Provinces) == 0 {
			res.Basis.Note = "no current offer of it was observed in the panel in any province (an absence from the panel is not proof it is not sold)"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// RegionalComparison gives each province's price level against the
// national average, in percent, for one product, one category or, with
// neither, every product of the panel: the same like-for-like index as
// GeographicPrices (each barcode against its national average, weighted
// by its store count in the province) minus 100, with the products,
// stores and store-level prices each province's figure rests on.
//
// It returns EINVALID for both upc and category, a malformed barcode or
// an unknown category, and ENOTFOUND for a barcode the catalogue does not
// know.
func (s *Service) RegionalComparison(ctx context.Context, in RegionalInput) (*RegionalResult, error) {
	gtin, category, err := parseProductFilter(in.UPC, in.Category, false)
	if err != nil {
		return nil, err
	}
	res := &RegionalResult{Scope: "panel", Provinces: []RegionalProvince{}}
	err = s.db.View(func(tx *storage.Tx) error {
		f := productFilter{gtin: gtin}
		if err := f.resolve(tx, category); err != nil {
			return err
		}
		switch {
		case gtin != "":
			res.UPC, res.Scope = gtin.UPC(), "upc"
		case category != "":
			res.Category, res.Scope = f.category, "category"
		}
		sn := newSnapshot(tx.AsOf())
		if err := f.read(tx, sn); err != nil {
			return err
		}
		nat := sn.national()
		for _, p := range provincesOf(sn.cells) {
			m := sn.cells[p]
			idx := index(m, nat)
			row := RegionalProvince{Province: p, Index: idx, DeltaPct: round1(idx - 100), Products: len(m)}
			for _, c := range m {
				row.Observations += int(c.stores)
			}
			for pb := range sn.banners {
				if pb[0] == p {
					n, err := tx.CountActiveStores(p, pb[1])
					if err != nil {
						return err
					}
					row.Stores += n
				}
			}
			res.Provinces = append(res.Provinces, row)
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		if len(res.Provinces) == 0 {
			res.Basis.Note = "no current offer was observed in the panel for this selection (an absence from the panel is not proof it is not sold)"
		} else if len(res.Provinces) == 1 {
			res.Basis.Note = "observed in one province only: it is its own national average"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// BenchmarkInput holds the arguments of CompetitiveBenchmark.
type BenchmarkInput struct {
	Banner   string `json:"banner"`
	Province string `json:"province"`
}

// BenchmarkRow is one banner's (or one category's) standing in a
// BenchmarkResult.
type BenchmarkRow struct {
	Banner     string  `json:"banner,omitempty"`
	BannerName string  `json:"banner_name,omitempty"`
	Category   string  `json:"category,omitempty"`
	Index      float64 `json:"index"`       // 100 × its basket at its prices ÷ the same basket at market average prices
	Rank       int     `json:"rank"`        // 1 = cheapest; equal indexes share a rank
	Shared     int     `json:"shared"`      // barcodes it shares with at least one competitor
	Total      Cents   `json:"total"`       // the shared basket at its prices (one of each)
	MarketCost Cents   `json:"market_cost"` // the same basket at market average prices
}

// BenchmarkResult is the answer of CompetitiveBenchmark.
type BenchmarkResult struct {
	Banner     string         `json:"banner"`
	BannerName string         `json:"banner_name"`
	Province   string         `json:"province"`
	Index      float64        `json:"index"`  // the banner's index, 0 when it shares nothing
	Rank       int            `json:"rank"`   // its rank among Ranking, 0 when unranked
	Shared     int            `json:"shared"` // barcodes of its basket
	Total      Cents          `json:"total"`  // its basket at its prices
	MarketCost Cents          `json:"market_cost"`
	Categories []BenchmarkRow `json:"categories"` // the banner per category, by category
	Ranking    []BenchmarkRow `json:"ranking"`    // every banner of the province, cheapest first
	Currency   string         `json:"currency"`
	Basis      Basis          `json:"basis"`
}

// CompetitiveBenchmark compares a banner's current prices in a province
// with the market on the barcodes it shares with competitors there. Per
// barcode, a banner's price is the store-weighted average of its current
// offers, and the market price the mean of the banners' prices (each
// banner counting once, the banner itself included). The index is 100 ×
// the shared basket (one of each barcode) at the banner's prices over the
// same basket at market prices: 95 is 5% cheaper than the market. Every
// banner of the province is indexed the same way on its own shared basket
// and ranked, cheapest first, equal indexes sharing a rank; Categories
// splits the banner's index by catalogue category.
//
// It returns EINVALID for an unknown banner or province. A banner with no
// current offer in the province, or sharing no barcode, gives an empty
// result whose Basis.Note says why.
func (s *Service) CompetitiveBenchmark(ctx context.Context, in BenchmarkInput) (*BenchmarkResult, error) {
	banner, err := ParseBanner(in.Banner)
	if err != nil {
		return nil, err
	}
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	res := &BenchmarkResult{Banner: banner.Slug, BannerName: banner.Name, Province: province,
		Categories: []BenchmarkRow{}, Ranking: []BenchmarkRow{}, Currency: Currency}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		sn := newSnapshot(asOf)
		type bprice struct {
			sum, stores int64
		}
		type rank struct{ own, market float64 }
		ranks := map[string]*rank{}
		cats := map[string]*rank{}
		shared := map[string]int{}
		catShared := map[string]int{}
		var gtin string
		prices := map[string]*bprice{}
		var order []string
		var p storage.Product
		flush := func() error {
			if len(prices) < 2 {
				return nil
			}
			var mkt float64
			for _, b := range order {
				bp := prices[b]
				mkt += math.Round(float64(bp.sum) / float64(bp.stores))
			}
			mkt /= float64(len(order))
			for _, b := range order {
				bp := prices[b]
				r := ranks[b]
				if r == nil {
					r = &rank{}
					ranks[b] = r
				}
				r.own += math.Round(float64(bp.sum) / float64(bp.stores))
				r.market += mkt
				shared[b]++
			}
			if bp := prices[banner.Slug]; bp != nil {
				if _, err := tx.Product(gtin, &p); err != nil {
					return err
				}
				c := cats[p.Category]
				if c == nil {
					c = &rank{}
					cats[p.Category] = c
				}
				c.own += math.Round(float64(bp.sum) / float64(bp.stores))
				c.market += mkt
				catShared[p.Category]++
			}
			return nil
		}
		err := tx.OffersIn(province, func(g string, o *storage.Offer) error {
			if !sn.current(o) {
				return nil
			}
			if g != gtin {
				if err := flush(); err != nil {
					return err
				}
				gtin, order = g, order[:0]
				clear(prices)
			}
			bp := prices[o.Banner]
			if bp == nil {
				bp = &bprice{}
				prices[o.Banner] = bp
				order = append(order, o.Banner)
			}
			bp.sum += int64(o.Price) * int64(o.StoreCount)
			bp.stores += int64(o.StoreCount)
			sn.add(province, g, o)
			return nil
		})
		if err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
		for b, r := range ranks {
			res.Ranking = append(res.Ranking, BenchmarkRow{Banner: b, BannerName: bannerName(b), Index: round1(100 * r.own / r.market),
				Shared: shared[b], Total: Cents(math.Round(r.own)), MarketCost: Cents(math.Round(r.market))})
		}
		slices.SortFunc(res.Ranking, func(a, b BenchmarkRow) int {
			return cmp.Or(cmp.Compare(a.Index, b.Index), cmp.Compare(a.Banner, b.Banner))
		})
		for i := range res.Ranking {
			res.Ranking[i].Rank = i + 1
			if i > 0 && res.Ranking[i].Index == res.Ranking[i-1].Index {
				res.Ranking[i].Rank = res.Ranking[i-1].Rank
			}
			if r := res.Ranking[i]; r.Banner == banner.Slug {
				res.Index, res.Rank, res.Shared, res.Total, res.MarketCost = r.Index, r.Rank, r.Shared, r.Total, r.MarketCost
			}
		}
		for c, r := range cats {
			res.Categories = append(res.Categories, BenchmarkRow{Category: c, Index: round1(100 * r.own / r.market),
				Shared: catShared[c], Total: Cents(math.Round(r.own)), MarketCost: Cents(math.Round(r.market))})
		}
		slices.SortFunc(res.Categories, func(a, b BenchmarkRow) int { return cmp.Compare(a.Category, b.Category) })
		sorted := slices.Clone(res.Categories)
		slices.SortStableFunc(sorted, func(a, b BenchmarkRow) int { return cmp.Compare(a.Index, b.Index) })
		for i := range sorted {
			sorted[i].Rank = i + 1
			if i > 0 && sorted[i].Index == sorted[i-1].Index {
				sorted[i].Rank = sorted[i-1].Rank
			}
		}
		for i := range res.Categories {
			for _, s := range sorted {
				if s.Category == res.Categories[i].Category {
					res.Categories[i].Rank = s.Rank
				}
			}
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		switch {
		case !sn.banners[[2]string{province, banner.Slug}] && !banner.OperatesIn(province):
			res.Basis.Note = fmt.Sprintf("%s does not operate in %s: no current offer of it was observed in the panel there", banner.Name, province)
		case !sn.banners[[2]string{province, banner.Slug}]:
			res.Basis.Note = fmt.Sprintf("no current offer of %s was observed in the panel in %s", banner.Name, province)
		case res.Shared == 0:
			res.Basis.Note = fmt.Sprintf("%s shares no barcode with another banner in the panel in %s: nothing to compare", banner.Name, province)
		default:
			res.Basis.Note = "categories rank the banner's categories against each other, cheapest first"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// BrandInput holds the arguments of BrandInsights.
type BrandInput struct {
	Brand    string `json:"brand"`              // a brand as the catalogue spells it, case- and accent-insensitive
	Province string `json:"province,omitempty"` // optional: one province
}

// BrandRow is the brand under one banner in one province.
type BrandRow struct {
	Province   string   `json:"province"`
	Banner     string   `json:"banner"`
	BannerName string   `json:"banner_name"`
	Products   int      `json:"products"`    // assortment breadth: the brand's barcodes with a current offer
	Stores     int      `json:"stores"`      // most stores observing one of its products
	Index      *float64 `json:"index"`       // unit price against its category's average in the province (100 = average), null when no size gives a unit price
	OnPromo    int      `json:"on_promo"`    // of Products, how many are on promotion now
	PromoShare float64  `json:"promo_share"` // OnPromo ÷ Products, in percent
	PromoDepth *float64 `json:"promo_depth"` // mean discount of those on promotion, percent off the regular price; null when none
}

// BrandResult is the answer of BrandInsights.
type BrandResult struct {
	Brand      string     `json:"brand"`      // as the catalogue spells it
	Catalogue  int        `json:"catalogue"`  // the brand's products in the catalogue
	Categories []string   `json:"categories"` // their categories, sorted
	Rows       []BrandRow `json:"rows"`       // by province, then banner
	Basis      Basis      `json:"basis"`
}

// BrandInsights describes a brand's current position in the panel, per
// banner and province: its assortment breadth (barcodes with a current
// offer), its price level against its categories, and its promotion
// frequency and depth.
//
// The price index compares unit prices (per 100 g, per 100 mL, per unit)
// so that sizes do not matter: for each of the brand's offers, its unit
// price over the store-weighted average unit price of the offers of its
// category with the same unit basis in the province (every brand and
// banner), averaged over the row's offers, times 100. Promotion frequency
// and depth are read from the current offers' promotion state, not from
// the history: the share of the row's products on promotion now and their
// mean discount off the regular price.
//
// It returns EINVALID for a missing brand, a brand no product of the
// catalogue carries, or an unknown province. A brand with no current
// offer gives no rows and a Basis.Note saying so.
func (s *Service) BrandInsights(ctx context.Context, in BrandInput) (*BrandResult, error) {
	brand := strings.TrimSpace(in.Brand)
	if brand == "" {
		return nil, Errorf(EINVALID, "brand is required: a brand as the catalogue spells it, e.g. Natrel")
	}
	if len(brand) > maxTextLen {
		return nil, Errorf(EINVALID, "brand is %d bytes long: want at most %d", len(brand), maxTextLen)
	}
	var only string
	if strings.TrimSpace(in.Province) != "" {
		p, err := ParseProvince(in.Province)
		if err != nil {
			return nil, err
		}
		only = p
	}
	key := foldKey(brand)
	res := &BrandResult{Categories: []string{}, Rows: []BrandRow{}}
	err := s.db.View(func(tx *storage.Tx) error {
		type info struct {
			category, basis string
			qty             float64
			brand           bool
		}
		prods := map[string]*info{}
		cats := map[string]bool{}
		err := tx.ForEachProduct(func(p *storage.Product) error {
			if foldKey(p.Brand) == key {
				res.Brand = p.Brand
				res.Catalogue++
				cats[p.Category] = true
				q, b := unitOf(p.Size)
				prods[p.GTIN] = &info{category: p.Category, basis: b, qty: q, brand: true}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if res.Catalogue == 0 {
			return Errorf(EINVALID, "brand %q matches no product of the catalogue: give a brand as search_products shows it", brand)
		}
		// The other products of the brand's categories: the reference.
		err = tx.ForEachProduct(func(p *storage.Product) error {
			if cats[p.Category] && prods[p.GTIN] == nil {
				q, b := unitOf(p.Size)
				prods[p.GTIN] = &info{category: p.Category, basis: b, qty: q}
			}
			return nil
		})
		if err != nil {
			return err
		}
		res.Categories = provincesOf(cats)
		sn := newSnapshot(tx.AsOf())
		type ref struct{ sum, stores float64 }
		type rowAcc struct {
			row       BrandRow
			products  map[string]bool
			promo     map[string]bool
			depth     float64
			ratios    []float64 // unit price of each offer, divided later
			ratioKeys []string  // category 0x00 basis of each
		}
		for _, pv := range provinces {
			if only != "" && pv.Code != only {
				continue
			}
			refs := map[string]*ref{}
			rows := map[string]*rowAcc{}
			err := tx.OffersIn(pv.Code, func(g string, o *storage.Offer) error {
				in := prods[g]
				if in == nil || !sn.current(o) {
					return nil
				}
				var unit float64
				rk := in.category + "\x00" + in.basis
				if in.qty > 0 {
					unit = float64(o.Price) / in.qty
					r := refs[rk]
					if r == nil {
						r = &ref{}
						refs[rk] = r
					}
					r.sum += unit * float64(o.StoreCount)
					r.stores += float64(o.StoreCount)
				}
				if !in.brand {
					return nil
				}
				sn.add(pv.Code, g, o)
				a := rows[o.Banner]
				if a == nil {
					a = &rowAcc{row: BrandRow{Province: pv.Code, Banner: o.Banner, BannerName: bannerName(o.Banner)},
						products: map[string]bool{}, promo: map[string]bool{}}
					rows[o.Banner] = a
				}
				a.products[g] = true
				a.row.Stores = max(a.row.Stores, int(o.StoreCount))
				if o.Price < o.Regular && !a.promo[g] {
					a.promo[g] = true
					a.depth += 100 * float64(o.Regular-o.Price) / float64(o.Regular)
				}
				if in.qty > 0 {
					a.ratios = append(a.ratios, unit)
					a.ratioKeys = append(a.ratioKeys, rk)
				}
				return nil
			})
			if err != nil {
				return err
			}
			for _, b := range provincesOf(rows) {
				a := rows[b]
				a.row.Products, a.row.OnPromo = len(a.products), len(a.promo)
				a.row.PromoShare = round1(100 * float64(a.row.OnPromo) / float64(a.row.Products))
				if a.row.OnPromo > 0 {
					d := round1(a.depth / float64(a.row.OnPromo))
					a.row.PromoDepth = &d
				}
				if len(a.ratios) > 0 {
					var sum float64
					for i, u := range a.ratios {
						r := refs[a.ratioKeys[i]]
						sum += u / (r.sum / r.stores)
					}
					idx := round1(100 * sum / float64(len(a.ratios)))
					a.row.Index = &idx
				}
				res.Rows = append(res.Rows, a.row)
			}
		}
		res.Basis, err = sn.basis(tx, CompareUnitPrice)
		if err != nil {
			return err
		}
		switch {
		case len(res.Rows) == 0 && only != "":
			res.Basis.Note = fmt.Sprintf("no current offer of %s was observed in the panel in %s (an absence from the panel is not proof it is not sold)", res.Brand, only)
		case len(res.Rows) == 0:
			res.Basis.Note = fmt.Sprintf("no current offer of %s was observed in the panel (an absence from the panel is not proof it is not sold)", res.Brand)
		default:
			res.Basis.Note = "promotion frequency and depth are those of the current offers, not of the history"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// MaxBasketItems bounds the items of a basket.
const MaxBasketItems = 100

// BasketItemInput is one line of a basket: a barcode or a product name,
// and how many.
type BasketItemInput struct {
	UPC      string `json:"upc,omitempty"`
	Name     string `json:"name,omitempty"` // words of a product name or brand, resolved as search_products ranks them
	Quantity int    `json:"quantity"`       // 1..99
}

// BasketInput holds the arguments of CompareBasket.
type BasketInput struct {
	Province string            `json:"province"`
	Items    []BasketItemInput `json:"items"` // 1..100
}

// BasketMatch says how a name was resolved: the product chosen, its
// score, and the runner-up.
type BasketMatch struct {
	Score      int           `json:"score"`      // of the best match: per word of the name, 4 exact in the name, 3 exact in the brand, 2 prefix in the name, 1 prefix in the brand
	MaxScore   int           `json:"max_score"`  // 4 × words: every word exact in the name
	Confidence float64       `json:"confidence"` // Score ÷ MaxScore, 0..1
	Candidates int           `json:"candidates"` // products matching every word
	RunnerUp   *BasketRunner `json:"runner_up"`  // the second best match, or null when it was the only one
}

// BasketRunner is the second best match of a name.
type BasketRunner struct {
	UPC   string `json:"upc"`
	Name  string `json:"name"`
	Brand string `json:"brand"`
	Size  string `json:"size"`
	Score int    `json:"score"`
}

// BasketItem is one resolved line of a BasketResult.
type BasketItem struct {
	Item     int          `json:"item"`  // its position in the request, from 0
	Query    string       `json:"query"` // the upc or name asked for
	Found    bool         `json:"found"` // false: no product of the catalogue matched; the item is left out of every total
	UPC      string       `json:"upc,omitempty"`
	Name     string       `json:"name,omitempty"`
	Brand    string       `json:"brand,omitempty"`
	Size     string       `json:"size,omitempty"`
	Category string       `json:"category,omitempty"`
	Quantity int          `json:"quantity"`
	Match    *BasketMatch `json:"match,omitempty"` // for an item given by name
}

// BasketLine is one item's price at one banner.
type BasketLine struct {
	Item           int     `json:"item"`
	ExternalSKU    string  `json:"external_sku"`
	Price          Cents   `json:"price"`      // the shelf price of one pack of the product priced
	Packs          int     `json:"packs"`      // packs bought: the item's quantity, or for a substitute as many packs as cover the amount asked for
	LineTotal      Cents   `json:"line_total"` // Price × Packs
	OnPromo        bool    `json:"on_promo"`
	Substitute     bool    `json:"substitute"`
	UPC            string  `json:"upc"` // the product priced: the item's, or its substitute's
	Name           string  `json:"name"`
	Size           string  `json:"size"`
	ShelfPrice     Cents   `json:"shelf_price"` // the product's own shelf price (= Price)
	StoreCount     int     `json:"store_count"` // stores that observed the price
	UnitPrice      *Cents  `json:"unit_price,omitempty"`
	UnitPriceBasis string  `json:"unit_price_basis,omitempty"`
	Wanted         float64 `json:"wanted,omitempty"`  // for a substitute: the amount asked for (quantity × the item's size), in CoveredUnit
	Covered        float64 `json:"covered,omitempty"` // for a substitute: the amount bought (Packs × its size), in CoveredUnit
	CoveredUnit    string  `json:"covered_unit,omitempty"`
}

// BasketBanner is the basket at one banner.
type BasketBanner struct {
	Banner      string       `json:"banner"`
	BannerName  string       `json:"banner_name"`
	Total       Cents        `json:"total"`       // the items it prices
	Complete    bool         `json:"complete"`    // every found item priced, directly or by a substitute
	Priced      int          `json:"priced"`      // items priced
	Lacking     []int        `json:"lacking"`     // items not observed in the panel at this banner, no substitute either
	Substitutes int          `json:"substitutes"` // items priced through a substitute
	Lines       []BasketLine `json:"lines"`
}

// BasketChoice is the cheapest or dearest complete basket.
type BasketChoice struct {
	Banners []string `json:"banners"` // one banner, or two for a split
	Total   Cents    `json:"total"`
	Items   []string `json:"items,omitempty"` // for a split: the banner of each found item, by item
}

// BasketResult is the answer of CompareBasket.
type BasketResult struct {
	Province      string         `json:"province"`
	Items         []BasketItem   `json:"items"`
	Banners       []BasketBanner `json:"banners"`        // complete baskets first, cheapest first
	Cheapest      *BasketChoice  `json:"cheapest"`       // cheapest complete basket at one banner, or null
	CheapestSplit *BasketChoice  `json:"cheapest_split"` // cheapest complete basket across two banners, or null
	Dearest       *BasketChoice  `json:"dearest"`        // dearest complete basket at one banner, or null
	Savings       Cents          `json:"savings"`        // Dearest - Cheapest (0 without both)
	SavingsPct    float64        `json:"savings_pct"`    // Savings ÷ Dearest, in percent
	SplitSavings  Cents          `json:"split_savings"`  // Dearest - CheapestSplit (0 without both)
	Currency      string         `json:"currency"`
	Basis         Basis          `json:"basis"`
}

// CompareBasket prices a basket at every banner of a province from the
// current offers. Each item is a barcode or a name; a name resolves as
// SearchProducts ranks it (every word must match; exact words beat
// prefixes, name words beat brand words, then fewer words in the product),
// and the answer gives the product chosen, its score and the runner-up.
// An item whose barcode or name matches no product is reported (Found
// false) and left out of every total.
//
// A banner's price of a barcode is its cheapest current offer in the
// province: the offer's price, the most common price among its stores,
// which is what a shopper pays at the till. A banner with no current
// offer of an item gets a substitute when the panel has one (see
// chooseSubstitute): it is bought in whole packs at its shelf price, as
// many as cover the amount asked for, and the line says the packs, the
// amount asked for and covered, and the unit price; Basis.Comparison is
// then "unit_price". Otherwise the item is lacking at the banner: not
// observed in the panel there.
//
// Cheapest and Dearest are complete baskets at one banner; CheapestSplit
// takes each item at the cheaper of two banners.
//
// It returns EINVALID for an unknown province, no items or more than
// 100, an item with neither or both of upc and name, a malformed barcode,
// a name without words or of more than 8 words, or a quantity outside
// 1..99, naming the item (items[2].quantity).
func (s *Service) CompareBasket(ctx context.Context, in BasketInput) (*BasketResult, error) {
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	switch {
	case len(in.Items) == 0:
		return nil, Errorf(EINVALID, "items is required: 1 to %d items, each {upc or name, quantity}", MaxBasketItems)
	case len(in.Items) > MaxBasketItems:
		return nil, Errorf(EINVALID, "items has %d items: want at most %d", len(in.Items), MaxBasketItems)
	}
	type parsed struct {
		gtin  GTIN
		words []string
	}
	items := make([]parsed, len(in.Items))
	for i, it := range in.Items {
		upc, name := strings.TrimSpace(it.UPC), strings.TrimSpace(it.Name)
		switch {
		case upc == "" && name == "":
			return nil, Errorf(EINVALID, "items[%d]: upc or name is required", i)
		case upc != "" && name != "":
			return nil, Errorf(EINVALID, "items[%d]: give upc or name, not both", i)
		case it.Quantity < 1 || it.Quantity > 99:
			return nil, Errorf(EINVALID, "items[%d].quantity %d is out of range: want 1 to 99", i, it.Quantity)
		case upc != "":
			g, err := ParseGTIN(upc)
			if err != nil {
				return nil, Errorf(EINVALID, "items[%d].upc: %s", i, ErrorMessage(err))
			}
			items[i].gtin = g
		default:
			w := tokens(name)
			if len(w) == 0 || len(w) > 8 {
				return nil, Errorf(EINVALID, "items[%d].name %q: want 1 to 8 words of a product name or brand", i, name)
			}
			items[i].words = w
		}
	}
	res := &BasketResult{Province: province, Items: make([]BasketItem, len(in.Items)), Banners: []BasketBanner{}, Currency: Currency}
	err = s.db.View(func(tx *storage.Tx) error {
		sn := newSnapshot(tx.AsOf())
		prods := map[string]*storage.Product{}
		product := func(g string) (*storage.Product, error) {
			if p := prods[g]; p != nil {
				return p, nil
			}
			p := &storage.Product{}
			found, err := tx.Product(g, p)
			if err != nil || !found {
				return nil, err
			}
			prods[g] = p
			return p, nil
		}
		// Resolve the items.
		for i, it := range items {
			bi := &res.Items[i]
			bi.Item, bi.Quantity = i, in.Items[i].Quantity
			bi.Query = strings.TrimSpace(in.Items[i].UPC)
			g := string(it.gtin)
			if it.words != nil {
				bi.Query = strings.TrimSpace(in.Items[i].Name)
				hits, err := match(tx, province, it.words)
				if err != nil {
					return err
				}
				if len(hits) == 0 {
					continue
				}
				g = string(hits[0].gtin[:])
				m := &BasketMatch{Score: hits[0].score(), MaxScore: 4 * len(it.words), Candidates: len(hits)}
				m.Confidence = math.Round(100*float64(m.Score)/float64(m.MaxScore)) / 100
				if len(hits) > 1 {
					rg := string(hits[1].gtin[:])
					rp, err := product(rg)
					if err != nil {
						return err
					}
					m.RunnerUp = &BasketRunner{UPC: GTIN(rg).UPC(), Score: hits[1].score()}
					if rp != nil {
						m.RunnerUp.Name, m.RunnerUp.Brand, m.RunnerUp.Size = rp.Name, rp.Brand, rp.Size
					}
				}
				bi.Match = m
			}
			p, err := product(g)
			if err != nil {
				return err
			}
			if p == nil {
				continue
			}
			bi.Found = true
			bi.UPC, bi.Name, bi.Brand, bi.Size, bi.Category = GTIN(g).UPC(), p.Name, p.Brand, p.Size, p.Category
		}
		// Each banner's cheapest current offer of each barcode.
		type price struct {
			o    storage.Offer
			gtin string
		}
		offersOf := map[string]map[string]price{} // gtin -> banner -> cheapest
		read := func(g string) (map[string]price, error) {
			if m, ok := offersOf[g]; ok {
				return m, nil
			}
			m := map[string]price{}
			err := tx.Offers(province, g, func(o *storage.Offer) error {
				if !sn.current(o) {
					return nil
				}
				if cur, ok := m[o.Banner]; !ok || o.Price < cur.o.Price {
					m[o.Banner] = price{*o, g}
				}
				return nil
			})
			offersOf[g] = m
			return m, err
		}
		bannerSet := map[string]bool{}
		for i := range res.Items {
			if !res.Items[i].Found {
				continue
			}
			m, err := read(string(mustGTIN(res.Items[i].UPC)))
			if err != nil {
				return err
			}
			for b := range m {
				bannerSet[b] = true
			}
		}
		// Substitutes come from the products of the items' categories.
		var byCategory map[string][]string
		substitute := func(item *BasketItem, banner string) (*price, *storage.Product, int, error) {
			qty, basis := unitOf(item.Size)
			if qty == 0 {
				return nil, nil, 0, nil
			}
			if byCategory == nil {
				byCategory = map[string][]string{}
				cats := map[string]bool{}
				for _, it := range res.Items {
					if it.Found {
						cats[it.Category] = true
					}
				}
				err := tx.ForEachProduct(func(p *storage.Product) error {
					if cats[p.Category] {
						byCategory[p.Category] = append(byCategory[p.Category], p.GTIN)
						cp := *p
						prods[p.GTIN] = &cp
					}
					return nil
				})
				if err != nil {
					return nil, nil, 0, err
				}
			}
			var cands []substituteCandidate
			var offers []price
			for _, g := range byCategory[item.Category] {
				if g == string(mustGTIN(item.UPC)) {
					continue
				}
				q, b := unitOf(prods[g].Size)
				if b != basis || !fitsSubstitute(qty, q) {
					continue
				}
				m, err := read(g)
				if err != nil {
					return nil, nil, 0, err
				}
				if pr, ok := m[banner]; ok {
					cands = append(cands, substituteCandidate{Size: q, Price: Cents(pr.o.Price)})
					offers = append(offers, pr)
				}
			}
			i, packs := chooseSubstitute(qty, item.Quantity, cands)
			if i < 0 {
				return nil, nil, 0, nil
			}
			return &offers[i], prods[offers[i].gtin], packs, nil
		}
		banners := provincesOf(bannerSet)
		found := 0
		for _, it := range res.Items {
			if it.Found {
				found++
			}
		}
		usedSub := false
		for _, b := range banners {
			bb := BasketBanner{Banner: b, BannerName: bannerName(b), Lacking: []int{}, Lines: []BasketLine{}}
			for i := range res.Items {
				it := &res.Items[i]
				if !it.Found {
					continue
				}
				g := string(mustGTIN(it.UPC))
				pr, ok := offersOf[g][b]
				line := BasketLine{Item: i, Packs: it.Quantity}
				size := it.Size
				if ok {
					line.UPC, line.Name, line.Size = it.UPC, it.Name, it.Size
				} else {
					sp, p, packs, err := substitute(it, b)
					if err != nil {
						return err
					}
					if sp == nil {
						bb.Lacking = append(bb.Lacking, i)
						continue
					}
					pr, size = *sp, p.Size
					line.Substitute, line.Packs = true, packs
					line.UPC, line.Name, line.Size = GTIN(sp.gtin).UPC(), p.Name, p.Size
					itemQty, basis := unitOf(it.Size)
					subQty, _ := unitOf(p.Size)
					scale, unit := amountUnit(basis)
					line.Wanted = float64(it.Quantity) * itemQty * scale
					line.Covered = float64(packs) * subQty * scale
					line.CoveredUnit = unit
					bb.Substitutes++
					usedSub = true
				}
				line.Price = Cents(pr.o.Price)
				line.ExternalSKU, line.OnPromo, line.ShelfPrice = pr.o.SKU, pr.o.Price < pr.o.Regular, Cents(pr.o.Price)
				if q, basis := unitOf(size); q > 0 {
					u := Cents(math.Round(float64(pr.o.Price) / q))
					line.UnitPrice, line.UnitPriceBasis = &u, basis
				}
				line.StoreCount = int(pr.o.StoreCount)
				line.LineTotal = line.Price * Cents(line.Packs)
				bb.Total += line.LineTotal
				bb.Priced++
				bb.Lines = append(bb.Lines, line)
				sn.add(province, pr.gtin, &pr.o)
			}
			bb.Complete = found > 0 && bb.Priced == found
			res.Banners = append(res.Banners, bb)
		}
		slices.SortStableFunc(res.Banners, func(a, b BasketBanner) int {
			if a.Complete != b.Complete {
				if a.Complete {
					return -1
				}
				return 1
			}
			return cmp.Or(cmp.Compare(b.Priced, a.Priced), cmp.Compare(a.Total, b.Total), cmp.Compare(a.Banner, b.Banner))
		})
		for _, bb := range res.Banners {
			if !bb.Complete {
				continue
			}
			if res.Cheapest == nil {
				res.Cheapest = &BasketChoice{Banners: []string{bb.Banner}, Total: bb.Total}
			}
			res.Dearest = &BasketChoice{Banners: []string{bb.Banner}, Total: bb.Total}
		}
		res.CheapestSplit = cheapestSplit(res.Items, res.Banners)
		if res.Dearest != nil && res.Dearest.Total > 0 {
			res.Savings = res.Dearest.Total - res.Cheapest.Total
			res.SavingsPct = round1(100 * float64(res.Savings) / float64(res.Dearest.Total))
			if res.CheapestSplit != nil {
				res.SplitSavings = res.Dearest.Total - res.CheapestSplit.Total
			}
		}
		comparison := CompareSameBarcode
		if usedSub {
			comparison = CompareUnitPrice
		}
		res.Basis, err = sn.basis(tx, comparison)
		if err != nil {
			return err
		}
		var notes []string
		if n := len(res.Items) - found; n > 0 {
			notes = append(notes, fmt.Sprintf("%d of %d items matched no product of the catalogue and are left out", n, len(res.Items)))
		}
		switch {
		case found > 0 && len(res.Banners) == 0:
			notes = append(notes, "no item was observed in the panel in "+province+" at any banner")
		case found > 0 && res.Cheapest == nil:
			notes = append(notes, "no banner has every item in the panel (lacking items are not observed in the panel there, which is no proof they are not sold)")
		}
		if usedSub {
			notes = append(notes, "a substitute is bought in whole packs: as many as cover the amount asked for")
		}
		res.Basis.Note = strings.Join(notes, "; ")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// substituteCandidate is a product that may stand in for a lacking item:
// its size in units of the item's price basis, and its shelf price.
type substituteCandidate struct {
	Size  float64 // units of the basis: 100 g, 100 mL or one unit
	Price Cents
}

// chooseSubstitute picks the substitute of an item of size itemSize
// (units of its price basis) wanted quantity times, among candidates of
// the same category and basis: those from half to twice the item's size,
// the closest in size (by the ratio of sizes), then the cheapest by unit
// price, then the first. It returns the candidate's index and how many
// packs of it cover quantity × itemSize (rounded up), or -1 when none
// fits.
func chooseSubstitute(itemSize float64, quantity int, cands []substituteCandidate) (best, packs int) {
	best = -1
	var bestDist, bestUnit float64
	for i, c := range cands {
		if !fitsSubstitute(itemSize, c.Size) {
			continue
		}
		dist := math.Abs(math.Log(c.Size / itemSize))
		unit := float64(c.Price) / c.Size
		if best < 0 || dist < bestDist-1e-9 || math.Abs(dist-bestDist) <= 1e-9 && unit < bestUnit {
			best, bestDist, bestUnit = i, dist, unit
		}
	}
	if best < 0 {
		return -1, 0
	}
	// A small tolerance, so that 3 × 1.33 L covered by 4 L packs is one
	// pack and not two because of the float.
	return best, int(math.Ceil(float64(quantity)*itemSize/cands[best].Size - 1e-9))
}

// fitsSubstitute reports whether a product of size may stand in for an
// item of itemSize: from half to twice its size.
func fitsSubstitute(itemSize, size float64) bool { return size >= itemSize/2 && size <= itemSize*2 }

// amountUnit returns the factor from units of a price basis to the
// natural unit it counts (g, mL or unit), and that unit's name.
func amountUnit(basis string) (float64, string) {
	switch basis {
	case "per 100 g":
		return 100, "g"
	case "per 100 mL":
		return 100, "mL"
	}
	return 1, "unit"
}

// mustGTIN converts a UPC the service itself formatted back to its GTIN.
func mustGTIN(upc string) GTIN {
	g, _ := ParseGTIN(upc)
	return g
}

// cheapestSplit returns the cheapest complete basket taking each found
// item at the cheaper of two banners (ties to the first banner by slug),
// or nil when no pair of banners covers every item.
func cheapestSplit(items []BasketItem, banners []BasketBanner) *BasketChoice {
	type lineOf = map[int]Cents
	per := make([]lineOf, len(banners))
	for i, bb := range banners {
		per[i] = lineOf{}
		for _, l := range bb.Lines {
			per[i][l.Item] = l.LineTotal
		}
	}
	var best *BasketChoice
	for i := range banners {
		for j := range banners {
			if j <= i {
				continue
			}
			a, b := i, j
			if banners[b].Banner < banners[a].Banner {
				a, b = b, a
			}
			var total Cents
			who := make([]string, 0, len(items))
			ok, any := true, false
			for _, it := range items {
				if !it.Found {
					continue
				}
				any = true
				pa, okA := per[a][it.Item]
				pb, okB := per[b][it.Item]
				switch {
				case okA && (!okB || pa <= pb):
					total += pa
					who = append(who, banners[a].Banner)
				case okB:
					total += pb
					who = append(who, banners[b].Banner)
				default:
					ok = false
				}
			}
			if !ok || !any {
				continue
			}
			if best == nil || total < best.Total || total == best.Total && banners[a].Banner+banners[b].Banner < best.Banners[0]+best.Banners[1] {
				best = &BasketChoice{Banners: []string{banners[a].Banner, banners[b].Banner}, Total: total, Items: who}
			}
		}
	}
	return best
}
