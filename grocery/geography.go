package grocery

import (
	"context"
	"fmt"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
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
	Province     string  `json:"province"`      // a province code, or "CA" for the national row
	Price        *Cents  `json:"price"`         // with a UPC: the province price (median of the banner prices), or the national price; null for a category
	Average      Cents   `json:"average"`       // mean of the current banner prices (national row: the provinces' averages weighted by population)
	Min          Cents   `json:"min"`           // lowest current banner price
	Max          Cents   `json:"max"`           // highest current banner price
	BannerPrices int     `json:"banner_prices"` // current (banner, barcode) prices the levels rest on
	Products     int     `json:"products"`      // barcodes priced
	Stores       int     `json:"stores"`        // active reference stores of the banners pricing the selection
	Thin         bool    `json:"thin"`          // Stores < ThinStores
	Index        float64 `json:"index"`         // 100 × geomean over the products of province price ÷ national price; 100 on the national row
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
	Province     string  `json:"province"`
	DeltaPct     float64 `json:"delta_pct"`    // Index − 100 from the exact index, in percent (+3.5 = 3.5% dearer)
	Index        float64 `json:"index"`        // as GeoProvince.Index
	Products     int     `json:"products"`     // barcodes priced in the province
	Stores       int     `json:"stores"`       // active reference stores of the banners pricing the selection
	Thin         bool    `json:"thin"`         // Stores < ThinStores
	Observations int     `json:"observations"` // store-level prices behind the banner prices (the offers' stores on their latest day)
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

// The geography of prices (the OpenAPI document defines it): a barcode's
// province price is the median of its current banner prices in the
// province (compare.go: each banner's lowest current price in force); its
// national price is the mean of its province prices weighted by the
// provinces' populations (Province.Population), over the provinces that
// price it; a province's index is 100 × the geometric mean, over the
// barcodes it prices, of province price ÷ national price (a Jevons
// index, so expensive items weigh no more than cheap ones).

// geoProvince gathers one province's prices of the selection.
type geoProvince struct {
	code    string
	weight  float64            // population, thousands
	prices  map[string]float64 // gtin -> province price, cents
	sum     float64            // Σ banner prices, cents
	n       int                // banner prices
	lo, hi  float64
	banners map[string]bool
	obs     int // store-level prices
	index   float64
	stores  int
}

// geography is what GeographicPrices and RegionalComparison compute.
type geography struct {
	provinces []*geoProvince     // by code, those with a price
	national  map[string]float64 // gtin -> national price, cents
}

// geography reads the selection's current prices in every province and
// computes the province and national prices and the province indexes.
func (f *productFilter) geography(tx *storage.Tx, sn *snapshot) (*geography, error) {
	geo := &geography{national: map[string]float64{}}
	var gtins []string
	switch {
	case f.gtin != "":
		gtins = []string{string(f.gtin)}
	case f.gtins != nil:
		gtins = sortedKeys(f.gtins)
	}
	var (
		buf    = make([]float64, 0, 32)
		prices = make([]market.Price, 0, 32)
	)
	for _, pv := range provinces {
		gp := &geoProvince{code: pv.Code, weight: float64(pv.Population), prices: map[string]float64{}, banners: map[string]bool{}}
		add := func(g string, ps []market.Price, obs int) error {
			buf = buf[:0]
			for _, p := range ps {
				buf = append(buf, p.Price)
				if gp.n == 0 || p.Price < gp.lo {
					gp.lo = p.Price
				}
				gp.hi = max(gp.hi, p.Price)
				gp.sum += p.Price
				gp.n++
				gp.banners[p.Banner] = true
			}
			gp.prices[g] = pricestat.Median(buf)
			gp.obs += obs
			return nil
		}
		var err error
		if gtins != nil {
			for _, g := range gtins {
				err = seekPrices(tx, sn, pv.Code, g, prices, func(ps []market.Price, obs int) error { return add(g, ps, obs) })
				if err != nil {
					return nil, err
				}
			}
		} else {
			err = scanPrices(tx, sn, pv.Code, add)
		}
		if err != nil {
			return nil, err
		}
		if len(gp.prices) == 0 {
			continue
		}
		for b := range gp.banners {
			n, err := sn.activeStores(tx, pv.Code, b)
			if err != nil {
				return nil, err
			}
			gp.stores += n
		}
		geo.provinces = append(geo.provinces, gp)
	}
	// National prices: population-weighted means of the province prices.
	weights := map[string]float64{}
	for _, gp := range geo.provinces {
		for g, p := range gp.prices {
			geo.national[g] += gp.weight * p
			weights[g] += gp.weight
		}
	}
	for g, w := range weights {
		geo.national[g] /= w
	}
	for _, gp := range geo.provinces {
		var idx pricestat.Geomean
		for g, p := range gp.prices {
			idx.Add(p / geo.national[g])
		}
		gp.index = idx.Index()
	}
	return geo, nil
}

// row writes a province's GeoProvince.
func (gp *geoProvince) row() GeoProvince {
	return GeoProvince{Province: gp.code, Average: Cents(pricestat.Cents(gp.sum / float64(gp.n))),
		Min: Cents(pricestat.Cents(gp.lo)), Max: Cents(pricestat.Cents(gp.hi)), BannerPrices: gp.n,
		Products: len(gp.prices), Stores: gp.stores, Thin: gp.stores < ThinStores, Index: pricestat.Round1(gp.index)}
}

// thinNote names the thin provinces of a geography, or says nothing.
func (geo *geography) thinNote() string {
	var thin []string
	for _, gp := range geo.provinces {
		if gp.stores < ThinStores {
			thin = append(thin, gp.code)
		}
	}
	if len(thin) == 0 {
		return ""
	}
	return fmt.Sprintf("%s rest on fewer than %d active reference stores (thin: true): read their figures with care", strings.Join(thin, ", "), ThinStores)
}

// GeographicPrices compares a product's (or a category's) current prices
// province by province, as the OpenAPI document defines (GET
// /openapi.json, path /b2b/geographic_prices): per province the mean,
// lowest and highest current banner price (each banner's current daily
// price of each barcode), and an index against the national price: 100 ×
// the geometric mean, over the barcodes the province prices, of the
// province price (the median of its banner prices) over the national
// price (the province prices' mean weighted by population). With a UPC,
// Price gives the province and national prices themselves. Every row
// says the active reference stores it rests on, and Thin when they are
// fewer than ThinStores.
//
// It returns EINVALID for neither or both of upc and category, a
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
		nat := &GeoProvince{Province: "CA", Index: 100}
		var avg, weights float64
		for i, gp := range geo.provinces {
			row := gp.row()
			if gtin != "" {
				p := Cents(pricestat.Cents(gp.prices[string(gtin)]))
				row.Price = &p
			}
			res.Provinces = append(res.Provinces, row)
			avg += gp.weight * gp.sum / float64(gp.n)
			weights += gp.weight
			if i == 0 || row.Min < nat.Min {
				nat.Min = row.Min
			}
			nat.Max = max(nat.Max, row.Max)
			nat.BannerPrices += row.BannerPrices
			nat.Stores += row.Stores
		}
		if len(geo.provinces) > 0 {
			nat.Average = Cents(pricestat.Cents(avg / weights))
			nat.Products = len(geo.national)
			nat.Thin = nat.Stores < ThinStores
			if gtin != "" {
				p := Cents(pricestat.Cents(geo.national[string(gtin)]))
				nat.Price = &p
			}
			res.National = nat
		}
		res.Basis, err = sn.basis(tx, CompareSameBarcode)
		if err != nil {
			return err
		}
		if len(res.Provinces) == 0 {
			res.Basis.Note = "no current price of it was observed in the panel in any province (an absence from the panel is not proof it is not sold)"
		} else {
			res.Basis.Note = geo.thinNote()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// RegionalComparison gives each province's price level against the
// national price, in percent, for one product, one category or, with
// neither, every product of the panel: GeographicPrices' index minus 100
// (from the exact index), as the OpenAPI document defines (path
// /b2b/regional_comparison), with the products, reference stores (Thin
// under ThinStores) and store-level prices each province's figure rests
// on.
//
// It returns EINVALID for both upc and category, a malformed barcode or
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
		for _, gp := range geo.provinces {
			res.Provinces = append(res.Provinces, RegionalProvince{Province: gp.code, Index: pricestat.Round1(gp.index),
				DeltaPct: pricestat.Round1(gp.index - 100), Products: len(gp.prices), Stores: gp.stores,
				Thin: gp.stores < ThinStores, Observations: gp.obs})
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
		if n := geo.thinNote(); n != "" {
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
	category string          // the catalogue's spelling
	gtins    map[string]bool // the category's products
	product  storage.Product
}

// requireProductFilter is parseProductFilter when a barcode or a category
// is required.
func requireProductFilter(upc, category string) (GTIN, string, error) {
	if strings.TrimSpace(upc) == "" && strings.TrimSpace(category) == "" {
		return "", "", Errorf(EINVALID, "upc or category is required: a barcode or a catalogue category such as \"Dairy & Eggs\"")
	}
	return parseProductFilter(upc, category)
}

// parseProductFilter parses an optional barcode or category (not both).
func parseProductFilter(upc, category string) (GTIN, string, error) {
	upc, category = strings.TrimSpace(upc), strings.TrimSpace(category)
	switch {
	case upc != "" && category != "":
		return "", "", Errorf(EINVALID, "give upc or category, not both")
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
		return Errorf(EINVALID, "category %q matches no product of the catalogue: want one of %s", category, strings.Join(sortedKeys(known), ", "))
	}
	return nil
}
