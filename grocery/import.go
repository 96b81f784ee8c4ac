package grocery

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/exportrows"
	"github.com/grocerydata/grocery/grocery/internal/importrow"
	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/internal/extsort"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
)

// ImportOptions configures Import. A nil *ImportOptions means the defaults.
type ImportOptions struct {
	SkipInvalid bool // skip bad rows (reported) instead of stopping
	// UpdateNames lets the file's product names replace the stored ones.
	// Without it a product keeps the names it has: a different name in
	// the file is counted in ImportReport.NamesKept and noted, and only a
	// missing name (English or French) is filled in.
	UpdateNames bool
	Progress    func(bytesRead int64) // called now and then while reading; may be nil
}

// ImportReport is what one file's import did. Rows counts every data row
// read; a row repeated identically within the file counts as Unchanged.
type ImportReport struct {
	File      string `json:"file"`
	Kind      string `json:"kind"`   // "stores" or "observations"
	Format    string `json:"format"` // "csv", "jsonl", "json", "xlsx" or "parquet"
	Rows      int    `json:"rows"`   // data rows read
	New       int    `json:"new"`
	Updated   int    `json:"updated"`
	Unchanged int    `json:"unchanged"`
	Skipped   int    `json:"skipped"`
	// NamesKept counts the products whose name in the file (English or
	// French) differed from the one they keep: the stored one, or the
	// file's first (always 0 with ImportOptions.UpdateNames).
	NamesKept int      `json:"names_kept"`
	Problems  []string `json:"problems,omitempty"` // "file:line: field: reason" of skipped rows and notes (first 20)
	// AlertsError says why the alert rules could not be evaluated after
	// the import committed (a shared store unreachable): the data is
	// imported; 'grocery alerts evaluate' records the missing events.
	AlertsError string `json:"alerts_error,omitempty"`
	// PublishError says why the snapshot of the data file could not be
	// published after the import committed (with Options.SnapshotDir: a
	// full or unwritable snapshot directory): the data is imported, the
	// replicas do not see it until a later publish succeeds.
	PublishError string `json:"publish_error,omitempty"`
	// Resumed is the last day whose observations an earlier import of the
	// same file wrote before it stopped between its batches (a file of
	// more than about a million rows is written in batches of whole
	// days), nothing having been written since: this import took them as
	// written, counted them as unchanged, and wrote the later days.
	Resumed string `json:"resumed,omitempty"`
}

// Import reads one CSV, JSON Lines, JSON, XLSX or Parquet file of stores or observations
// and writes it atomically: either every valid row of the file is stored
// or, when it fails, nothing of it is; a file of more than about a million
// observations is written by whole days (see below).
//
// The format is recognised by content: a ZIP signature means an XLSX
// workbook, whose first sheet is read (its first non-empty row is the
// header; the whole file is read into memory, at most 256 MiB); PAR1 a
// Parquet file, whose column names are the header and whose typed values
// read as a CSV file writes them (at most 1 GiB, one past 16 MiB copied
// to a temporary file); a first
// non-space byte '{' means JSON Lines, '[' a JSON array with one object
// per line, as Export writes it; other text is CSV with a header
// row, its fields separated by ',', or by ';' or tab when that separator
// gives a header with all the required columns (a ';' or tab file may
// write decimal commas, 4,99). Other files (binary, legacy .xls, gzip,
// UTF-16) are refused with EINVALIDARGUMENT. The kind is recognised by the
// header or the first object's field names:
//
//	stores:       store_id, banner, province, name, city, postal_code, latitude, longitude[, active, banner_name, observations_30d, source]
//	observations: date, store_id, banner, external_sku, price[, regular_price, promo_ends, upc, name, brand, size, category, name_fr, product_type, province, on_promo, currency, source]
//
// These are every column Export writes for the stores and observations
// datasets, so that an export imports as it comes. A store's source (the
// feed its prices come from: lowercase letters, digits and hyphens, at
// most 32 bytes) is stored with it; without one a new store's is
// SourceImport and a stored store keeps its own. The columns Export
// derives are checked, not stored: banner_name must name the banner, an
// observation's province and source must be its store's, on_promo must
// be true exactly when price is under regular_price, currency must be
// CAD, and observations_30d (counted again from the observations) must
// be a whole number. A file with the columns of an offers export, which is computed,
// is refused saying to import stores and observations instead.
//
// Columns may come in any order. Observations need their stores to be
// stored already (import the stores file first). A row with a upc also
// records the banner SKU -> barcode link and, when it has a name (name,
// the English one, or name_fr, the French one), the product's facts; a
// restricted-circulation barcode (in-store codes) is not linked, which
// Problems notes.
//
// A product keeps the first name it is given in each language: a later
// row, in this file or another, that names its barcode differently does
// not rename it (for every province), unless opts.UpdateNames, with which
// the file's last name for it wins. Such rows are counted in the report's
// NamesKept and the first of them noted in Problems. Brand, size,
// category and product_type (the kind of product below the category,
// "skim milk": what a basket substitute and a brand's peers must share)
// are taken from the file's last row naming the product. A
// missing or empty field never clears a fact: a row with only a name_fr
// adds the French name and leaves the rest as it was.
//
// Import returns EINVALIDARGUMENT naming the file, line (for XLSX, the sheet and
// row), field and reason of the first bad row (unless opts.SkipInvalid, which skips and reports bad rows
// instead), EINVALIDARGUMENT for a file without a recognisable header, the
// context's error when ctx ends, and the reader's own errors. name is used
// in messages only; r is read to its end. When the file is written but
// its snapshot cannot be published (Options.SnapshotDir), the import
// stands: the report's PublishError says why, and the error is nil.
// When the transaction fails on the file system, the EINTERNAL error
// names a cause the operator can act on (a full disk) and the log has the
// system's error.
//
// A file is written in one transaction, all of it or nothing, unless its
// observations, repeats left out, are more than a batch: then they are
// written in batches of whole days, in date order, each its own
// transaction, a batch closing at the first day that begins once it holds
// 1,048,576 rows (a day is never split; the last batch may hold fewer),
// so that what an import holds until it commits does not grow with the
// file. Every row is checked, and conflicts between rows are looked for
// (without opts.SkipInvalid), before the first batch is written, so a
// bad row still writes nothing. The file's products, barcode links and
// SKU facts are written with the first batch. A batch that fails (a full
// disk, ctx ending, a crash) leaves the batches before it written, whole
// days each, and nothing of the days after; the error says
// through which day (PartlyImported), and importing the same file again
// writes the rest, the rows already written counting as unchanged: while
// nothing else was written since, it resumes, taking the days written as
// they are without merging them again (the report's Resumed). Each
// batch moves DataVersion and evaluates the alert rules, as an import of
// its days would; the snapshot (Options.SnapshotDir) is published once,
// after the last, so the batches of an import that failed reach the
// replicas with the next publish.
func (s *Service) Import(ctx context.Context, name string, r io.Reader, opts *ImportOptions) (*ImportReport, error) {
	return s.importRuns(ctx, name, r, opts, extsort.DefaultRunRows)
}

// importRuns is Import sorting the observations in runs of runRows rows
// and writing them in chunks of at most as many: the tests make both
// small, to spill runs and to write a file in many chunks.
func (s *Service) importRuns(ctx context.Context, name string, r io.Reader, opts *ImportOptions, runRows int) (*ImportReport, error) {
	if opts == nil {
		opts = &ImportOptions{}
	}
	if s.replica != nil {
		return nil, Errorf(EINVALIDARGUMENT, "%s: this server is a read-only replica: import on the ingest node, whose snapshots reach the replicas", name)
	}
	imp := &importer{
		s:           s,
		file:        name,
		skip:        opts.SkipInvalid,
		updateNames: opts.UpdateNames,
		report:      &ImportReport{File: name},
		minDate:     minObservationDate,
		maxDate:     s.today() + 1,
		resumed:     -1,
	}
	imp.obs = extsort.New(runRows, imp.order)
	imp.chunk = min(writeChunk, runRows)
	imp.batchRows = min(importBatchRows, 4*runRows)

	digest := sha256.New()
	f, err := importrow.Open(name, io.TeeReader(r, digest), opts.Progress, derivedDatasets, openRegistered)
	if err != nil {
		return nil, fromFault(err)
	}
	imp.f = f
	imp.report.Format = string(f.Format)
	defer imp.obs.Close()
	if err := imp.readRows(ctx); err != nil {
		// A bad row stops the import; a conflict between earlier rows,
		// found only once they are sorted, is on an earlier line.
		var e *Error
		if errors.As(err, &e) && e.Code == EINVALIDARGUMENT && imp.obs.Len() > 0 {
			if cerr := imp.scan(ctx, nil); cerr != nil {
				return nil, cerr
			}
		}
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(f.BytesRead())
	}
	digest.Sum(imp.digest[:0])

	b := &imp.batch
	b.UpdateNames = imp.updateNames
	if len(b.Stores)+len(b.Products)+len(b.Links)+len(b.SKUFacts)+imp.obs.Len() > 0 {
		var (
			stats   batchStats
			through = Date(-1)
			err     error
		)
		if imp.f.Kind == importrow.Stores {
			stats, err = s.writeBatch(ctx, b)
		} else {
			stats, through, err = imp.writeBatches(ctx, b)
		}
		if err != nil {
			return nil, s.writeFailed(name, err, through)
		}
		imp.storedNamesKept(stats.NamesKept)
		rep := imp.report
		if stats.alertsErr != nil {
			rep.AlertsError = alertsNotRecorded(stats.alertsErr)
		}
		if imp.f.Kind == importrow.Stores {
			rep.New, rep.Updated, rep.Unchanged = stats.StoresNew, stats.StoresUpdated, stats.StoresUnchanged
		} else {
			rep.New, rep.Updated, rep.Unchanged = stats.ObsNew, stats.ObsUpdated, stats.ObsUnchanged
		}
	}
	imp.report.Unchanged += imp.repeats
	imp.report.Problems = imp.problems()
	if s.snapDir != "" {
		if _, err := s.Publish(ctx); err != nil {
			// The rows are committed: the import stands, with the reason
			// its snapshot is not published (for the operator: a path
			// and the system's error, ENOSPC named as a full disk).
			imp.report.PublishError = fmt.Sprintf("imported, but its snapshot was not published, so the replicas do not serve it yet (the next import or a server's start publishes one): %s", ErrorMessage(err))
			if s.log != nil {
				s.log.Error("snapshot not published after an import", "file", name, "err", ErrorMessage(err))
			}
		}
	}
	return imp.report, nil
}

// writeFailed is the error of an import whose transaction failed with
// err: nothing of the file is written, or (through not -1) the
// observations of its days up to through, written in earlier
// transactions. A cause the operator can act on (a full disk, a
// read-only file system) is named, as EINTERNAL, whose text the CLI and
// the admin socket show and the REST and MCP interfaces never do; the log
// has the system's error.
func (s *Service) writeFailed(name string, err error, through Date) error {
	if through < 0 {
		return s.nothingWritten(name, err)
	}
	written := fmt.Sprintf(partlyWritten, through)
	var e *Error
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w; %s", name, err, written)
	case errors.As(err, &e) && e.Code != EINTERNAL:
		return &Error{Code: e.Code, Next: e.Next, Message: e.Message + "; " + written}
	}
	if s.log != nil {
		s.log.Error("import failed: "+written, "file", name, "err", err.Error())
	}
	msg := name + ": the data file could not be written"
	if cause := fault.SystemCause(err); cause != "" {
		msg += ": " + cause
	} else if e != nil {
		msg += ": " + e.Message
	}
	return &Error{Code: EINTERNAL, Message: msg + "; " + written}
}

// nothingWritten is writeFailed's error when nothing of the file is
// written.
func (s *Service) nothingWritten(name string, err error) error {
	var e *Error
	if errors.As(err, &e) && e.Code != EINTERNAL || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if s.log != nil {
		s.log.Error("import failed: nothing of the file is written", "file", name, "err", err.Error())
	}
	if cause := fault.SystemCause(err); cause != "" {
		return Errorf(EINTERNAL, "%s: the data file could not be written: %s", name, cause)
	}
	return err
}

// partlyWritten ends the error of an import stopped after some of its
// batches were written (PartlyImported reads it back).
const partlyWritten = "the file's observations up to %s are written, the later ones are not: import the file again to write them (the rows written count as unchanged)"

// PartlyImported reports whether err is the error of an import that
// stopped after writing the observations of its first days (a file of
// more than about a million rows is written in batches of whole days,
// each its own transaction), and the last day written. It reads the
// error's message, so it also tells of an import done by a server
// through its admin socket.
func PartlyImported(err error) (through Date, ok bool) {
	if err == nil {
		return 0, false
	}
	// The message ends with the sentence (a file's name, earlier in it,
	// may hold anything).
	head, tail, _ := strings.Cut(partlyWritten, "%s")
	msg := err.Error()
	if !strings.HasSuffix(msg, tail) {
		return 0, false
	}
	date := strings.TrimSuffix(msg, tail)
	if len(date) < len(head)+10 || !strings.HasSuffix(date[:len(date)-10], head) {
		return 0, false
	}
	d, perr := ParseDate(date[len(date)-10:])
	return d, perr == nil
}

// maxProblems is how many problems a report lists.
const maxProblems = 20

// minObservationDate is the earliest observation date accepted: 2000-01-01.
const minObservationDate = Date(10957)

// derivedDatasets are recognised by their export's own columns, so that
// such a file is refused saying what it is and what to export instead.
var derivedDatasets = []importrow.Derived{{Name: "offers", Signature: importrow.ExportOnly(exportrows.OfferCols)}}

// rowError is what is wrong with one row.
type rowError = importrow.Problem

func badf(field, format string, args ...any) *rowError {
	return importrow.Badf(field, format, args...)
}

// badErr turns an EINVALIDARGUMENT from one of the package's parsers, whose message
// starts with the name of what it parsed ("price \"x\" is not ..."), into
// a row error for field.
func badErr(field string, err error) *rowError {
	msg := ErrorMessage(err)
	if _, rest, ok := strings.Cut(msg, " "); ok {
		msg = rest
	}
	return &rowError{Field: field, Reason: msg}
}

// importer holds the state of one Import.
type importer struct {
	s           *Service
	file        string
	skip        bool
	updateNames bool
	report      *ImportReport
	batch       batch

	minDate, maxDate Date

	// stores files
	storeLines map[string]int // store_id -> line, to find repeats

	// observation files
	stores     map[string]*importStore // stored stores by id
	nstores    int32                   // stores numbered so far
	skus       importrow.Names         // external_sku by number
	banners    map[string]bannerRef    // banner as written -> banner
	bannerNums importrow.Names         // slugs by number
	dates      map[string]Date         // date as written -> date
	upcs       map[string]int32        // upc as written -> number in gtins
	gtinNums   map[GTIN]int32          // GTIN -> number in gtins
	gtins      []gtinState
	storeIDs   []string            // stores by number
	storeOrds  []uint32            // their Ord
	provNums   importrow.Names     // provinces by number
	series     map[uint64]int32    // (banner, sku, province numbers) -> index in seriesKeys
	seriesKeys []seriesKey         // the file's series, as ingest keys them
	links      map[uint64]linkSeen // (banner number, sku) -> link
	skuFacts   map[uint64]int32    // (banner number, sku) -> index in batch.SKUFacts: an unlinked SKU's facts
	repeats    int                 // rows repeated identically
	obs        *extsort.Runs       // the observations, sorted in runs
	chunk      int                 // rows written to the transaction at a time
	batchRows  int                 // rows a batch holds before it closes at the next day
	digest     [32]byte            // SHA-256 of the file's bytes
	resumed    Date                // the last day an earlier, stopped import of the file wrote, or -1
	notes      []lineNote          // the first maxProblems problems met while reading
	conflicts  []lineNote          // the maxProblems earliest conflicts skipped

	f *importrow.File // the file being read
}

type importStore struct {
	id       string
	banner   string
	province string
	source   string // Store.Source
	ord      uint32 // Store.Ord
	num      int32  // number in the file, or -1
	prov     int32  // number of the province
}

// Limits of a file's stores and SKUs.
const (
	maxFileStores = 1 << 20
	maxFileSKUs   = 1 << 24
)

type bannerRef struct {
	slug string
	num  int32
}

type gtinState struct {
	gtin    GTIN
	product int32 // index in batch.Products, or -1
	named   int32 // line of the first row naming the product
	differ  bool  // a row named it otherwise than the name kept
}

type linkSeen struct {
	gtin int32 // number in gtins
	line int32
}

// prepare sets up the importer for the file's kind, which importrow.Open
// recognised by the header: storeRow reads the rows of a stores file,
// obsRow those of an observations file.
func (imp *importer) prepare(ctx context.Context) error {
	imp.report.Kind = imp.f.Kind.Name
	if imp.f.Kind == importrow.Stores {
		imp.storeLines = map[string]int{}
		return nil
	}
	refs, err := imp.s.storeRefs(ctx)
	if err != nil {
		return err
	}
	imp.stores = make(map[string]*importStore, len(refs))
	for id, ref := range refs {
		imp.stores[id] = &importStore{id: id, banner: ref.Banner, province: ref.Province, source: ref.Source, ord: ref.Ord, num: -1}
	}
	imp.banners = map[string]bannerRef{}
	imp.dates = map[string]Date{}
	imp.upcs = map[string]int32{}
	imp.gtinNums = map[GTIN]int32{}
	imp.series = map[uint64]int32{}
	imp.links = map[uint64]linkSeen{}
	imp.skuFacts = map[uint64]int32{}
	return nil
}

// bad handles a bad row: an EINVALIDARGUMENT error that stops the import, or with
// SkipInvalid a skipped row and a problem.
func (imp *importer) bad(line int, e *rowError) error {
	msg := imp.f.Message(line, e)
	if !imp.skip {
		return &Error{Code: EINVALIDARGUMENT, Message: msg}
	}
	imp.report.Skipped++
	imp.note(line, msg)
	return nil
}

// lineNote is a problem and the line (or row) it is about.
type lineNote struct {
	line int
	msg  string
}

// note notes a problem met while reading: rows come in file order, so the
// first maxProblems are the ones to list.
func (imp *importer) note(line int, msg string) {
	if len(imp.notes) < maxProblems {
		imp.notes = append(imp.notes, lineNote{line, msg})
	}
}

// problems returns the first maxProblems notes and skipped conflicts in
// file order.
func (imp *importer) problems() []string {
	all := append(imp.notes, imp.conflicts...)
	slices.SortStableFunc(all, func(a, b lineNote) int { return cmp.Compare(a.line, b.line) })
	var out []string
	for _, n := range all[:min(len(all), maxProblems)] {
		out = append(out, n.msg)
	}
	return out
}

// storeRow validates a stores row.
func (imp *importer) storeRow(r *importrow.Row) *rowError {
	id := r.Get(importrow.StoreID)
	if e := importrow.CheckID("store_id", id); e != nil {
		return e
	}
	if prev, ok := imp.storeLines[id]; ok {
		return badf("store_id", "%q appears twice in the file: also on %s %d", id, imp.f.Unit(), prev)
	}
	b, e := parseBannerField(r.Get(importrow.StoreBanner))
	if e != nil {
		return e
	}
	prov := r.Get(importrow.StoreProvince)
	if prov == "" {
		return badf("province", "is required: want one of %s", provinceCodes)
	}
	prov, err := ParseProvince(prov)
	if err != nil {
		return badErr("province", err)
	}
	if !b.OperatesIn(prov) {
		return badf("banner", "%s does not operate in %s: it operates in %s", b.Slug, prov, strings.Join(b.Provinces, " "))
	}
	name := r.Get(importrow.StoreName)
	if e := importrow.RequireText("name", name); e != nil {
		return e
	}
	city := r.Get(importrow.StoreCity)
	if e := importrow.RequireText("city", city); e != nil {
		return e
	}
	postal, e := parsePostalCode(r.Get(importrow.StorePostal), prov)
	if e != nil {
		return e
	}
	lat, e := importrow.Coordinate("latitude", imp.f.Decimal(r.Get(importrow.StoreLat)), 90, 41, 84)
	if e != nil {
		return e
	}
	lon, e := importrow.Coordinate("longitude", imp.f.Decimal(r.Get(importrow.StoreLon)), 180, -142, -52)
	if e != nil {
		return e
	}
	active, e := importrow.Flag("active", r.Get(importrow.StoreActive), true)
	if e != nil {
		return e
	}
	if s := r.Get(importrow.StoreBannerName); s != "" {
		if nb, err := ParseBanner(s); err != nil || nb.Slug != b.Slug {
			return badf("banner_name", "%q is not the name of banner %s: want %q", s, b.Slug, b.Name)
		}
	}
	if s := r.Get(importrow.StoreObs30d); s != "" {
		// Counted from the observations when they are imported: only its form is checked.
		if n, err := strconv.ParseUint(s, 10, 32); err != nil || strconv.FormatUint(n, 10) != s {
			return badf("observations_30d", "%q is not a count: want a whole number, 0 or more (it is counted again from the observations)", s)
		}
	}
	source, e := parseSource(r.Get(importrow.StoreSource))
	if e != nil {
		return e
	}
	imp.storeLines[id] = r.Line
	imp.batch.Stores = append(imp.batch.Stores, Store{
		ID:         id,
		Banner:     b.Slug,
		BannerName: b.Name,
		Province:   prov,
		Name:       name,
		City:       city,
		PostalCode: postal,
		Latitude:   lat,
		Longitude:  lon,
		Active:     active,
		Source:     source,
	})
	return nil
}

// maxSourceLen is the longest source name a store takes.
const maxSourceLen = 32

// parseSource reads a store's source: "" (none given), or a name of
// lowercase letters, digits and hyphens ("hammer", "import").
func parseSource(s string) (string, *rowError) {
	if s == "" {
		return "", nil
	}
	if len(s) > maxSourceLen {
		return "", badf("source", "is %d bytes long: want at most %d", len(s), maxSourceLen)
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return "", badf("source", "%q is not a source name: want lowercase letters, digits and hyphens, as %s, %s or hammer", s, SourceDemo, SourceImport)
		}
	}
	return s, nil
}

// obsRow validates an observations row. It is the hot path of a large
// import: lookups go through small maps of the strings already seen, so a
// row allocates nothing beyond what the reader does.
func (imp *importer) obsRow(r *importrow.Row) *rowError {
	d, e := imp.date("date", r.Get(importrow.ObsDate))
	if e != nil {
		return e
	}
	if d < imp.minDate {
		return badf("date", "%s is before %s: want a date from %s", d, imp.minDate, imp.minDate)
	}
	if d > imp.maxDate {
		return badf("date", "%s is in the future: want a date up to %s", d, imp.maxDate)
	}

	id := r.Get(importrow.ObsStore)
	st := imp.stores[id]
	if st == nil {
		if e := importrow.CheckID("store_id", id); e != nil {
			return e
		}
		return badf("store_id", "%q is not a known store: import its stores file first", id)
	}
	if st.num < 0 {
		if imp.nstores == maxFileStores {
			return badf("store_id", "the file names more than %d stores: split it", maxFileStores)
		}
		st.num = imp.nstores
		imp.nstores++
		imp.storeIDs = append(imp.storeIDs, st.id)
		imp.storeOrds = append(imp.storeOrds, st.ord)
		st.prov = imp.provNums.Number(st.province)
	}

	if s := r.Get(importrow.ObsProvince); s != "" && s != st.province {
		if p, err := ParseProvince(s); err != nil || p != st.province {
			return badf("province", "%q is not the province of store %q: it is %s", s, st.id, st.province)
		}
	}
	if s := r.Get(importrow.ObsSource); s != "" && s != st.source {
		// An observation's source is its store's: import the stores
		// file with its source column first.
		return badf("source", "%q is not the source of store %q: it is %s (a store's source comes with its stores file)", s, st.id, st.source)
	}

	raw := r.Get(importrow.ObsBanner)
	br, ok := imp.banners[raw]
	if !ok {
		b, e := parseBannerField(raw)
		if e != nil {
			return e
		}
		br = bannerRef{slug: b.Slug, num: imp.bannerNums.Number(b.Slug)}
		imp.banners[strings.Clone(raw)] = br
	}
	slug := br.slug
	if slug != st.banner {
		return badf("banner", "%s is not the banner of store %q: it is %s", slug, st.id, st.banner)
	}

	sku := r.Get(importrow.ObsSKU)
	skuNum, ok := imp.skus.Num(sku)
	if !ok {
		if e := importrow.CheckID("external_sku", sku); e != nil {
			return e
		}
		if imp.skus.Len() == maxFileSKUs {
			return badf("external_sku", "the file names more than %d SKUs: split it", maxFileSKUs)
		}
		skuNum = imp.skus.Add(sku)
	}

	price, e := parsePrice("price", imp.f.Decimal(r.Get(importrow.ObsPrice)))
	if e != nil {
		return e
	}
	if price <= 0 {
		return badf("price", "%s is not more than zero", price)
	}
	regular := price
	if s := r.Get(importrow.ObsRegular); s != "" {
		if regular, e = parsePrice("regular_price", imp.f.Decimal(s)); e != nil {
			return e
		}
		if regular < price {
			return badf("regular_price", "%s is less than the price %s: want the regular price, at least the price", regular, price)
		}
	}
	if s := r.Get(importrow.ObsOnPromo); s != "" {
		onPromo, e := importrow.Flag("on_promo", s, false)
		if e != nil {
			return e
		}
		if onPromo != (price < regular) {
			if onPromo {
				return badf("on_promo", "is %s, but the price %s is not under the regular_price %s: a row is on promotion when its price is", s, price, regular)
			}
			return badf("on_promo", "is %s, but the price %s is under the regular_price %s: a row is on promotion when its price is", s, price, regular)
		}
	}
	if s := r.Get(importrow.ObsCurrency); s != "" && !strings.EqualFold(s, Currency) {
		return badf("currency", "%q is not %s: prices are Canadian dollars", s, Currency)
	}
	var promoEnds Date
	if s := r.Get(importrow.ObsPromoEnds); s != "" {
		if promoEnds, e = imp.date("promo_ends", s); e != nil {
			return e
		}
		if promoEnds < d {
			return badf("promo_ends", "%s is before the date %s: want the last day of the promotion", promoEnds, d)
		}
		if regular == price {
			promoEnds = 0 // not on promotion: no promotion ends
		}
	}

	gnum := int32(-1)
	if s := r.Get(importrow.ObsUPC); s != "" {
		if gnum, ok = imp.upcs[s]; !ok {
			g, err := imp.gtin(s)
			if err != nil {
				return badErr("upc", err)
			}
			if gnum, ok = imp.gtinNums[g]; !ok {
				gnum = int32(len(imp.gtins))
				imp.gtinNums[g] = gnum
				imp.gtins = append(imp.gtins, gtinState{gtin: g, product: -1})
			}
			imp.upcs[strings.Clone(s)] = gnum
		}
	}
	var gs *gtinState
	restricted := false
	if gnum >= 0 {
		gs = &imp.gtins[gnum]
		restricted = gs.gtin.Restricted()
	}
	lk := uint64(br.num)<<32 | uint64(skuNum)
	linked := false
	if gs != nil && !restricted {
		if prev, ok := imp.links[lk]; ok {
			if prev.gtin != gnum {
				return badf("upc", "%s conflicts with %s %d, which gives %s for %s SKU %q: a banner SKU has one barcode",
					gs.gtin.UPC(), imp.f.Unit(), prev.line, imp.gtins[prev.gtin].gtin.UPC(), slug, sku)
			}
			linked = true
		}
	}
	// The product's facts, when the row names it and they are news.
	var item CatalogueItem
	newFacts := false
	if gs != nil && !restricted {
		if name, nameFr := r.Get(importrow.ObsName), r.Get(importrow.ObsNameFr); name != "" || nameFr != "" {
			item = CatalogueItem{GTIN: gs.gtin, Name: name, NameFr: nameFr, Brand: r.Get(importrow.ObsBrand), Size: r.Get(importrow.ObsSize),
				Category: r.Get(importrow.ObsCategory), Type: r.Get(importrow.ObsType)}
			if gs.product >= 0 {
				imp.mergeFacts(gs, r.Line, &item)
			}
			if gs.product < 0 || imp.batch.Products[gs.product] != item {
				for _, f := range [...]struct {
					name, value string
				}{{"name", item.Name}, {"name_fr", item.NameFr}, {"brand", item.Brand}, {"size", item.Size}, {"category", item.Category}, {"product_type", item.Type}} {
					if e := importrow.CheckText(f.name, f.value); e != nil {
						return e
					}
				}
				newFacts = true
			}
		}
	}

	// A SKU sold under no barcode is a product of its own: its banner's
	// name for it is kept on the SKU (the last row's).
	var facts ingest.SKUFacts
	if gs == nil {
		if name := r.Get(importrow.ObsName); name != "" {
			facts = ingest.SKUFacts{Banner: slug, SKU: imp.skus.Name(skuNum), Name: name, Brand: r.Get(importrow.ObsBrand),
				Size: r.Get(importrow.ObsSize), Category: r.Get(importrow.ObsCategory)}
			if i, ok := imp.skuFacts[lk]; ok && imp.batch.SKUFacts[i] == facts {
				facts.Name = "" // nothing new
			} else {
				for _, f := range [...]struct{ name, value string }{{"name", facts.Name}, {"brand", facts.Brand}, {"size", facts.Size}, {"category", facts.Category}} {
					if e := importrow.CheckText(f.name, f.value); e != nil {
						return e
					}
				}
			}
		}
	}

	sk := uint64(br.num)<<48 | uint64(st.prov)<<32 | uint64(skuNum)
	si, ok := imp.series[sk]
	if !ok {
		si = int32(len(imp.seriesKeys))
		imp.series[sk] = si
		imp.seriesKeys = append(imp.seriesKeys, seriesKey{Banner: slug, SKU: imp.skus.Name(skuNum), Province: st.province})
	}
	// Rows repeating an earlier one (the same date, store and SKU) are
	// found once the rows are sorted, by scan.
	if err := imp.obs.Add(extsort.Rec{Series: si, Store: st.num, Date: int32(d), Price: uint32(price),
		Regular: uint32(regular), PromoEnd: int32(promoEnds), Line: int32(r.Line)}); err != nil {
		return &rowError{Reason: err.Error(), Fatal: err}
	}

	if facts.Name != "" {
		facts = ingest.SKUFacts{Banner: facts.Banner, SKU: facts.SKU, Name: strings.Clone(facts.Name), Brand: strings.Clone(facts.Brand),
			Size: strings.Clone(facts.Size), Category: strings.Clone(facts.Category)}
		if i, ok := imp.skuFacts[lk]; ok {
			imp.batch.SKUFacts[i] = facts // the last row wins
		} else {
			imp.skuFacts[lk] = int32(len(imp.batch.SKUFacts))
			imp.batch.SKUFacts = append(imp.batch.SKUFacts, facts)
		}
	}
	switch {
	case restricted:
		imp.note(r.Line, fmt.Sprintf("%s: upc: %s is a restricted-circulation (in-store) code: the price is kept, the SKU is not linked to a product", imp.f.At(r.Line), gs.gtin.UPC()))
	case gs != nil:
		if !linked {
			imp.links[lk] = linkSeen{gtin: gnum, line: int32(r.Line)}
			imp.batch.Links = append(imp.batch.Links, SKULink{Banner: slug, ExternalSKU: imp.skus.Name(skuNum), GTIN: gs.gtin})
		}
		if newFacts {
			if gs.product >= 0 {
				imp.batch.Products[gs.product] = cloneItem(item) // the last row wins
			} else {
				gs.product, gs.named = int32(len(imp.batch.Products)), int32(r.Line)
				imp.batch.Products = append(imp.batch.Products, cloneItem(item))
			}
		}
	}
	return nil
}

// mergeFacts completes item, a later row's facts of a product the file
// named before, with the earlier rows' by the rule of mergeFacts: a name
// that gives way (the import does not update names) is counted and noted
// once per product.
func (imp *importer) mergeFacts(gs *gtinState, line int, item *CatalogueItem) {
	k, ok := mergeFacts(itemFacts(item), itemFacts(&imp.batch.Products[gs.product]), imp.updateNames)
	if ok && !gs.differ {
		gs.differ = true
		imp.report.NamesKept++
		imp.note(line, imp.nameKeptNote(line, gs.gtin, k, "an earlier row's"))
	}
}

// storedNamesKept counts and notes the products whose stored names the
// write kept over the file's.
func (imp *importer) storedNamesKept(kept []keptName) {
	for _, k := range kept {
		it := &imp.batch.Products[k.Index]
		gs := &imp.gtins[imp.gtinNums[it.GTIN]]
		if !gs.differ {
			gs.differ = true
			imp.report.NamesKept++
			imp.note(int(gs.named), imp.nameKeptNote(int(gs.named), gs.gtin, k, "the stored"))
		}
	}
}

// nameKeptNote says that the row on line named gtin otherwise than k's
// kept name, whose is whose.
func (imp *importer) nameKeptNote(line int, gtin GTIN, k keptName, whose string) string {
	return fmt.Sprintf("%s: %s: %q differs from %q, %s %s for upc %s, which it keeps: a product keeps its first name in each language (put a French name in name_fr; import with --update-names to replace names)",
		imp.f.At(line), k.Field, k.Given, k.Kept, whose, k.Field, gtin.UPC())
}

func cloneItem(it CatalogueItem) CatalogueItem {
	return CatalogueItem{GTIN: it.GTIN, Name: strings.Clone(it.Name), NameFr: strings.Clone(it.NameFr), Brand: strings.Clone(it.Brand),
		Size: strings.Clone(it.Size), Category: strings.Clone(it.Category), Type: strings.Clone(it.Type)}
}

func dateOrNone(d Date) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

// date parses a date through the importer's cache.
func (imp *importer) date(field, s string) (Date, *rowError) {
	if d, ok := imp.dates[s]; ok {
		return d, nil
	}
	if s == "" {
		return 0, badf(field, "is required: want a date YYYY-MM-DD")
	}
	d, err := ParseDate(s)
	if err != nil {
		return 0, badErr(field, err)
	}
	imp.dates[strings.Clone(s)] = d
	return d, nil
}

func parsePrice(field, s string) (Cents, *rowError) {
	if s == "" {
		return 0, badf(field, "is required: want a dollar amount, e.g. 4.99")
	}
	c, err := ParseCents(s)
	if err != nil {
		return 0, badErr(field, err)
	}
	if c > maxPrice {
		return 0, badf(field, "%s is more than a price may be: want at most %s", c, maxPrice)
	}
	return c, nil
}

// maxPrice is the highest price the data file keeps (cents in 32 bits).
const maxPrice Cents = math.MaxUint32

func parseBannerField(s string) (Banner, *rowError) {
	if s == "" {
		return Banner{}, badf("banner", "is required: want one of %s", bannerSlugs())
	}
	b, err := ParseBanner(s)
	if err != nil {
		return Banner{}, badErr("banner", err)
	}
	return b, nil
}

// parsePostalCode parses a store's postal code with ParsePostalCode, the
// one rule for postal codes, and checks that it is in the store's province.
func parsePostalCode(s, province string) (string, *rowError) {
	if s == "" {
		return "", badf("postal_code", "is required: want a Canadian postal code, e.g. K1A 0B1")
	}
	pc, err := ParsePostalCode(s)
	if err != nil {
		return "", badErr("postal_code", err)
	}
	if pc.Province != province {
		// X codes are NT or NU by their FSA, other codes by their letter.
		start := pc.FSA[:1]
		if start == "X" {
			start = pc.FSA
		}
		return "", badf("postal_code", "%q is not in %s: a postal code starting with %s is in %s", s, province, start, pc.Province)
	}
	return pc.Code, nil
}

// readRows reads the file's rows, past its header, into the importer:
// storeRow or obsRow validates each row and adds it to the batch.
func (imp *importer) readRows(ctx context.Context) error {
	defer imp.f.Close() // before the write: an XLSX or Parquet file's temporary files
	if err := imp.prepare(ctx); err != nil {
		return err
	}
	row := imp.obsRow
	if imp.f.Kind == importrow.Stores {
		row = imp.storeRow
	}
	err := imp.f.Read(ctx, row, imp.bad)
	imp.report.Rows = imp.f.Rows()
	return fromFault(err)
}

// gtin parses a upc field. In a spreadsheet a barcode typed as a number
// loses its leading zero: 067000378089 becomes 67000378089, and so in a
// Parquet file's integer column. An XLSX upc, or one of such a column, of
// 7 or 11 digits that is a valid EAN-8 or UPC-A once a 0 is put back is
// read so; other 11-digit upcs get their check digit, as in every file.
func (imp *importer) gtin(s string) (GTIN, error) {
	if imp.f.NumericColumn("upc") {
		if d, err := barcodeDigits(s); err == nil && (len(d) == 7 || len(d) == 11) {
			if g, err := ParseGTIN("0" + d); err == nil {
				return g, nil
			}
		}
	}
	return parseFeedGTIN(s)
}

// storeRefs returns the banner and province of every stored store, by id.
func (s *Service) storeRefs(ctx context.Context) (map[string]storeRef, error) {
	refs := map[string]storeRef{}
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEachStore(func(st *storage.Store) error {
			refs[st.ID] = storeRef{Banner: st.Banner, Province: st.Province, Ord: st.Ord, Source: st.Source}
			return nil
		})
	})
	return refs, err
}
