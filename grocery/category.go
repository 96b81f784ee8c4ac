package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/storage"
)

// The category report: per category, the price levels of the period's
// observations and the like-for-like change against the previous period.
// It reads the category days the import keeps (grocery/internal/ingest). Every
// figure comes from the reference-store panel: what is not in a result
// was not observed in the panel, which does not prove it is not sold.

// CategoryReportInput holds the arguments of CategoryReport.
type CategoryReportInput struct {
	Province string `json:"province"`           // required
	Banner   string `json:"banner,omitempty"`   // optional: one banner's observations only
	Category string `json:"category,omitempty"` // optional: one category only (exact, case-insensitive)
	Period   string `json:"period,omitempty"`   // 7d..365d, default 30d: the days up to the data set's latest
}

// UnitPriceStats summarises unit prices in one basis ("per 100 g", ...):
// each observation's price divided by its size in units of the basis
// (see CountNouns for the sizes that give one), over every observation of
// the period. The OpenAPI document (restserver/openapi.json,
// UnitPriceStats) defines each figure.
type UnitPriceStats struct {
	Basis        string `json:"basis"`
	Average      Cents  `json:"average"`
	Min          Cents  `json:"min"`
	Max          Cents  `json:"max"`
	Median       Cents  `json:"median"`
	Observations int    `json:"observations"`
}

// CategoryStats is one category's figures in a CategoryReport. The
// OpenAPI document (restserver/openapi.json, CategoryStats) defines each
// one in words and as a formula; in short: the price levels (average,
// min, median, max, previous average) are over every store observation
// of the period, computed exactly and rounded to the cent when written;
// the changes are like for like, matched-model Jevons indexes over the
// banner SKUs with a daily price in both periods, each SKU's change
// chained from its stores' own moves (pricestat.Matched).
type CategoryStats struct {
	Category      string          `json:"category"`
	AveragePrice  Cents           `json:"average_price"`
	MinPrice      Cents           `json:"min_price"`
	MaxPrice      Cents           `json:"max_price"`
	MedianPrice   Cents           `json:"median_price"` // the mean of the middle two for an even count, rounded when written
	UnitPrice     *UnitPriceStats `json:"unit_price"`   // the most observed basis of the category, or null
	Products      int             `json:"products"`     // distinct barcodes observed in the period
	Stores        int             `json:"stores"`       // reference stores that observed the category
	Observations  int             `json:"observations"`
	PromoSharePct float64         `json:"promo_share_pct"` // observations on promotion, percent
	// PreviousAveragePrice is the average price of the previous period's
	// observations (the period of the same length just before), null
	// when it has none.
	PreviousAveragePrice *Cents `json:"previous_average_price"`
	// ChangePct and RegularChangePct are the like-for-like changes of
	// the shelf and the regular price, in percent, over the Matched
	// banner SKUs with a daily price in both periods; both null when no
	// SKU has.
	ChangePct        *float64 `json:"change_pct"`
	RegularChangePct *float64 `json:"regular_change_pct"`
	Matched          int      `json:"matched"`
	// MatchedBanners are the banners of the Matched SKUs. LowSample:
	// Matched < MinSampleProducts, MatchedBanners < MinSampleBanners or
	// Stores < MinSampleStores: the change rests on too few to read.
	MatchedBanners int  `json:"matched_banners"`
	LowSample      bool `json:"low_sample"`
	// DaysWithData and PreviousDaysWithData count the days of the
	// period and of the previous period on which some banner SKU of the
	// category has a daily price.
	DaysWithData         int `json:"days_with_data"`
	PreviousDaysWithData int `json:"previous_days_with_data"`
	// Note says when the previous period has data on fewer days than
	// this one: "the previous period has data on 29 of its 90 days (this
	// period on 90)".
	Note string `json:"note,omitempty"`
}

// CategoryReport is the answer of CategoryReport.
type CategoryReport struct {
	Province     string `json:"province"`
	Banner       string `json:"banner,omitempty"`
	Category     string `json:"category,omitempty"`
	Period       Period `json:"period"`
	From         Date   `json:"from"`
	To           Date   `json:"to"`
	PreviousFrom Date   `json:"previous_from"`
	PreviousTo   Date   `json:"previous_to"`
	// DaysWithData and PreviousDaysWithData count the days of the
	// period and of the previous period on which some banner SKU of the
	// report (every category) has a daily price.
	DaysWithData         int             `json:"days_with_data"`
	PreviousDaysWithData int             `json:"previous_days_with_data"`
	Categories           []CategoryStats `json:"categories"` // by category name; empty, never null
	Currency             string          `json:"currency"`
	Basis                Basis           `json:"basis"`
	// Benchmarks are Statistics Canada's latest monthly averages in the
	// province of the products matching a category of the report (as in
	// GeographicPrices), when imported; BenchmarkNote is StatCan's caveat.
	Benchmarks    []GeoBenchmark `json:"benchmarks,omitempty"`
	BenchmarkNote string         `json:"benchmark_note,omitempty"`
}

// CategoryReport returns, per category of the province's panel (of one
// banner and one category when given): the average, minimum, median and
// maximum shelf price of the period's observations, the same for the
// unit price in the category's most observed basis, the distinct
// products and stores observed, the share of observations on promotion,
// the previous period's average price, and the like-for-like change of
// the shelf and the regular price against the previous period of the
// same length (a matched-model Jevons index over the banner SKUs with a
// daily price in both periods, each SKU's change its stores' own moves
// chained), with the SKUs matched and the days of
// each period with data. Levels count each store's price of each day
// once. The definitions are in the OpenAPI document
// (restserver/openapi.json, CategoryStats).
//
// It returns EINVALIDARGUMENT for a missing or unknown province, an unknown banner
// or a bad period. An unknown category, or a banner absent from the
// province, gives an empty report whose Basis.Note says why.
func (s *Service) CategoryReport(ctx context.Context, in CategoryReportInput) (*CategoryReport, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	period, err := ParsePeriod(in.Period)
	if err != nil {
		return nil, err
	}
	res := &CategoryReport{Province: a.province, Banner: a.banner.Slug, Category: a.category, Period: period,
		Categories: []CategoryStats{}, Currency: Currency, Basis: newBasis(a.province, CompareUnitPrice)}
	err = s.db.View(func(tx *storage.Tx) error {
		to := Date(tx.AsOf())
		from := to - Date(period) + 1
		res.From, res.To, res.PreviousTo, res.PreviousFrom = from, to, from-1, from-Date(period)
		sc := &categoryScan{a: a, byCat: map[string]*categoryAcc{}, allDays: pricestat.DaySet{First: int32(res.PreviousFrom)},
			banners: map[string]bool{}, lo: math.MaxInt32, hi: math.MinInt32, from: int32(from)}
		defer sc.release()
		// Both periods in one scan (each category and banner sought
		// once), a banner's days in order, the previous period's first:
		// of the previous period its observations' count and sum, and
		// each SKU's daily prices; of this one, everything.
		err := tx.CatDaysSplit(a.province, "", a.banner.Slug, int32(res.PreviousFrom), int32(from), int32(to),
			storage.CatSKUs|storage.CatNumbered|storage.CatLinks, storage.CatRuns|storage.CatNumbered|storage.CatLinks, sc.add)
		if err != nil {
			return err
		}
		if err := sc.countProducts(tx, from, to); err != nil {
			return err
		}
		obs, thinner := 0, 0
		for _, x := range sc.byCat {
			if x.count == 0 {
				continue
			}
			obs += x.count
			st := x.stats(res)
			if st.Note != "" {
				thinner++
			}
			res.Categories = append(res.Categories, st)
		}
		slices.SortFunc(res.Categories, func(x, y CategoryStats) int { return cmp.Compare(x.Category, y.Category) })
		if err := addCategoryBenchmarks(tx, res); err != nil {
			return err
		}
		res.Basis.Banners = sortedKeys(sc.banners)
		res.Basis.setDates(sc.lo, sc.hi)
		res.Basis.Stores, res.Basis.Observations = sc.allStores.Len(), obs
		res.DaysWithData = sc.allDays.Count(int32(from), int32(to))
		res.PreviousDaysWithData = sc.allDays.Count(int32(res.PreviousFrom), int32(res.PreviousTo))
		res.Basis.Note = categoryNote(res, a, thinner)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// categoryScan accumulates a CategoryReport's category days, by category.
type categoryScan struct {
	a         analyticsArgs
	from      int32 // the period's first day: those before are the previous period's
	byCat     map[string]*categoryAcc
	allDays   pricestat.DaySet // days with a daily price, every category
	allStores pricestat.Set
	banners   map[string]bool // of the period's observations
	lastBnr   string
	lo, hi    int32 // the period's first and last days observed
	// The category and banner SKUs of the aggregate read last: the scan
	// reads a category's banners one after the other, each banner's days
	// in order.
	last    *categoryAcc
	lastSKU *pricestat.Matched
}

// group returns the accumulators of k's category and banner SKUs, nil
// for a category the report leaves out.
func (sc *categoryScan) group(k *storage.CatDayKey) (*categoryAcc, *pricestat.Matched) {
	if sc.last != nil && sc.last.name == k.Category && sc.lastSKU.Banner == k.Banner {
		return sc.last, sc.lastSKU
	}
	if !matchCategory(k.Category, sc.a.category) {
		return nil, nil
	}
	x := sc.byCat[k.Category]
	if x == nil {
		x = newCategoryAcc(k.Category, sc.allDays.First)
		sc.byCat[k.Category] = x
	}
	m := x.matched(k.Banner)
	sc.last, sc.lastSKU = x, m
	return x, m
}

// add takes one category day: of the previous period its observations'
// count and sum and its SKUs' daily prices; of this one, everything.
func (sc *categoryScan) add(k *storage.CatDayKey, c *storage.CatDay) error {
	x, m := sc.group(k)
	if x == nil {
		return nil
	}
	p := pricestat.Current
	if k.Day < sc.from {
		p = pricestat.Previous
	}
	if len(c.SKUNums) > 0 {
		x.days.Add(k.Day)
		sc.allDays.Add(k.Day)
		m.AddDay(c.SKUNums, c.Names, p)
	}
	if p == pricestat.Previous {
		x.prevCount += int(c.Count)
		x.prevSum += c.Sum
		return nil
	}
	if k.Banner != sc.lastBnr { // a banner's days come one after the other
		sc.banners[k.Banner], sc.lastBnr = true, k.Banner
	}
	sc.lo, sc.hi = min(sc.lo, k.Day), max(sc.hi, k.Day)
	if x.count == 0 {
		// The lists of a period hold at most as many distinct values a
		// day as the previous period's observations (read so far: the
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
		sc.allStores.Add(st.Store)
	}
	return nil
}

// countProducts counts each category's distinct barcodes observed in the
// period, from the banner SKUs' shelf records.
func (sc *categoryScan) countProducts(tx *storage.Tx, from, to Date) error {
	// Most shelf records are of a product already counted in its
	// category (another banner's SKU of it): counted, by barcode, the
	// category it was counted in last, finds those with one lookup.
	counted := map[string]*categoryAcc{}
	return tx.ShelfSpans(sc.a.province, sc.a.banner.Slug, func(gtin, category []byte, first, last int32) error {
		if len(gtin) == 0 || first > int32(to) || last < int32(from) {
			return nil
		}
		if x := counted[string(gtin)]; x != nil && x.name == string(category) {
			return nil
		}
		if x := sc.byCat[string(category)]; x != nil && x.count > 0 {
			g := string(gtin)
			x.products[g] = true
			counted[g] = x
		}
		return nil
	})
}

// release puts the accumulators back.
func (sc *categoryScan) release() {
	for _, x := range sc.byCat {
		x.release()
	}
}

// stats returns the category's figures in res's periods; its Note says
// when the previous period has data on fewer days.
func (x *categoryAcc) stats(res *CategoryReport) CategoryStats {
	prices := &x.prices.Runs[0]
	st := CategoryStats{Category: x.name, AveragePrice: Cents(pricestat.Cents(float64(x.sum) / float64(x.count))),
		MinPrice: Cents(prices.Min()), MaxPrice: Cents(prices.Max()), MedianPrice: Cents(pricestat.HalfCents(prices.Median2(&x.prices.Buf))),
		Products: len(x.products), Stores: x.stores.Len(), Observations: x.count,
		PromoSharePct: pricestat.Round1(float64(x.promo) * 100 / float64(x.count))}
	st.UnitPrice = x.unitStats()
	if x.prevCount > 0 {
		prev := Cents(pricestat.Cents(float64(x.prevSum) / float64(x.prevCount)))
		st.PreviousAveragePrice = &prev
	}
	var shelf, regular pricestat.Geomean
	for _, m := range x.banners {
		if n := m.AddRatios(&shelf, &regular); n > 0 {
			st.Matched += n
			st.MatchedBanners++
		}
	}
	st.LowSample = lowSample(st.Matched, st.Stores, st.MatchedBanners, MinSampleProducts)
	if st.Matched > 0 {
		ch, rch := pricestat.Round1(shelf.ChangePct()), pricestat.Round1(regular.ChangePct())
		st.ChangePct, st.RegularChangePct = &ch, &rch
	}
	st.DaysWithData = x.days.Count(int32(res.From), int32(res.To))
	st.PreviousDaysWithData = x.days.Count(int32(res.PreviousFrom), int32(res.PreviousTo))
	if st.PreviousDaysWithData < st.DaysWithData {
		st.Note = fmt.Sprintf("the previous period has data on %d of its %d days (this period on %d)", st.PreviousDaysWithData, res.Period, st.DaysWithData)
	}
	return st
}

// unitStats returns the unit prices' figures in the category's most
// observed basis, nil when it has none.
func (x *categoryAcc) unitStats() *UnitPriceStats {
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
	// Unit prices are kept in hundredths of a cent.
	return &UnitPriceStats{Basis: unitprice.Name(uint32(best)), Average: Cents(pricestat.Cents(float64(u.Sum(buf)) / float64(u.Len()) / 100)),
		Min: Cents(pricestat.Cents(float64(u.Min()) / 100)), Max: Cents(pricestat.Cents(float64(u.Max()) / 100)),
		Median: Cents(pricestat.Cents(float64(u.Median2(buf)) / 200)), Observations: u.Len()}
}

// addCategoryBenchmarks adds Statistics Canada's averages of the
// province matching the report's categories.
func addCategoryBenchmarks(tx *storage.Tx, res *CategoryReport) error {
	for _, c := range res.Categories {
		bs, err := benchmarksFor(tx, c.Category)
		if err != nil {
			return err
		}
		for _, b := range bs {
			if b.Province == res.Province {
				res.Benchmarks = append(res.Benchmarks, b)
			}
		}
	}
	if len(res.Benchmarks) > 0 {
		res.BenchmarkNote = BenchmarkCaveat
	}
	return nil
}

// categoryNote says how a category report compares, and where its
// previous period is thinner (thinner categories).
func categoryNote(res *CategoryReport, a analyticsArgs, thinner int) string {
	if len(res.Categories) == 0 {
		return a.emptyNote("observation", res.From, res.To)
	}
	note := "change_pct and regular_change_pct are like for like: the geometric mean of the matched banner SKUs' price relatives between the periods, each SKU's its stores' own moves; the price levels are over every observation; unit prices compare sizes like for like"
	if res.PreviousDaysWithData < res.DaysWithData {
		note += fmt.Sprintf("; the previous period has data on %d of its %d days (this period on %d)", res.PreviousDaysWithData, res.Period, res.DaysWithData)
	}
	if thinner > 0 {
		what := "categories (see their note)"
		if thinner == 1 {
			what = "category (see its note)"
		}
		note += fmt.Sprintf("; the previous period has data on fewer days than this one for %d %s", thinner, what)
	}
	return note
}

// categoryAcc accumulates one category of a CategoryReport. The report
// takes them from categoryAccs and puts them back, so that its buffers
// (values, runs, SKU lists: a megabyte for a province) are grown once,
// not for every report.
type categoryAcc struct {
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
	spare        []*pricestat.Matched // of an earlier report, for matched to reuse
	days         pricestat.DaySet     // days with a daily price, both periods
}

var categoryAccs = sync.Pool{New: func() any { return &categoryAcc{products: map[string]bool{}} }}

// newCategoryAcc returns an empty accumulator of category, its days
// counted from first.
func newCategoryAcc(category string, first int32) *categoryAcc {
	x := categoryAccs.Get().(*categoryAcc)
	x.name = category
	x.days.Reset(first)
	return x
}

// matched returns the category's SKU accumulator of banner.
func (x *categoryAcc) matched(banner string) *pricestat.Matched {
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

// release empties x, keeping its buffers, and puts it back in the pool.
// The strings it held (the read transaction's) are dropped.
func (x *categoryAcc) release() {
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
	*x = categoryAcc{
		prices: x.prices, units: x.units,
		stores: x.stores, products: x.products, banners: x.banners[:0], spare: x.spare, days: x.days,
	}
	categoryAccs.Put(x)
}
