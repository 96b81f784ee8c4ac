package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// The promotion calendar and new on shelf: what came onto promotion and
// onto the shelf. They read the promotion events and shelf records the
// import keeps (grocery/internal/ingest). What is not in a result was not
// observed in the panel, which does not prove it did not happen.

// PromoCalendarInput holds the arguments of PromoCalendar.
type PromoCalendarInput struct {
	Province string   `json:"province"`           // required
	Banner   string   `json:"banner,omitempty"`   // optional
	Category string   `json:"category,omitempty"` // optional
	From     string   `json:"from,omitempty"`     // YYYY-MM-DD; default 29 days before To
	To       string   `json:"to,omitempty"`       // YYYY-MM-DD; default the data set's latest day
	Limit    Opt[int] `json:"limit,omitzero"`     // 1..500; 50 when not given
	Offset   int      `json:"offset,omitempty"`
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
	// PromoEnds is the promotion's end as the stores last gave it: the
	// latest promo_ends of the stores' observations on promotion on the
	// event's last day that has one; null when none gave one.
	PromoEnds *Date `json:"promo_ends"`
	// Ongoing reports whether the promotion still runs on the data set's
	// latest day (asOf): PromoEnds >= asOf, or, with no end known, its
	// last day observed on promotion >= asOf - 7 (restserver/openapi.json,
	// PromoEvent.ongoing).
	Ongoing bool `json:"ongoing"`
}

// PromoCalendar is the answer of PromoCalendar: one page of events.
type PromoCalendar struct {
	Province         string `json:"province"`
	From             Date   `json:"from"`
	To               Date   `json:"to"`
	Page[PromoEvent]        // by start, banner, SKU
	Currency         string `json:"currency"`
	Basis            Basis  `json:"basis"`
}

// promoLookback is how long before 'from' the calendar looks for events
// still running: events that began earlier are not listed.
const promoLookback = 56

// PromoCalendar returns the promotion events of a province's panel (of one
// banner and one category when given) that overlap from..to, by start:
// one event per banner SKU and run of observation days on promotion (an
// observation under its regular price), with its regular and promotional
// price (the most common among the stores), discount, stores, its end as
// the stores gave it and whether it is ongoing on the data set's latest
// day. Events that began more than 56 days before from are not listed.
// The OpenAPI document (restserver/openapi.json, PromoEvent) defines
// each figure.
//
// It returns EINVALIDARGUMENT for a missing or unknown province, an unknown
// banner, a bad date, from after to, a range over 366 days, a limit
// outside 1..500 or a bad offset. An unknown category gives an empty
// calendar whose Basis.Note says why.
func (s *Service) PromoCalendar(ctx context.Context, in PromoCalendarInput) (*PromoCalendar, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	res := &PromoCalendar{Province: a.province, Page: newPage[PromoEvent](limit, offset), Currency: Currency,
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
			ev, err := promoEvent(tx, p, &prod, int32(asOf))
			if err != nil {
				return err
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

// promoGap is the most days between two observation days of one
// promotion event.
const promoGap = 7

// ongoingWithoutEnd is how many days before the data set's latest day a
// promotion with no known end may last have been observed and still be
// ongoing: the most days between two observation days of one event
// (promoGap).
const ongoingWithoutEnd = promoGap

// promoEvent returns promotion event p of product prod as the calendar
// lists it on asOf, with the end its stores last gave (the latest
// promo_end of its last day on which a store gave one).
func promoEvent(tx *storage.Tx, p *storage.Promo, prod *Product, asOf int32) (PromoEvent, error) {
	ev := PromoEvent{Banner: p.Banner, BannerName: bannerName(p.Banner), ExternalSKU: p.SKU, UPC: prod.UPC,
		Name: prod.Name, Brand: prod.Brand, Category: prod.Category, Province: p.Province,
		Start: Date(p.Start), End: Date(p.End), RegularPrice: Cents(p.Regular), PromoPrice: Cents(p.Price),
		Stores: int(p.Stores), Days: int(p.Days), DiscountPct: pricestat.Round1(pricestat.DiscountPct(p.Price, p.Regular))}
	var ends int32
	err := tx.Series(p.Banner, p.SKU, p.Province, storage.SeriesScan{From: p.Start, To: p.End, NewestFirst: true}, func(d *storage.Day) error {
		if ends = pricestat.PromoEnd(d.Entries); ends != 0 {
			return storage.ErrStop
		}
		return nil
	})
	if err != nil {
		return PromoEvent{}, err
	}
	if ends != 0 {
		d := Date(ends)
		ev.PromoEnds = &d
	}
	ev.Ongoing = pricestat.PromoOngoing(ends, p.End, asOf, ongoingWithoutEnd)
	return ev, nil
}

// NewOnShelf's window (NewOnShelfInput.Days): 1..MaxNewDays days,
// DefaultNewDays when not given.
const (
	DefaultNewDays = 14
	MaxNewDays     = 365
)

// NewOnShelfInput holds the arguments of NewOnShelf.
type NewOnShelfInput struct {
	Province string   `json:"province"`           // required
	Banner   string   `json:"banner,omitempty"`   // optional
	Category string   `json:"category,omitempty"` // optional
	Days     Opt[int] `json:"days,omitzero"`      // 1..365; not given: 14
	Limit    Opt[int] `json:"limit,omitzero"`     // 1..500; 50 when not given
	Offset   int      `json:"offset,omitempty"`
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
	Province         string `json:"province"`
	Days             int    `json:"days"`
	From             Date   `json:"from"`
	To               Date   `json:"to"`
	Page[NewProduct]        // newest first, then banner, SKU
	Currency         string `json:"currency"`
	Basis            Basis  `json:"basis"`
}

// NewOnShelf returns the banner SKUs of a province's panel (of one banner
// and one category when given) first observed within the last days days
// up to the data set's latest day, newest first, with their first price.
//
// It returns EINVALIDARGUMENT for a missing or unknown province, an unknown
// banner, days outside 1..365, a limit outside 1..500 or a bad offset. An
// unknown category gives an empty list whose Basis.Note says why.
func (s *Service) NewOnShelf(ctx context.Context, in NewOnShelfInput) (*NewOnShelf, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	days := in.Days.Or(DefaultNewDays)
	if days < 1 || days > MaxNewDays {
		return nil, Errorf(EINVALIDARGUMENT, "days %d is out of range: want 1 to %d (default %d)", days, MaxNewDays, DefaultNewDays)
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	res := &NewOnShelf{Province: a.province, Days: days, Page: newPage[NewProduct](limit, offset),
		Currency: Currency, Basis: newBasis(a.province, CompareSameBarcode)}
	var found []storage.Shelf
	panelStart := int32(math.MaxInt32)
	err = s.db.View(func(tx *storage.Tx) error {
		res.To = Date(tx.AsOf())
		res.From = res.To - Date(days) + 1
		err := tx.ShelfIn(a.province, a.banner.Slug, func(sh *storage.Shelf) error {
			panelStart = min(panelStart, sh.First)
			if sh.First >= int32(res.From) && sh.First <= int32(res.To) && matchCategory(sh.Category, a.category) {
				found = append(found, *sh)
			}
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(found, func(x, y storage.Shelf) int {
			return cmp.Or(cmp.Compare(y.First, x.First), cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU))
		})
		res.Total = len(found)
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
		res.Basis.Stores, err = tx.CountActiveStores(a.province, a.banner.Slug)
		return err
	})
	if err != nil {
		return nil, err
	}
	res.Basis.newOnShelf(found, panelStart, a, res.From, res.To)
	return res, nil
}

// newOnShelf fills b from the shelf records found new in from..to and
// the first day of the panel's observations (of the banner, when
// given): the banners, the first days, the first-day observations and a
// note on what "new" can mean here.
func (b *Basis) newOnShelf(found []storage.Shelf, panelStart int32, a analyticsArgs, from, to Date) {
	banners := map[string]bool{}
	lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
	for _, sh := range found {
		banners[sh.Banner] = true
		lo, hi = min(lo, sh.First), max(hi, sh.First)
		b.Observations += int(sh.FirstStores)
	}
	b.Banners = sortedKeys(banners)
	b.setDates(lo, hi)
	switch {
	case len(found) == 0:
		b.Note = a.emptyNote("new product", from, to)
	case panelStart >= int32(from):
		b.Note = fmt.Sprintf("the panel's observations here begin on %s: a product first observed then may have been on shelf before", Date(panelStart))
	default:
		b.Note = "first observed in the panel: a product may have been on shelf elsewhere before; observations counts the first-day observations"
	}
}
