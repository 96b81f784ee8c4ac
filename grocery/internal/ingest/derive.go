package ingest

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// What a write derives from each series it wrote or whose offer expired:
// the daily prices of the days it changed and of the days after them that
// look back on those (dailyPrices), its promotion events and shelf record
// (promoBuilder), and its offer (offerCalc). Each comes from the series'
// stored days; deriveSeries reads the days they need together once, series
// by series in key order, and hands the same decoded days to each.

// seriesDays holds a series' stored days from a first day to its newest,
// read once, their entries in one slab.
type seriesDays struct {
	from    int32 // the first day read
	days    []storage.Day
	offs    []int // where each day's entries start in entries
	entries []storage.Entry
}

// read reads series k's days from 'from' on, in place of those held.
func (s *seriesDays) read(tx *storage.Tx, k SeriesKey, from int32) error {
	s.from = from
	s.days, s.offs, s.entries = s.days[:0], s.offs[:0], s.entries[:0]
	err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{From: from, To: math.MaxInt32}, func(d *storage.Day) error {
		s.offs = append(s.offs, len(s.entries))
		s.entries = append(s.entries, d.Entries...)
		s.days = append(s.days, *d)
		return nil
	})
	if err != nil {
		return err
	}
	s.offs = append(s.offs, len(s.entries))
	for i := range s.days {
		s.days[i].Entries = s.entries[s.offs[i]:s.offs[i+1]:s.offs[i+1]]
	}
	return nil
}

// between returns the days held from 'from' to 'to', inclusive.
func (s *seriesDays) between(from, to int32) []storage.Day {
	byDate := func(d storage.Day, day int32) int { return cmp.Compare(d.Date, day) }
	i, _ := slices.BinarySearchFunc(s.days, from, byDate)
	j := len(s.days)
	if to < math.MaxInt32 {
		j, _ = slices.BinarySearchFunc(s.days, to+1, byDate)
	}
	return s.days[i:max(i, j)]
}

// dayBefore returns the series' newest stored day before 'before', from
// the days held or else read back; -1 when there is none.
func (s *seriesDays) dayBefore(tx *storage.Tx, k SeriesKey, before int32) (int32, error) {
	if held := s.between(s.from, before-1); len(held) > 0 {
		return held[len(held)-1].Date, nil
	}
	prev := int32(-1)
	err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{To: before - 1, NewestFirst: true}, func(d *storage.Day) error {
		prev = d.Date
		return storage.ErrStop
	})
	return prev, err
}

// offerPut is an offer to write, and where it is filed.
type offerPut struct {
	province, gtin string
	offer          storage.Offer
}

// deriveSeries derives, series by series in key order, what depends on the
// days written (the spans) and the offers of the touched series on asOf,
// from one read of each series' days. The daily prices go into the
// category days' changes, the promotion events and shelf records into
// w.promos, the offers into w.offers, for writeAnalytics and putOffers to
// write in their keys' order.
func (w *writer) deriveSeries(ctx context.Context, asOf int32) error {
	gtins, err := w.offerBarcodes()
	if err != nil {
		return err
	}
	a := &w.analytics
	keys := make([]SeriesKey, 0, max(len(gtins), len(a.spans)))
	for k := range gtins {
		keys = append(keys, k)
	}
	for k := range a.spans {
		if _, ok := gtins[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y SeriesKey) int {
		return cmp.Or(cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU), cmp.Compare(x.Province, y.Province))
	})
	dv := derivation{calc: offerCalc{fresh: w.rules.FreshDays}}
	for i, k := range keys {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		gtin, offer := gtins[k]
		if err := w.deriveOne(&dv, k, gtin, offer, asOf); err != nil {
			return err
		}
	}
	return nil
}

// derivation is deriveSeries' state, reused from series to series.
type derivation struct {
	calc offerCalc
	days seriesDays
	sc   shelfScan
}

// deriveOne derives what deriveSeries derives of series k, and its offer
// filed under gtin when offer is true.
func (w *writer) deriveOne(dv *derivation, k SeriesKey, gtin string, offer bool, asOf int32) error {
	sp, written := w.analytics.spans[k]
	var in seriesInfo
	if written {
		var err error
		if in, err = w.seriesInfo(k); err != nil {
			return err
		}
	}
	if written && !sp.changed {
		if err := w.promos.relinkShelf(w.tx, k, in); err != nil {
			return err
		}
	}
	// The first day each figure reads.
	from := int32(math.MaxInt32)
	if offer {
		from = dv.calc.firstRead(asOf)
	}
	if sp.changed {
		if err := w.promos.start(w.tx, k, sp, &dv.sc); err != nil {
			return err
		}
		from = min(from, dv.sc.readFrom)
		if !w.pricesSet {
			from = min(from, w.dailyFrom(sp.first))
		}
	}
	if from == math.MaxInt32 {
		return nil
	}
	if err := dv.days.read(w.tx, k, from); err != nil {
		return err
	}
	if sp.changed {
		if err := w.promos.derive(w.tx, in, &dv.sc, &dv.days); err != nil {
			return err
		}
		if !w.pricesSet {
			stored := int32(-1)
			if dv.sc.found {
				stored = dv.sc.old.First
			}
			if err := w.dailyPrices(k, in, sp.first, sp.last, stored, &dv.days); err != nil {
				return err
			}
		}
	}
	if !offer {
		return nil
	}
	// Last: an offer summarised on an older day reads days anew.
	o, ok, err := dv.calc.offer(w.tx, k, asOf, &dv.days)
	if ok {
		w.offers = append(w.offers, offerPut{k.Province, gtin, o})
	}
	return err
}

// offerBarcodes returns the barcode of each touched series that has one,
// whose offer is derived; it indexes for search, in the province, each
// touched series' banner SKU sold under no barcode (skuTokens).
func (w *writer) offerBarcodes() (map[SeriesKey]string, error) {
	gtins := make(map[SeriesKey]string, len(w.touched))
	var sku storage.SKU
	var unlinked tokenPuts
	for k := range w.touched {
		found, err := w.tx.SKU(k.Banner, k.SKU, &sku)
		if err != nil {
			return nil, err
		}
		if found && sku.GTIN != "" {
			gtins[k] = sku.GTIN
		} else if found && sku.Name+sku.Brand != "" {
			if err := w.skuTokens(&unlinked, k.Province, &sku); err != nil {
				return nil, err
			}
		}
	}
	if err := w.retokenSKUs(&unlinked); err != nil {
		return nil, err
	}
	return gtins, unlinked.write(w.tx)
}

// putOffers writes the offers deriveSeries made, in offer-key order
// (province, GTIN, banner, SKU) so that the puts append, leaving an offer
// that did not change as it is.
func (w *writer) putOffers(ctx context.Context) error {
	slices.SortFunc(w.offers, func(x, y offerPut) int {
		return cmp.Or(cmp.Compare(x.province, y.province), cmp.Compare(x.gtin, y.gtin),
			cmp.Compare(x.offer.Banner, y.offer.Banner), cmp.Compare(x.offer.SKU, y.offer.SKU))
	})
	var toks tokenPuts
	var old storage.Offer
	for i := range w.offers {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p := &w.offers[i]
		found, err := w.tx.Offer(p.province, p.gtin, p.offer.Banner, p.offer.SKU, &old)
		if err != nil {
			return err
		}
		if found && old == p.offer {
			continue // a re-import: leave the page clean
		}
		if err := w.tx.PutOffer(p.province, p.gtin, &p.offer); err != nil {
			return err
		}
		// A new offer may be the product's first in the province: index
		// its words there (an existing offer's product is indexed already;
		// renames are handled by rebuildTokens).
		if !found && (len(toks) == 0 || toks[len(toks)-1].province != p.province || toks[len(toks)-1].gtin != p.gtin) {
			if err := toks.add(w.tx, p.province, p.gtin); err != nil {
				return err
			}
		}
	}
	w.offers = w.offers[:0]
	return toks.write(w.tx)
}

// offerCalc computes offers, reusing its buffers across calls.
type offerCalc struct {
	fresh  int32 // Rules.FreshDays
	follow pricestat.Follow
	window pricestat.Window
	run    inForceRun // the daily prices of the weekly prices, as the category days have them
}

// firstRead is the first day an offer on asOf reads: the first day of
// its verdict's window, less the visit window before it.
func (c *offerCalc) firstRead(day int32) int32 {
	return day - pricestat.TypicalDays + 1 - c.fresh + 1
}

// offer computes the series' offer on day asOf from s, its days from
// firstRead(asOf) or before: its price in force over its stores' latest
// observations (pricestat.InForceOn), with the figures of its verdict
// (pricestat.Window) from its prices in force on the days before. A
// series none of whose stores is in force on asOf is summarised on its
// newest day instead (for what a banner priced before), reading the days
// that needs into s, and does not expire. A current offer expires on the
// first day its price in force or its verdict's figures can change
// without a new observation.
func (c *offerCalc) offer(tx *storage.Tx, k SeriesKey, asOf int32, s *seriesDays) (storage.Offer, bool, error) {
	newest := int32(-1)
	if n := len(s.days); n > 0 {
		newest = s.days[n-1].Date
	} else {
		err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{To: math.MaxInt32, NewestFirst: true}, func(d *storage.Day) error {
			newest = d.Date
			return storage.ErrStop
		})
		if err != nil || newest < 0 {
			return storage.Offer{}, false, err
		}
	}
	day := asOf
	if newest <= asOf-c.fresh {
		day = newest
	}
	if from := c.firstRead(day); from < s.from {
		if err := s.read(tx, k, from); err != nil {
			return storage.Offer{}, false, err
		}
	}
	// Every day of the verdict's window, from the observations that can
	// be in force on its first day.
	first := day - pricestat.TypicalDays + 1
	c.follow.Reset()
	c.window.Clear()
	next := first
	fill := func(through int32) {
		for ; next <= through; next++ {
			if bp, ok := c.follow.On(next, c.fresh); ok {
				c.window.Set(int(next-first), bp.Price, bp.Regular)
			}
		}
	}
	// The weekly prices: the daily prices (inForceRun's, as the category
	// days keep them) of the newest day and of the last day of the week
	// before its week.
	var daily, weekBefore storage.DayPrice
	weekStart := storage.WeekOf(newest)
	c.run.reset(c.fresh, 0)
	days := s.between(c.firstRead(day), day)
	for i := range days {
		d := &days[i]
		fill(d.Date - 1)
		for _, e := range d.Entries {
			c.follow.Observe(e.Store, pricestat.StoreObs{Date: d.Date, Price: e.Price, Regular: e.Regular, PromoEnd: e.PromoEnd})
		}
		c.run.add(d)
		switch {
		case d.Date == newest:
			daily = c.run.price(d.Date)
		case d.Date >= weekStart-7 && d.Date < weekStart:
			weekBefore = c.run.price(d.Date)
		}
	}
	fill(day)
	bp, _ := c.follow.On(day, c.fresh)
	o := storage.Offer{Banner: k.Banner, SKU: k.SKU, Price: bp.Price, Regular: bp.Regular, Min: bp.Min, Max: bp.Max,
		PromoEnd: bp.PromoEnd, PromoEnded: bp.PromoEnded, StoreCount: uint32(bp.Stores), ObservedAt: newest,
		Daily: daily, WeekBefore: weekBefore}
	o.Low30, o.Typical = c.window.Figures()
	if day == asOf {
		// The figures may move before the price does: the days before
		// Expires all have this price in force.
		limit := pricestat.TypicalDays
		if bp.Expires != 0 {
			limit = min(limit, int(bp.Expires-day-1))
		}
		o.Expires = bp.Expires
		if k := c.window.Changes(bp.Price, bp.Regular, limit); k != 0 {
			o.Expires = day + int32(k)
		}
	}
	return o, true, nil
}
