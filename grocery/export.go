package grocery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"io"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/rowwrite"
	"github.com/grocerydata/grocery/storage"
)

// ExportInput holds the arguments of Export and PrepareExport. Every
// field is optional.
type ExportInput struct {
	// Format is json (the default: one JSON array, an object per line),
	// jsonl (JSON Lines), csv (RFC 4180 with a header row), xlsx or
	// parquet (typed columns, written in row groups as they fill).
	Format string `json:"format,omitempty"`
	// Dataset is observations (the default), offers or stores.
	Dataset string `json:"dataset,omitempty"`
	// Province and Banner keep only the rows of one province and banner.
	Province string `json:"province,omitempty"`
	Banner   string `json:"banner,omitempty"`
	// Category keeps only products of one category (case-insensitive,
	// whole name, e.g. "Dairy & Eggs"); UPC only one product. Not for
	// stores.
	Category string `json:"category,omitempty"`
	UPC      string `json:"upc,omitempty"`
	// From and To (YYYY-MM-DD, inclusive) bound the observation dates, at
	// most MaxExportDays apart: by default To is the data set's latest
	// date and From DefaultExportDays before it. Observations only.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Progress, when set, is called with the rows written so far, every
	// few thousand rows and at the end.
	Progress func(rows int64) `json:"-"`
}

// Bounds of an observations export's dates.
const (
	DefaultExportDays = 30  // From..To when neither is given
	MaxExportDays     = 366 // the most From..To may span
)

// MaxXLSXRows is the most rows an XLSX export holds: one sheet's worth.
const MaxXLSXRows = rowwrite.MaxXLSXRows

// ExportSummary says what an export wrote.
type ExportSummary struct {
	Rows  int64 `json:"rows"`  // data rows written
	Bytes int64 `json:"bytes"` // bytes written to the writer
}

// PreparedExport is a validated export, ready to stream: PrepareExport
// makes it, Stream writes it. Its ContentType and FileName are what an
// HTTP answer carries before the first byte. It holds the data file it
// was prepared on (on a replica, one snapshot) until Stream ends or Close
// is called: a caller that does not stream it (a HEAD request, an error
// before the body) must Close it.
type PreparedExport struct {
	ContentType string // the MIME type of the format
	FileName    string // a descriptive name, e.g. grocery-observations-ON-2026-11-01-2026-11-21.csv

	s        *Service
	format   string
	dataset  string
	province string
	banner   string
	category string
	gtin     GTIN
	from, to Date
	asOf     Date
	progress func(int64)
	pin      *storage.Pinned // the file PrepareExport read and Stream reads, across its batches
	batch    int             // rows per read transaction: exportBatch
}

// ContentDisposition returns the Content-Disposition of an HTTP answer
// carrying the export: an attachment named FileName.
func (p *PreparedExport) ContentDisposition() string {
	return `attachment; filename="` + p.FileName + `"`
}

// Export writes the rows of a data set to w in one format, as they are
// read: memory stays flat however many rows there are, and cancelling
// ctx stops it within a batch of rows. It is PrepareExport then Stream;
// see them for the rows, their order and the errors.
func (s *Service) Export(ctx context.Context, in ExportInput, w io.Writer) (*ExportSummary, error) {
	p, err := s.PrepareExport(ctx, in)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Stream(ctx, w)
}

var exportFormats = map[string]struct{ ext, contentType string }{
	"json":    {"json", "application/json"},
	"jsonl":   {"jsonl", "application/x-ndjson"},
	"csv":     {"csv", "text/csv; charset=utf-8; header=present"},
	"xlsx":    {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	"parquet": {"parquet", "application/vnd.apache.parquet"},
}

// PrepareExport validates an export and resolves its defaults, reading
// only the data set's latest date; nothing is written. A transport calls
// it first, so that a bad argument is answered as an error before any
// byte of the export, then sets its headers from the result and calls
// Stream, or Close when it does not stream it.
//
// It pins the data file it reads: Stream reads the same one, so the file
// name and default dates come from the snapshot the rows come from even
// when a replica swaps in a newer one between the two calls.
//
// It returns EINVALID naming the argument for an unknown format or
// dataset, province or banner, a malformed or wrong-check-digit upc, a
// malformed date, from after to, a span over MaxExportDays, a category
// the catalogue does not have (listing those it has), and a filter the
// dataset does not take (category, upc, from and to for stores; from and
// to for offers); ENOTFOUND for a valid barcode not in the catalogue.
func (s *Service) PrepareExport(ctx context.Context, in ExportInput) (*PreparedExport, error) {
	p := &PreparedExport{s: s, progress: in.Progress, batch: exportBatch}
	p.format = strings.ToLower(strings.TrimSpace(in.Format))
	if p.format == "" {
		p.format = "json"
	}
	f, ok := exportFormats[p.format]
	if !ok {
		return nil, Errorf(EINVALID, "format %q is not supported: want json (default), jsonl, csv, xlsx or parquet", in.Format)
	}
	p.dataset = strings.ToLower(strings.TrimSpace(in.Dataset))
	switch p.dataset {
	case "":
		p.dataset = "observations"
	case "observations", "offers", "stores":
	default:
		return nil, Errorf(EINVALID, "dataset %q is not supported: want observations (default), offers or stores", in.Dataset)
	}
	if strings.TrimSpace(in.Province) != "" {
		v, err := ParseProvince(in.Province)
		if err != nil {
			return nil, err
		}
		p.province = v
	}
	if strings.TrimSpace(in.Banner) != "" {
		b, err := ParseBanner(in.Banner)
		if err != nil {
			return nil, err
		}
		p.banner = b.Slug
	}
	p.category = strings.TrimSpace(in.Category)
	if len(p.category) > maxTextLen {
		return nil, Errorf(EINVALID, "category is %d bytes long: want at most %d", len(p.category), maxTextLen)
	}
	if strings.TrimSpace(in.UPC) != "" {
		g, err := ParseGTIN(in.UPC)
		if err != nil {
			return nil, err
		}
		p.gtin = g
	}
	var from, to Date
	for _, d := range []struct {
		name, s string
		v       *Date
	}{{"from", in.From, &from}, {"to", in.To, &to}} {
		if strings.TrimSpace(d.s) == "" {
			continue
		}
		v, err := ParseDate(strings.TrimSpace(d.s))
		if err != nil {
			return nil, Errorf(EINVALID, "%s %q is not a date: want YYYY-MM-DD", d.name, d.s)
		}
		*d.v = v
	}
	notFor := func(name, value string) error {
		if value == "" {
			return nil
		}
		return Errorf(EINVALID, "%s does not apply to dataset %s: it filters %s", name, p.dataset,
			map[string]string{"category": "products (observations, offers)", "upc": "products (observations, offers)",
				"from": "observation dates (observations)", "to": "observation dates (observations)"}[name])
	}
	switch p.dataset {
	case "stores":
		for _, f := range [][2]string{{"category", p.category}, {"upc", string(p.gtin)}, {"from", in.From}, {"to", in.To}} {
			if err := notFor(f[0], strings.TrimSpace(f[1])); err != nil {
				return nil, err
			}
		}
	case "offers":
		for _, f := range [][2]string{{"from", in.From}, {"to", in.To}} {
			if err := notFor(f[0], strings.TrimSpace(f[1])); err != nil {
				return nil, err
			}
		}
	}
	// A filter that names nothing the data set has is a mistake to report,
	// not an empty file to send.
	pin, err := s.db.Pin()
	if err != nil {
		return nil, err
	}
	kept := false
	defer func() {
		if !kept {
			pin.Release()
		}
	}()
	err = pin.View(func(tx *storage.Tx) error {
		p.asOf = Date(tx.AsOf())
		if p.gtin != "" {
			var prod storage.Product
			found, err := tx.Product(string(p.gtin), &prod)
			if err != nil {
				return err
			}
			if !found {
				return Errorf(ENOTFOUND, "upc %s is a valid barcode but not in the catalogue", p.gtin.UPC())
			}
		}
		if p.category != "" {
			return checkCategory(tx, p.category)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if p.asOf == 0 {
		p.asOf = s.today()
	}
	if p.dataset == "observations" {
		switch {
		case from == 0 && to == 0:
			to = p.asOf
			from = to - DefaultExportDays + 1
		case to == 0:
			to = min(from+DefaultExportDays-1, max(p.asOf, from))
		case from == 0:
			from = to - DefaultExportDays + 1
		}
		if from > to {
			return nil, Errorf(EINVALID, "from %s is after to %s", from, to)
		}
		if to-from+1 > MaxExportDays {
			return nil, Errorf(EINVALID, "from %s to %s spans %d days: want at most %d", from, to, to-from+1, MaxExportDays)
		}
		p.from, p.to = from, to
	}
	p.ContentType = f.contentType
	p.FileName = p.fileName(f.ext)
	p.pin, kept = pin, true
	return p, nil
}

// Close lets go of the data file a prepared export holds, for an export
// that is not streamed; after Stream it does nothing, and so does a
// second Close. Stream after Close returns EINVALID.
func (p *PreparedExport) Close() {
	if p.pin != nil {
		p.pin.Release()
		p.pin = nil
	}
}

// checkCategory returns EINVALID listing the catalogue's categories when
// none is category (compared case-insensitively).
func checkCategory(tx *storage.Tx, category string) error {
	var known []string
	found := false
	err := tx.ForEachProduct(func(p *storage.Product) error {
		switch {
		case strings.EqualFold(p.Category, category):
			found = true
		case p.Category != "" && !slices.Contains(known, p.Category):
			known = append(known, p.Category)
		}
		return nil
	})
	if err != nil || found {
		return err
	}
	slices.Sort(known)
	return Errorf(EINVALID, "category %q is not in the catalogue: want one of %s", category, strings.Join(known, ", "))
}

// fileName names the export by its dataset and filters.
func (p *PreparedExport) fileName(ext string) string {
	parts := []string{"grocery", p.dataset}
	if p.province != "" {
		parts = append(parts, p.province)
	}
	if p.banner != "" {
		parts = append(parts, p.banner)
	}
	if c := slug(p.category); c != "" {
		parts = append(parts, c)
	}
	if p.gtin != "" {
		parts = append(parts, p.gtin.UPC())
	}
	switch p.dataset {
	case "observations":
		parts = append(parts, p.from.String(), p.to.String())
	case "offers":
		parts = append(parts, p.asOf.String())
	}
	return strings.Join(parts, "-") + "." + ext
}

// slug lowercases s and keeps its ASCII letters and digits, other runs
// becoming one hyphen: "Dairy & Eggs" -> "dairy-eggs".
func slug(s string) string {
	var b []byte
	for _, r := range s {
		r = fold(r)
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

// exportBatch is how many rows an export reads per read transaction
// (more by up to one block of a series). Reading in short transactions
// keeps an export from holding bbolt's pages while a slow client reads
// it: see storage.ScanSeries.
const exportBatch = 8192

// Stream writes the prepared export to w. Rows are read in batches of a
// few thousand, each in its own short read transaction, and written as
// each batch is read: memory stays flat however many rows there are, and
// a long export does not hold the data file's pages while the client
// reads. So an export that runs during an import may see some series
// before the import and some after; each block of 16 days of a series is
// read whole.
//
// Observations come ordered by banner, SKU, province, date and store;
// offers by province, barcode, banner and SKU (only current offers: those
// observed within the 14 days up to the data set's latest date); stores by
// province, banner and store id, every store with its active flag (the
// observations name the stores that left the panel too, so a round trip
// needs them).
//
// Its batches all read the data file PrepareExport read: on a replica, a
// snapshot swapped in meanwhile serves the calls that start after it, not
// this export. Stream lets go of the file when it returns, so a prepared
// export streams once.
//
// The summary is never nil. It returns ctx's error when ctx is cancelled,
// the writer's error, and EINVALID, before anything is written, for an
// XLSX export over MaxXLSXRows rows, or streamed already or closed. When
// it returns an error with Bytes 0, nothing was written to w.
func (p *PreparedExport) Stream(ctx context.Context, w io.Writer) (*ExportSummary, error) {
	sum := &ExportSummary{}
	if p.pin == nil {
		return sum, Errorf(EINVALID, "the export was streamed or closed already: prepare it again")
	}
	defer p.Close()
	cw := &rowwrite.ByteCounter{Ctx: ctx, W: w, N: &sum.Bytes}
	var cols []rowwrite.Column
	switch p.dataset {
	case "observations":
		cols = observationCols
	case "offers":
		cols = offerCols
	default:
		cols = storeCols
	}
	var rw rowwrite.Writer
	var err error
	switch p.format {
	case "csv":
		rw, err = rowwrite.NewCSV(cw, cols)
	case "xlsx":
		rw, err = rowwrite.NewXLSX(cw, p.dataset, cols)
	case "parquet":
		rw, err = rowwrite.NewParquet(cw, cols)
	default:
		rw = rowwrite.NewJSON(cw, cols, p.format == "jsonl")
	}
	if err != nil {
		return sum, err
	}
	// The batches are transactions of their own; pinned, they all read
	// one file even when a replica swaps in a newer snapshot meanwhile.
	out := &rowwrite.Sink{Ctx: ctx, W: rw, Vals: make([]rowwrite.Value, len(cols)), Rows: &sum.Rows, Progress: p.progress}
	switch p.dataset {
	case "observations":
		err = p.observations(ctx, out)
	case "offers":
		err = p.offers(ctx, out)
	default:
		err = p.stores(out)
	}
	if err == nil {
		err = rw.Close()
	} else {
		rw.Abort()
	}
	if errors.Is(err, rowwrite.ErrTooManyRows) {
		err = Errorf(EINVALID, "the export holds more than %d rows, the most an XLSX sheet holds: narrow it (from, to, province, banner, category, upc) or use format csv, parquet, jsonl or json", MaxXLSXRows)
	}
	if ctx.Err() != nil && err != nil {
		err = ctx.Err()
	}
	if err == nil && p.progress != nil {
		p.progress(sum.Rows)
	}
	return sum, err
}

// promoEnd is the promo_ends cell: the promotion's last day when the
// price is a promotional one that has an end, else null.
func promoEnd(price, regular uint32, end int32) rowwrite.Value {
	if price < regular && end != 0 {
		return rowwrite.Num(int64(end))
	}
	return rowwrite.Null()
}

// frenchName is the name_fr cell: null when the product has no French
// name.
func frenchName(s string) rowwrite.Value {
	if s == "" {
		return rowwrite.Null()
	}
	return rowwrite.Str(s)
}

// The columns of each dataset.
var (
	observationCols = []rowwrite.Column{
		{Name: "date", Kind: rowwrite.Date}, {Name: "store_id"}, {Name: "banner"}, {Name: "province"},
		{Name: "external_sku"}, {Name: "upc"}, {Name: "name"}, {Name: "name_fr"}, {Name: "brand"}, {Name: "size"}, {Name: "category"},
		{Name: "price", Kind: rowwrite.Money}, {Name: "regular_price", Kind: rowwrite.Money},
		{Name: "on_promo", Kind: rowwrite.Bool}, {Name: "promo_ends", Kind: rowwrite.Date}, {Name: "currency"},
	}
	offerCols = []rowwrite.Column{
		{Name: "province"}, {Name: "upc"}, {Name: "name"}, {Name: "name_fr"}, {Name: "brand"}, {Name: "size"}, {Name: "category"},
		{Name: "banner"}, {Name: "banner_name"}, {Name: "external_sku"},
		{Name: "price", Kind: rowwrite.Money}, {Name: "regular_price", Kind: rowwrite.Money},
		{Name: "on_promo", Kind: rowwrite.Bool}, {Name: "promo_ends", Kind: rowwrite.Date},
		{Name: "min_price", Kind: rowwrite.Money}, {Name: "max_price", Kind: rowwrite.Money},
		{Name: "unit_price", Kind: rowwrite.Money}, {Name: "unit_price_basis"},
		{Name: "store_count", Kind: rowwrite.Int}, {Name: "observed_at", Kind: rowwrite.Date}, {Name: "currency"},
	}
	storeCols = []rowwrite.Column{
		{Name: "store_id"}, {Name: "banner"}, {Name: "banner_name"}, {Name: "province"}, {Name: "name"},
		{Name: "city"}, {Name: "postal_code"}, {Name: "latitude", Kind: rowwrite.Float},
		{Name: "longitude", Kind: rowwrite.Float}, {Name: "observations_30d", Kind: rowwrite.Int},
		{Name: "active", Kind: rowwrite.Bool},
	}
)

// productInfo is what an export row shows of a SKU's product: both its
// names, so that the export imports back whole.
type productInfo struct {
	upc, name, nameFr, brand, size, category string
}

// obsRow is one observation read, to be written after its transaction.
type obsRow struct {
	date     int32
	store    string
	province string
	banner   string
	sku      string
	prod     *productInfo
	price    uint32
	regular  uint32
	promoEnd int32
}

// observations streams the observations the export selects.
func (p *PreparedExport) observations(ctx context.Context, out *rowwrite.Sink) error {
	var targets []storage.SeriesFilter
	stores := map[uint32]string{}
	err := p.pin.View(func(tx *storage.Tx) error {
		if err := tx.ForEachStore(func(st *storage.Store) error { stores[st.Ord] = st.ID; return nil }); err != nil {
			return err
		}
		f := storage.SeriesFilter{Banner: p.banner, Province: p.province, From: int32(p.from), To: int32(p.to)}
		if p.gtin == "" {
			targets = append(targets, f)
			return nil
		}
		return tx.SKUsOf(string(p.gtin), func(banner, sku string) error {
			if p.banner == "" || banner == p.banner {
				f.Banner, f.SKU = banner, sku
				targets = append(targets, f)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	var (
		rows      = make([]obsRow, 0, p.batch+1024)
		pos       []byte
		ti        int
		lastKey   string // banner 0x00 sku of prod
		prod      *productInfo
		unrelated = &productInfo{}
	)
	var tx *storage.Tx
	want := func(ref *storage.SeriesRef) (bool, error) {
		if key := ref.Banner + "\x00" + ref.SKU; key != lastKey {
			lastKey, prod = key, unrelated
			var rec storage.SKU
			var pr storage.Product
			if ok, err := tx.SKU(ref.Banner, ref.SKU, &rec); err != nil {
				return false, err
			} else if ok && rec.GTIN != "" {
				if ok, err := tx.Product(rec.GTIN, &pr); err != nil {
					return false, err
				} else if ok {
					prod = &productInfo{upc: GTIN(rec.GTIN).UPC(), name: pr.Name, nameFr: pr.NameFr, brand: pr.Brand, size: pr.Size, category: pr.Category}
				} else {
					prod = &productInfo{upc: GTIN(rec.GTIN).UPC()}
				}
			}
		}
		return p.category == "" || strings.EqualFold(prod.category, p.category), nil
	}
	var missing error
	add := func(ref *storage.SeriesRef, b *storage.Block) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := range b.Days {
			d := &b.Days[i]
			for _, e := range d.Entries {
				id, ok := stores[e.Store]
				if !ok {
					missing = fmt.Errorf("grocery: store number %d of %s/%s is not stored", e.Store, ref.Banner, ref.SKU)
					return missing
				}
				rows = append(rows, obsRow{date: d.Date, store: id, province: ref.Province, banner: ref.Banner, sku: ref.SKU,
					prod: prod, price: e.Price, regular: e.Regular, promoEnd: e.PromoEnd})
			}
		}
		if len(rows) >= p.batch {
			return storage.ErrStop
		}
		return nil
	}
	v := out.Vals
	for ti < len(targets) {
		rows = rows[:0]
		err := p.pin.View(func(t *storage.Tx) error {
			tx = t
			lastKey = "" // a new transaction reads the product anew
			for ti < len(targets) {
				var err error
				if pos, err = tx.ScanSeries(pos, &targets[ti], want, add); err != nil || pos != nil {
					return err
				}
				ti++
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range rows {
			r := &rows[i]
			v[0], v[1], v[2], v[3], v[4] = rowwrite.Num(int64(r.date)), rowwrite.Str(r.store), rowwrite.Str(r.banner), rowwrite.Str(r.province), rowwrite.Str(r.sku)
			v[5], v[6], v[7], v[8], v[9], v[10] = rowwrite.Str(r.prod.upc), rowwrite.Str(r.prod.name), frenchName(r.prod.nameFr), rowwrite.Str(r.prod.brand), rowwrite.Str(r.prod.size), rowwrite.Str(r.prod.category)
			v[11], v[12], v[13], v[14], v[15] = rowwrite.Num(int64(r.price)), rowwrite.Num(int64(r.regular)), rowwrite.Flag(r.price < r.regular),
				promoEnd(r.price, r.regular, r.promoEnd), rowwrite.Str(Currency)
			if err := out.Row(); err != nil {
				return err
			}
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
func (p *PreparedExport) offers(ctx context.Context, out *rowwrite.Sink) error {
	var (
		rows     = make([]offerRow, 0, p.batch)
		pos      []byte
		lastGTIN string
		prod     *productInfo
		qty      float64
		basis    string
		keep     bool
	)
	for {
		rows = rows[:0]
		err := p.pin.View(func(tx *storage.Tx) error {
			current := tx.AsOf() - freshDays
			lastGTIN = ""
			var err error
			pos, err = tx.ScanOffers(pos, p.province, string(p.gtin), func(province, gtin string, o *storage.Offer) error {
				if o.ObservedAt <= current || p.banner != "" && o.Banner != p.banner {
					return nil
				}
				if gtin != lastGTIN {
					lastGTIN = gtin
					var pr storage.Product
					ok, err := tx.Product(gtin, &pr)
					if err != nil {
						return err
					}
					prod = &productInfo{upc: GTIN(gtin).UPC(), name: pr.Name, nameFr: pr.NameFr, brand: pr.Brand, size: pr.Size, category: pr.Category}
					keep = ok && (p.category == "" || strings.EqualFold(pr.Category, p.category))
					qty, basis = unitprice.Of(pr.Size)
				}
				if !keep {
					return nil
				}
				rows = append(rows, offerRow{province: province, prod: prod, qty: qty, basis: basis, o: *o})
				if len(rows) >= p.batch {
					return storage.ErrStop
				}
				return nil
			})
			return err
		})
		if err != nil {
			return err
		}
		v := out.Vals
		for i := range rows {
			r := &rows[i]
			o := &r.o
			v[0], v[1], v[2], v[3], v[4], v[5], v[6] = rowwrite.Str(r.province), rowwrite.Str(r.prod.upc), rowwrite.Str(r.prod.name), frenchName(r.prod.nameFr), rowwrite.Str(r.prod.brand), rowwrite.Str(r.prod.size), rowwrite.Str(r.prod.category)
			v[7], v[8], v[9] = rowwrite.Str(o.Banner), rowwrite.Str(bannerName(o.Banner)), rowwrite.Str(o.SKU)
			v[10], v[11], v[12], v[13] = rowwrite.Num(int64(o.Price)), rowwrite.Num(int64(o.Regular)), rowwrite.Flag(o.Price < o.Regular), promoEnd(o.Price, o.Regular, o.PromoEnd)
			v[14], v[15] = rowwrite.Num(int64(o.Min)), rowwrite.Num(int64(o.Max))
			if r.qty > 0 {
				v[16], v[17] = rowwrite.Num(pricestat.Cents(float64(o.Price)/r.qty)), rowwrite.Str(r.basis)
			} else {
				v[16], v[17] = rowwrite.Null(), rowwrite.Str("")
			}
			v[18], v[19], v[20] = rowwrite.Num(int64(o.StoreCount)), rowwrite.Num(int64(o.ObservedAt)), rowwrite.Str(Currency)
			if err := out.Row(); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if pos == nil {
			return nil
		}
	}
}

// stores writes the stores the export selects, those that left the panel
// included (active false): the observations export names them too. The
// panel is small (thousands of stores), so one transaction reads it.
func (p *PreparedExport) stores(out *rowwrite.Sink) error {
	var all []Store
	err := p.pin.View(func(tx *storage.Tx) error {
		return tx.ForEachStore(func(st *storage.Store) error {
			if (p.province == "" || st.Province == p.province) && (p.banner == "" || st.Banner == p.banner) {
				all = append(all, store(st))
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b Store) int {
		return cmp.Or(cmp.Compare(a.Province, b.Province), cmp.Compare(a.Banner, b.Banner), cmp.Compare(a.ID, b.ID))
	})
	v := out.Vals
	for i := range all {
		st := &all[i]
		v[0], v[1], v[2], v[3], v[4] = rowwrite.Str(st.ID), rowwrite.Str(st.Banner), rowwrite.Str(st.BannerName), rowwrite.Str(st.Province), rowwrite.Str(st.Name)
		v[5], v[6], v[7], v[8], v[9] = rowwrite.Str(st.City), rowwrite.Str(st.PostalCode), rowwrite.Real(st.Latitude), rowwrite.Real(st.Longitude), rowwrite.Num(int64(st.Observations30d))
		v[10] = rowwrite.Flag(st.Active)
		if err := out.Row(); err != nil {
			return err
		}
	}
	return nil
}
