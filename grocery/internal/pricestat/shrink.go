package pricestat

// Pack is one size of a product line at a banner, as Shrink compares it:
// its quantity and unit (unitprice.Of), its latest regular price in
// cents and the last day it was observed.
type Pack struct {
	Qty     float64
	Unit    string
	Regular uint32
	Last    int32
}

// UnitPrice is p's regular price per unit of its quantity, in cents.
func (p *Pack) UnitPrice() float64 { return float64(p.Regular) / p.Qty }

// Shrink finds the shrinkflation of a new pack of a line: among the
// larger packs of the line in the same unit still on the shelf (last
// observed on or after onShelf, not a price from months ago), the one
// whose unit price rose the most to the new pack's, by at least minPct
// percent. It returns its index in olds and the rise in percent; -1 and
// 0 when none rose so. Regular prices: a promotion on either size would
// make or hide a shrink.
func Shrink(fresh Pack, olds []Pack, onShelf int32, minPct float64) (int, float64) {
	newUnit := fresh.UnitPrice()
	best, bestUp := -1, 0.0
	for i := range olds {
		o := &olds[i]
		if o.Unit != fresh.Unit || o.Qty <= fresh.Qty || o.Last < onShelf {
			continue
		}
		oldUnit := o.UnitPrice()
		if up := PctChange(oldUnit, newUnit); AtLeastAbove(oldUnit, newUnit, minPct) && up > bestUp {
			best, bestUp = i, up
		}
	}
	return best, bestUp
}

// UnverifiedReference judges a promotion's reference price, regular,
// against what its stores charged in the 30 days before it: charged is
// the last day they charged regular off promotion (0: none), before the
// price they charged on the last day they charged any (0: none). A
// reference never charged and above before is unverified (ok), by over
// percent; high when at least highPct percent above before. A reference
// under before understates the saving: not unverified.
func UnverifiedReference(charged int32, before, regular uint32, highPct float64) (over float64, high, ok bool) {
	if charged != 0 || before == 0 || regular <= before {
		return 0, false, false
	}
	b, r := float64(before), float64(regular)
	return PctChange(b, r), AtLeastAbove(b, r, highPct), true
}
