// Package catreport accumulates the figures of grocery's category report
// over plain data: the category days of two periods of the same length
// (storage.CatSpan: a block of days or a day, as grocery reads them in one
// read transaction, the previous period's first) and the banner SKUs' shelf spans, for the
// products observed. It imports nothing from grocery; grocery rounds the
// figures and writes the answer.
package catreport

import (
	"cmp"
	"maps"
	"math/bits"
	"slices"
	"sync"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// Category is one category's figures, unrounded: the levels of the
// period's observations (every store observation once), the previous
// period's count and sum, and the like-for-like change of the banner SKUs
// with a daily price in both periods (pricestat.Matched).
type Category struct {
	Name               string
	Count, Promo       int    // observations of the period, and of those on promotion
	Sum                uint64 // of their prices, in cents
	MinPrice, MaxPrice uint32 // cents
	Median2            uint64 // twice the median price (pricestat.Runs.Median2)
	Units              *Units // the unit prices of the most observed basis; nil when none
	Products           int    // distinct barcodes observed in the period (AddShelf)
	Stores             int    // stores that observed the category in the period
	PrevCount          int    // observations of the previous period
	PrevSum            uint64 // of their prices, in cents
	// Matched SKUs have a daily price in both periods, of MatchedBanners
	// banners; ChangePct and RegularChangePct are the geometric means of
	// their price relatives less one, in percent (0 when Matched is 0).
	Matched, MatchedBanners     int
	ChangePct, RegularChangePct float64
	// Days and PreviousDays count the days of the period and of the
	// previous period on which a SKU of the category has a daily price.
	Days, PreviousDays int
}

// Units is one basis' unit prices (storage.CatObs.Unit without its basis:
// hundredths of a cent).
type Units struct {
	Basis    uint32 // 1..3
	N        int
	Sum      uint64
	Min, Max uint32
	Median2  uint64 // twice the median
}

// Scan takes the category days and shelf spans of a report: Add each day,
// AddShelf each span, then read the figures, then Release.
type Scan struct {
	previousFrom, from, to int32
	match                  func(category string) bool
	byCat                  map[string]*acc
	allDays                pricestat.DaySet // days with a daily price, every category
	allStores              pricestat.Set
	banners                map[string]bool // of the period's observations
	lastBnr                string
	lo, hi                 int32 // the period's first and last days observed
	// The category and banner SKUs of the day read last: a scan reads a
	// category's banners one after the other, each banner's days in
	// order.
	last    *acc
	lastSKU *pricestat.Matched
	counted map[string]*acc // AddShelf's: by barcode, the category it was counted in last
}

// New returns a Scan of the period from..to and the previous period,
// previousFrom..from-1, of the categories that match says to keep.
func New(previousFrom, from, to int32, match func(category string) bool) *Scan {
	return &Scan{previousFrom: previousFrom, from: from, to: to, match: match, byCat: map[string]*acc{},
		allDays: pricestat.DaySet{First: previousFrom}, banners: map[string]bool{}, lo: to + 1, hi: previousFrom - 1,
		counted: map[string]*acc{}}
}

// group returns the accumulators of k's category and banner SKUs, nil
// for a category the scan leaves out.
func (s *Scan) group(k *storage.CatDayKey) (*acc, *pricestat.Matched) {
	if s.last != nil && s.last.name == k.Category && s.lastSKU.Banner == k.Banner {
		return s.last, s.lastSKU
	}
	if !s.match(k.Category) {
		return nil, nil
	}
	x := s.byCat[k.Category]
	if x == nil {
		x = newAcc(k.Category, s.allDays.First)
		s.byCat[k.Category] = x
	}
	m := x.matched(k.Banner)
	s.last, s.lastSKU = x, m
	return x, m
}

// Add takes one span of category days (storage.Tx.CatSpans), read
// without levels in the previous period (its count, sum and SKUs) and
// with them in the period; a banner's spans in day order, the previous
// period's first.
func (s *Scan) Add(k *storage.CatDayKey, c *storage.CatSpan) error {
	x, m := s.group(k)
	if x == nil {
		return nil
	}
	p := pricestat.Current
	if k.Day < s.from {
		p = pricestat.Previous
	}
	if len(c.SKUs) > 0 || len(c.Nums) > 0 {
		x.days.AddMask(c.First, c.Days)
		s.allDays.AddMask(c.First, c.Days)
		m.AddSpan(c, p)
	}
	if p == pricestat.Previous {
		x.prevCount += int(c.Count)
		x.prevSum += c.Sum
		return nil
	}
	if k.Banner != s.lastBnr { // a banner's spans come one after the other
		s.banners[k.Banner], s.lastBnr = true, k.Banner
	}
	for i, w := range c.Observed {
		if w != 0 {
			s.lo = min(s.lo, c.First+int32(64*i+bits.TrailingZeros64(w)))
			s.hi = max(s.hi, c.First+int32(64*i+63-bits.LeadingZeros64(w)))
		}
	}
	if x.count == 0 {
		// The lists of a period hold at most as many distinct values a
		// span as the previous period's observations (read so far: the
		// category's first banner's): room for a quarter of that at
		// once, not a doubling of a growing list.
		n := (x.prevCount+int(c.Count))/4 + len(c.PriceRuns)
		x.prices.Grow(n)
		x.units.Grow(n)
	}
	x.count += int(c.Count)
	x.promo += int(c.Promo)
	x.sum += c.Sum
	x.prices.AddPrices(c.PriceRuns)
	x.units.AddUnits(c.UnitRuns)
	for _, st := range c.Stores {
		x.stores.Add(st.Store)
		s.allStores.Add(st.Store)
	}
	return nil
}

// AddShelf takes a banner SKU's shelf span (its first and last day
// observed) with its barcode and category: a barcode observed in the
// period counts once in a category observed in the period.
func (s *Scan) AddShelf(gtin, category []byte, first, last int32) {
	if len(gtin) == 0 || first > s.to || last < s.from {
		return
	}
	// Most spans are of a product already counted in its category
	// (another banner's SKU of it): counted finds those with one lookup.
	if x := s.counted[string(gtin)]; x != nil && x.name == string(category) {
		return
	}
	if x := s.byCat[string(category)]; x != nil && x.count > 0 {
		g := string(gtin)
		x.products[g] = true
		s.counted[g] = x
	}
}

// Categories returns the figures of each category observed in the
// period, by name.
func (s *Scan) Categories() []Category {
	var out []Category
	for _, x := range s.byCat {
		if x.count > 0 {
			out = append(out, x.figures(s.previousFrom, s.from, s.to))
		}
	}
	slices.SortFunc(out, func(a, b Category) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Banners returns the banners observed in the period, sorted; empty,
// never nil.
func (s *Scan) Banners() []string {
	out := slices.AppendSeq(make([]string, 0, len(s.banners)), maps.Keys(s.banners))
	slices.Sort(out)
	return out
}

// Dates returns the first and last days observed in the period, first
// after last when none was.
func (s *Scan) Dates() (first, last int32) { return s.lo, s.hi }

// Stores returns how many stores observed the period, every category.
func (s *Scan) Stores() int { return s.allStores.Len() }

// Days returns how many days of from..to some SKU of any category has a
// daily price on.
func (s *Scan) Days(from, to int32) int { return s.allDays.Count(from, to) }

// Release puts the accumulators back for the next scan.
func (s *Scan) Release() {
	for _, x := range s.byCat {
		x.release()
	}
	clear(s.byCat)
	clear(s.counted)
	s.last, s.lastSKU = nil, nil
}

// acc accumulates one category. Scans take them from accs and put them
// back, so that their buffers (values, runs, SKU lists: a megabyte for a
// province) are grown once, not for every report.
type acc struct {
	name         string
	count, promo int
	sum          uint64
	prices       pricestat.Levels
	units        pricestat.Levels
	stores       pricestat.Set
	prevCount    int
	prevSum      uint64
	products     map[string]bool
	banners      []*pricestat.Matched // in the order first read (by banner)
	spare        []*pricestat.Matched // of an earlier scan, for matched to reuse
	days         pricestat.DaySet     // days with a daily price, both periods
}

var accs = sync.Pool{New: func() any { return &acc{products: map[string]bool{}} }}

// newAcc returns an empty accumulator of category, its days counted from
// first.
func newAcc(category string, first int32) *acc {
	x := accs.Get().(*acc)
	x.name = category
	x.days.Reset(first)
	return x
}

// matched returns the category's SKU accumulator of banner.
func (x *acc) matched(banner string) *pricestat.Matched {
	for _, m := range x.banners {
		if m.Banner == banner {
			return m
		}
	}
	var m *pricestat.Matched
	if n := len(x.spare); n > 0 {
		m, x.spare = x.spare[n-1], x.spare[:n-1]
		m.Banner = banner
	} else {
		m = &pricestat.Matched{Banner: banner}
	}
	x.banners = append(x.banners, m)
	return m
}

// figures returns the category's figures.
func (x *acc) figures(previousFrom, from, to int32) Category {
	prices := &x.prices.Runs[0]
	c := Category{Name: x.name, Count: x.count, Promo: x.promo, Sum: x.sum,
		MinPrice: prices.Min(), MaxPrice: prices.Max(), Median2: prices.Median2(&x.prices.Buf),
		Units: x.unitFigures(), Products: len(x.products), Stores: x.stores.Len(), PrevCount: x.prevCount, PrevSum: x.prevSum,
		Days: x.days.Count(from, to), PreviousDays: x.days.Count(previousFrom, from-1)}
	var shelf, regular pricestat.Geomean
	for _, m := range x.banners {
		if n := m.AddRatios(&shelf, &regular); n > 0 {
			c.Matched += n
			c.MatchedBanners++
		}
	}
	if c.Matched > 0 {
		c.ChangePct, c.RegularChangePct = shelf.ChangePct(), regular.ChangePct()
	}
	return c
}

// unitFigures returns the unit prices of the category's most observed
// basis (the first of those equal), nil when it has none.
func (x *acc) unitFigures() *Units {
	best := 0
	for b := 1; b < 4; b++ {
		if x.units.Runs[b].Len() > x.units.Runs[best].Len() {
			best = b
		}
	}
	u, buf := &x.units.Runs[best], &x.units.Buf
	if best == 0 || u.Len() == 0 {
		return nil
	}
	return &Units{Basis: uint32(best), N: u.Len(), Sum: u.Sum(buf), Min: u.Min(), Max: u.Max(), Median2: u.Median2(buf)}
}

// release empties x, keeping its buffers, and puts it back in the pool.
// The strings it held (the read transaction's) are dropped.
func (x *acc) release() {
	for _, m := range x.banners {
		m.Reset()
	}
	x.spare = append(x.spare, x.banners...)
	clear(x.banners)
	clear(x.products)
	x.prices.Reset()
	x.units.Reset()
	x.days.Reset(0)
	x.stores.Reset()
	*x = acc{
		prices: x.prices, units: x.units,
		stores: x.stores, products: x.products, banners: x.banners[:0], spare: x.spare, days: x.days,
	}
	accs.Put(x)
}
