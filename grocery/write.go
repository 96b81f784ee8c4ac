package grocery

import (
	"cmp"
	"context"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/textfold"
	"github.com/grocerydata/grocery/storage"
)

// writeBatch writes b in one transaction: all of it or, on error, none of
// it. Besides the records themselves it keeps every derived structure in
// step: offers, search tokens, store-latest prices, store volumes and the
// data set's latest date. It returns EINVALID for an observation whose store
// is unknown or of another banner.
func (s *Service) writeBatch(ctx context.Context, b *batch) (batchStats, error) {
	return s.write(ctx, b, keysAnywhere)
}

// keyOrder says where a write's series keys fall among the stored ones.
type keyOrder int

const (
	keysAnywhere keyOrder = iota // anywhere (an import)
	keysAppended                 // in key order after every stored one (a bulk load): pages are packed nearly full (storage.Tx.AppendOrder)
)

// write is writeBatch with the series keys in order.
func (s *Service) write(ctx context.Context, b *batch, order keyOrder) (batchStats, error) {
	hook, release := s.alertHook()
	defer release()
	var st batchStats
	err := s.db.Update(func(tx *storage.Tx) error {
		tx.Packed()
		if order == keysAppended {
			tx.AppendOrder()
		}
		w := &writer{tx: tx, stats: &st, stores: map[string]*storeState{}, touched: map[seriesKey]struct{}{}, retoken: map[GTIN]storage.Product{}, hook: hook}
		steps := []func(context.Context, *batch) error{w.writeStores, w.writeProducts, w.writeLinks, w.regroupDays, w.writeObservations}
		for _, step := range steps {
			if err := step(ctx, b); err != nil {
				return err
			}
		}
		return w.derive(ctx)
	})
	if err != nil {
		return batchStats{}, err
	}
	s.dataWritten()
	st.alertsErr = hook.afterCommit(ctx)
	return st, nil
}

// writeHook is what the write path tells the state that follows the data
// it writes besides the data file's own derived structures: the alert
// rules (alertHook). One serves one write; the write path knows nothing
// else of it.
type writeHook interface {
	// seriesWritten: the transaction tx wrote days of the series key from
	// the day first on.
	seriesWritten(tx *storage.Tx, key seriesKey, first int32)
	// beforeCommit runs last in the write transaction, once the data set's
	// latest day is asOf; its error rolls the write back.
	beforeCommit(ctx context.Context, tx *storage.Tx, asOf int32) error
	// afterCommit runs once the write committed. Its error does not undo
	// the write: it is reported beside it (ImportReport.AlertsError).
	afterCommit(ctx context.Context) error
}

// writeImport writes an observations file's import in one transaction: the
// products and links of b, then the observations feed passes to its
// callback in chunks, in writeSorted's order, then what derives from them.
// stores lists the file's stores by the numbers its obsRecs use, ords
// their Ord as the import sorted them. feed's error, or the first write
// error, rolls everything back.
func (s *Service) writeImport(ctx context.Context, b *batch, stores []string, ords []uint32, series []seriesKey,
	feed func(write func([]obsRec) error) error) (batchStats, error) {
	hook, release := s.alertHook()
	defer release()
	var st batchStats
	err := s.db.Update(func(tx *storage.Tx) error {
		tx.Packed()
		w := &writer{tx: tx, stats: &st, stores: map[string]*storeState{}, touched: map[seriesKey]struct{}{}, retoken: map[GTIN]storage.Product{}, hook: hook}
		if err := w.writeProducts(ctx, b); err != nil {
			return err
		}
		if err := w.writeLinks(ctx, b); err != nil {
			return err
		}
		if err := w.regroupDays(ctx, b); err != nil {
			return err
		}
		for i, id := range stores {
			st, err := w.store(id)
			if err != nil {
				return err
			}
			if st.idx != i || st.rec.Ord != ords[i] {
				return Errorf(EINTERNAL, "store %s changed during the import: import the file again", id)
			}
		}
		if err := feed(func(recs []obsRec) error { return w.writeSorted(ctx, recs, series) }); err != nil {
			return err
		}
		// The store-latest candidates of all chunks at once: in key
		// order, so that the puts append.
		if err := w.writeLatest(); err != nil {
			return err
		}
		return w.derive(ctx)
	})
	if err != nil {
		return batchStats{}, err
	}
	s.dataWritten()
	st.alertsErr = hook.afterCommit(ctx)
	return st, nil
}

type seriesKey struct{ Banner, SKU, Province string }

type storeState struct {
	rec     storage.Store
	idx     int
	touched bool
}

// writer carries one write transaction's state.
type writer struct {
	tx        *storage.Tx
	stats     *batchStats
	stores    map[string]*storeState
	storeList []*storeState
	touched   map[seriesKey]struct{}   // series whose offers must be rebuilt
	retoken   map[GTIN]storage.Product // products whose name or brand changed: old facts
	regroup   map[bannerSKU]seriesInfo // banner SKUs whose category or unit changed: how their days are counted so far
	latest    []latestPut              // store-latest candidates, written in key order
	maxDate   Date
	hook      writeHook // told of the series written: the alert rules watching them
	analytics analyticsState
}

// latestPut is a store's newest observation of a SKU in this batch.
type latestPut struct {
	storeID string
	rec     storage.Latest
}

func (w *writer) writeStores(ctx context.Context, b *batch) error {
	for i := range b.Stores {
		in := &b.Stores[i]
		banner, err := ParseBanner(in.Banner)
		if err != nil {
			return err
		}
		prov, err := ParseProvince(in.Province)
		if err != nil {
			return err
		}
		rec := storage.Store{ID: in.ID, Banner: banner.Slug, Province: prov, Name: in.Name, City: in.City,
			PostalCode: in.PostalCode, Latitude: in.Latitude, Longitude: in.Longitude, Active: in.Active}
		var old storage.Store
		found, err := w.tx.Store(in.ID, &old)
		if err != nil {
			return err
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

// productFacts points at a product's name, French name, brand, size and
// category.
type productFacts [5]*string

func itemFacts(it *CatalogueItem) productFacts {
	return productFacts{&it.Name, &it.NameFr, &it.Brand, &it.Size, &it.Category}
}

func storedFacts(p *storage.Product) productFacts {
	return productFacts{&p.Name, &p.NameFr, &p.Brand, &p.Size, &p.Category}
}

// mergeFacts is the rule for a product's facts given again: an empty one
// is the earlier one (nothing clears a fact); a name (English or French)
// that differs from an earlier one gives way to it unless update, and the
// first such name is returned with its column (name or name_fr) and the
// name kept (ok true); other facts take the new value.
func mergeFacts(given, earlier productFacts, update bool) (k keptName, ok bool) {
	for i := range given {
		g, e := given[i], earlier[i]
		switch {
		case *g == "":
			*g = *e
		case i < 2 && *e != "" && *g != *e && !update:
			if !ok {
				k, ok = keptName{Field: [2]string{"name", "name_fr"}[i], Given: *g, Kept: *e}, true
			}
			*g = *e
		}
	}
	return k, ok
}

// writeProducts writes the catalogue items of b, each merged with the
// stored product by mergeFacts (b.UpdateNames lets names be replaced;
// the items whose names gave way go to the stats' NamesKept).
func (w *writer) writeProducts(ctx context.Context, b *batch) error {
	for i, in := range b.Products {
		rec := storage.Product{GTIN: string(in.GTIN), Name: in.Name, NameFr: in.NameFr, Brand: in.Brand, Size: in.Size, Category: in.Category}
		var old storage.Product
		found, err := w.tx.Product(rec.GTIN, &old)
		if err != nil {
			return err
		}
		if found {
			rec.FirstSeen = old.FirstSeen
			if k, ok := mergeFacts(storedFacts(&rec), storedFacts(&old), b.UpdateNames); ok {
				k.Index = i
				w.stats.NamesKept = append(w.stats.NamesKept, k)
			}
			if rec == old {
				continue
			}
			if old.Category != rec.Category || old.Size != rec.Size {
				if err := w.tx.SKUsOf(rec.GTIN, func(banner, sku string) error {
					w.noteRegroup(bannerSKU{banner, sku}, infoOf(sku, rec.GTIN, &old))
					return nil
				}); err != nil {
					return err
				}
			}
			if old.Name != rec.Name || old.NameFr != rec.NameFr || old.Brand != rec.Brand {
				if _, seen := w.retoken[in.GTIN]; !seen {
					w.retoken[in.GTIN] = old
				}
			}
		}
		if err := w.tx.PutProduct(&rec); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) writeLinks(ctx context.Context, b *batch) error {
	for _, in := range b.Links {
		var sku storage.SKU
		found, err := w.tx.SKU(in.Banner, in.ExternalSKU, &sku)
		if err != nil {
			return err
		}
		if found && sku.GTIN == string(in.GTIN) {
			continue
		}
		if found {
			// Its days are counted under the category of the barcode it
			// had (none: the empty category).
			var old storage.Product
			if sku.GTIN != "" {
				if _, err := w.tx.Product(sku.GTIN, &old); err != nil {
					return err
				}
			}
			w.noteRegroup(bannerSKU{in.Banner, in.ExternalSKU}, infoOf(in.ExternalSKU, sku.GTIN, &old))
		}
		if found && sku.GTIN != "" {
			for _, p := range provinces {
				if err := w.tx.DeleteOffer(p.Code, sku.GTIN, in.Banner, in.ExternalSKU); err != nil {
					return err
				}
			}
		}
		if !found {
			sku = storage.SKU{Banner: in.Banner, SKU: in.ExternalSKU}
		}
		sku.GTIN = string(in.GTIN)
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
			for _, p := range provinces {
				w.touched[seriesKey{in.Banner, in.ExternalSKU, p.Code}] = struct{}{}
			}
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
		return nil, Errorf(EINVALID, "store_id %q is not a known store: import the stores file first", id)
	}
	w.stores[id] = st
	w.storeList = append(w.storeList, st)
	return st, nil
}

// obsRec is an observation in the compact form the write path sorts.
type obsRec struct {
	series   int32
	store    int32
	date     int32
	price    uint32
	regular  uint32
	promoEnd int32
}

func (w *writer) writeObservations(ctx context.Context, b *batch) error {
	if len(b.Observations) == 0 {
		return nil
	}
	// Resolve stores and series once per distinct value.
	recs := make([]obsRec, len(b.Observations))
	seriesIdx := map[seriesKey]int32{}
	var series []seriesKey
	var last seriesKey
	lastIdx := int32(-1)
	var lastStore *storeState
	minDate, maxDate := b.Observations[0].Date, b.Observations[0].Date
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
			return Errorf(EINVALID, "store %s belongs to banner %s, not %s", o.StoreID, st.rec.Banner, o.Banner)
		}
		k := seriesKey{o.Banner, o.ExternalSKU, st.rec.Province}
		if lastIdx < 0 || k != last {
			idx, ok := seriesIdx[k]
			if !ok {
				idx = int32(len(series))
				seriesIdx[k] = idx
				series = append(series, k)
			}
			last, lastIdx = k, idx
		}
		regular := o.RegularPrice
		if regular < o.Price {
			regular = o.Price
		}
		promoEnd := o.PromoEnds
		if regular == o.Price {
			promoEnd = 0
		}
		recs[i] = obsRec{series: lastIdx, store: int32(st.idx), date: int32(o.Date), price: uint32(o.Price),
			regular: uint32(regular), promoEnd: int32(promoEnd)}
		minDate, maxDate = min(minDate, o.Date), max(maxDate, o.Date)
	}

	// Rank series in key order, then sort observations by (series, date,
	// store) so that days are read and written in key order.
	order := make([]int32, len(series))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := series[a], series[b]
		return cmp.Or(cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU), cmp.Compare(x.Province, y.Province))
	})
	rank := make([]int32, len(series))
	for r, i := range order {
		rank[i] = int32(r)
	}
	slices.SortFunc(recs, func(a, b obsRec) int {
		return cmp.Or(cmp.Compare(rank[a.series], rank[b.series]), cmp.Compare(a.date, b.date),
			cmp.Compare(w.storeList[a.store].rec.Ord, w.storeList[b.store].rec.Ord))
	})
	if err := w.writeSorted(ctx, recs, series); err != nil {
		return err
	}
	return w.writeLatest()
}

// writeSorted writes observations sorted by (series in key order, date,
// store's Ord), without two of the same series, date and store. series
// gives the keys of obsRec.series, w.storeList the stores of obsRec.store.
// It may be called several times in one transaction, with recs that
// continue each other in key order (the import's chunks): a block or a
// series cut between two calls is then read back and merged again. It
// collects store-latest candidates for writeLatest.
func (w *writer) writeSorted(ctx context.Context, recs []obsRec, series []seriesKey) error {
	if len(recs) == 0 {
		return nil
	}
	minDate, maxDate := Date(recs[0].date), Date(recs[0].date)
	for _, r := range recs {
		minDate, maxDate = min(minDate, Date(r.date)), max(maxDate, Date(r.date))
	}
	days := int(maxDate-minDate) + 1
	dayCounts := make([]int32, len(w.storeList)*days) // new observations per (store, day)
	latest := make([]obsRec, len(w.storeList))        // per store, latest observation in the current series
	latestGen := make([]int32, len(w.storeList))
	var storesInSeries []int32

	var blk blockMerge
	for i := 0; i < len(recs); {
		sIdx := recs[i].series
		key := series[sIdx]
		gen := sIdx + 1
		storesInSeries = storesInSeries[:0]
		firstDate := recs[i].date
		info, err := w.seriesInfo(key)
		if err != nil {
			return err
		}
		for i < len(recs) && recs[i].series == sIdx {
			// One block of days: read it once, merge each day's rows,
			// write it once.
			start := storage.BlockStart(recs[i].date)
			if err := blk.begin(w.tx, key, start); err != nil {
				return err
			}
			for i < len(recs) && recs[i].series == sIdx && storage.BlockStart(recs[i].date) == start {
				date := recs[i].date
				j := i
				for j < len(recs) && recs[j].series == sIdx && recs[j].date == date {
					j++
				}
				group := recs[i:j]
				old, merged := blk.day(date)
				delta := w.catDelta(key, info, date)
				changed := w.mergeDay(old, date, group, merged, dayCounts, days, int32(minDate), delta, &info)
				blk.changed = blk.changed || changed
				if changed {
					w.noteChanged(key, date)
				} else {
					w.noteWritten(key)
				}
				for _, r := range group {
					if latestGen[r.store] != gen {
						latestGen[r.store] = gen
						storesInSeries = append(storesInSeries, r.store)
					}
					latest[r.store] = r
				}
				i = j
			}
			if err := blk.end(w.tx, key); err != nil {
				return err
			}
		}
		lastDate := recs[i-1].date
		if err := w.finishSeries(key, firstDate, lastDate, storesInSeries, latest); err != nil {
			return err
		}
		w.touched[key] = struct{}{}
		w.hook.seriesWritten(w.tx, key, firstDate)
		if len(w.touched)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	// bbolt grows a node in memory until commit, so writes in key order
	// append where writes in any other order move the node's tail each time.
	byID := slices.Clone(w.storeList)
	slices.SortFunc(byID, func(a, b *storeState) int { return cmp.Compare(a.rec.ID, b.rec.ID) })
	for _, st := range byID {
		for d := 0; d < days; d++ {
			if n := dayCounts[st.idx*days+d]; n > 0 {
				st.touched = true
				if err := w.tx.AddStoreDay(st.rec.ID, int32(minDate)+int32(d), int(n)); err != nil {
					return err
				}
			}
		}
	}
	w.maxDate = max(w.maxDate, maxDate)
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

func (m *blockMerge) begin(tx *storage.Tx, key seriesKey, start int32) error {
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

func (m *blockMerge) end(tx *storage.Tx, key seriesKey) error {
	m.merged.Days = append(m.merged.Days, m.old.Days[m.oi:]...)
	for _, d := range m.merged.Days {
		if off := d.Date - m.merged.Start; m.fresh&(1<<off) != 0 {
			m.entries[off] = d.Entries[:0] // keep the buffer, grown or not
		}
	}
	if !m.changed {
		return nil
	}
	return tx.PutBlock(key.Banner, key.SKU, key.Province, &m.merged)
}

// mergeDay merges one day's observations of a series with the stored day
// (old, or nil) into merged, and reports whether it differs from old.
//
// It records in delta what changed, for the category aggregates.
func (w *writer) mergeDay(oldDay *storage.Day, date int32, group []obsRec, merged *storage.Day, dayCounts []int32, days int, minDate int32, delta *catDelta, info *seriesInfo) bool {
	var old []storage.Entry
	if oldDay != nil {
		old = oldDay.Entries
	}
	changed := false
	for gi := 0; gi < len(group); {
		r := group[gi]
		// Several rows for one store and day count once; import has
		// already rejected conflicting duplicates.
		for gi+1 < len(group) && group[gi+1].store == r.store {
			gi++
			r = group[gi]
		}
		gi++
		ord := w.storeList[r.store].rec.Ord
		for len(old) > 0 && old[0].Store < ord {
			merged.Entries = append(merged.Entries, old[0])
			old = old[1:]
		}
		e := storage.Entry{Store: ord, Price: r.price, Regular: r.regular, PromoEnd: r.promoEnd}
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
			dayCounts[int(r.store)*days+int(date-minDate)]++
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
	p, r := dayPrices(merged.Entries)
	delta.skus = append(delta.skus, storage.SKUDay{SKU: info.sku, Price: p, Regular: r})
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
func (w *writer) finishSeries(key seriesKey, first, last int32, stores []int32, latest []obsRec) error {
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
			storage.Latest{SKU: key.SKU, Date: r.date, Price: r.price, Regular: r.regular, PromoEnd: r.promoEnd}})
	}
	return nil
}

// derive rebuilds what depends on the written records: the data set's
// latest date, the offers and search tokens of touched series, the
// 30-day volumes of touched stores and the analytics aggregates
// (write_analytics.go); then it hands the transaction to the write's
// hook (the alert rules watching the series written).
func (w *writer) derive(ctx context.Context) error {
	asOf := w.tx.AsOf()
	asOfMoved := false
	if int32(w.maxDate) > asOf {
		asOf, asOfMoved = int32(w.maxDate), true
		if err := w.tx.SetAsOf(asOf); err != nil {
			return err
		}
	}
	if err := w.rebuildOffers(ctx); err != nil {
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
	if err := w.writeAnalytics(ctx); err != nil {
		return err
	}
	return w.hook.beforeCommit(ctx, w.tx, asOf)
}

func (w *writer) rebuildOffers(ctx context.Context) error {
	// Resolve each touched series' barcode, then rebuild in offer-key
	// order (province, GTIN, banner, SKU) so the puts append.
	type job struct {
		seriesKey
		gtin string
	}
	jobs := make([]job, 0, len(w.touched))
	var sku storage.SKU
	for k := range w.touched {
		found, err := w.tx.SKU(k.Banner, k.SKU, &sku)
		if err != nil {
			return err
		}
		if found && sku.GTIN != "" {
			jobs = append(jobs, job{k, sku.GTIN})
		}
	}
	slices.SortFunc(jobs, func(x, y job) int {
		return cmp.Or(cmp.Compare(x.Province, y.Province), cmp.Compare(x.gtin, y.gtin), cmp.Compare(x.Banner, y.Banner), cmp.Compare(x.SKU, y.SKU))
	})
	var toks tokenPuts
	var calc offerCalc
	var old storage.Offer
	for i, j := range jobs {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		o, ok, err := calc.offer(w.tx, j.seriesKey)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		found, err := w.tx.Offer(j.Province, j.gtin, j.Banner, j.SKU, &old)
		if err != nil {
			return err
		}
		if found && old == o {
			continue // a re-import: leave the page clean
		}
		if err := w.tx.PutOffer(j.Province, j.gtin, &o); err != nil {
			return err
		}
		// A new offer may be the product's first in the province: index
		// its words there (an existing offer's product is indexed already;
		// renames are handled by rebuildTokens).
		if !found && (len(toks) == 0 || toks[len(toks)-1].province != j.Province || toks[len(toks)-1].gtin != j.gtin) {
			if err := toks.add(w.tx, j.Province, j.gtin); err != nil {
				return err
			}
		}
	}
	return toks.write(w.tx)
}

// offerCalc computes offers, reusing its buffers across calls.
type offerCalc struct {
	seen    map[uint32]bool
	entries []storage.Entry
	prices  []uint32
}

// offer summarises the latest observation of each store that observed the
// series within the freshness window of its newest observation.
func (c *offerCalc) offer(tx *storage.Tx, k seriesKey) (storage.Offer, bool, error) {
	if c.seen == nil {
		c.seen = map[uint32]bool{}
	}
	clear(c.seen)
	c.entries = c.entries[:0]
	newest := int32(-1)
	var dayPrice, dayRegular uint32
	err := tx.Series(k.Banner, k.SKU, k.Province, storage.SeriesScan{To: 1<<31 - 1, NewestFirst: true}, func(d *storage.Day) error {
		if newest < 0 {
			newest = d.Date
			dayPrice, dayRegular = dayPrices(d.Entries)
		}
		if d.Date <= newest-freshDays {
			return storage.ErrStop
		}
		for _, e := range d.Entries {
			if !c.seen[e.Store] {
				c.seen[e.Store] = true
				c.entries = append(c.entries, e)
			}
		}
		return nil
	})
	if err != nil || newest < 0 {
		return storage.Offer{}, false, err
	}
	o := storage.Offer{Banner: k.Banner, SKU: k.SKU, ObservedAt: newest, StoreCount: uint32(len(c.entries)),
		DayPrice: dayPrice, DayRegular: dayRegular}
	c.prices = c.prices[:0]
	for _, e := range c.entries {
		c.prices = append(c.prices, e.Price)
	}
	o.Price, o.Min, o.Max = pricestat.Mode(c.prices)
	c.prices = c.prices[:0]
	for _, e := range c.entries {
		c.prices = append(c.prices, e.Regular)
	}
	o.Regular, _, _ = pricestat.Mode(c.prices)
	if o.Regular < o.Price {
		o.Regular = o.Price
	}
	if o.Price < o.Regular {
		for _, e := range c.entries {
			if e.Price == o.Price && e.PromoEnd > o.PromoEnd {
				o.PromoEnd = e.PromoEnd
			}
		}
	}
	return o, true, nil
}

// Token flags stored in the search index.
const (
	tokenInName  = 1
	tokenInBrand = 2
)

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
			brand = tokens(p.Brand)
		}
		lang := map[string]byte{}
		for _, t := range names {
			lang[t] |= tokenInName
		}
		for _, t := range brand {
			lang[t] |= tokenInBrand
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
		add(tokens(p.Name))
	}
	if p.NameFr != "" {
		add(textfold.FrenchTokens(p.NameFr))
	}
	return m
}

// rebuildTokens re-indexes products whose name or brand changed.
func (w *writer) rebuildTokens() error {
	for gtin, old := range w.retoken {
		for _, p := range provinces {
			has := false
			err := w.tx.Offers(p.Code, string(gtin), func(*storage.Offer) error { has = true; return storage.ErrStop })
			if err != nil {
				return err
			}
			for tok := range productTokens(&old) {
				if err := w.tx.DeleteToken(p.Code, tok, string(gtin)); err != nil {
					return err
				}
			}
			if has {
				var toks tokenPuts
				if err := toks.add(w.tx, p.Code, string(gtin)); err != nil {
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
