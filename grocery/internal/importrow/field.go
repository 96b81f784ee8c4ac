package importrow

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxTextLen bounds a text value in bytes: an imported name, city, brand,
// size or category.
const MaxTextLen = 200

// maxIDLen bounds an identifier in bytes: store_id, external_sku.
const maxIDLen = 64

// CheckID checks an identifier: required, at most 64 bytes of UTF-8
// without control characters.
func CheckID(field, s string) *Problem {
	if s == "" {
		return Badf(field, "is required")
	}
	if len(s) > maxIDLen {
		return Badf(field, "%q is %d bytes long: want at most %d (an accented letter takes 2)", s, len(s), maxIDLen)
	}
	return checkChars(field, s)
}

// RequireText is CheckText for a name or label that is required.
func RequireText(field, s string) *Problem {
	if s == "" {
		return Badf(field, "is required")
	}
	return CheckText(field, s)
}

// CheckText checks a name or label: empty, or at most MaxTextLen bytes of
// UTF-8 without control characters.
func CheckText(field, s string) *Problem {
	if s == "" {
		return nil
	}
	if len(s) > MaxTextLen {
		return Badf(field, "is %d bytes long: want at most %d (an accented letter takes 2)", len(s), MaxTextLen)
	}
	return checkChars(field, s)
}

func checkChars(field, s string) *Problem {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return Badf(field, "%q contains a control character", s)
		}
	}
	if !utf8.ValidString(s) {
		return Badf(field, "%q is not valid UTF-8", s)
	}
	return nil
}

// Coordinate parses a latitude or longitude in degrees: within
// -limit..limit, and within lo..hi to be plausibly in Canada.
func Coordinate(field, s string, limit, lo, hi float64) (float64, *Problem) {
	if s == "" {
		return 0, Badf(field, "is required: want decimal degrees")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, Badf(field, "%q is not a number: want decimal degrees, e.g. 43.6532", s)
	}
	if v < -limit || v > limit {
		return 0, Badf(field, "%s is out of range: want -%g to %g degrees", s, limit, limit)
	}
	if v < lo || v > hi {
		return 0, Badf(field, "%s is outside Canada: want %g to %g degrees", s, lo, hi)
	}
	return v, nil
}

// Flag parses a yes/no field; empty is def.
func Flag(field, s string, def bool) (bool, *Problem) {
	switch strings.ToLower(s) {
	case "":
		return def, nil
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, Badf(field, "%q is not a yes/no value: want true, false, 1, 0, yes or no (default %t)", s, def)
}
