package restserver

import (
	"strconv"
	"strings"
)

// acceptQ returns the quality an Accept header gives the media type mt
// ("text/csv"): the q of the most specific range that matches it (mt
// itself, then its type/*, then */*), 1 when that range gives none, and
// -1 when no range matches. A missing or empty Accept takes everything.
func acceptQ(accept, mt string) float64 {
	if strings.TrimSpace(accept) == "" {
		return 1
	}
	typ, _, _ := strings.Cut(mt, "/")
	q, specificity := -1.0, 0
	for part := range strings.SplitSeq(accept, ",") {
		rng, params, _ := strings.Cut(part, ";")
		rng = strings.ToLower(strings.TrimSpace(rng))
		s := 0
		switch {
		case rng == mt:
			s = 3
		case rng == typ+"/*":
			s = 2
		case rng == "*/*":
			s = 1
		default:
			continue
		}
		if s > specificity {
			specificity, q = s, qValue(params)
		}
	}
	return q
}

// qValue is the q parameter of a media range's parameters, 1 without
// one (or a malformed one).
func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(name), "q") {
			if f, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
				return f
			}
		}
	}
	return 1
}
