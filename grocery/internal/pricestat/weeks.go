package pricestat

import (
	"fmt"
	"slices"

	"github.com/grocerydata/grocery/storage"
)

// The four periods of Weeks, as indexes of WeekSKU.IdxP, .IdxR and .N:
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
	// IdxP and IdxR add up the SKU's matched-store index of the price
	// and the regular price (Matched's I: its stores' own moves chained
	// from its first day read) over the period's days with data; N counts
	// those days. RegMove is the index's regular move from PrevDay to
	// Day: 10^7 × ln(I on Day / I on PrevDay), 0 when either is 0.
	IdxP, IdxR [Periods]float64
	N          [Periods]int32
	RegMove    int64
	chain      chain
	prevLnR    int64 // chain.lnR on PrevDay
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
	var (
		at          []int32 // by SKU number in the group's list: 1 + its index in w.SKUs, 0 for none yet
		cat, banner string
		mask        uint64
		started     bool
	)
	flush := func() {
		if started {
			w.Days[cat] |= mask
		}
	}
	day := func(k *storage.CatDayKey, c *storage.CatDay) error {
		if !started || k.Category != cat || k.Banner != banner {
			flush()
			cat, banner, mask, started = k.Category, k.Banner, 0, true
			clear(at)
			at = at[:0]
		}
		if len(c.SKUNums) == 0 {
			return nil
		}
		if n := len(c.Names) - len(at); n > 0 {
			at = append(at, make([]int32, n)...)
		}
		w.Obs += int(c.Count)
		w.Banners[k.Banner] = true
		week, per, bit := w.period(k.Day)
		mask |= bit
		for j := range c.SKUNums {
			sd := &c.SKUNums[j]
			i := at[sd.Num]
			if i == 0 {
				if len(w.SKUs) == cap(w.SKUs) { // doubled: tens of thousands, which append grows a quarter at a time
					w.SKUs = slices.Grow(w.SKUs, len(w.SKUs)+64)
				}
				w.SKUs = append(w.SKUs, WeekSKU{Category: k.Category, Banner: k.Banner, SKU: c.Names[sd.Num]})
				i = int32(len(w.SKUs))
				at[sd.Num] = i
			}
			s := &w.SKUs[i-1]
			ip, ir := s.chain.next(&sd.Lookback)
			for _, p := range per {
				if p >= 0 {
					s.IdxP[p] += ip
					s.IdxR[p] += ir
					s.N[p]++
				}
			}
			// Days come in order: the last of a week wins.
			switch {
			case week:
				s.Day, s.P, s.R = k.Day, sd.Price, sd.Regular
				if s.PrevDay != 0 {
					s.RegMove = s.chain.lnR.ln - s.prevLnR
				}
			case per[0] == PerPrevWeek:
				s.PrevDay, s.PrevP, s.PrevR, s.prevLnR = k.Day, sd.Price, sd.Regular, s.chain.lnR.ln
			}
		}
		return nil
	}
	// The days before the last two weeks move the SKUs' indexes only:
	// their links are read, the rest of each SKU day passed over.
	err := tx.CatDaysSplit(province, "", "", w.AsOf-2*w.FourWeeks+1, w.AsOf-2*w.Week+1, w.AsOf,
		storage.CatSKUs|storage.CatNumbered|storage.CatLinks, storage.CatSKUs|storage.CatNumbered, day)
	flush()
	return err
}
