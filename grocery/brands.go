package grocery

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
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

// brandProduct is what BrandInsights knows of a product of the brand's
// categories.
type brandProduct struct {
	gtin, category, basis string
	typ                   string  // the product type, folded; "" when it has none
	qty                   float64 // in units of basis; 0 when the size gives none
	brand                 bool    // the brand's own
}

// peerOf reports whether h is a peer of the brand product g.
func peerOf(g, h *brandProduct) bool {
	const eps = 1e-9 // sizes are parsed into float64: a ratio of exactly 1.5 stays in
	return !h.brand && h.qty > 0 && h.category == g.category && g.typ != "" && h.typ == g.typ && h.basis == g.basis &&
		h.qty*PeerSizeRatio >= g.qty*(1-eps) && h.qty <= g.qty*PeerSizeRatio*(1+eps)
}

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
	brand := strings.TrimSpace(in.Brand)
	if brand == "" {
		return nil, Errorf(EINVALIDARGUMENT, "brand is required: a brand as the catalogue spells it, e.g. Natrel")
	}
	if len(brand) > maxTextLen {
		return nil, Errorf(EINVALIDARGUMENT, "brand is %d bytes long: want at most %d", len(brand), maxTextLen)
	}
	var only string
	if strings.TrimSpace(in.Province) != "" {
		p, err := ParseProvince(in.Province)
		if err != nil {
			return nil, err
		}
		only = p
	}
	period, err := ParsePeriod(in.Period)
	if err != nil {
		return nil, err
	}
	key := foldKey(brand)
	res := &BrandResult{Categories: []string{}, Rows: []BrandRow{}, Period: period}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		from := asOf - int32(period) + 1
		res.From, res.To = Date(from), Date(asOf)
		prods := map[string]*brandProduct{}
		cats := map[string]bool{}
		var own []string              // the brand's barcodes
		folded := map[string]string{} // brand -> foldKey(brand): brands repeat
		err := tx.ForEachProduct(func(p *storage.Product) error {
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
				prods[p.GTIN] = &brandProduct{gtin: p.GTIN, category: p.Category, typ: foldKey(p.Type), basis: b, qty: q, brand: true}
				own = append(own, p.GTIN)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if res.Catalogue == 0 {
			return Errorf(EINVALIDARGUMENT, "brand %q matches no product of the catalogue: give a brand as search_products shows it", brand)
		}
		// The other products of the brand's categories: the candidate
		// peers, grouped by category and basis.
		groups := map[[2]string][]*brandProduct{}
		err = tx.ForEachProduct(func(p *storage.Product) error {
			if cats[p.Category] && prods[p.GTIN] == nil {
				q, b := unitprice.Of(p.Size)
				bp := &brandProduct{gtin: p.GTIN, category: p.Category, typ: foldKey(p.Type), basis: b, qty: q}
				prods[p.GTIN] = bp
				if q > 0 {
					groups[[2]string{p.Category, b}] = append(groups[[2]string{p.Category, b}], bp)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		// The barcodes to price: the brand's and its candidate peers', in
		// key order (a few of the catalogue's: seeking each is cheaper
		// than scanning every offer of a province).
		gtins := sortedKeys(prods)
		res.Categories = sortedKeys(cats)
		sn := newSnapshot(asOf)
		written := func(x float64) *float64 { return &x }
		var (
			buf      []float64
			brandSKU []uint8 // by SKU number in a category's list, below
			scratch  = make([]market.Price, 0, 32)
			prices   = map[string][]market.Price{} // gtin -> its current banner prices in the province
		)
		for _, pv := range provinces {
			if only != "" && pv.Code != only {
				continue
			}
			clear(prices)
			for _, g := range gtins {
				err := seekPrices(tx, sn, pv.Code, g, scratch, func(ps []market.Price, _ int) error {
					prices[g] = slices.Clone(ps)
					return nil
				})
				if err != nil {
					return err
				}
			}
			type rowAcc struct {
				row   BrandRow
				index pricestat.Geomean
				skus  map[string]bool // the brand's SKUs at the banner
				depth float64         // Σ percent off over the promotion days
			}
			rows := map[string]*rowAcc{}
			for _, g := range own {
				ps := prices[g]
				if len(ps) == 0 {
					continue
				}
				// The peers' median unit price, when g has enough peers.
				bp := prods[g]
				var median float64
				if bp.qty > 0 {
					buf = buf[:0]
					peers := 0
					for _, h := range groups[[2]string{bp.category, bp.basis}] {
						hp := prices[h.gtin]
						if len(hp) == 0 || !peerOf(bp, h) {
							continue
						}
						peers++
						for _, x := range hp {
							buf = append(buf, x.Price/h.qty)
						}
					}
					if peers >= PeersMin {
						median = pricestat.Median(buf)
					}
				}
				for _, p := range ps {
					a := rows[p.Banner]
					if a == nil {
						a = &rowAcc{row: BrandRow{Province: pv.Code, Banner: p.Banner, BannerName: bannerName(p.Banner)}, skus: map[string]bool{}}
						rows[p.Banner] = a
					}
					a.row.Products++
					if median > 0 {
						a.index.Add(p.Price / bp.qty / median)
					} else {
						a.row.ProductsWithoutPeers++
					}
				}
			}
			if len(rows) == 0 {
				continue
			}
			// The brand's SKUs at each banner: those of its offers,
			// current or not.
			for _, g := range own {
				err := tx.Offers(pv.Code, g, func(o *storage.Offer) error {
					if a := rows[o.Banner]; a != nil {
						a.skus[o.SKU] = true
					}
					return nil
				})
				if err != nil {
					return err
				}
			}
			for _, b := range sortedKeys(rows) {
				a := rows[b]
				for _, c := range res.Categories {
					// Whether each SKU of the category's list is the
					// brand's, looked up once: 0 not yet, 1 yes, 2 no.
					brandSKU = brandSKU[:0]
					err := tx.CatDays(pv.Code, c, b, from, asOf, storage.CatSKUs|storage.CatNumbered, func(_ *storage.CatDayKey, d *storage.CatDay) error {
						if n := len(d.Names); n > len(brandSKU) {
							brandSKU = append(brandSKU, make([]uint8, n-len(brandSKU))...)
						}
						for i := range d.SKUNums {
							sd := &d.SKUNums[i]
							if brandSKU[sd.Num] == 0 {
								brandSKU[sd.Num] = 2
								if a.skus[d.Names[sd.Num]] {
									brandSKU[sd.Num] = 1
								}
							}
							if brandSKU[sd.Num] != 1 {
								continue
							}
							a.row.SKUDays++
							if sd.Price < sd.Regular {
								a.row.PromoDays++
								a.depth += 100 * (1 - float64(sd.Price)/float64(sd.Regular))
							}
						}
						return nil
					})
					if err != nil {
						return err
					}
				}
				if a.index.N() > 0 {
					a.row.Index = written(pricestat.Round1(a.index.Index()))
				}
				if a.row.SKUDays > 0 {
					a.row.PromoShare = written(pricestat.Round1(100 * float64(a.row.PromoDays) / float64(a.row.SKUDays)))
				}
				if a.row.PromoDays > 0 {
					a.row.PromoDepth = written(pricestat.Round1(a.depth / float64(a.row.PromoDays)))
				}
				n, err := sn.activeStores(tx, pv.Code, b)
				if err != nil {
					return err
				}
				a.row.Stores = n
				res.Rows = append(res.Rows, a.row)
			}
		}
		slices.SortFunc(res.Rows, func(a, b BrandRow) int {
			return cmp.Or(cmp.Compare(a.Province, b.Province), cmp.Compare(a.Banner, b.Banner))
		})
		res.Basis, err = sn.basis(tx, CompareUnitPrice)
		if err != nil {
			return err
		}
		switch {
		case len(res.Rows) == 0 && only != "":
			res.Basis.Note = fmt.Sprintf("no current price of %s was observed in the panel in %s (an absence from the panel is not proof it is not sold)", res.Brand, only)
		case len(res.Rows) == 0:
			res.Basis.Note = fmt.Sprintf("no current price of %s was observed in the panel (an absence from the panel is not proof it is not sold)", res.Brand)
		default:
			res.Basis.Note = fmt.Sprintf("the index compares unit prices with products of other brands of the same category, product type and unit basis, %g times the size at most either way, over the products with at least %d such peers; promotions are the SKUs' daily prices from %s to %s; the basis covers the peers' prices too",
				PeerSizeRatio, PeersMin, res.From, res.To)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
