package pricestat

import "github.com/grocerydata/grocery/storage"

// SKUSince is a banner SKU's daily prices from a day on, taken in order
// (Add): its first and last day, what its first day looks back on, its
// price and regular price on its last day with the first day of the run
// at that regular price, and its lowest 30-day low.
type SKUSince struct {
	Seen        bool
	First, Last int32
	Back        storage.Lookback // of the first day
	P, R        uint32           // on the last day, half-cents
	From        int32            // the first day of the run at R ending on Last
	// Low is the lowest day (0: none; the latest on a tie) under every
	// daily price of the 30 days before it on which a store's own price
	// in force fell from the SKU's previous day (storage.Lookback.Fell);
	// LowP its price and Min30 the lowest daily price of those 30 days.
	Low         int32
	LowP, Min30 uint32
}

// Add takes the SKU's next day.
func (s *SKUSince) Add(day int32, d *storage.SKUNum) {
	if !s.Seen {
		s.Seen, s.First, s.Back, s.From = true, day, d.Lookback, day
	} else if d.Regular != s.R {
		s.From = day
	}
	s.Last, s.P, s.R = day, d.Price, d.Regular
	if m := d.Low; m > 0 && d.Price < m && d.Fell && (s.Low == 0 || d.Price <= s.LowP) {
		s.Low, s.LowP, s.Min30 = day, d.Price, m
	}
}
