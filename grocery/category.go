package grocery

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/grocerydata/grocery/storage"
)

// The category report: per category, the price levels of the period's
// observations and the like-for-like change against the previous period.
// It reads the category days the import keeps (write_analytics.go). Every
// figure comes from the reference-store panel: what is not in a result
// was not observed in the panel, which does not prove it is not sold.

// CategoryReportInput holds the arguments of CategoryReport.
type CategoryReportInput struct {
	Province string `json:"province"`           // required
	Banner   string `json:"banner,omitempty"`   // optional: one banner's observations only
	Category string `json:"category,omitempty"` // optional: one category only (exact, case-insensitive)
	Period   string `json:"period,omitempty"`   // 7d..365d, default 30d: the days up to the data set's latest
}

// UnitPriceStats summarises unit prices in one basis ("per 100 g", ...).
type UnitPriceStats struct {
	Basis        string `json:"basis"`
	Average      Cents  `json:"average"`
	Min          Cents  `json:"min"`
	Max          Cents  `json:"max"`
	Median       Cents  `json:"median"`
	Observations int    `json:"observations"`
}

// CategoryStats is one category's figures in a CategoryReport.
type CategoryStats struct {
	Category      string          `json:"category"`
	AveragePrice  Cents           `json:"average_price"`
	MinPrice      Cents           `json:"min_price"`
	MaxPrice      Cents           `json:"max_price"`
	MedianPrice   Cents           `json:"median_price"`
	UnitPrice     *UnitPriceStats `json:"unit_price"` // the most observed basis of the category, or null
	Products      int             `json:"products"`   // distinct barcodes observed in the period
	Stores        int             `json:"stores"`     // reference stores that observed the category
	Observations  int             `json:"observations"`
	PromoSharePct float64         `json:"promo_share_pct"` // observations on promotion, percent
	// PreviousAveragePrice is the average price of the previous period
	// of the same length, and ChangePct the change of the average price
	// against it in percent; both null when the previous period has no
	// observation.
	PreviousAveragePrice *Cents   `json:"previous_average_price"`
	ChangePct            *float64 `json:"change_pct"`
}

// CategoryReport is the answer of CategoryReport.
type CategoryReport struct {
	Province     string          `json:"province"`
	Banner       string          `json:"banner,omitempty"`
	Category     string          `json:"category,omitempty"`
	Period       Period          `json:"period"`
	From         Date            `json:"from"`
	To           Date            `json:"to"`
	PreviousFrom Date            `json:"previous_from"`
	PreviousTo   Date            `json:"previous_to"`
	Categories   []CategoryStats `json:"categories"` // by category name; empty, never null
	Currency     string          `json:"currency"`
	Basis        Basis           `json:"basis"`
}

// CategoryReport returns, per category of the province's panel (of one
// banner and one category when given), the average, minimum, maximum and
// median shelf price, the same for the unit price in the category's most
// observed basis, the distinct products and stores observed, the share of
// observations on promotion, and the change of the average price against
// the previous period of the same length. Prices are observations: each
// store's price of each day counts once.
//
// It returns EINVALID for a missing or unknown province, an unknown banner
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
	type acc struct {
		name         string
		count, promo int
		sum          uint64
		priceBuf     []uint32
		prices       runs
		unitBuf      []uint32
		units        [4]runs // by basis, in unitBuf
		stores       storeSet
		prevCount    int
		prevSum      uint64
		products     map[string]bool
	}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		to := Date(asOf)
		from := to - Date(period) + 1
		res.From, res.To, res.PreviousTo, res.PreviousFrom = from, to, from-1, from-Date(period)
		byCat := map[string]*acc{}
		// A first pass without the lists: the previous period's counts
		// and sums, and the sizes of this period's lists.
		err := tx.CatDays(a.province, "", a.banner.Slug, int32(res.PreviousFrom), int32(to), storage.CatCounts, func(k *storage.CatDayKey, c *storage.CatDay) error {
			if !matchCategory(k.Category, a.category) {
				return nil
			}
			x := byCat[k.Category]
			if x == nil {
				x = &acc{name: k.Category, products: map[string]bool{}}
				byCat[k.Category] = x
			}
			if k.Day < int32(from) {
				x.prevCount += int(c.Count)
				x.prevSum += c.Sum
			} else {
				x.count += int(c.Count)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, x := range byCat {
			x.priceBuf, x.unitBuf = make([]uint32, 0, x.count), make([]uint32, 0, x.count)
			x.count = 0
		}
		var allStores storeSet
		banners := map[string]bool{}
		lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
		err = tx.CatDays(a.province, "", a.banner.Slug, int32(from), int32(to), storage.CatAll, func(k *storage.CatDayKey, c *storage.CatDay) error {
			x := byCat[k.Category]
			if x == nil {
				return nil
			}
			banners[k.Banner] = true
			lo, hi = min(lo, k.Day), max(hi, k.Day)
			x.count += int(c.Count)
			x.promo += int(c.Promo)
			x.sum += c.Sum
			start := len(x.priceBuf)
			x.priceBuf = append(x.priceBuf, c.Prices...)
			x.prices.add(x.priceBuf, start)
			// Units sort by value then basis: each basis' values are
			// a sorted run of their own.
			for b := uint32(1); b < 4; b++ {
				start := len(x.unitBuf)
				for _, u := range c.Units {
					if u&3 == b {
						x.unitBuf = append(x.unitBuf, u>>2)
					}
				}
				x.units[b].add(x.unitBuf, start)
			}
			for _, st := range c.Stores {
				x.stores.add(st.Store)
				allStores.add(st.Store)
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.ShelfIn(a.province, a.banner.Slug, func(sh *storage.Shelf) error {
			if sh.GTIN == "" || sh.First > int32(to) || sh.Last < int32(from) {
				return nil
			}
			if x := byCat[sh.Category]; x != nil && x.count > 0 {
				x.products[sh.GTIN] = true
			}
			return nil
		})
		if err != nil {
			return err
		}
		obs := 0
		for _, x := range byCat {
			if x.count == 0 {
				continue
			}
			obs += x.count
			st := CategoryStats{Category: x.name, AveragePrice: Cents(math.Round(float64(x.sum) / float64(x.count))),
				MinPrice: Cents(x.prices.lo), MaxPrice: Cents(x.prices.hi), MedianPrice: Cents(x.prices.median(x.priceBuf)),
				Products: len(x.products), Stores: x.stores.n, Observations: x.count,
				PromoSharePct: pct(float64(x.promo) * 100 / float64(x.count))}
			best := 0
			for b := 1; b < 4; b++ {
				if x.units[b].n > x.units[best].n {
					best = b
				}
			}
			if u := &x.units[best]; best > 0 && u.n > 0 {
				st.UnitPrice = &UnitPriceStats{Basis: unitBasisName[best], Average: Cents(math.Round(float64(u.sum(x.unitBuf)) / float64(u.n) / 100)),
					Min: Cents(math.Round(float64(u.lo) / 100)), Max: Cents(math.Round(float64(u.hi) / 100)),
					Median: Cents(math.Round(float64(u.median(x.unitBuf)) / 100)), Observations: u.n}
			}
			if x.prevCount > 0 {
				prev := Cents(math.Round(float64(x.prevSum) / float64(x.prevCount)))
				st.PreviousAveragePrice = &prev
				if prev > 0 {
					ch := pct((float64(st.AveragePrice) - float64(prev)) * 100 / float64(prev))
					st.ChangePct = &ch
				}
			}
			res.Categories = append(res.Categories, st)
		}
		slices.SortFunc(res.Categories, func(x, y CategoryStats) int { return cmp.Compare(x.Category, y.Category) })
		res.Basis.Banners = sortedKeys(banners)
		res.Basis.setDates(lo, hi)
		res.Basis.Stores, res.Basis.Observations = allStores.n, obs
		if len(res.Categories) == 0 {
			res.Basis.Note = a.emptyNote("observation", from, to)
		} else {
			res.Basis.Note = "change_pct compares the average shelf price of each period's observations; unit prices compare sizes like for like"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
