package pricestat

// Inflation accumulates the like-for-like change of a selection of banner
// SKUs (a category of the brief, or every one): this week over the week
// before, and the last four weeks over the four before. A SKU's relative
// in each is its mean matched-store index in the period over its mean in
// the period before (WeekSKU.IdxP / N, IdxR / N for the regular price),
// when it has days in both; the change is their geometric mean (Jevons).
type Inflation struct {
	// Shelf and Regular: [0] week over week, [1] four weeks over four.
	Shelf, Regular [2]Geomean
	// Banners are those of the SKUs compared week over week.
	Banners map[string]bool
	// Days has a bit for each day with data: bit d - first, first the
	// first day of the eight weeks (the caller's to set).
	Days uint64
}

// NewInflation returns an empty Inflation of days with data days.
func NewInflation(days uint64) *Inflation { return &Inflation{Banners: map[string]bool{}, Days: days} }

// Add adds banner SKU s's relatives.
func (x *Inflation) Add(s *WeekSKU) {
	for j, pp := range [2][2]int{{PerWeek, PerPrevWeek}, {PerFour, PerPrevFour}} {
		cur, prev := pp[0], pp[1]
		if s.N[cur] == 0 || s.N[prev] == 0 {
			continue
		}
		x.Shelf[j].Add((s.IdxP[cur] / float64(s.N[cur])) / (s.IdxP[prev] / float64(s.N[prev])))
		x.Regular[j].Add((s.IdxR[cur] / float64(s.N[cur])) / (s.IdxR[prev] / float64(s.N[prev])))
		if j == 0 {
			x.Banners[s.Banner] = true
		}
	}
}

// DaysIn returns how many days lo..hi have data, first being Days' bit 0.
func (x *Inflation) DaysIn(first, lo, hi int32) int {
	n := 0
	for d := lo; d <= hi; d++ {
		if x.Days&(1<<uint(d-first)) != 0 {
			n++
		}
	}
	return n
}
