package pricestat

import (
	"math/rand/v2"
	"testing"
)

func TestInForce(t *testing.T) {
	const day, window = 100, 14
	tests := []struct {
		name           string
		date           int32
		price, regular uint32
		promoEnd       int32
		wantP, wantR   uint32
		wantEnded      int32
		wantOK         bool
	}{
		{"RegularPrice", 95, 499, 499, 0, 499, 499, 0, true},
		{"PromoRunning", 95, 399, 499, 102, 399, 499, 0, true},
		{"PromoEndsToday", 95, 399, 499, 100, 399, 499, 0, true},
		{"PromoEndedYesterday", 95, 399, 499, 99, 499, 499, 99, true},
		{"PromoWithoutEnd", 87, 399, 499, 0, 399, 499, 0, true},
		{"LastDayOfWindow", 87, 499, 499, 0, 499, 499, 0, true},
		{"OutOfWindow", 86, 499, 499, 0, 0, 0, 0, false},
		{"AfterDay", 101, 499, 499, 0, 0, 0, 0, false},
		{"RegularBelowPrice", 95, 499, 450, 0, 499, 499, 0, true},
	}
	for _, tt := range tests {
		if tt.wantOK {
			// AtDay is InForce without the window.
			p, r, ended := AtDay(tt.price, tt.regular, tt.promoEnd, day)
			if p != tt.wantP || r != tt.wantR || ended != tt.wantEnded {
				t.Errorf("%s: AtDay got %d, %d, ended %d; want %d, %d, ended %d", tt.name, p, r, ended, tt.wantP, tt.wantR, tt.wantEnded)
			}
		}
		t.Run(tt.name, func(t *testing.T) {
			p, r, ended, ok := InForce(tt.date, tt.price, tt.regular, tt.promoEnd, day, window)
			if p != tt.wantP || r != tt.wantR || ended != tt.wantEnded || ok != tt.wantOK {
				t.Errorf("got %d, %d, ended %d, %v; want %d, %d, ended %d, %v", p, r, ended, ok, tt.wantP, tt.wantR, tt.wantEnded, tt.wantOK)
			}
		})
	}
}

// TestInForceOn: a banner SKU's price in force on day 100 over its
// stores' latest observations, worked out by hand.
func TestInForceOn(t *testing.T) {
	const day, window = 100, 14
	tests := []struct {
		name string
		obs  []StoreObs
		want BannerPrice
		ok   bool
	}{
		{
			// Visited on different days, each store's price carried
			// forward: 4.99 and 5.39 whichever was seen last.
			"CarriedForward",
			[]StoreObs{{Date: 99, Price: 499, Regular: 499}, {Date: 90, Price: 539, Regular: 539}},
			BannerPrice{Price: 499, Regular: 499, Min: 499, Max: 539, Stores: 2, Newest: 99, Expires: 104},
			true,
		},
		{
			// Store A's promotion ended on day 98: 4.99 there, as at B
			// and C; A's end is said. C at 4.49 with no end stays in
			// force. Most common: 4.99 (A, B), regular 4.99 (all three).
			"PromotionEnded",
			[]StoreObs{
				{Date: 95, Price: 399, Regular: 499, PromoEnd: 98},
				{Date: 96, Price: 499, Regular: 499},
				{Date: 97, Price: 449, Regular: 499},
			},
			BannerPrice{Price: 499, Regular: 499, Min: 449, Max: 499, PromoEnded: 98, Stores: 3, Newest: 97, Expires: 109},
			true,
		},
		{
			// Two stores on a promotion in force, ending 102 and 104:
			// the latest end; it expires when the first ends (103).
			"PromotionInForce",
			[]StoreObs{{Date: 95, Price: 399, Regular: 499, PromoEnd: 102}, {Date: 98, Price: 399, Regular: 499, PromoEnd: 104}},
			BannerPrice{Price: 399, Regular: 499, Min: 399, Max: 399, PromoEnd: 104, Stores: 2, Newest: 98, Expires: 103},
			true,
		},
		{
			// Store B left 14 days ago: only A counts.
			"OutOfWindow",
			[]StoreObs{{Date: 99, Price: 599, Regular: 599}, {Date: 86, Price: 499, Regular: 499}},
			BannerPrice{Price: 599, Regular: 599, Min: 599, Max: 599, Stores: 1, Newest: 99, Expires: 113},
			true,
		},
		{"NoneInForce", []StoreObs{{Date: 80, Price: 599, Regular: 599}}, BannerPrice{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, _ := InForceOn(tt.obs, day, window, nil)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestFollowOnAsInForceOn follows random stores' observations day by day
// and checks that Follow.On, which answers again between observations
// until the price expires, gives InForceOn's answer on every day.
func TestFollowOnAsInForceOn(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 200; run++ {
		var f Follow
		latest := map[uint32]StoreObs{}
		for day := int32(100); day < 220; day++ {
			// A few stores observed on some days, some on promotion
			// with a stated end, some with none.
			for store := uint32(1); store <= 4; store++ {
				if r.IntN(9) != 0 {
					continue
				}
				o := StoreObs{Date: day, Regular: 400 + uint32(r.IntN(3))*10}
				o.Price = o.Regular
				if r.IntN(3) == 0 {
					o.Price = o.Regular - 50
					if r.IntN(2) == 0 {
						o.PromoEnd = day + int32(r.IntN(10))
					}
				}
				f.Observe(store, o)
				latest[store] = o
			}
			var obs []StoreObs
			for _, o := range latest {
				obs = append(obs, o)
			}
			want, wantOK, _ := InForceOn(obs, day, 14, nil)
			got, ok := f.On(day, 14)
			if ok != wantOK || got != want {
				t.Fatalf("run %d, day %d: On = %+v, %v; InForceOn = %+v, %v", run, day, got, ok, want, wantOK)
			}
		}
	}
}
