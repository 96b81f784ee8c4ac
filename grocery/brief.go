package grocery

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/grocery/internal/brieftext"
	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// The executive brief: one province's latest week in a page. Its figures
// come from each banner SKU's daily prices (storage.CatDay.SKUs: its
// price in force and regular price in force each day it was observed;
// the offers for the basket, its price in force on the latest day), the shelf records (new products) and the account's
// alert events; Summary says the same in sentences made from those
// numbers. WriteHTML (brief_html.go) renders it as a printable page.
// Every figure is defined in the OpenAPI document (restserver/openapi.json,
// schema ExecutiveBrief and those it names); the basket compares banners
// with compare.go's one comparison.

// BriefInput holds the arguments of ExecutiveBrief.
type BriefInput struct {
	Province string `json:"province"`         // required
	Banner   string `json:"banner,omitempty"` // optional: the reader's own banner, marked in every list
}

// Brief sizes.
const (
	briefBasketItems = 25 // barcodes in the shared basket
	briefMovers      = 5  // movers each way
	briefPromoList   = 5  // promotions started and ended listed
	briefNewProducts = 10 // new products listed
	briefAlertEvents = 20 // alert events listed
	briefSparkDays   = 28 // days of a mover's sparkline
	briefWeek        = 7  // days of a week
	briefFourWeeks   = 28 // days of the four-week comparison's period
)

// Brief is the answer of ExecutiveBrief: the latest week (the seven days
// up to the data set's latest observation day) of one province.
type Brief struct {
	Province     string `json:"province"`
	ProvinceName string `json:"province_name"`
	Banner       string `json:"banner,omitempty"`      // the reader's banner, when given
	BannerName   string `json:"banner_name,omitempty"` // its display name
	WeekFrom     Date   `json:"week_from"`
	WeekTo       Date   `json:"week_to"`
	// Summary is a short paragraph made from the figures below; it names
	// the basket's cheapest and dearest among its ranked banners.
	Summary    string             `json:"summary"`
	Basket     BriefBasket        `json:"basket"`
	MoversUp   []Mover            `json:"movers_up"`   // biggest regular-price rises first; empty, never null
	MoversDown []Mover            `json:"movers_down"` // biggest regular-price falls first; empty, never null
	Promotions []BannerPromotions `json:"promotions"`  // by share on promotion, highest first
	// PromotionsStarted and PromotionsEnded are the banner SKUs whose
	// weekly price went on promotion this week (off it the week before),
	// or off it (on it the week before): the deepest discounts first, at
	// most five each; empty, never null.
	PromotionsStarted []PromoChange       `json:"promotions_started"`
	PromotionsEnded   []PromoChange       `json:"promotions_ended"`
	Categories        []CategoryInflation `json:"categories"` // by category name
	Overall           CategoryInflation   `json:"overall"`    // every category together, Category "All categories"
	NewProducts       BriefNewProducts    `json:"new_products"`
	// AlertEvents are the reader's account's events of the week in the
	// province, newest first; empty without an account.
	AlertEvents []AlertEvent `json:"alert_events"`
	Currency    string       `json:"currency"`
	Basis       Basis        `json:"basis"`
	// Sources credits the public sources of the stores whose prices the
	// brief rests on (SourceAttribution), as their licences ask; none for
	// the demo's or a data team's own stores.
	Sources []string `json:"sources,omitempty"`
}

// BriefBasket is the comparison of the banners on one basket of barcodes
// (BasketShared): the barcodes priced in the flyer week by the most
// banners of the province, at the banners' weekly prices of one flyer
// week (Thursday to Wednesday), the week the competitive benchmark
// compares (compare.go says which).
type BriefBasket struct {
	Basket   string `json:"basket"`    // BasketShared: the same barcodes for every banner
	WeekFrom Date   `json:"week_from"` // the flyer week compared: its Thursday
	WeekTo   Date   `json:"week_to"`   // and its Wednesday
	Items    int    `json:"items"`     // barcodes in the basket
	// MinItems is how many basket items a banner must price to be ranked
	// (BenchmarkMinItems).
	MinItems int          `json:"min_items"`
	Banners  []BasketCost `json:"banners"` // ranked banners first, by index, then the others
}

// BasketCost is one banner's standing on the brief's basket, compared with
// the market (the median of the other banners' weekly prices) item by
// item, as the competitive benchmark compares.
type BasketCost struct {
	Banner     string `json:"banner"`
	BannerName string `json:"banner_name"`
	Own        bool   `json:"own,omitempty"` // the reader's banner
	// Rank is the banner's place by index among the ranked banners, 1 the
	// cheapest; 0 (left out) when it prices fewer than MinItems items.
	Rank       int   `json:"rank,omitempty"`
	Total      Cents `json:"total"`       // its weekly prices of the basket items it prices
	MarketCost Cents `json:"market_cost"` // the market's prices of the same items
	Items      int   `json:"items"`       // basket items it prices in the flyer week
	Missing    int   `json:"missing"`     // basket items it does not price in the flyer week
	// Index is 100 times the geometric mean of its weekly price over the
	// market's on its items: 100 is the market, 95 five percent cheaper.
	Index float64 `json:"index"`
	// RegularIndex is the same on regular prices.
	RegularIndex float64 `json:"regular_index"`
}

// Mover is a banner SKU whose regular price changed between the week
// before and this week.
type Mover struct {
	UPC         string     `json:"upc"`
	Name        string     `json:"name"`
	Brand       string     `json:"brand"`
	Size        string     `json:"size"`
	Category    string     `json:"category"`
	Banner      string     `json:"banner"`
	BannerName  string     `json:"banner_name"`
	Own         bool       `json:"own,omitempty"`
	ExternalSKU string     `json:"external_sku"`
	Before      Cents      `json:"before"` // weekly regular price of the week before
	BeforeDate  Date       `json:"before_date"`
	Now         Cents      `json:"now"` // weekly regular price of this week
	NowDate     Date       `json:"now_date"`
	ChangePct   float64    `json:"change_pct"`
	Prices      []DayPrice `json:"prices"` // daily prices of the last four weeks, for a sparkline
}

// DayPrice is a banner SKU's daily price on one day: its price in force
// and regular price in force, over its reference stores whose price is in
// force that day.
type DayPrice struct {
	Date    Date  `json:"date"`
	Price   Cents `json:"price"`
	Regular Cents `json:"regular_price"`
}

// PromoChange is a banner SKU whose promotion started or ended between
// the week before and this week.
type PromoChange struct {
	UPC         string `json:"upc"`
	Name        string `json:"name"`
	Brand       string `json:"brand"`
	Size        string `json:"size"`
	Banner      string `json:"banner"`
	BannerName  string `json:"banner_name"`
	Own         bool   `json:"own,omitempty"`
	ExternalSKU string `json:"external_sku"`
	// Price and Regular are the weekly prices of the week it was on
	// promotion (this week for a start, the week before for an end),
	// observed on Date.
	Price       Cents   `json:"price"`
	Regular     Cents   `json:"regular_price"`
	DiscountPct float64 `json:"discount_pct"`
	Date        Date    `json:"date"`
}

// BannerPromotions is a banner's promotion intensity this week, from its
// SKUs' weekly prices.
type BannerPromotions struct {
	Banner      string  `json:"banner"`
	BannerName  string  `json:"banner_name"`
	Own         bool    `json:"own,omitempty"`
	Products    int     `json:"products"`     // SKUs with a weekly price this week
	OnPromotion int     `json:"on_promotion"` // of which on promotion
	SharePct    float64 `json:"share_pct"`
	// AvgDiscountPct is the mean discount of the promoted SKUs against
	// their regular price, 0 when none is promoted.
	AvgDiscountPct float64 `json:"avg_discount_pct"`
	Started        int     `json:"started"` // SKUs whose promotion started this week
	Ended          int     `json:"ended"`   // SKUs whose promotion ended this week
}

// CategoryInflation is a category's like-for-like price change, a
// matched-model Jevons index of matched outlets: over the banner SKUs
// with a daily price in both periods, the geometric mean of (mean index
// in the period / mean index in the previous period), as a percent
// change, a SKU's index chaining its stores' own moves
// (pricestat.Matched; restserver/openapi.json, CategoryStats.change_pct).
type CategoryInflation struct {
	Category string `json:"category"`
	// WeekPct compares this week with the week before, over WeekSeries
	// SKUs; null when no SKU was priced in both. WeekRegularPct likewise
	// with regular prices.
	WeekPct        *float64 `json:"week_pct"`
	WeekRegularPct *float64 `json:"week_regular_pct"`
	WeekSeries     int      `json:"week_series"`
	// WeekBanners are the banners of the WeekSeries SKUs, WeekStores the
	// province's active reference stores of those banners. LowSample:
	// WeekSeries < MinSampleProducts, WeekStores < MinSampleStores or
	// WeekBanners < MinSampleBanners; the summary takes no headline from
	// such a category.
	WeekBanners int  `json:"week_banners"`
	WeekStores  int  `json:"week_stores"`
	LowSample   bool `json:"low_sample"`
	// WeekDays and PreviousWeekDays are the days of each week on which a
	// SKU of the category had a daily price.
	WeekDays         int `json:"week_days_with_data"`
	PreviousWeekDays int `json:"previous_week_days_with_data"`
	// FourWeekPct compares the last four weeks (the 28 days up to the
	// latest day) with the four weeks before, likewise.
	FourWeekPct          *float64 `json:"four_week_pct"`
	FourWeekRegularPct   *float64 `json:"four_week_regular_pct"`
	FourWeekSeries       int      `json:"four_week_series"`
	FourWeekDays         int      `json:"four_week_days_with_data"`
	PreviousFourWeekDays int      `json:"previous_four_week_days_with_data"`
}

// BriefNewProducts are the barcodes first observed in the province's panel
// this week.
type BriefNewProducts struct {
	Count    int            `json:"count"`
	Products []BriefProduct `json:"products"` // the first few, by name; empty, never null
}

// BriefProduct is a barcode first observed in the province's panel this
// week.
type BriefProduct struct {
	UPC        string   `json:"upc"`
	Name       string   `json:"name"`
	Brand      string   `json:"brand"`
	Size       string   `json:"size"`
	Category   string   `json:"category"`
	FirstSeen  Date     `json:"first_seen"`
	Banners    []string `json:"banners"`     // banners that observed it this week
	FirstPrice Cents    `json:"first_price"` // its lowest first-day price among them
}

// ExecutiveBrief returns the latest week's summary of a province: the
// banners compared on a shared basket, the biggest regular-price movers
// each way, promotion intensity by banner with the promotions started and
// ended, category inflation week over week and over four weeks, new
// products, and the account's alert events when ctx acts for one.
//
// A banner SKU's weekly price is its daily price (its price in force,
// and its regular price in force) on its last day with data in the week. The week is the seven days up to the data set's
// latest day, the week before the seven days before it. The OpenAPI
// document (restserver/openapi.json) defines every figure.
//
// The brief of a province and banner is computed once per DataVersion
// and kept in the answer cache (see Cached) but for the caller's alert
// events and the summary, which each call adds.
//
// It returns EINVALIDARGUMENT for a missing or unknown province or an unknown
// banner, and EUNAVAILABLE when ctx acts for an account and the keys or
// alert events are in the shared store and it does not answer (the brief is then
// refused, never given without the events).
func (s *Service) ExecutiveBrief(ctx context.Context, in BriefInput) (*Brief, error) {
	args, err := parseAnalyticsArgs(in.Province, in.Banner, "")
	if err != nil {
		return nil, err
	}
	// The brief of the market is the same for every caller of a data
	// version: it is kept in the answer cache (Cached), and each call
	// adds its account's alert events and the summary to a copy.
	key := answerKey{"ExecutiveBrief", [2]string{args.province, args.banner.Slug}}
	v, err := s.answers.Do(s.DataVersion(), key, func() (any, int64, error) {
		out, err := s.briefMarket(args)
		if err != nil {
			return nil, 0, err
		}
		b, err := json.Marshal(out)
		return out, int64(len(b)), err
	})
	if err != nil {
		return nil, err
	}
	out := *v.(*Brief) // its lists are shared with the cache's: never modified
	out.AlertEvents = []AlertEvent{}
	account, err := s.accountOf(ctx)
	switch ErrorCode(err) {
	case "":
		if err := s.briefEvents(ctx, account, &out); err != nil {
			return nil, err
		}
	case EUNAUTHENTICATED, ENOTFOUND:
		// No account, or not one that exists: a brief without events.
	default:
		return nil, err // the shared store does not answer: say so, never leave the events out silently
	}
	out.Summary = out.summary()
	return &out, nil
}

// briefMarket computes the brief of args' province (and own banner) but
// its account's alert events and the summary.
func (s *Service) briefMarket(args analyticsArgs) (*Brief, error) {
	prov, _ := ProvinceByCode(args.province)
	out := &Brief{
		Province: args.province, ProvinceName: prov.Name, Banner: args.banner.Slug,
		Basket: BriefBasket{Basket: BasketShared, MinItems: BenchmarkMinItems, Banners: []BasketCost{}}, MoversUp: []Mover{}, MoversDown: []Mover{},
		Promotions: []BannerPromotions{}, PromotionsStarted: []PromoChange{}, PromotionsEnded: []PromoChange{},
		Categories: []CategoryInflation{}, NewProducts: BriefNewProducts{Products: []BriefProduct{}}, AlertEvents: []AlertEvent{},
		Currency: Currency, Basis: newBasis(args.province, CompareSameBarcode),
	}
	if args.banner.Slug != "" {
		out.BannerName = bannerName(args.banner.Slug)
	}
	err := s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		if asOf == 0 {
			out.Basis.Note = "the data set holds no observation"
			return nil
		}
		b := briefBuilder{tx: tx, out: out, own: args.banner.Slug, asOf: asOf,
			weekFrom: asOf - briefWeek + 1, products: map[string]*storage.Product{}}
		out.WeekFrom, out.WeekTo = Date(b.weekFrom), Date(asOf)
		defer b.release()
		return b.build()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type briefBuilder struct {
	tx       *storage.Tx
	out      *Brief
	own      string
	asOf     int32
	weekFrom int32
	w        pricestat.Weeks // every banner SKU's daily prices over the 56 days
	products map[string]*storage.Product
	stores   int
}

func (b *briefBuilder) build() error {
	if err := b.readDays(); err != nil {
		return err
	}
	if len(b.w.SKUs) == 0 || !b.anyThisWeek() {
		b.out.Basis.Note = fmt.Sprintf("no price observed in the panel in %s from %s to %s", b.out.Province, b.out.WeekFrom, b.out.WeekTo)
	}
	if err := b.basket(); err != nil {
		return err
	}
	b.promotions()
	if err := b.promoChanges(); err != nil {
		return err
	}
	if err := b.movers(); err != nil {
		return err
	}
	if err := b.categories(); err != nil {
		return err
	}
	if err := b.newProducts(); err != nil {
		return err
	}
	for banner := range b.w.Banners {
		stores := 0
		err := b.tx.ActiveStores(b.out.Province, banner, func(st *storage.Store) error {
			stores++
			if a := SourceAttribution(st.Source); a != "" && !slices.Contains(b.out.Sources, a) {
				b.out.Sources = append(b.out.Sources, a)
			}
			return nil
		})
		if err != nil {
			return err
		}
		b.stores += stores
	}
	slices.Sort(b.out.Sources)
	b.out.Basis.Banners = sortedKeys(b.w.Banners)
	b.out.Basis.Stores = b.stores
	b.out.Basis.Observations = b.w.Obs
	b.out.Basis.setDates(b.asOf-2*briefFourWeeks+1, b.asOf)
	if o := b.out.Overall; o.PreviousFourWeekDays < o.FourWeekDays {
		b.out.Basis.Note = joinNote(b.out.Basis.Note, fmt.Sprintf("the four weeks before the last four have data on %d of their %d days", o.PreviousFourWeekDays, briefFourWeeks))
	}
	if o := b.out.Overall; o.PreviousWeekDays < o.WeekDays {
		b.out.Basis.Note = joinNote(b.out.Basis.Note, fmt.Sprintf("the week before has data on %d of its %d days", o.PreviousWeekDays, briefWeek))
	}
	return nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func (b *briefBuilder) anyThisWeek() bool {
	for i := range b.w.SKUs {
		if b.w.SKUs[i].Day != 0 {
			return true
		}
	}
	return false
}

// readDays reads every banner SKU's daily prices of the province over the
// 56 days the brief compares (pricestat.Weeks).
func (b *briefBuilder) readDays() error {
	b.w = pricestat.Weeks{AsOf: b.asOf, Week: briefWeek, FourWeeks: briefFourWeeks}
	if p, ok := weekSKUs.Get().(*[]pricestat.WeekSKU); ok {
		b.w.SKUs = (*p)[:0]
	}
	return b.w.Read(b.tx, b.out.Province)
}

// weekSKUs recycles the briefs' lists of banner SKUs (a province's tens of
// thousands, which a list grown from empty copied and zeroed several
// times over: a third of a brief's CPU).
var weekSKUs sync.Pool

// release gives the list of banner SKUs back for the next brief; nothing
// of the brief refers to it.
func (b *briefBuilder) release() {
	if b.w.SKUs != nil {
		clear(b.w.SKUs) // no strings kept alive
		list := b.w.SKUs[:0]
		weekSKUs.Put(&list)
	}
}

// product returns the catalogue's record of a GTIN, read once.
func (b *briefBuilder) product(gtin string) (*storage.Product, error) {
	if p, ok := b.products[gtin]; ok {
		return p, nil
	}
	p := &storage.Product{}
	found, err := b.tx.Product(gtin, p)
	if err != nil {
		return nil, err
	}
	if !found {
		p = nil
	}
	b.products[gtin] = p
	return p, nil
}

// skuProduct returns a banner SKU's barcode and product, "" and nil when
// it has none.
func (b *briefBuilder) skuProduct(banner, sku string) (string, *storage.Product, error) {
	var rec storage.SKU
	found, err := b.tx.SKU(banner, sku, &rec)
	if err != nil || !found || rec.GTIN == "" {
		return "", nil, err
	}
	p, err := b.product(rec.GTIN)
	return rec.GTIN, p, err
}

// basket compares the banners on the barcodes priced in the flyer week
// by the most banners (M3), on their weekly prices of one flyer week
// (compare.go), as the competitive benchmark does.
func (b *briefBuilder) basket() error {
	type span struct {
		gtin   string
		lo, hi int // in prices
	}
	var spans []span
	var prices []market.Price
	week, err := readFlyerWeek(b.tx, b.out.Province, b.asOf)
	if err != nil {
		return err
	}
	b.out.Basket.WeekFrom, b.out.Basket.WeekTo = Date(week.from), Date(week.to)
	err = week.scan(b.tx, func(gtin string, ps []market.Price) error {
		// Doubled: thousands of barcodes, which append grows a quarter at
		// a time, copying them about five times over.
		if len(spans) == cap(spans) {
			spans = slices.Grow(spans, len(spans)+64)
		}
		if cap(prices)-len(prices) < len(ps) {
			prices = slices.Grow(prices, len(prices)+len(ps)+64)
		}
		spans = append(spans, span{gtin: gtin, lo: len(prices), hi: len(prices) + len(ps)})
		prices = append(prices, ps...)
		return nil
	})
	if err != nil {
		return err
	}
	barcodes := make([]market.Barcode, len(spans))
	for i, sp := range spans {
		barcodes[i] = market.Barcode{GTIN: sp.gtin, Prices: prices[sp.lo:sp.hi]}
	}
	items, stand := market.Basket(barcodes, MarketMinOthers, briefBasketItems)
	b.out.Basket.Items = items
	rows := make([]BasketCost, 0, len(stand))
	exact := map[string]float64{}
	for banner, s := range stand {
		rows = append(rows, BasketCost{Banner: banner, BannerName: bannerName(banner), Own: banner == b.own,
			Total: Cents(pricestat.Cents(s.Own)), MarketCost: Cents(pricestat.Cents(s.Market)), Items: s.Items,
			Missing: items - s.Items, Index: pricestat.Round1(s.Shelf.Index()), RegularIndex: pricestat.Round1(s.Regular.Index())})
		exact[banner] = s.Shelf.Index()
	}
	pricestat.Rank(rows, func(r *BasketCost) bool { return r.Items >= BenchmarkMinItems }, func(r *BasketCost) float64 { return exact[r.Banner] },
		func(r *BasketCost) string { return r.Banner }, func(r *BasketCost, rank int) { r.Rank = rank })
	b.out.Basket.Banners = append(b.out.Basket.Banners, rows...)
	return nil
}

// promotions counts each banner's SKUs on promotion this week, and those
// whose promotion started or ended, from their weekly prices.
func (b *briefBuilder) promotions() {
	shares := pricestat.PromoShares(b.w.SKUs)
	for banner, p := range shares {
		bp := BannerPromotions{Banner: banner, BannerName: bannerName(banner), Own: banner == b.own,
			Products: p.Products, OnPromotion: p.OnPromotion, Started: p.Started, Ended: p.Ended, SharePct: pricestat.Round1(p.SharePct())}
		if p.OnPromotion > 0 {
			bp.AvgDiscountPct = pricestat.Round1(p.AvgDiscountPct())
		}
		b.out.Promotions = append(b.out.Promotions, bp)
	}
	slices.SortFunc(b.out.Promotions, func(x, y BannerPromotions) int {
		return cmp.Or(cmp.Compare(shares[y.Banner].SharePct(), shares[x.Banner].SharePct()), cmp.Compare(x.Banner, y.Banner))
	})
}

// topSKUs orders cands by weight, the largest first, ties by banner then
// SKU, and calls add with each SKU and its product until n were added; a
// SKU whose product the catalogue lacks is passed over.
func (b *briefBuilder) topSKUs(cands []pricestat.Weighted, n int, add func(s *pricestat.WeekSKU, gtin string, p *storage.Product, w float64) error) error {
	pricestat.SortWeighted(b.w.SKUs, cands)
	added := 0
	for _, c := range cands {
		if added == n {
			break
		}
		s := &b.w.SKUs[c.I]
		gtin, p, err := b.skuProduct(s.Banner, s.SKU)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		if err := add(s, gtin, p, c.W); err != nil {
			return err
		}
		added++
	}
	return nil
}

// promoChanges lists the promotions started and ended this week, the
// deepest discounts first (ties by banner, then SKU).
func (b *briefBuilder) promoChanges() error {
	started, ended := pricestat.PromoMoves(b.w.SKUs)
	for _, part := range []struct {
		list  []pricestat.Weighted
		start bool
		dst   *[]PromoChange
	}{{started, true, &b.out.PromotionsStarted}, {ended, false, &b.out.PromotionsEnded}} {
		err := b.topSKUs(part.list, briefPromoList, func(s *pricestat.WeekSKU, gtin string, p *storage.Product, disc float64) error {
			pc := PromoChange{UPC: GTIN(gtin).UPC(), Name: p.Name, Brand: p.Brand, Size: p.Size, Banner: s.Banner,
				BannerName: bannerName(s.Banner), Own: s.Banner == b.own, ExternalSKU: s.SKU, DiscountPct: pricestat.Round1(100 * disc)}
			if part.start {
				pc.Price, pc.Regular, pc.Date = *ptrHalf(s.P), *ptrHalf(s.R), Date(s.Day)
			} else {
				pc.Price, pc.Regular, pc.Date = *ptrHalf(s.PrevP), *ptrHalf(s.PrevR), Date(s.PrevDay)
			}
			*part.dst = append(*part.dst, pc)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// movers picks the biggest regular-price changes each way between the
// two weeks' weekly prices: by the size of the change (exact), ties by
// banner, then SKU. A change counts only when the SKU's stores moved
// their own regular prices the same way between the two days (its
// matched-store index, WeekSKU.RegMove), not when it comes only from
// which stores were in force.
func (b *briefBuilder) movers() error {
	up, down := pricestat.RegularMovers(b.w.SKUs)
	for _, part := range []struct {
		list []pricestat.Weighted
		sign float64
		dst  *[]Mover
	}{{up, 1, &b.out.MoversUp}, {down, -1, &b.out.MoversDown}} {
		err := b.topSKUs(part.list, briefMovers, func(s *pricestat.WeekSKU, gtin string, p *storage.Product, size float64) error {
			m := Mover{UPC: GTIN(gtin).UPC(), Name: p.Name, Brand: p.Brand, Size: p.Size, Category: s.Category,
				Banner: s.Banner, BannerName: bannerName(s.Banner), Own: s.Banner == b.own, ExternalSKU: s.SKU,
				Before: *ptrHalf(s.PrevR), BeforeDate: Date(s.PrevDay), Now: *ptrHalf(s.R), NowDate: Date(s.Day),
				ChangePct: pricestat.Round1(part.sign * size), Prices: []DayPrice{}}
			err := b.tx.CatDays(b.out.Province, s.Category, s.Banner, b.asOf-briefSparkDays+1, b.asOf, storage.CatSKUs, func(k *storage.CatDayKey, cd *storage.CatDay) error {
				j, ok := slices.BinarySearchFunc(cd.SKUs, s.SKU, func(x storage.SKUDay, sku string) int { return strings.Compare(x.SKU, sku) })
				if ok {
					m.Prices = append(m.Prices, DayPrice{Date: Date(k.Day), Price: *ptrHalf(cd.SKUs[j].Price), Regular: *ptrHalf(cd.SKUs[j].Regular)})
				}
				return nil
			})
			if err != nil {
				return err
			}
			*part.dst = append(*part.dst, m)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// categories computes each category's like-for-like changes (M2): over
// the SKUs with a daily price in both periods, the geometric mean of the
// ratio of their mean indexes (their stores' moves chained), shelf and
// regular.
func (b *briefBuilder) categories() error {
	by := map[string]*pricestat.Inflation{}
	all := pricestat.NewInflation(0)
	for c, d := range b.w.Days {
		by[c] = pricestat.NewInflation(d)
		all.Days |= d
	}
	for i := range b.w.SKUs {
		s := &b.w.SKUs[i]
		by[s.Category].Add(s)
		all.Add(s)
	}
	pct := func(g *pricestat.Geomean) *float64 {
		if g.N() == 0 {
			return nil
		}
		v := pricestat.Round1(g.ChangePct())
		return &v
	}
	from := b.asOf - 2*briefFourWeeks + 1
	stores := map[string]int{} // banner -> active reference stores in the province
	row := func(c string, a *pricestat.Inflation) (CategoryInflation, error) {
		r := CategoryInflation{Category: c,
			WeekPct: pct(&a.Shelf[0]), WeekRegularPct: pct(&a.Regular[0]), WeekSeries: a.Shelf[0].N(), WeekBanners: len(a.Banners),
			WeekDays: a.DaysIn(from, b.weekFrom, b.asOf), PreviousWeekDays: a.DaysIn(from, b.weekFrom-briefWeek, b.weekFrom-1),
			FourWeekPct: pct(&a.Shelf[1]), FourWeekRegularPct: pct(&a.Regular[1]), FourWeekSeries: a.Shelf[1].N(),
			FourWeekDays: a.DaysIn(from, b.asOf-briefFourWeeks+1, b.asOf), PreviousFourWeekDays: a.DaysIn(from, from, b.asOf-briefFourWeeks)}
		for banner := range a.Banners {
			n, ok := stores[banner]
			if !ok {
				var err error
				if n, err = b.tx.CountActiveStores(b.out.Province, banner); err != nil {
					return r, err
				}
				stores[banner] = n
			}
			r.WeekStores += n
		}
		r.LowSample = lowSample(r.WeekSeries, r.WeekStores, r.WeekBanners, MinSampleProducts)
		return r, nil
	}
	for c, a := range by {
		// A category priced this week; SKUs of no category count in
		// the overall row only.
		r, err := row(c, a)
		if err != nil {
			return err
		}
		if r.WeekDays > 0 && c != "" {
			b.out.Categories = append(b.out.Categories, r)
		}
	}
	var err error
	if b.out.Overall, err = row("All categories", all); err != nil {
		return err
	}
	slices.SortFunc(b.out.Categories, func(x, y CategoryInflation) int { return cmp.Compare(x.Category, y.Category) })
	return nil
}

// newProducts lists the barcodes whose first observation in the
// province's panel, under any banner, falls in the week.
func (b *briefBuilder) newProducts() error {
	type first struct {
		day     int32
		price   uint32
		banners []string
	}
	firsts := map[string]*first{}
	old := map[string]bool{}
	err := b.tx.ShelfFirsts(b.out.Province, func(banner, gtin []byte, day int32, price uint32) error {
		switch {
		case len(gtin) == 0:
			return nil
		case day < b.weekFrom:
			if !old[string(gtin)] { // a lookup copies no key; a barcode comes once a banner
				old[string(gtin)] = true
			}
			return nil
		}
		f := firsts[string(gtin)]
		if f == nil {
			f = &first{day: day, price: price}
			firsts[string(gtin)] = f
		}
		if day < f.day || day == f.day && price < f.price {
			f.day, f.price = day, price
		}
		if !slices.Contains(f.banners, string(banner)) {
			f.banners = append(f.banners, string(banner))
		}
		return nil
	})
	if err != nil {
		return err
	}
	var list []BriefProduct
	for g, f := range firsts {
		if old[g] {
			continue // seen before the week under another banner
		}
		p, err := b.product(g)
		if err != nil {
			return err
		}
		np := BriefProduct{UPC: GTIN(g).UPC(), FirstSeen: Date(f.day), FirstPrice: Cents(f.price), Banners: f.banners}
		if p != nil {
			np.Name, np.Brand, np.Size, np.Category = p.Name, p.Brand, p.Size, p.Category
		}
		slices.Sort(np.Banners)
		list = append(list, np)
	}
	slices.SortFunc(list, func(x, y BriefProduct) int { return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.UPC, y.UPC)) })
	b.out.NewProducts.Count = len(list)
	b.out.NewProducts.Products = append(b.out.NewProducts.Products, list[:min(len(list), briefNewProducts)]...)
	return nil
}

// briefEvents adds the account's alert events of the week in the
// province. The events list newest recorded first, and an event is
// recorded no earlier than the day before its observation day (an import
// takes dates up to tomorrow), so the scan stops at the first event
// recorded before weekFrom - 2 (a day more for the clocks of servers
// sharing a store) instead of reading the account's whole history. A week
// after tomorrow (demo data dated ahead) holds no such promise: its
// events may have been recorded at any time, and the scan reads them all.
func (s *Service) briefEvents(ctx context.Context, account string, out *Brief) error {
	oldest := int64(math.MinInt64)
	if out.WeekTo <= s.today()+1 {
		oldest = (out.WeekFrom - 2).Time().Unix()
	}
	ids, err := s.alerts.ids(ctx)
	if err != nil {
		return err
	}
	return s.alerts.events(ctx, account, func(e *storage.AlertEvent) error {
		if e.Triggered < oldest {
			return storage.ErrStop
		}
		ev := alertEvent(ids, e)
		if ev.ObservedAt < out.WeekFrom || ev.ObservedAt > out.WeekTo || ev.Province != out.Province {
			return nil
		}
		out.AlertEvents = append(out.AlertEvents, ev)
		if len(out.AlertEvents) == briefAlertEvents {
			return storage.ErrStop
		}
		return nil
	})
}

// summary says the brief's main figures in a few sentences
// (brieftext.Figures.Summary).
func (b *Brief) summary() string {
	f := brieftext.Figures{Province: b.ProvinceName, From: b.WeekFrom.String(), To: b.WeekTo.String(),
		MinItems: b.Basket.MinItems, Items: b.Basket.Items, BasketFrom: b.Basket.WeekFrom.String(), BasketTo: b.Basket.WeekTo.String(), Overall: briefChange(b.Overall),
		Minimums: fmt.Sprintf("under %d SKUs, %d stores or %d banners", MinSampleProducts, MinSampleStores, MinSampleBanners),
		Up:       briefMove(b.MoversUp), Down: briefMove(b.MoversDown), NewProducts: b.NewProducts.Count, AlertEvents: len(b.AlertEvents)}
	for _, r := range b.Basket.ranked() {
		f.Ranked = append(f.Ranked, brieftext.Banner{Name: r.BannerName, Index: r.Index, Total: r.Total.String(), Items: r.Items})
	}
	for _, c := range b.Categories {
		f.Categories = append(f.Categories, briefChange(c))
	}
	for _, p := range b.Promotions {
		f.Promotions = append(f.Promotions, brieftext.Promotions{Banner: p.BannerName, Products: p.Products, OnPromotion: p.OnPromotion,
			SharePct: p.SharePct, AvgDiscountPct: p.AvgDiscountPct, Started: p.Started, Ended: p.Ended})
	}
	return f.Summary()
}

func briefChange(c CategoryInflation) brieftext.Change {
	return brieftext.Change{Name: c.Category, Week: c.WeekPct, Series: c.WeekSeries, FourWeek: c.FourWeekPct, LowSample: c.LowSample}
}

// briefMove is the first of movers, nil when there is none.
func briefMove(movers []Mover) *brieftext.Move {
	if len(movers) == 0 {
		return nil
	}
	m := movers[0]
	return &brieftext.Move{Brand: m.Brand, Name: m.Name, Banner: m.BannerName, Before: m.Before.String(), Now: m.Now.String(), Pct: m.ChangePct}
}

// ranked returns the ranked banners (Rank > 0), cheapest first.
func (b *BriefBasket) ranked() []BasketCost {
	var out []BasketCost
	for _, c := range b.Banners {
		if c.Rank > 0 {
			out = append(out, c)
		}
	}
	return out
}
