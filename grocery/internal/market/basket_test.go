package market

import (
	"math"
	"testing"
)

// TestBasket works a basket of two by hand. Each comparison needs two
// other banners (three banners a barcode).
func TestBasket(t *testing.T) {
	p := func(banner string, price, regular float64) Price {
		return Price{Banner: banner, Price: price, Regular: regular}
	}
	barcodes := []Barcode{
		{"D", []Price{p("x", 100, 100), p("y", 100, 100), p("z", 100, 100)}}, // 3 banners, after A by barcode
		{"C", []Price{p("x", 100, 100), p("y", 900, 900)}},                   // 2 banners: too few
		{"A", []Price{p("x", 100, 120), p("y", 200, 200), p("z", 300, 300)}}, // 3 banners
		{"B", []Price{p("x", 200, 200), p("y", 200, 200), p("z", 200, 200), p("w", 400, 400)}},
	}
	n, stand := Basket(barcodes, 2, 2)
	if n != 2 {
		t.Fatalf("Basket holds %d barcodes, want 2 (B, the most banners, then A before D)", n)
	}
	// B: every banner's market is the median of the three others: 200.
	// A: x's market is the median of 200 and 300, 250 (regular 250); y's
	// of 100 and 300, 200 (regular of 120 and 300: 210); z's of 100 and
	// 200, 150 (regular 160).
	for _, w := range []struct {
		banner         string
		items          int
		own, market    float64
		shelf, regular float64 // indexes: 100 × the geometric mean of own ÷ market
	}{
		{"x", 2, 300, 450, 100 * math.Sqrt(1*100.0/250), 100 * math.Sqrt(1*120.0/250)},
		{"y", 2, 400, 400, 100, 100 * math.Sqrt(1*200.0/210)},
		{"z", 2, 500, 350, 100 * math.Sqrt(1*300.0/150), 100 * math.Sqrt(1*300.0/160)},
		{"w", 1, 400, 200, 200, 200},
	} {
		s := stand[w.banner]
		if s == nil {
			t.Errorf("banner %s: no standing", w.banner)
			continue
		}
		if s.Items != w.items || s.Own != w.own || s.Market != w.market ||
			math.Abs(s.Shelf.Index()-w.shelf) > 1e-9 || math.Abs(s.Regular.Index()-w.regular) > 1e-9 {
			t.Errorf("banner %s: %d items, own %v, market %v, index %.4f, regular %.4f; want %d, %v, %v, %.4f, %.4f",
				w.banner, s.Items, s.Own, s.Market, s.Shelf.Index(), s.Regular.Index(), w.items, w.own, w.market, w.shelf, w.regular)
		}
	}
	if len(stand) != 4 {
		t.Errorf("%d banners stand, want 4 (x, y, z, w)", len(stand))
	}
}
