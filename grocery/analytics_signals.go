package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/storage"
)

// Signals: what a buyer of one banner should look at in a province now,
// in four kinds, each signal explained in one line generated from its
// numbers. They read the import's aggregates (current offers, shelf
// records, promotion events; write_analytics.go), never whole histories.

// The kinds of signal, in the order Signals lists them.
const (
	SignalThreats       = "threats"
	SignalOpportunities = "opportunities"
	SignalChanges       = "changes"
	SignalWatchlist     = "watchlist"
)

var signalKinds = []string{SignalThreats, SignalOpportunities, SignalChanges, SignalWatchlist}

// The thresholds of Signals. They are part of the meaning of a signal:
// the OpenAPI document and README repeat them.
const (
	// SignalMovePct is a significant move: a regular price that changed
	// by at least 10% (changes: price_increase, price_decrease).
	SignalMovePct = 10
	// SignalMarketGapPct is "well above" or "well below" the market: the
	// banner's current price at least 15% above or below the median of the
	// other banners' current prices of the same barcode (opportunities).
	SignalMarketGapPct = 15
	// SignalShrinkDays is how recent the smaller size must be: first
	// observed at the banner in the province within the last 90 days.
	SignalShrinkDays = 90
	// SignalShrinkPct is the least unit-price increase that counts as
	// shrinkflation: 1%.
	SignalShrinkPct = 1
	// SignalLookbackDays is the promotion-honesty and 30-day-low window.
	SignalLookbackDays = priceLookback
)

// Severity levels of a signal, from the most to the least pressing.
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
)

// SignalsInput holds the arguments of Signals.
type SignalsInput struct {
	Province string `json:"province"`           // required
	Banner   string `json:"banner,omitempty"`   // the caller's own banner; needed for threats and opportunities
	Category string `json:"category,omitempty"` // optional: one category (exact, case-insensitive)
	Kind     string `json:"kind,omitempty"`     // optional: threats, opportunities, changes or watchlist
	Since    string `json:"since,omitempty"`    // YYYY-MM-DD; default 6 days before the latest day (7 days)
	Limit    int    `json:"limit,omitempty"`    // 1..500; 0 means 50
	Offset   int    `json:"offset,omitempty"`
}

// SignalPrice is one banner's current price of a product in the evidence
// of a signal.
type SignalPrice struct {
	Banner      string `json:"banner"`
	BannerName  string `json:"banner_name"`
	ExternalSKU string `json:"external_sku"`
	Price       Cents  `json:"price"`
	Regular     Cents  `json:"regular_price"`
	OnPromo     bool   `json:"on_promo"`
	Stores      int    `json:"store_count"`
	ObservedAt  Date   `json:"observed_at"`
}

// SignalEvidence holds the numbers a signal rests on; the fields that do
// not apply to its type are left out.
type SignalEvidence struct {
	UPC         string   `json:"upc,omitempty"`
	Name        string   `json:"name,omitempty"`
	Brand       string   `json:"brand,omitempty"`
	Size        string   `json:"size,omitempty"`
	Category    string   `json:"category,omitempty"`
	Banner      string   `json:"banner,omitempty"` // the banner whose price or product it is
	BannerName  string   `json:"banner_name,omitempty"`
	ExternalSKU string   `json:"external_sku,omitempty"`
	Price       *Cents   `json:"price,omitempty"`         // that banner's current (or promotional) price
	Regular     *Cents   `json:"regular_price,omitempty"` // its regular price (claimed, for a promotion)
	Previous    *Cents   `json:"previous_price,omitempty"`
	ChangePct   *float64 `json:"change_pct,omitempty"`
	OwnPrice    *Cents   `json:"own_price,omitempty"`     // the caller's banner's current price
	MarketPrice *Cents   `json:"market_median,omitempty"` // median of the other banners' current prices
	Date        *Date    `json:"date,omitempty"`          // when it happened: change, promotion start, first seen
	End         *Date    `json:"end,omitempty"`           // promotion's last day observed
	Stores      int      `json:"store_count,omitempty"`
	// UnitPrice and PreviousUnitPrice compare sizes (shrinkflation), in
	// cents per UnitBasis.
	UnitPrice         *float64      `json:"unit_price,omitempty"`
	PreviousUnitPrice *float64      `json:"previous_unit_price,omitempty"`
	UnitBasis         string        `json:"unit_price_basis,omitempty"`
	PreviousUPC       string        `json:"previous_upc,omitempty"`
	PreviousSize      string        `json:"previous_size,omitempty"`
	Competitors       []SignalPrice `json:"competitors,omitempty"`
	Banners           []string      `json:"banners,omitempty"`
	Rule              string        `json:"rule_id,omitempty"`
}

// Signal is one market signal.
type Signal struct {
	Kind        string         `json:"kind"`
	Type        string         `json:"type"`
	Severity    string         `json:"severity"`
	Explanation string         `json:"explanation"`
	Evidence    SignalEvidence `json:"evidence"`
	rank        float64        // magnitude, to order signals of one severity
	order       int            // kind and severity, to order signals
}

// SignalCounts counts the signals of each kind (before paging).
type SignalCounts struct {
	Threats       int `json:"threats"`
	Opportunities int `json:"opportunities"`
	Changes       int `json:"changes"`
	Watchlist     int `json:"watchlist"`
}

// SignalsResult is the answer of Signals: one page of signals.
type SignalsResult struct {
	Province string       `json:"province"`
	Banner   string       `json:"banner,omitempty"`
	Category string       `json:"category,omitempty"`
	Kind     string       `json:"kind,omitempty"`
	Since    Date         `json:"since"`
	To       Date         `json:"to"`
	Counts   SignalCounts `json:"counts"`
	Results  []Signal     `json:"results"` // by kind, severity, magnitude; empty, never null
	Total    int          `json:"total"`
	Limit    int          `json:"limit"`
	Offset   int          `json:"offset"`
	Currency string       `json:"currency"`
	Basis    Basis        `json:"basis"`
}

func ptrCents(c uint32) *Cents { v := Cents(c); return &v }
func ptrDate(d int32) *Date    { v := Date(d); return &v }
func ptrF(f float64) *float64  { return &f }

// changePct is the change from a to b in percent, to one decimal.
func changePct(a, b uint32) float64 {
	if a == 0 {
		return 0
	}
	return pct((float64(b) - float64(a)) * 100 / float64(a))
}

func severityOf(x, high, medium float64) string {
	switch {
	case x >= high:
		return SeverityHigh
	case x >= medium:
		return SeverityMedium
	}
	return SeverityLow
}

var severityRank = map[string]int{SeverityHigh: 0, SeverityMedium: 1, SeverityLow: 2}

// signalOffer is a banner's current offer of a barcode (its cheapest SKU).
type signalOffer struct {
	storage.Offer
}

func (o *signalOffer) price() SignalPrice {
	return SignalPrice{Banner: o.Banner, BannerName: bannerName(o.Banner), ExternalSKU: o.SKU, Price: Cents(o.Price),
		Regular: Cents(o.Regular), OnPromo: o.Price < o.Regular, Stores: int(o.StoreCount), ObservedAt: Date(o.ObservedAt)}
}

// Signals returns the market signals of a province's panel for a buyer of
// one banner, in four kinds:
//
//   - threats (need Banner): a competitor now undercuts the banner's
//     current price of the same barcode with a promotion that started
//     since Since (competitor_promotion) or a regular price cut made since
//     Since (competitor_price_cut). Severity by the undercut: high at 10%
//     or more, medium at 5%, else low.
//   - opportunities (need Banner): the banner's current price is at least
//     15% above (priced_above_market) or below (priced_below_market) the
//     median of the other banners' current prices of the same barcode
//     (high at 30%, medium at 20%); a barcode other banners carry in the
//     province that was not observed at the banner in the panel
//     (assortment_gap; high when 3 or more banners carry it, medium 2).
//   - changes (every banner): a regular price that moved by at least 10%
//     since Since (price_increase, price_decrease; high at 25%, medium at
//     15%); a smaller size of the same brand and product line first
//     observed at a banner in the last 90 days whose unit price is at
//     least 1% above the older size's (shrinkflation; high at 10%, medium
//     at 5%); a promotion started since Since whose regular price was not
//     charged at that banner in the 30 days before it, when another price
//     was (unverified_reference_price; high when the claimed regular price
//     is 10% or more above the price charged before); a price observed
//     since Since below every daily median of the 30 days before
//     (lowest_in_30_days; medium when 10% or more below).
//   - watchlist (needs an account in ctx): the current offers in the
//     province of every product named in the account's alert rules for
//     the province (watched_product; medium when on promotion).
//
// A current price is a current offer: observed within 14 days of the data
// set's latest day. Prices compare the same barcode, except shrinkflation,
// which compares unit prices. Signals are ordered by kind (as above),
// severity and magnitude.
//
// It returns EINVALID for a missing or unknown province, an unknown
// banner, a kind not one of the four, a since that is not a date or is
// after the latest day or more than 366 days before it, a limit outside
// 1..500 or a bad offset. Without a banner, threats and opportunities are
// left out and Basis.Note says so; without an account, so is the
// watchlist.
func (s *Service) Signals(ctx context.Context, in SignalsInput) (*SignalsResult, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(strings.TrimSpace(in.Kind))
	if kind != "" && !slices.Contains(signalKinds, kind) {
		return nil, Errorf(EINVALID, "kind %q is not a kind of signal: want one of %s", in.Kind, strings.Join(signalKinds, ", "))
	}
	limit, offset, err := checkPage(in.Limit, in.Offset, DefaultRESTLimit, MaxRESTLimit)
	if err != nil {
		return nil, err
	}
	want := func(k string) bool { return kind == "" || kind == k }
	res := &SignalsResult{Province: a.province, Banner: a.banner.Slug, Category: a.category, Kind: kind,
		Results: []Signal{}, Limit: limit, Offset: offset, Currency: Currency, Basis: newBasis(a.province, CompareSameBarcode)}
	var notes []string
	account := ""
	if want(SignalWatchlist) {
		if account, err = s.accountOf(ctx); err != nil {
			account = ""
			notes = append(notes, "no watchlist: it lists the products of an account's alert rules, and the call carries no account")
		}
	}
	if a.banner.Slug == "" && (want(SignalThreats) || want(SignalOpportunities)) {
		notes = append(notes, "no threats or opportunities: they compare a banner with its competitors; give banner (your own)")
	}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := Date(tx.AsOf())
		since := asOf - 6
		if t := strings.TrimSpace(in.Since); t != "" {
			d, err := ParseDate(t)
			if err != nil {
				return Errorf(EINVALID, "since %q is not a date: want YYYY-MM-DD", in.Since)
			}
			since = d
		}
		if since > asOf {
			return Errorf(EINVALID, "since %s is after the latest observation day %s", since, asOf)
		}
		if int(asOf-since) >= maxAnalyticsDays {
			return Errorf(EINVALID, "since %s is %d days before the latest observation day %s: want at most %d", since, asOf-since, asOf, maxAnalyticsDays-1)
		}
		res.Since, res.To = since, asOf
		sc := signalScan{tx: tx, a: &a, asOf: int32(asOf), since: int32(since), products: map[string]Product{}, banners: map[string]bool{}}
		if err := sc.run(want, account); err != nil {
			return err
		}
		res.Basis.Banners = sortedKeys(sc.banners)
		res.Basis.Observations = sc.obs
		if n, err := tx.CountActiveStores(a.province, ""); err != nil {
			return err
		} else {
			res.Basis.Stores = n
		}
		res.Basis.setDates(int32(since)-SignalLookbackDays, int32(asOf))
		all := sc.out
		slices.SortFunc(all, func(x, y Signal) int {
			return cmp.Or(cmp.Compare(x.order, y.order), cmp.Compare(y.rank, x.rank),
				cmp.Compare(x.Type, y.Type), cmp.Compare(x.Evidence.UPC, y.Evidence.UPC),
				cmp.Compare(x.Evidence.Banner, y.Evidence.Banner), cmp.Compare(x.Evidence.ExternalSKU, y.Evidence.ExternalSKU))
		})
		for _, sg := range all {
			switch sg.Kind {
			case SignalThreats:
				res.Counts.Threats++
			case SignalOpportunities:
				res.Counts.Opportunities++
			case SignalChanges:
				res.Counts.Changes++
			case SignalWatchlist:
				res.Counts.Watchlist++
			}
		}
		res.Total = len(all)
		if offset < len(all) {
			res.Results = append(res.Results, all[offset:min(len(all), offset+limit)]...)
		}
		if a.banner.Slug != "" && !a.banner.OperatesIn(a.province) {
			notes = append(notes, fmt.Sprintf("banner %s does not operate in %s: nothing of it was observed in the panel", a.banner.Slug, a.province))
		}
		if res.Total == 0 {
			notes = append(notes, a.emptyNote("signal", since, asOf))
		}
		notes = append(notes, "current prices are offers observed in the last 14 days; shrinkflation compares unit prices, everything else the same barcode")
		res.Basis.Note = strings.Join(notes, "; ")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// signalScan reads what Signals needs in one transaction.
type signalScan struct {
	tx          *storage.Tx
	a           *analyticsArgs
	asOf, since int32
	products    map[string]Product // by GTIN
	banners     map[string]bool
	obs         int
	offers      map[string][]signalOffer // current offers by GTIN, one per banner (its cheapest SKU)
	gtins       []string
	buf         []signalOffer
	out         []Signal
}

// product reads a barcode's catalogue entry once.
func (sc *signalScan) product(gtin string) (Product, error) {
	if p, ok := sc.products[gtin]; ok {
		return p, nil
	}
	var rec storage.Product
	out := Product{UPC: GTIN(gtin).UPC(), GTIN: gtin}
	if found, err := sc.tx.Product(gtin, &rec); err != nil {
		return out, err
	} else if found {
		out = product(&rec)
	}
	sc.products[gtin] = out
	return out, nil
}

func (sc *signalScan) evidence(gtin string) (SignalEvidence, bool, error) {
	p, err := sc.product(gtin)
	if err != nil || !matchCategory(p.Category, sc.a.category) {
		return SignalEvidence{}, false, err
	}
	return SignalEvidence{UPC: p.UPC, Name: p.Name, Brand: p.Brand, Size: p.Size, Category: p.Category}, true, nil
}

func (sc *signalScan) add(kind, typ, severity string, rank float64, ev SignalEvidence, format string, args ...any) {
	sc.out = append(sc.out, Signal{Kind: kind, Type: typ, Severity: severity, Evidence: ev, rank: rank,
		order:       slices.Index(signalKinds, kind)*4 + severityRank[severity],
		Explanation: fmt.Sprintf(format, args...)})
}

func (sc *signalScan) run(want func(string) bool, account string) error {
	own := sc.a.banner.Slug
	needOffers := own != "" && (want(SignalThreats) || want(SignalOpportunities))
	if needOffers {
		if err := sc.readOffers(); err != nil {
			return err
		}
	}
	var shelves map[string]*storage.Shelf // by banner 0x00 sku, when needed
	if want(SignalChanges) || (own != "" && want(SignalThreats)) {
		shelves = map[string]*storage.Shelf{}
		err := sc.tx.ShelfIn(sc.a.province, "", func(sh *storage.Shelf) error {
			if sh.GTIN == "" || !matchCategory(sh.Category, sc.a.category) {
				return nil
			}
			c := *sh
			shelves[sh.Banner+"\x00"+sh.SKU] = &c
			return nil
		})
		if err != nil {
			return err
		}
	}
	if own != "" && want(SignalThreats) {
		if err := sc.threats(shelves); err != nil {
			return err
		}
	}
	if own != "" && want(SignalOpportunities) {
		if err := sc.opportunities(); err != nil {
			return err
		}
	}
	if want(SignalChanges) {
		if err := sc.changes(shelves); err != nil {
			return err
		}
	}
	if account != "" && want(SignalWatchlist) {
		if err := sc.watchlist(account); err != nil {
			return err
		}
	}
	return nil
}

// readOffers reads the province's current offers, keeping each banner's
// cheapest SKU of each barcode.
func (sc *signalScan) readOffers() error {
	sc.offers = map[string][]signalOffer{}
	current := sc.asOf - freshDays
	return sc.tx.OffersIn(sc.a.province, func(gtin string, o *storage.Offer) error {
		if o.ObservedAt <= current {
			return nil
		}
		list := sc.offers[gtin]
		if len(list) == 0 {
			sc.gtins = append(sc.gtins, gtin)
		}
		for i := range list {
			if list[i].Banner == o.Banner {
				if o.Price < list[i].Price {
					list[i].Offer = *o
				}
				return nil
			}
		}
		sc.offers[gtin] = append(list, signalOffer{*o})
		return nil
	})
}

// ownAndOthers splits a barcode's current offers into the own banner's
// and the others'.
func (sc *signalScan) ownAndOthers(gtin string) (*signalOffer, []signalOffer) {
	var own *signalOffer
	others := sc.buf[:0]
	defer func() { sc.buf = others[:0] }()
	for i, o := range sc.offers[gtin] {
		if o.Banner == sc.a.banner.Slug {
			own = &sc.offers[gtin][i]
		} else {
			others = append(others, o)
		}
	}
	return own, others
}

func (sc *signalScan) use(o *signalOffer) {
	sc.banners[o.Banner] = true
	sc.obs += int(o.StoreCount)
}

func (sc *signalScan) threats(shelves map[string]*storage.Shelf) error {
	// Promotions of the window, by banner SKU.
	started := map[string]storage.Promo{}
	err := sc.tx.PromosIn(sc.a.province, sc.since, sc.asOf, func(p *storage.Promo) error {
		started[p.Banner+"\x00"+p.SKU] = *p
		return nil
	})
	if err != nil {
		return err
	}
	for _, gtin := range sc.gtins {
		own, others := sc.ownAndOthers(gtin)
		if own == nil {
			continue
		}
		for i := range others {
			c := &others[i]
			if c.Price >= own.Price {
				continue
			}
			under := -changePct(own.Price, c.Price) // percent under the own price
			k := c.Banner + "\x00" + c.SKU
			p, promo := started[k]
			promo = promo && c.Price < c.Regular
			sh := shelves[k]
			cut := !promo && sh != nil && sh.RegularSince >= sc.since && sh.PrevRegular > sh.LastRegular && c.Price >= c.Regular
			if !promo && !cut {
				continue
			}
			ev, ok, err := sc.evidence(gtin)
			if err != nil {
				return err
			} else if !ok {
				continue
			}
			sc.use(own)
			sc.use(c)
			ev.Banner, ev.BannerName, ev.ExternalSKU = c.Banner, bannerName(c.Banner), c.SKU
			ev.Price, ev.Regular, ev.OwnPrice, ev.Stores = ptrCents(c.Price), ptrCents(c.Regular), ptrCents(own.Price), int(c.StoreCount)
			ev.ChangePct = ptrF(-under)
			ev.Competitors = []SignalPrice{c.price()}
			sev := severityOf(under, 10, 5)
			if promo {
				ev.Date, ev.End = ptrDate(p.Start), ptrDate(p.End)
				sc.add(SignalThreats, "competitor_promotion", sev, under, ev,
					"%s has %s %s on promotion at %s (regular %s) since %s, %.1f%% under your %s: consider matching or countering in the next flyer",
					bannerName(c.Banner), ev.Brand, ev.Name, Cents(c.Price), Cents(c.Regular), Date(p.Start), under, Cents(own.Price))
			} else {
				ev.Date, ev.Previous = ptrDate(sh.RegularSince), ptrCents(sh.PrevRegular)
				sc.add(SignalThreats, "competitor_price_cut", sev, under, ev,
					"%s cut the regular price of %s %s from %s to %s on %s, %.1f%% under your %s: review your shelf price",
					bannerName(c.Banner), ev.Brand, ev.Name, Cents(sh.PrevRegular), Cents(c.Price), Date(sh.RegularSince), under, Cents(own.Price))
			}
		}
	}
	return nil
}

// median returns the median current price of offers.
func (sc *signalScan) median(offers []signalOffer) uint32 {
	var buf [16]uint32
	prices := buf[:0]
	for i := range offers {
		prices = append(prices, offers[i].Price)
	}
	return median(prices)
}

func (sc *signalScan) opportunities() error {
	for _, gtin := range sc.gtins {
		own, others := sc.ownAndOthers(gtin)
		if len(others) == 0 || (own != nil && len(others) > 0 && math.Abs(changePct(sc.median(others), own.Price)) < SignalMarketGapPct) {
			continue
		}
		ev, ok, err := sc.evidence(gtin)
		if err != nil {
			return err
		} else if !ok {
			continue
		}
		ev.Competitors = make([]SignalPrice, len(others))
		prices := make([]uint32, len(others))
		for i := range others {
			ev.Competitors[i], prices[i] = others[i].price(), others[i].Price
		}
		if own == nil {
			if !sc.a.banner.OperatesIn(sc.a.province) {
				continue
			}
			for i := range others {
				sc.use(&others[i])
				ev.Banners = append(ev.Banners, others[i].Banner)
			}
			ev.MarketPrice = ptrCents(median(prices))
			n := len(others)
			sc.add(SignalOpportunities, "assortment_gap", severityOf(float64(n), 3, 2), float64(n), ev,
				"%s %s (%s) is carried by %d other banner(s) in %s at a median %s and was not observed at %s in the panel: consider listing it",
				ev.Brand, ev.Name, ev.UPC, n, sc.a.province, *ev.MarketPrice, bannerName(sc.a.banner.Slug))
			continue
		}
		med := median(prices)
		gap := changePct(med, own.Price)
		if math.Abs(gap) < SignalMarketGapPct {
			continue
		}
		sc.use(own)
		for i := range others {
			sc.use(&others[i])
		}
		ev.Banner, ev.BannerName, ev.ExternalSKU = own.Banner, bannerName(own.Banner), own.SKU
		ev.OwnPrice, ev.Price, ev.Regular, ev.MarketPrice, ev.ChangePct = ptrCents(own.Price), ptrCents(own.Price), ptrCents(own.Regular), ptrCents(med), ptrF(gap)
		sev := severityOf(math.Abs(gap), 30, 20)
		if gap > 0 {
			sc.add(SignalOpportunities, "priced_above_market", sev, gap, ev,
				"your %s for %s %s is %.1f%% above the market median %s of %d other banner(s): a price cut would bring it in line",
				Cents(own.Price), ev.Brand, ev.Name, gap, Cents(med), len(others))
		} else {
			sc.add(SignalOpportunities, "priced_below_market", sev, -gap, ev,
				"your %s for %s %s is %.1f%% below the market median %s of %d other banner(s): there is room to raise it",
				Cents(own.Price), ev.Brand, ev.Name, -gap, Cents(med), len(others))
		}
	}
	return nil
}

func (sc *signalScan) changes(shelves map[string]*storage.Shelf) error {
	current := sc.asOf - freshDays
	keys := make([]string, 0, len(shelves))
	for k := range shelves {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		sh := shelves[k]
		if sh.Last <= current {
			continue
		}
		if sh.RegularSince >= sc.since && sh.PrevRegular > 0 {
			ch := changePct(sh.PrevRegular, sh.LastRegular)
			if math.Abs(ch) >= SignalMovePct {
				ev, ok, err := sc.evidence(sh.GTIN)
				if err != nil {
					return err
				}
				if ok {
					sc.banners[sh.Banner] = true
					sc.obs += int(sh.FirstStores)
					ev.Banner, ev.BannerName, ev.ExternalSKU = sh.Banner, bannerName(sh.Banner), sh.SKU
					ev.Regular, ev.Previous, ev.Price, ev.ChangePct, ev.Date = ptrCents(sh.LastRegular), ptrCents(sh.PrevRegular), ptrCents(sh.LastPrice), ptrF(ch), ptrDate(sh.RegularSince)
					typ, verb := "price_increase", "raised"
					if ch < 0 {
						typ, verb = "price_decrease", "cut"
					}
					sc.add(SignalChanges, typ, severityOf(math.Abs(ch), 25, 15), math.Abs(ch), ev,
						"%s %s the regular price of %s %s by %.1f%%, from %s to %s, on %s",
						bannerName(sh.Banner), verb, ev.Brand, ev.Name, math.Abs(ch), Cents(sh.PrevRegular), Cents(sh.LastRegular), Date(sh.RegularSince))
				}
			}
		}
		if sh.Last >= sc.since && sh.Min30 > 0 && sh.LastPrice < sh.Min30 {
			ev, ok, err := sc.evidence(sh.GTIN)
			if err != nil {
				return err
			}
			if ok {
				below := -changePct(sh.Min30, sh.LastPrice)
				sc.banners[sh.Banner] = true
				ev.Banner, ev.BannerName, ev.ExternalSKU = sh.Banner, bannerName(sh.Banner), sh.SKU
				ev.Price, ev.Previous, ev.ChangePct, ev.Date = ptrCents(sh.LastPrice), ptrCents(sh.Min30), ptrF(-below), ptrDate(sh.Last)
				sc.add(SignalChanges, "lowest_in_30_days", severityOf(below, math.Inf(1), 10), below, ev,
					"%s %s at %s is at %s on %s, %.1f%% under its lowest daily price of the 30 days before (%s)",
					ev.Brand, ev.Name, bannerName(sh.Banner), Cents(sh.LastPrice), Date(sh.Last), below, Cents(sh.Min30))
			}
		}
	}
	if err := sc.honesty(); err != nil {
		return err
	}
	return sc.shrinkflation(shelves, keys)
}

func (sc *signalScan) honesty() error {
	pc := productCache{tx: sc.tx, m: map[string]Product{}}
	return sc.tx.PromosIn(sc.a.province, sc.since, sc.asOf, func(p *storage.Promo) error {
		if p.Charged != 0 || p.Before == 0 || p.Regular == 0 {
			return nil
		}
		prod, err := pc.get(p.Banner, p.SKU)
		if err != nil {
			return err
		}
		if prod.GTIN == "" || !matchCategory(prod.Category, sc.a.category) {
			return nil
		}
		sc.banners[p.Banner] = true
		sc.obs += int(p.Days)
		over := changePct(p.Before, p.Regular)
		ev := SignalEvidence{UPC: prod.UPC, Name: prod.Name, Brand: prod.Brand, Size: prod.Size, Category: prod.Category,
			Banner: p.Banner, BannerName: bannerName(p.Banner), ExternalSKU: p.SKU, Price: ptrCents(p.Price), Regular: ptrCents(p.Regular),
			Previous: ptrCents(p.Before), ChangePct: ptrF(over), Date: ptrDate(p.Start), End: ptrDate(p.End), Stores: int(p.Stores)}
		sev := SeverityMedium
		if over >= 10 {
			sev = SeverityHigh
		}
		sc.add(SignalChanges, "unverified_reference_price", sev, math.Abs(over), ev,
			"%s promotes %s %s at %s against a regular %s from %s, but its reference stores did not charge %s in the 30 days before; they charged %s",
			bannerName(p.Banner), prod.Brand, prod.Name, Cents(p.Price), Cents(p.Regular), Date(p.Start), Cents(p.Regular), Cents(p.Before))
		return nil
	})
}

// shrinkflation compares, per banner, each product first observed there in
// the last SignalShrinkDays with the larger sizes of its brand and line.
func (sc *signalScan) shrinkflation(shelves map[string]*storage.Shelf, keys []string) error {
	current := sc.asOf - freshDays
	recent := sc.asOf - SignalShrinkDays + 1
	type item struct {
		sh   *storage.Shelf
		p    Product
		qty  float64
		unit string
	}
	var fresh []item
	for _, k := range keys {
		sh := shelves[k]
		if sh.First >= recent && sh.Last > current {
			fresh = append(fresh, item{sh: sh})
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	lineOf := map[string]string{}
	line := func(p Product) string {
		l, ok := lineOf[p.GTIN]
		if !ok {
			l = foldKey(p.Brand) + "\x00" + foldKey(p.Name)
			lineOf[p.GTIN] = l
		}
		return l
	}
	// The lines of the recent products, then every product of them by banner.
	lines := map[string]bool{}
	for i := range fresh {
		p, err := sc.product(fresh[i].sh.GTIN)
		if err != nil {
			return err
		}
		fresh[i].p = p
		fresh[i].qty, fresh[i].unit = unitOf(p.Size)
		if fresh[i].qty > 0 && p.Brand != "" {
			lines[line(p)] = true
		}
	}
	byLine := map[string][]item{} // banner 0x00 line -> older products
	for _, k := range keys {
		sh := shelves[k]
		if sh.First >= recent {
			continue
		}
		p, err := sc.product(sh.GTIN)
		if err != nil {
			return err
		}
		if !lines[line(p)] {
			continue
		}
		q, u := unitOf(p.Size)
		if q > 0 {
			byLine[sh.Banner+"\x00"+line(p)] = append(byLine[sh.Banner+"\x00"+line(p)], item{sh: sh, p: p, qty: q, unit: u})
		}
	}
	for _, f := range fresh {
		if f.qty <= 0 || f.p.Brand == "" {
			continue
		}
		newUnit := float64(f.sh.LastPrice) / f.qty
		var best *item
		bestUp := 0.0
		olds := byLine[f.sh.Banner+"\x00"+line(f.p)]
		for i := range olds {
			o := &olds[i]
			if o.unit != f.unit || o.qty <= f.qty || o.p.GTIN == f.p.GTIN {
				continue
			}
			oldUnit := float64(o.sh.LastPrice) / o.qty
			up := pct((newUnit - oldUnit) * 100 / oldUnit)
			if up >= SignalShrinkPct && up > bestUp {
				best, bestUp = o, up
			}
		}
		if best == nil {
			continue
		}
		sc.banners[f.sh.Banner] = true
		oldUnit := float64(best.sh.LastPrice) / best.qty
		ev := SignalEvidence{UPC: f.p.UPC, Name: f.p.Name, Brand: f.p.Brand, Size: f.p.Size, Category: f.p.Category,
			Banner: f.sh.Banner, BannerName: bannerName(f.sh.Banner), ExternalSKU: f.sh.SKU, Price: ptrCents(f.sh.LastPrice),
			Previous: ptrCents(best.sh.LastPrice), ChangePct: ptrF(bestUp), Date: ptrDate(f.sh.First),
			UnitPrice: ptrF(math.Round(newUnit*100) / 100), PreviousUnitPrice: ptrF(math.Round(oldUnit*100) / 100), UnitBasis: f.unit,
			PreviousUPC: best.p.UPC, PreviousSize: best.p.Size}
		sc.add(SignalChanges, "shrinkflation", severityOf(bestUp, 10, 5), bestUp, ev,
			"%s %s at %s shrank from %s to %s (first observed %s) while its unit price rose %.1f%%, from %.2f to %.2f cents %s",
			f.p.Brand, f.p.Name, bannerName(f.sh.Banner), best.p.Size, f.p.Size, Date(f.sh.First), bestUp, oldUnit, newUnit, f.unit)
	}
	return nil
}

func (sc *signalScan) watchlist(account string) error {
	current := sc.asOf - freshDays
	return sc.tx.AlertRules(account, func(r *storage.AlertRule) error {
		if r.Province != sc.a.province {
			return nil
		}
		gtin, banner := r.GTIN, r.Banner
		if gtin == "" {
			var rec storage.SKU
			if found, err := sc.tx.SKU(r.Banner, r.SKU, &rec); err != nil {
				return err
			} else if !found || rec.GTIN == "" {
				return nil
			}
			gtin = rec.GTIN
		}
		ev, ok, err := sc.evidence(gtin)
		if err != nil || !ok {
			return err
		}
		ev.Rule = ruleIDPrefix + strconv.FormatUint(r.ID, 10)
		var cheapest *SignalPrice
		promo := false
		err = sc.tx.Offers(sc.a.province, gtin, func(o *storage.Offer) error {
			if o.ObservedAt <= current || (banner != "" && o.Banner != banner) || (r.SKU != "" && o.SKU != r.SKU) {
				return nil
			}
			so := signalOffer{*o}
			sc.use(&so)
			p := so.price()
			ev.Competitors = append(ev.Competitors, p)
			promo = promo || p.OnPromo
			if cheapest == nil || p.Price < cheapest.Price {
				cheapest = &ev.Competitors[len(ev.Competitors)-1]
			}
			return nil
		})
		if err != nil {
			return err
		}
		if cheapest == nil {
			sc.add(SignalWatchlist, "watched_product", SeverityLow, 0, ev,
				"%s %s (rule %s) was not observed in the %s panel in the last 14 days", ev.Brand, ev.Name, ev.Rule, sc.a.province)
			return nil
		}
		c := *cheapest
		ev.Banner, ev.BannerName, ev.ExternalSKU, ev.Price, ev.Regular = c.Banner, c.BannerName, c.ExternalSKU, ptrCents(uint32(c.Price)), ptrCents(uint32(c.Regular))
		sev, state := SeverityLow, "at its regular price"
		if promo {
			sev, state = SeverityMedium, "on promotion at at least one banner"
		}
		sc.add(SignalWatchlist, "watched_product", sev, 0, ev,
			"%s %s (rule %s) is %s now: cheapest %s at %s of %d banner(s) observed in %s",
			ev.Brand, ev.Name, ev.Rule, state, c.Price, c.BannerName, len(ev.Competitors), sc.a.province)
		return nil
	})
}
