package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseQuery: a size comes out of the words in any spelling and is
// matched in its basis (4L = 4 L = 4000 mL; 12 x 355 mL = 4260 mL; a
// dozen = 12 units); stop words are left out unless nothing else is left.
func TestParseQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query   string
		words   []string
		size    string
		ignored []string
		match   []string // sizes of products it keeps
		miss    []string // sizes it does not
	}{
		{"2% milk 4L", []string{"2", "milk"}, "4L", nil, []string{"4 L", "4000 mL"}, []string{"2 L", "4 kg", ""}},
		{"milk 4 L", []string{"milk"}, "4 L", nil, []string{"4 L"}, []string{"1 L"}},
		{"chips 400 g", []string{"chips"}, "400 g", nil, []string{"400 g", "0.4 kg"}, []string{"400 mL", "200 g"}},
		{"cola 12 x 355 mL", []string{"cola"}, "12 x 355 mL", nil, []string{"12 x 355 mL", "4260 mL"}, []string{"355 mL", "6 x 355 mL"}},
		{"eggs dozen", []string{"eggs"}, "dozen", nil, []string{"12 eggs"}, []string{"30 eggs", "12 x 1 L"}},
		{"half dozen eggs", []string{"eggs"}, "half dozen", nil, []string{"6 eggs"}, []string{"12 eggs"}},
		{"cheapest milk", []string{"milk"}, "", []string{"cheapest"}, []string{"2 L", ""}, nil},
		{"the best", []string{"the", "best"}, "", nil, nil, nil},
		{"2 large eggs", []string{"2", "large", "eggs"}, "", nil, nil, nil},
	} {
		q := ParseQuery(tc.query)
		if diff := cmp.Diff(tc.words, q.Words); diff != "" {
			t.Errorf("%q words (-want +got):\n%s", tc.query, diff)
		}
		if q.Size != tc.size || !cmp.Equal(q.Ignored, tc.ignored) {
			t.Errorf("%q: size %q, ignored %q; want %q, %q", tc.query, q.Size, q.Ignored, tc.size, tc.ignored)
		}
		for _, s := range tc.match {
			if !q.SizeMatches(s) {
				t.Errorf("%q: does not keep size %q", tc.query, s)
			}
		}
		for _, s := range tc.miss {
			if q.SizeMatches(s) {
				t.Errorf("%q: keeps size %q", tc.query, s)
			}
		}
	}
}
