// Package textfold folds Canadian English and French text for search: one
// rule for grocery's queries and for the demo generator's sample query.
package textfold

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fold maps a rune to its lowercase form without accents. It covers the
// Latin letters used in Canadian English and French product data.
func Fold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	switch r = unicode.ToLower(r); r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å':
		return 'a'
	case 'ç':
		return 'c'
	case 'è', 'é', 'ê', 'ë':
		return 'e'
	case 'ì', 'í', 'î', 'ï':
		return 'i'
	case 'ñ':
		return 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö':
		return 'o'
	case 'ù', 'ú', 'û', 'ü':
		return 'u'
	case 'ý', 'ÿ':
		return 'y'
	}
	return r
}

// Key folds s to a lookup key: lowercase, no accents, and only letters
// and digits, so "Île-du-Prince-Édouard" and "ile du prince edouard" match.
func Key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = Fold(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Tokens splits s into folded search tokens: runs of letters and digits,
// lowercase and without accents. "Crème Glacée 2%" gives creme, glacee, 2.
func Tokens(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		r = Fold(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else if r != '\'' && r != '’' {
			// Apostrophes join: "Dempster's" is one token, "dempsters".
			flush()
		}
	}
	flush()
	return out
}
