package brandindex

import (
	"math"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/market"
)

// TestPeersMedian works a 1 L milk's peers by hand (ratio 1.5, at least 3
// priced): 1 L, 1.5 L (the bound) and 0.7 L milks of other brands are
// peers; 1.6 L (too big), 0.66 L (too small), a cream, a milk sold by
// weight, the brand's own, a milk without a size and products without a
// type are not; an unpriced peer does not count. The
// peers' unit prices, 200/1000, 220/1000, 240/1500 and 140/700 cents a
// mL, have the median (0.2 + 0.2) / 2.
func TestPeersMedian(t *testing.T) {
	g := &Product{GTIN: "g", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1000, Own: true}
	candidates := []*Product{
		{GTIN: "h1", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1000},
		{GTIN: "h2", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1500},
		{GTIN: "h3", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 700},
		{GTIN: "h4", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1600},
		{GTIN: "h5", Category: "Dairy", Basis: "mL", Type: "cream", Qty: 1000},
		{GTIN: "h6", Category: "Dairy", Basis: "g", Type: "milk", Qty: 1000},
		{GTIN: "h7", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1000, Own: true},
		{GTIN: "h8", Category: "Dairy", Basis: "mL", Type: "milk"},
		{GTIN: "h9", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 1000}, // no price
		{GTIN: "h10", Category: "Dairy", Basis: "mL", Type: "milk", Qty: 660}, // under 1000 / 1.5
		// Three priced products without a type: no product's peers,
		// not even those of a product without one.
		{GTIN: "n1", Category: "Dairy", Basis: "mL", Qty: 1000},
		{GTIN: "n2", Category: "Dairy", Basis: "mL", Qty: 1000},
		{GTIN: "n3", Category: "Dairy", Basis: "mL", Qty: 1000},
	}
	prices := map[string][]market.Price{
		"h1": {{Banner: "a", Price: 200}, {Banner: "b", Price: 220}},
		"h2": {{Banner: "a", Price: 240}},
		"h3": {{Banner: "c", Price: 140}},
		"h4": {{Banner: "a", Price: 1}}, "h5": {{Banner: "a", Price: 1}}, "h6": {{Banner: "a", Price: 1}},
		"h7": {{Banner: "a", Price: 1}}, "h8": {{Banner: "a", Price: 1}}, "h10": {{Banner: "a", Price: 1}},
		"n1": {{Banner: "a", Price: 1}}, "n2": {{Banner: "a", Price: 1}}, "n3": {{Banner: "a", Price: 1}},
	}
	priceOf := func(gtin string) []market.Price { return prices[gtin] }
	p := NewPeers(1.5, 3)
	for _, h := range candidates {
		p.Add(h)
	}
	if got := p.Median(g, priceOf); math.Abs(got-0.2) > 1e-12 {
		t.Errorf("median: got %v, want 0.2", got)
	}
	for _, h := range candidates {
		want := h.GTIN == "h1" || h.GTIN == "h2" || h.GTIN == "h3" || h.GTIN == "h9"
		if got := p.Of(g, h); got != want {
			t.Errorf("Of(g, %s): got %v, want %v", h.GTIN, got, want)
		}
	}
	if got := peersWith(t, 1.5, 4, candidates).Median(g, priceOf); got != 0 {
		t.Errorf("with 4 peers wanted, 3 priced: median %v, want 0 (none)", got)
	}
	noType := *g
	noType.Type = ""
	if got := p.Median(&noType, priceOf); got != 0 {
		t.Errorf("a product without a type: median %v, want 0 (no peers)", got)
	}
}

// peersWith returns Peers of ratio and min with the candidates added.
func peersWith(t *testing.T, ratio float64, min int, candidates []*Product) *Peers {
	t.Helper()
	p := NewPeers(ratio, min)
	for _, h := range candidates {
		p.Add(h)
	}
	return p
}

// TestRow works a banner's row by hand: prices of 250 and 180 cents for
// 1000 mL against a peers' median of 0.2 cents a mL are relatives 1.25
// and 0.9, so the index is 100 × √1.125 = 106.07 → 106.1; a third product
// without peers counts in WithoutPeers only. Four SKU days at 300 regular:
// 300, 240 (20% off), 270 (10% off), 300: share 50%, depth 15%.
func TestRow(t *testing.T) {
	var r Row
	r.AddProduct(250, 1000, 0.2)
	r.AddProduct(180, 1000, 0.2)
	r.AddProduct(300, 1000, 0)
	for _, price := range []uint32{300, 240, 270, 300} {
		r.AddDay(price, 300)
	}
	index, share, depth := r.Figures()
	if r.Products != 3 || r.WithoutPeers != 1 || r.SKUDays != 4 || r.PromoDays != 2 {
		t.Errorf("counts: %d products, %d without peers, %d SKU days, %d on promotion; want 3, 1, 4, 2", r.Products, r.WithoutPeers, r.SKUDays, r.PromoDays)
	}
	for _, f := range []struct {
		name string
		got  *float64
		want float64
	}{{"index", index, 106.1}, {"promo share", share, 50}, {"promo depth", depth, 15}} {
		if f.got == nil || *f.got != f.want {
			t.Errorf("%s: got %v, want %v", f.name, f.got, f.want)
		}
	}
	var empty Row
	if index, share, depth := empty.Figures(); index != nil || share != nil || depth != nil {
		t.Errorf("an empty row: got %v, %v, %v, want all null", index, share, depth)
	}
	var noPeers Row
	noPeers.AddProduct(300, 1000, 0)
	noPeers.AddDay(300, 300)
	if index, share, depth := noPeers.Figures(); index != nil || share == nil || *share != 0 || depth != nil {
		t.Errorf("a row without peers or promotions: got %v, %v, %v, want no index, share 0, no depth", index, share, depth)
	}
}
