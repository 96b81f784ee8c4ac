// Package exportrows streams the rows of grocery's export data sets
// (observations, offers and stores) from a data file to a rowwrite
// table: which rows a Query selects, in which order, the columns each
// data set has and what each cell holds. It reads in batches, each in a
// short read transaction of its own, and writes each batch as it is
// read, so that memory stays flat however many rows there are.
//
// It is not the export's interface: grocery validates the arguments and
// says what is wrong with them, names the file and decides the words a
// row carries (a barcode's UPC, a banner's name, a size's unit, the
// currency), which a Query takes as plain values and functions. It
// imports nothing from grocery.
package exportrows

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/textfold"
	"github.com/grocerydata/grocery/internal/rowwrite"
	"github.com/grocerydata/grocery/storage"
)

// Batch is how many rows an export reads per read transaction (more by
// up to one block of a series). Reading in short transactions keeps an
// export from holding bbolt's pages while a slow client reads it: see
// storage.ScanSeries.
const Batch = 8192

// Formats are the formats Stream writes itself, by name: each one's file
// name extension and MIME type. Others come with Query.Create.
var Formats = map[string]struct{ Ext, ContentType string }{
	"json":  {"json", "application/json"},
	"jsonl": {"jsonl", "application/x-ndjson"},
	"csv":   {"csv", "text/csv; charset=utf-8; header=present"},
}

// Slug lowercases s and keeps its ASCII letters and digits, other runs
// becoming one hyphen: "Dairy & Eggs" -> "dairy-eggs".
func Slug(s string) string {
	var b []byte
	for _, r := range s {
		r = textfold.Fold(r)
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			b = append(b, byte(r))
		case 'A' <= r && r <= 'Z':
			b = append(b, byte(r-'A'+'a'))
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	return strings.TrimSuffix(string(b), "-")
}

// Query is one export: the rows it selects, its format, where it reads
// them and the words its rows carry.
type Query struct {
	// Format is json, jsonl or csv, which Stream writes itself, or the
	// name of another format, which Create writes.
	Format string
	// Create returns the writer of a format other than json, jsonl and
	// csv: table is the dataset's name, cols its columns.
	Create func(w io.Writer, table string, cols []rowwrite.Column) (rowwrite.Writer, error)
	// Dataset is observations, offers or stores; anything else is stores.
	Dataset string
	// Province and Banner ("": any) keep the rows of one province and
	// banner; Category (compared case-insensitively) and GTIN (GTIN-14)
	// the rows of products of one category and one product (not for
	// stores); From and To (days since 1970-01-01, inclusive) bound the
	// observation dates (observations only).
	Province, Banner, Category, GTIN string
	From, To                         int32
	// Writes selects observations by the write that last changed them
	// (observations only): From 0 takes every one up to Until; a
	// transaction that sees no write after Until reads them unfiltered.
	Writes storage.WriteRange
	// Batch is how many rows a read transaction reads (Batch).
	Batch int
	// View runs fn in a read transaction of the data file: each batch
	// is one.
	View func(fn func(tx *storage.Tx) error) error
	// Progress, when set, is called with the rows written so far, every
	// few thousand rows and at the end.
	Progress func(rows int64)

	// UPC is the barcode a row shows of a GTIN-14.
	UPC func(gtin string) string
	// BannerName is the display name of a banner's slug.
	BannerName func(slug string) string
	// Unit reads a size as a quantity of its price basis ("per 100 g",
	// "per 100 mL" or "per unit", the unit_price_basis column), quantity
	// 0 when it has none.
	Unit func(size string) (qty float64, basis string)
	// FreshDays is how recent an offer's latest observation must be,
	// in days before the data set's latest date, for it to be current.
	FreshDays int32
	// Currency is the currency cell of every price row.
	Currency string
}

// Counts is what Stream wrote: rows, and bytes to the writer.
type Counts struct {
	Rows  int64
	Bytes int64
}

// Stream writes the rows q selects to w in q.Format, counting them in n:
// observations ordered by banner, SKU, province, date and store; offers
// (current ones: those observed within q.FreshDays of the data set's
// latest date) by province, barcode, banner and SKU; stores by
// province, banner and store id, every store with its active flag.
//
// It returns ctx's error when ctx is cancelled, the writer's error, and
// Create's writer's errors (an XLSX writer's rowwrite.ErrTooManyRows,
// before anything is written, past rowwrite.MaxXLSXRows rows).
func Stream(ctx context.Context, w io.Writer, q *Query, n *Counts) error {
	cw := &rowwrite.ByteCounter{Ctx: ctx, W: w, N: &n.Bytes}
	var cols []rowwrite.Column
	switch q.Dataset {
	case "observations":
		cols = ObservationCols
	case "offers":
		cols = OfferCols
	default:
		cols = StoreCols
	}
	var rw rowwrite.Writer
	var err error
	switch q.Format {
	case "csv":
		rw, err = rowwrite.NewCSV(cw, cols)
	case "json", "jsonl":
		rw = rowwrite.NewJSON(cw, cols, q.Format == "jsonl")
	default:
		rw, err = q.Create(cw, q.Dataset, cols)
	}
	if err != nil {
		return err
	}
	out := &rowwrite.Sink{Ctx: ctx, W: rw, Vals: make([]rowwrite.Value, len(cols)), Rows: &n.Rows, Progress: q.Progress}
	switch q.Dataset {
	case "observations":
		err = q.observations(ctx, out)
	case "offers":
		err = q.offers(ctx, out)
	default:
		err = q.stores(out)
	}
	if err == nil {
		err = rw.Close()
	} else {
		rw.Abort()
	}
	if ctx.Err() != nil && err != nil {
		err = ctx.Err()
	}
	if err == nil && q.Progress != nil {
		q.Progress(n.Rows)
	}
	return err
}

// promoEnd is the promo_ends cell: the promotion's last day when the
// price is a promotional one that has an end, else null.
func promoEnd(price, regular uint32, end int32) rowwrite.Value {
	if price < regular && end != 0 {
		return rowwrite.Num(int64(end))
	}
	return rowwrite.Null()
}

// promoEnded is the promo_ended cell of an offer: the stated end of a
// promotion its stores carried that ended before the data set's latest
// day, when the offer is not on promotion, else null.
func promoEnded(price, regular uint32, ended int32) rowwrite.Value {
	if price == regular && ended != 0 {
		return rowwrite.Num(int64(ended))
	}
	return rowwrite.Null()
}

// frenchName is the name_fr cell: null when the product has no French
// name.
func frenchName(s string) rowwrite.Value { return optionalText(s) }

// optionalText is the cell of an optional text (name_fr, product_type):
// null when it is "".
func optionalText(s string) rowwrite.Value {
	if s == "" {
		return rowwrite.Null()
	}
	return rowwrite.Str(s)
}

// ObservationCols, OfferCols and StoreCols are the columns of each
// dataset, in order.
var (
	ObservationCols = []rowwrite.Column{
		{Name: "date", Kind: rowwrite.Date}, {Name: "store_id"}, {Name: "banner"}, {Name: "province"},
		{Name: "external_sku"}, {Name: "upc"}, {Name: "name"}, {Name: "name_fr"}, {Name: "brand"}, {Name: "size"}, {Name: "category"},
		{Name: "product_type"}, {Name: "price", Kind: rowwrite.Money}, {Name: "regular_price", Kind: rowwrite.Money},
		{Name: "on_promo", Kind: rowwrite.Bool}, {Name: "promo_ends", Kind: rowwrite.Date}, {Name: "currency"},
		{Name: "source"},
	}
	OfferCols = []rowwrite.Column{
		{Name: "province"}, {Name: "upc"}, {Name: "name"}, {Name: "name_fr"}, {Name: "brand"}, {Name: "size"}, {Name: "category"},
		{Name: "product_type"}, {Name: "banner"}, {Name: "banner_name"}, {Name: "external_sku"},
		{Name: "price", Kind: rowwrite.Money}, {Name: "regular_price", Kind: rowwrite.Money},
		{Name: "on_promo", Kind: rowwrite.Bool}, {Name: "promo_ends", Kind: rowwrite.Date}, {Name: "promo_ended", Kind: rowwrite.Date},
		{Name: "min_price", Kind: rowwrite.Money}, {Name: "max_price", Kind: rowwrite.Money},
		{Name: "unit_price", Kind: rowwrite.Money}, {Name: "unit_price_basis"},
		{Name: "store_count", Kind: rowwrite.Int}, {Name: "observed_at", Kind: rowwrite.Date}, {Name: "currency"},
	}
	StoreCols = []rowwrite.Column{
		{Name: "store_id"}, {Name: "banner"}, {Name: "banner_name"}, {Name: "province"}, {Name: "name"},
		{Name: "city"}, {Name: "postal_code"}, {Name: "latitude", Kind: rowwrite.Float},
		{Name: "longitude", Kind: rowwrite.Float}, {Name: "observations_30d", Kind: rowwrite.Int},
		{Name: "active", Kind: rowwrite.Bool}, {Name: "source"},
	}
)

// productInfo is what an export row shows of a SKU's product: both its
// names, so that the export imports back whole.
type productInfo struct {
	upc, name, nameFr, brand, size, category, typ string
}

// storeInfo is what an observation row shows of its store.
type storeInfo struct{ id, source string }

// obsRow is one observation read, to be written after its transaction.
type obsRow struct {
	date     int32
	store    *storeInfo
	province string
	banner   string
	sku      string
	prod     *productInfo
	price    uint32
	regular  uint32
	promoEnd int32
}

// CountObservations counts the rows the observations export selects, as
// observations reads them (the same series, products and writes), in one
// transaction, stopping once the count passes limit: a count over limit
// is then not the export's whole count.
func (q *Query) CountObservations(ctx context.Context, limit int64) (int64, error) {
	sc := &obsScan{q: q, ctx: ctx, unrelated: &productInfo{}}
	var n int64
	count := func(_ *storage.SeriesRef, b *storage.Block) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := range b.Days {
			n += int64(len(b.Days[i].Entries))
		}
		if n > limit {
			return storage.ErrStop
		}
		return nil
	}
	err := q.View(func(tx *storage.Tx) error {
		targets, err := q.seriesTargets(tx)
		if err != nil {
			return err
		}
		sc.tx = tx
		writes := q.writesIn(tx)
		for ti := range targets {
			targets[ti].Writes = writes
			if _, err := tx.ScanSeries(nil, &targets[ti], sc.want, count); err != nil || n > limit {
				return err
			}
		}
		return nil
	})
	return n, err
}

// writesIn returns the write range a scan in tx filters by: q.Writes,
// or nil when tx sees no write after Writes.Until and the export takes
// every one (From 0), so that the scan reads the days unfiltered.
func (q *Query) writesIn(tx *storage.Tx) *storage.WriteRange {
	if q.Writes.From > 0 || tx.LastWrite() != q.Writes.Until {
		return &q.Writes
	}
	return nil
}

// observations streams the observations the export selects.
func (q *Query) observations(ctx context.Context, out *rowwrite.Sink) error {
	var (
		targets []storage.SeriesFilter
		stores  = map[uint32]*storeInfo{}
	)
	err := q.View(func(tx *storage.Tx) error {
		var err error
		if targets, err = q.seriesTargets(tx); err != nil {
			return err
		}
		return tx.ForEachStore(func(st *storage.Store) error { stores[st.Ord] = &storeInfo{st.ID, st.Source}; return nil })
	})
	if err != nil {
		return err
	}
	sc := &obsScan{q: q, ctx: ctx, stores: stores, rows: make([]obsRow, 0, q.Batch+1024), unrelated: &productInfo{}}
	var pos []byte
	for ti := 0; ti < len(targets); {
		sc.rows = sc.rows[:0]
		err := q.View(func(tx *storage.Tx) error {
			sc.tx, sc.lastKey = tx, "" // a new transaction reads the product anew
			writes := q.writesIn(tx)
			for ti < len(targets) {
				targets[ti].Writes = writes
				var err error
				if pos, err = tx.ScanSeries(pos, &targets[ti], sc.want, sc.add); err != nil || pos != nil {
					return err
				}
				ti++
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := q.writeObservations(out, sc.rows); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if out.Progress != nil {
			out.Progress(*out.Rows)
		}
	}
	return nil
}

// seriesTargets returns the series filters of the export in tx: one per
// banner SKU of its barcode, when it has one.
func (q *Query) seriesTargets(tx *storage.Tx) ([]storage.SeriesFilter, error) {
	f := storage.SeriesFilter{Banner: q.Banner, Province: q.Province, From: q.From, To: q.To}
	if q.GTIN == "" {
		return []storage.SeriesFilter{f}, nil
	}
	var targets []storage.SeriesFilter
	err := tx.SKUsOf(q.GTIN, func(banner, sku string) error {
		if q.Banner == "" || banner == q.Banner {
			f.Banner, f.SKU = banner, sku
			targets = append(targets, f)
		}
		return nil
	})
	return targets, err
}

// obsScan reads one transaction's batch of observations into rows.
type obsScan struct {
	q         *Query
	ctx       context.Context
	tx        *storage.Tx
	stores    map[uint32]*storeInfo
	rows      []obsRow
	lastKey   string // banner 0x00 sku of prod
	prod      *productInfo
	unrelated *productInfo // of a SKU without a stored product
}

// want reads the product of ref's banner SKU, and reports whether the
// export's category is its.
func (sc *obsScan) want(ref *storage.SeriesRef) (bool, error) {
	if key := ref.Banner + "\x00" + ref.SKU; key != sc.lastKey {
		sc.lastKey, sc.prod = key, sc.unrelated
		var rec storage.SKU
		var pr storage.Product
		if ok, err := sc.tx.SKU(ref.Banner, ref.SKU, &rec); err != nil {
			return false, err
		} else if ok && rec.GTIN != "" {
			if ok, err := sc.tx.Product(rec.GTIN, &pr); err != nil {
				return false, err
			} else if ok {
				sc.prod = &productInfo{upc: sc.q.UPC(rec.GTIN), name: pr.Name, nameFr: pr.NameFr, brand: pr.Brand, size: pr.Size, category: pr.Category, typ: pr.Type}
			} else {
				sc.prod = &productInfo{upc: sc.q.UPC(rec.GTIN)}
			}
		}
	}
	return sc.q.Category == "" || strings.EqualFold(sc.prod.category, sc.q.Category), nil
}

// add adds block b's observations, stopping the scan once the batch is
// full.
func (sc *obsScan) add(ref *storage.SeriesRef, b *storage.Block) error {
	if err := sc.ctx.Err(); err != nil {
		return err
	}
	for i := range b.Days {
		d := &b.Days[i]
		for _, e := range d.Entries {
			st, ok := sc.stores[e.Store]
			if !ok {
				return fmt.Errorf("grocery: store number %d of %s/%s is not stored", e.Store, ref.Banner, ref.SKU)
			}
			sc.rows = append(sc.rows, obsRow{date: d.Date, store: st, province: ref.Province, banner: ref.Banner, sku: ref.SKU,
				prod: sc.prod, price: e.Price, regular: e.Regular, promoEnd: e.PromoEnd})
		}
	}
	if len(sc.rows) >= sc.q.Batch {
		return storage.ErrStop
	}
	return nil
}

// writeObservations writes rows to out.
func (q *Query) writeObservations(out *rowwrite.Sink, rows []obsRow) error {
	v := out.Vals
	for i := range rows {
		r := &rows[i]
		v[0], v[1], v[2], v[3], v[4] = rowwrite.Num(int64(r.date)), rowwrite.Str(r.store.id), rowwrite.Str(r.banner), rowwrite.Str(r.province), rowwrite.Str(r.sku)
		v[5], v[6], v[7], v[8], v[9], v[10] = rowwrite.Str(r.prod.upc), rowwrite.Str(r.prod.name), frenchName(r.prod.nameFr), rowwrite.Str(r.prod.brand), rowwrite.Str(r.prod.size), rowwrite.Str(r.prod.category)
		v[11] = optionalText(r.prod.typ)
		v[12], v[13], v[14], v[15], v[16] = rowwrite.Num(int64(r.price)), rowwrite.Num(int64(r.regular)), rowwrite.Flag(r.price < r.regular),
			promoEnd(r.price, r.regular, r.promoEnd), rowwrite.Str(q.Currency)
		v[17] = rowwrite.Str(r.store.source)
		if err := out.Row(); err != nil {
			return err
		}
	}
	return nil
}

// offerRow is one current offer read, to be written after its
// transaction.
type offerRow struct {
	province string
	prod     *productInfo
	qty      float64
	basis    string
	o        storage.Offer
}

// offers streams the current offers the export selects.
func (q *Query) offers(ctx context.Context, out *rowwrite.Sink) error {
	sc := &offerScan{q: q, rows: make([]offerRow, 0, q.Batch)}
	var pos []byte
	for {
		sc.rows = sc.rows[:0]
		err := q.View(func(tx *storage.Tx) error {
			sc.tx, sc.current, sc.lastGTIN = tx, tx.AsOf()-q.FreshDays, ""
			var err error
			pos, err = tx.ScanOffers(pos, q.Province, q.GTIN, sc.add)
			return err
		})
		if err != nil {
			return err
		}
		if err := q.writeOffers(out, sc.rows); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if pos == nil {
			return nil
		}
	}
}

// offerScan reads one transaction's batch of current offers into rows.
type offerScan struct {
	q        *Query
	tx       *storage.Tx
	current  int32 // offers observed after it are current
	rows     []offerRow
	lastGTIN string // the product read last, prod, with qty and basis
	prod     *productInfo
	qty      float64
	basis    string
	keep     bool // whether lastGTIN's offers are exported
}

// add adds offer o of the barcode in province when it is current and the
// export selects it, stopping the scan once the batch is full.
func (sc *offerScan) add(province, gtin string, o *storage.Offer) error {
	q := sc.q
	if o.ObservedAt <= sc.current || q.Banner != "" && o.Banner != q.Banner {
		return nil
	}
	if gtin != sc.lastGTIN {
		sc.lastGTIN = gtin
		var pr storage.Product
		ok, err := sc.tx.Product(gtin, &pr)
		if err != nil {
			return err
		}
		sc.prod = &productInfo{upc: q.UPC(gtin), name: pr.Name, nameFr: pr.NameFr, brand: pr.Brand, size: pr.Size, category: pr.Category, typ: pr.Type}
		sc.keep = ok && (q.Category == "" || strings.EqualFold(pr.Category, q.Category))
		sc.qty, sc.basis = q.Unit(pr.Size)
	}
	if !sc.keep {
		return nil
	}
	sc.rows = append(sc.rows, offerRow{province: province, prod: sc.prod, qty: sc.qty, basis: sc.basis, o: *o})
	if len(sc.rows) >= q.Batch {
		return storage.ErrStop
	}
	return nil
}

// writeOffers writes rows to out.
func (q *Query) writeOffers(out *rowwrite.Sink, rows []offerRow) error {
	v := out.Vals
	for i := range rows {
		r := &rows[i]
		o := &r.o
		v[0], v[1], v[2], v[3], v[4], v[5], v[6] = rowwrite.Str(r.province), rowwrite.Str(r.prod.upc), rowwrite.Str(r.prod.name), frenchName(r.prod.nameFr), rowwrite.Str(r.prod.brand), rowwrite.Str(r.prod.size), rowwrite.Str(r.prod.category)
		v[7] = optionalText(r.prod.typ)
		v[8], v[9], v[10] = rowwrite.Str(o.Banner), rowwrite.Str(q.BannerName(o.Banner)), rowwrite.Str(o.SKU)
		v[11], v[12], v[13], v[14] = rowwrite.Num(int64(o.Price)), rowwrite.Num(int64(o.Regular)), rowwrite.Flag(o.Price < o.Regular), promoEnd(o.Price, o.Regular, o.PromoEnd)
		v[15] = promoEnded(o.Price, o.Regular, o.PromoEnded)
		v[16], v[17] = rowwrite.Num(int64(o.Min)), rowwrite.Num(int64(o.Max))
		if r.qty > 0 {
			v[18], v[19] = rowwrite.Num(pricestat.Cents(float64(o.Price)/r.qty)), rowwrite.Str(r.basis)
		} else {
			v[18], v[19] = rowwrite.Null(), rowwrite.Str("")
		}
		v[20], v[21], v[22] = rowwrite.Num(int64(o.StoreCount)), rowwrite.Num(int64(o.ObservedAt)), rowwrite.Str(q.Currency)
		if err := out.Row(); err != nil {
			return err
		}
	}
	return nil
}

// stores writes the stores the export selects, those that left the panel
// included (active false): the observations export names them too. The
// panel is small (thousands of stores), so one transaction reads it.
func (q *Query) stores(out *rowwrite.Sink) error {
	var all []storage.Store
	err := q.View(func(tx *storage.Tx) error {
		return tx.ForEachStore(func(st *storage.Store) error {
			if (q.Province == "" || st.Province == q.Province) && (q.Banner == "" || st.Banner == q.Banner) {
				all = append(all, *st)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b storage.Store) int {
		return cmp.Or(cmp.Compare(a.Province, b.Province), cmp.Compare(a.Banner, b.Banner), cmp.Compare(a.ID, b.ID))
	})
	v := out.Vals
	for i := range all {
		st := &all[i]
		v[0], v[1], v[2], v[3], v[4] = rowwrite.Str(st.ID), rowwrite.Str(st.Banner), rowwrite.Str(q.BannerName(st.Banner)), rowwrite.Str(st.Province), rowwrite.Str(st.Name)
		v[5], v[6], v[7], v[8], v[9] = rowwrite.Str(st.City), rowwrite.Str(st.PostalCode), rowwrite.Real(st.Latitude), rowwrite.Real(st.Longitude), rowwrite.Num(int64(st.Observations30d))
		v[10], v[11] = rowwrite.Flag(st.Active), rowwrite.Str(st.Source)
		if err := out.Row(); err != nil {
			return err
		}
	}
	return nil
}
