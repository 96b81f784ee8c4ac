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

// FrenchTokens is Tokens for French text, whose elisions join an article
// or pronoun to the next word: besides the joined token ("davoine" of
// "d'avoine", which a query typed with its apostrophe gives), it gives the
// word the elision hides ("avoine"), so that a query of the word alone
// finds it.
func FrenchTokens(s string) []string {
	out := Tokens(s)
	start := -1 // byte offset of the current word, -1 between words
	elided := 0 // byte offset just past the word's first apostrophe, 0 when none
	word := func(end int) {
		if start >= 0 && elided > 0 && elisions[Key(s[start:elided])] {
			if rest := Tokens(s[elided:end]); len(rest) == 1 {
				out = append(out, rest[0])
			}
		}
		start, elided = -1, 0
	}
	for i, r := range s {
		switch f := Fold(r); {
		case unicode.IsLetter(f) || unicode.IsDigit(f):
			if start < 0 {
				start = i
			}
		case r == '\'' || r == '’':
			if start >= 0 && elided == 0 {
				elided = i + utf8.RuneLen(r)
			}
		default:
			word(i)
		}
	}
	word(len(s))
	return out
}

// elisions are the French words an apostrophe joins to the next one.
var elisions = map[string]bool{"c": true, "d": true, "j": true, "l": true, "m": true, "n": true, "s": true, "t": true,
	"qu": true, "jusqu": true, "lorsqu": true, "puisqu": true}
