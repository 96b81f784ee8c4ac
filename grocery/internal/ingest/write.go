// Package ingest is the write path's machinery: it writes a batch of
// stores, products, SKU links and observations into a storage.Tx and
// materialises what derives from them in the same transaction: days merged
// into their blocks, store-latest prices, offers, search tokens, store
// volumes, the category days, shelf records and promotion events
// (analytics.go), and the data set's latest day. It also derives them all
// again from the stored series (RederiveAnalytics, RederiveAll).
//
// It is not the domain: it takes records grocery has validated, in
// storage's vocabulary (storage.Store, storage.Product, GTIN-14 strings,
// days and cents), and the product's rules grocery decides (Rules: the
// provinces, the windows, unit sizes, the merge of a product's facts). It
// imports nothing from grocery. Its errors for records that do not fit
// the stored ones are *fault.Error, which grocery converts to its codes;
// what follows the series written (the alert rules) is grocery's, told
// through a Hook.
package ingest

import (
	"cmp"
	"context"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/textfold"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// Rules are the product's rules a write applies, decided by grocery: the
// provinces, the windows of the derived structures, what a size means and
// how a product's facts given again merge with the stored ones.
type Rules struct {
	// Provinces are the province codes.
	Provinces []string
	// FreshDays is the visit window of a price in force: a store's latest
	// observation is in force for this many days (pricestat.InForce).
	FreshDays int32
	// PriceLookback is how many days before a day the shelf record and
	// the promotion events look back for the prices charged.
	PriceLookback int32
	// PromoGap is the most days between two observation days of one
	// promotion event.
	PromoGap int32
	// StoreSource is the source of a new store written without one; a
	// stored store written without one keeps its own.
	StoreSource string
	// Unit returns how many units of its price basis a product's size
	// holds and the basis's code in storage.CatObs.Unit; 0, 0 when the
	// size names no quantity.
	Unit func(size string) (qty float64, basis uint32)
	// Merge merges a product's stored facts (earlier) into the facts
	// given again (given, changed in place); update lets a name given
	// replace a stored one. It returns the name kept over a different one
	// given, if any (its Index is the write's to set).
	Merge func(given, earlier *storage.Product, update bool) (k KeptName, ok bool)
}

// Batch holds the records of one write, in storage's vocabulary: grocery
// has validated them.
type Batch struct {
	Stores   []storage.Store // Ord and Observations30d are the write's to keep
	Products []storage.Product
	Links    []Link
	// SKUFacts names banner SKUs sold under no barcode (storage.SKU's
	// facts); those of a linked SKU are ignored (its product has them).
	SKUFacts     []SKUFacts
	Observations []Observation
	// UpdateNames lets a product's names replace the stored ones; without
	// it a stored name is kept and only a missing one is filled in.
	UpdateNames bool
}

// Link records that a banner's SKU is sold under a barcode (a GTIN-14).
type Link struct{ Banner, SKU, GTIN string }

// SKUFacts are the name, brand, size and category a banner gives a SKU it
// sells under no barcode.
type SKUFacts struct{ Banner, SKU, Name, Brand, Size, Category string }

// Observation is one observed shelf price of a banner SKU at a store on a
// day, in cents and days. A regular price under the price is the price,
// and a promotion's end is dropped when the price is the regular one.
type Observation struct {
	Date           int32
	StoreID        string
	Banner, SKU    string
	Price, Regular uint32
	PromoEnd       int32
}

// Stats counts what a write changed.
type Stats struct {
	StoresNew, StoresUpdated, StoresUnchanged int
	ObsNew, ObsUpdated, ObsUnchanged          int
	// NamesKept lists the products whose stored name (English or French)
	// was kept over a different one.
	NamesKept []KeptName
}

// KeptName is a name kept over a different one given for a product: the
// product's index in Batch.Products, the column (name or name_fr), the
// name given and the name kept.
type KeptName struct {
	Index              int
	Field, Given, Kept string
}

// Order says where a write's series keys fall among the stored ones.
type Order int

// The orders of a write's series keys.
const (
	KeysAnywhere Order = iota // anywhere (an import)
	KeysAppended              // in key order after every stored one (a bulk load): pages are packed nearly full (storage.Tx.AppendOrder)
)

// Hook is what a write tells the state that follows the data it writes
// besides the data file's own derived structures (grocery's alert rules).
// One serves one write; the write knows nothing else of it.
type Hook interface {
	// SeriesWritten: the transaction tx wrote days of the series key from
	// the day first on, or moved the data set's latest day past first, a
	// day on which the series' price in force changed with no observation
	// (a promotion ended, a store's observation left the window).
	SeriesWritten(tx *storage.Tx, key SeriesKey, first int32)
	// BeforeCommit runs last in the write transaction, once the data
	// set's latest day is asOf; its error rolls the write back.
	BeforeCommit(ctx context.Context, tx *storage.Tx, asOf int32) error
}

// Write writes b in the transaction tx: on error the caller rolls tx back,
// and nothing of b stays. Besides the records themselves it keeps every
// derived structure in step: offers, search tokens, store-latest prices,
// store volumes, the analytics aggregates and the data set's latest date.
// It returns a fault.Invalid for an observation whose store is unknown or
// of another banner.
func Write(ctx context.Context, tx *storage.Tx, rules *Rules, hook Hook, b *Batch, order Order) (Stats, error) {
	tx.Packed()
	if order == KeysAppended {
		tx.AppendOrder()
	}
	w := newWriter(tx, rules, hook)
	if err := w.numberWrite(); err != nil {
		return Stats{}, err
	}
	if err := w.writeStores(b); err != nil {
		return Stats{}, err
	}
	if err := w.writeCatalogue(ctx, b); err != nil {
		return Stats{}, err
	}
	if err := w.writeObservations(ctx, b); err != nil {
		return Stats{}, err
	}
	return w.finish(ctx)
}

// WriteImport writes an observations file's import in the transaction tx:
// the products and links of b, then the observations feed passes to its
// callback in chunks, sorted by series in key order (Ranks), date and
// store's Ord, without two rows of one series, date and store, then what
// derives from them.
// stores lists the file's stores by the numbers its Obs use, ords their Ord
// as the import sorted them, series the keys of its series. feed's error,
// or the first write error, is returned, and the caller rolls tx back. A
// store that changed since the import sorted its rows is a fault.Internal.
func WriteImport(ctx context.Context, tx *storage.Tx, rules *Rules, hook Hook, b *Batch, stores []string, ords []uint32, series []SeriesKey,
	feed func(write func([]Obs) error) error) (Stats, error) {
	tx.Packed()
	w := newWriter(tx, rules, hook)
	if err := w.numberWrite(); err != nil {
		return Stats{}, err
	}
	if err := w.writeCatalogue(ctx, b); err != nil {
		return Stats{}, err
	}
	for i, id := range stores {
		st, err := w.store(id)
		if err != nil {
			return Stats{}, err
		}
		if st.idx != i || st.rec.Ord != ords[i] {
			return Stats{}, fault.New(fault.Internal, "store %s changed during the import: import the file again", id)
		}
	}
	if err := feed(func(recs []Obs) error { return w.writeSorted(ctx, recs, series) }); err != nil {
		return Stats{}, err
	}
	// The store-latest candidates of all chunks at once: in key
	// order, so that the puts append.
	if err := w.writeLatest(); err != nil {
		return Stats{}, err
	}
	return w.finish(ctx)
}

// writeCatalogue writes the products and links of b, then moves the
// stored days their changes count elsewhere (regroupDays).
func (w *writer) writeCatalogue(ctx context.Context, b *Batch) error {
	if err := w.writeProducts(b); err != nil {
		return err
	}
	if err := w.writeLinks(b); err != nil {
		return err
	}
	if err := w.writeSKUFacts(b); err != nil {
		return err
	}
	return w.regroupDays(ctx)
}

// finish derives what depends on the records written and returns what
// the write changed.
func (w *writer) finish(ctx context.Context) (Stats, error) {
	if err := w.derive(ctx); err != nil {
		return Stats{}, err
	}
	return w.stats, nil
}

// SeriesKey names a series: a banner's SKU in a province.
type SeriesKey struct{ Banner, SKU, Province string }

// Ranks numbers series in key order: Ranks(series)[i] is the rank of
// series[i].
func Ranks(series []SeriesKey) []int32 {
	order := make([]int32, len(series))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := &series[a], &series[b]
		return cmp.Or(cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU), cmp.Compare(x.Province, y.Province))
	})
	rank := make([]int32, len(order))
	for r, i := range order {
		rank[i] = int32(r)
	}
	return rank
}

type storeState struct {
	rec     storage.Store
	idx     int
	touched bool
}

// writer carries one write transaction's state.
type writer struct {
	tx        *storage.Tx
	rules     *Rules
	stats     Stats
	stores    map[string]*storeState
	storeList []*storeState
	touched   map[SeriesKey]struct{}     // series whose offers must be rebuilt
	retoken   map[string]storage.Product // products whose name or brand changed, by GTIN: old facts
	reSKU     map[bannerSKU]storage.SKU  // unlinked banner SKUs whose name or brand changed: old facts
	regroup   map[bannerSKU]seriesInfo   // banner SKUs whose category or unit changed: how their days are counted so far
	latest    []latestPut                // store-latest candidates, written in key order
	maxDate   int32
	hook      Hook // told of the series written: the alert rules watching them
	analytics analyticsState
	run       inForceRun // the daily prices of one series at a time
	pricesSet bool       // the daily prices of the days written are set already (rederiveAnalytics)
	promos    promoBuilder
	offers    []offerPut // deriveSeries' offers, for putOffers
	write     uint64     // the write's number, which stamps the observations it changes (storage.Tx.NextWrite)
}

// numberWrite takes the write's number: the observations it adds or
// changes carry it, so that a reader can select them later (an
// incremental export).
func (w *writer) numberWrite() (err error) {
	w.write, err = w.tx.NextWrite()
	return err
}

func newWriter(tx *storage.Tx, rules *Rules, hook Hook) *writer {
	return &writer{tx: tx, rules: rules, hook: hook, stores: map[string]*storeState{}, touched: map[SeriesKey]struct{}{},
		retoken: map[string]storage.Product{}, reSKU: map[bannerSKU]storage.SKU{},
		promos: promoBuilder{gap: rules.PromoGap, lookback: rules.PriceLookback}}
}

// latestPut is a store's newest observation of a SKU in this batch.
type latestPut struct {
	storeID string
	rec     storage.Latest
}

func (w *writer) writeStores(b *Batch) error {
	for i := range b.Stores {
		rec := b.Stores[i]
		var old storage.Store
		found, err := w.tx.Store(rec.ID, &old)
		if err != nil {
			return err
		}
		if rec.Source == "" {
			rec.Source = cmp.Or(old.Source, w.rules.StoreSource)
		}
		if found {
			rec.Ord, rec.Observations30d = old.Ord, old.Observations30d
			if rec == old {
				w.stats.StoresUnchanged++
				continue
			}
			w.stats.StoresUpdated++
		} else {
			w.stats.StoresNew++
		}
		if err := w.tx.PutStore(&rec); err != nil {
			return err
		}
		delete(w.stores, rec.ID)
	}
	return nil
}

// writeProducts writes the catalogue items of b, each merged with the
// stored product by Rules.Merge (b.UpdateNames lets names be replaced;
// the items whose names gave way go to the stats' NamesKept).
func (w *writer) writeProducts(b *Batch) error {
	for i := range b.Products {
		rec := b.Products[i]
		var old storage.Product
		found, err := w.tx.Product(rec.GTIN, &old)
		if err != nil {
			return err
		}
		if found {
			rec.FirstSeen = old.FirstSeen
			if k, ok := w.rules.Merge(&rec, &old, b.UpdateNames); ok {
				k.Index = i
				w.stats.NamesKept = append(w.stats.NamesKept, k)
			}
			if rec == old {
				continue
			}
			// Every observation row of its SKUs shows its facts.
			if err := w.tx.SKUsOf(rec.GTIN, func(banner, sku string) error {
				return w.tx.MarkSKUWritten(banner, sku, w.write)
			}); err != nil {
				return err
			}
			if old.Category != rec.Category || old.Size != rec.Size {
				if err := w.tx.SKUsOf(rec.GTIN, func(banner, sku string) error {
					w.noteRegroup(bannerSKU{banner, sku}, w.infoOf(sku, rec.GTIN, &old))
					return nil
				}); err != nil {
					return err
				}
			}
			if old.Name != rec.Name || old.NameFr != rec.NameFr || old.Brand != rec.Brand {
				if _, seen := w.retoken[rec.GTIN]; !seen {
					w.retoken[rec.GTIN] = old
				}
			}
		}
		if err := w.tx.PutProduct(&rec); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeLinks(b *Batch) error {
	for _, in := range b.Links {
		var sku storage.SKU
		found, err := w.tx.SKU(in.Banner, in.SKU, &sku)
		if err != nil {
			return err
		}
		if found && sku.GTIN == in.GTIN {
			continue
		}
		if found {
			if err := w.unlink(in, &sku); err != nil {
				return err
			}
		} else {
			sku = storage.SKU{Banner: in.Banner, SKU: in.SKU}
		}
		sku.GTIN = in.GTIN
		if err := w.tx.PutSKU(&sku); err != nil {
			return err
		}
		// A barcode seen first in a price feed is in the catalogue from
		// then on, its facts to come: naming it later is then a rename,
		// which indexes its words where it has offers.
		var p storage.Product
		if known, err := w.tx.Product(sku.GTIN, &p); err != nil {
			return err
		} else if !known {
			if err := w.tx.PutProduct(&storage.Product{GTIN: sku.GTIN}); err != nil {
				return err
			}
		}
		if found {
			// Observations may predate the link: rebuild its offers.
			for _, p := range w.rules.Provinces {
				w.touched[SeriesKey{in.Banner, in.SKU, p}] = struct{}{}
			}
		}
	}
	return nil
}

// unlink takes the stored SKU, about to be linked to in's barcode, from
// the barcode it has: its rows are marked written, its days regrouped
// from that barcode's category, its offers under that barcode deleted.
func (w *writer) unlink(in Link, sku *storage.SKU) error {
	// Every observation row of the SKU shows its barcode.
	if err := w.tx.MarkSKUWritten(in.Banner, in.SKU, w.write); err != nil {
		return err
	}
	// Its days are counted under the category of the barcode it had
	// (none: the empty category).
	var old storage.Product
	if sku.GTIN != "" {
		if _, err := w.tx.Product(sku.GTIN, &old); err != nil {
			return err
		}
	}
	w.noteRegroup(bannerSKU{in.Banner, in.SKU}, w.infoOf(in.SKU, sku.GTIN, &old))
	if sku.GTIN == "" {
		return nil
	}
	for _, p := range w.rules.Provinces {
		if err := w.tx.DeleteOffer(p, sku.GTIN, in.Banner, in.SKU); err != nil {
			return err
		}
	}
	return nil
}

// writeSKUFacts writes the facts of b's banner SKUs sold under no
// barcode; a name or brand that changes is re-indexed (skuTokens).
func (w *writer) writeSKUFacts(b *Batch) error {
	for _, in := range b.SKUFacts {
		var sku storage.SKU
		found, err := w.tx.SKU(in.Banner, in.SKU, &sku)
		if err != nil {
			return err
		}
		if found && sku.GTIN != "" {
			continue
		}
		if !found {
			sku = storage.SKU{Banner: in.Banner, SKU: in.SKU}
		}
		old := sku
		sku.Name, sku.Brand, sku.Size, sku.Category = in.Name, in.Brand, in.Size, in.Category
		if sku == old {
			continue
		}
		if k := (bannerSKU{in.Banner, in.SKU}); (old.Name != sku.Name || old.Brand != sku.Brand) && old.Name+old.Brand != "" {
			if _, seen := w.reSKU[k]; !seen {
				w.reSKU[k] = old
			}
		}
		if err := w.tx.PutSKU(&sku); err != nil {
			return err
		}
	}
	return nil
}

// store returns the state of a store, loading it on first use.
func (w *writer) store(id string) (*storeState, error) {
	if st, ok := w.stores[id]; ok {
		return st, nil
	}
	st := &storeState{idx: len(w.storeList)}
	found, err := w.tx.Store(id, &st.rec)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fault.New(fault.Invalid, "store_id %q is not a known store: import the stores file first", id)
	}
	w.stores[id] = st
	w.storeList = append(w.storeList, st)
	return st, nil
}

// Obs is an observation in the compact form the write sorts: the numbers
// of its series and store (in the keys and stores the write was given),
// its day, price, regular price and promotion's end.
type Obs struct {
	Series   int32
	Store    int32
	Date     int32
	Price    uint32
	Regular  uint32
	PromoEnd int32
}

func (w *writer) writeObservations(ctx context.Context, b *Batch) error {
	if len(b.Observations) == 0 {
		return nil
	}
	// Resolve stores and series once per distinct value.
	recs := make([]Obs, len(b.Observations))
	seriesIdx := map[SeriesKey]int32{}
	var series []SeriesKey
	var last SeriesKey
	lastIdx := int32(-1)
	var lastStore *storeState
	for i := range b.Observations {
		o := &b.Observations[i]
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		st := lastStore
		if st == nil || st.rec.ID != o.StoreID {
			var err error
			if st, err = w.store(o.StoreID); err != nil {
				return err
			}
			lastStore = st
		}
		if st.rec.Banner != o.Banner {
			return fault.New(fault.Invalid, "store %s belongs to banner %s, not %s", o.StoreID, st.rec.Banner, o.Banner)
		}
		k := SeriesKey{o.Banner, o.SKU, st.rec.Province}
		if lastIdx < 0 || k != last {
			idx, ok := seriesIdx[k]
			if !ok {
				idx = int32(len(series))
				seriesIdx[k] = idx
				series = append(series, k)
			}
			last, lastIdx = k, idx
		}
		regular := max(o.Regular, o.Price)
		promoEnd := o.PromoEnd
		if regular == o.Price {
			promoEnd = 0
		}
		recs[i] = Obs{Series: lastIdx, Store: int32(st.idx), Date: o.Date, Price: o.Price, Regular: regular, PromoEnd: promoEnd}
	}

	// Rank series in key order, then sort observations by (series, date,
	// store) so that days are read and written in key order.
	rank := Ranks(series)
	slices.SortFunc(recs, func(a, b Obs) int {
		return cmp.Or(cmp.Compare(rank[a.Series], rank[b.Series]), cmp.Compare(a.Date, b.Date),
			cmp.Compare(w.storeList[a.Store].rec.Ord, w.storeList[b.Store].rec.Ord))
	})
	if err := w.writeSorted(ctx, recs, series); err != nil {
		return err
	}
	return w.writeLatest()
}

// writeSorted writes observations sorted by (series in key order, date,
// store's Ord), without two of the same series, date and store. series
// gives the keys of Obs.series, w.storeList the stores of Obs.store.
// It may be called several times in one transaction, with recs that
// continue each other in key order (the import's chunks): a block or a
// series cut between two calls is then read back and merged again. It
// collects store-latest candidates for writeLatest.
func (w *writer) writeSorted(ctx context.Context, recs []Obs, series []SeriesKey) error {
	if len(recs) == 0 {
		return nil
	}
	minDate, maxDate := recs[0].Date, recs[0].Date
	for _, r := range recs {
		minDate, maxDate = min(minDate, r.Date), max(maxDate, r.Date)
	}
	days := int(maxDate-minDate) + 1
	// A block settled by the chunk's last day goes straight to the
	// series' older blocks (storage's heads.go).
	w.tx.WritesThrough(maxDate)
	sc := &sortedWrite{
		minDate:   minDate,
		days:      days,
		dayCounts: make([]int32, len(w.storeList)*days),
		latest:    make([]Obs, len(w.storeList)),
		latestGen: make([]int32, len(w.storeList)),
	}
	for i := 0; i < len(recs); {
		var err error
		if i, err = w.writeSeries(recs, i, series[recs[i].Series], sc); err != nil {
			return err
		}
		if len(w.touched)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if err := w.addStoreDays(sc); err != nil {
		return err
	}
	w.maxDate = max(w.maxDate, maxDate)
	return nil
}

// sortedWrite is what writeSorted keeps across its series.
type sortedWrite struct {
	minDate   int32
	days      int
	dayCounts []int32 // new observations per (store, day from minDate)
	latest    []Obs   // per store, latest observation in the current series
	latestGen []int32 // per store, 1 + the series latest is of
	stores    []int32 // the stores of the current series
	blk       blockMerge
	// The first and last days the current series' rows changed, -1 when
	// none did.
	changedFirst, changedLast int32
}

// writeSeries writes the rows of one series, key, from recs[i], and
// returns the index of the next series' first row.
func (w *writer) writeSeries(recs []Obs, i int, key SeriesKey, sc *sortedWrite) (int, error) {
	sIdx := recs[i].Series
	sc.stores = sc.stores[:0]
	sc.changedFirst, sc.changedLast = -1, -1
	firstDate := recs[i].Date
	info, err := w.seriesInfo(key)
	if err != nil {
		return 0, err
	}
	for i < len(recs) && recs[i].Series == sIdx {
		if i, err = w.writeBlock(recs, i, key, &info, sc); err != nil {
			return 0, err
		}
	}
	lastDate := recs[i-1].Date
	if err := w.finishSeries(key, firstDate, lastDate, sc.stores, sc.latest); err != nil {
		return 0, err
	}
	w.touched[key] = struct{}{}
	w.hook.SeriesWritten(w.tx, key, firstDate)
	return i, nil
}

// writeBlock merges the rows from recs[i] of the series' stored block
// that holds recs[i]'s date: the block is read once, each day's rows
// merged, the block written once. It returns the index of the first row
// after the block.
func (w *writer) writeBlock(recs []Obs, i int, key SeriesKey, info *seriesInfo, sc *sortedWrite) (int, error) {
	sIdx := recs[i].Series
	gen := sIdx + 1
	start := storage.BlockStart(recs[i].Date)
	if err := sc.blk.begin(w.tx, key, start); err != nil {
		return 0, err
	}
	for i < len(recs) && recs[i].Series == sIdx && storage.BlockStart(recs[i].Date) == start {
		date := recs[i].Date
		j := i
		for j < len(recs) && recs[j].Series == sIdx && recs[j].Date == date {
			j++
		}
		group := recs[i:j]
		old, merged := sc.blk.day(date)
		delta := w.catDelta(key, *info, date)
		changed := w.mergeDay(old, date, group, merged, sc.dayCounts, sc.days, sc.minDate, delta, info)
		sc.blk.changed = sc.blk.changed || changed
		if changed {
			w.noteChanged(key, date)
			if sc.changedFirst < 0 {
				sc.changedFirst = date
			}
			sc.changedLast = date
		} else {
			w.noteWritten(key)
		}
		for _, r := range group {
			if sc.latestGen[r.Store] != gen {
				sc.latestGen[r.Store] = gen
				sc.stores = append(sc.stores, r.Store)
			}
			sc.latest[r.Store] = r
		}
		i = j
	}
	return i, sc.blk.end(w.tx, key, w.write)
}

// addStoreDays adds the new observations per store and day, in store ID
// order: bbolt grows a node in memory until commit, so writes in key
// order append where writes in any other order move the node's tail each
// time.
func (w *writer) addStoreDays(sc *sortedWrite) error {
	byID := slices.Clone(w.storeList)
	slices.SortFunc(byID, func(a, b *storeState) int { return cmp.Compare(a.rec.ID, b.rec.ID) })
	for _, st := range byID {
		for d := 0; d < sc.days; d++ {
			if n := sc.dayCounts[st.idx*sc.days+d]; n > 0 {
				st.touched = true
				if err := w.tx.AddStoreDay(st.rec.ID, sc.minDate+int32(d), int(n)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// writeLatest writes the batch's store-latest candidates in key order,
// keeping a stored observation that is newer.
func (w *writer) writeLatest() error {
	slices.SortFunc(w.latest, func(a, b latestPut) int {
		return cmp.Or(cmp.Compare(a.storeID, b.storeID), cmp.Compare(a.rec.SKU, b.rec.SKU))
	})
	var cur storage.Latest
	for i := range w.latest {
		l := &w.latest[i]
		found, err := w.tx.Latest(l.storeID, l.rec.SKU, &cur)
		if err != nil {
			return err
		}
		if found && (cur.Date > l.rec.Date || cur == l.rec) {
			continue
		}
		if err := w.tx.PutLatest(l.storeID, &l.rec); err != nil {
			return err
		}
	}
	w.latest = nil
	return nil
}

// blockMerge merges a batch's observations into one stored block of a
// series, reusing its buffers from block to block.
type blockMerge struct {
	old, merged storage.Block
	oi          int                                // next day of old to copy
	entries     [storage.BlockDays][]storage.Entry // merged days' entries, by offset
	fresh       uint32                             // offsets of the days merged (not copied)
	changed     bool
}

func (m *blockMerge) begin(tx *storage.Tx, key SeriesKey, start int32) error {
	m.oi, m.changed, m.fresh = 0, false, 0
	m.merged.Start, m.merged.Days = start, m.merged.Days[:0]
	return tx.ReadBlock(key.Banner, key.SKU, key.Province, start, &m.old)
}

// day returns the stored day of date (nil when none) and the merged day
// to fill, after copying the stored days before date.
func (m *blockMerge) day(date int32) (old, merged *storage.Day) {
	for m.oi < len(m.old.Days) && m.old.Days[m.oi].Date < date {
		m.merged.Days = append(m.merged.Days, m.old.Days[m.oi])
		m.oi++
	}
	if m.oi < len(m.old.Days) && m.old.Days[m.oi].Date == date {
		old = &m.old.Days[m.oi]
		m.oi++
	}
	off := date - m.merged.Start
	m.fresh |= 1 << off
	m.merged.Days = append(m.merged.Days, storage.Day{Date: date, Entries: m.entries[off][:0]})
	return old, &m.merged.Days[len(m.merged.Days)-1]
}

func (m *blockMerge) end(tx *storage.Tx, key SeriesKey, write uint64) error {
	m.merged.Days = append(m.merged.Days, m.old.Days[m.oi:]...)
	for _, d := range m.merged.Days {
		if off := d.Date - m.merged.Start; m.fresh&(1<<off) != 0 {
			m.entries[off] = d.Entries[:0] // keep the buffer, grown or not
		}
	}
	if !m.changed {
		return nil
	}
	return tx.PutWrittenBlock(key.Banner, key.SKU, key.Province, &m.old, &m.merged, write)
}

// mergeDay merges one day's observations of a series with the stored day
// (old, or nil) into merged, and reports whether it differs from old.
//
// It records in delta what changed, for the category aggregates.
func (w *writer) mergeDay(oldDay *storage.Day, date int32, group []Obs, merged *storage.Day, dayCounts []int32, days int, minDate int32, delta *catDelta, info *seriesInfo) bool {
	var old []storage.Entry
	if oldDay != nil {
		old = oldDay.Entries
	}
	changed := false
	for gi := 0; gi < len(group); {
		r := group[gi]
		// Several rows for one store and day count once; import has
		// already rejected conflicting duplicates.
		for gi+1 < len(group) && group[gi+1].Store == r.Store {
			gi++
			r = group[gi]
		}
		gi++
		ord := w.storeList[r.Store].rec.Ord
		for len(old) > 0 && old[0].Store < ord {
			merged.Entries = append(merged.Entries, old[0])
			old = old[1:]
		}
		e := storage.Entry{Store: ord, Price: r.Price, Regular: r.Regular, PromoEnd: r.PromoEnd}
		switch {
		case len(old) > 0 && old[0].Store == ord && old[0] == e:
			w.stats.ObsUnchanged++
			old = old[1:]
		case len(old) > 0 && old[0].Store == ord:
			w.stats.ObsUpdated++
			changed = true
			delta.remove = append(delta.remove, catObs(&old[0], info))
			delta.add = append(delta.add, catObs(&e, info))
			old = old[1:]
		default:
			w.stats.ObsNew++
			changed = true
			dayCounts[int(r.Store)*days+int(date-minDate)]++
			delta.add = append(delta.add, catObs(&e, info))
		}
		merged.Entries = append(merged.Entries, e)
	}
	merged.Entries = append(merged.Entries, old...)
	if !changed { // merged.Entries equal oldDay's
		merged.Count, merged.Min, merged.Median, merged.Max = oldDay.Count, oldDay.Min, oldDay.Median, oldDay.Max
		return false
	}
	summarise(merged)
	return true
}

// summarise sets a day's count, minimum, median and maximum price.
func summarise(d *storage.Day) {
	var buf [64]uint32
	prices := buf[:0]
	for _, e := range d.Entries {
		prices = append(prices, e.Price)
	}
	slices.Sort(prices)
	n := len(prices)
	d.Count, d.Min, d.Max = uint32(n), prices[0], prices[n-1]
	d.Median = pricestat.HalfCents(pricestat.Median2(prices)) // a summary in whole cents: a half cent up
}

// finishSeries updates the SKU's first/last seen dates and collects the
// latest price of each store that observed it.
func (w *writer) finishSeries(key SeriesKey, first, last int32, stores []int32, latest []Obs) error {
	var sku storage.SKU
	found, err := w.tx.SKU(key.Banner, key.SKU, &sku)
	if err != nil {
		return err
	}
	if !found {
		sku = storage.SKU{Banner: key.Banner, SKU: key.SKU}
	}
	if sku.FirstSeen == 0 || first < sku.FirstSeen || sku.LastSeen < last || !found {
		if sku.FirstSeen == 0 || first < sku.FirstSeen {
			sku.FirstSeen = first
		}
		sku.LastSeen = max(sku.LastSeen, last)
		if err := w.tx.PutSKU(&sku); err != nil {
			return err
		}
	}
	if sku.GTIN != "" {
		var p storage.Product
		found, err := w.tx.Product(sku.GTIN, &p)
		if err != nil {
			return err
		}
		if found && (p.FirstSeen == 0 || first < p.FirstSeen) {
			p.FirstSeen = first
			if err := w.tx.PutProduct(&p); err != nil {
				return err
			}
		}
	}
	for _, si := range stores {
		r := latest[si]
		w.latest = append(w.latest, latestPut{w.storeList[si].rec.ID,
			storage.Latest{SKU: key.SKU, Date: r.Date, Price: r.Price, Regular: r.Regular, PromoEnd: r.PromoEnd}})
	}
	return nil
}

// derive rebuilds what depends on the written records: the data set's
// latest date, the offers and search tokens of touched series, the
// 30-day volumes of touched stores and the analytics aggregates
// (analytics.go); then it hands the transaction to the write's
// hook (the alert rules watching the series written).
func (w *writer) derive(ctx context.Context) error {
	asOf := w.tx.AsOf()
	asOfMoved := false
	if w.maxDate > asOf {
		asOf, asOfMoved = w.maxDate, true
		if err := w.tx.SetAsOf(asOf); err != nil {
			return err
		}
	}
	if asOfMoved {
		if err := w.touchExpired(asOf); err != nil {
			return err
		}
	}
	if err := w.deriveSeries(ctx, asOf); err != nil {
		return err
	}
	if err := w.putOffers(ctx); err != nil {
		return err
	}
	if err := w.rebuildTokens(); err != nil {
		return err
	}
	rebuild := w.rebuildVolumes
	if asOfMoved {
		rebuild = w.rebuildAllVolumes
	}
	if err := rebuild(asOf); err != nil {
		return err
	}
	if err := w.writeAnalytics(); err != nil {
		return err
	}
	return w.hook.BeforeCommit(ctx, w.tx, asOf)
}

// touchExpired marks for rebuilding the offers of series not written
// whose price in force may differ on asOf, the data set's new latest day:
// those that expire by then (a store's observation left the window, or a
// promotion ended).
func (w *writer) touchExpired(asOf int32) error {
	_, err := w.tx.ScanOffers(nil, "", "", func(province, _ string, o *storage.Offer) error {
		if o.Expires != 0 && o.Expires <= asOf {
			key := SeriesKey{Banner: o.Banner, SKU: o.SKU, Province: province}
			w.touched[key] = struct{}{}
			w.hook.SeriesWritten(w.tx, key, o.Expires)
		}
		return nil
	})
	return err
}

// skuTokens collects the search tokens of a banner SKU sold under no
// barcode, named by its facts, for a province where it has prices, unless
// they are indexed there already; a SKU whose name or brand changed has
// its old tokens removed first.
func (w *writer) skuTokens(tp *tokenPuts, province string, sku *storage.SKU) error {
	ref := storage.SKURef(sku.Banner, sku.SKU)
	if old, ok := w.reSKU[bannerSKU{sku.Banner, sku.SKU}]; ok {
		for tok := range productTokens(&storage.Product{Name: old.Name, Brand: old.Brand}) {
			if err := w.tx.DeleteToken(province, tok, ref); err != nil {
				return err
			}
		}
	}
	toks := productTokens(&storage.Product{Name: sku.Name, Brand: sku.Brand})
	for tok := range toks {
		if w.tx.HasToken(province, tok, ref) {
			return nil // indexed with these facts already
		}
		break
	}
	for tok, t := range toks {
		*tp = append(*tp, tokenPut{province, tok, ref, t.flags, t.weight})
	}
	return nil
}

// retokenSKUs re-indexes, in the provinces where it is indexed and no
// series of it was written, each banner SKU whose name or brand changed.
func (w *writer) retokenSKUs(tp *tokenPuts) error {
	for k, old := range w.reSKU {
		var sku storage.SKU
		if _, err := w.tx.SKU(k.banner, k.sku, &sku); err != nil {
			return err
		}
		ref := storage.SKURef(k.banner, k.sku)
		for _, p := range w.rules.Provinces {
			if _, written := w.touched[SeriesKey{k.banner, k.sku, p}]; written {
				continue // skuTokens did it
			}
			had := false
			for tok := range productTokens(&storage.Product{Name: old.Name, Brand: old.Brand}) {
				had = had || w.tx.HasToken(p, tok, ref)
				if err := w.tx.DeleteToken(p, tok, ref); err != nil {
					return err
				}
			}
			if had {
				for tok, t := range productTokens(&storage.Product{Name: sku.Name, Brand: sku.Brand}) {
					*tp = append(*tp, tokenPut{p, tok, ref, t.flags, t.weight})
				}
			}
		}
	}
	return nil
}

// tokenPuts collects search-index entries to write in key order.
type tokenPuts []tokenPut

type tokenPut struct {
	province, token, gtin string
	flags, weight         byte
}

// add collects a product's name and brand tokens for a province's index.
func (tp *tokenPuts) add(tx *storage.Tx, province, gtin string) error {
	var p storage.Product
	found, err := tx.Product(gtin, &p)
	if err != nil || !found {
		return err
	}
	for tok, t := range productTokens(&p) {
		*tp = append(*tp, tokenPut{province, tok, gtin, t.flags, t.weight})
	}
	return nil
}

func (tp tokenPuts) write(tx *storage.Tx) error {
	slices.SortFunc(tp, func(a, b tokenPut) int {
		return cmp.Or(cmp.Compare(a.province, b.province), cmp.Compare(a.token, b.token), cmp.Compare(a.gtin, b.gtin))
	})
	for _, t := range tp {
		if err := tx.PutToken(t.province, t.token, t.gtin, t.flags, t.weight); err != nil {
			return err
		}
	}
	return nil
}

// productToken is how a token occurs in a product: the fields it is in
// and the ranking weight, the number of distinct words of the product's
// name and brand in the language the token comes from (English when it
// is in both).
type productToken struct{ flags, weight byte }

// productTokens returns the distinct search tokens of a product: those of
// its English name and brand and those of its French name (with the words
// its elisions hide, "avoine" of "d'avoine").
func productTokens(p *storage.Product) map[string]productToken {
	m := map[string]productToken{}
	add := func(names []string) {
		var brand []string
		if p.Brand != "" {
			brand = textfold.Tokens(p.Brand)
		}
		lang := map[string]byte{}
		for _, t := range names {
			lang[t] |= storage.TokenInName
		}
		for _, t := range brand {
			lang[t] |= storage.TokenInBrand
		}
		w := byte(min(len(lang), 255))
		for t, f := range lang {
			pt, seen := m[t]
			if !seen {
				pt.weight = w
			}
			pt.flags |= f
			m[t] = pt
		}
	}
	if p.Name != "" || p.NameFr == "" {
		add(textfold.Tokens(p.Name))
	}
	if p.NameFr != "" {
		add(textfold.FrenchTokens(p.NameFr))
	}
	return m
}

// rebuildTokens re-indexes products whose name or brand changed.
func (w *writer) rebuildTokens() error {
	for gtin, old := range w.retoken {
		for _, p := range w.rules.Provinces {
			has := false
			err := w.tx.Offers(p, gtin, func(*storage.Offer) error { has = true; return storage.ErrStop })
			if err != nil {
				return err
			}
			for tok := range productTokens(&old) {
				if err := w.tx.DeleteToken(p, tok, gtin); err != nil {
					return err
				}
			}
			if has {
				var toks tokenPuts
				if err := toks.add(w.tx, p, gtin); err != nil {
					return err
				}
				if err := toks.write(w.tx); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// rebuildVolumes recomputes the 30-day observation count of touched
// stores.
func (w *writer) rebuildVolumes(asOf int32) error {
	for _, st := range w.storeList {
		if st.touched {
			if err := w.updateVolume(&st.rec, asOf); err != nil {
				return err
			}
		}
	}
	return nil
}

// updateVolume recomputes rec's 30-day observation count up to asOf.
func (w *writer) updateVolume(rec *storage.Store, asOf int32) error {
	n, err := w.tx.StoreObservations(rec.ID, asOf-29, asOf)
	if err != nil || uint32(n) == rec.Observations30d {
		return err
	}
	rec.Observations30d = uint32(n)
	return w.tx.PutStore(rec)
}

// rebuildAllVolumes recomputes the 30-day observation count of every
// store: the data set's latest date moved.
func (w *writer) rebuildAllVolumes(asOf int32) error {
	var recs []storage.Store
	if err := w.tx.ForEachStore(func(s *storage.Store) error { recs = append(recs, *s); return nil }); err != nil {
		return err
	}
	for i := range recs {
		if err := w.updateVolume(&recs[i], asOf); err != nil {
			return err
		}
	}
	return nil
}
