package grocery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/exportrows"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/internal/rowwrite"
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
	// From and To (YYYY-MM-DD, inclusive) bound the observation dates,
	// any span apart: by default To is the data set's latest date and
	// From DefaultExportDays before it, or, with ChangedSince, every
	// date. Observations only.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// ChangedSince is the Cursor of an earlier export: only the
	// observations added or changed since it was read come, each once,
	// as it is now (a correction comes again, at its new price; a change
	// of a product's facts or barcode brings every row of its SKUs
	// again). Observations only: offers and stores come whole.
	ChangedSince string `json:"changed_since,omitempty"`
	// Progress, when set, is called with the rows written so far, every
	// few thousand rows and at the end.
	Progress func(rows int64) `json:"-"`
}

// DefaultExportDays is the span of an observations export's dates when
// neither From, To nor ChangedSince is given. A given span has no bound:
// an export streams, so a backfill of years takes no more memory than a
// day's.
const DefaultExportDays = 30

// MaxXLSXRows is the most rows an XLSX export holds: one sheet's worth.
// PrepareExport refuses an observations export over it (from the stored
// counts, or for a barcode's export or changes by reading their rows);
// the XLSX writer (package github.com/grocerydata/grocery/format/xlsx)
// refuses any other past it before it writes anything.
const MaxXLSXRows = rowwrite.MaxXLSXRows

// ExportSummary says what an export wrote.
type ExportSummary struct {
	Rows  int64 `json:"rows"`  // data rows written
	Bytes int64 `json:"bytes"` // bytes written to the writer
	// Cursor is the export's PreparedExport.Cursor: ExportInput.ChangedSince
	// takes it to export what was added or changed after.
	Cursor string `json:"cursor,omitempty"`
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
	// Cursor names the data the export reads (the data file and its
	// latest write): ExportInput.ChangedSince takes it to export only
	// what was added or changed after. It is opaque text, the same for
	// every export of the same data, whatever its dataset or filters.
	Cursor string

	s        *Service
	format   string
	create   func(io.Writer, string, []Column) (RowWriter, error) // a registered format's writer
	dataset  string
	province string
	banner   string
	category string
	gtin     GTIN
	from, to Date
	asOf     Date
	cursor   exportCursor  // the data PrepareExport read
	since    *exportCursor // ChangedSince, when given
	progress func(int64)
	pin      *storage.Pinned // the file PrepareExport read and Stream reads, across its batches
	batch    int             // rows per read transaction: exportrows.Batch
	maxRows  int             // the format's Format.MaxRows
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

// PrepareExport validates an export and resolves its defaults, reading
// only the data set's latest date (and, in a format with a row limit,
// the stored counts of the observations asked for, or, for a barcode's
// export or changes, which they do not cover, the observations themselves
// up to one past the limit); nothing is written. A transport calls
// it first, so that a bad argument is answered as an error before any
// byte of the export, then sets its headers from the result and calls
// Stream, or Close when it does not stream it.
//
// It pins the data file it reads: Stream reads the same one, so the file
// name and default dates come from the snapshot the rows come from even
// when a replica swaps in a newer one between the two calls.
//
// It returns EINVALIDARGUMENT naming the argument for an unknown format or
// dataset, province or banner, a malformed or wrong-check-digit upc, a
// malformed date, from after to, a ChangedSince that is not a cursor, a category
// the catalogue does not have (listing those it has), and a filter the
// dataset does not take (category, upc, from and to for stores; from and
// to for offers; changed_since for both), and an observations export
// over its format's row limit (Format.MaxRows); ctx's error when ctx is
// cancelled while it counts an export's rows; ENOTFOUND for a valid barcode
// not in the catalogue; EGONE for a ChangedSince of another data file
// (the data was replaced) or of later data than the file holds.
func (s *Service) PrepareExport(ctx context.Context, in ExportInput) (*PreparedExport, error) {
	p := &PreparedExport{s: s, progress: in.Progress, batch: exportrows.Batch}
	f, err := p.parse(in)
	if err != nil {
		return nil, err
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
	if err := pin.View(p.check); err != nil {
		return nil, err
	}
	if p.asOf == 0 {
		p.asOf = s.today()
	}
	if p.dataset == "observations" {
		if err := p.resolveDates(); err != nil {
			return nil, err
		}
		if err := p.checkRows(ctx, pin); err != nil {
			return nil, err
		}
	}
	p.ContentType = f.ContentType
	p.FileName = p.fileName(f.Ext)
	p.Cursor = p.cursor.String()
	p.pin, kept = pin, true
	return p, nil
}

// parse sets p's format, dataset and filters from in, and returns the
// format's file name extension and MIME type; EINVALIDARGUMENT names a
// bad one, or a filter the dataset does not take.
func (p *PreparedExport) parse(in ExportInput) (f struct{ Ext, ContentType string }, err error) {
	p.format = strings.ToLower(strings.TrimSpace(in.Format))
	if p.format == "" {
		p.format = "json"
	}
	f, ok := exportrows.Formats[p.format]
	if !ok {
		reg, err := exportWriter(p.format, in.Format)
		if err != nil {
			return f, err
		}
		f.Ext, f.ContentType, p.create, p.maxRows = reg.Ext, reg.ContentType, reg.Create, reg.MaxRows
	}
	p.dataset = strings.ToLower(strings.TrimSpace(in.Dataset))
	switch p.dataset {
	case "":
		p.dataset = "observations"
	case "observations", "offers", "stores":
	default:
		return f, Errorf(EINVALIDARGUMENT, "dataset %q is not supported: want observations (default), offers or stores", in.Dataset)
	}
	if strings.TrimSpace(in.Province) != "" {
		if p.province, err = ParseProvince(in.Province); err != nil {
			return f, err
		}
	}
	if strings.TrimSpace(in.Banner) != "" {
		b, err := ParseBanner(in.Banner)
		if err != nil {
			return f, err
		}
		p.banner = b.Slug
	}
	p.category = strings.TrimSpace(in.Category)
	if len(p.category) > maxTextLen {
		return f, Errorf(EINVALIDARGUMENT, "category is %d bytes long: want at most %d", len(p.category), maxTextLen)
	}
	if strings.TrimSpace(in.UPC) != "" {
		if p.gtin, err = ParseGTIN(in.UPC); err != nil {
			return f, err
		}
	}
	for _, d := range []struct {
		name, s string
		v       *Date
	}{{"from", in.From, &p.from}, {"to", in.To, &p.to}} {
		if strings.TrimSpace(d.s) == "" {
			continue
		}
		if *d.v, err = ParseDate(strings.TrimSpace(d.s)); err != nil {
			return f, Errorf(EINVALIDARGUMENT, "%s %q is not a date: want YYYY-MM-DD", d.name, d.s)
		}
	}
	if err := p.checkFilters(in); err != nil {
		return f, err
	}
	if strings.TrimSpace(in.ChangedSince) != "" {
		c, err := parseCursor(in.ChangedSince)
		if err != nil {
			return f, err
		}
		p.since = &c
	}
	return f, nil
}

// checkFilters returns EINVALIDARGUMENT for a filter of in that p's
// dataset does not take.
func (p *PreparedExport) checkFilters(in ExportInput) error {
	var given [][2]string
	switch p.dataset {
	case "stores":
		given = [][2]string{{"category", p.category}, {"upc", string(p.gtin)}, {"from", in.From}, {"to", in.To}, {"changed_since", in.ChangedSince}}
	case "offers":
		given = [][2]string{{"from", in.From}, {"to", in.To}, {"changed_since", in.ChangedSince}}
	}
	for _, f := range given {
		name, value := f[0], strings.TrimSpace(f[1])
		switch {
		case value == "":
		case name == "changed_since":
			return Errorf(EINVALIDARGUMENT, "changed_since does not apply to dataset %s: it comes whole, as it is now (only observations are exported as changes)", p.dataset)
		default:
			return Errorf(EINVALIDARGUMENT, "%s does not apply to dataset %s: it filters %s", name, p.dataset,
				map[string]string{"category": "products (observations, offers)", "upc": "products (observations, offers)",
					"from": "observation dates (observations)", "to": "observation dates (observations)"}[name])
		}
	}
	return nil
}

// check reads the data set's latest date and write in tx, and checks
// ChangedSince, the barcode and the category against them.
func (p *PreparedExport) check(tx *storage.Tx) error {
	p.asOf = Date(tx.AsOf())
	p.cursor = cursorOf(tx)
	if p.since != nil {
		if err := p.since.check(p.cursor); err != nil {
			return err
		}
	}
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
}

// resolveDates gives the observations' dates their defaults: the
// DefaultExportDays up to the latest date when neither is given, from
// any date when exporting changes.
func (p *PreparedExport) resolveDates() error {
	from, to := p.from, p.to
	switch {
	case p.since != nil:
		// The changes of any date, unless bounded.
		if to == 0 {
			to = math.MaxInt32
		}
	case from == 0 && to == 0:
		to = p.asOf
		from = to - DefaultExportDays + 1
	case to == 0:
		to = min(from+DefaultExportDays-1, max(p.asOf, from))
	case from == 0:
		from = to - DefaultExportDays + 1
	}
	if from > to {
		return Errorf(EINVALIDARGUMENT, "from %s is after to %s", from, to)
	}
	p.from, p.to = from, to
	return nil
}

// checkRows returns EINVALIDARGUMENT when the observations export holds
// more than its format's MaxRows rows (when not 0). The rows are counted
// from the category days: each observation is counted in the one of its
// province, category, banner and day, so their counts add up to the
// export's rows without a row read. An export of one barcode or of
// changes, which the category days do not count, is counted by reading
// its observations as the export would, until the count passes the
// limit: its error says "more than" the limit.
func (p *PreparedExport) checkRows(ctx context.Context, pin *storage.Pinned) error {
	if p.maxRows == 0 {
		return nil
	}
	if p.gtin != "" || p.since != nil {
		n, err := p.query(pin.View).CountObservations(ctx, int64(p.maxRows))
		if err != nil {
			return err
		}
		if n > int64(p.maxRows) {
			return tooManyRows(p.format, p.maxRows, 0)
		}
		return nil
	}
	var n int64
	err := pin.View(func(tx *storage.Tx) error {
		return tx.CatDays(p.province, "", p.banner, int32(p.from), int32(p.to), storage.CatCounts, func(k *storage.CatDayKey, c *storage.CatDay) error {
			if p.category == "" || strings.EqualFold(k.Category, p.category) {
				n += int64(c.Count)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if n > int64(p.maxRows) {
		return tooManyRows(p.format, p.maxRows, n)
	}
	return nil
}

// query is the export's query of exportrows, reading through view.
func (p *PreparedExport) query(view func(fn func(tx *storage.Tx) error) error) *exportrows.Query {
	return &exportrows.Query{
		Format: p.format, Create: p.create, Dataset: p.dataset, Province: p.province, Banner: p.banner, Category: p.category, GTIN: string(p.gtin),
		From: int32(p.from), To: int32(p.to), Batch: p.batch, View: view, Progress: p.progress, Writes: p.writes(),
		UPC: func(g string) string { return GTIN(g).UPC() }, BannerName: bannerName, Unit: unitprice.Of, FreshDays: freshDays, Currency: Currency,
	}
}

// tooManyRows is the error of an export over its format's row limit: of
// n rows, or of more than the limit when n is 0 (the count unknown).
func tooManyRows(format string, maxRows int, n int64) error {
	held := fmt.Sprintf("%d rows, more than the %d", n, maxRows)
	switch {
	case maxRows == 0: // a writer that did not declare its limit
		held = "more rows than"
	case n == 0:
		held = fmt.Sprintf("more than the %d rows", maxRows)
	}
	return Errorf(EINVALIDARGUMENT, "the export holds %s one %s file holds: narrow it (from, to, province, banner, category, upc) or use format csv, parquet, jsonl or json", held, strings.ToUpper(format))
}

// Close lets go of the data file a prepared export holds, for an export
// that is not streamed; after Stream it does nothing, and so does a
// second Close. Stream after Close returns EINVALIDARGUMENT.
func (p *PreparedExport) Close() {
	if p.pin != nil {
		p.pin.Release()
		p.pin = nil
	}
}

// checkCategory returns EINVALIDARGUMENT listing the catalogue's categories when
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
	return Errorf(EINVALIDARGUMENT, "category %q is not in the catalogue: want one of %s", category, strings.Join(known, ", "))
}

// writes returns the writes whose observations the export takes: those
// after ChangedSince's, up to the one PrepareExport read, so that a write
// that commits while the export streams comes with the next export whose
// ChangedSince is this one's Cursor, not twice and not never.
func (p *PreparedExport) writes() storage.WriteRange {
	r := storage.WriteRange{Until: p.cursor.write}
	if p.since != nil {
		r.From = p.since.write + 1
	}
	return r
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
	if c := exportrows.Slug(p.category); c != "" {
		parts = append(parts, c)
	}
	if p.gtin != "" {
		parts = append(parts, p.gtin.UPC())
	}
	switch {
	case p.since != nil:
		// The changes up to the data set's latest date.
		parts = append(parts, "changes", p.asOf.String())
	case p.dataset == "observations":
		parts = append(parts, p.from.String(), p.to.String())
	case p.dataset == "offers":
		parts = append(parts, p.asOf.String())
	}
	return strings.Join(parts, "-") + "." + ext
}

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
// the writer's error, and EINVALIDARGUMENT, before anything is written, for an
// export over its format's row limit (an XLSX one over MaxXLSXRows rows), or streamed already or closed. When
// it returns an error with Bytes 0, nothing was written to w.
func (p *PreparedExport) Stream(ctx context.Context, w io.Writer) (*ExportSummary, error) {
	sum := &ExportSummary{Cursor: p.Cursor}
	if p.pin == nil {
		return sum, Errorf(EINVALIDARGUMENT, "the export was streamed or closed already: prepare it again")
	}
	defer p.Close()
	// The batches are transactions of their own; pinned, they all read
	// one file even when a replica swaps in a newer snapshot meanwhile.
	var n exportrows.Counts
	err := exportrows.Stream(ctx, w, p.query(p.pin.View), &n)
	sum.Rows, sum.Bytes = n.Rows, n.Bytes
	if errors.Is(err, rowwrite.ErrTooManyRows) {
		err = tooManyRows(p.format, p.maxRows, 0)
	}
	return sum, err
}
