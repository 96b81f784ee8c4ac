package grocery

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/regional"
	"github.com/grocerydata/grocery/storage"
)

// GeoPricesInput holds the arguments of GeographicPrices: exactly one of
// UPC or Category.
type GeoPricesInput struct {
	UPC      string `json:"upc,omitempty"`      // a barcode
	Category string `json:"category,omitempty"` // a catalogue category, case-insensitive
}

// GeoProvince is one province's prices in a GeoPricesResult, or the
// national row. The OpenAPI document (GET /openapi.json, schema
// GeoProvince) defines each figure in words and as a formula.
type GeoProvince struct {
	Province     string   `json:"province"`      // a province code, or "CA" for the national row
	Price        *Cents   `json:"price"`         // with a UPC: the province price (median of the banner prices), or the national price; null for a category
	Average      *Cents   `json:"average"`       // with a UPC: mean of the current banner prices (national row: the provinces' averages weighted by population); null for a category, whose provinces price different products
	Min          Cents    `json:"min"`           // lowest current banner price
	Max          Cents    `json:"max"`           // highest current banner price
	BannerPrices int      `json:"banner_prices"` // current (banner, barcode) prices the levels rest on
	Index        *float64 `json:"index"`         // regular prices: 100 × geomean over the banner-product pairs of the province's price ÷ the pair's national price; 100 on the national row; null when no pair is compared (Pairs 0)
	ShelfIndex   *float64 `json:"shelf_index"`   // Index with shelf prices (promotions included)
	Pairs        int      `json:"pairs"`         // banner-product pairs the index compares (priced in this and at least one other province)
	Banners      int      `json:"banners"`       // banners of those pairs
	Products     int      `json:"products"`      // barcodes of those pairs
	Stores       int      `json:"stores"`        // active reference stores of those banners in the province
	Thin         bool     `json:"thin"`          // Stores < ThinStores
	LowSample    bool     `json:"low_sample"`    // Products, Stores or Banners under the minimums (MinSampleProducts, MinSampleStores, MinSampleBanners)
}

// GeoPricesResult is the answer of GeographicPrices.
type GeoPricesResult struct {
	UPC       string        `json:"upc,omitempty"`
	Name      string        `json:"name,omitempty"` // the product's, with a UPC
	Category  string        `json:"category,omitempty"`
	National  *GeoProvince  `json:"national"`  // every province together (Province "CA", Index 100), or null when nothing was priced
	Provinces []GeoProvince `json:"provinces"` // by province code; only provinces with a current price
	Currency  string        `json:"currency"`
	Basis     Basis         `json:"basis"`
	// Benchmarks are Statistics Canada's monthly averages of the
	// product's type (or the category), when imported: a comparison, not
	// the panel's prices; BenchmarkNote carries StatCan's caveat.
	Benchmarks    []GeoBenchmark `json:"benchmarks,omitempty"`
	BenchmarkNote string         `json:"benchmark_note,omitempty"`
}

// RegionalInput holds the arguments of RegionalComparison: a UPC, a
// Category, or neither for every product of the panel.
type RegionalInput struct {
	UPC      string `json:"upc,omitempty"`
	Category string `json:"category,omitempty"`
}

// RegionalProvince is one province's row of a RegionalResult. The
// OpenAPI document (schema RegionalProvince) defines each figure.
type RegionalProvince struct {
	Province      string   `json:"province"`
	DeltaPct      *float64 `json:"delta_pct"`       // Index − 100 from the exact index, in percent (+3.5 = 3.5% dearer); null as Index
	Index         *float64 `json:"index"`           // as GeoProvince.Index: regular prices, banner for banner; null when no pair is compared (Pairs 0)
	ShelfDeltaPct *float64 `json:"shelf_delta_pct"` // ShelfIndex − 100
	ShelfIndex    *float64 `json:"shelf_index"`     // as GeoProvince.ShelfIndex
	Pairs         int      `json:"pairs"`           // banner-product pairs compared
	Banners       int      `json:"banners"`         // banners of those pairs
	Products      int      `json:"products"`        // barcodes of those pairs
	Stores        int      `json:"stores"`          // active reference stores of those banners in the province
	Thin          bool     `json:"thin"`            // Stores < ThinStores
	LowSample     bool     `json:"low_sample"`      // as GeoProvince.LowSample
	Observations  int      `json:"observations"`    // store-level prices behind the province's banner prices (the offers' stores on their latest day)
}

// RegionalResult is the answer of RegionalComparison.
type RegionalResult struct {
	UPC       string             `json:"upc,omitempty"`
	Category  string             `json:"category,omitempty"`
	Scope     string             `json:"scope"`     // "upc", "category" or "panel"
	Provinces []RegionalProvince `json:"provinces"` // by province code
	Basis     Basis              `json:"basis"`
}

// ThinStores is the number of active reference stores under which a
// province's figures are flagged thin: they rest on one or two stores.
const ThinStores = 3

// The minimums of a sample: a regional, geographic or category figure
// resting on fewer products, reference stores or banners is flagged
// low_sample (with its counts) and the brief takes no headline from it.
// A figure of one barcode needs that barcode only; a figure whose stores
// are not counted (a category's week-over-week change) needs products
// and banners.
const (
	MinSampleProducts = 5          // barcodes (a category or panel figure)
	MinSampleStores   = ThinStores // active reference stores
	MinSampleBanners  = 2          // banners
)

// lowSample reports whether counts fall under the minimums; minProducts
// is MinSampleProducts, or 1 for a figure of one barcode.
func lowSample(products, stores, banners, minProducts int) bool {
	return products < minProducts || stores < MinSampleStores || banners < MinSampleBanners
}

// The geography of prices (the OpenAPI document defines it), banner for
// banner: a (banner, barcode) pair's price in a province is the banner's
// current price of the barcode there (compare.go: its lowest price in
// force, shelf and regular); the pair's national price is the mean of its
// province prices weighted by the provinces' populations
// (Province.Population), over the provinces where the banner prices it. A
// province's index is 100 × the geometric mean, over its pairs priced in
// at least one other province too, of province price ÷ national price (a
// Jevons index: expensive items weigh no more than cheap ones, and each
// banner is compared with itself, so a province is not dearer for the
// banners it has). Regular prices give Index, shelf prices ShelfIndex. A
// pair priced in one province only compares nothing (its national price
// is its own) and is left out; a province with no pair left has index 100
// on no pair, flagged low_sample.
//
// The levels of a row (Price, Average, Min, Max) describe the banner
// prices as they are: a barcode's province price is the median of its
// banner prices in the province, its national price the provinces'
// prices weighted by population.

// geography reads the selection's current prices in every province into
// a regional.Geography, in one read transaction, and computes it.
func (f *productFilter) geography(tx *storage.Tx, sn *snapshot) (*regional.Geography, error) {
	var gtins []string
	switch {
	case f.gtin != "":
		gtins = []string{string(f.gtin)}
	case f.gtins != nil:
		gtins = f.gtins
	}
	geo := regional.New(f.gtin != "", len(gtins))
	prices := make([]market.Price, 0, 32)
	for _, pv := range provinces {
		gp := geo.Start(pv.Code, float64(pv.Population))
		var err error
		if gtins != nil {
			err = seekEachPrices(tx, sn, pv.Code, gtins, prices, func(at int, _ string, ps []market.Price, obs int) error {
				geo.AddAt(gp, at, ps, obs)
				return nil
			})
		} else {
			err = scanPrices(tx, sn, pv.Code, func(g string, ps []market.Price, obs int) error {
				geo.Add(gp, g, ps, obs)
				return nil
			})
		}
		if err != nil {
			return nil, err
		}
	}
	err := geo.Compute(func(province, banner string) (int, error) { return sn.activeStores(tx, province, banner) })
	return geo, err
}

// geoRow writes a province's GeoProvince; minProducts as lowSample's.
func geoRow(gp *regional.Province, minProducts int) GeoProvince {
	row := GeoProvince{Province: gp.Code, Min: Cents(pricestat.Cents(gp.Lo)), Max: Cents(pricestat.Cents(gp.Hi)), BannerPrices: gp.N, Pairs: gp.Compared,
		Banners: gp.Banners, Products: gp.Products, Stores: gp.Stores, Thin: gp.Stores < ThinStores,
		LowSample: lowSample(gp.Products, gp.Stores, gp.Banners, minProducts)}
	if gp.Compared > 0 {
		row.Index, row.ShelfIndex = ptrF(pricestat.Round1(gp.Index)), ptrF(pricestat.Round1(gp.ShelfIndex))
	}
	return row
}

// regionalRow writes a province's RegionalProvince; minProducts as
// lowSample's.
func regionalRow(gp *regional.Province, minProducts int) RegionalProvince {
	row := RegionalProvince{Province: gp.Code, Pairs: gp.Compared,
		Banners: gp.Banners, Products: gp.Products, Stores: gp.Stores, Thin: gp.Stores < ThinStores,
		LowSample: lowSample(gp.Products, gp.Stores, gp.Banners, minProducts), Observations: gp.Obs}
	if gp.Compared > 0 {
		row.Index, row.DeltaPct = ptrF(pricestat.Round1(gp.Index)), ptrF(pricestat.Round1(gp.Index-100))
		row.ShelfIndex, row.ShelfDeltaPct = ptrF(pricestat.Round1(gp.ShelfIndex)), ptrF(pricestat.Round1(gp.ShelfIndex-100))
	}
	return row
}

// sampleNote names the provinces of a geography under the minimums, or
// says nothing.
func sampleNote(geo *regional.Geography, minProducts int) string {
	var low []string
	for _, gp := range geo.Provinces {
		if lowSample(gp.Products, gp.Stores, gp.Banners, minProducts) {
			low = append(low, gp.Code)
		}
	}
	if len(low) == 0 {
		return ""
	}
	what := fmt.Sprintf("%d active reference stores or %d banners", MinSampleStores, MinSampleBanners)
	if minProducts > 1 {
		what = fmt.Sprintf("%d products, %d active reference stores or %d banners", minProducts, MinSampleStores, MinSampleBanners)
	}
	return fmt.Sprintf("%s: their indexes rest on fewer than %s compared with other provinces (low_sample: true): read them with care", strings.Join(low, ", "), what)
}

// minProducts is lowSample's minimum of products for a selection.
func (f *productFilter) minProducts() int {
	if f.gtin != "" {
		return 1
	}
	return MinSampleProducts
}

// GeographicPrices compares a product's (or a category's) current prices
// province by province, as the OpenAPI document defines (GET
// /openapi.json, path /b2b/geographic_prices): per province an index
// against the national prices banner for banner (100 × the geometric
// mean, over the (banner, barcode) pairs the province shares with
// another province, of the banner's price there over the pair's
// population-weighted national price; regular prices, and shelf prices
// as ShelfIndex), with the pairs, banners, products and reference
// stores it rests on, flagged LowSample under the minimums; and the
// lowest and highest current banner price. With a UPC, Price and Average
// give the province's levels (the median and the mean of its banner
// prices) and the national ones; a category has none, its provinces
// pricing different products.
//
// It returns EINVALIDARGUMENT for neither or both of upc and category, a
// malformed barcode or a category the catalogue does not have (listing
// those it has), and ENOTFOUND for a barcode the catalogue does not know.
// A product priced nowhere gives no provinces and a Basis.Note saying so.
func (s *Service) GeographicPrices(ctx context.Context, in GeoPricesInput) (*GeoPricesResult, error) {
	gtin, category, err := requireProductFilter(in.UPC, in.Category)
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
		geo, err := f.geography(tx, sn)
		if err != nil {
			return err
		}
		res.National = nationalRow(geo, f.minProducts(), gtin)
		for _, gp := range geo.Provinces {
			row := geoRow(gp, f.minProducts())
			if gtin != "" {
				p, a := Cents(pricestat.Cents(gp.Price)), Cents(pricestat.Cents(gp.Sum/float64(gp.N)))
				row.Price, row.Average = &p, &a
			}
			res.Provinces = append(res.Provinces, row)
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		kind := f.category
		if gtin != "" {
			// The product's type, or its name when it has none (as
			// Project Hammer's and Open Prices' products).
			kind = cmp.Or(f.product.Type, f.product.Name)
		}
		if res.Benchmarks, err = benchmarksFor(tx, kind); err != nil {
			return err
		}
		if len(res.Benchmarks) > 0 {
			res.BenchmarkNote = BenchmarkCaveat
		}
		if len(res.Provinces) == 0 {
			res.Basis.Note = "no current price of it was observed in the panel in any province (an absence from the panel is not proof it is not sold)"
		} else {
			res.Basis.Note = sampleNote(geo, f.minProducts())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// nationalRow is GeographicPrices' national row, nil when nothing was
// priced: the lowest and highest banner price, every pair, banner,
// product and store priced, Index 100; with a barcode, its national
// price and the provinces' averages weighted by population.
func nationalRow(geo *regional.Geography, minProducts int, gtin GTIN) *GeoProvince {
	if len(geo.Provinces) == 0 {
		return nil
	}
	nat := &GeoProvince{Province: "CA", Index: ptrF(100), ShelfIndex: ptrF(100), Pairs: geo.Pairs(), Products: geo.Barcodes(), Banners: geo.BannerCount()}
	var avg, weights float64
	for i, gp := range geo.Provinces {
		if i == 0 || gp.Lo < float64(nat.Min) {
			nat.Min = Cents(pricestat.Cents(gp.Lo))
		}
		nat.Max = max(nat.Max, Cents(pricestat.Cents(gp.Hi)))
		nat.BannerPrices += gp.N
		avg += gp.Weight * gp.Sum / float64(gp.N)
		weights += gp.Weight
		nat.Stores += gp.AllStores
	}
	nat.Thin = nat.Stores < ThinStores
	nat.LowSample = lowSample(nat.Products, nat.Stores, nat.Banners, minProducts)
	if gtin != "" {
		p, a := Cents(pricestat.Cents(geo.Price)), Cents(pricestat.Cents(avg/weights))
		nat.Price, nat.Average = &p, &a
	}
	return nat
}

// RegionalComparison gives each province's price level against the
// national prices, in percent, for one product, one category or, with
// neither, every product of the panel: GeographicPrices' index minus 100
// (from the exact index), banner for banner, on regular prices and on
// shelf prices, as the OpenAPI document defines (path
// /b2b/regional_comparison), with the pairs, banners, products,
// reference stores (Thin under ThinStores, LowSample under the
// minimums) and store-level prices each province's figure rests on.
//
// It returns EINVALIDARGUMENT for both upc and category, a malformed barcode or
// an unknown category, and ENOTFOUND for a barcode the catalogue does not
// know.
func (s *Service) RegionalComparison(ctx context.Context, in RegionalInput) (*RegionalResult, error) {
	gtin, category, err := parseProductFilter(in.UPC, in.Category)
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
		geo, err := f.geography(tx, sn)
		if err != nil {
			return err
		}
		for _, gp := range geo.Provinces {
			res.Provinces = append(res.Provinces, regionalRow(gp, f.minProducts()))
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		var notes []string
		switch len(res.Provinces) {
		case 0:
			notes = append(notes, "no current price was observed in the panel for this selection (an absence from the panel is not proof it is not sold)")
		case 1:
			notes = append(notes, "priced in one province only: its prices are the national prices")
		}
		if n := sampleNote(geo, f.minProducts()); n != "" {
			notes = append(notes, n)
		}
		res.Basis.Note = strings.Join(notes, "; ")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// productFilter is the UPC-or-category choice of the geographic and
// regional analytics, checked against the catalogue.
type productFilter struct {
	gtin     GTIN
	category string   // the catalogue's spelling
	gtins    []string // the category's products, in order
	product  storage.Product
}

// requireProductFilter is parseProductFilter when a barcode or a category
// is required.
func requireProductFilter(upc, category string) (GTIN, string, error) {
	if strings.TrimSpace(upc) == "" && strings.TrimSpace(category) == "" {
		return "", "", Errorf(EINVALIDARGUMENT, "upc or category is required: a barcode or a catalogue category such as \"Dairy & Eggs\"")
	}
	return parseProductFilter(upc, category)
}

// parseProductFilter parses an optional barcode or category (not both).
func parseProductFilter(upc, category string) (GTIN, string, error) {
	upc, category = strings.TrimSpace(upc), strings.TrimSpace(category)
	switch {
	case upc != "" && category != "":
		return "", "", Errorf(EINVALIDARGUMENT, "give upc or category, not both")
	case len(category) > maxTextLen:
		return "", "", Errorf(EINVALIDARGUMENT, "category is %d bytes long: want at most %d", len(category), maxTextLen)
	case upc != "":
		g, err := ParseGTIN(upc)
		return g, "", err
	}
	return "", category, nil
}

// resolve reads the product or the category's products. An unknown
// barcode is ENOTFOUND; an unknown category EINVALIDARGUMENT naming the known ones.
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
	var (
		known []string // in order
		all   []byte   // the category's barcodes, 14 bytes each
	)
	err := tx.ProductCategories(func(c []byte) error {
		if len(c) == 0 {
			return nil
		}
		known = append(known, string(c))
		if !strings.EqualFold(string(c), category) {
			return nil
		}
		if f.category == "" || string(c) == category {
			f.category = string(c) // the spelling asked for, else the first in byte order
		}
		return tx.ProductsOfCategory(string(c), nil, func(_, gtin []byte) error {
			all = append(all, gtin...)
			return nil
		})
	})
	if err != nil {
		return err
	}
	f.gtins = sortedGTINs(all) // from by type and GTIN
	switch {
	case len(f.gtins) > 0:
	case len(known) == 0:
		return Errorf(EINVALIDARGUMENT, "category %q matches no product: the catalogue's products have no category (their source gave none): give a upc instead", category)
	default:
		return Errorf(EINVALIDARGUMENT, "category %q matches no product of the catalogue: want one of %s", category, strings.Join(known, ", "))
	}
	return nil
}

// sortedGTINs returns the barcodes of b, 14 bytes each, as strings in
// ascending order, sharing one allocation. Barcodes of 14 digits (all a
// catalogue holds) sort as the numbers they spell, which order as their
// bytes do: each number (below 2^47) shifted above its place in b (below
// 2^17), so that one sort of integers orders them.
func sortedGTINs(b []byte) []string {
	n := len(b) / 14
	if n > 1<<17 {
		return sortedStrings(b)
	}
	keys := make([]uint64, n)
	for i := range keys {
		var x uint64
		for _, c := range b[i*14 : (i+1)*14] {
			if c < '0' || c > '9' {
				return sortedStrings(b)
			}
			x = x*10 + uint64(c-'0')
		}
		keys[i] = x<<17 | uint64(i)
	}
	slices.Sort(keys)
	sorted := make([]byte, 0, len(b))
	for _, k := range keys {
		i := int(k & (1<<17 - 1))
		sorted = append(sorted, b[i*14:(i+1)*14]...)
	}
	all := string(sorted)
	gtins := make([]string, n)
	for i := range gtins {
		gtins[i] = all[i*14 : (i+1)*14]
	}
	return gtins
}

// sortedStrings is sortedGTINs for barcodes that are not all digits.
func sortedStrings(b []byte) []string {
	all := string(b)
	gtins := make([]string, len(all)/14)
	for i := range gtins {
		gtins[i] = all[i*14 : (i+1)*14]
	}
	slices.Sort(gtins)
	return gtins
}
