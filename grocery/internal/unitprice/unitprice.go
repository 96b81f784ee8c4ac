// Package unitprice reads a product's size ("675 g", "12 x 355 mL",
// "72 tea bags") as a quantity of its price basis (per 100 g, per 100 mL
// or per unit), so that prices of different sizes compare. It knows the
// words of sizes, not products: the analytics and the export call it on
// the size a product was imported with.
package unitprice

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// CountNouns returns the nouns that make a size "N <words> <noun>" a
// count priced "per unit" (their plurals count too), lower case.
func CountNouns() []string { return slices.Clone(countNouns) }

var countNouns = []string{
	"bag", "bar", "battery", "blade", "bottle", "box", "can", "capsule", "cartridge", "count", "ct",
	"cup", "diaper", "ea", "each", "egg", "filter", "liner", "pack", "pad", "packet", "piece", "pk",
	"pod", "pouch", "roll", "sachet", "sheet", "stick", "tablet", "tampon", "unit", "wipe",
}

// countNoun holds countNouns and their plurals, lower case.
var countNoun = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range countNouns {
		m[n] = true
		switch {
		case n == "battery":
			m["batteries"] = true
		case strings.HasSuffix(n, "x"), strings.HasSuffix(n, "ch"):
			m[n+"es"] = true
		default:
			m[n+"s"] = true
		}
	}
	return m
}()

// measures are the units of a measured size and their basis.
var measures = map[string]struct {
	per   float64 // units of the basis per unit of the size
	basis string
}{
	"g": {0.01, "per 100 g"}, "kg": {10, "per 100 g"}, "ml": {0.01, "per 100 mL"}, "l": {10, "per 100 mL"},
}

// Of reads a size such as "675 g", "2 L", "12 x 355 mL", "24 rolls"
// or "72 tea bags" and returns how many units of its price basis it holds
// (27 × 25 g is 6.75 "per 100 g" units) and the basis, or 0 and "" when
// the size names no quantity. A count is "N <words> <count noun>" with a
// noun of CountNouns.
func Of(size string) (float64, string) {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(size, "×", "x")))
	count := 1.0
	// "12 x 355 ml": a pack multiplier.
	if len(f) >= 3 && f[1] == "x" {
		n, err := strconv.ParseFloat(f[0], 64)
		if err != nil || !positive(n) {
			return 0, ""
		}
		count, f = n, f[2:]
	}
	if len(f) == 1 {
		// "500g", "2l": split digits from the unit.
		i := strings.IndexFunc(f[0], func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if i <= 0 {
			return 0, ""
		}
		f = []string{f[0][:i], f[0][i:]}
	}
	if len(f) < 2 {
		return 0, ""
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(f[0], ",", "."), 64)
	if err != nil || !positive(n) || !positive(n*count) {
		return 0, ""
	}
	n *= count
	if m, ok := measures[f[1]]; ok {
		if len(f) != 2 {
			return 0, "" // "500 g bag": a measure with more words
		}
		return n * m.per, m.basis
	}
	if countNoun[f[len(f)-1]] {
		return n, "per unit"
	}
	return 0, ""
}

// positive reports whether x is a finite number above 0: ParseFloat
// also reads "inf" and "nan", which name no quantity.
func positive(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

// Code numbers a basis as storage.CatObs.Unit keeps it: 1 per 100 g, 2
// per 100 mL, 3 per unit, 0 for none.
func Code(basis string) uint32 { return codes[basis] }

// Name names a basis numbered by Code: "" for 0 or a number of none.
func Name(code uint32) string {
	if code >= uint32(len(names)) {
		return ""
	}
	return names[code]
}

var codes = map[string]uint32{"per 100 g": 1, "per 100 mL": 2, "per unit": 3}

var names = [4]string{"", "per 100 g", "per 100 mL", "per unit"}
