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

// The executive brief: one province's latest week in a page. Its figures
// come from the current offers (basket cost, promotion intensity), the
// series of daily prices (movers, category inflation), the shelf records
// (new products) and the account's alert events; Summary says the same
// in sentences made from those numbers. WriteHTML (brief.html.go)
// renders it as a printable page.

// BriefInput holds the arguments of ExecutiveBrief.
type BriefInput struct {
	Province string `json:"province"`         // required
	Banner   string `json:"banner,omitempty"` // optional: the reader's own banner, marked in every list
}

// Brief sizes.
const (
	briefBasketItems = 25 // barcodes in the shared basket
	briefMovers      = 5  // movers each way
	briefNewProducts = 10 // new products listed
	briefAlertEvents = 20 // alert events listed
	briefSparkDays   = 28 // days of a mover's sparkline
)

// Brief is the answer of ExecutiveBrief: the latest week (the seven days
// up to the data set's latest observation day) of one province.
type Brief struct {
	Province     string `json:"province"`
	ProvinceName string `json:"province_name"`
	Banner       string `json:"banner,omitempty"` // the reader's banner, when given
	WeekFrom     Date   `json:"week_from"`
	WeekTo       Date   `json:"week_to"`
	// Summary is a short paragraph made from the figures below; it
	// ranks the basket's cheapest and dearest banners among those that
	// carry four in five of its items.
	Summary     string              `json:"summary"`
	Basket      BriefBasket         `json:"basket"`
	MoversUp    []Mover             `json:"movers_up"`   // biggest rises first; empty, never null
	MoversDown  []Mover             `json:"movers_down"` // biggest falls first; empty, never null
	Promotions  []BannerPromotions  `json:"promotions"`  // by share on promotion, highest first
	Categories  []CategoryInflation `json:"categories"`  // by category name
	Overall     CategoryInflation   `json:"overall"`     // every category together, Category "All categories"
	NewProducts BriefNewProducts    `json:"new_products"`
	// AlertEvents are the reader's account's events of the week in the
	// province, newest first; empty without an account.
	AlertEvents []AlertEvent `json:"alert_events"`
	Currency    string       `json:"currency"`
	Basis       Basis        `json:"basis"`
}

// BriefBasket is the cost of one basket of barcodes at each banner: the
// barcodes carried by the most banners of the province this week.
type BriefBasket struct {
	Items   int          `json:"items"`   // barcodes in the basket
	Banners []BasketCost `json:"banners"` // lowest index first
}

// BasketCost is one banner's cost of the brief's basket.
type BasketCost struct {
	Banner     string `json:"banner"`
	BannerName string `json:"banner_name"`
	Own        bool   `json:"own,omitempty"` // the reader's banner
	Total      Cents  `json:"total"`         // its current prices of the basket items it carries
	Items      int    `json:"items"`         // basket items observed at the banner this week
	Missing    int    `json:"missing"`       // basket items not observed at the banner in the panel this week
	// Index is Total against the market's average prices of the same
	// items (each item's average over the banners carrying it): 100 is the
	// market, 95 five percent cheaper.
	Index float64 `json:"index"`
}

// Mover is a banner SKU whose price moved over the week.
type Mover struct {
	UPC         string     `json:"upc"`
	Name        string     `json:"name"`
	Brand       string     `json:"brand"`
	Size        string     `json:"size"`
	Banner      string     `json:"banner"`
	BannerName  string     `json:"banner_name"`
	Own         bool       `json:"own,omitempty"`
	ExternalSKU string     `json:"external_sku"`
	Before      Cents      `json:"before"` // median price on its last observed day a week earlier
	BeforeDate  Date       `json:"before_date"`
	Now         Cents      `json:"now"` // median price on its last observed day of the week
	NowDate     Date       `json:"now_date"`
	ChangePct   float64    `json:"change_pct"`
	Prices      []DayPrice `json:"prices"` // daily medians of the last four weeks, for a sparkline
}

// DayPrice is a series' median price on one day.
type DayPrice struct {
	Date  Date  `json:"date"`
	Price Cents `json:"price"`
}

// BannerPromotions is a banner's promotion intensity this week.
type BannerPromotions struct {
	Banner      string  `json:"banner"`
	BannerName  string  `json:"banner_name"`
	Own         bool    `json:"own,omitempty"`
	Products    int     `json:"products"`     // SKUs observed this week
	OnPromotion int     `json:"on_promotion"` // of which on promotion
	SharePct    float64 `json:"share_pct"`
	// AvgDiscountPct is the average discount of the promoted SKUs
	// against their regular price, 0 when none is promoted.
	AvgDiscountPct float64 `json:"avg_discount_pct"`
}

// CategoryInflation is a category's like-for-like price change: the
// geometric mean of each banner SKU's price ratio, over the SKUs observed
// in both weeks compared.
type CategoryInflation struct {
	Category string `json:"category"`
	// WeekPct is the change against the week before, over WeekSeries
	// SKUs; null when no SKU was observed in both weeks.
	WeekPct    *float64 `json:"week_pct"`
	WeekSeries int      `json:"week_series"`
	// FourWeekPct is the change against the week four weeks before.
	FourWeekPct    *float64 `json:"four_week_pct"`
	FourWeekSeries int      `json:"four_week_series"`
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

// briefSeries is one banner SKU of the province with its prices at the
// three points the brief compares.
type briefSeries struct {
	gtin, banner, sku string
	now, week, month  int32 // median cents on the last observed day of each window, 0 when none
	nowDay, weekDay   int32
}

// ExecutiveBrief returns the latest week's summary of a province: basket
// cost by banner, the biggest movers each way, promotion intensity by
// banner, category inflation week over week and over four weeks, new
// products, and the account's alert events when ctx acts for one.
//
// It returns EINVALID for a missing or unknown province or an unknown
// banner, and EUNAVAILABLE when ctx acts for an account and the keys or
// alert events are in Redis and it does not answer (the brief is then
// refused, never given without the events).
func (s *Service) ExecutiveBrief(ctx context.Context, in BriefInput) (*Brief, error) {
	args, err := parseAnalyticsArgs(in.Province, in.Banner, "")
	if err != nil {
		return nil, err
	}
	prov, _ := ProvinceByCode(args.province)
	out := &Brief{
		Province: args.province, ProvinceName: prov.Name, Banner: args.banner.Slug,
		Basket: BriefBasket{Banners: []BasketCost{}}, MoversUp: []Mover{}, MoversDown: []Mover{},
		Promotions: []BannerPromotions{}, Categories: []CategoryInflation{},
		NewProducts: BriefNewProducts{Products: []BriefProduct{}}, AlertEvents: []AlertEvent{},
		Currency: Currency, Basis: newBasis(args.province, CompareSameBarcode),
	}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := tx.AsOf()
		if asOf == 0 {
			out.Basis.Note = "the data set holds no observation"
			return nil
		}
		b := briefBuilder{tx: tx, out: out, own: args.banner.Slug, asOf: asOf,
			weekFrom: asOf - 6, products: map[string]*storage.Product{}, banners: map[string]bool{}}
		out.WeekFrom, out.WeekTo = Date(b.weekFrom), Date(asOf)
		return b.build()
	})
	if err != nil {
		return nil, err
	}
	account, err := s.accountOf(ctx)
	switch ErrorCode(err) {
	case "":
		if err := s.briefEvents(ctx, account, out); err != nil {
			return nil, err
		}
	case EUNAUTHENTICATED, ENOTFOUND:
		// No account, or not one that exists: a brief without events.
	default:
		return nil, err // Redis does not answer: say so, never leave the events out silently
	}
	out.Summary = out.summary()
	return out, nil
}

type briefBuilder struct {
	tx       *storage.Tx
	out      *Brief
	own      string
	asOf     int32
	weekFrom int32
	offers   []briefOffer
	series   []briefSeries
	products map[string]*storage.Product
	banners  map[string]bool
	stores   int
	obs      int
}

type briefOffer struct {
	gtin string
	o    storage.Offer
}

func (b *briefBuilder) build() error {
	err := b.tx.OffersIn(b.out.Province, func(gtin string, o *storage.Offer) error {
		if o.ObservedAt >= b.weekFrom {
			b.offers = append(b.offers, briefOffer{gtin, *o})
			b.banners[o.Banner] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(b.offers) == 0 {
		b.out.Basis.Note = fmt.Sprintf("no price observed in the panel in %s from %s to %s", b.out.Province, b.out.WeekFrom, b.out.WeekTo)
	}
	b.basket()
	b.promotions()
	if err := b.readSeries(); err != nil {
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
	b.out.Basis.Banners = sortedKeys(b.banners)
	b.out.Basis.Stores = b.stores
	b.out.Basis.Observations = b.obs
	b.out.Basis.setDates(b.asOf-34, b.asOf)
	return nil
}

// basket costs the barcodes carried by the most banners at each banner.
func (b *briefBuilder) basket() {
	carriers := map[string][]int{} // gtin -> indexes into offers, one per banner
	for i := range b.offers {
		g := b.offers[i].gtin
		dup := false
		for _, j := range carriers[g] {
			dup = dup || b.offers[j].o.Banner == b.offers[i].o.Banner
		}
		if !dup { // a banner with two SKUs of a barcode counts its first
			carriers[g] = append(carriers[g], i)
		}
	}
	var items []string
	for g, c := range carriers {
		if len(c) >= 2 {
			items = append(items, g)
		}
	}
	slices.SortFunc(items, func(x, y string) int {
		return cmp.Or(cmp.Compare(len(carriers[y]), len(carriers[x])), cmp.Compare(x, y))
	})
	items = items[:min(len(items), briefBasketItems)]
	b.out.Basket.Items = len(items)
	costs := map[string]*BasketCost{}
	market := map[string]float64{} // banner -> market cost of the items it carries
	for _, g := range items {
		sum := 0.0
		for _, i := range carriers[g] {
			sum += float64(b.offers[i].o.Price)
		}
		avg := sum / float64(len(carriers[g]))
		for _, i := range carriers[g] {
			o := &b.offers[i].o
			c := costs[o.Banner]
			if c == nil {
				c = &BasketCost{Banner: o.Banner, BannerName: bannerName(o.Banner), Own: o.Banner == b.own}
				costs[o.Banner] = c
			}
			c.Total += Cents(o.Price)
			c.Items++
			market[o.Banner] += avg
		}
	}
	for _, c := range costs {
		c.Missing = len(items) - c.Items
		c.Index = round1(100 * float64(c.Total) / market[c.Banner])
		b.out.Basket.Banners = append(b.out.Basket.Banners, *c)
	}
	slices.SortFunc(b.out.Basket.Banners, func(x, y BasketCost) int {
		return cmp.Or(cmp.Compare(x.Index, y.Index), cmp.Compare(x.Banner, y.Banner))
	})
}

// promotions counts each banner's SKUs on promotion this week.
func (b *briefBuilder) promotions() {
	by := map[string]*BannerPromotions{}
	disc := map[string]float64{}
	for i := range b.offers {
		o := &b.offers[i].o
		p := by[o.Banner]
		if p == nil {
			p = &BannerPromotions{Banner: o.Banner, BannerName: bannerName(o.Banner), Own: o.Banner == b.own}
			by[o.Banner] = p
		}
		p.Products++
		if o.Price < o.Regular {
			p.OnPromotion++
			disc[o.Banner] += 100 * float64(o.Regular-o.Price) / float64(o.Regular)
		}
	}
	for _, p := range by {
		p.SharePct = round1(100 * float64(p.OnPromotion) / float64(p.Products))
		if p.OnPromotion > 0 {
			p.AvgDiscountPct = round1(disc[p.Banner] / float64(p.OnPromotion))
		}
		b.out.Promotions = append(b.out.Promotions, *p)
	}
	slices.SortFunc(b.out.Promotions, func(x, y BannerPromotions) int {
		return cmp.Or(cmp.Compare(y.SharePct, x.SharePct), cmp.Compare(x.Banner, y.Banner))
	})
}

// readSeries reads each offer's daily medians over the five weeks the
// brief compares: this week, the week before, and the week four weeks
// before this one.
func (b *briefBuilder) readSeries() error {
	stores := map[uint32]bool{}
	lastWeek, monthTo := b.weekFrom-1, b.weekFrom-22
	for i := range b.offers {
		bo := &b.offers[i]
		s := briefSeries{gtin: bo.gtin, banner: bo.o.Banner, sku: bo.o.SKU}
		err := b.tx.Series(s.banner, s.sku, b.out.Province, b.asOf-34, b.asOf, false, false, func(d *storage.Day) error {
			switch {
			case d.Date >= b.weekFrom:
				s.now, s.nowDay = int32(d.Median), d.Date
			case d.Date >= b.weekFrom-7 && d.Date <= lastWeek:
				s.week, s.weekDay = int32(d.Median), d.Date
			case d.Date >= b.weekFrom-28 && d.Date <= monthTo:
				s.month = int32(d.Median)
			}
			b.obs += int(d.Count)
			return nil
		})
		if err != nil {
			return err
		}
		b.series = append(b.series, s)
	}
	// The stores behind the week's prices: the province's active stores
	// of the banners observed.
	for banner := range b.banners {
		err := b.tx.ActiveStores(b.out.Province, banner, func(st *storage.Store) bool {
			stores[st.Ord] = true
			return true
		})
		if err != nil {
			return err
		}
	}
	b.stores = len(stores)
	return nil
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

// movers picks the biggest week-over-week changes each way.
func (b *briefBuilder) movers() error {
	var up, down []Mover
	for i := range b.series {
		s := &b.series[i]
		if s.now == 0 || s.week == 0 || s.now == s.week {
			continue
		}
		p, err := b.product(s.gtin)
		if err != nil {
			return err
		}
		if p == nil {
			continue
		}
		m := Mover{
			UPC: GTIN(s.gtin).UPC(), Name: p.Name, Brand: p.Brand, Size: p.Size,
			Banner: s.banner, BannerName: bannerName(s.banner), Own: s.banner == b.own, ExternalSKU: s.sku,
			Before: Cents(s.week), BeforeDate: Date(s.weekDay), Now: Cents(s.now), NowDate: Date(s.nowDay),
			ChangePct: round1(100 * (float64(s.now) - float64(s.week)) / float64(s.week)),
		}
		if s.now > s.week {
			up = append(up, m)
		} else {
			down = append(down, m)
		}
	}
	order := func(x, y Mover) int {
		return cmp.Or(cmp.Compare(math.Abs(y.ChangePct), math.Abs(x.ChangePct)),
			cmp.Compare(x.Name, y.Name), cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.ExternalSKU, y.ExternalSKU))
	}
	slices.SortFunc(up, order)
	slices.SortFunc(down, order)
	b.out.MoversUp = append(b.out.MoversUp, up[:min(len(up), briefMovers)]...)
	b.out.MoversDown = append(b.out.MoversDown, down[:min(len(down), briefMovers)]...)
	for _, list := range [][]Mover{b.out.MoversUp, b.out.MoversDown} {
		for i := range list {
			m := &list[i]
			m.Prices = []DayPrice{}
			err := b.tx.Series(m.Banner, m.ExternalSKU, b.out.Province, b.asOf-briefSparkDays+1, b.asOf, false, false, func(d *storage.Day) error {
				m.Prices = append(m.Prices, DayPrice{Date(d.Date), Cents(d.Median)})
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// categories computes each category's like-for-like change.
func (b *briefBuilder) categories() error {
	type acc struct {
		week, month   float64 // sums of log ratios
		nWeek, nMonth int
	}
	by := map[string]*acc{}
	all := &acc{}
	for i := range b.series {
		s := &b.series[i]
		if s.now == 0 {
			continue
		}
		p, err := b.product(s.gtin)
		if err != nil {
			return err
		}
		if p == nil || p.Category == "" {
			continue
		}
		a := by[p.Category]
		if a == nil {
			a = &acc{}
			by[p.Category] = a
		}
		for _, a := range []*acc{a, all} {
			if s.week > 0 {
				a.week += math.Log(float64(s.now) / float64(s.week))
				a.nWeek++
			}
			if s.month > 0 {
				a.month += math.Log(float64(s.now) / float64(s.month))
				a.nMonth++
			}
		}
	}
	pct := func(sum float64, n int) *float64 {
		if n == 0 {
			return nil
		}
		v := round1(100 * (math.Exp(sum/float64(n)) - 1))
		return &v
	}
	row := func(c string, a *acc) CategoryInflation {
		return CategoryInflation{Category: c, WeekPct: pct(a.week, a.nWeek), WeekSeries: a.nWeek,
			FourWeekPct: pct(a.month, a.nMonth), FourWeekSeries: a.nMonth}
	}
	for c, a := range by {
		b.out.Categories = append(b.out.Categories, row(c, a))
	}
	b.out.Overall = row("All categories", all)
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
	err := b.tx.ShelfIn(b.out.Province, "", func(sh *storage.Shelf) error {
		if sh.GTIN == "" {
			return nil
		}
		if sh.First < b.weekFrom {
			old[sh.GTIN] = true
			return nil
		}
		f := firsts[sh.GTIN]
		if f == nil {
			f = &first{day: sh.First, price: sh.FirstPrice}
			firsts[sh.GTIN] = f
		}
		if sh.First < f.day || sh.First == f.day && sh.FirstPrice < f.price {
			f.day, f.price = sh.First, sh.FirstPrice
		}
		if !slices.Contains(f.banners, sh.Banner) {
			f.banners = append(f.banners, sh.Banner)
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
// sharing Redis) instead of reading the account's whole history. A week
// after tomorrow (demo data dated ahead) holds no such promise: its
// events may have been recorded at any time, and the scan reads them all.
func (s *Service) briefEvents(ctx context.Context, account string, out *Brief) error {
	oldest := int64(math.MinInt64)
	if out.WeekTo <= s.today()+1 {
		oldest = (out.WeekFrom - 2).Time().Unix()
	}
	return s.alerts.events(ctx, account, func(e *storage.AlertEvent) error {
		if e.Triggered < oldest {
			return storage.ErrStop
		}
		ev := alertEvent(e)
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

// summary says the brief's main figures in a few sentences.
func (b *Brief) summary() string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s, %s to %s: ", b.ProvinceName, b.WeekFrom, b.WeekTo)
	if len(b.Basket.Banners) == 0 && len(b.Categories) == 0 {
		w.WriteString("no price was observed in the panel this week.")
		return w.String()
	}
	if ranked := b.Basket.wellCovered(); len(ranked) > 0 {
		lo, hi := ranked[0], ranked[len(ranked)-1]
		fmt.Fprintf(&w, "of %d banners carrying at least %d of the %d shared products, %s had the cheapest basket (index %.1f, $%s for the %d it carries)",
			len(ranked), b.Basket.covering(), b.Basket.Items, lo.BannerName, lo.Index, lo.Total, lo.Items)
		if len(ranked) > 1 {
			fmt.Fprintf(&w, " and %s the dearest (index %.1f)", hi.BannerName, hi.Index)
		}
		w.WriteString(". ")
	}
	if o := b.Overall; o.WeekPct != nil {
		var top *CategoryInflation
		for i := range b.Categories {
			c := &b.Categories[i]
			if c.WeekPct != nil && (top == nil || math.Abs(*c.WeekPct) > math.Abs(*top.WeekPct)) {
				top = c
			}
		}
		fmt.Fprintf(&w, "Prices %s week over week across %d banner SKUs compared like for like", moved(*o.WeekPct), o.WeekSeries)
		if o.FourWeekPct != nil {
			fmt.Fprintf(&w, " (%+.1f%% over four weeks)", *o.FourWeekPct)
		}
		fmt.Fprintf(&w, "; the largest category move was %s (%+.1f%%). ", top.Category, *top.WeekPct)
	}
	if len(b.MoversUp) > 0 {
		m := b.MoversUp[0]
		fmt.Fprintf(&w, "The biggest rise was %s %s at %s ($%s to $%s, %+.1f%%)", m.Brand, m.Name, m.BannerName, m.Before, m.Now, m.ChangePct)
		if len(b.MoversDown) > 0 {
			d := b.MoversDown[0]
			fmt.Fprintf(&w, "; the biggest drop %s %s at %s ($%s to $%s, %+.1f%%)", d.Brand, d.Name, d.BannerName, d.Before, d.Now, d.ChangePct)
		}
		w.WriteString(". ")
	} else if len(b.MoversDown) > 0 {
		d := b.MoversDown[0]
		fmt.Fprintf(&w, "The biggest drop was %s %s at %s ($%s to $%s, %+.1f%%). ", d.Brand, d.Name, d.BannerName, d.Before, d.Now, d.ChangePct)
	}
	if len(b.Promotions) > 0 && b.Promotions[0].OnPromotion > 0 {
		p := b.Promotions[0]
		fmt.Fprintf(&w, "%s promoted the most (%.1f%% of %d %s, %.1f%% off on average). ", p.BannerName, p.SharePct, p.Products, plural(p.Products, "product"), p.AvgDiscountPct)
	}
	switch b.NewProducts.Count {
	case 0:
		w.WriteString("No product was new in the panel.")
	case 1:
		w.WriteString("1 product was new in the panel.")
	default:
		fmt.Fprintf(&w, "%d products were new in the panel.", b.NewProducts.Count)
	}
	if n := len(b.AlertEvents); n > 0 {
		fmt.Fprintf(&w, " Your alert rules recorded %d %s.", n, plural(n, "event"))
	}
	return w.String()
}

// covering is how many of the basket's items a banner must carry for the
// summary to rank it: four in five. A banner that carries few of them
// can look cheap on the few it has; its row stays in Basket.Banners.
func (b *BriefBasket) covering() int { return (4*b.Items + 4) / 5 }

// wellCovered returns the banners that carry at least covering() items,
// lowest index first.
func (b *BriefBasket) wellCovered() []BasketCost {
	var out []BasketCost
	for _, c := range b.Banners {
		if c.Items >= b.covering() {
			out = append(out, c)
		}
	}
	return out
}

// moved says how an average change in percent moved prices.
func moved(pct float64) string {
	switch {
	case math.Abs(pct) < 0.05:
		return "held steady (0.0%)"
	case pct < 0:
		return fmt.Sprintf("fell %.1f%%", -pct)
	}
	return fmt.Sprintf("rose %.1f%%", pct)
}

// round1 rounds x to one decimal, never to a negative zero.
func round1(x float64) float64 { return math.Round(x*10)/10 + 0 }
