package pricestat

import (
	"fmt"

	"github.com/grocerydata/grocery/storage"
)

// The four periods of Weeks, as indexes of WeekSKU.SumP, .SumR and .N:
// this week, the week before, the last four weeks and the four weeks
// before.
const (
	PerWeek = iota
	PerPrevWeek
	PerFour
	PerPrevFour
	Periods // how many
)

// WeekSKU is one banner SKU of the province over Weeks' days.
type WeekSKU struct {
	Category, Banner, SKU string
	// weekly prices: the daily price on the last day with data of this
	// week (Day, P, R) and of the week before (PrevDay, PrevP, PrevR),
	// half-cents; a day of 0 when none.
	Day, PrevDay int32
	P, R         uint32
	PrevP, PrevR uint32
	SumP, SumR   [Periods]uint64 // half-cents, over the period's days with data
	N            [Periods]int32
}

// Weeks accumulates every banner SKU's daily prices of a province over
// two periods of FourWeeks days ending on AsOf, the last Week days of
// them being this week (Read).
type Weeks struct {
	AsOf      int32
	Week      int32 // days of a week
	FourWeeks int32 // days of a four-week period: 32 at most (a day is a bit of Days; Read checks)
	SKUs      []WeekSKU
	Days      map[string]uint64 // category -> days with data, bit i = day AsOf-2×FourWeeks+1+i
	Banners   map[string]bool   // banners with data
	Obs       int               // store-level prices read
}

// period says whether a day is in this week, which two periods it
// counts in (-1 for none), and its bit in a days-with-data mask.
func (w *Weeks) period(day int32) (week bool, per [2]int, bit uint64) {
	from := w.AsOf - 2*w.FourWeeks + 1
	weekFrom := w.AsOf - w.Week + 1
	bit = 1 << uint(day-from)
	switch {
	case day >= weekFrom:
		return true, [2]int{PerWeek, PerFour}, bit
	case day >= weekFrom-w.Week:
		return false, [2]int{PerPrevWeek, PerFour}, bit
	case day > w.AsOf-w.FourWeeks:
		return false, [2]int{-1, PerFour}, bit
	}
	return false, [2]int{-1, PerPrevFour}, bit
}

// Read reads every banner SKU's daily prices of the province over the
// days w compares, in one scan of the category days (by category,
// banner, day). It replaces Days and Banners but appends to SKUs and
// adds to Obs: read into a Weeks with only AsOf, Week and FourWeeks set.
// It returns an error when FourWeeks is over 32, and storage's error
// reading the days, if any.
func (w *Weeks) Read(tx *storage.Tx, province string) error {
	if w.FourWeeks > 32 {
		return fmt.Errorf("pricestat: Weeks.FourWeeks is %d, want at most 32 (a day is a bit of a 64-bit mask)", w.FourWeeks)
	}
	w.Days, w.Banners = map[string]uint64{}, map[string]bool{}
	index := map[string]int{} // SKU -> index in w.SKUs, within one category and banner
	var cat, banner string
	var mask uint64
	flush := func() {
		if cat != "" || banner != "" {
			w.Days[cat] |= mask
		}
	}
	err := tx.CatDays(province, "", "", w.AsOf-2*w.FourWeeks+1, w.AsOf, storage.CatSKUs, func(k *storage.CatDayKey, c *storage.CatDay) error {
		if k.Category != cat || k.Banner != banner {
			flush()
			cat, banner, mask = k.Category, k.Banner, 0
			clear(index)
		}
		if len(c.SKUs) == 0 {
			return nil
		}
		w.Obs += int(c.Count)
		w.Banners[k.Banner] = true
		week, per, bit := w.period(k.Day)
		mask |= bit
		for _, sd := range c.SKUs {
			i, ok := index[sd.SKU]
			if !ok {
				i = len(w.SKUs)
				index[sd.SKU] = i
				w.SKUs = append(w.SKUs, WeekSKU{Category: k.Category, Banner: k.Banner, SKU: sd.SKU})
			}
			s := &w.SKUs[i]
			for _, p := range per {
				if p >= 0 {
					s.SumP[p] += uint64(sd.Price)
					s.SumR[p] += uint64(sd.Regular)
					s.N[p]++
				}
			}
			// Days come in order: the last of a week wins.
			switch {
			case week:
				s.Day, s.P, s.R = k.Day, sd.Price, sd.Regular
			case per[0] == PerPrevWeek:
				s.PrevDay, s.PrevP, s.PrevR = k.Day, sd.Price, sd.Regular
			}
		}
		return nil
	})
	flush()
	return err
}
