package market

import (
	"cmp"
	"slices"
)

// Barcode is one barcode's prices, one per banner that prices it.
type Barcode struct {
	GTIN   string
	Prices []Price
}

// Basket compares the banners on a shared basket: the n barcodes the
// most banners price, of those at least minOthers+1 banners price (the
// fewest a comparison needs), ties by barcode. It returns how many
// barcodes the basket holds and each banner's standing over them
// against the market (Compare), by banner slug. It uses barcodes as
// scratch: the caller's slice is overwritten.
func Basket(barcodes []Barcode, minOthers, n int) (int, map[string]*Standing) {
	items := barcodes[:0]
	for _, b := range barcodes {
		if len(b.Prices) > minOthers {
			items = append(items, b)
		}
	}
	slices.SortFunc(items, func(x, y Barcode) int {
		return cmp.Or(cmp.Compare(len(y.Prices), len(x.Prices)), cmp.Compare(x.GTIN, y.GTIN))
	})
	items = items[:min(len(items), n)]
	stand := map[string]*Standing{}
	var buf []float64
	for _, b := range items {
		Compare(b.Prices, minOthers, &buf, func(own *Price, m, mr float64) {
			s := stand[own.Banner]
			if s == nil {
				s = &Standing{}
				stand[own.Banner] = s
			}
			s.Add(own, m, mr)
		})
	}
	return len(items), stand
}
