package grocery

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/grocerydata/grocery/storage"
)

// The analytics aggregates, kept by the writer in the import transaction
// (format version 3):
//
//   - category days (storage.CatDay): per province, category, banner and
//     day, every observation's price, unit price, store and promotion flag,
//     as multisets. writeSorted adds each new observation and, for a
//     corrected one, takes the old out again, so they stay exact under
//     re-imports and corrections. The category is the one the SKU's
//     barcode had when the observation was written: a later change of a
//     product's category or of a SKU's barcode does not move observations
//     already counted (rebuild the file to regroup them).
//   - shelf (storage.Shelf): per banner SKU and province, the first and
//     last observation day, with the price on each.
//   - promotion events (storage.Promo): per banner SKU and province, each
//     run of observation days on promotion (a day counts when any store
//     saw a price under its regular price), ended by a day observed at the
//     regular price or by more than promoGap days without an observation.
//     The writer derives them again from the stored days of each series it
//     wrote, from the start of the event its earliest new day may extend.

// promoGap is the most days between two observation days of one
// promotion event.
const promoGap = 7

// unitBasisCode numbers the unit-price bases in storage.CatObs.Unit.
var unitBasisCode = map[string]uint32{"per 100 g": 1, "per 100 mL": 2, "per unit": 3}

var unitBasisName = [4]string{"", "per 100 g", "per 100 mL", "per unit"}

// seriesInfo is what the aggregates need of a banner SKU's product.
type seriesInfo struct {
	gtin, category string
	qty            float64 // units of its price basis (0: no unit price)
	basis          uint32  // unitBasisCode
}

// catDelta collects one category day's changes in a transaction.
type catDelta struct {
	add, remove []storage.CatObs
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
	spans map[seriesKey]span // days written per series
}

// seriesInfo returns the product facts of a banner SKU, read once per
// transaction.
func (w *writer) seriesInfo(key seriesKey) (seriesInfo, error) {
	a := &w.analytics
	if a.info == nil {
		a.info, a.cats, a.spans = map[string]seriesInfo{}, map[storage.CatDayKey]*catDelta{}, map[seriesKey]span{}
	}
	k := key.banner + "\x00" + key.sku
	if in, ok := a.info[k]; ok {
		return in, nil
	}
	var in seriesInfo
	var sku storage.SKU
	found, err := w.tx.SKU(key.banner, key.sku, &sku)
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
			var basis string
			if in.qty, basis = unitOf(p.Size); in.qty > 0 {
				in.basis = unitBasisCode[basis]
			}
		}
	}
	a.info[k] = in
	return in, nil
}

// noteDay notes a series' day as written, and as changed when it is.
func (w *writer) noteDay(key seriesKey, date int32, changed bool) {
	a := &w.analytics
	sp, ok := a.spans[key]
	switch {
	case !changed:
		if !ok {
			a.spans[key] = span{}
		}
	case sp.changed:
		a.spans[key] = span{min(sp.first, date), max(sp.last, date), true}
	default:
		a.spans[key] = span{date, date, true}
	}
}

// catDelta returns the changes of the category day a series' day falls in.
func (w *writer) catDelta(key seriesKey, in seriesInfo, date int32) *catDelta {
	a := &w.analytics
	k := storage.CatDayKey{Province: key.province, Category: in.category, Banner: key.banner, Day: date}
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
		u := math.Round(float64(e.Price) * 100 / in.qty)
		if u >= 1 && u < 1<<29 {
			o.Unit = uint32(u)<<2 | in.basis
		}
	}
	return o
}

// unitValue splits a storage.CatObs.Unit into cents per basis unit and
// its basis.
func unitValue(u uint32) (float64, string) {
	return float64(u>>2) / 100, unitBasisName[u&3]
}

// writeAnalytics writes the transaction's category-day changes in key
// order, then derives the shelf and promotion events of each series
// written.
func (w *writer) writeAnalytics(ctx context.Context) error {
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
		if len(d.add) == 0 && len(d.remove) == 0 {
			continue
		}
		if err := w.tx.UpdateCatDay(&keys[i], d.add, d.remove); err != nil {
			return err
		}
	}
	series := make([]seriesKey, 0, len(a.spans))
	for k := range a.spans {
		series = append(series, k)
	}
	slices.SortFunc(series, func(x, y seriesKey) int {
		return cmp.Or(cmp.Compare(x.banner, y.banner), cmp.Compare(x.sku, y.sku), cmp.Compare(x.province, y.province))
	})
	var pb promoBuilder
	for i, k := range series {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		in, err := w.seriesInfo(k)
		if err != nil {
			return err
		}
		if err := pb.derive(w.tx, k, in, a.spans[k]); err != nil {
			return err
		}
	}
	if err := w.tx.PutPromos(pb.out); err != nil {
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
}

func (b *promoBuilder) close() {
	if !b.open {
		return
	}
	b.cur.Regular, _, _ = mode(b.regs)
	b.cur.Price, _, _ = mode(b.prices)
	b.cur.Stores = uint32(len(b.stores))
	b.out = append(b.out, b.cur)
	b.open = false
}

func (b *promoBuilder) day(k seriesKey, d *storage.Day) {
	promo := false
	for _, e := range d.Entries {
		if e.Price < e.Regular {
			promo = true
			break
		}
	}
	if b.open && (!promo || d.Date-b.lastDay > promoGap) {
		b.close()
	}
	if !promo {
		return
	}
	if !b.open {
		b.open = true
		b.cur = storage.Promo{Banner: k.banner, SKU: k.sku, Province: k.province, Start: d.Date}
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

// derive rewrites the promotion events of series k from the earliest one
// its written days sp may change, and its shelf record.
func (b *promoBuilder) derive(tx *storage.Tx, k seriesKey, in seriesInfo, sp span) error {
	if b.stores == nil {
		b.stores = map[uint32]bool{}
	}
	if !sp.changed {
		// The same days again: the events stand; only the shelf
		// record's link may have moved.
		var shelf storage.Shelf
		found, err := tx.Shelf(k.province, k.banner, k.sku, &shelf)
		if err != nil || !found || (shelf.GTIN == in.gtin && shelf.Category == in.category) {
			return err
		}
		shelf.GTIN, shelf.Category = in.gtin, in.category
		return tx.PutShelf(k.province, &shelf)
	}
	from := sp.first
	var prev storage.Promo
	if found, err := tx.LastPromoBefore(k.banner, k.sku, k.province, sp.first, &prev); err != nil {
		return err
	} else if found && prev.End+promoGap >= sp.first {
		from = prev.Start
	}
	var shelf storage.Shelf
	found, err := tx.Shelf(k.province, k.banner, k.sku, &shelf)
	if err != nil {
		return err
	}
	first := sp.first
	if found && shelf.First < first {
		first = shelf.First
	} else {
		shelf.First, shelf.FirstPrice, shelf.FirstStores = first, 0, 0
	}
	if err := tx.DeletePromosFrom(k.banner, k.sku, k.province, from); err != nil {
		return err
	}
	b.open = false
	var prices []uint32
	err = tx.Series(k.banner, k.sku, k.province, from, math.MaxInt32, true, false, func(d *storage.Day) error {
		if d.Date == first {
			shelf.FirstPrice, shelf.FirstStores = d.Median, d.Count
		}
		if d.Date >= from {
			b.day(k, d)
		}
		shelf.Last, shelf.LastPrice = d.Date, d.Median
		prices = prices[:0]
		shelf.LastPromoStores = 0
		for _, e := range d.Entries {
			prices = append(prices, e.Regular)
			if e.Price < e.Regular {
				shelf.LastPromoStores++
			}
		}
		shelf.LastRegular, _, _ = mode(prices)
		return nil
	})
	if err != nil {
		return err
	}
	b.close()
	shelf.Banner, shelf.SKU, shelf.GTIN, shelf.Category = k.banner, k.sku, in.gtin, in.category
	return tx.PutShelf(k.province, &shelf)
}
