package grocery

import "github.com/grocerydata/grocery/grocery/internal/unitprice"

// CountNouns returns the words that make a size "N <count noun>" a count
// of units priced "per unit": bag, bar, battery, blade, bottle, box, can,
// capsule, cartridge, count, ct, cup, diaper, ea, each, egg, filter,
// liner, pack, pad, packet, piece, pk, pod, pouch, roll, sachet, sheet,
// stick, tablet, tampon, unit, wipe, and their plurals ("30 bags",
// "72 tea bags", "36 pads", "12 large eggs"). The noun is the size's last
// word; the words between the number and the noun ("tea", "large") may be
// any but a measure: a measured size (g, kg, mL, L) is priced per 100 g
// or per 100 mL instead, and "500 g bag" has no unit price. grocery/README.md
// and the OpenAPI document (restserver/openapi.json,
// UnitPriceStats.basis) list the same nouns.
func CountNouns() []string { return unitprice.CountNouns() }
