package search

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/textfold"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
)

// Query is a shopper's query as a search reads it: the words a product's
// name or brand must match, a size it must have, and the words left out.
type Query struct {
	Words   []string // folded search tokens, each of which must match
	Size    string   // the size asked for, as written ("4L", "dozen"); "" when none
	Ignored []string // stop words left out ("cheapest", "the")
	qty     float64  // Size in units of basis (unitprice.Of)
	basis   string
}

// StopWords are the words a query may hold that name no product: they
// are left out unless nothing else is left.
var StopWords = []string{"a", "an", "the", "of", "for", "best", "cheap", "cheaper", "cheapest", "lowest", "price", "prices", "deal", "deals", "buy"}

// sizeRE finds a size in a query: a pack ("12 x 355 mL"), a measure with
// or without a space ("4L", "400 g", "1.5 kg"), or a dozen.
var sizeRE = regexp.MustCompile(`(?i)\b(?:(\d+)\s*[x×]\s*)?(\d+(?:[.,]\d+)?)\s*(ml|l|g|kg)\b|\b(half[\s-]+(?:a\s+)?)?dozen\b`)

// ParseQuery reads a query: its first size (matched against a product's
// size in the same basis after unit normalisation, so "4L", "4 L" and
// "4000 ml" are one size), then its words less the stop words.
func ParseQuery(q string) Query {
	var out Query
	if m := sizeRE.FindStringSubmatchIndex(q); m != nil {
		out.Size = strings.TrimSpace(q[m[0]:m[1]])
		sub := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return q[m[2*i]:m[2*i+1]]
		}
		if m[2*2] >= 0 { // a measure
			size := sub(2) + " " + strings.ToLower(sub(3))
			if sub(1) != "" {
				size = sub(1) + " x " + size
			}
			out.qty, out.basis = unitprice.Of(size)
		} else { // a dozen, or half of one
			out.qty, out.basis = 12, "per unit"
			if sub(4) != "" {
				out.qty = 6
			}
		}
		q = q[:m[0]] + " " + q[m[1]:]
	}
	words := textfold.Tokens(q)
	for _, w := range words {
		if slices.Contains(StopWords, w) {
			out.Ignored = append(out.Ignored, w)
		} else {
			out.Words = append(out.Words, w)
		}
	}
	if len(out.Words) == 0 {
		out.Words, out.Ignored = words, nil
	}
	return out
}

// HasSize reports whether the query asks for a size.
func (q *Query) HasSize() bool { return q.basis != "" }

// SizeMatches reports whether a product's size is the size the query asks
// for, in the same basis and quantity; true when it asks for none.
func (q *Query) SizeMatches(size string) bool {
	if !q.HasSize() {
		return true
	}
	qty, basis := unitprice.Of(size)
	return basis == q.basis && math.Abs(qty-q.qty) <= 1e-9*q.qty
}
