package grocery

import (
	"strconv"
	"strings"
)

// unitOf reads a size such as "675 g", "2 L", "12 x 355 mL" or "24 rolls"
// and returns how many units of its price basis it holds (27 × 25 g is 6.75
// "per 100 g" units) and the basis, or 0 and "" when the size names no
// quantity.
func unitOf(size string) (float64, string) {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(size, "×", "x")))
	count := 1.0
	// "12 x 355 ml": a pack multiplier.
	if len(f) >= 3 && f[1] == "x" {
		n, err := strconv.ParseFloat(f[0], 64)
		if err != nil || n <= 0 {
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
	if len(f) != 2 {
		return 0, ""
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(f[0], ",", "."), 64)
	if err != nil || n <= 0 {
		return 0, ""
	}
	n *= count
	switch f[1] {
	case "g":
		return n / 100, "per 100 g"
	case "kg":
		return n * 10, "per 100 g"
	case "ml":
		return n / 100, "per 100 mL"
	case "l":
		return n * 10, "per 100 mL"
	case "unit", "units", "rolls", "roll", "pack", "ea", "count", "ct", "pods", "bags", "sheets", "eggs", "bars", "cups", "pouches", "cans", "bottles", "tablets", "diapers", "wipes", "capsules", "pieces":
		return n, "per unit"
	}
	return 0, ""
}
