package pricestat

import "testing"

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
