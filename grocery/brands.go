package grocery

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/brandindex"
	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/storage"
)

// BrandInput holds the arguments of BrandInsights.
type BrandInput struct {
	Brand    string `json:"brand"`              // a brand as the catalogue spells it, case- and accent-insensitive
	Province string `json:"province,omitempty"` // optional: one province
	Period   string `json:"period,omitempty"`   // 7d..365d, default 30d: the days up to the data set's latest, for the promotion figures
}

// BrandRow is the brand under one banner in one province. The OpenAPI
// document (GET /openapi.json, schema BrandRow) defines each figure in
// words and as a formula.
type BrandRow struct {
	Province             string   `json:"province"`
	Banner               string   `json:"banner"`
	BannerName           string   `json:"banner_name"`
	Products             int      `json:"products"`               // the brand's barcodes with a current price at the banner
	Stores               int      `json:"stores"`                 // active reference stores of the banner in the province
	Index                *float64 `json:"index"`                  // 100 × geomean of unit price ÷ peers' median unit price; null when no product has PeersMin peers
	ProductsWithoutPeers int      `json:"products_without_peers"` // of Products, those left out of Index: fewer than PeersMin peers (or no unit price)
	SKUDays              int      `json:"sku_days"`               // daily prices of the brand's SKUs at the banner in the period
	PromoDays            int      `json:"promo_days"`             // of SKUDays, those on promotion (price < regular)
	PromoShare           *float64 `json:"promo_share"`            // 100 × PromoDays ÷ SKUDays; null when SKUDays is 0
	PromoDepth           *float64 `json:"promo_depth"`            // mean of (1 − price ÷ regular) × 100 over the promotion days; null when none
}

// BrandResult is the answer of BrandInsights.
type BrandResult struct {
	Brand      string     `json:"brand"`      // as the catalogue spells it
	Catalogue  int        `json:"catalogue"`  // the brand's products in the catalogue
	Categories []string   `json:"categories"` // their categories, sorted
	Period     Period     `json:"period"`     // the promotion figures' period
	From       Date       `json:"from"`       // its first day
	To         Date       `json:"to"`         // its last day: the data set's latest
	Rows       []BrandRow `json:"rows"`       // by province, then banner
	Basis      Basis      `json:"basis"`
}

// Peers of a brand product (the OpenAPI document defines them): products
// of the same category, product type and unit basis, of another brand
// (a product without a type has no peers), whose pack
// quantity is within PeerSizeRatio of the product's, priced currently in
// the province by any banner. A product is compared when it has at least
// PeersMin peer barcodes.
const (
	PeerSizeRatio = 1.5
	PeersMin      = 3
)

// BrandInsights describes a brand's current position in the panel, per
// banner and province, as the OpenAPI document defines (GET
// /openapi.json, path /b2b/brand_insights): its assortment breadth
// (barcodes with a current price), its price level against like products
// of other brands, and its promotion frequency and depth over the period.
//
// The index compares unit prices (per 100 g, per 100 mL, per unit): for
// each of the brand's products priced by the banner, its unit price (the
// banner's current daily price ÷ its pack quantity) over the median unit
// price of its peers (every current banner price of every peer in the
// province); Index is 100 × the geometric mean of those relatives over
// the products with at least PeersMin peers, the others being counted in
// ProductsWithoutPeers. Promotion figures come from the daily prices of
// the brand's SKUs at the banner over the period (default 30 days up to
// the data set's latest day): the share of SKU-days on promotion and
// their mean discount off the regular price.
//
// It returns EINVALIDARGUMENT for a missing brand, a brand no product of the
// catalogue carries, an unknown province or period. A brand with no
// current price gives no rows and a Basis.Note saying so.
func (s *Service) BrandInsights(ctx context.Context, in BrandInput) (*BrandResult, error) {
	brand, only, period, err := parseBrandArgs(in)
	if err != nil {
		return nil, err
	}
	res := &BrandResult{Categories: []string{}, Rows: []BrandRow{}, Period: period}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		from := asOf - int32(period) + 1
		res.From, res.To = Date(from), Date(asOf)
		r := &brandReader{tx: tx, sn: newSnapshot(asOf), from: from, asOf: asOf, peers: brandindex.NewPeers(PeerSizeRatio, PeersMin),
			prods: map[string]*brandindex.Product{}, prices: map[string][]market.Price{}, scratch: make([]market.Price, 0, 32)}
		cats, err := r.readCatalogue(foldKey(brand), res)
		if err != nil {
			return err
		}
		if res.Catalogue == 0 {
			return Errorf(EINVALIDARGUMENT, "brand %q matches no product of the catalogue: give a brand as search_products shows it", brand)
		}
		if err := r.readPeers(cats); err != nil {
			return err
		}
		r.gtins = sortedKeys(r.prods)
		res.Categories = sortedKeys(cats)
		for _, pv := range provinces {
			if only != "" && pv.Code != only {
				continue
			}
			if res.Rows, err = r.provinceRows(res.Rows, pv.Code, res.Categories); err != nil {
				return err
			}
		}
		slices.SortFunc(res.Rows, func(a, b BrandRow) int {
			return cmp.Or(cmp.Compare(a.Province, b.Province), cmp.Compare(a.Banner, b.Banner))
		})
		res.Basis, err = r.sn.basis(tx, CompareUnitPrice)
		if err != nil {
			return err
		}
		res.Basis.Note = brandNote(res, only)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// parseBrandArgs checks BrandInsights' arguments: the brand, the one
// province asked for ("" for all) and the period.
func parseBrandArgs(in BrandInput) (brand, only string, period Period, err error) {
	brand = strings.TrimSpace(in.Brand)
	if brand == "" {
		return "", "", 0, Errorf(EINVALIDARGUMENT, "brand is required: a brand as the catalogue spells it, e.g. Natrel")
	}
	if len(brand) > maxTextLen {
		return "", "", 0, Errorf(EINVALIDARGUMENT, "brand is %d bytes long: want at most %d", len(brand), maxTextLen)
	}
	if strings.TrimSpace(in.Province) != "" {
		if only, err = ParseProvince(in.Province); err != nil {
			return "", "", 0, err
		}
	}
	if period, err = ParsePeriod(in.Period); err != nil {
		return "", "", 0, err
	}
	return brand, only, period, nil
}

// brandReader reads what BrandInsights needs in one read transaction.
type brandReader struct {
	tx        *storage.Tx
	sn        *snapshot
	from      int32 // the promotion figures' days
	asOf      int32
	prods     map[string]*brandindex.Product // the brand's products and their candidate peers
	gtins     []string                       // prods' barcodes, sorted
	own       []string                       // the brand's barcodes
	peers     *brandindex.Peers
	prices    map[string][]market.Price // gtin -> its current banner prices in the province read last
	scratch   []market.Price
	brandSKUs []uint8 // by SKU number in a category's list: 0 not yet looked up, 1 the brand's, 2 not
}

// brandAcc accumulates one banner's row of a province.
type brandAcc struct {
	row  BrandRow
	acc  brandindex.Row
	skus map[string]bool // the brand's SKUs at the banner
}

// readCatalogue finds the brand's products (brand folded as key): res's
// brand and catalogue count, and their categories.
func (r *brandReader) readCatalogue(key string, res *BrandResult) (map[string]bool, error) {
	cats := map[string]bool{}
	folded := map[string]string{} // brand -> foldKey(brand): brands repeat
	err := r.tx.ForEachProduct(func(p *storage.Product) error {
		f, ok := folded[p.Brand]
		if !ok {
			f = foldKey(p.Brand)
			folded[p.Brand] = f
		}
		if f == key {
			res.Brand = p.Brand
			res.Catalogue++
			cats[p.Category] = true
			q, b := unitprice.Of(p.Size)
			r.prods[p.GTIN] = &brandindex.Product{GTIN: p.GTIN, Category: p.Category, Type: foldKey(p.Type), Basis: b, Qty: q, Own: true}
			r.own = append(r.own, p.GTIN)
		}
		return nil
	})
	return cats, err
}

// readPeers reads the other products of the brand's categories: the
// candidate peers, grouped by category and basis.
func (r *brandReader) readPeers(cats map[string]bool) error {
	return r.tx.ForEachProduct(func(p *storage.Product) error {
		if cats[p.Category] && r.prods[p.GTIN] == nil {
			q, b := unitprice.Of(p.Size)
			bp := &brandindex.Product{GTIN: p.GTIN, Category: p.Category, Type: foldKey(p.Type), Basis: b, Qty: q}
			r.prods[p.GTIN] = bp
			r.peers.Add(bp)
		}
		return nil
	})
}

// provinceRows appends to rows the brand's rows of a province, one per
// banner with a current price of one of its products, by banner.
func (r *brandReader) provinceRows(rows []BrandRow, province string, categories []string) ([]BrandRow, error) {
	// The barcodes to price: the brand's and its candidate peers', in key
	// order, each sought in the province's offer prices from the one
	// before (a few of the catalogue's).
	clear(r.prices)
	err := seekEachPrices(r.tx, r.sn, province, r.gtins, r.scratch, func(_ int, g string, ps []market.Price, _ int) error {
		r.prices[g] = slices.Clone(ps)
		return nil
	})
	if err != nil {
		return rows, err
	}
	accs := map[string]*brandAcc{}
	prices := func(g string) []market.Price { return r.prices[g] }
	for _, g := range r.own {
		r.addIndex(province, g, prices, accs)
	}
	if len(accs) == 0 {
		return rows, nil
	}
	// The brand's SKUs at each banner: those of its offers, current or
	// not.
	for _, g := range r.own {
		err := r.tx.Offers(province, g, func(o *storage.Offer) error {
			if a := accs[o.Banner]; a != nil {
				a.skus[o.SKU] = true
			}
			return nil
		})
		if err != nil {
			return rows, err
		}
	}
	for _, b := range sortedKeys(accs) {
		a := accs[b]
		for _, c := range categories {
			if err := r.addPromoDays(a, province, c, b); err != nil {
				return rows, err
			}
		}
		a.finish()
		n, err := r.sn.activeStores(r.tx, province, b)
		if err != nil {
			return rows, err
		}
		a.row.Stores = n
		rows = append(rows, a.row)
	}
	return rows, nil
}

// addIndex adds the brand's product g to the rows of the banners that
// price it: its unit price against its peers' median, when it has
// PeersMin peers with a price.
func (r *brandReader) addIndex(province, g string, prices func(string) []market.Price, accs map[string]*brandAcc) {
	ps := r.prices[g]
	if len(ps) == 0 {
		return
	}
	bp := r.prods[g]
	median := r.peers.Median(bp, prices)
	for _, p := range ps {
		a := accs[p.Banner]
		if a == nil {
			a = &brandAcc{row: BrandRow{Province: province, Banner: p.Banner, BannerName: bannerName(p.Banner)}, skus: map[string]bool{}}
			accs[p.Banner] = a
		}
		a.acc.AddProduct(p.Price, bp.Qty, median)
	}
}

// addPromoDays adds to a the daily prices of the brand's SKUs at banner
// b in category c over the period, read by SKU number.
func (r *brandReader) addPromoDays(a *brandAcc, province, c, b string) error {
	r.brandSKUs = r.brandSKUs[:0]
	return r.tx.CatDays(province, c, b, r.from, r.asOf, storage.CatSKUs|storage.CatNumbered, func(_ *storage.CatDayKey, d *storage.CatDay) error {
		if n := len(d.Names); n > len(r.brandSKUs) {
			r.brandSKUs = append(r.brandSKUs, make([]uint8, n-len(r.brandSKUs))...)
		}
		for i := range d.SKUNums {
			sd := &d.SKUNums[i]
			if r.brandSKUs[sd.Num] == 0 {
				r.brandSKUs[sd.Num] = 2
				if a.skus[d.Names[sd.Num]] {
					r.brandSKUs[sd.Num] = 1
				}
			}
			if r.brandSKUs[sd.Num] != 1 {
				continue
			}
			a.acc.AddDay(sd.Price, sd.Regular)
		}
		return nil
	})
}

// finish sets a's figures from what it accumulated.
func (a *brandAcc) finish() {
	a.row.Products, a.row.ProductsWithoutPeers = a.acc.Products, a.acc.WithoutPeers
	a.row.SKUDays, a.row.PromoDays = a.acc.SKUDays, a.acc.PromoDays
	a.row.Index, a.row.PromoShare, a.row.PromoDepth = a.acc.Figures()
}

// brandNote says what a brand's answer compares, or why it has no row.
func brandNote(res *BrandResult, only string) string {
	switch {
	case len(res.Rows) == 0 && only != "":
		return fmt.Sprintf("no current price of %s was observed in the panel in %s (an absence from the panel is not proof it is not sold)", res.Brand, only)
	case len(res.Rows) == 0:
		return fmt.Sprintf("no current price of %s was observed in the panel (an absence from the panel is not proof it is not sold)", res.Brand)
	}
	return fmt.Sprintf("the index compares unit prices with products of other brands of the same category, product type and unit basis, %g times the size at most either way, over the products with at least %d such peers; promotions are the SKUs' daily prices from %s to %s; the basis covers the peers' prices too",
		PeerSizeRatio, PeersMin, res.From, res.To)
}
