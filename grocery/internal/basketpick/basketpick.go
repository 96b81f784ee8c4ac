// Package basketpick holds the choices of grocery's CompareBasket over
// plain data: the substitute that stands in for an item a banner lacks,
// and the cheapest split of a basket between two banners. It imports
// nothing from grocery, which reads the offers and writes the answer.
package basketpick

import "math"

// Candidate is a product that may stand in for a lacking item: its size
// in units of the item's price basis (100 g, 100 mL or one unit), and its
// shelf price in cents.
type Candidate struct {
	Size  float64
	Price int64
}

// Fits reports whether a product of size may stand in for an item of
// itemSize: from half to twice its size.
func Fits(itemSize, size float64) bool { return size >= itemSize/2 && size <= itemSize*2 }

// Substitute picks the substitute of an item of size itemSize (units of
// its price basis) wanted quantity times, among candidates of the same
// product type, category and basis: of those that fit, the closest in
// size (by the ratio of sizes), then the cheapest by unit price, then the
// first. It returns the candidate's index and how many packs of it cover
// quantity × itemSize (rounded up), or -1 when none fits.
func Substitute(itemSize float64, quantity int, cands []Candidate) (best, packs int) {
	best = -1
	var bestDist, bestUnit float64
	for i, c := range cands {
		if !Fits(itemSize, c.Size) {
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

// Banner is one banner's exact lines of a basket: each item it prices as
// asked (by the item's index), at its line total in cents.
type Banner struct {
	Name  string
	Lines map[int]int64
}

// Split is a basket bought at two banners.
type Split struct {
	Banners [2]string // by name
	Total   int64
	Items   []string // the banner of each item, in the order of the items
}

// CheapestSplit returns the cheapest basket of items (their indexes)
// taking each at the cheaper of two banners (ties to the first by name);
// of pairs with the same total, the one whose names joined, the first
// then the second, sort first. ok is false when no pair prices every
// item, or there is no item.
func CheapestSplit(items []int, banners []Banner) (best Split, ok bool) {
	if len(items) == 0 {
		return Split{}, false
	}
	for i := range banners {
		for j := i + 1; j < len(banners); j++ {
			a, b := &banners[i], &banners[j]
			if b.Name < a.Name {
				a, b = b, a
			}
			s, covered := split(items, a, b)
			if covered && (!ok || s.Total < best.Total || s.Total == best.Total && a.Name+b.Name < best.Banners[0]+best.Banners[1]) {
				best, ok = s, true
			}
		}
	}
	return best, ok
}

// split returns items bought at the cheaper of a and b, and whether the
// two price every item.
func split(items []int, a, b *Banner) (Split, bool) {
	s := Split{Banners: [2]string{a.Name, b.Name}, Items: make([]string, 0, len(items))}
	for _, it := range items {
		pa, okA := a.Lines[it]
		pb, okB := b.Lines[it]
		switch {
		case okA && (!okB || pa <= pb):
			s.Total += pa
			s.Items = append(s.Items, a.Name)
		case okB:
			s.Total += pb
			s.Items = append(s.Items, b.Name)
		default:
			return Split{}, false
		}
	}
	return s, true
}
