package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/threat"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/grocerydata/grocery/storage"
)

// Signals: what a buyer of one banner should look at in a province now,
// in four kinds, each signal explained in one line generated from its
// numbers. They read the import's aggregates (the offers with each banner
// SKU's daily price on its latest day, shelf records, the daily prices of
// the 30 days before Since and after, promotion events;
// grocery/internal/ingest), never whole histories: a competitor's
// promotion reads its latest day and event to tell whether it is in
// force. Every figure and threshold
// is defined in the OpenAPI document (restserver/openapi.json, schema
// Signal and the /b2b/signals operation); the market positions use the
// one comparison between banners of compare.go.

// The kinds of signal, in the order Signals lists them.
const (
	SignalThreats       = "threats"
	SignalOpportunities = "opportunities"
	SignalChanges       = "changes"
	SignalWatchlist     = "watchlist"
)

var signalKinds = []string{SignalThreats, SignalOpportunities, SignalChanges, SignalWatchlist}

// The thresholds of Signals. They are part of the meaning of a signal:
// the OpenAPI document and grocery/README.md repeat them.
const (
	// SignalMovePct is a significant move: a regular price that changed
	// by at least 10% (changes: price_increase, price_decrease).
	SignalMovePct = 10
	// SignalMarketGapPct is "well above" or "well below" the market: the
	// banner's current regular price at least 15% above or below the
	// median of the other banners' current regular prices of the same
	// barcode, on the exact ratio (opportunities: priced_above_market,
	// priced_below_market).
	SignalMarketGapPct = 15
	// SignalAssortmentDays is the assortment lookback: a banner "priced"
	// a barcode when one of its SKUs of it had a daily price in the
	// province in the last 90 days (asOf-89 to asOf). A barcode it did not
	// is an assortment_gap, one it did but has no current price of is
	// delisted.
	SignalAssortmentDays = 90
	// SignalGapMinBanners is how many other banners must price a barcode
	// now for its absence at the banner to be an assortment_gap.
	SignalGapMinBanners = 3
	// SignalShrinkDays is how recent the smaller size must be: first
	// observed at the banner in the province within the last 90 days.
	SignalShrinkDays = 90
	// SignalShrinkPct is the least unit-price increase that counts as
	// shrinkflation: 1%.
	SignalShrinkPct = 1
	// SignalLookbackDays is the promotion-honesty and 30-day-low window,
	// and how far before Since a regular move looks for the price it
	// moved from.
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
	Province string   `json:"province"`           // required
	Banner   string   `json:"banner,omitempty"`   // the caller's own banner; needed for threats and opportunities
	Category string   `json:"category,omitempty"` // optional: one category (exact, case-insensitive)
	Kind     string   `json:"kind,omitempty"`     // optional: list only threats, opportunities, changes or watchlist (Counts count every kind)
	Since    string   `json:"since,omitempty"`    // YYYY-MM-DD; default 6 days before the latest day (7 days)
	Limit    Opt[int] `json:"limit,omitzero"`     // 1..500; 50 when not given
	Offset   int      `json:"offset,omitempty"`
}

// SignalPrice is one banner's current price of a product in the evidence
// of a signal: its daily prices (the median of its reference stores'
// prices and regular prices) on its latest observation day, rounded to
// the cent; a banner with two SKUs of the barcode shows the lowest of
// each.
type SignalPrice struct {
	Banner      string `json:"banner"`
	BannerName  string `json:"banner_name"`
	ExternalSKU string `json:"external_sku"`
	Price       Cents  `json:"price"`
	Regular     Cents  `json:"regular_price"`
	OnPromo     bool   `json:"on_promo"`
	Stores      int    `json:"store_count"`
	ObservedAt  Date   `json:"observed_at"`
	// For a competitor behind a threat, its move: Move is "promotion" (a
	// promotion in force, from its regular price to its promotional price)
	// or "regular_cut" (its regular price now under its regular price
	// before Since); Previous its price before the move; MovePct the move,
	// (now / previous - 1) × 100; GapPct and PreviousGapPct where its
	// price stands against yours after and before the move, (price / yours
	// - 1) × 100, yours being your shelf price for a promotion and your
	// regular price for a regular cut; Severity what the move alone
	// weighs; Date the promotion's start or the first day at the cut
	// price.
	Move           string   `json:"move,omitempty"`
	Previous       *Cents   `json:"previous_price,omitempty"`
	MovePct        *float64 `json:"move_pct,omitempty"`
	GapPct         *float64 `json:"gap_pct,omitempty"`
	PreviousGapPct *float64 `json:"previous_gap_pct,omitempty"`
	Severity       string   `json:"severity,omitempty"`
	Date           *Date    `json:"date,omitempty"`
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
	OwnPrice    *Cents   `json:"own_price,omitempty"` // the caller's banner's current shelf price
	OwnRegular  *Cents   `json:"own_regular_price,omitempty"`
	MarketPrice *Cents   `json:"market_median,omitempty"` // median of the other banners' current prices
	// MarketRegular is the median of the other banners' current regular
	// prices: what priced_above_market and priced_below_market compare.
	MarketRegular *Cents `json:"market_regular_median,omitempty"`
	Date          *Date  `json:"date,omitempty"` // when it happened: change, promotion start, first seen, last priced
	End           *Date  `json:"end,omitempty"`  // promotion's last day observed
	Stores        int    `json:"store_count,omitempty"`
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

// SignalCounts counts the signals of each kind, whatever kind the call
// lists, before paging.
type SignalCounts struct {
	Threats       int `json:"threats"`
	Opportunities int `json:"opportunities"`
	Changes       int `json:"changes"`
	Watchlist     int `json:"watchlist"`
}

// SignalsResult is the answer of Signals: one page of signals.
type SignalsResult struct {
	Province     string       `json:"province"`
	Banner       string       `json:"banner,omitempty"`
	Category     string       `json:"category,omitempty"`
	Kind         string       `json:"kind,omitempty"`
	Since        Date         `json:"since"`
	To           Date         `json:"to"`
	Counts       SignalCounts `json:"counts"`
	Page[Signal]              // by kind, severity, magnitude; Total: the signals listed (of Kind when given), before paging
	Currency     string       `json:"currency"`
	Basis        Basis        `json:"basis"`
}

func ptrCents(c uint32) *Cents { v := Cents(c); return &v }
func ptrDate(d int32) *Date    { v := Date(d); return &v }
func ptrF(f float64) *float64  { return &f }

// ptrHalf returns a price in half-cents (a daily price) as written: to
// the cent, halves up.
func ptrHalf(h uint32) *Cents { return ptrCents(pricestat.HalfCents(h)) }

// ptrExact returns an exact amount of cents (a median of daily prices,
// which may be a quarter cent) as written: to the cent.
func ptrExact(c float64) *Cents { v := Cents(pricestat.Cents(c)); return &v }

// severityAbove grades how far b is above a: high at high percent or
// more, medium at medium, else low.
func severityAbove(a, b, high, medium float64) string {
	switch {
	case pricestat.AtLeastAbove(a, b, high):
		return SeverityHigh
	case pricestat.AtLeastAbove(a, b, medium):
		return SeverityMedium
	}
	return SeverityLow
}

// severityBelow grades how far b is below a, like severityAbove.
func severityBelow(a, b, high, medium float64) string {
	switch {
	case pricestat.AtLeastBelow(a, b, high):
		return SeverityHigh
	case pricestat.AtLeastBelow(a, b, medium):
		return SeverityMedium
	}
	return SeverityLow
}

// severityCount grades a count: high at high or more, medium at medium.
func severityCount(n, high, medium int) string {
	switch {
	case n >= high:
		return SeverityHigh
	case n >= medium:
		return SeverityMedium
	}
	return SeverityLow
}

// bannerOfferPrice is a banner's current price of a barcode in the
// evidence of a signal.
func bannerOfferPrice(o *market.BannerOffer) SignalPrice {
	return SignalPrice{Banner: o.Banner, BannerName: bannerName(o.Banner), ExternalSKU: o.SKU, Price: *ptrHalf(o.P),
		Regular: *ptrHalf(o.R), OnPromo: o.OnPromo(), Stores: int(o.Stores), ObservedAt: Date(o.Observed)}
}

// offerPrice is an offer's price in force in the evidence of a signal.
func offerPrice(o *storage.Offer) SignalPrice {
	return SignalPrice{Banner: o.Banner, BannerName: bannerName(o.Banner), ExternalSKU: o.SKU, Price: Cents(o.Price),
		Regular: Cents(o.Regular), OnPromo: o.Price < o.Regular, Stores: int(o.StoreCount), ObservedAt: Date(o.ObservedAt)}
}

// Signals returns the market signals of a province's panel for a buyer of
// one banner, in four kinds:
//
//   - threats (need Banner), one per barcode, naming every competitor
//     behind it: a competitor whose promotion is in force on the latest
//     day (its offer's price in force under its regular price) under the
//     banner's current shelf price, or
//     whose regular price, cut since Since (the whole move), is under the
//     banner's current regular price. Each move has a severity: high when
//     it is 10% or more and takes the competitor from at or above the
//     banner's price to 5% or more under it, medium when it is 5% or more,
//     else low; the threat takes the most severe, its type
//     (competitor_promotion, competitor_price_cut) and figures from the
//     leading move (the most severe, then the furthest under).
//   - opportunities (need Banner): the banner's current regular price at
//     least 15% above (priced_above_market) or below (priced_below_market)
//     the median of the other banners' current regular prices of the same
//     barcode, at least 2 other banners (high at 30%, medium at 20%); a
//     barcode at least 3 other banners price now that the banner did not
//     price in the last 90 days (assortment_gap; high at 6 other banners,
//     medium at 4); a barcode the banner priced in the last 90 days but has
//     no current price of (delisted; high when 3 or more other banners
//     price it now, medium 1 or 2, low none).
//   - changes (every banner): a regular price that moved by at least 10%
//     since Since, the whole move: the SKU's daily regular price on its
//     latest day against that on its latest day before Since, in the 30
//     days before it (price_increase, price_decrease; high at 25%, medium
//     at 15%); a smaller size of the same brand, product line and product type first
//     observed at a banner in the last 90 days whose regular unit price
//     is at least 1% above the older size's, the older size still observed
//     in the last 14 days (shrinkflation; high at 10%, medium at 5%); a
//     promotion started since Since whose regular price was not charged at
//     that banner in the 30 days before it, when a lower price was
//     (unverified_reference_price; high when the claimed regular price is
//     10% or more above the price charged before); a day from Since on
//     which a SKU's daily price was under every daily price of the 30 days
//     before it, the lowest such day (lowest_in_30_days; medium when 10%
//     or more below).
//   - watchlist (needs an account in ctx): the current prices in the
//     province of every product named in the account's alert rules for
//     the province (watched_product; medium when on promotion).
//
// A banner's current price of a barcode is its SKU's daily price (the
// median of its reference stores' prices that day) on its latest day,
// when that day is within 14 days of the data set's latest day; with two
// SKUs, the lowest. Thresholds compare exact ratios; percents are rounded
// to 0.1 when written. Restricted-circulation barcodes are never compared
// across banners. Signals are ordered by kind (as above), severity,
// magnitude (largest first), then type, barcode, banner and SKU. Kind
// lists one kind only; Counts count every kind whatever Kind lists. The
// OpenAPI document (restserver/openapi.json) defines every figure.
//
// It returns EINVALIDARGUMENT for a missing or unknown province, an unknown
// banner, a kind not one of the four, a since that is not a date or is
// after the latest day or more than 366 days before it, a limit outside
// 1..500 or a bad offset. Without a banner, threats and opportunities are
// left out and Basis.Note says so; without an account (or with one that
// does not exist), so is the watchlist. It returns EUNAVAILABLE when the
// watchlist is asked for with an account, the keys or rules are in the shared store,
// and it does not answer.
func (s *Service) Signals(ctx context.Context, in SignalsInput) (*SignalsResult, error) {
	a, err := parseAnalyticsArgs(in.Province, in.Banner, in.Category)
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(strings.TrimSpace(in.Kind))
	if kind != "" && !slices.Contains(signalKinds, kind) {
		return nil, Errorf(EINVALIDARGUMENT, "kind %q is not a kind of signal: want one of %s", in.Kind, strings.Join(signalKinds, ", "))
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	res := &SignalsResult{Province: a.province, Banner: a.banner.Slug, Category: a.category, Kind: kind,
		Page: newPage[Signal](limit, offset), Currency: Currency, Basis: newBasis(a.province, CompareSameBarcode)}
	// Every kind is found and counted; kind only filters the list. The
	// account's rules are read before the data file's transaction: they
	// may be in the shared store.
	w, err := s.watchlistRules(ctx, a.province)
	if err != nil {
		return nil, err
	}
	notes := w.notes
	if a.banner.Slug == "" {
		notes = append(notes, "no threats or opportunities: they compare a banner with its competitors; give banner (your own)")
	}
	err = s.db.View(func(tx *storage.Tx) error {
		asOf := Date(tx.AsOf())
		since, err := parseSince(in.Since, asOf)
		if err != nil {
			return err
		}
		res.Since, res.To = since, asOf
		bufs, _ := s.signalBufs.Get().(*signalBufs)
		if bufs == nil {
			bufs = &signalBufs{products: map[string]Product{}, banners: map[string]bool{}, moves: map[moveKey]regularMove{}}
		}
		defer s.signalBufs.Put(bufs)
		defer bufs.reset()
		sc := signalScan{tx: tx, a: &a, asOf: int32(asOf), since: int32(since), signalBufs: bufs}
		if err := sc.run(w.account, w.rules, w.ids); err != nil {
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
		if err := sc.page(res); err != nil {
			return err
		}
		if a.banner.Slug != "" && !a.banner.OperatesIn(a.province) {
			notes = append(notes, fmt.Sprintf("banner %s does not operate in %s: nothing of it was observed in the panel", a.banner.Slug, a.province))
		}
		if res.Total == 0 {
			notes = append(notes, a.emptyNote("signal", since, asOf))
		}
		notes = append(notes, "current prices are each banner SKU's price in force on the latest day (the most common of its stores' prices of the last 14 days, a promotion past its end at its regular price); changes follow the daily prices (each day's price in force, over every store whose price is in force); market positions compare regular prices with the median of the other banners' regular prices; shrinkflation compares unit prices, everything else the same barcode")
		res.Basis.Note = strings.Join(notes, "; ")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// watchlist is whose watchlist Signals lists: the account of the call and
// its rules in the province, or no account and the notes that say why.
type watchlist struct {
	account string
	rules   []storage.AlertRule
	ids     alertstore.IDs
	notes   []string
}

// watchlistRules returns the watchlist of the call in ctx in province.
// A call without an account, or of one that does not exist, has none
// (a note says why); a shared store that does not answer is an error.
func (s *Service) watchlistRules(ctx context.Context, province string) (watchlist, error) {
	var w watchlist
	account, err := s.accountOf(ctx)
	if err != nil {
		if c := ErrorCode(err); c != ENOTFOUND && c != EUNAUTHENTICATED {
			return w, err // the shared store does not answer: not "no account"
		}
		if p := PrincipalFromContext(ctx); ErrorCode(err) == ENOTFOUND && p != nil {
			w.notes = append(w.notes, fmt.Sprintf("no watchlist: account %q does not exist", p.Account))
		} else {
			w.notes = append(w.notes, "no watchlist: it lists the products of an account's alert rules, and the call carries no account")
		}
		return w, nil
	}
	if account == "" {
		return w, nil
	}
	w.account = account
	err = s.alerts.rules(ctx, account, func(r *storage.AlertRule) error {
		if r.Province == province {
			w.rules = append(w.rules, *r)
		}
		return nil
	})
	if err == nil && len(w.rules) > 0 {
		w.ids, err = s.alerts.ids(ctx)
	}
	return w, err
}

// parseSince returns Signals' since: the date given, or 6 days before
// asOf; EINVALIDARGUMENT for one that is not a date, after asOf or more
// than a year before it.
func parseSince(text string, asOf Date) (Date, error) {
	since := asOf - 6
	if t := strings.TrimSpace(text); t != "" {
		d, err := ParseDate(t)
		if err != nil {
			return 0, Errorf(EINVALIDARGUMENT, "since %q is not a date: want YYYY-MM-DD", text)
		}
		since = d
	}
	if since > asOf {
		return 0, Errorf(EINVALIDARGUMENT, "since %s is after the latest observation day %s", since, asOf)
	}
	if int(asOf-since) >= maxAnalyticsDays {
		return 0, Errorf(EINVALIDARGUMENT, "since %s is %d days before the latest observation day %s: want at most %d", since, asOf-since, asOf, maxAnalyticsDays-1)
	}
	return since, nil
}

// page counts the signals found by kind into res.Counts, and sets
// res.Total and res.Results to those of res.Kind (every kind when ""),
// ordered, the page of res.Limit and res.Offset built in full.
func (sc *signalScan) page(res *SignalsResult) error {
	all := sc.out
	order := sc.order[:0]
	for i := range all {
		switch all[i].kind {
		case SignalThreats:
			res.Counts.Threats++
		case SignalOpportunities:
			res.Counts.Opportunities++
		case SignalChanges:
			res.Counts.Changes++
		case SignalWatchlist:
			res.Counts.Watchlist++
		}
		if res.Kind == "" || all[i].kind == res.Kind {
			order = append(order, int32(i))
		}
	}
	sc.order = order
	slices.SortFunc(order, func(i, j int32) int { return compareSigRecs(&all[i], &all[j]) })
	res.Total = len(order)
	for _, i := range order[min(res.Offset, len(order)):min(len(order), res.Offset+res.Limit)] {
		sg, err := all[i].signal()
		if err != nil {
			return err
		}
		res.Results = append(res.Results, sg)
	}
	return nil
}

// signalScan reads what Signals needs in one transaction. It finds the
// signals as sigRecs, light records that order and count them; the
// evidence and explanation are built only for the page returned.
type signalScan struct {
	tx          *storage.Tx
	a           *analyticsArgs
	asOf, since int32
	obs         int
	*signalBufs
}

// signalBufs are the slices of a signalScan, kept from one call to the
// next (Service.signalBufs) so that a call does not grow them again.
type signalBufs struct {
	products  map[string]Product      // by GTIN
	banners   map[string]bool         // of the signals, for Basis
	offers    market.Offers           // the province's offers per barcode and banner
	shelves   market.Shelves          // the province's shelf records with a barcode (of the category)
	position  market.Scratch          // market.Position's
	skus      []pricestat.SKUSince    // a category and banner's SKUs' days (dailyScan)
	moves     map[moveKey]regularMove // the regular price cuts since since, by banner SKU, when a banner is asked for (its threats read them)
	out       []sigRec
	order     []int32             // indexes of out, sorted
	storeMove pricestat.StoreMove // regularMoved's
	shrink    shrinkBufs
}

// reset empties the buffers, letting go of what they point to.
func (b *signalBufs) reset() {
	clear(b.products)
	clear(b.banners)
	clear(b.moves)
	clear(b.skus[:cap(b.skus)]) // a scan stopped by an error leaves a group's days behind
	b.skus = b.skus[:0]
	b.offers.Reset()
	b.shelves.Reset()
	clear(b.out)
	b.position.Reset()
	b.out, b.order = b.out[:0], b.order[:0]
}

// sigRec is a signal found but not yet built: what orders and counts it,
// and a function that fills in its evidence and explanation.
type sigRec struct {
	kind, typ, severity string
	order               int
	rank                float64
	upc, banner, sku    string // Evidence.UPC, .Banner and .ExternalSKU, the last keys of the order
	build               func(sg *Signal) error
}

// compareSigRecs orders signals by kind and severity (order), then
// magnitude (largest first, exact), type, barcode, banner and SKU.
func compareSigRecs(x, y *sigRec) int {
	if x.order != y.order {
		return cmp.Compare(x.order, y.order)
	}
	if x.rank != y.rank {
		return cmp.Compare(y.rank, x.rank)
	}
	if c := strings.Compare(x.typ, y.typ); c != 0 {
		return c
	}
	if c := strings.Compare(x.upc, y.upc); c != 0 {
		return c
	}
	if c := strings.Compare(x.banner, y.banner); c != 0 {
		return c
	}
	return strings.Compare(x.sku, y.sku)
}

// signal builds the signal of r.
func (r *sigRec) signal() (Signal, error) {
	sg := Signal{Kind: r.kind, Type: r.typ, Severity: r.severity, rank: r.rank, order: r.order}
	err := r.build(&sg)
	return sg, err
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
		out = product(&rec, LangEnglish)
	}
	sc.products[gtin] = out
	return out, nil
}

// match reports whether a barcode is of the category asked for (any
// barcode when none was).
func (sc *signalScan) match(gtin string) (bool, error) {
	if sc.a.category == "" {
		return true, nil
	}
	p, err := sc.product(gtin)
	return err == nil && matchCategory(p.Category, sc.a.category), err
}

// evidence starts the evidence of a signal about a barcode that matched.
func (sc *signalScan) evidence(gtin string) (SignalEvidence, error) {
	p, err := sc.product(gtin)
	return SignalEvidence{UPC: p.UPC, Name: p.Name, Brand: p.Brand, Size: p.Size, Category: p.Category}, err
}

func kindOrder(kind string) int {
	switch kind {
	case SignalThreats:
		return 0
	case SignalOpportunities:
		return 1
	case SignalChanges:
		return 2
	}
	return 3
}

func severityOrder(severity string) int {
	switch severity {
	case SeverityHigh:
		return 0
	case SeverityMedium:
		return 1
	}
	return 2
}

// add records a signal; upc, banner and sku are those its evidence will
// carry.
func (sc *signalScan) add(kind, typ, severity string, rank float64, upc, banner, sku string, build func(sg *Signal) error) {
	sc.out = append(sc.out, sigRec{kind: kind, typ: typ, severity: severity, rank: rank,
		order: kindOrder(kind)*4 + severityOrder(severity), upc: upc, banner: banner, sku: sku, build: build})
}

// run finds the signals of every kind: threats and opportunities when
// there is an own banner, the watchlist when there is an account.
func (sc *signalScan) run(account string, rules []storage.AlertRule, ruleIDs alertstore.IDs) error {
	own := sc.a.banner.Slug
	if own != "" {
		if err := sc.readOffers(); err != nil {
			return err
		}
	}
	err := sc.shelves.Read(sc.tx, sc.a.province, func(sh *storage.Shelf) bool {
		return sh.GTIN != "" && matchCategory(sh.Category, sc.a.category)
	})
	if err != nil {
		return err
	}
	if err := sc.dailyScan(); err != nil {
		return err
	}
	if own != "" {
		if err := sc.threats(); err != nil {
			return err
		}
		if err := sc.opportunities(); err != nil {
			return err
		}
	}
	if err := sc.changes(); err != nil {
		return err
	}
	if account != "" {
		if err := sc.watchlist(rules, ruleIDs); err != nil {
			return err
		}
	}
	return nil
}

// readOffers reads the province's offers: per barcode, each banner's
// current prices and, for the own banner, the latest day it priced the
// barcode (market.Offers.Read). Restricted-circulation barcodes are left
// out: they are never compared across banners.
func (sc *signalScan) readOffers() error {
	return sc.offers.Read(sc.tx, sc.a.province, sc.a.banner.Slug, sc.asOf-freshDays, func(gtin string) bool { return GTIN(gtin).Restricted() })
}

// ownAndOthers splits a barcode's banners (sc.offers.Groups[g]) into the
// own banner's and the others with a current price
// (market.Offers.OwnAndOthers).
func (sc *signalScan) ownAndOthers(g int) (*market.BannerOffer, []market.BannerOffer) {
	return sc.offers.OwnAndOthers(g, sc.a.banner.Slug)
}

func (sc *signalScan) use(o *market.BannerOffer) {
	sc.banners[o.Banner] = true
	sc.obs += int(o.Stores)
}

// threats finds, for each barcode the own banner prices now, the
// competitors whose move puts them under it: a promotion in force on the
// latest day under its shelf price, or a regular price cut since sc.since
// (the whole move, sc.moves) under its regular price. A barcode gives one
// threat, naming every competitor behind it. A promotion is in force when
// the competitor's offer says so: offers are prices in force, so a
// promotion past its stated end is no longer one.
func (sc *signalScan) threats() error {
	var cands []threat.Candidate
	for g := range sc.offers.Groups {
		own, others := sc.ownAndOthers(g)
		if own == nil || !own.Current {
			continue
		}
		cands = cands[:0]
		for i := range others {
			c := &others[i]
			x := threat.Candidate{Offer: c}
			x.Promo, x.HasPromo = threat.Promotion(c, own, threatThresholds)
			x.Cut, x.HasCut = sc.cutMove(c, own)
			if x.HasPromo || x.HasCut {
				cands = append(cands, x)
			}
		}
		if len(cands) == 0 {
			continue
		}
		lead, ok := threat.Lead(cands)
		if !ok {
			continue
		}
		gtin := sc.offers.Groups[g].GTIN
		if ok, err := sc.match(gtin); err != nil {
			return err
		} else if !ok {
			continue
		}
		sc.use(own)
		for i := range cands {
			sc.use(cands[i].Offer)
		}
		sc.threat(g, gtin, lead)
	}
	return nil
}

// behind returns the moves behind the threat of group g, every promotion
// checked, the leader first.
func (sc *signalScan) behind(g int) ([]threat.Move, *market.BannerOffer, error) {
	own, others := sc.ownAndOthers(g)
	others = slices.Clone(others)
	var out []threat.Move
	for i := range others {
		c := &others[i]
		m, ok := threat.Promotion(c, own, threatThresholds)
		if ok {
			// The event, for its dates.
			if _, err := sc.tx.LastPromoBefore(c.Banner, c.SKU, sc.a.province, c.Observed, &m.Promo); err != nil {
				return nil, nil, err
			}
			m.From = m.Promo.Start
		}
		if !ok {
			m, ok = sc.cutMove(c, own)
		}
		if ok {
			out = append(out, m)
		}
	}
	threat.Sort(out)
	return out, own, nil
}

// The thresholds of a threat's severity: what a competitor's move weighs
// (the OpenAPI document repeats them). A move is high when it is at least
// SignalThreatHighMovePct and takes the competitor from at or above your
// price to at least SignalThreatHighGapPct under it; medium when it is at
// least SignalThreatMediumMovePct; low otherwise. A threat is as severe as
// the most severe move behind it.
const (
	// SignalThreatHighMovePct is the least move, in percent of the
	// competitor's price before it, of a high threat.
	SignalThreatHighMovePct = 10
	// SignalThreatHighGapPct is how far under your price, in percent, a
	// high threat's move must take a competitor that was at or above it.
	SignalThreatHighGapPct = 5
	// SignalThreatMediumMovePct is the least move of a medium threat.
	SignalThreatMediumMovePct = 5
)

// threatThresholds grade a threat's moves (threat.Thresholds).
var threatThresholds = threat.Thresholds{HighMovePct: SignalThreatHighMovePct, HighGapPct: SignalThreatHighGapPct,
	MediumMovePct: SignalThreatMediumMovePct}

// severityName is the name of a move's severity.
func severityName(s threat.Severity) string {
	switch s {
	case threat.High:
		return SeverityHigh
	case threat.Medium:
		return SeverityMedium
	}
	return SeverityLow
}

// cutMove returns competitor c's regular price cut since sc.since (its
// SKU's move, sc.moves) as a move, when its regular price now is under
// own's.
func (sc *signalScan) cutMove(c, own *market.BannerOffer) (threat.Move, bool) {
	mv, ok := sc.moves[moveKey{c.Banner, c.SKU}]
	if !ok {
		return threat.Move{}, false
	}
	return threat.Cut(c, own, mv.before, mv.now, mv.from, threatThresholds)
}

// movePrice is the competitor's price in the evidence of a threat, with
// its move.
func movePrice(m *threat.Move) SignalPrice {
	p := bannerOfferPrice(&m.Offer)
	p.Move = "regular_cut"
	if m.Promotion {
		p.Move = "promotion"
	}
	p.Previous, p.Severity, p.Date = ptrExact(m.Before), severityName(m.Severity), ptrDate(m.From)
	p.MovePct = ptrF(pricestat.Round1(m.MovePct))
	p.GapPct = ptrF(pricestat.Round1(-m.Under))
	p.PreviousGapPct = ptrF(pricestat.Round1(pricestat.PctChange(m.Yours, m.Before)))
	return p
}

// threat records the threat of barcode group g, whose leading move is
// lead; its evidence lists every move behind it, the leader (the most
// severe, then the furthest under your price, then by banner) first.
func (sc *signalScan) threat(g int, gtin string, lead threat.Move) {
	typ := "competitor_price_cut"
	if lead.Promotion {
		typ = "competitor_promotion"
	}
	sc.add(SignalThreats, typ, severityName(lead.Severity), lead.Under, GTIN(gtin).UPC(), lead.Offer.Banner, lead.Offer.SKU, func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		if err != nil {
			return err
		}
		behind, ownp, err := sc.behind(g)
		if err != nil {
			return err
		}
		if len(behind) == 0 {
			return Errorf(EINTERNAL, "the threat of %s has no move behind it", GTIN(gtin).UPC())
		}
		own, lead := *ownp, &behind[0]
		c := &lead.Offer
		ev.Banner, ev.BannerName, ev.ExternalSKU = c.Banner, bannerName(c.Banner), c.SKU
		ev.Price, ev.Regular, ev.OwnPrice, ev.OwnRegular, ev.Stores = ptrHalf(c.P), ptrHalf(c.R), ptrHalf(own.P), ptrHalf(own.R), int(c.Stores)
		ev.Previous, ev.ChangePct, ev.Date = ptrExact(lead.Before), ptrF(pricestat.Round1(-lead.Under)), ptrDate(lead.From)
		for i := range behind {
			ev.Competitors = append(ev.Competitors, movePrice(&behind[i]))
		}
		var also []string
		for i := range behind[1:] {
			m := &behind[i+1]
			kind := "regular cut"
			if m.Promotion {
				kind = "promotion"
			}
			also = append(also, fmt.Sprintf("%s at %s (%s %.1f%%, %s)", bannerName(m.Offer.Banner), *ptrExact(m.Now), kind, pricestat.Round1(m.MovePct), severityName(m.Severity)))
		}
		others := ""
		if len(also) > 0 {
			others = "; also under you: " + strings.Join(also, ", ")
		}
		if lead.Promotion {
			ev.End = ptrDate(lead.Promo.End)
			sg.Explanation = fmt.Sprintf("%s has %s %s on promotion at %s (regular %s, %.1f%%) since %s, %.1f%% under your %s%s: consider matching or countering in the next flyer",
				bannerName(c.Banner), ev.Brand, ev.Name, *ev.Price, *ev.Regular, pricestat.Round1(lead.MovePct), Date(lead.From), pricestat.Round1(lead.Under), *ev.OwnPrice, others)
		} else {
			sg.Explanation = fmt.Sprintf("%s cut the regular price of %s %s from %s to %s (%.1f%%) on %s, %.1f%% under your regular %s%s: review your shelf price",
				bannerName(c.Banner), ev.Brand, ev.Name, *ev.Previous, *ptrExact(lead.Now), pricestat.Round1(lead.MovePct), Date(lead.From), pricestat.Round1(lead.Under), *ev.OwnRegular, others)
		}
		sg.Evidence = ev
		return nil
	})
}

// competitors fills in the evidence's other banners with a current price
// of sc.offers.Groups[g] and returns the median of their shelf prices, in cents
// (exact); 0 when none.
func (sc *signalScan) competitors(g int, ev *SignalEvidence) float64 {
	_, others := sc.ownAndOthers(g)
	ev.Competitors = make([]SignalPrice, len(others))
	prices := make([]float64, len(others))
	for i := range others {
		ev.Competitors[i] = bannerOfferPrice(&others[i])
		prices[i] = float64(others[i].P) / 2
	}
	return pricestat.Median(prices)
}

// opportunities compares the own banner with the market on each barcode:
// its regular price against the median of the other banners' regular
// prices (market.Compare), what it lacks that others price
// (assortment_gap) and what it priced before but not now (delisted).
func (sc *signalScan) opportunities() error {
	lookback := sc.asOf - SignalAssortmentDays + 1
	operates := sc.a.banner.OperatesIn(sc.a.province)
	for g := range sc.offers.Groups {
		own, others := sc.ownAndOthers(g)
		gtin := sc.offers.Groups[g].GTIN
		switch {
		case own != nil && own.Current:
			if err := sc.marketPosition(g, own, others); err != nil {
				return err
			}
		case own == nil || own.Last < lookback:
			if len(others) < SignalGapMinBanners || !operates {
				continue
			}
			if ok, err := sc.match(gtin); err != nil {
				return err
			} else if !ok {
				continue
			}
			sc.gap(g, len(others))
		default:
			if ok, err := sc.match(gtin); err != nil {
				return err
			} else if !ok {
				continue
			}
			sc.delisted(g, *own, len(others))
		}
	}
	return nil
}

// marketPosition adds the market position signal of barcode group g,
// which the own banner prices now (own) beside others, when its regular
// price is at least SignalMarketGapPct off the others' median and it has
// at least MarketMinOthers others.
func (sc *signalScan) marketPosition(g int, own *market.BannerOffer, others []market.BannerOffer) error {
	side, marketShelf, marketRegular, ok := market.Position(own, others, MarketMinOthers, SignalMarketGapPct, &sc.position)
	if !ok {
		return nil
	}
	if ok, err := sc.match(sc.offers.Groups[g].GTIN); err != nil || !ok {
		return err
	}
	sc.positioned(g, *own, len(others), marketShelf, marketRegular, side)
	return nil
}

// positioned records priced_above_market or priced_below_market: the own
// banner's regular price against the market's regular price (the median
// of the other n banners' regular prices), market the shelf median.
func (sc *signalScan) positioned(g int, own market.BannerOffer, n int, marketPrice, marketRegular float64, side market.Side) {
	gtin := sc.offers.Groups[g].GTIN
	gap := pricestat.PctChange(marketRegular, float64(own.R)/2)
	sc.use(&own)
	_, others := sc.ownAndOthers(g)
	for i := range others {
		sc.use(&others[i])
	}
	typ, rank, sev := "priced_above_market", gap, severityAbove(marketRegular, float64(own.R)/2, 30, 20)
	if side == market.Below {
		typ, rank, sev = "priced_below_market", -gap, severityBelow(marketRegular, float64(own.R)/2, 30, 20)
	}
	sc.add(SignalOpportunities, typ, sev, rank, GTIN(gtin).UPC(), own.Banner, own.SKU, func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		if err != nil {
			return err
		}
		sc.competitors(g, &ev)
		ev.Banner, ev.BannerName, ev.ExternalSKU, ev.Stores = own.Banner, bannerName(own.Banner), own.SKU, int(own.Stores)
		ev.OwnPrice, ev.Price, ev.Regular, ev.OwnRegular = ptrHalf(own.P), ptrHalf(own.P), ptrHalf(own.R), ptrHalf(own.R)
		ev.MarketPrice, ev.MarketRegular, ev.ChangePct = ptrExact(marketPrice), ptrExact(marketRegular), ptrF(pricestat.Round1(gap))
		sg.Evidence = ev
		if side == market.Above {
			sg.Explanation = fmt.Sprintf("your regular %s for %s %s is %.1f%% above the market's regular median %s of %d other banners: a price cut would bring it in line",
				*ev.OwnRegular, ev.Brand, ev.Name, pricestat.Round1(gap), *ev.MarketRegular, n)
		} else {
			sg.Explanation = fmt.Sprintf("your regular %s for %s %s is %.1f%% below the market's regular median %s of %d other banners: there is room to raise it",
				*ev.OwnRegular, ev.Brand, ev.Name, pricestat.Round1(-gap), *ev.MarketRegular, n)
		}
		return nil
	})
}

// gap records an assortment_gap: n other banners price the barcode now
// and the own banner did not in the lookback.
func (sc *signalScan) gap(g, n int) {
	gtin := sc.offers.Groups[g].GTIN
	_, others := sc.ownAndOthers(g)
	for i := range others {
		sc.use(&others[i])
	}
	sc.add(SignalOpportunities, "assortment_gap", severityCount(n, 6, 4), float64(n), GTIN(gtin).UPC(), "", "", func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		if err != nil {
			return err
		}
		ev.MarketPrice = ptrExact(sc.competitors(g, &ev))
		for _, c := range ev.Competitors {
			ev.Banners = append(ev.Banners, c.Banner)
		}
		sg.Evidence = ev
		sg.Explanation = fmt.Sprintf("%s %s (%s) is priced now by %d other banners in %s at a median %s and was not priced at %s in the last %d days: consider listing it",
			ev.Brand, ev.Name, ev.UPC, n, sc.a.province, *ev.MarketPrice, bannerName(sc.a.banner.Slug), SignalAssortmentDays)
		return nil
	})
}

// delisted records a delisted barcode: the own banner priced it in the
// lookback (own.Last) but has no current price of it; n other banners
// price it now.
func (sc *signalScan) delisted(g int, own market.BannerOffer, n int) {
	gtin := sc.offers.Groups[g].GTIN
	sc.banners[own.Banner] = true
	_, others := sc.ownAndOthers(g)
	for i := range others {
		sc.use(&others[i])
	}
	sc.add(SignalOpportunities, "delisted", severityCount(n, 3, 1), float64(n), GTIN(gtin).UPC(), own.Banner, own.LastSKU, func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		if err != nil {
			return err
		}
		ev.Banner, ev.BannerName, ev.ExternalSKU = own.Banner, bannerName(own.Banner), own.LastSKU
		ev.Previous, ev.Date = ptrHalf(own.LastP), ptrDate(own.Last)
		market := sc.competitors(g, &ev)
		for _, c := range ev.Competitors {
			ev.Banners = append(ev.Banners, c.Banner)
		}
		now := "no other banner prices it now"
		if n > 0 {
			ev.MarketPrice = ptrExact(market)
			now = fmt.Sprintf("%d other %s price it now at a median %s", n, words.Plural(n, "banner"), *ev.MarketPrice)
		}
		sg.Evidence = ev
		sg.Explanation = fmt.Sprintf("%s %s (%s) was last priced at %s on %s at %s and has no price there in the last %d days; %s: check whether it was delisted or is out of stock",
			ev.Brand, ev.Name, ev.UPC, bannerName(own.Banner), Date(own.Last), *ev.Previous, freshDays, now)
		return nil
	})
}

// changes finds the changes of every banner: regular price moves and
// 30-day lows (from the daily prices, read by dailyScan before), promotions
// with unverified reference prices and shrinkflation.
func (sc *signalScan) changes() error {
	if err := sc.honesty(); err != nil {
		return err
	}
	return sc.shrinkflation()
}

// regularMove is a banner SKU's move of its regular price since `since`:
// its daily regular price on its latest day before since (in the 30 days
// before it) and on its latest day, the first day of the run of days at
// that price, and its daily price that day, in half-cents.
type regularMove struct {
	before, now, price uint32
	from               int32
}

// dailyScan reads the province's daily prices from sc.since to asOf, one
// category and banner at a time (storage.CatDays), keeping each SKU's
// days as pricestat.SKUSince, and finds for each current banner SKU its regular move
// since sc.since (a competitor's cut kept in sc.moves for the threats; a
// change of 10% or more is a price_increase or price_decrease) and its
// lowest 30-day low since sc.since (lowest_in_30_days). What a day looks
// back on (storage.Lookback: the lowest daily price of the 30 days before
// it, the regular price of the latest of them) stands for the days before
// since, which it reads only for a SKU whose latest day before since is
// further back than the 30 days before its first day since
// (priorRegular). A SKU's days are those of its category: one whose
// category changed is read in each as a SKU of its own.
func (sc *signalScan) dailyScan() error {
	var (
		cur   storage.CatDayKey
		names []string
		skus  = sc.skus[:0]
	)
	flush := func() error {
		err := sc.groupChanges(&cur, names, skus)
		clear(skus)
		skus = skus[:0]
		return err
	}
	err := sc.tx.CatDays(sc.a.province, "", "", sc.since, sc.asOf, storage.CatSKUs|storage.CatNumbered, func(k *storage.CatDayKey, c *storage.CatDay) error {
		if k.Category != cur.Category || k.Banner != cur.Banner {
			if err := flush(); err != nil {
				return err
			}
			cur = *k
		}
		if !matchCategory(k.Category, sc.a.category) {
			return nil
		}
		names = c.Names
		if n := len(names); n > len(skus) {
			skus = slices.Grow(skus, n-len(skus))[:n]
		}
		for i := range c.SKUNums {
			d := &c.SKUNums[i]
			skus[d.Num].Add(k.Day, d)
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	sc.skus = skus[:0]
	return err
}

// groupChanges finds the moves and lows of one category and banner's
// SKUs, skus by their number in names.
func (sc *signalScan) groupChanges(k *storage.CatDayKey, names []string, skus []pricestat.SKUSince) error {
	if len(skus) == 0 {
		return nil
	}
	shelves := sc.shelves.Banner(k.Banner)
	current := sc.asOf - freshDays
	for num := range skus {
		s := &skus[num]
		if !s.Seen || s.Last <= current {
			continue
		}
		sku := names[num]
		mv, beforeDay, err := sc.moveStart(k, sku, s)
		if err != nil {
			return err
		}
		if mv.before != 0 && mv.before != s.R {
			mv.now, mv.price, mv.from = s.R, s.P, s.From
			if err := sc.moved(k, sku, shelves, mv, beforeDay, s.Last); err != nil {
				return err
			}
		}
		// The lowest day since since under every day of the 30 before it
		// that a store made: the latest on a tie.
		if s.Low != 0 {
			if sh := market.FindSKU(shelves, sku); sh != nil {
				sc.low(sh, s.Low, s.LowP, s.Min30)
			}
		}
	}
	return nil
}

// moveStart returns the start of sku's regular move (mv.before, 0 for
// none): its regular price on the latest day before since, the day before
// the first since, in the 30 days before since; and that day.
func (sc *signalScan) moveStart(k *storage.CatDayKey, sku string, s *pricestat.SKUSince) (mv regularMove, beforeDay int32, err error) {
	switch prev := s.First - int32(s.Back.PrevGap); {
	case s.Back.PrevGap != 0:
		if prev >= sc.since-SignalLookbackDays {
			mv.before, beforeDay = s.Back.PrevRegular, prev
		}
	case s.First > sc.since:
		mv.before, beforeDay, err = sc.priorRegular(k, sku, s.First-SignalLookbackDays-1)
	}
	return mv, beforeDay, err
}

// moved records sku's regular move mv, from beforeDay to last, when a
// store made it: as a competitor's cut for the threats, and as a
// price_increase or price_decrease when it is big enough.
func (sc *signalScan) moved(k *storage.CatDayKey, sku string, shelves []storage.Shelf, mv regularMove, beforeDay, last int32) error {
	before, now := float64(mv.before), float64(mv.now)
	cut := mv.now < mv.before && sc.a.banner.Slug != "" && k.Banner != sc.a.banner.Slug
	big := pricestat.AtLeastAbove(before, now, SignalMovePct) || pricestat.AtLeastBelow(before, now, SignalMovePct)
	var sh *storage.Shelf
	if big {
		sh = market.FindSKU(shelves, sku)
		big = sh != nil
	}
	if !cut && !big {
		return nil
	}
	made, err := sc.regularMoved(k.Banner, sku, beforeDay, last, mv.now < mv.before)
	if err != nil {
		return err
	}
	if made && cut {
		sc.moves[moveKey{k.Banner, sku}] = mv // a competitor's cut, for the threats (cutMove)
	}
	if made && big {
		sc.move(sh, mv)
	}
	return nil
}

// priorRegular returns the daily regular price of sku, of the category
// and banner of k, on its latest day from since - 30 to to, and that day
// (0 when it has none): the price a regular move starts from when the
// SKU's first day since since looks back on no day.
func (sc *signalScan) priorRegular(k *storage.CatDayKey, sku string, to int32) (r uint32, day int32, err error) {
	err = sc.tx.CatDays(sc.a.province, k.Category, k.Banner, sc.since-SignalLookbackDays, to, storage.CatSKUs, func(ck *storage.CatDayKey, c *storage.CatDay) error {
		if i, ok := slices.BinarySearchFunc(c.SKUs, sku, func(x storage.SKUDay, s string) int { return strings.Compare(x.SKU, s) }); ok {
			r, day = c.SKUs[i].Regular, ck.Day
		}
		return nil
	})
	return r, day, err
}

// moveKey names a banner SKU in signalBufs.moves.
type moveKey struct{ banner, sku string }

// move records a price_increase or price_decrease: the regular move mv of
// the SKU of shelf record sh.
func (sc *signalScan) move(sh *storage.Shelf, mv regularMove) {
	before, now := float64(mv.before)/2, float64(mv.now)/2
	ch := pricestat.PctChange(before, now)
	typ, verb, sev := "price_increase", "raised", severityAbove(before, now, 25, 15)
	if ch < 0 {
		typ, verb, sev = "price_decrease", "cut", severityBelow(before, now, 25, 15)
	}
	sc.banners[sh.Banner] = true
	banner, sku, gtin := sh.Banner, sh.SKU, sh.GTIN
	sc.add(SignalChanges, typ, sev, math.Abs(ch), GTIN(gtin).UPC(), banner, sku, func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		ev.Banner, ev.BannerName, ev.ExternalSKU = banner, bannerName(banner), sku
		ev.Regular, ev.Previous, ev.Price, ev.ChangePct, ev.Date = ptrHalf(mv.now), ptrHalf(mv.before), ptrHalf(mv.price), ptrF(pricestat.Round1(ch)), ptrDate(mv.from)
		sg.Evidence = ev
		sg.Explanation = fmt.Sprintf("%s %s the regular price of %s %s by %.1f%% since %s, from %s to %s (%s from %s)",
			bannerName(banner), verb, ev.Brand, ev.Name, pricestat.Round1(math.Abs(ch)), Date(sc.since), *ev.Previous, *ev.Regular, *ev.Regular, Date(mv.from))
		return err
	})
}

// low records a lowest_in_30_days: the SKU of shelf record sh at price p
// on day, under min30, the lowest daily price of the 30 days before it
// (half-cents).
func (sc *signalScan) low(sh *storage.Shelf, day int32, p, min30 uint32) {
	below := -pricestat.PctChange(float64(min30), float64(p))
	sev := SeverityLow
	if pricestat.AtLeastBelow(float64(min30), float64(p), 10) {
		sev = SeverityMedium
	}
	sc.banners[sh.Banner] = true
	banner, sku, gtin := sh.Banner, sh.SKU, sh.GTIN
	sc.add(SignalChanges, "lowest_in_30_days", sev, below, GTIN(gtin).UPC(), banner, sku, func(sg *Signal) error {
		ev, err := sc.evidence(gtin)
		ev.Banner, ev.BannerName, ev.ExternalSKU = banner, bannerName(banner), sku
		ev.Price, ev.Previous, ev.ChangePct, ev.Date = ptrHalf(p), ptrHalf(min30), ptrF(pricestat.Round1(-below)), ptrDate(day)
		sg.Evidence = ev
		sg.Explanation = fmt.Sprintf("%s %s at %s was at %s on %s, %.1f%% under its lowest daily price of the 30 days before (%s)",
			ev.Brand, ev.Name, bannerName(banner), *ev.Price, Date(day), pricestat.Round1(below), *ev.Previous)
		return err
	})
}

func (sc *signalScan) honesty() error {
	pc := productCache{tx: sc.tx, m: map[string]Product{}}
	return sc.tx.PromosIn(sc.a.province, sc.since, sc.asOf, func(sp *storage.Promo) error {
		over, high, ok := pricestat.UnverifiedReference(sp.Charged, sp.Before, sp.Regular, 10)
		if !ok {
			return nil
		}
		prod, err := pc.get(sp.Banner, sp.SKU)
		if err != nil {
			return err
		}
		if prod.GTIN == "" || !matchCategory(prod.Category, sc.a.category) {
			return nil
		}
		p := *sp
		sc.banners[p.Banner] = true
		sc.obs += int(p.Days)
		sev := SeverityMedium
		if high {
			sev = SeverityHigh
		}
		sc.add(SignalChanges, "unverified_reference_price", sev, math.Abs(over), prod.UPC, p.Banner, p.SKU, func(sg *Signal) error {
			sg.Evidence = SignalEvidence{UPC: prod.UPC, Name: prod.Name, Brand: prod.Brand, Size: prod.Size, Category: prod.Category,
				Banner: p.Banner, BannerName: bannerName(p.Banner), ExternalSKU: p.SKU, Price: ptrCents(p.Price), Regular: ptrCents(p.Regular),
				Previous: ptrCents(p.Before), ChangePct: ptrF(pricestat.Round1(over)), Date: ptrDate(p.Start), End: ptrDate(p.End), Stores: int(p.Stores)}
			sg.Explanation = fmt.Sprintf("%s promotes %s %s at %s against a regular %s from %s, but its reference stores did not charge %s in the 30 days before; they charged %s",
				bannerName(p.Banner), prod.Brand, prod.Name, Cents(p.Price), Cents(p.Regular), Date(p.Start), Cents(p.Regular), Cents(p.Before))
			return nil
		})
		return nil
	})
}

// shrinkItem is a banner SKU shrinkflation compares: its shelf record,
// its product, its pack (its size as a quantity and unit, its regular
// price and last day) and its line.
type shrinkItem struct {
	sh   *storage.Shelf
	p    Product
	pack pricestat.Pack
	line lineKey
}

// lineSizes are the older sizes of a line at a banner: their items and
// their packs, in the same order.
type lineSizes struct {
	items []shrinkItem
	packs []pricestat.Pack
}

// lineKey is a product line: its brand, name and product type, folded
// (foldKey). Sizes of one line are one product in different packs.
type lineKey struct{ brand, name, typ string }

// bannerLine is a product line at a banner.
type bannerLine struct {
	banner string
	line   lineKey
}

// shrinkBufs are shrinkflation's buffers, kept from one call to the next
// as signalBufs are. folds keeps what foldKey gave for a text (a brand,
// a name, a product type): folding is a function of the text alone.
type shrinkBufs struct {
	fresh    []shrinkItem
	folds    map[string]string
	lines    map[lineKey]bool
	brands   map[string]bool      // folded brands of the lines
	banners  map[string]bool      // with a recent product of a line
	verdicts map[string]int32     // GTIN -> index in items, -1 when of no line
	items    []shrinkItem         // the older products' verdicts (sh nil)
	byLine   map[bannerLine]int32 // the older products, by banner and line: an index in sizes
	sizes    []lineSizes          // kept with their room from one call to the next
}

// reset empties b, keeping at most a catalogue's worth of folds.
func (b *shrinkBufs) reset() {
	clear(b.fresh)
	b.fresh = b.fresh[:0]
	if len(b.folds) > 1<<16 {
		clear(b.folds)
	}
	clear(b.lines)
	clear(b.brands)
	clear(b.banners)
	clear(b.verdicts)
	clear(b.items)
	b.items = b.items[:0]
	clear(b.byLine)
	for i := range b.sizes {
		l := &b.sizes[i]
		clear(l.items)
		l.items, l.packs = l.items[:0], l.packs[:0]
	}
	b.sizes = b.sizes[:0]
}

// fold returns foldKey(s), once per text.
func (b *shrinkBufs) fold(s string) string {
	f, ok := b.folds[s]
	if !ok {
		f = foldKey(s)
		b.folds[s] = f
	}
	return f
}

// ofBrands reports whether the product gtin is of a brand of b.brands,
// reading only its brand.
func (b *shrinkBufs) ofBrands(tx *storage.Tx, gtin string) (bool, error) {
	brand, found, err := tx.ProductBrand(gtin)
	if err != nil || !found {
		return false, err
	}
	f, ok := b.folds[string(brand)] // a lookup by the view: no string made
	if !ok {
		f = b.fold(string(brand))
	}
	return b.brands[f], nil
}

// lineOf returns p's line.
func (b *shrinkBufs) lineOf(p *Product) lineKey {
	return lineKey{b.fold(p.Brand), b.fold(p.Name), b.fold(p.Type)}
}

// shrinkflation compares, per banner, each product first observed there in
// the last SignalShrinkDays with the larger sizes of its brand and line.
func (sc *signalScan) shrinkflation() error {
	current := sc.asOf - freshDays
	recent := sc.asOf - SignalShrinkDays + 1
	b := &sc.shrink
	if b.folds == nil {
		b.folds, b.lines, b.brands, b.banners = map[string]string{}, map[lineKey]bool{}, map[string]bool{}, map[string]bool{}
		b.verdicts, b.byLine = map[string]int32{}, map[bannerLine]int32{}
	}
	defer b.reset()
	if err := sc.freshLines(recent, current); err != nil || len(b.fresh) == 0 {
		return err
	}
	if err := sc.olderSizes(recent); err != nil {
		return err
	}
	for i := range b.fresh {
		f := &b.fresh[i]
		if f.pack.Qty <= 0 || f.p.Brand == "" {
			continue
		}
		l, ok := b.byLine[bannerLine{f.sh.Banner, f.line}]
		if !ok {
			continue
		}
		olds := &b.sizes[l]
		if best, up := pricestat.Shrink(f.pack, olds.packs, current, SignalShrinkPct); best >= 0 {
			sc.addShrink(*f, olds.items[best], up)
		}
	}
	return nil
}

// freshLines puts in sc.shrink.fresh the shelf records first observed
// since recent and still current, with their products and lines, and
// notes the lines, banners and brands of those that have a size and a
// brand.
func (sc *signalScan) freshLines(recent, current int32) error {
	b := &sc.shrink
	for i := range sc.shelves.List {
		sh := &sc.shelves.List[i]
		if sh.First >= recent && sh.Last > current {
			b.fresh = append(b.fresh, shrinkItem{sh: sh})
		}
	}
	for i := range b.fresh {
		f := &b.fresh[i]
		p, err := sc.product(f.sh.GTIN)
		if err != nil {
			return err
		}
		f.p, f.line = p, b.lineOf(&p)
		f.pack.Qty, f.pack.Unit = unitprice.Of(p.Size)
		f.pack.Regular, f.pack.Last = f.sh.LastRegular, f.sh.Last
		if f.pack.Qty > 0 && p.Brand != "" {
			b.lines[f.line] = true
			b.banners[f.sh.Banner] = true
			b.brands[f.line.brand] = true
		}
	}
	return nil
}

// olderSizes files by banner and line (sc.shrink.byLine) the shelf
// records older than recent, of the banners of the fresh ones, whose
// product is of a fresh product's line and has a size. Each barcode's
// verdict is found once: banners share barcodes. When every fresh line
// has a product type, only the products of those types can be of one
// (lineCandidates), and the other barcodes are not read.
func (sc *signalScan) olderSizes(recent int32) error {
	b := &sc.shrink
	if len(b.lines) == 0 {
		return nil // no fresh product with a brand and a size: none to compare
	}
	typed := true
	for l := range b.lines {
		typed = typed && l.typ != ""
	}
	if typed {
		if err := sc.lineCandidates(); err != nil {
			return err
		}
	}
	for i := range sc.shelves.List {
		sh := &sc.shelves.List[i]
		if sh.First >= recent || !b.banners[sh.Banner] {
			continue
		}
		v, ok := b.verdicts[sh.GTIN]
		if !ok && typed {
			v = -1 // of no fresh line's type
		} else if !ok {
			var err error
			if v, err = sc.lineItem(sh.GTIN); err != nil {
				return err
			}
			b.verdicts[sh.GTIN] = v
		}
		if v >= 0 {
			o := b.items[v]
			o.sh = sh
			o.pack.Regular, o.pack.Last = sh.LastRegular, sh.Last
			l := b.sizesOf(bannerLine{sh.Banner, o.line})
			l.items, l.packs = append(l.items, o), append(l.packs, o.pack)
		}
	}
	return nil
}

// lineCandidates finds the verdict (lineItem) of every product whose type
// folds to a fresh line's, from the kinds index: each category's types
// asked about once, the others passed over; of those, a product the
// province has no offer of (the offer prices tell) has no shelf record
// there either, and is passed over before it is read.
func (sc *signalScan) lineCandidates() error {
	b := &sc.shrink
	types := map[string]bool{}
	for l := range b.lines {
		types[l.typ] = true
	}
	offered, err := sc.tx.OfferPrices(sc.a.province)
	if err != nil {
		return err
	}
	keep := func(typ []byte) bool {
		f, ok := b.folds[string(typ)] // a lookup by the view: no string made
		if !ok {
			f = b.fold(string(typ))
		}
		return types[f]
	}
	return sc.tx.ProductCategories(func(category []byte) error {
		return sc.tx.ProductsOfCategory(string(category), keep, func(_, gtin []byte) error {
			if _, ok := offered.Find(gtin); !ok {
				return nil
			}
			g := string(gtin)
			if _, ok := b.verdicts[g]; ok {
				return nil
			}
			v, err := sc.lineItem(g)
			b.verdicts[g] = v
			return err
		})
	})
}

// sizesOf returns the older sizes of line k, added empty when it has
// none yet (reusing the room of an earlier call's).
func (b *shrinkBufs) sizesOf(k bannerLine) *lineSizes {
	i, ok := b.byLine[k]
	if !ok {
		i = int32(len(b.sizes))
		b.byLine[k] = i
		if len(b.sizes) < cap(b.sizes) {
			b.sizes = b.sizes[:i+1]
		} else {
			b.sizes = append(b.sizes, lineSizes{})
		}
	}
	return &b.sizes[i]
}

// lineItem returns the index in sc.shrink.items of barcode gtin's item
// (added), -1 when its product is of no fresh line or has no size.
func (sc *signalScan) lineItem(gtin string) (int32, error) {
	b := &sc.shrink
	if of, err := b.ofBrands(sc.tx, gtin); err != nil || !of {
		return -1, err
	}
	p, err := sc.product(gtin)
	if err != nil {
		return -1, err
	}
	if !b.brands[b.fold(p.Brand)] { // a line is its brand, name and type, folded
		return -1, nil
	}
	l := b.lineOf(&p)
	if !b.lines[l] {
		return -1, nil
	}
	q, u := unitprice.Of(p.Size)
	if q <= 0 {
		return -1, nil
	}
	b.items = append(b.items, shrinkItem{p: p, line: l, pack: pricestat.Pack{Qty: q, Unit: u}})
	return int32(len(b.items) - 1), nil
}

// addShrink adds the shrinkflation signal of fresh product f against
// the larger size best, whose unit price rose bestUp percent to f's. Both
// are copies: the signal is built later, for the page, once shrinkBufs
// are reset.
func (sc *signalScan) addShrink(f, best shrinkItem, bestUp float64) {
	sc.banners[f.sh.Banner] = true
	newUnit := f.pack.UnitPrice()
	sc.add(SignalChanges, "shrinkflation", severityAbove(100, 100+bestUp, 10, 5), bestUp, f.p.UPC, f.sh.Banner, f.sh.SKU, func(sg *Signal) error {
		oldUnit := best.pack.UnitPrice()
		sg.Evidence = SignalEvidence{UPC: f.p.UPC, Name: f.p.Name, Brand: f.p.Brand, Size: f.p.Size, Category: f.p.Category,
			Banner: f.sh.Banner, BannerName: bannerName(f.sh.Banner), ExternalSKU: f.sh.SKU, Price: ptrCents(f.sh.LastRegular),
			Previous: ptrCents(best.sh.LastRegular), ChangePct: ptrF(pricestat.Round1(bestUp)), Date: ptrDate(f.sh.First),
			UnitPrice: ptrF(math.Round(newUnit*100) / 100), PreviousUnitPrice: ptrF(math.Round(oldUnit*100) / 100), UnitBasis: f.pack.Unit,
			PreviousUPC: best.p.UPC, PreviousSize: best.p.Size}
		sg.Explanation = fmt.Sprintf("%s %s at %s shrank from %s to %s (first observed %s) while its unit price rose %.1f%%, from %.2f to %.2f cents %s",
			f.p.Brand, f.p.Name, bannerName(f.sh.Banner), best.p.Size, f.p.Size, Date(f.sh.First), pricestat.Round1(bestUp), oldUnit, newUnit, f.pack.Unit)
		return nil
	})
}

// watchlist builds its few signals at once.
func (sc *signalScan) watchlist(rules []storage.AlertRule, ids alertstore.IDs) error {
	current := sc.asOf - freshDays
	for i := range rules {
		if err := sc.watchRule(&rules[i], ids.Rule(rules[i].ID), current); err != nil {
			return err
		}
	}
	return nil
}

// watchRule adds the watchlist signal of one rule of the province.
func (sc *signalScan) watchRule(r *storage.AlertRule, id string, current int32) error {
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
	if ok, err := sc.match(gtin); err != nil || !ok {
		return err
	}
	ev, err := sc.evidence(gtin)
	if err != nil {
		return err
	}
	ev.Rule = id
	var cheapest *SignalPrice
	promo := false
	err = sc.tx.Offers(sc.a.province, gtin, func(o *storage.Offer) error {
		if o.ObservedAt <= current || (banner != "" && o.Banner != banner) || (r.SKU != "" && o.SKU != r.SKU) {
			return nil
		}
		sc.banners[o.Banner] = true
		sc.obs += int(o.StoreCount)
		p := offerPrice(o)
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
	built := func(severity, explanation string) {
		sc.add(SignalWatchlist, "watched_product", severity, 0, ev.UPC, ev.Banner, ev.ExternalSKU, func(sg *Signal) error {
			sg.Evidence, sg.Explanation = ev, explanation
			return nil
		})
	}
	if cheapest == nil {
		built(SeverityLow, fmt.Sprintf("%s %s (rule %s) was not observed in the %s panel in the last 14 days", ev.Brand, ev.Name, ev.Rule, sc.a.province))
		return nil
	}
	c := *cheapest
	ev.Banner, ev.BannerName, ev.ExternalSKU, ev.Price, ev.Regular = c.Banner, c.BannerName, c.ExternalSKU, ptrCents(uint32(c.Price)), ptrCents(uint32(c.Regular))
	sev, state := SeverityLow, "at its regular price"
	if promo {
		sev, state = SeverityMedium, "on promotion at at least one banner"
	}
	built(sev, fmt.Sprintf("%s %s (rule %s) is %s now: cheapest %s at %s of %d banner(s) observed in %s",
		ev.Brand, ev.Name, ev.Rule, state, c.Price, c.BannerName, len(ev.Competitors), sc.a.province))
	return nil
}
