package market

import "testing"

// TestPosition works a banner's regular price against its market by
// hand, with a 15% gap and at least 2 other banners.
func TestPosition(t *testing.T) {
	// offer is a banner's offer at shelf p and regular r, in cents.
	offer := func(banner string, p, r uint32) BannerOffer {
		return BannerOffer{Banner: banner, P: 2 * p, R: 2 * r, Current: true}
	}
	var s Scratch
	for _, tc := range []struct {
		name           string
		own            BannerOffer
		others         []BannerOffer
		ok             bool
		side           Side
		shelf, regular float64
	}{
		// Regular 500 against the others' 400/420/440 (median 420): 19%
		// above; their shelf prices 400/380/440, median 400.
		{"above", offer("own", 500, 500), []BannerOffer{offer("a", 400, 400), offer("b", 380, 420), offer("c", 440, 440)}, true, Above, 400, 420},
		// 350 against 420/440/460: 20.5% below the median 440.
		{"below", offer("own", 350, 350), []BannerOffer{offer("a", 420, 420), offer("b", 440, 440), offer("c", 460, 460)}, true, Below, 440, 440},
		// 400 against a median of 440: 9.1% below, under the gap.
		{"near", offer("own", 400, 400), []BannerOffer{offer("a", 420, 420), offer("b", 440, 440), offer("c", 460, 460)}, false, 0, 0, 0},
		// 460 is exactly 15% above 400: at the gap, so above.
		{"at the gap", offer("own", 460, 460), []BannerOffer{offer("a", 400, 400), offer("b", 400, 400)}, true, Above, 400, 400},
		// 459 is 14.75% above: not.
		{"under the gap", offer("own", 459, 459), []BannerOffer{offer("a", 400, 400), offer("b", 400, 400)}, false, 0, 0, 0},
		// One other banner is too few.
		{"too few", offer("own", 900, 900), []BannerOffer{offer("a", 400, 400)}, false, 0, 0, 0},
		// Another banner at your regular price: the market is the others'
		// median all the same, 500/400/400 -> 400.
		{"a tie with you", offer("own", 500, 500), []BannerOffer{offer("a", 500, 500), offer("b", 400, 400), offer("c", 400, 400)}, true, Above, 400, 400},
	} {
		side, shelf, regular, ok := Position(&tc.own, tc.others, 2, 15, &s)
		if ok != tc.ok || side != tc.side || shelf != tc.shelf || regular != tc.regular {
			t.Errorf("%s: got side %d, market %v and %v, %v; want %d, %v and %v, %v", tc.name, side, shelf, regular, ok, tc.side, tc.shelf, tc.regular, tc.ok)
		}
	}
	s.Reset()
	if len(s.prices) != 0 || len(s.floats) != 0 {
		t.Errorf("after Reset: %d prices, %d floats, want none", len(s.prices), len(s.floats))
	}
}
