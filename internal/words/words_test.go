package words

import "testing"

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "banners"}, {1, "banner"}, {2, "banners"}, {-1, "banners"}} {
		if got := Plural(c.n, "banner"); got != c.want {
			t.Errorf("Plural(%d, banner) = %q, want %q", c.n, got, c.want)
		}
	}
}
