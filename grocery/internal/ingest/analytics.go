package ingest

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// The analytics aggregates, kept by the writer in the import transaction
// (format version 7):
//
//   - category days (storage.CatDay): per province, category, banner and
//     day, every observation's price, unit price, store and promotion flag,
//     as multisets, and each SKU's daily price that day (inForceRun).
//     writeSorted adds each new observation and, for a corrected one,
//     takes the old out again, so they stay exact under re-imports and
//     corrections; the days a write changes, the stored days after them
//     that its observations can hold in force or that look back on them,
//     and the stored day after those (its link looks back however far),
//     get their daily price anew (dailyPrices). A day is
//     counted under the category of the SKU's barcode: when a product's
//     category or size, or a SKU's barcode, changes, regroupDays moves the
//     SKU's stored days to the category days (and unit prices) they now
//     belong to, before the write's own observations are merged.
//   - shelf (storage.Shelf): per banner SKU and province, the first and
//     last observation day, with the price on each.
//   - promotion events (storage.Promo): per banner SKU and province, each
//     run of observation days on promotion (a day counts when any store
//     saw a price under its regular price), ended by a day observed at the
//     regular price or by more than Rules.PromoGap days without an observation.
//     The writer derives them again from the stored days of each series it
//     wrote, from the start of the event its earliest new day may extend.

// seriesInfo is what the aggregates need of a banner SKU's product.
type seriesInfo struct {
	sku            string // the banner's SKU itself
	gtin, category string
	qty            float64 // units of its price basis (0: no unit price)
	basis          uint32  // Rules.Unit's code
}

// catDelta collects one category day's changes in a transaction.
type catDelta struct {
	add, remove []storage.CatObs
	skus        []storage.SKUDay // the daily prices of the SKUs whose day changed
}

// inForceRun gives a series' daily prices: fed its stored days oldest
// first, it keeps each store's latest observation, and day returns the
// banner SKU's price in force on a day (pricestat.InForceOn over every
// store whose price is in force then, not only those observed that day),
// in half-cents as the category days keep it, with what it looks back on
// (storage.Lookback): with whether a store in force on both its previous
// day and this one has a lower price in force now (Lookback.Fell), and
// the move of the stores in force on both (Lookback.Link, RegularLink).
// So a banner SKU's daily price moves only when a store's own price in
// force moves, or a store's observation enters or leaves the visit
// window, and Fell and the links tell the first from the second.
type inForceRun struct {
	window, lookback int32
	stores           []uint32 // storage.Entry.Store, sorted; obs in the same order
	obs              []pricestat.StoreObs
	buf              []uint32
	hist             []pastDay    // the daily prices of the lookback before the last day, oldest first
	last, cur        []storePrice // the stores' prices in force on the last day given and on this one, by store
}

// storePrice is a store's price and regular price in force on a day.
type storePrice struct {
	store, price, regular uint32
}

// pastDay is a daily price inForceRun looks back on.
type pastDay struct {
	day  int32
	p, r uint32
}

// reset starts a series, with window the visit window (Rules.FreshDays)
// and lookback the days a daily price looks back on (Rules.PriceLookback).
func (r *inForceRun) reset(window, lookback int32) {
	r.window, r.lookback = window, lookback
	r.stores, r.obs, r.hist, r.last = r.stores[:0], r.obs[:0], r.hist[:0], r.last[:0]
}

// add takes a day's entries as their stores' latest observations.
func (r *inForceRun) add(d *storage.Day) {
	for _, e := range d.Entries {
		o := pricestat.StoreObs{Date: d.Date, Price: e.Price, Regular: max(e.Regular, e.Price), PromoEnd: e.PromoEnd}
		i, found := slices.BinarySearch(r.stores, e.Store)
		if found {
			r.obs[i] = o
			continue
		}
		r.stores = slices.Insert(r.stores, i, e.Store)
		r.obs = slices.Insert(r.obs, i, o)
	}
}

// day returns sku's daily price on day, a day added last, after every
// stored day before it that is within the lookback. A store whose latest
// observation has left the window is dropped first.
func (r *inForceRun) day(sku string, day int32) storage.SKUDay {
	n := 0
	for i, o := range r.obs {
		if o.Date > day-r.window {
			r.stores[n], r.obs[n] = r.stores[i], o
			n++
		}
	}
	r.stores, r.obs = r.stores[:n], r.obs[:n]
	p := r.price(day)
	sd := storage.SKUDay{SKU: sku, Price: p.Price, Regular: p.Regular}
	k := 0
	for k < len(r.hist) && r.hist[k].day < day-r.lookback {
		k++
	}
	r.hist = append(r.hist[:0], r.hist[k:]...)
	for _, h := range r.hist {
		if sd.Low == 0 || h.p < sd.Low {
			sd.Low = h.p
		}
	}
	// Each store's price in force today against the last day's (both
	// lists by store, as r.stores is).
	r.cur = r.cur[:0]
	for i, o := range r.obs {
		if p, rp, _, in := pricestat.InForce(o.Date, o.Price, o.Regular, o.PromoEnd, day, r.window); in {
			r.cur = append(r.cur, storePrice{r.stores[i], p, rp})
		}
	}
	if n := len(r.hist); n > 0 {
		sd.PrevGap, sd.PrevRegular = uint32(day-r.hist[n-1].day), r.hist[n-1].r
	}
	// The matched stores: in force on the last day given (the previous
	// day with a daily price) and today.
	var matched int
	var lnP, lnR float64
	for i, j := 0, 0; i < len(r.last) && j < len(r.cur); {
		switch a, b := r.last[i], r.cur[j]; {
		case a.store < b.store:
			i++
		case a.store > b.store:
			j++
		default:
			sd.Fell = sd.Fell || b.price < a.price
			matched++
			if a.price != b.price {
				lnP += math.Log(float64(b.price) / float64(a.price))
			}
			if a.regular != b.regular {
				lnR += math.Log(float64(b.regular) / float64(a.regular))
			}
			i, j = i+1, j+1
		}
	}
	if len(r.hist) == 0 {
		sd.Fell = false // Fell looks back within the lookback only
	}
	if matched > 0 {
		sd.Link = int32(math.Round(storage.LinkScale * lnP / float64(matched)))
		sd.RegularLink = int32(math.Round(storage.LinkScale * lnR / float64(matched)))
	}
	r.last, r.cur = r.cur, r.last
	r.hist = append(r.hist, pastDay{day, sd.Price, sd.Regular})
	return sd
}

// price returns the series' daily price on day, a day added last, in
// half-cents: the price in force over the stores' latest observations
// (what day gives, without what it looks back on).
func (r *inForceRun) price(day int32) storage.DayPrice {
	bp, _, buf := pricestat.InForceOn(r.obs, day, r.window, r.buf)
	r.buf = buf
	return storage.DayPrice{Day: day, Price: 2 * bp.Price, Regular: 2 * bp.Regular}
}

// dailyPrices sets, in the category days' changes, the daily price of a
// series on each stored day from first to the last day that the
// observations of days first..last can hold in force or that looks back
// on their daily prices (last + window - 1 + lookback), and on the stored
// day after that. s holds the days from dailyFrom(first) on: the
// lookback's before first, and the window before it, which those depend
// on. A daily price's links (storage.Lookback.Link, RegularLink) look
// back to the series' previous day however far back, over the stores in
// force on it: when the lookback before first holds no day, the window
// before that previous day is read too (stored is the series' first day
// before the write, -1 when it had none); and the day after the last
// recomputed links to it.
func (w *writer) dailyPrices(key SeriesKey, in seriesInfo, first, last, stored int32, s *seriesDays) error {
	win, back := w.rules.FreshDays, w.rules.PriceLookback
	r := &w.run
	r.reset(win, back)
	start := w.dailyFrom(first)
	if stored >= 0 && stored < first-back && len(s.between(first-back, first-1)) == 0 {
		// The previous day is before the lookback.
		prev, err := s.dayBefore(w.tx, key, first-back)
		if err != nil {
			return err
		}
		if prev >= 0 {
			start = min(start, prev-win+1)
		}
	}
	add := func(d *storage.Day) {
		r.add(d)
		sd := r.day(in.sku, d.Date)
		if d.Date >= first {
			delta := w.catDelta(key, in, d.Date)
			delta.skus = append(delta.skus, sd)
		}
	}
	if start < s.from {
		err := w.tx.Series(key.Banner, key.SKU, key.Province, storage.SeriesScan{From: start, To: s.from - 1}, func(d *storage.Day) error {
			add(d)
			return nil
		})
		if err != nil {
			return err
		}
	}
	end := last + win - 1 + back
	days := s.between(start, end)
	for i := range days {
		add(&days[i])
	}
	if after := s.between(end+1, math.MaxInt32); len(after) > 0 {
		add(&after[0])
	}
	return nil
}

// dailyFrom is the first day the daily prices from first on read.
func (w *writer) dailyFrom(first int32) int32 {
	return first - w.rules.PriceLookback - w.rules.FreshDays + 1
}

// span is what a transaction wrote of a series: the first and last day
// it changed, and whether it changed any (a re-import of the same rows
// changes none, and its promotion events need no new derivation).
type span struct {
	first, last int32
	changed     bool
}

// analyticsState is the writer's share of the aggregates.
type analyticsState struct {
	info  map[string]seriesInfo // by banner 0x00 sku
	cats  map[storage.CatDayKey]*catDelta
	spans map[SeriesKey]span // days written per series
}

// infoOf is the seriesInfo of a banner's sku linked to gtin, whose
// product is p ("" and an empty product: no barcode or facts yet).
func (w *writer) infoOf(sku, gtin string, p *storage.Product) seriesInfo {
	in := seriesInfo{sku: sku, gtin: gtin, category: p.Category}
	in.qty, in.basis = w.rules.Unit(p.Size)
	return in
}

// bannerSKU names a banner's SKU in every province.
type bannerSKU struct{ banner, sku string }

// noteRegroup notes that the category days count a banner SKU's stored
// days as old says, before this write changes its product or barcode;
// the first note of a write stands.
func (w *writer) noteRegroup(k bannerSKU, old seriesInfo) {
	if w.regroup == nil {
		w.regroup = map[bannerSKU]seriesInfo{}
	}
	if _, ok := w.regroup[k]; !ok {
		w.regroup[k] = old
	}
}

// regroupDays moves the stored days of each banner SKU noted by
// noteRegroup, in every province, from the category days they were
// counted in (their observations, unit prices and daily price) to those
// of the product and barcode written now, when the category or the unit
// differs, and has the shelf record of each series name its new link. It
// runs before the write's observations are merged, so that those correct
// days already in their new place.
func (w *writer) regroupDays(ctx context.Context) error {
	keys := make([]bannerSKU, 0, len(w.regroup))
	for k := range w.regroup {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y bannerSKU) int { return cmp.Or(cmp.Compare(x.banner, y.banner), cmp.Compare(x.sku, y.sku)) })
	type move struct {
		date     int32
		old, cur []storage.CatObs
		day      storage.SKUDay
	}
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		old := w.regroup[k]
		cur, err := w.seriesInfo(SeriesKey{Banner: k.banner, SKU: k.sku})
		if err != nil {
			return err
		}
		same := old.category == cur.category && old.qty == cur.qty && old.basis == cur.basis
		for _, p := range w.rules.Provinces {
			var moves []move
			has := false
			run := &w.run
			run.reset(w.rules.FreshDays, w.rules.PriceLookback)
			if err := w.tx.Series(k.banner, k.sku, p, storage.SeriesScan{To: math.MaxInt32, SummaryOnly: same}, func(d *storage.Day) error {
				has = true
				if same {
					return storage.ErrStop // days there: the shelf's link is all that moves
				}
				m := move{date: d.Date}
				for i := range d.Entries {
					m.old = append(m.old, catObs(&d.Entries[i], &old))
					m.cur = append(m.cur, catObs(&d.Entries[i], &cur))
				}
				run.add(d)
				m.day = run.day(k.sku, d.Date)
				moves = append(moves, m)
				return nil
			}); err != nil {
				return err
			}
			if has {
				// Its shelf record names the product it is linked to
				// (promoBuilder.relinkShelf).
				w.noteWritten(SeriesKey{k.banner, k.sku, p})
			}
			for i := range moves {
				m := &moves[i]
				from := storage.CatDayKey{Province: p, Category: old.category, Banner: k.banner, Day: m.date}
				if err := w.tx.UpdateCatDay(&from, &storage.CatDayChange{Remove: m.old, DropSKUs: []string{k.sku}}); err != nil {
					return err
				}
				to := from
				to.Category = cur.category
				if err := w.tx.UpdateCatDay(&to, &storage.CatDayChange{Add: m.cur, SKUs: []storage.SKUDay{m.day}}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// seriesInfo returns the product facts of a banner SKU, read once per
// transaction.
func (w *writer) seriesInfo(key SeriesKey) (seriesInfo, error) {
	a := &w.analytics
	if a.info == nil {
		a.info, a.cats, a.spans = map[string]seriesInfo{}, map[storage.CatDayKey]*catDelta{}, map[SeriesKey]span{}
	}
	k := key.Banner + "\x00" + key.SKU
	if in, ok := a.info[k]; ok {
		return in, nil
	}
	in := seriesInfo{sku: key.SKU}
	var sku storage.SKU
	found, err := w.tx.SKU(key.Banner, key.SKU, &sku)
	if err != nil {
		return in, err
	}
	if found && sku.GTIN != "" {
		in.gtin = sku.GTIN
		var p storage.Product
		if found, err := w.tx.Product(sku.GTIN, &p); err != nil {
			return in, err
		} else if found {
			in.category = p.Category
			in.qty, in.basis = w.rules.Unit(p.Size)
		}
	}
	a.info[k] = in
	return in, nil
}

// noteWritten notes a series' day as written, unchanged.
func (w *writer) noteWritten(key SeriesKey) {
	a := &w.analytics
	if _, ok := a.spans[key]; !ok {
		a.spans[key] = span{}
	}
}

// noteChanged notes a series' day as written and changed.
func (w *writer) noteChanged(key SeriesKey, date int32) {
	a := &w.analytics
	switch sp := a.spans[key]; {
	case sp.changed:
		a.spans[key] = span{min(sp.first, date), max(sp.last, date), true}
	default:
		a.spans[key] = span{date, date, true}
	}
}

// catDelta returns the changes of the category day a series' day falls in.
func (w *writer) catDelta(key SeriesKey, in seriesInfo, date int32) *catDelta {
	a := &w.analytics
	k := storage.CatDayKey{Province: key.Province, Category: in.category, Banner: key.Banner, Day: date}
	d := a.cats[k]
	if d == nil {
		d = &catDelta{}
		a.cats[k] = d
	}
	return d
}

// catObs is an entry as the category aggregates count it.
func catObs(e *storage.Entry, in *seriesInfo) storage.CatObs {
	o := storage.CatObs{Store: e.Store, Price: e.Price, Promo: e.Price < e.Regular}
	if in.qty > 0 {
		u := pricestat.Cents(float64(e.Price) * 100 / in.qty)
		if u >= 1 && u < 1<<29 {
			o.Unit = uint32(u)<<2 | in.basis
		}
	}
	return o
}

// writeAnalytics writes the transaction's category-day changes in key
// order, then the promotion events and shelf records deriveSeries made.
func (w *writer) writeAnalytics() error {
	a := &w.analytics
	keys := make([]storage.CatDayKey, 0, len(a.cats))
	for k := range a.cats {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y storage.CatDayKey) int {
		return cmp.Or(cmp.Compare(x.Province, y.Province), cmp.Compare(x.Category, y.Category),
			cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.Day, y.Day))
	})
	for i := range keys {
		d := a.cats[keys[i]]
		if len(d.add) == 0 && len(d.remove) == 0 && len(d.skus) == 0 {
			continue
		}
		if err := w.tx.UpdateCatDay(&keys[i], &storage.CatDayChange{Add: d.add, Remove: d.remove, SKUs: d.skus}); err != nil {
			return err
		}
	}
	if err := w.tx.PutPromos(w.promos.out); err != nil {
		return err
	}
	w.promos.out = w.promos.out[:0]
	if err := w.promos.putShelves(w.tx); err != nil {
		return err
	}
	a.cats, a.spans = nil, nil
	a.info = nil
	return nil
}

// promoBuilder derives a series' promotion events and shelf record,
// reusing its buffers.
type promoBuilder struct {
	cur     storage.Promo
	open    bool
	lastDay int32
	regs    []uint32
	prices  []uint32
	stores  map[uint32]bool
	out     []storage.Promo // the events of every series derived, to write at the end
	shelves []shelfPut      // the shelf records likewise (putShelves)
	// charged is, per price, the last day before the current one on which
	// the series was observed at it on a day off promotion; offDay and
	// offPrice are the last such day and its most common price.
	charged  map[uint32]int32
	offDay   int32
	offPrice uint32
	meds     []dayMedian
	dayRegs  []uint32 // a day's regular prices, for its shelf record

	gap, lookback int32 // Rules.PromoGap and Rules.PriceLookback
}

type dayMedian struct {
	day int32
	med uint32
}

func (b *promoBuilder) close() {
	if !b.open {
		return
	}
	b.cur.Regular, _, _ = pricestat.Mode(b.regs)
	b.cur.Price, _, _ = pricestat.Mode(b.prices)
	b.cur.Stores = uint32(len(b.stores))
	if d, ok := b.charged[b.cur.Regular]; ok && d >= b.cur.Start-b.lookback {
		b.cur.Charged = d
	}
	if b.offDay != 0 && b.offDay >= b.cur.Start-b.lookback {
		b.cur.Before = b.offPrice
	}
	b.out = append(b.out, b.cur)
	b.open = false
}

// isPromoDay reports whether any store saw the SKU on promotion on d.
func isPromoDay(d *storage.Day) bool {
	for _, e := range d.Entries {
		if e.Price < e.Regular {
			return true
		}
	}
	return false
}

// offPromo notes the prices of d, a day no store saw the SKU on promotion.
func (b *promoBuilder) offPromo(d *storage.Day) {
	if len(d.Entries) == 0 {
		return
	}
	b.prices = b.prices[:0]
	for _, e := range d.Entries {
		b.charged[e.Price] = d.Date
		b.prices = append(b.prices, e.Price)
	}
	b.offDay = d.Date
	b.offPrice, _, _ = pricestat.Mode(b.prices)
}

func (b *promoBuilder) day(k SeriesKey, d *storage.Day) {
	promo := isPromoDay(d)
	if b.open && (!promo || d.Date-b.lastDay > b.gap) {
		b.close()
	}
	if !promo {
		b.offPromo(d)
		return
	}
	if !b.open {
		b.open = true
		b.cur = storage.Promo{Banner: k.Banner, SKU: k.SKU, Province: k.Province, Start: d.Date}
		b.regs, b.prices = b.regs[:0], b.prices[:0]
		clear(b.stores)
	}
	b.cur.End, b.lastDay = d.Date, d.Date
	b.cur.Days++
	for _, e := range d.Entries {
		if e.Price < e.Regular {
			b.regs = append(b.regs, e.Regular)
			b.prices = append(b.prices, e.Price)
			b.stores[e.Store] = true
		}
	}
}

// regularOf returns the most common regular price of d.
func (b *promoBuilder) regularOf(d *storage.Day) uint32 {
	if len(d.Entries) == 0 {
		return 0
	}
	regs := b.regs[:0]
	for _, e := range d.Entries {
		regs = append(regs, e.Regular)
	}
	r, _, _ := pricestat.Mode(regs)
	b.regs = regs[:0]
	return r
}

// lastRegularChange scans a series' days before 'to' and returns the last
// day whose most common regular price differs from the day before's,
// with that earlier price; 0, 0 when none.
func (b *promoBuilder) lastRegularChange(tx *storage.Tx, k SeriesKey, to int32) (int32, uint32, error) {
	var day int32
	var prevReg, before uint32
	have := false
	err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{From: math.MinInt32, To: to}, func(d *storage.Day) error {
		r := b.regularOf(d)
		if have && r != prevReg {
			day, before = d.Date, prevReg
		}
		prevReg, have = r, true
		return nil
	})
	return day, before, err
}

// start begins the derivation of series k's promotion events and shelf
// record for its written days sp: it finds the earliest event they may
// change, deletes the stored events from its start, and sets in sc what
// derive needs, with sc.readFrom, the first day derive reads:
// Rules.PriceLookback days before the first event it rewrites (for the
// prices charged before each event and the lowest price before the last
// day).
func (b *promoBuilder) start(tx *storage.Tx, k SeriesKey, sp span, sc *shelfScan) error {
	if b.stores == nil {
		b.stores, b.charged = map[uint32]bool{}, map[uint32]int32{}
	}
	from := sp.first
	var prev storage.Promo
	if found, err := tx.LastPromoBefore(k.Banner, k.SKU, k.Province, sp.first, &prev); err != nil {
		return err
	} else if found && prev.End+b.gap >= sp.first {
		from = prev.Start
	}
	*sc = shelfScan{b: b, k: k, from: from, first: sp.first, readFrom: from - b.lookback}
	found, err := tx.Shelf(k.Province, k.Banner, k.SKU, &sc.shelf)
	if err != nil {
		return err
	}
	sc.found, sc.old = found, sc.shelf
	if found && sc.shelf.First < sc.first {
		sc.first = sc.shelf.First
	} else {
		sc.shelf.First, sc.shelf.FirstPrice, sc.shelf.FirstStores = sc.first, 0, 0
	}
	return tx.DeletePromosFrom(k.Banner, k.SKU, k.Province, from)
}

// derive rewrites the promotion events of sc's series (start) from s, its
// days from sc.readFrom or before, and its shelf record. It needs the
// observation day before sc.readFrom too (for the day the regular price
// last changed), and reads it when s does not hold it; a correction that
// takes away the stored change reads the whole series.
func (b *promoBuilder) derive(tx *storage.Tx, in seriesInfo, sc *shelfScan, s *seriesDays) error {
	k, old, found := sc.k, sc.old, sc.found
	if found && old.First < sc.readFrom {
		// The regular price of the observation day before readFrom.
		if before := s.between(s.from, sc.readFrom-1); len(before) > 0 {
			sc.prevReg, sc.haveReg = b.regularOf(&before[len(before)-1]), true
		} else {
			err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{From: math.MinInt32, To: sc.readFrom - 1, NewestFirst: true}, func(d *storage.Day) error {
				sc.prevReg, sc.haveReg = b.regularOf(d), true
				return storage.ErrStop
			})
			if err != nil {
				return err
			}
		}
	}
	b.open = false
	clear(b.charged)
	b.offDay, b.offPrice, b.meds = 0, 0, b.meds[:0]
	days := s.between(sc.readFrom, math.MaxInt32)
	for i := range days {
		sc.day(&days[i])
	}
	b.close()
	shelf := &sc.shelf
	switch {
	case sc.changeDay != 0:
		shelf.RegularSince, shelf.PrevRegular = sc.changeDay, sc.changePrev
	case found && old.RegularSince != 0 && old.RegularSince < sc.firstRead:
		// The last change is before the days read, which did not change.
		shelf.RegularSince, shelf.PrevRegular = old.RegularSince, old.PrevRegular
	case found && old.RegularSince != 0:
		// A correction took the stored change away: find the one before.
		var err error
		if shelf.RegularSince, shelf.PrevRegular, err = b.lastRegularChange(tx, k, sc.firstRead); err != nil {
			return err
		}
	default:
		shelf.RegularSince, shelf.PrevRegular = 0, 0
	}
	shelf.Min30 = b.lowBefore(shelf.Last)
	shelf.Banner, shelf.SKU, shelf.GTIN, shelf.Category = k.Banner, k.SKU, in.gtin, in.category
	b.shelves = append(b.shelves, shelfPut{k.Province, *shelf})
	return nil
}

// relinkShelf sets the product and category of series k's shelf record
// to in's, when it has one: the days are the same, the events stand.
func (b *promoBuilder) relinkShelf(tx *storage.Tx, k SeriesKey, in seriesInfo) error {
	var shelf storage.Shelf
	found, err := tx.Shelf(k.Province, k.Banner, k.SKU, &shelf)
	if err != nil || !found || (shelf.GTIN == in.gtin && shelf.Category == in.category) {
		return err
	}
	shelf.GTIN, shelf.Category = in.gtin, in.category
	b.shelves = append(b.shelves, shelfPut{k.Province, shelf})
	return nil
}

// shelfPut is a shelf record to write, and its province.
type shelfPut struct {
	province string
	shelf    storage.Shelf
}

// putShelves writes the shelf records derive made, in key order
// (province, banner, SKU). Series come in (banner, SKU, province) order:
// written as they came, each record of a new province went into the
// middle of a leaf that bbolt splits only at the commit, moving the rest
// of it (27% of the CPU of a batch of 100,000 new series).
func (b *promoBuilder) putShelves(tx *storage.Tx) error {
	slices.SortFunc(b.shelves, func(x, y shelfPut) int {
		return cmp.Or(cmp.Compare(x.province, y.province), cmp.Compare(x.shelf.Banner, y.shelf.Banner), cmp.Compare(x.shelf.SKU, y.shelf.SKU))
	})
	for i := range b.shelves {
		if err := tx.PutShelf(b.shelves[i].province, &b.shelves[i].shelf); err != nil {
			return err
		}
	}
	b.shelves = b.shelves[:0]
	return nil
}

// shelfScan takes a series' days in order for derive: the promotion
// events from 'from' on, and the shelf record.
type shelfScan struct {
	b           *promoBuilder
	k           SeriesKey
	from, first int32 // the first day of events rewritten, and of the shelf record
	readFrom    int32 // the first day read: the lookback before from
	shelf       storage.Shelf
	old         storage.Shelf // the stored shelf record, when found
	found       bool
	// The last regular price read (haveReg when there is one), and the
	// last day it changed, from changePrev.
	prevReg, changePrev uint32
	haveReg             bool
	changeDay           int32
	firstRead           int32
}

func (sc *shelfScan) day(d *storage.Day) {
	b, shelf := sc.b, &sc.shelf
	if sc.firstRead == 0 {
		sc.firstRead = d.Date
	}
	if d.Date == sc.first {
		shelf.FirstPrice, shelf.FirstStores = d.Median, d.Count
	}
	if d.Date >= sc.from {
		b.day(sc.k, d)
	} else if !isPromoDay(d) {
		b.offPromo(d)
	}
	b.meds = append(b.meds, dayMedian{d.Date, d.Median})
	shelf.Last, shelf.LastPrice = d.Date, d.Median
	regs := b.dayRegs[:0]
	shelf.LastPromoStores = 0
	for _, e := range d.Entries {
		regs = append(regs, e.Regular)
		if e.Price < e.Regular {
			shelf.LastPromoStores++
		}
	}
	shelf.LastRegular, _, _ = pricestat.Mode(regs)
	b.dayRegs = regs
	if sc.haveReg && shelf.LastRegular != sc.prevReg {
		sc.changeDay, sc.changePrev = d.Date, sc.prevReg
	}
	sc.prevReg, sc.haveReg = shelf.LastRegular, true
}

// lowBefore returns the lowest daily median of b.meds in the lookback
// days before last, 0 when there is none.
func (b *promoBuilder) lowBefore(last int32) uint32 {
	low := uint32(0)
	for _, m := range b.meds {
		if m.day >= last-b.lookback && m.day < last && (low == 0 || m.med < low) {
			low = m.med
		}
	}
	return low
}

// RederiveAnalytics clears the analytics aggregates in the transaction tx
// and derives them again from every stored series, as a write derives
// them from the days it writes.
func RederiveAnalytics(ctx context.Context, tx *storage.Tx, rules *Rules) error {
	w := newWriter(tx, rules, nil)
	if err := w.rederiveAnalytics(ctx, nil); err != nil {
		return err
	}
	return w.writeAnalytics()
}

// RederiveAll derives again, in the transaction tx, the analytics
// aggregates (RederiveAnalytics) and every offer.
func RederiveAll(ctx context.Context, tx *storage.Tx, rules *Rules) error {
	w := newWriter(tx, rules, nil)
	if err := w.rederiveAnalytics(ctx, func(k SeriesKey) { w.touched[k] = struct{}{} }); err != nil {
		return err
	}
	if err := w.writeAnalytics(); err != nil {
		return err
	}
	if err := tx.ClearOffers(); err != nil {
		return err
	}
	return w.putOffers(ctx)
}

// rederiveAnalytics clears the analytics aggregates and derives them
// again from every stored series, as the import derives them from the
// days it writes, for writeAnalytics to write; with the offers of the
// series touch is called with (when not nil) on the data set's latest
// day, for putOffers. It sets each day's daily price as it reads the
// days (deriveSeries does the rest).
func (w *writer) rederiveAnalytics(ctx context.Context, touch func(k SeriesKey)) error {
	if err := w.tx.ClearAnalytics(); err != nil {
		return err
	}
	f := &storage.SeriesFilter{From: math.MinInt32, To: math.MaxInt32}
	var in seriesInfo
	var cur SeriesKey
	_, err := w.tx.ScanSeries(nil, f, func(ref *storage.SeriesRef) (bool, error) {
		cur = SeriesKey{Banner: ref.Banner, SKU: ref.SKU, Province: ref.Province}
		if touch != nil {
			touch(cur)
		}
		w.run.reset(w.rules.FreshDays, w.rules.PriceLookback)
		var err error
		in, err = w.seriesInfo(cur)
		return true, err
	}, func(_ *storage.SeriesRef, b *storage.Block) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := range b.Days {
			d := &b.Days[i]
			w.noteChanged(cur, d.Date) // every day is written anew
			delta := w.catDelta(cur, in, d.Date)
			for j := range d.Entries {
				delta.add = append(delta.add, catObs(&d.Entries[j], &in))
			}
			w.run.add(d)
			delta.skus = append(delta.skus, w.run.day(cur.SKU, d.Date))
		}
		return nil
	})
	if err != nil {
		return err
	}
	w.pricesSet = true
	return w.deriveSeries(ctx, w.tx.AsOf())
}
