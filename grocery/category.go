package grocery

import (
	"context"
	"fmt"

	"github.com/grocerydata/grocery/grocery/internal/catreport"
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
		sc := catreport.New(int32(res.PreviousFrom), int32(from), int32(to), func(c string) bool { return matchCategory(c, a.category) })
		defer sc.Release()
		// Both periods in one scan (each category and banner sought
		// once), a banner's spans of days in order, the previous
		// period's first: of the previous period its observations' count
		// and sum, and each SKU's daily prices; of this one, everything.
		periods := []storage.CatPeriod{{From: int32(res.PreviousFrom), To: int32(res.PreviousTo)}, {From: int32(from), To: int32(to), Levels: true}}
		err := tx.CatSpans(a.province, "", a.banner.Slug, periods, sc.Add)
		if err != nil {
			return err
		}
		err = tx.ShelfSpans(a.province, a.banner.Slug, func(gtin, category []byte, first, last int32) error {
			sc.AddShelf(gtin, category, first, last)
			return nil
		})
		if err != nil {
			return err
		}
		obs, thinner := 0, 0
		for _, c := range sc.Categories() {
			obs += c.Count
			st := categoryStats(&c, res)
			if st.Note != "" {
				thinner++
			}
			res.Categories = append(res.Categories, st)
		}
		if err := addCategoryBenchmarks(tx, res); err != nil {
			return err
		}
		res.Basis.Banners = sc.Banners()
		res.Basis.setDates(sc.Dates())
		res.Basis.Stores, res.Basis.Observations = sc.Stores(), obs
		res.DaysWithData = sc.Days(int32(from), int32(to))
		res.PreviousDaysWithData = sc.Days(int32(res.PreviousFrom), int32(res.PreviousTo))
		res.Basis.Note = categoryNote(res, a, thinner)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// categoryStats writes a category's figures in res's periods; its Note
// says when the previous period has data on fewer days.
func categoryStats(c *catreport.Category, res *CategoryReport) CategoryStats {
	st := CategoryStats{Category: c.Name, AveragePrice: Cents(pricestat.Cents(float64(c.Sum) / float64(c.Count))),
		MinPrice: Cents(c.MinPrice), MaxPrice: Cents(c.MaxPrice), MedianPrice: Cents(pricestat.HalfCents(c.Median2)),
		Products: c.Products, Stores: c.Stores, Observations: c.Count,
		PromoSharePct: pricestat.Round1(float64(c.Promo) * 100 / float64(c.Count)),
		Matched:       c.Matched, MatchedBanners: c.MatchedBanners, DaysWithData: c.Days, PreviousDaysWithData: c.PreviousDays}
	if u := c.Units; u != nil {
		// Unit prices are kept in hundredths of a cent.
		st.UnitPrice = &UnitPriceStats{Basis: unitprice.Name(u.Basis), Average: Cents(pricestat.Cents(float64(u.Sum) / float64(u.N) / 100)),
			Min: Cents(pricestat.Cents(float64(u.Min) / 100)), Max: Cents(pricestat.Cents(float64(u.Max) / 100)),
			Median: Cents(pricestat.Cents(float64(u.Median2) / 200)), Observations: u.N}
	}
	if c.PrevCount > 0 {
		prev := Cents(pricestat.Cents(float64(c.PrevSum) / float64(c.PrevCount)))
		st.PreviousAveragePrice = &prev
	}
	st.LowSample = lowSample(st.Matched, st.Stores, st.MatchedBanners, MinSampleProducts)
	if st.Matched > 0 {
		ch, rch := pricestat.Round1(c.ChangePct), pricestat.Round1(c.RegularChangePct)
		st.ChangePct, st.RegularChangePct = &ch, &rch
	}
	if st.PreviousDaysWithData < st.DaysWithData {
		st.Note = fmt.Sprintf("the previous period has data on %d of its %d days (this period on %d)", st.PreviousDaysWithData, res.Period, st.DaysWithData)
	}
	return st
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
