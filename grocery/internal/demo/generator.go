// Package demo generates grocery's demo data set: a realistic,
// deterministic Canadian data set of reference stores, a catalogue, banner
// SKU links and observed shelf prices. It emits plain records, which
// grocery converts to its own types; the banner table comes from grocery
// (Config.Banners), the GS1 and search rules from gs1 and textfold, so the
// generator and the service agree by construction.
package demo

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/gs1"
	"github.com/grocerydata/grocery/grocery/internal/textfold"
)

// Date is a calendar day, in days since 1970-01-01 UTC, as grocery.Date.
type Date int32

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return time.Weekday((int64(d) + 4) % 7) }

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }

// Banner is what the generator needs to know of one of grocery's banners.
type Banner struct {
	Slug      string
	Name      string   // display name
	Owner     string   // the company that runs it: private labels follow it
	Provinces []string // where it operates
}

// Store is a reference store (as grocery.Store).
type Store struct {
	ID, Banner, BannerName, Province, Name, City, PostalCode string
	Latitude, Longitude                                      float64
	Active                                                   bool
}

// Product is a catalogue product; GTIN is a GTIN-14 (as grocery.CatalogueItem).
// Name is its English name, NameFr its French one ("" when the tables give
// none); Type is its product type below the category (every demo product
// has one).
type Product struct {
	GTIN, Name, NameFr, Brand, Size, Category, Type string
}

// Link records that a banner's SKU is sold under a GTIN-14 (as grocery.SKULink).
type Link struct {
	Banner, ExternalSKU, GTIN string
}

// Observation is one observed shelf price, in cents (as grocery.Observation).
type Observation struct {
	Date                Date
	StoreID             string
	Banner              string
	ExternalSKU         string
	Price, RegularPrice int64
	PromoEnds           Date // 0 when not on promotion
}

// InvalidError reports options the generator cannot use: an unknown scale
// or an as-of date too early to hold the history. Other errors are
// defects of the generator's tables.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return e.Msg }

// Config chooses the data set: the same config gives the same data.
type Config struct {
	Scale   string // "small", "medium", "large" or "national"
	AsOf    Date   // last day of data
	Seed    int64
	Banners []Banner // grocery's banners, sorted by slug; each needs a row in the generator's banner table
}

// Samples are identifiers to try on a fresh demo data set (grocery's
// DemoSamples, with GTIN-14s where it prints UPCs).
type Samples struct {
	Province       string // e.g. "ON"
	CarriedGTIN    string // a product with several current offers in Province
	NotCarriedGTIN string // a product the catalogue knows but no banner carries in Province now
	UnknownGTIN    string // a GS1-valid GTIN that is not in the catalogue
	SKU            string // an external_sku with at least 90 days of history in Province
	Banner         string // its banner slug
	Query          string // a search query with several hits in Province
}

// Generator generates the demo data set in memory, deterministically for its
// (scale, asOf, seed): the same inputs give byte-identical stores,
// catalogue, links and observations. It never reads the clock.
//
// The price of one observation is built from: the product's base price
// (Ontario, full-service banner), the banner's level, the province's level
// (the territories 25-80 % above Ontario), supplier price changes shared by
// every banner (1-2 a year, mostly increases), the series' own changes,
// Thursday-to-Wednesday flyer promotions, and for a minority of stores an
// off-zone price. Every random choice of a series comes from a stream
// seeded by a hash of (seed, banner, SKU, province), so the order in which
// series are generated does not matter.
//
// A Generator is not safe for concurrent use.
type Generator struct {
	asOf    Date
	start   Date // first day of history
	seed    uint64
	banners []Banner

	stores    []Store // sorted by ID
	storeLast []Date  // last day a store is observed (asOf for active stores)
	storeOff  []int64 // off-zone price factor per 10000, or 0 for a zone-priced store
	// storeKey numbers a store in the hashes of its reads and off-zone
	// prices: the stores the scale seats in ID order, then those seated
	// for a province left without any, so that these change no other
	// store's prices.
	storeKey []uint64

	products []demoProduct // catalogue order: the order of the line table
	panels   []demoPanel
	series   []demoSeries // sorted by (banner, SKU, province)
	links    []Link

	samples Samples
	count   int // observations, -1 until counted
}

// demoBrand is a parsed row of demoBrandRows.
type demoBrand struct {
	name    string
	prefix  string
	owner   string   // private-label owner, or ""
	regions []string // provinces where it is sold, or nil for national
	levelBP int64
}

func (b *demoBrand) soldIn(province string) bool {
	if b.regions == nil {
		return true
	}
	for _, p := range b.regions {
		if p == province {
			return true
		}
	}
	return false
}

// demoProduct is a catalogue product and how it sells.
type demoProduct struct {
	item    Product
	brand   *demoBrand
	baseRaw int64 // regular price at an Ontario full-service banner, in 1/100 cent
	pop     int64 // popularity, per 10000 (staples are high)
	first   Date  // first day it may be observed (new products: the last weeks)
	last    Date  // last day it may be observed (discontinued products: months ago)
	events  []demoEvent
	of      int  // the line item this product is a variant of (an index of g.products), -1 for an item
	variant bool // a variant of a line item (the national catalogue's)
}

// demoEvent is a change of the regular price on a date, per 10000.
type demoEvent struct {
	date Date
	bp   int64
}

// demoPromo is a flyer promotion from a Thursday to a Wednesday.
type demoPromo struct {
	from, to Date
	discBP   int64
}

// demoPanel is the collection panel of one banner in one province.
type demoPanel struct {
	info     *demoBannerInfo
	banner   Banner
	province string
	stores   []int // indices into demoGen.stores, sorted by ID
	days     []Date
}

// demoSeries is one banner SKU observed in one province.
type demoSeries struct {
	sku         string
	panel       int
	product     int
	first, last Date // listing window at the banner in the province
	hash        uint64
}

const (
	demoChunk  = 200_000 // observations per emitted chunk
	demoDropBP = 300     // missed shelf reads, per 10000 observations
	demoFresh  = 14      // days an observation counts as current
	demoStaple = 30000   // popularity of a staple ("*" in the line table)
)

// New returns a generator for c.Scale "small", "medium", "large" or
// "national" with data dated up to c.AsOf inclusive. It returns an *InvalidError for an
// unknown scale or an as-of date too early to hold the history.
func New(c Config) (*Generator, error) {
	scale, asOf, seed := c.Scale, c.AsOf, c.Seed
	spec, ok := demoScales[scale]
	if !ok {
		return nil, &InvalidError{fmt.Sprintf("scale %q is unknown: want one of %s", scale, demoScaleNames)}
	}
	if int(asOf) < spec.days+366 {
		return nil, &InvalidError{fmt.Sprintf("as-of date %s is too early: want %s or later", asOf, Date(spec.days+366))}
	}
	g := &Generator{
		asOf:    asOf,
		start:   asOf - Date(spec.days) + 1,
		seed:    uint64(seed),
		banners: c.Banners,
		count:   -1,
	}
	infos := make(map[string]*demoBannerInfo, len(demoBannerTable))
	for i := range demoBannerTable {
		infos[demoBannerTable[i].slug] = &demoBannerTable[i]
	}
	for _, b := range g.banners {
		if infos[b.Slug] == nil {
			return nil, fmt.Errorf("demo: banner %q has no demo settings", b.Slug)
		}
	}
	g.buildStores(spec, infos)
	if err := g.buildCatalogue(spec); err != nil {
		return nil, err
	}
	g.buildSeries(spec)
	g.buildSamples()
	return g, nil
}

// Stores returns every reference store, sorted by ID, including the few
// that are no longer active (Active false).
func (g *Generator) Stores() []Store {
	return append([]Store(nil), g.stores...)
}

// Catalogue returns every product the catalogue knows, sorted by GTIN,
// including products no banner carries in some provinces and products no
// longer carried anywhere.
func (g *Generator) Catalogue() []Product {
	out := make([]Product, len(g.products))
	for i := range g.products {
		out[i] = g.products[i].item
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GTIN < out[j].GTIN })
	return out
}

// Links returns every banner SKU -> GTIN link, sorted by banner and SKU.
func (g *Generator) Links() []Link {
	return append([]Link(nil), g.links...)
}

// Samples returns identifiers to try on the data set, chosen from the
// generated data for Ontario.
func (g *Generator) Samples() Samples { return g.samples }

// ObservationCount returns the exact number of observations Observations
// emits. The first call counts them by a dry run of the collection schedule
// (stores, days and missed reads, without prices), which takes a fraction
// of the generation time; later calls return the cached count.
func (g *Generator) ObservationCount() int {
	if g.count < 0 {
		n := 0
		for si := range g.series {
			s := &g.series[si]
			p := &g.panels[s.panel]
			lo, hi := g.dayRange(s)
			for i := lo; i < hi; i++ {
				for _, st := range p.stores {
					if g.observed(s, p.days[i], st) {
						n++
					}
				}
			}
		}
		g.count = n
	}
	return g.count
}

// Observations calls emit with chunks of about 200,000 observations until
// every observation is emitted or emit returns an error, which it returns.
// The stream is sorted by (Banner, ExternalSKU, province of the store, Date,
// StoreID); a chunk may end anywhere. The chunk's slice is reused after emit
// returns: emit copies what it keeps. Observations share their string
// values (store IDs, banners, SKUs) instead of allocating them. Every call
// emits the same stream.
func (g *Generator) Observations(emit func([]Observation) error) error {
	out := &chunker{buf: make([]Observation, 0, demoChunk), emit: emit}
	var (
		tl  demoTimeline
		off []int64 // regular price of each store of the panel; 0 means the zone price
	)
	for si := range g.series {
		if err := g.seriesObservations(&g.series[si], &tl, &off, out); err != nil {
			return err
		}
	}
	if len(out.buf) > 0 {
		return emit(out.buf)
	}
	return nil
}

// chunker passes observations to emit demoChunk at a time.
type chunker struct {
	buf  []Observation
	emit func([]Observation) error
}

func (c *chunker) add(o Observation) error {
	c.buf = append(c.buf, o)
	if len(c.buf) < demoChunk {
		return nil
	}
	err := c.emit(c.buf)
	c.buf = c.buf[:0]
	return err
}

// seriesObservations adds the observations of series s to out, its
// timeline in tl and its stores' regular prices in off.
func (g *Generator) seriesObservations(s *demoSeries, tl *demoTimeline, off *[]int64, out *chunker) error {
	p := &g.panels[s.panel]
	lo, hi := g.dayRange(s)
	if lo >= hi {
		return nil
	}
	g.timeline(s, tl)
	*off = append((*off)[:0], make([]int64, len(p.stores))...)
	_, alt := p.info.endingSets()
	lastRaw := int64(-1)
	for i := lo; i < hi; i++ {
		d := p.days[i]
		raw, reg, price, ends := tl.at(d)
		if raw != lastRaw {
			lastRaw = raw
			g.offZone(s, p, raw, reg, alt, *off)
		}
		for j, st := range p.stores {
			if !g.observed(s, d, st) {
				continue
			}
			o := Observation{
				Date:         d,
				StoreID:      g.stores[st].ID,
				Banner:       p.banner.Slug,
				ExternalSKU:  s.sku,
				Price:        price,
				RegularPrice: reg,
				PromoEnds:    ends,
			}
			if r := (*off)[j]; r != 0 {
				o.RegularPrice = r
				if ends == 0 {
					o.Price = r
				} else if price >= r {
					o.Price, o.PromoEnds = r, 0
				}
			}
			if err := out.add(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// offZone sets off[j] to the regular price of series s at store j of
// panel p, when raw (the zone's regular price reg before its ending) is
// priced off-zone there, else to 0.
func (g *Generator) offZone(s *demoSeries, p *demoPanel, raw, reg int64, alt []int64, off []int64) {
	for j, st := range p.stores {
		off[j] = 0
		if f := g.storeOff[st]; f != 0 && demoMix(s.hash^(g.storeKey[st]+1)*0x9E3779B97F4A7C15)%10 < 6 {
			if r := demoRetail(demoScale(raw, f), alt); r != reg {
				off[j] = r
			}
		}
	}
}

// dayRange returns the indices [lo, hi) of the panel days within the
// series' listing window.
func (g *Generator) dayRange(s *demoSeries) (lo, hi int) {
	days := g.panels[s.panel].days
	lo = sort.Search(len(days), func(i int) bool { return days[i] >= s.first })
	hi = sort.Search(len(days), func(i int) bool { return days[i] > s.last })
	return lo, hi
}

// observed reports whether store st reads series s on day d: the store is
// still in the panel and the read was not missed.
func (g *Generator) observed(s *demoSeries, d Date, st int) bool {
	if d > g.storeLast[st] {
		return false
	}
	h := demoMix(s.hash ^ uint64(d)*0xD6E8FEB86659FD93 ^ g.storeKey[st]*0xA0761D6478BD642F)
	return h%10000 >= demoDropBP
}

// seriesSpan returns the first and last day series s has an observation,
// or ok false if it has none.
func (g *Generator) seriesSpan(si int) (first, last Date, ok bool) {
	s := &g.series[si]
	p := &g.panels[s.panel]
	lo, hi := g.dayRange(s)
	for i := lo; i < hi && !ok; i++ {
		for _, st := range p.stores {
			if g.observed(s, p.days[i], st) {
				first, ok = p.days[i], true
				break
			}
		}
	}
	if !ok {
		return 0, 0, false
	}
	for i := hi - 1; i >= lo; i-- {
		for _, st := range p.stores {
			if g.observed(s, p.days[i], st) {
				return first, p.days[i], true
			}
		}
	}
	return first, first, true
}

// demoTimeline is the zone price of one series over time.
type demoTimeline struct {
	lag     Date // days the banner takes to pass on a supplier change
	supply  []demoEvent
	own     []demoEvent
	promos  []demoPromo
	endings []int64
	promoE  []int64

	// cursor
	si, oi, pi  int
	raw, rawReg int64
	regular     int64
}

// timeline prepares tl for series s, reusing its slices.
func (g *Generator) timeline(s *demoSeries, tl *demoTimeline) {
	p := &g.panels[s.panel]
	x := &g.products[s.product]
	r := rand.New(rand.NewPCG(s.hash, demoMix(s.hash^0x5851F42D4C957F2D)))

	raw := demoScale(x.baseRaw, p.info.levelBP)
	raw = demoScale(raw, g.regionBP(p.province, x))
	raw = demoScale(raw, 9750+r.Int64N(501))
	tl.lag = Date(r.IntN(22))
	tl.supply = x.events
	tl.endings, _ = p.info.endingSets()
	tl.promoE = p.info.promo
	if tl.promoE == nil {
		tl.promoE = demoPromoEndings
	}

	// The series' own changes: about one every two years, either way.
	tl.own = tl.own[:0]
	for t := g.start + Date(r.IntN(900)); t <= g.asOf; t += Date(300 + r.IntN(600)) {
		bp := 200 + r.Int64N(301)
		if r.IntN(2) == 0 {
			bp = -bp
		}
		tl.own = append(tl.own, demoEvent{t, bp})
	}

	// Flyer promotions: Thursday to Wednesday, 1-3 weeks, 10-40 % off, at
	// least a week apart; 8-17 % of the weeks start one.
	tl.promos = tl.promos[:0]
	propensity := 800 + r.IntN(901)
	thu := g.start - 21
	for thu.Weekday() != time.Thursday {
		thu++
	}
	for w := thu; w <= g.asOf; w += 7 {
		if r.IntN(10000) >= propensity {
			continue
		}
		weeks := 1
		switch n := r.IntN(100); {
		case n >= 92:
			weeks = 3
		case n >= 70:
			weeks = 2
		}
		disc := 1000 + (r.Int64N(3001)+r.Int64N(3001))/2
		end := w + Date(7*weeks) - 1
		tl.promos = append(tl.promos, demoPromo{w, end, disc})
		w = end + 1 // the loop adds a week of rest
	}
	tl.si, tl.oi, tl.pi = 0, 0, 0
	tl.raw, tl.rawReg, tl.regular = raw, -1, 0
}

// at returns the zone prices on day d; days must not decrease between
// calls. raw is the unrounded regular price (1/100 cent), reg the regular
// shelf price, price the shelf price and ends the promotion's last day (0
// when not on promotion).
func (tl *demoTimeline) at(d Date) (raw int64, reg, price int64, ends Date) {
	for ; tl.si < len(tl.supply) && tl.supply[tl.si].date+tl.lag <= d; tl.si++ {
		tl.raw = demoScale(tl.raw, 10000+tl.supply[tl.si].bp)
	}
	for ; tl.oi < len(tl.own) && tl.own[tl.oi].date <= d; tl.oi++ {
		tl.raw = demoScale(tl.raw, 10000+tl.own[tl.oi].bp)
	}
	if tl.raw != tl.rawReg {
		tl.rawReg, tl.regular = tl.raw, demoRetail(tl.raw, tl.endings)
	}
	reg = tl.regular
	for tl.pi < len(tl.promos) && tl.promos[tl.pi].to < d {
		tl.pi++
	}
	if tl.pi < len(tl.promos) && tl.promos[tl.pi].from <= d {
		pr := tl.promos[tl.pi]
		if p := demoPromoPrice(demoScale(tl.raw, 10000-pr.discBP), reg, tl.promoE); p < reg {
			return tl.raw, reg, p, pr.to
		}
	}
	return tl.raw, reg, reg, 0
}

// endingSets returns the cent endings of the banner's regular prices and
// of its off-zone stores.
func (b *demoBannerInfo) endingSets() (endings, alt []int64) {
	endings, alt = b.endings, b.alt
	if endings == nil {
		endings = demoEndings
	}
	if alt == nil {
		alt = demoAltEndings
	}
	return endings, alt
}

// regionBP is the price level of province for product x, per 10000 of
// Ontario; in the territories it varies by product.
func (g *Generator) regionBP(province string, x *demoProduct) int64 {
	for _, p := range demoProvinceTable {
		if p.code != province {
			continue
		}
		h := demoHash(g.seed, "region", x.item.GTIN, province)
		if p.spread > 0 {
			return p.levelBP + int64(h%uint64(p.spread+1))
		}
		return p.levelBP + int64(h%201) - 100
	}
	return 10000
}

// demoScale returns v*bp/10000, rounded half up.
func demoScale(v, bp int64) int64 { return (v*bp + 5000) / 10000 }

// demoRetail rounds raw (1/100 cent) to the nearest shelf price with one of
// the cent endings (under a dollar: any ending in 9).
func demoRetail(raw int64, endings []int64) int64 {
	if raw < 10000 {
		endings = demoCheapEndings
	}
	c, _ := demoNearest(raw, endings, 0)
	return c
}

// demoPromoPrice rounds raw to the nearest flyer price below reg, or
// returns reg if there is none.
func demoPromoPrice(raw int64, reg int64, endings []int64) int64 {
	if c, ok := demoNearest(raw, endings, reg); ok {
		return c
	}
	return reg
}

// demoNearest returns the price with one of the cent endings nearest to
// raw (1/100 cent), within a dollar either way and, when below is not 0,
// under below; ok is false when there is none.
func demoNearest(raw int64, endings []int64, below int64) (best int64, ok bool) {
	bestDiff := int64(-1)
	dollars := raw / 10000
	for d := max(dollars-1, 0); d <= dollars+1; d++ {
		for _, e := range endings {
			c := d*100 + e
			if c <= 0 || below != 0 && c >= below {
				continue
			}
			diff := c*100 - raw
			if diff < 0 {
				diff = -diff
			}
			if bestDiff < 0 || diff < bestDiff {
				best, bestDiff = c, diff
			}
		}
	}
	return best, bestDiff >= 0
}

// demoMix is the splitmix64 finaliser.
func demoMix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// demoHash hashes the seed and parts (FNV-1a, then mixed).
func demoHash(seed uint64, parts ...string) uint64 {
	h := uint64(14695981039346656037) ^ demoMix(seed)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= 1099511628211
		}
		h ^= 0xFF
		h *= 1099511628211
	}
	return demoMix(h)
}

// rng returns a random stream named by parts.
func (g *Generator) rng(parts ...string) *rand.Rand {
	h := demoHash(g.seed, parts...)
	return rand.New(rand.NewPCG(h, demoMix(h^0x2545F4914F6CDD1D)))
}

// --- stores ---

// buildStores seats the scale's stores in panels, places and numbers
// them, retires a few and sets each panel's visit days: the banner's two
// days a week, or every day.
func (g *Generator) buildStores(spec demoScaleSpec, infos map[string]*demoBannerInfo) {
	placed := g.placeStores(g.seatStores(spec, infos))
	g.numberStores(placed)
	g.indexStores(placed)
	g.retireStores()
	for i := range g.panels {
		p := &g.panels[i]
		for d := g.start; d <= g.asOf; d++ {
			if wd := d.Weekday(); spec.daily || wd == p.info.days[0] || wd == p.info.days[1] {
				p.days = append(p.days, d)
			}
		}
	}
}

// seatCand is a banner's panel in a province, with the stores it gets.
type seatCand struct {
	panel  demoPanel
	weight int64
	seats  int
	extra  bool // its one seat is there so that the province has a store
}

// seatStores returns every banner's panel in each of its provinces with
// its seats: the scale's minima, then Sainte-Laguë over panels weighted by
// the province's share and the banner's share in it; then one more in
// each province or territory that has none.
func (g *Generator) seatStores(spec demoScaleSpec, infos map[string]*demoBannerInfo) []seatCand {
	provWeight := map[string]int64{}
	bannerSum := map[string]int64{}
	for _, p := range demoProvinceTable {
		provWeight[p.code] = int64(p.weight)
	}
	for _, b := range g.banners {
		for _, p := range b.Provinces {
			bannerSum[p] += int64(infos[b.Slug].weight)
		}
	}
	var cands []seatCand
	for _, b := range g.banners {
		for _, p := range b.Provinces {
			w := int64(0)
			if bannerSum[p] > 0 {
				w = provWeight[p] * int64(infos[b.Slug].weight) * 1000 / bannerSum[p]
			}
			cands = append(cands, seatCand{panel: demoPanel{info: infos[b.Slug], banner: b, province: p}, weight: w})
		}
	}
	seated := 0
	for _, m := range spec.minima {
		for i := range cands {
			if cands[i].panel.banner.Slug == m.banner && cands[i].panel.province == m.province {
				cands[i].seats += m.stores
				seated += m.stores
			}
		}
	}
	for ; seated < spec.stores; seated++ {
		best := -1
		for i, c := range cands {
			if c.weight == 0 {
				continue
			}
			if best < 0 || c.weight*int64(2*cands[best].seats+1) > cands[best].weight*int64(2*c.seats+1) {
				best = i
			}
		}
		cands[best].seats++
	}
	for _, p := range demoProvinceTable {
		if best := unseated(cands, p.code); best >= 0 {
			cands[best].seats++
			cands[best].extra = true
		}
	}
	return cands
}

// unseated returns, when province has no store yet, the index of the
// panel there of the banner with most weight, else -1.
func unseated(cands []seatCand, province string) int {
	best := -1
	for i, c := range cands {
		if c.panel.province != province {
			continue
		}
		if c.seats > 0 {
			return -1
		}
		if best < 0 || c.weight > cands[best].weight {
			best = i
		}
	}
	return best
}

// placedStore is a store placed in its panel's province.
type placedStore struct {
	store Store
	panel int
	off   int64
	extra bool
}

// placeStores adds the panels with seats to g.panels and places their
// stores in the province's cities.
func (g *Generator) placeStores(cands []seatCand) []placedStore {
	var all []placedStore
	for ci := range cands {
		c := &cands[ci]
		if c.seats == 0 {
			continue
		}
		pi := len(g.panels)
		g.panels = append(g.panels, c.panel)
		p := &g.panels[pi]
		r := g.rng("stores", p.banner.Slug, p.province)
		used := map[string]bool{}
		for n := 0; n < c.seats; n++ {
			city, hood, fsas := g.pickSite(r, p, used)
			fsa := fsas[r.IntN(len(fsas))]
			all = append(all, placedStore{
				store: Store{
					Banner:     p.banner.Slug,
					BannerName: p.banner.Name,
					Province:   p.province,
					Name:       p.info.displayName(p.banner) + " " + hood,
					City:       city.name,
					PostalCode: fsa + " " + demoLDU(r, fsa),
					Latitude:   float64(city.lat+r.Int64N(2*city.jitter+1)-city.jitter) / 1e6,
					Longitude:  float64(city.lon+(r.Int64N(2*city.jitter+1)-city.jitter)*14/10) / 1e6,
					Active:     true,
				},
				panel: pi,
				off:   demoOffZone(r),
				extra: c.extra,
			})
		}
	}
	return all
}

// numberStores gives the stores their IDs (four digits, unique per
// banner) and sorts them by ID.
func (g *Generator) numberStores(all []placedStore) {
	numbers := map[string]map[int]bool{}
	for i := range all {
		s := &all[i].store
		if numbers[s.Banner] == nil {
			numbers[s.Banner] = map[int]bool{}
		}
		r := g.rng("number", s.Banner, s.Province, s.Name)
		n := 1000 + r.IntN(9000)
		for numbers[s.Banner][n] {
			n = 1000 + r.IntN(9000)
		}
		numbers[s.Banner][n] = true
		s.ID = fmt.Sprintf("%s-%s-%04d", g.panels[all[i].panel].info.idPrefix, strings.ToLower(s.Province), n)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].store.ID < all[j].store.ID })
}

// indexStores sets g's stores, in ID order, and their panels; the stores
// added so that a province has one are keyed after the others.
func (g *Generator) indexStores(all []placedStore) {
	g.stores = make([]Store, len(all))
	g.storeLast = make([]Date, len(all))
	g.storeOff = make([]int64, len(all))
	g.storeKey = make([]uint64, len(all))
	key := uint64(0)
	for i, b := range all {
		g.stores[i] = b.store
		g.storeLast[i] = g.asOf
		g.storeOff[i] = b.off
		g.panels[b.panel].stores = append(g.panels[b.panel].stores, i)
		if !b.extra {
			g.storeKey[i] = key
			key++
		}
	}
	for i, b := range all {
		if b.extra {
			g.storeKey[i] = key
			key++
		}
	}
}

// retireStores takes a few stores out of the panel: observed until 3-8
// weeks before asOf.
func (g *Generator) retireStores() {
	var cand []int
	for _, p := range g.panels {
		if len(p.stores) >= 2 && !demoTerritory(p.province) {
			cand = append(cand, p.stores...)
		}
	}
	sort.Ints(cand)
	r := g.rng("inactive")
	r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	want := max(2, (len(g.stores)*25+500)/1000)
	for _, st := range cand {
		if want == 0 {
			break
		}
		if g.activeInPanel(st) < 2 {
			continue
		}
		g.stores[st].Active = false
		g.storeLast[st] = g.asOf - Date(21+r.IntN(36))
		want--
	}
}

// activeInPanel counts the active stores of st's panel.
func (g *Generator) activeInPanel(st int) int {
	n := 0
	for _, p := range g.panels {
		for _, s := range p.stores {
			if s == st {
				for _, t := range p.stores {
					if g.stores[t].Active {
						n++
					}
				}
				return n
			}
		}
	}
	return n
}

func demoTerritory(p string) bool { return p == "YT" || p == "NT" || p == "NU" }

// displayName is the store name prefix of the banner.
func (b *demoBannerInfo) displayName(banner Banner) string {
	if b.storeName != "" {
		return b.storeName
	}
	return banner.Name
}

// pickSite chooses a city of the panel's province (the banner's preferred
// ones if it has any) and a neighbourhood the panel has no store in yet.
func (g *Generator) pickSite(r *rand.Rand, p *demoPanel, used map[string]bool) (*demoCity, string, []string) {
	var pref []string
	for _, part := range strings.Split(p.info.cities, ";") {
		if prov, list, ok := strings.Cut(part, ":"); ok && prov == p.province {
			pref = strings.Split(list, ",")
		}
	}
	type site struct {
		city *demoCity
		hood string
		fsas []string
	}
	for attempt := 0; ; attempt++ {
		var (
			sites   []site
			weights []int
			total   int
		)
		for i := range demoCityTable {
			c := &demoCityTable[i]
			if c.province != p.province {
				continue
			}
			w := c.weight
			if pref != nil && attempt == 0 {
				w = 0
				for _, name := range pref {
					if name == c.name {
						w = max(c.weight, 1)
					}
				}
			}
			for _, h := range strings.Split(c.hoods, "|") {
				name, fsas, _ := strings.Cut(h, ":")
				if w == 0 || used[c.name+"/"+name] && attempt < 2 {
					continue
				}
				sites = append(sites, site{c, name, strings.Fields(fsas)})
				weights = append(weights, w)
				total += w
			}
		}
		if len(sites) == 0 {
			// Every neighbourhood of the preferred cities (attempt 0) or
			// of the province (attempt 1) has a store: widen the choice.
			continue
		}
		n := r.IntN(total)
		i := 0
		for ; n >= weights[i]; i++ {
			n -= weights[i]
		}
		used[sites[i].city.name+"/"+sites[i].hood] = true
		return sites[i].city, sites[i].hood, sites[i].fsas
	}
}

// demoPostalLetters are the letters a postal code may use (no D F I O Q U).
const demoPostalLetters = "ABCEGHJKLMNPRSTVWXYZ"

// demoLDU returns the last three characters of a postal code in fsa.
func demoLDU(r *rand.Rand, fsa string) string {
	letter := demoPostalLetters[r.IntN(len(demoPostalLetters))]
	if fsa[1] == '0' { // rural
		return fmt.Sprintf("0%c0", letter)
	}
	return fmt.Sprintf("%d%c%d", r.IntN(10), letter, r.IntN(10))
}

// demoOffZone returns a store's off-zone price factor: most stores (0)
// charge the zone price; about one in seven differs by a few percent.
func demoOffZone(r *rand.Rand) int64 {
	switch n := r.IntN(100); {
	case n < 9:
		return 10200 + r.Int64N(401)
	case n < 15:
		return 9600 + r.Int64N(201)
	}
	return 0
}

// --- catalogue ---

// buildCatalogue builds the scale's products from the brand and line
// tables: their barcodes, base prices, supplier price changes, and the
// new and discontinued ones.
func (g *Generator) buildCatalogue(spec demoScaleSpec) error {
	brands, err := parseBrands()
	if err != nil {
		return err
	}
	universe, err := g.productUniverse(brands, spec.variants)
	if err != nil {
		return err
	}
	if err := g.addProducts(universe, pickProducts(universe, spec.products)); err != nil {
		return err
	}
	g.addSupplierChanges()
	g.setLifecycles(spec)
	return nil
}

// parseBrands reads demoBrandRows.
func parseBrands() (map[string]*demoBrand, error) {
	brands := map[string]*demoBrand{}
	for _, row := range demoBrandRows {
		f := strings.Split(row, "|")
		b := &demoBrand{name: f[0], prefix: f[1], owner: f[2]}
		if f[3] != "" {
			b.regions = strings.Fields(f[3])
		}
		level, err := strconv.ParseInt(f[4], 10, 64)
		if err != nil || len(f[1]) != 6 && len(f[1]) != 7 {
			return nil, fmt.Errorf("demo: bad brand row %q", row)
		}
		b.levelBP = level
		brands[b.name] = b
	}
	return brands, nil
}

// productCand is a product the catalogue may hold: an item of a line in
// one of the line's brands.
type productCand struct {
	line  int
	brand *demoBrand
	name  string
	base  string // the line item's name, which gives the product type
	item  string // a variant's item, as the universe keys it (brand|name|size); "" for an item
	qual  string // a variant's qualifiers, "Organic Lactose Free"; "" for an item or another pack size
	fr    string // the French name, "" when the table gives none
	size  string
	cents int64
	core  bool
	u     uint64 // the draw that orders the picks
}

// productUniverse returns every brand of a line in every item of it,
// once each, and with variants also their variants (variants.go): the
// items first, so that a table item keeps its key from a variant of
// another item that would have it ("Zero Sugar Cola" is both), and drawn
// before every variant.
func (g *Generator) productUniverse(brands map[string]*demoBrand, variants bool) ([]productCand, error) {
	var universe []productCand
	seen := map[string]bool{}
	add := func(c productCand) bool {
		key := c.brand.name + "|" + c.name + "|" + c.size
		if seen[key] {
			return false
		}
		seen[key] = true
		c.u = demoHash(g.seed, "pick", key)
		switch {
		case variants && c.item != "":
			c.u |= 1 << 63
		case variants:
			c.u &^= 1 << 63
		}
		universe = append(universe, c)
		return true
	}
	for li, line := range demoLineTable {
		for _, bn := range strings.Split(line.brands, ";") {
			b := brands[strings.TrimSpace(bn)]
			if b == nil {
				return nil, fmt.Errorf("demo: line %d names unknown brand %q", li, bn)
			}
			for _, it := range line.items {
				c, err := parseItem(it)
				if err != nil {
					return nil, err
				}
				c.line, c.brand, c.base = li, b, c.name
				add(c)
			}
		}
	}
	if !variants {
		return universe, nil
	}
	items := len(universe)
	for _, c := range universe[:items:items] {
		itemKey := c.brand.name + "|" + c.name + "|" + c.size
		for _, v := range productVariants(demoLineTable[c.line].category, c) {
			v.item = itemKey
			add(v)
		}
	}
	return universe, nil
}

// productType is the product type of c: its item's, with the qualifiers
// of a qualified variant ("organic 2% milk"), unless the table names the
// variant's type itself (Zero Sugar Cola, an item too, is diet cola).
func (c *productCand) productType() string {
	if c.qual == "" {
		return demoType(c.base)
	}
	if t, ok := demoTypes[c.name]; ok {
		return t
	}
	return strings.ToLower(c.qual) + " " + demoType(c.base)
}

// parseItem reads a line's item, "name|size|cents[*]|[French name]".
func parseItem(it string) (productCand, error) {
	f := strings.Split(it, "|")
	if len(f) != 3 && len(f) != 4 {
		return productCand{}, fmt.Errorf("demo: bad item %q", it)
	}
	c := productCand{name: f[0], size: f[1]}
	if len(f) == 4 {
		c.fr = f[3]
	}
	c.core = strings.HasSuffix(f[2], "*")
	cents, err := strconv.ParseInt(strings.TrimSuffix(f[2], "*"), 10, 64)
	if err != nil {
		return productCand{}, fmt.Errorf("demo: bad item %q", it)
	}
	c.cents = cents
	return c, nil
}

// pickProducts picks n of universe: one of each line, then the lowest
// draws.
func pickProducts(universe []productCand, n int) []bool {
	pick := make([]bool, len(universe))
	picked := 0
	firstOfLine := map[int]int{}
	for i, c := range universe {
		if j, ok := firstOfLine[c.line]; !ok || c.u < universe[j].u {
			firstOfLine[c.line] = i
		}
	}
	for _, i := range firstOfLine {
		pick[i] = true
		picked++
	}
	order := make([]int, len(universe))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return universe[order[a]].u < universe[order[b]].u })
	for _, i := range order {
		if picked >= n {
			break
		}
		if !pick[i] {
			pick[i] = true
			picked++
		}
	}
	return pick
}

// addProducts adds the picked products to g.products, with barcodes
// numbered per company prefix from a random start.
func (g *Generator) addProducts(universe []productCand, pick []bool) error {
	next := map[string]int{}
	items := map[string]int{} // a line item's universe key -> its index in g.products
	for i, c := range universe {
		if !pick[i] {
			continue
		}
		of := -1
		if c.item != "" {
			if j, ok := items[c.item]; ok {
				of = j
			}
		} else {
			items[c.brand.name+"|"+c.name+"|"+c.size] = len(g.products)
		}
		b := c.brand
		if _, ok := next[b.prefix]; !ok {
			next[b.prefix] = 10000 + g.rng("gtin", b.prefix).IntN(40000)
		}
		item := next[b.prefix]
		next[b.prefix] += 1 + int(demoHash(g.seed, "step", b.name, c.name, c.size)%29)
		body := fmt.Sprintf("%s%05d", b.prefix, item)
		code := body + string(gs1.CheckDigit(body))
		gtin := strings.Repeat("0", 14-len(code)) + code
		if gs1.Restricted(gtin) || len(code) < 12 || item > 99999 {
			return fmt.Errorf("demo: bad barcode %s for %s %s", code, b.name, c.name)
		}
		h := demoHash(g.seed, "product", string(gtin))
		pop := int64(3000 + h%14001)
		if c.core {
			pop = demoStaple
		}
		g.products = append(g.products, demoProduct{
			item: Product{
				GTIN:     gtin,
				Name:     c.name,
				NameFr:   c.fr,
				Brand:    b.name,
				Size:     c.size,
				Category: demoLineTable[c.line].category,
				Type:     c.productType(),
			},
			brand:   b,
			baseRaw: demoScale(c.cents*100*b.levelBP/10000, 9400+int64(h>>32%1201)),
			pop:     pop,
			first:   g.start,
			last:    g.asOf,
			of:      of,
			variant: c.item != "",
		})
	}
	return nil
}

// addSupplierChanges gives each product its supplier price changes: 1-2
// a year, mostly increases of 2-8 %.
func (g *Generator) addSupplierChanges() {
	for i := range g.products {
		x := &g.products[i]
		r := g.rng("supply", x.item.GTIN)
		for t := g.start + Date(r.IntN(240)); t <= g.asOf; t += Date(120 + r.IntN(240)) {
			bp := 200 + r.Int64N(601)
			if r.IntN(100) < 15 {
				bp = -(200 + r.Int64N(401))
			}
			x.events = append(x.events, demoEvent{t, bp})
		}
	}
}

// setLifecycles makes a few products new, first seen 7-20 days before
// asOf, and a few discontinued, last seen 5 weeks to 5 months before:
// national brands sold everywhere, so that somebody carries them.
func (g *Generator) setLifecycles(spec demoScaleSpec) {
	var pool []int
	for i, x := range g.products {
		if x.brand.owner == "" && x.brand.regions == nil && x.pop < demoStaple {
			pool = append(pool, i)
		}
	}
	r := g.rng("lifecycle")
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	nNew := max(3, len(g.products)/100)
	nOld := max(3, len(g.products)/150)
	span := min(150, spec.days-60)
	for k, i := range pool {
		switch {
		case k < nNew:
			g.products[i].first = g.asOf - Date(7+r.IntN(14))
		case k < nNew+nOld:
			g.products[i].last = g.asOf - Date(35+r.IntN(span-35+1))
		}
	}
}

// --- assortment and series ---

// buildSeries sets the series every panel prices, sorted by (banner, SKU,
// province), and the links of their SKUs.
func (g *Generator) buildSeries(spec demoScaleSpec) {
	numbers := g.skuNumbers()
	skus := map[skuKey]string{}          // by (banner, product): shared by the provinces
	home := make([]int, len(g.products)) // the first panel of each product, -1 while none
	for i := range home {
		home[i] = -1
	}
	add := func(pi, xi int) {
		p, x := &g.panels[pi], &g.products[xi]
		k := skuKey{p.banner.Slug, xi}
		sku, linked := skus[k]
		if !linked {
			sku = fmt.Sprintf(p.info.skuFormat, numbers[skuKey{p.info.skuGroup, xi}])
			skus[k] = sku
			g.links = append(g.links, Link{Banner: p.banner.Slug, ExternalSKU: sku, GTIN: x.item.GTIN})
		}
		if home[xi] < 0 {
			home[xi] = pi
		}
		g.series = append(g.series, g.newSeries(pi, xi, sku))
	}
	for pi := range g.panels {
		for xi := range g.products {
			if g.carries(spec, &g.panels[pi], &g.products[xi]) {
				add(pi, xi)
			}
		}
	}
	if spec.variants {
		// A national catalogue holds what the panel prices: a product
		// no banner's sample drew goes to one panel that may sell it, a
		// variant to a panel of its item (items come first).
		for xi := range g.products {
			if home[xi] >= 0 {
				continue
			}
			pi := -1
			if of := g.products[xi].of; of >= 0 {
				pi = home[of]
			}
			if pi < 0 {
				pi = g.soloPanel(xi)
			}
			if pi >= 0 {
				add(pi, xi)
			}
		}
	}
	sort.Slice(g.series, func(i, j int) bool {
		a, b := &g.series[i], &g.series[j]
		pa, pb := &g.panels[a.panel], &g.panels[b.panel]
		if pa.banner.Slug != pb.banner.Slug {
			return pa.banner.Slug < pb.banner.Slug
		}
		if a.sku != b.sku {
			return a.sku < b.sku
		}
		return pa.province < pb.province
	})
	sort.Slice(g.links, func(i, j int) bool {
		if g.links[i].Banner != g.links[j].Banner {
			return g.links[i].Banner < g.links[j].Banner
		}
		return g.links[i].ExternalSKU < g.links[j].ExternalSKU
	})
}

// skuKey is a product in a SKU group, or at a banner.
type skuKey struct {
	group   string
	product int
}

// skuNumbers returns the SKU number of every product in every SKU group:
// one per (group, product), from a random start.
func (g *Generator) skuNumbers() map[skuKey]int64 {
	numbers := map[skuKey]int64{}
	for _, info := range demoBannerTable {
		if _, ok := numbers[skuKey{info.skuGroup, 0}]; ok {
			continue
		}
		r := g.rng("sku", info.skuGroup)
		n := info.skuBase + r.Int64N(50000)
		for i := range g.products {
			numbers[skuKey{info.skuGroup, i}] = n
			n += 1 + r.Int64N(400)
		}
	}
	return numbers
}

// newSeries returns the series of product xi as sku in panel pi, its
// listing window the product's except for a few listings started or
// ended during the history.
func (g *Generator) newSeries(pi, xi int, sku string) demoSeries {
	p, x := &g.panels[pi], &g.products[xi]
	s := demoSeries{
		sku:     sku,
		panel:   pi,
		product: xi,
		first:   x.first,
		last:    x.last,
		hash:    demoHash(g.seed, "series", p.banner.Slug, sku, p.province),
	}
	switch h := demoMix(s.hash ^ 0xC2B2AE3D27D4EB4F); {
	case h%100 < 3 && x.first == g.start:
		s.first = g.start + 14 + Date(h>>8%uint64(max(1, int(g.asOf-g.start)-75)))
	case h%100 < 5 && x.last == g.asOf && x.first == g.start:
		s.last = g.start + 30 + Date(h>>8%uint64(max(1, int(g.asOf-g.start)-50)))
	}
	return s
}

// soloPanel returns a panel whose banner may sell product xi (its own
// private label, its brand's provinces), drawn by the product's barcode,
// or -1 if there is none.
func (g *Generator) soloPanel(xi int) int {
	x := &g.products[xi]
	var cands []int
	for pi := range g.panels {
		p := &g.panels[pi]
		if (x.brand.owner == "" || x.brand.owner == p.banner.Owner) && x.brand.soldIn(p.province) {
			cands = append(cands, pi)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	return cands[demoHash(g.seed, "solo", x.item.GTIN)%uint64(len(cands))]
}

// carries reports whether the panel's banner sells product x in the
// panel's province: private labels only at their owner's banners, regional
// brands only in their provinces, a variant only where its item sells, the
// rest by the banner's assortment depth and the product's popularity,
// with a little variation by province.
func (g *Generator) carries(spec demoScaleSpec, p *demoPanel, x *demoProduct) bool {
	if x.brand.owner != "" && x.brand.owner != p.banner.Owner {
		return false
	}
	if x.of >= 0 && !g.carries(spec, p, &g.products[x.of]) {
		return false // a shelf with organic milk has milk
	}
	if !x.brand.soldIn(p.province) {
		return false
	}
	prob := int64(p.info.depthBP) * x.pop / 10000 * int64(spec.depthBP) / 10000
	if x.brand.owner != "" {
		prob = prob * 3 / 2
	}
	prob = min(prob, 9500)
	gtin := x.item.GTIN
	if int64(demoHash(g.seed, "carry", p.banner.Slug, gtin)%10000) >= prob {
		return false
	}
	return x.pop >= demoStaple || demoHash(g.seed, "carry", p.banner.Slug, gtin, p.province)%100 < 92
}

// --- samples ---

// buildSamples picks the values README's examples and the tests use:
// in Ontario, a staple carried by several banners and one of its SKUs, a
// product not carried, an unknown barcode and a query with hits.
func (g *Generator) buildSamples() {
	on := g.scanSamples("ON")
	s := Samples{Province: on.province}
	best := g.mostCarried(on.current)
	s.CarriedGTIN = g.products[best].item.GTIN
	if !on.pickSKU(g, on.current[best], &s) {
		all := make([]int, 0, len(on.spans))
		for si := range on.spans {
			all = append(all, si)
		}
		sort.Ints(all)
		on.pickSKU(g, all, &s)
	}
	// A product known but not carried in ON now; preferably carried elsewhere.
	for pass := 0; pass < 2 && s.NotCarriedGTIN == ""; pass++ {
		for xi := range g.products {
			if len(on.current[xi]) == 0 && (pass == 1 || on.elsewhere[xi]) {
				s.NotCarriedGTIN = g.products[xi].item.GTIN
				break
			}
		}
	}
	s.UnknownGTIN = g.unknownGTIN(g.products[best].brand.prefix)
	s.Query = g.sampleQuery(on.current)
	g.samples = s
}

// sampleScan is where the series of a province and the products are
// observed.
type sampleScan struct {
	province  string
	fresh     Date                        // the first day an offer is current from
	spans     map[int]struct{ f, l Date } // the province's series -> observed span
	current   map[int][]int               // product -> the province's series current now
	elsewhere map[int]bool                // product -> current outside the province
}

// scanSamples returns the series' spans in province and where the
// products are current.
func (g *Generator) scanSamples(province string) *sampleScan {
	sc := &sampleScan{province: province, fresh: g.asOf - demoFresh + 1,
		spans: map[int]struct{ f, l Date }{}, current: map[int][]int{}, elsewhere: map[int]bool{}}
	for si := range g.series {
		sr := &g.series[si]
		p := &g.panels[sr.panel]
		if p.province != province && sc.elsewhere[sr.product] {
			continue
		}
		first, last, ok := g.seriesSpan(si)
		if !ok {
			continue
		}
		if p.province != province {
			if last >= sc.fresh {
				sc.elsewhere[sr.product] = true
			}
			continue
		}
		sc.spans[si] = struct{ f, l Date }{first, last}
		if last >= sc.fresh {
			sc.current[sr.product] = append(sc.current[sr.product], si)
		}
	}
	return sc
}

// mostCarried returns the staple with the most current banners in
// current (table order on ties), or any product if no staple has three.
func (g *Generator) mostCarried(current map[int][]int) int {
	best := -1
	for pass := 0; pass < 2 && (best < 0 || len(current[best]) < 3); pass++ {
		for xi := range g.products {
			x := &g.products[xi]
			if x.first > g.start || pass == 0 && x.pop < demoStaple {
				continue
			}
			if best < 0 || len(current[xi]) > len(current[best]) {
				best = xi
			}
		}
	}
	return best
}

// pickSKU sets s's SKU to one of cands current with at least 90 days of
// history, at a preferred banner if one is, and reports whether there was
// one.
func (sc *sampleScan) pickSKU(g *Generator, cands []int, s *Samples) bool {
	prefer := []string{"no-frills", "loblaws", "food-basics", "metro", "sobeys", "walmart"}
	for _, want := range append(prefer, "") {
		for _, si := range cands {
			sp, ok := sc.spans[si]
			slug := g.panels[g.series[si].panel].banner.Slug
			if ok && sp.f <= g.asOf-90 && sp.l >= sc.fresh && (want == "" || slug == want) {
				s.SKU, s.Banner = g.series[si].sku, slug
				return true
			}
		}
	}
	return false
}

// unknownGTIN returns a valid barcode of the company prefix that the
// catalogue lacks.
func (g *Generator) unknownGTIN(prefix string) string {
	known := map[string]bool{}
	for _, x := range g.products {
		known[x.item.GTIN] = true
	}
	r := g.rng("unknown")
	for {
		body := fmt.Sprintf("%s%05d", prefix, 10000+r.IntN(90000))
		code := body + string(gs1.CheckDigit(body))
		if gtin := strings.Repeat("0", 14-len(code)) + code; !known[gtin] {
			return gtin
		}
	}
}

// sampleQuery returns a query with several current hits in current, ""
// when none of the candidates has.
func (g *Generator) sampleQuery(current map[int][]int) string {
	for _, q := range []string{"milk", "cheese", "coffee", "chips", "bread", "juice"} {
		hits, products := 0, map[int]bool{}
		for xi, list := range current {
			x := &g.products[xi]
			if demoMatches(q, x.item.Name+" "+x.item.Brand) {
				hits += len(list)
				products[xi] = true
			}
		}
		if hits >= 5 && len(products) >= 3 {
			return q
		}
	}
	return ""
}

// demoMatches reports whether a token of text starts with query.
func demoMatches(query, text string) bool {
	for _, t := range textfold.Tokens(text) {
		if strings.HasPrefix(t, query) {
			return true
		}
	}
	return false
}
