// Package brandindex holds the arithmetic of grocery's BrandInsights over
// plain data: which products are a brand product's peers, the median unit
// price of its peers' current prices, and one banner's row (the brand's
// unit-price index against its peers, its promotion share and depth). It
// imports nothing from grocery; grocery reads the products, prices and
// daily prices in one read transaction, and passes its thresholds in.
package brandindex

import (
	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
)

// Product is a product of the brand's categories: one of the brand's own,
// or a candidate peer.
type Product struct {
	GTIN, Category string
	Basis          string  // the unit basis of Qty (unitprice.Of)
	Type           string  // the product type, folded; "" when it has none
	Qty            float64 // the pack quantity in units of Basis; 0 when the size gives none
	Own            bool    // the brand's own
}

// Peers finds the peers of the brand's products among the candidates
// added: products of the same category, product type and unit basis, of
// another brand, whose pack quantity is within ratio of the product's
// either way (a product without a type has none).
type Peers struct {
	ratio  float64
	min    int
	groups map[[2]string][]*Product // by category and basis
	buf    []float64
}

// NewPeers returns an empty Peers of size ratio, for which a product with
// fewer than min priced peers has no median.
func NewPeers(ratio float64, min int) *Peers {
	return &Peers{ratio: ratio, min: min, groups: map[[2]string][]*Product{}}
}

// Add adds h, a candidate peer; one without a quantity is never one.
func (p *Peers) Add(h *Product) {
	if h.Qty > 0 {
		k := [2]string{h.Category, h.Basis}
		p.groups[k] = append(p.groups[k], h)
	}
}

// Of reports whether h is a peer of the brand product g.
func (p *Peers) Of(g, h *Product) bool {
	const eps = 1e-9 // sizes are parsed into float64: a ratio of exactly 1.5 stays in
	return !h.Own && h.Qty > 0 && h.Category == g.Category && g.Type != "" && h.Type == g.Type && h.Basis == g.Basis &&
		h.Qty*p.ratio >= g.Qty*(1-eps) && h.Qty <= g.Qty*p.ratio*(1+eps)
}

// Median returns the median unit price (price ÷ quantity) of every
// current price of every peer of g that prices gives one, or 0 when g has
// no quantity or fewer than min of its peers have a price.
func (p *Peers) Median(g *Product, prices func(gtin string) []market.Price) float64 {
	if g.Qty <= 0 {
		return 0
	}
	p.buf = p.buf[:0]
	peers := 0
	for _, h := range p.groups[[2]string{g.Category, g.Basis}] {
		hp := prices(h.GTIN)
		if len(hp) == 0 || !p.Of(g, h) {
			continue
		}
		peers++
		for _, x := range hp {
			p.buf = append(p.buf, x.Price/h.Qty)
		}
	}
	if peers < p.min {
		return 0
	}
	return pricestat.Median(p.buf)
}

// Row accumulates the brand at one banner of a province: AddProduct each
// current price of one of its products, AddDay each daily price of one of
// its SKUs over the period, then Figures.
type Row struct {
	Products     int // current prices added
	WithoutPeers int // of those, the ones without a peers' median
	SKUDays      int // daily prices added
	PromoDays    int // of those, the ones on promotion (price < regular)
	index        pricestat.Geomean
	depth        float64 // Σ percent off over the promotion days
}

// AddProduct adds a current price of a brand product of quantity qty,
// whose peers' median unit price is median (0: none).
func (r *Row) AddProduct(price, qty, median float64) {
	r.Products++
	if median > 0 {
		r.index.Add(price / qty / median)
	} else {
		r.WithoutPeers++
	}
}

// AddDay adds a daily price of one of the brand's SKUs and its regular
// price.
func (r *Row) AddDay(price, regular uint32) {
	r.SKUDays++
	if price < regular {
		r.PromoDays++
		r.depth += 100 * (1 - float64(price)/float64(regular))
	}
}

// Figures returns the row's index (100 × the geometric mean of the unit
// price relatives), promotion share (100 × PromoDays ÷ SKUDays) and
// depth (the mean percent off over the promotion days), each rounded to
// a tenth, nil when there is nothing to compute it from.
func (r *Row) Figures() (index, promoShare, promoDepth *float64) {
	written := func(x float64) *float64 { x = pricestat.Round1(x); return &x }
	if r.index.N() > 0 {
		index = written(r.index.Index())
	}
	if r.SKUDays > 0 {
		promoShare = written(100 * float64(r.PromoDays) / float64(r.SKUDays))
	}
	if r.PromoDays > 0 {
		promoDepth = written(r.depth / float64(r.PromoDays))
	}
	return index, promoShare, promoDepth
}
