package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// The time-based analytics: category report, promotion calendar and new
// on shelf. They read the aggregates the import keeps (write_analytics.go):
// category days for the report, promotion events for the calendar, shelf
// records (first observation per banner SKU and province) for new on
// shelf. Every figure comes from the reference-store panel: what is not in
// a result was not observed in the panel, which does not prove it is not
// sold.

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

// analyticsArgs are the common filters of the period analytics, checked.
type analyticsArgs struct {
	province string
	banner   Banner // zero when not given
	category string // as given, trimmed; "" when not given
}

// parseAnalyticsArgs checks the province (required), banner and category
// filters shared by the analytics.
func parseAnalyticsArgs(province, banner, category string) (analyticsArgs, error) {
	var a analyticsArgs
	var err error
	if a.province, err = ParseProvince(province); err != nil {
		return a, err
	}
	if strings.TrimSpace(banner) != "" {
		if a.banner, err = ParseBanner(banner); err != nil {
			return a, err
		}
	}
	a.category = strings.TrimSpace(category)
	if len(a.category) > 100 {
		return a, Errorf(EINVALID, "category is %d characters long: want at most 100", len(a.category))
	}
	return a, nil
}

// matchCategory reports whether a stored category is the one asked for
// (all when want is ""), case-insensitively.
func matchCategory(stored, want string) bool {
	return want == "" || strings.EqualFold(stored, want)
}

// emptyNote says why a result is empty.
func (a *analyticsArgs) emptyNote(what string, from, to Date) string {
	scope := a.province
	if a.banner.Slug != "" {
		scope = a.banner.Slug + " in " + scope
		if !a.banner.OperatesIn(a.province) {
			return fmt.Sprintf("banner %s does not operate in %s: no %s observed in the panel", a.banner.Slug, a.province, what)
		}
	}
	if a.category != "" {
		scope = "category " + a.category + ", " + scope
	}
	return fmt.Sprintf("no %s: not observed in the panel (%s) from %s to %s, which does not prove there is none", what, scope, from, to)
}

func newBasis(province string, comparison string) Basis {
	return Basis{Provinces: []string{province}, Banners: []string{}, Comparison: comparison}
}

// setDates sets b's first and last day used.
func (b *Basis) setDates(lo, hi int32) {
	if lo <= hi {
		f, t := Date(lo), Date(hi)
		b.From, b.To = &f, &t
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// runs is a multiset of values kept as sorted runs of a buffer (the
// category aggregates store each day's prices sorted): its median is found
// by a binary search on the value, counting the values at or under it in
// each run, without sorting the whole.
type runs struct {
	at     [][2]int // each run's start and end in the buffer
	n      int      // values
	lo, hi uint32
}

// add notes buf[start:] as a sorted run.
func (r *runs) add(buf []uint32, start int) {
	run := buf[start:]
	if len(run) == 0 {
		return
	}
	if r.n == 0 {
		r.lo, r.hi = run[0], run[len(run)-1]
	} else {
		r.lo, r.hi = min(r.lo, run[0]), max(r.hi, run[len(run)-1])
	}
	r.at = append(r.at, [2]int{start, len(buf)})
	r.n += len(run)
}

// sum adds up the values.
func (r *runs) sum(buf []uint32) uint64 {
	var s uint64
	for _, at := range r.at {
		for _, v := range buf[at[0]:at[1]] {
			s += uint64(v)
		}
	}
	return s
}

// atMost counts the values <= x.
func (r *runs) atMost(buf []uint32, x uint32) int {
	n := 0
	for _, at := range r.at {
		run := buf[at[0]:at[1]]
		switch {
		case run[len(run)-1] <= x:
			n += len(run)
		case run[0] > x:
		default:
			i, j := 0, len(run)
			for i < j {
				h := int(uint(i+j) >> 1)
				if run[h] <= x {
					i = h + 1
				} else {
					j = h
				}
			}
			n += i
		}
	}
	return n
}

// kth returns the k-th smallest value (from 0).
func (r *runs) kth(buf []uint32, k int) uint32 {
	lo, hi := r.lo, r.hi
	for lo < hi {
		mid := lo + (hi-lo)/2
		if r.atMost(buf, mid) > k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// median returns the median (the mean of the middle two, rounded up, for
// an even count).
func (r *runs) median(buf []uint32) uint32 {
	if r.n == 0 {
		return 0
	}
	k := r.n / 2
	m := r.kth(buf, k)
	if r.n%2 == 1 || m == r.lo || r.atMost(buf, m-1) <= k-1 {
		return m // the k-1-th is m too
	}
	// Exactly k values are under m: the k-1-th is the greatest of them.
	l := r.lo
	for _, at := range r.at {
		run := buf[at[0]:at[1]]
		i, _ := slices.BinarySearch(run, m)
		if i > 0 {
			l = max(l, run[i-1])
		}
	}
	return (l + m + 1) / 2
}

// storeSet is a set of store ordinals (small, dense numbers).
type storeSet struct {
	bits []uint64
	n    int
}

func (s *storeSet) add(ord uint32) {
	i := int(ord >> 6)
	if i >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, i+1-len(s.bits))...)
	}
	if m := uint64(1) << (ord & 63); s.bits[i]&m == 0 {
		s.bits[i] |= m
		s.n++
	}
}

func pct(x float64) float64 { return math.Round(x*10) / 10 }

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

// PromoCalendarInput holds the arguments of PromoCalendar.
type PromoCalendarInput struct {
	Province string `json:"province"`           // required
	Banner   string `json:"banner,omitempty"`   // optional
	Category string `json:"category,omitempty"` // optional
	From     string `json:"from,omitempty"`     // YYYY-MM-DD; default 29 days before To
	To       string `json:"to,omitempty"`       // YYYY-MM-DD; default the data set's latest day
	Limit    int    `json:"limit,omitempty"`    // 1..500; 0 means 50
	Offset   int    `json:"offset,omitempty"`
}

// PromoEvent is one promotion: a banner SKU observed on promotion in a
// province's reference stores on consecutive observation days.
type PromoEvent struct {
	Banner       string  `json:"banner"`
	BannerName   string  `json:"banner_name"`
	ExternalSKU  string  `json:"external_sku"`
	UPC          string  `json:"upc"` // "" when the SKU is not linked to a barcode
	Name         string  `json:"name"`
	Brand        string  `json:"brand"`
	Category     string  `json:"category"`
	Province     string  `json:"province"`
	Start        Date    `json:"start"` // first day observed on promotion
	End          Date    `json:"end"`   // last day observed on promotion
	RegularPrice Cents   `json:"regular_price"`
	PromoPrice   Cents   `json:"promo_price"`
	DiscountPct  float64 `json:"discount_pct"`
	Stores       int     `json:"stores"`           // reference stores that observed it on promotion
	Days         int     `json:"observation_days"` // observation days within the event
	Ongoing      bool    `json:"ongoing"`          // still on promotion on the latest observation day
}

// PromoCalendar is the answer of PromoCalendar: one page of events.
type PromoCalendar struct {
	Province string       `json:"province"`
	From     Date         `json:"from"`
	To       Date         `json:"to"`
	Results  []PromoEvent `json:"results"` // by start, banner, SKU; empty, never null
	Total    int          `json:"total"`
	Limit    int          `json:"limit"`
	Offset   int          `json:"offset"`
	Currency string       `json:"currency"`
	Basis    Basis        `json:"basis"`
}

// promoLookback is how long before 'from' the calendar looks for events
// still running: events that began earlier are not listed.
const promoLookback = 56

// maxAnalyticsDays bounds a date range of the analytics.
const maxAnalyticsDays = 366

// parseRange reads from and to (YYYY-MM-DD, optional), defaulting to the
// def days up to asOf, and checks them.
func parseRange(fromS, toS string, asOf Date, def int) (Date, Date, error) {
	to := asOf
	if strings.TrimSpace(toS) != "" {
		d, err := ParseDate(strings.TrimSpace(toS))
		if err != nil {
			return 0, 0, Errorf(EINVALID, "to %q is not a date: want YYYY-MM-DD", toS)
		}
		to = d
	}
	from := to - Date(def) + 1
	if strings.TrimSpace(fromS) != "" {
		d, err := ParseDate(strings.TrimSpace(fromS))
		if err != nil {
			return 0, 0, Errorf(EINVALID, "from %q is not a date: want YYYY-MM-DD", fromS)
		}
		from = d
	}
	if from > to {
		return 0, 0, Errorf(EINVALID, "from %s is after to %s", from, to)
	}
	if int(to-from) >= maxAnalyticsDays {
		return 0, 0, Errorf(EINVALID, "from %s to %s spans %d days: want at most %d", from, to, to-from+1, maxAnalyticsDays)
	}
	return from, to, nil
}

// productCache reads the product of banner SKUs once per call.
type productCache struct {
	tx *storage.Tx
	m  map[string]Product
}

func (c *productCache) get(banner, sku string) (Product, error) {
	k := banner + "\x00" + sku
	if p, ok := c.m[k]; ok {
		return p, nil
	}
	var out Product
	var rec storage.SKU
	if found, err := c.tx.SKU(banner, sku, &rec); err != nil {
		return out, err
	} else if found && rec.GTIN != "" {
		var p storage.Product
		if found, err := c.tx.Product(rec.GTIN, &p); err != nil {
			return out, err
		} else if found {
			out = product(&p)
		} else {
			out = Product{UPC: GTIN(rec.GTIN).UPC(), GTIN: rec.GTIN}
		}
	}
	c.m[k] = out
	return out, nil
}

// PromoCalendar returns the promotion events of a province's panel (of one
// banner and one category when given) that overlap from..to, by start:
// one event per banner SKU and run of observation days on promotion (an
// observation under its regular price), with its regular and promotional
// price (the most common among the stores), discount and stores. Events
// that began more than 56 days before from are not listed.
//
// It returns EINVALID for a missing or unknown province, an unknown
// banner, a bad date, from after to, a range over 366 days, a limit
// outside 1..500 or a bad offset. An unknown category gives an empty
// calendar whose Basis.Note says why.
func (s *Service) PromoCalendar(ctx context.Context, in PromoCalendarInput) (*PromoCalendar, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset, DefaultRESTLimit, MaxRESTLimit)
	if err != nil {
		return nil, err
	}
	res := &PromoCalendar{Province: a.province, Results: []PromoEvent{}, Limit: limit, Offset: offset, Currency: Currency,
		Basis: newBasis(a.province, CompareSameBarcode)}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := Date(tx.AsOf())
		from, to, err := parseRange(in.From, in.To, asOf, 30)
		if err != nil {
			return err
		}
		res.From, res.To = from, to
		pc := productCache{tx: tx, m: map[string]Product{}}
		banners := map[string]bool{}
		lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
		obs := 0
		err = tx.PromosIn(a.province, int32(from)-promoLookback, int32(to), func(p *storage.Promo) error {
			if p.End < int32(from) || (a.banner.Slug != "" && p.Banner != a.banner.Slug) {
				return nil
			}
			prod, err := pc.get(p.Banner, p.SKU)
			if err != nil {
				return err
			}
			if !matchCategory(prod.Category, a.category) {
				return nil
			}
			res.Total++
			banners[p.Banner] = true
			lo, hi = min(lo, p.Start), max(hi, p.End)
			obs += int(p.Days)
			if res.Total <= offset || len(res.Results) >= limit {
				return nil
			}
			ev := PromoEvent{Banner: p.Banner, BannerName: bannerName(p.Banner), ExternalSKU: p.SKU, UPC: prod.UPC,
				Name: prod.Name, Brand: prod.Brand, Category: prod.Category, Province: p.Province,
				Start: Date(p.Start), End: Date(p.End), RegularPrice: Cents(p.Regular), PromoPrice: Cents(p.Price),
				Stores: int(p.Stores), Days: int(p.Days), Ongoing: Date(p.End) == asOf}
			if p.Regular > 0 {
				ev.DiscountPct = pct(float64(p.Regular-min(p.Price, p.Regular)) * 100 / float64(p.Regular))
			}
			res.Results = append(res.Results, ev)
			return nil
		})
		if err != nil {
			return err
		}
		res.Basis.Banners = sortedKeys(banners)
		res.Basis.setDates(lo, hi)
		res.Basis.Observations = obs
		n, err := tx.CountActiveStores(a.province, a.banner.Slug)
		if err != nil {
			return err
		}
		res.Basis.Stores = n
		if res.Total == 0 {
			res.Basis.Note = a.emptyNote("promotion", from, to)
		} else {
			res.Basis.Note = "observations counts the observation days of the events; events that began more than 56 days before from are not listed"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// NewOnShelfInput holds the arguments of NewOnShelf.
type NewOnShelfInput struct {
	Province string `json:"province"`           // required
	Banner   string `json:"banner,omitempty"`   // optional
	Category string `json:"category,omitempty"` // optional
	Days     int    `json:"days,omitempty"`     // 1..365; 0 means 14
	Limit    int    `json:"limit,omitempty"`    // 1..500; 0 means 50
	Offset   int    `json:"offset,omitempty"`
}

// NewProduct is a banner SKU first observed in a province's panel within
// the window.
type NewProduct struct {
	Banner      string `json:"banner"`
	BannerName  string `json:"banner_name"`
	ExternalSKU string `json:"external_sku"`
	UPC         string `json:"upc"` // "" when the SKU is not linked to a barcode
	Name        string `json:"name"`
	Brand       string `json:"brand"`
	Size        string `json:"size"`
	Category    string `json:"category"`
	Province    string `json:"province"`
	FirstSeen   Date   `json:"first_seen"`
	FirstPrice  Cents  `json:"first_price"`  // median price of its first day
	FirstStores int    `json:"first_stores"` // stores that observed it on its first day
	LatestPrice Cents  `json:"latest_price"` // median price of its latest day
	LastSeen    Date   `json:"last_seen"`
}

// NewOnShelf is the answer of NewOnShelf: one page of new products.
type NewOnShelf struct {
	Province string       `json:"province"`
	Days     int          `json:"days"`
	From     Date         `json:"from"`
	To       Date         `json:"to"`
	Results  []NewProduct `json:"results"` // newest first, then banner, SKU; empty, never null
	Total    int          `json:"total"`
	Limit    int          `json:"limit"`
	Offset   int          `json:"offset"`
	Currency string       `json:"currency"`
	Basis    Basis        `json:"basis"`
}

// NewOnShelf returns the banner SKUs of a province's panel (of one banner
// and one category when given) first observed within the last days days
// up to the data set's latest day, newest first, with their first price.
//
// It returns EINVALID for a missing or unknown province, an unknown
// banner, days outside 1..365, a limit outside 1..500 or a bad offset. An
// unknown category gives an empty list whose Basis.Note says why.
func (s *Service) NewOnShelf(ctx context.Context, in NewOnShelfInput) (*NewOnShelf, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	days := in.Days
	if days == 0 {
		days = 14
	}
	if days < 1 || days > 365 {
		return nil, Errorf(EINVALID, "days %d is out of range: want 1 to 365 (default 14)", in.Days)
	}
	limit, offset, err := checkPage(in.Limit, in.Offset, DefaultRESTLimit, MaxRESTLimit)
	if err != nil {
		return nil, err
	}
	res := &NewOnShelf{Province: a.province, Days: days, Results: []NewProduct{}, Limit: limit, Offset: offset,
		Currency: Currency, Basis: newBasis(a.province, CompareSameBarcode)}
	err = s.db.View(func(tx *storage.Tx) error {
		to := Date(tx.AsOf())
		from := to - Date(days) + 1
		res.From, res.To = from, to
		panelStart := int32(math.MaxInt32)
		var found []storage.Shelf
		err := tx.ShelfIn(a.province, a.banner.Slug, func(sh *storage.Shelf) error {
			panelStart = min(panelStart, sh.First)
			if sh.First < int32(from) || sh.First > int32(to) || !matchCategory(sh.Category, a.category) {
				return nil
			}
			found = append(found, *sh)
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(found, func(x, y storage.Shelf) int {
			return cmp.Or(cmp.Compare(y.First, x.First), cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU))
		})
		res.Total = len(found)
		banners := map[string]bool{}
		lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
		for _, sh := range found {
			banners[sh.Banner] = true
			lo, hi = min(lo, sh.First), max(hi, sh.First)
			res.Basis.Observations += int(sh.FirstStores)
		}
		pc := productCache{tx: tx, m: map[string]Product{}}
		for i := offset; i < len(found) && len(res.Results) < limit; i++ {
			sh := &found[i]
			prod, err := pc.get(sh.Banner, sh.SKU)
			if err != nil {
				return err
			}
			res.Results = append(res.Results, NewProduct{Banner: sh.Banner, BannerName: bannerName(sh.Banner), ExternalSKU: sh.SKU,
				UPC: prod.UPC, Name: prod.Name, Brand: prod.Brand, Size: prod.Size, Category: prod.Category, Province: a.province,
				FirstSeen: Date(sh.First), FirstPrice: Cents(sh.FirstPrice), FirstStores: int(sh.FirstStores),
				LatestPrice: Cents(sh.LastPrice), LastSeen: Date(sh.Last)})
		}
		res.Basis.Banners = sortedKeys(banners)
		res.Basis.setDates(lo, hi)
		n, err := tx.CountActiveStores(a.province, a.banner.Slug)
		if err != nil {
			return err
		}
		res.Basis.Stores = n
		switch {
		case res.Total == 0:
			res.Basis.Note = a.emptyNote("new product", from, to)
		case panelStart >= int32(from):
			res.Basis.Note = fmt.Sprintf("the panel's observations here begin on %s: a product first observed then may have been on shelf before", Date(panelStart))
		default:
			res.Basis.Note = "first observed in the panel: a product may have been on shelf elsewhere before; observations counts the first-day observations"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
