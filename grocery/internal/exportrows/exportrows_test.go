package exportrows

import "testing"

func TestSlug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Dairy & Eggs", "dairy-eggs"},
		{"Fruits et légumes", "fruits-et-legumes"},
		{"  Bakery  ", "bakery"},
		{"Snacks (2)", "snacks-2"},
		{"&&", ""},
	} {
		if got := Slug(tc.in); got != tc.want {
			t.Errorf("Slug(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPromoEnd(t *testing.T) {
	t.Parallel()
	if got := promoEnd(299, 399, 20000); got.Null || got.N != 20000 {
		t.Errorf("promoEnd of a promotion ending on day 20000: got %+v, want 20000", got)
	}
	for _, tc := range []struct {
		price, regular uint32
		end            int32
	}{{399, 399, 20000}, {299, 399, 0}} {
		if got := promoEnd(tc.price, tc.regular, tc.end); !got.Null {
			t.Errorf("promoEnd(%d, %d, %d): got %+v, want null", tc.price, tc.regular, tc.end, got)
		}
	}
	if got := frenchName(""); !got.Null {
		t.Errorf(`frenchName(""): got %+v, want null`, got)
	}
}
