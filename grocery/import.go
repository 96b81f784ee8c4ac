package grocery

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grocerydata/grocery/grocery/internal/extsort"
	"github.com/grocerydata/grocery/grocery/internal/fault"
	"github.com/grocerydata/grocery/grocery/internal/rowfile"
	"github.com/grocerydata/grocery/grocery/internal/rowwrite"
	"github.com/grocerydata/grocery/internal/words"
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
	// AlertsError says why the alert rules kept in Redis could not be
	// evaluated after the import committed (Redis unreachable): the data
	// is imported; 'grocery alerts evaluate' records the missing events.
	AlertsError string `json:"alerts_error,omitempty"`
	// PublishError says why the snapshot of the data file could not be
	// published after the import committed (with Options.SnapshotDir: a
	// full or unwritable snapshot directory): the data is imported, the
	// replicas do not see it until a later publish succeeds.
	PublishError string `json:"publish_error,omitempty"`
}

// Import reads one CSV, JSON Lines, JSON, XLSX or Parquet file of stores or observations
// and writes it atomically: either every valid row of the file is stored
// or, when it fails, nothing of it is.
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
// UTF-16) are refused with EINVALID. The kind is recognised by the
// header or the first object's field names:
//
//	stores:       store_id, banner, province, name, city, postal_code, latitude, longitude[, active, banner_name, observations_30d]
//	observations: date, store_id, banner, external_sku, price[, regular_price, promo_ends, upc, name, brand, size, category, name_fr, province, on_promo, currency]
//
// These are every column Export writes for the stores and observations
// datasets, so that an export imports as it comes. The columns Export
// derives are checked, not stored: banner_name must name the banner, an
// observation's province must be its store's, on_promo must be true
// exactly when price is under regular_price, currency must be CAD, and
// observations_30d (counted again from the observations) must be a whole
// number. A file with the columns of an offers export, which is computed,
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
// NamesKept and the first of them noted in Problems. Brand, size and
// category are taken from the file's last row naming the product. A
// missing or empty field never clears a fact: a row with only a name_fr
// adds the French name and leaves the rest as it was.
//
// Import returns EINVALID naming the file, line (for XLSX, the sheet and
// row), field and reason of the first bad row (unless opts.SkipInvalid, which skips and reports bad rows
// instead), EINVALID for a file without a recognisable header, the
// context's error when ctx ends, and the reader's own errors. name is used
// in messages only; r is read to its end. When the file is written but
// its snapshot cannot be published (Options.SnapshotDir), the import
// stands: the report's PublishError says why, and the error is nil.
// When the transaction fails on the file system, the EINTERNAL error
// names a cause the operator can act on (a full disk) and the log has the
// system's error.
func (s *Service) Import(ctx context.Context, name string, r io.Reader, opts *ImportOptions) (*ImportReport, error) {
	return s.importRuns(ctx, name, r, opts, extsort.DefaultRunRows)
}

// importRuns is Import sorting the observations in runs of runRows rows:
// the tests make runs small to spill them.
func (s *Service) importRuns(ctx context.Context, name string, r io.Reader, opts *ImportOptions, runRows int) (*ImportReport, error) {
	if opts == nil {
		opts = &ImportOptions{}
	}
	if s.replica != nil {
		return nil, Errorf(EINVALID, "%s: this server is a read-only replica: import on the ingest node, whose snapshots reach the replicas", name)
	}
	cr := &rowfile.Counter{R: r, Progress: opts.Progress, Every: progressEvery}
	br := bufio.NewReaderSize(cr, 64<<10)
	imp := &importer{
		s:           s,
		file:        name,
		skip:        opts.SkipInvalid,
		updateNames: opts.UpdateNames,
		report:      &ImportReport{File: name},
		minDate:     minObservationDate,
		maxDate:     s.today() + 1,
	}
	imp.obs = extsort.New(runRows, imp.order)

	format, empty, err := rowfile.Sniff(br)
	if err != nil {
		return nil, imp.formatErr(err)
	}
	if empty {
		return nil, Errorf(EINVALID, "%s: the file is empty: want a header row of %s", name, describeKinds())
	}
	imp.report.Format = string(format)
	defer imp.obs.Close()
	if err := imp.readRows(ctx, format, br); err != nil {
		// A bad row stops the import; a conflict between earlier rows,
		// found only once they are sorted, is on an earlier line.
		var e *Error
		if errors.As(err, &e) && e.Code == EINVALID && imp.obs.Len() > 0 {
			if cerr := imp.scan(ctx, nil); cerr != nil {
				return nil, cerr
			}
		}
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(cr.N())
	}

	b := &imp.batch
	b.UpdateNames = imp.updateNames
	if len(b.Stores)+len(b.Products)+len(b.Links)+imp.obs.Len() > 0 {
		var (
			stats batchStats
			err   error
		)
		if imp.kind == storesKind {
			stats, err = s.writeBatch(ctx, b)
		} else {
			stats, err = s.writeImport(ctx, b, imp.storeIDs, imp.storeOrds, imp.seriesKeys, func(write func([]obsRec) error) error {
				err := imp.scan(ctx, write)
				if err == errConflict {
					return imp.scan(ctx, nil)
				}
				return err
			})
		}
		if err != nil {
			return nil, s.writeFailed(name, err)
		}
		imp.storedNamesKept(stats.NamesKept)
		rep := imp.report
		if stats.alertsErr != nil {
			rep.AlertsError = alertsNotRecorded(stats.alertsErr)
		}
		if imp.kind == storesKind {
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
// err: nothing of the file is written. A cause the operator can act on (a
// full disk, a read-only file system) is named, as EINTERNAL, whose text
// the CLI and the admin socket show and the REST and MCP interfaces never
// do; the log has the system's error.
func (s *Service) writeFailed(name string, err error) error {
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

const (
	maxProblems   = 20       // problems listed in a report
	progressEvery = 64 << 10 // bytes between Progress calls
	ctxEvery      = 4096     // rows between context checks
	maxJSONLine   = 16 << 20 // longest JSON Lines line
	maxIDLen      = 64       // store_id, external_sku
)

// minObservationDate is the earliest observation date accepted: 2000-01-01.
const minObservationDate = Date(10957)

// importKind describes the columns of one kind of file. The first required
// columns of columns are mandatory, the rest optional.
type importKind struct {
	name     string
	columns  []string
	required int
	index    map[string]int
}

func newKind(name string, required int, columns ...string) *importKind {
	k := &importKind{name: name, columns: columns, required: required, index: map[string]int{}}
	for i, c := range columns {
		k.index[c] = i
	}
	return k
}

// The kinds of file Import reads. Each takes every column the export of
// its dataset writes, so that an export imports back as it comes: the
// columns the export derives (a store's banner_name and observations_30d,
// an observation's province, on_promo and currency) are checked against
// what they must be and not stored.
var (
	storesKind = newKind("stores", 8,
		"store_id", "banner", "province", "name", "city", "postal_code", "latitude", "longitude", "active",
		"banner_name", "observations_30d")
	obsKind = newKind("observations", 5,
		"date", "store_id", "banner", "external_sku", "price",
		"regular_price", "promo_ends", "upc", "name", "brand", "size", "category", "name_fr",
		"province", "on_promo", "currency")
	importKinds = []*importKind{storesKind, obsKind}
)

// derivedDataset is an export dataset Import cannot read: its rows are
// computed from the stores and observations, which are what to import.
type derivedDataset struct {
	name      string
	signature []string // columns of its export that no importKind takes
}

// derivedDatasets are recognised by their export's own columns, so that
// such a file is refused saying what it is and what to export instead.
var derivedDatasets = []derivedDataset{{"offers", exportOnlyColumns(offerCols)}}

// exportOnlyColumns returns the names of cols that no importKind takes.
func exportOnlyColumns(cols []rowwrite.Column) []string {
	var out []string
	for _, c := range cols {
		taken := false
		for _, k := range importKinds {
			if _, ok := k.index[c.Name]; ok {
				taken = true
			}
		}
		if !taken {
			out = append(out, c.Name)
		}
	}
	return out
}

// Canonical column numbers of the two kinds.
const (
	sID = iota
	sBanner
	sProvince
	sName
	sCity
	sPostal
	sLat
	sLon
	sActive
	sBannerName
	sObs30d
)

const (
	oDate = iota
	oStore
	oBanner
	oSKU
	oPrice
	oRegular
	oPromoEnds
	oUPC
	oName
	oBrand
	oSize
	oCategory
	oNameFr
	oProvince
	oOnPromo
	oCurrency
)

// describe lists the columns as "a, b, c[, d, e]".
func (k *importKind) describe() string {
	s := strings.Join(k.columns[:k.required], ", ")
	if k.required < len(k.columns) {
		s += "[, " + strings.Join(k.columns[k.required:], ", ") + "]"
	}
	return s
}

func describeKinds() string {
	return "stores (" + storesKind.describe() + ") or observations (" + obsKind.describe() + ")"
}

// detectKind recognises the kind of a file from its column names and maps
// each canonical column to its position in a row (-1 when absent).
func detectKind(names []string) (*importKind, []int, string) {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if _, ok := seen[n]; !ok {
			seen[n] = i
		}
	}
	for _, d := range derivedDatasets {
		if len(d.signature) > 0 && hasAll(seen, d.signature...) {
			return nil, nil, fmt.Sprintf("columns %s are those of an export of dataset %s, which cannot be imported: %s are computed from the stores and observations, so export and import datasets stores and observations instead", strings.Join(d.signature, ", "), d.name, d.name)
		}
	}
	// The kind whose required columns are all present wins; otherwise the
	// one with more of its required columns present.
	var kind *importKind
	best := 0
	for _, k := range importKinds {
		have := 0
		for _, c := range k.columns[:k.required] {
			if _, ok := seen[c]; ok {
				have++
			}
		}
		if have == k.required {
			kind, best = k, have
			break
		}
		if have > best {
			kind, best = k, have
		}
	}
	// store_id, banner and name belong to both kinds: alone they say nothing.
	if kind == nil || best <= 2 && !hasAny(seen, "province", "postal_code", "latitude", "longitude", "date", "external_sku", "price") {
		return nil, nil, fmt.Sprintf("columns %s are not recognised: want %s", strings.Join(names, ", "), describeKinds())
	}
	for i, n := range names {
		if n == "" {
			return nil, nil, fmt.Sprintf("column %d has no name: %s has columns %s", i+1, kind.article(), kind.describe())
		}
		if j := seen[n]; j != i {
			return nil, nil, fmt.Sprintf("column %q appears twice (columns %d and %d)", n, j+1, i+1)
		}
	}
	var missing, unknown []string
	for _, c := range kind.columns[:kind.required] {
		if _, ok := seen[c]; !ok {
			missing = append(missing, c)
		}
	}
	for _, n := range names {
		if _, ok := kind.index[n]; !ok {
			unknown = append(unknown, strconv.Quote(n))
		}
	}
	var probs []string
	if len(missing) > 0 {
		probs = append(probs, "missing "+words.Plural(len(missing), "column")+" "+strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		probs = append(probs, "unknown "+words.Plural(len(unknown), "column")+" "+strings.Join(unknown, ", "))
	}
	if len(probs) > 0 {
		return nil, nil, fmt.Sprintf("%s for %s: want %s", strings.Join(probs, "; "), kind.article(), kind.describe())
	}
	pos := make([]int, len(kind.columns))
	for i, c := range kind.columns {
		pos[i] = -1
		if j, ok := seen[c]; ok {
			pos[i] = j
		}
	}
	return kind, pos, ""
}

// article names a file of the kind: "a stores file", "an observations file".
func (k *importKind) article() string {
	if k == obsKind {
		return "an observations file"
	}
	return "a stores file"
}

func hasAll(m map[string]int, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func hasAny(m map[string]int, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// rowError is what is wrong with one row.
type rowError struct {
	field  string // "" when the row as a whole is wrong
	reason string
	fatal  error // not the row's fault: the import stops with this error
}

func badf(field, format string, args ...any) *rowError {
	return &rowError{field: field, reason: fmt.Sprintf(format, args...)}
}

// badErr turns an EINVALID from one of the package's parsers, whose message
// starts with the name of what it parsed ("price \"x\" is not ..."), into
// a row error for field.
func badErr(field string, err error) *rowError {
	msg := ErrorMessage(err)
	if _, rest, ok := strings.Cut(msg, " "); ok {
		msg = rest
	}
	return &rowError{field: field, reason: msg}
}

// row is one data row: rec in file order and pos mapping canonical columns
// to it.
type row struct {
	rec  []string
	pos  []int
	line int
}

// get returns canonical column c, trimmed, or "" when it is absent.
func (r *row) get(c int) string {
	if p := r.pos[c]; p >= 0 && p < len(r.rec) {
		return strings.TrimSpace(r.rec[p])
	}
	return ""
}

// importer holds the state of one Import.
type importer struct {
	s           *Service
	file        string
	skip        bool
	updateNames bool
	report      *ImportReport
	kind        *importKind
	batch       batch
	rows        int

	minDate, maxDate Date

	// stores files
	storeLines map[string]int // store_id -> line, to find repeats

	// observation files
	stores     map[string]*importStore // stored stores by id
	nstores    int32                   // stores numbered so far
	skus       map[string]int32        // interned external_sku -> number
	skuNames   []string
	banners    map[string]bannerRef // banner as written -> banner
	bannerNums map[string]int32     // slug -> number
	dates      map[string]Date      // date as written -> date
	upcs       map[string]int32     // upc as written -> number in gtins
	gtinNums   map[GTIN]int32       // GTIN -> number in gtins
	gtins      []gtinState
	storeIDs   []string            // stores by number
	storeOrds  []uint32            // their Ord
	provNums   map[string]int32    // province -> number
	series     map[uint64]int32    // (banner, sku, province numbers) -> index in seriesKeys
	seriesKeys []seriesKey         // the file's series, as the writer keys them
	links      map[uint64]linkSeen // (banner number, sku) -> link
	repeats    int                 // rows repeated identically
	obs        *extsort.Runs       // the observations, sorted in runs
	notes      []lineNote          // the first maxProblems problems met while reading
	conflicts  []lineNote          // the maxProblems earliest conflicts skipped

	src          *rowfile.Rows // the CSV, XLSX or Parquet reader, nil for JSON Lines
	sepNote      string        // about the header's separators
	decimalComma bool          // numbers may be written 4,99 (a ';' or tab file)
}

type importStore struct {
	id       string
	banner   string
	province string
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

// header sets up the importer for the file's column names, as written.
func (imp *importer) header(ctx context.Context, names []string, line int) ([]int, error) {
	kind, pos, problem := detectKind(normalNames(names))
	if problem != "" {
		if note := imp.sepNote; note != "" {
			problem += "; " + note
		}
		return nil, Errorf(EINVALID, "%s: header: %s", imp.at(line), problem)
	}
	imp.kind = kind
	imp.report.Kind = kind.name
	if kind == storesKind {
		imp.storeLines = map[string]int{}
		return pos, nil
	}
	refs, err := imp.s.storeRefs(ctx)
	if err != nil {
		return nil, err
	}
	imp.stores = make(map[string]*importStore, len(refs))
	for id, ref := range refs {
		imp.stores[id] = &importStore{id: id, banner: ref.Banner, province: ref.Province, ord: ref.Ord, num: -1}
	}
	imp.skus = map[string]int32{}
	imp.banners = map[string]bannerRef{}
	imp.bannerNums = map[string]int32{}
	imp.dates = map[string]Date{}
	imp.upcs = map[string]int32{}
	imp.gtinNums = map[GTIN]int32{}
	imp.series = map[uint64]int32{}
	imp.provNums = map[string]int32{}
	imp.links = map[uint64]linkSeen{}
	return pos, nil
}

// normalNames returns column names trimmed and in lower case.
func normalNames(names []string) []string {
	norm := make([]string, len(names))
	for i, n := range names {
		norm[i] = strings.ToLower(strings.TrimSpace(n))
	}
	return norm
}

// row validates one data row and adds it to the batch. It returns an error
// only when the import must stop.
func (imp *importer) row(ctx context.Context, r *row) error {
	imp.rows++
	imp.report.Rows++
	if imp.rows%ctxEvery == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	var e *rowError
	if imp.kind == storesKind {
		e = imp.storeRow(r)
	} else {
		e = imp.obsRow(r)
	}
	if e == nil {
		return nil
	}
	if e.fatal != nil {
		return e.fatal
	}
	return imp.bad(r.line, e)
}

// bad handles a bad row: an EINVALID error that stops the import, or with
// SkipInvalid a skipped row and a problem.
func (imp *importer) bad(line int, e *rowError) error {
	msg := imp.message(line, e)
	if !imp.skip {
		return &Error{Code: EINVALID, Message: msg}
	}
	imp.report.Skipped++
	imp.note(line, msg)
	return nil
}

// message says what is wrong with the row on line: "file:line: field: reason".
func (imp *importer) message(line int, e *rowError) string {
	msg := imp.at(line) + ": "
	if e.field != "" {
		msg += e.field + ": "
	}
	return msg + e.reason
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
func (imp *importer) storeRow(r *row) *rowError {
	id := r.get(sID)
	if e := checkID("store_id", id); e != nil {
		return e
	}
	if prev, ok := imp.storeLines[id]; ok {
		return badf("store_id", "%q appears twice in the file: also on %s %d", id, imp.unit(), prev)
	}
	b, e := parseBannerField(r.get(sBanner))
	if e != nil {
		return e
	}
	prov := r.get(sProvince)
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
	name := r.get(sName)
	if e := requireText("name", name); e != nil {
		return e
	}
	city := r.get(sCity)
	if e := requireText("city", city); e != nil {
		return e
	}
	postal, e := parsePostalCode(r.get(sPostal), prov)
	if e != nil {
		return e
	}
	lat, e := parseCoordinate("latitude", imp.decimal(r.get(sLat)), 90, 41, 84)
	if e != nil {
		return e
	}
	lon, e := parseCoordinate("longitude", imp.decimal(r.get(sLon)), 180, -142, -52)
	if e != nil {
		return e
	}
	active, e := parseFlag("active", r.get(sActive), true)
	if e != nil {
		return e
	}
	if s := r.get(sBannerName); s != "" {
		if nb, err := ParseBanner(s); err != nil || nb.Slug != b.Slug {
			return badf("banner_name", "%q is not the name of banner %s: want %q", s, b.Slug, b.Name)
		}
	}
	if s := r.get(sObs30d); s != "" {
		// Counted from the observations when they are imported: only its form is checked.
		if n, err := strconv.ParseUint(s, 10, 32); err != nil || strconv.FormatUint(n, 10) != s {
			return badf("observations_30d", "%q is not a count: want a whole number, 0 or more (it is counted again from the observations)", s)
		}
	}
	imp.storeLines[id] = r.line
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
	})
	return nil
}

// obsRow validates an observations row. It is the hot path of a large
// import: lookups go through small maps of the strings already seen, so a
// row allocates nothing beyond what the reader does.
func (imp *importer) obsRow(r *row) *rowError {
	d, e := imp.date("date", r.get(oDate))
	if e != nil {
		return e
	}
	if d < imp.minDate {
		return badf("date", "%s is before %s: want a date from %s", d, imp.minDate, imp.minDate)
	}
	if d > imp.maxDate {
		return badf("date", "%s is in the future: want a date up to %s", d, imp.maxDate)
	}

	id := r.get(oStore)
	st := imp.stores[id]
	if st == nil {
		if e := checkID("store_id", id); e != nil {
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
		p, ok := imp.provNums[st.province]
		if !ok {
			p = int32(len(imp.provNums))
			imp.provNums[st.province] = p
		}
		st.prov = p
	}

	if s := r.get(oProvince); s != "" && s != st.province {
		if p, err := ParseProvince(s); err != nil || p != st.province {
			return badf("province", "%q is not the province of store %q: it is %s", s, st.id, st.province)
		}
	}

	raw := r.get(oBanner)
	br, ok := imp.banners[raw]
	if !ok {
		b, e := parseBannerField(raw)
		if e != nil {
			return e
		}
		n, ok := imp.bannerNums[b.Slug]
		if !ok {
			n = int32(len(imp.bannerNums))
			imp.bannerNums[b.Slug] = n
		}
		br = bannerRef{slug: b.Slug, num: n}
		imp.banners[strings.Clone(raw)] = br
	}
	slug := br.slug
	if slug != st.banner {
		return badf("banner", "%s is not the banner of store %q: it is %s", slug, st.id, st.banner)
	}

	sku := r.get(oSKU)
	skuNum, ok := imp.skus[sku]
	if !ok {
		if e := checkID("external_sku", sku); e != nil {
			return e
		}
		if len(imp.skuNames) == maxFileSKUs {
			return badf("external_sku", "the file names more than %d SKUs: split it", maxFileSKUs)
		}
		sku = strings.Clone(sku)
		skuNum = int32(len(imp.skuNames))
		imp.skus[sku] = skuNum
		imp.skuNames = append(imp.skuNames, sku)
	}

	price, e := parsePrice("price", imp.decimal(r.get(oPrice)))
	if e != nil {
		return e
	}
	if price <= 0 {
		return badf("price", "%s is not more than zero", price)
	}
	regular := price
	if s := r.get(oRegular); s != "" {
		if regular, e = parsePrice("regular_price", imp.decimal(s)); e != nil {
			return e
		}
		if regular < price {
			return badf("regular_price", "%s is less than the price %s: want the regular price, at least the price", regular, price)
		}
	}
	if s := r.get(oOnPromo); s != "" {
		onPromo, e := parseFlag("on_promo", s, false)
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
	if s := r.get(oCurrency); s != "" && !strings.EqualFold(s, Currency) {
		return badf("currency", "%q is not %s: prices are Canadian dollars", s, Currency)
	}
	var promoEnds Date
	if s := r.get(oPromoEnds); s != "" {
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
	if s := r.get(oUPC); s != "" {
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
					gs.gtin.UPC(), imp.unit(), prev.line, imp.gtins[prev.gtin].gtin.UPC(), slug, sku)
			}
			linked = true
		}
	}
	// The product's facts, when the row names it and they are news.
	var item CatalogueItem
	newFacts := false
	if gs != nil && !restricted {
		if name, nameFr := r.get(oName), r.get(oNameFr); name != "" || nameFr != "" {
			item = CatalogueItem{GTIN: gs.gtin, Name: name, NameFr: nameFr, Brand: r.get(oBrand), Size: r.get(oSize), Category: r.get(oCategory)}
			if gs.product >= 0 {
				imp.mergeFacts(gs, r.line, &item)
			}
			if gs.product < 0 || imp.batch.Products[gs.product] != item {
				for _, f := range [...]struct {
					name, value string
				}{{"name", item.Name}, {"name_fr", item.NameFr}, {"brand", item.Brand}, {"size", item.Size}, {"category", item.Category}} {
					if e := checkText(f.name, f.value); e != nil {
						return e
					}
				}
				newFacts = true
			}
		}
	}

	sk := uint64(br.num)<<48 | uint64(st.prov)<<32 | uint64(skuNum)
	si, ok := imp.series[sk]
	if !ok {
		si = int32(len(imp.seriesKeys))
		imp.series[sk] = si
		imp.seriesKeys = append(imp.seriesKeys, seriesKey{Banner: slug, SKU: imp.skuNames[skuNum], Province: st.province})
	}
	// Rows repeating an earlier one (the same date, store and SKU) are
	// found once the rows are sorted, by scan.
	if err := imp.obs.Add(extsort.Rec{Series: si, Store: st.num, Date: int32(d), Price: uint32(price),
		Regular: uint32(regular), PromoEnd: int32(promoEnds), Line: int32(r.line)}); err != nil {
		return &rowError{reason: err.Error(), fatal: err}
	}

	switch {
	case restricted:
		imp.note(r.line, fmt.Sprintf("%s: upc: %s is a restricted-circulation (in-store) code: the price is kept, the SKU is not linked to a product", imp.at(r.line), gs.gtin.UPC()))
	case gs != nil:
		if !linked {
			imp.links[lk] = linkSeen{gtin: gnum, line: int32(r.line)}
			imp.batch.Links = append(imp.batch.Links, SKULink{Banner: slug, ExternalSKU: imp.skuNames[skuNum], GTIN: gs.gtin})
		}
		if newFacts {
			if gs.product >= 0 {
				imp.batch.Products[gs.product] = cloneItem(item) // the last row wins
			} else {
				gs.product, gs.named = int32(len(imp.batch.Products)), int32(r.line)
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
		imp.at(line), k.Field, k.Given, k.Kept, whose, k.Field, gtin.UPC())
}

func cloneItem(it CatalogueItem) CatalogueItem {
	return CatalogueItem{GTIN: it.GTIN, Name: strings.Clone(it.Name), NameFr: strings.Clone(it.NameFr), Brand: strings.Clone(it.Brand),
		Size: strings.Clone(it.Size), Category: strings.Clone(it.Category)}
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

// checkID checks an identifier: required, at most maxIDLen bytes of UTF-8
// without control characters.
func checkID(field, s string) *rowError {
	if s == "" {
		return badf(field, "is required")
	}
	if len(s) > maxIDLen {
		return badf(field, "%q is longer than %d characters", s, maxIDLen)
	}
	return checkChars(field, s)
}

// requireText is checkText for a name or label that is required.
func requireText(field, s string) *rowError {
	if s == "" {
		return badf(field, "is required")
	}
	return checkText(field, s)
}

// checkText checks a name or label: empty, or at most maxTextLen bytes of
// UTF-8 without control characters.
func checkText(field, s string) *rowError {
	if s == "" {
		return nil
	}
	if len(s) > maxTextLen {
		return badf(field, "is longer than %d characters", maxTextLen)
	}
	return checkChars(field, s)
}

func checkChars(field, s string) *rowError {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return badf(field, "%q contains a control character", s)
		}
	}
	if !utf8.ValidString(s) {
		return badf(field, "%q is not valid UTF-8", s)
	}
	return nil
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

// parseCoordinate parses a latitude or longitude in degrees: within
// -limit..limit, and within lo..hi to be plausibly in Canada.
func parseCoordinate(field, s string, limit, lo, hi float64) (float64, *rowError) {
	if s == "" {
		return 0, badf(field, "is required: want decimal degrees")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, badf(field, "%q is not a number: want decimal degrees, e.g. 43.6532", s)
	}
	if v < -limit || v > limit {
		return 0, badf(field, "%s is out of range: want -%g to %g degrees", s, limit, limit)
	}
	if v < lo || v > hi {
		return 0, badf(field, "%s is outside Canada: want %g to %g degrees", s, lo, hi)
	}
	return v, nil
}

// parseFlag parses a yes/no field; empty is def.
func parseFlag(field, s string, def bool) (bool, *rowError) {
	switch strings.ToLower(s) {
	case "":
		return def, nil
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, badf(field, "%q is not a yes/no value: want true, false, 1, 0, yes or no (default %t)", s, def)
}

// readRows reads the rows of a file in format from br, just past Sniff.
func (imp *importer) readRows(ctx context.Context, format rowfile.Format, br *bufio.Reader) error {
	var (
		rows *rowfile.Rows
		err  error
	)
	switch format {
	case rowfile.JSONL, rowfile.JSON:
		return imp.readJSONL(ctx, br, format == rowfile.JSON)
	case rowfile.XLSX:
		rows, err = rowfile.OpenXLSX(br, rowfile.MaxXLSX)
	case rowfile.Parquet:
		rows, err = rowfile.OpenParquet(br, rowfile.MaxParquet)
	default:
		rows, err = rowfile.OpenCSV(br, func(names []string) bool {
			_, _, problem := detectKind(normalNames(names))
			return problem == ""
		})
	}
	if err == io.EOF {
		return Errorf(EINVALID, "%s: the file is empty: want a header row of %s", imp.file, describeKinds())
	}
	var re *rowfile.RecordError
	if errors.As(err, &re) {
		return Errorf(EINVALID, "%s: %s", imp.at(re.Pos), re.Reason)
	}
	if err != nil {
		return imp.formatErr(err)
	}
	defer rows.Close()
	imp.src = rows
	imp.sepNote = rows.SeparatorNote()
	imp.decimalComma = rows.Format == rowfile.CSV && rows.Sep != ','
	header := rows.Header()
	pos, err := imp.header(ctx, header, rows.HeaderPos())
	if err != nil {
		return err
	}
	r := &row{pos: pos}
	for {
		rec, n, err := rows.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var re *rowfile.RecordError
			if !errors.As(err, &re) {
				return imp.formatErr(err)
			}
			imp.rows++
			imp.report.Rows++
			if err := imp.bad(n, &rowError{reason: re.Reason}); err != nil {
				return err
			}
			continue
		}
		r.rec, r.line = rec, n
		if err := imp.row(ctx, r); err != nil {
			return err
		}
	}
}

// formatErr turns a *rowfile.FormatError into EINVALID naming the file.
func (imp *importer) formatErr(err error) error {
	var fe *rowfile.FormatError
	if errors.As(err, &fe) {
		return Errorf(EINVALID, "%s: %s", imp.file, fe.Reason)
	}
	return err
}

// at names a place in the file: "file:12", or "file, sheet Sheet1, row 12".
func (imp *importer) at(n int) string {
	if imp.src != nil && imp.src.Format != rowfile.CSV {
		return imp.file + ", " + imp.src.Where(n)
	}
	return imp.file + ":" + strconv.Itoa(n)
}

// unit is what at's numbers count: "line" or "row".
func (imp *importer) unit() string {
	if imp.src != nil {
		return imp.src.Unit()
	}
	return "line"
}

// decimal turns a decimal comma (4,99) into a point when the file's
// separator leaves commas free for numbers.
func (imp *importer) decimal(s string) string {
	if imp.decimalComma && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		return strings.Replace(s, ",", ".", 1)
	}
	return s
}

// gtin parses a upc field. In a spreadsheet a barcode typed as a number
// loses its leading zero: 067000378089 becomes 67000378089, and so in a
// Parquet file's integer column. An XLSX upc, or one of such a column, of
// 7 or 11 digits that is a valid EAN-8 or UPC-A once a 0 is put back is
// read so; other 11-digit upcs get their check digit, as in every file.
func (imp *importer) gtin(s string) (GTIN, error) {
	if imp.src != nil && (imp.src.Format == rowfile.XLSX || imp.src.IntegerColumn("upc")) {
		if d, err := barcodeDigits(s); err == nil && (len(d) == 7 || len(d) == 11) {
			if g, err := ParseGTIN("0" + d); err == nil {
				return g, nil
			}
		}
	}
	return parseFeedGTIN(s)
}

// readJSONL reads one JSON object per line, in JSON Lines or in a JSON
// array; the first object's field names give the kind, later objects may
// leave out optional fields.
func (imp *importer) readJSONL(ctx context.Context, br *bufio.Reader, array bool) error {
	open := rowfile.OpenJSONL
	if array {
		open = rowfile.OpenJSON
	}
	lines, err := open(br, maxJSONLine)
	var re *rowfile.RecordError
	switch {
	case err == io.EOF:
		return Errorf(EINVALID, "%s: the file holds no JSON object: want one object per line with the fields of %s", imp.file, describeKinds())
	case errors.As(err, &re):
		return Errorf(EINVALID, "%s:%d: %s: want one object per line with the fields of %s", imp.file, re.Pos, re.Reason, describeKinds())
	case err != nil:
		return imp.jsonlErr(err)
	}
	if _, err := imp.header(ctx, lines.Header(), lines.HeaderPos()); err != nil {
		return err
	}
	pos := make([]int, len(imp.kind.columns))
	for i := range pos {
		pos[i] = i
	}
	r := &row{pos: pos, rec: make([]string, len(pos))}
	column := func(name string) (int, bool) { c, ok := imp.kind.index[name]; return c, ok }
	for {
		line, err := lines.Next(r.rec, column)
		if err == io.EOF {
			return nil
		}
		var (
			re *rowfile.RecordError
			fe *rowfile.FieldError
			ue *rowfile.UnknownFieldError
			e  *rowError
		)
		switch {
		case errors.As(err, &re):
			e = &rowError{reason: re.Reason}
		case errors.As(err, &fe):
			e = badf(fe.Field, "%s", fe.Reason)
		case errors.As(err, &ue):
			e = badf(ue.Field, "unknown field for %s: want %s", imp.kind.article(), imp.kind.describe())
		case err != nil:
			return imp.jsonlErr(err)
		}
		if e != nil {
			imp.rows++
			imp.report.Rows++
			if err := imp.bad(line, e); err != nil {
				return err
			}
			continue
		}
		r.line = line
		if err := imp.row(ctx, r); err != nil {
			return err
		}
	}
}

// jsonlErr turns a *rowfile.TooLongError into EINVALID naming the line.
func (imp *importer) jsonlErr(err error) error {
	var tl *rowfile.TooLongError
	if errors.As(err, &tl) {
		return Errorf(EINVALID, "%s:%d: the line is longer than %d MiB", imp.file, tl.Pos, tl.Limit>>20)
	}
	return err
}

// storeRefs returns the banner and province of every stored store, by id.
func (s *Service) storeRefs(ctx context.Context) (map[string]storeRef, error) {
	refs := map[string]storeRef{}
	err := s.db.View(func(tx *storage.Tx) error {
		return tx.ForEachStore(func(st *storage.Store) error {
			refs[st.ID] = storeRef{Banner: st.Banner, Province: st.Province, Ord: st.Ord}
			return nil
		})
	})
	return refs, err
}
