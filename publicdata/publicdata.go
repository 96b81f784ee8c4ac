// Package publicdata reads public Canadian grocery price data as it is
// published and converts it to the rows of the import: a stores file and
// an observations file in the import's own CSV columns, with a Summary of
// what was kept and what could not be mapped, and why.
//
// Three sources are read:
//
//   - Project Hammer (https://jacobfilipp.com/hammer/): hammer-4-product.csv
//     and hammer-4-raw.csv, daily web prices of eight grocers, or the same
//     data as one SQLite file, recognised by its content whatever its
//     name: its tables product and raw are read as those two files, with
//     the same mapping and summary (internal/sqlitefile reads it).
//   - Open Food Facts' Open Prices (https://prices.openfoodfacts.org): the
//     Parquet data dump, crowd-sourced prices by barcode and OpenStreetMap
//     location.
//   - Statistics Canada table 18-10-0245-01: monthly average retail prices
//     by province, as the CSV its web data service downloads. These are
//     benchmark series, not observations: Convert returns them apart.
//
// The package speaks the import's vocabulary (banner slugs, province
// codes, dates YYYY-MM-DD, dollar amounts) and imports nothing from the
// grocery package: the caller passes the one rule it needs, the barcode
// check, in Options, and feeds the rows to its import. A bad row is never
// fatal: it is counted under its reason, with a few examples.
package publicdata

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The sources Convert reads.
const (
	Hammer     = "hammer"
	OpenPrices = "openprices"
	StatCan    = "statcan"
)

// Sources lists the names Convert takes, in the order the CLI shows them.
var Sources = []string{Hammer, OpenPrices, StatCan}

// File is one published file: its name (for messages) and how to open it.
// Open may be called more than once: a source that needs two passes (Open
// Prices: the stores, then the prices) reads the file twice. A SQLite file
// (Project Hammer's) is read at random, a page here and there: its Open
// must return an io.ReaderAt with its size, an *os.File or a reader with
// a Size method (*bytes.Reader, *io.SectionReader); one that returns a
// stream is refused, not copied.
type File struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// Options configures Convert.
type Options struct {
	// ValidBarcode reports whether upc is a GTIN the import links to a
	// product (a valid check digit, not an in-store code). A row whose
	// code is not is kept without a barcode (Hammer) or not mapped (Open
	// Prices). Required.
	ValidBarcode func(upc string) bool
	// Banner returns the slug of the banner a store's name or brand
	// names ("No Frills", "Loblaws"), false when none. Required for Open
	// Prices, whose stores are OpenStreetMap shops.
	Banner func(name string) (slug string, ok bool)
	// Province returns the province code of a Canadian postal code,
	// false when it is not one. Required for Open Prices.
	Province func(postalCode string) (province string, ok bool)
	// OpenParquet reads a Parquet file as text rows: its column names,
	// then each row's values as a CSV file writes them (io.EOF after the
	// last). Required for Open Prices, whose dump is Parquet.
	OpenParquet func(r io.Reader) (Rows, error)
}

// Rows is a table read row by row.
type Rows interface {
	Header() []string
	// Next returns the next row (valid until the next call) or io.EOF.
	Next() ([]string, error)
	Close() error
}

// Conversion is a converted source: the import's stores file and a
// writer of its observations file, or (StatCan) benchmark series.
type Conversion struct {
	Source string
	// Stores is a stores file in the import's CSV columns: the reference
	// stores the observations name. Empty for StatCan.
	Stores []byte
	// WriteObservations streams the observations, in the import's CSV
	// columns, counting in Summary what it keeps and what not. It writes
	// them in parts of at most partRows rows (all in one when partRows
	// is 0), each a whole file with its header, to the writer next
	// returns for it: a part is imported in one transaction, so that the
	// memory an import takes does not grow with the source's size. It
	// writes at least one part. Nil for StatCan.
	//
	// In parts, Project Hammer's prices, published by time, come in
	// chunks of 8 parts of the file's order, each written by product,
	// then day: a part then holds all the chunk's days of a few
	// products rather than a few days of every product, so its import
	// writes each product's series once for many days, and its memory
	// grows with the part, not with the number of products.
	WriteObservations func(ctx context.Context, partRows int, next func() (io.Writer, error)) error
	// Benchmarks are StatCan's series (nil for the other sources).
	Benchmarks []Benchmark
	Summary    *Summary
}

// Convert reads files of source (Hammer, OpenPrices or StatCan). It fails
// only when a file cannot be read at all or is not the source's format;
// bad rows are counted in the Summary.
func Convert(source string, files []File, opts Options) (*Conversion, error) {
	if opts.ValidBarcode == nil {
		return nil, fmt.Errorf("publicdata: Options.ValidBarcode is required")
	}
	switch source {
	case Hammer:
		return convertHammer(files, opts)
	case OpenPrices:
		return convertOpenPrices(files, opts)
	case StatCan:
		return convertStatCan(files)
	}
	return nil, fmt.Errorf("source %q is not known: want one of %s", source, strings.Join(Sources, ", "))
}

// Summary says what a conversion kept and what it could not map.
type Summary struct {
	Source string `json:"source"`
	Rows   int    `json:"rows"` // data rows read, over every file
	Kept   int    `json:"kept"` // rows written as observations (or benchmark points)
	// Stores and Products count the reference stores and the products
	// written; SKUOnly the products kept without a barcode (found by
	// banner and external_sku, not by lookup).
	Stores   int `json:"stores"`
	Products int `json:"products"`
	SKUOnly  int `json:"sku_only,omitempty"`
	// NotMapped lists the rows left out, by reason, most first.
	NotMapped []Reason `json:"not_mapped,omitempty"`
	// Notes are rows kept with a remark (a SALE flag), by reason.
	Notes []Reason `json:"notes,omitempty"`
	// Gaps are runs of days with no row at all between the first and
	// the last day: the source did not collect (Hammer's August 2025).
	Gaps        []Gap  `json:"gaps,omitempty"`
	Attribution string `json:"attribution"`
}

// Reason is a count of rows under one reason with the first few examples
// ("file:line: value").
type Reason struct {
	Reason   string   `json:"reason"`
	Count    int      `json:"count"`
	Examples []string `json:"examples,omitempty"`
}

// Gap is a run of days without data, From to To inclusive (YYYY-MM-DD).
type Gap struct {
	From string `json:"from"`
	To   string `json:"to"`
	Days int    `json:"days"`
}

// maxExamples is how many examples a Reason keeps.
const maxExamples = 3

// tally counts rows by reason.
type tally struct {
	order []string
	by    map[string]*Reason
}

func (t *tally) add(reason, example string) {
	if t.by == nil {
		t.by = map[string]*Reason{}
	}
	r := t.by[reason]
	if r == nil {
		r = &Reason{Reason: reason}
		t.by[reason] = r
		t.order = append(t.order, reason)
	}
	r.Count++
	if len(r.Examples) < maxExamples {
		r.Examples = append(r.Examples, example)
	}
}

func (t *tally) list() []Reason {
	var out []Reason
	for _, k := range t.order {
		out = append(out, *t.by[k])
	}
	slices.SortStableFunc(out, func(a, b Reason) int { return b.Count - a.Count })
	return out
}

// refStore is a reference store a source's prices are collected at.
type refStore struct {
	ID, Banner, Province, Name, City, Postal string
	Lat, Lon                                 float64
}

// storesCSV writes stores as an import stores file, each store's source
// (the import's source column) being source.
func storesCSV(source string, stores []refStore) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"store_id", "banner", "province", "name", "city", "postal_code", "latitude", "longitude", "source"})
	for _, s := range stores {
		w.Write([]string{s.ID, s.Banner, s.Province, s.Name, s.City, s.Postal,
			fmt.Sprintf("%.4f", s.Lat), fmt.Sprintf("%.4f", s.Lon), source})
	}
	w.Flush()
	return buf.Bytes()
}

// obsHeader is the header of the observations files Convert writes.
var obsHeader = []string{"date", "store_id", "banner", "external_sku", "price", "regular_price", "upc", "name", "brand", "size", "category", "source"}

// partWriter writes observation rows in parts: a new writer, with the
// header, every max rows.
type partWriter struct {
	next   func() (io.Writer, error)
	max, n int
	cw     *csv.Writer
	source string // every row's source column: the source's name, as its stores'
}

// write writes rec, an obsRow's record, with the source column.
func (p *partWriter) write(rec []string) error {
	rec = append(rec, p.source)
	if p.cw == nil || p.max > 0 && p.n == p.max {
		if err := p.flush(); err != nil {
			return err
		}
		w, err := p.next()
		if err != nil {
			return err
		}
		p.cw, p.n = csv.NewWriter(w), 0
		if err := p.cw.Write(obsHeader); err != nil {
			return err
		}
	}
	p.n++
	return p.cw.Write(rec)
}

func (p *partWriter) flush() error {
	if p.cw == nil {
		return nil
	}
	p.cw.Flush()
	return p.cw.Error()
}

// close ends the last part, writing an empty one when there was none.
func (p *partWriter) close() error {
	if p.cw == nil {
		w, err := p.next()
		if err != nil {
			return err
		}
		p.cw = csv.NewWriter(w)
		p.cw.Write(obsHeader)
	}
	return p.flush()
}

// obsRow is one observation in the import's columns.
type obsRow struct {
	Date, Store, Banner, SKU string
	Price, Regular           int64 // cents
	UPC, Name, Brand, Size   string
	Category                 string
}

func (o *obsRow) record(rec []string) []string {
	return append(rec[:0], o.Date, o.Store, o.Banner, o.SKU, dollars(o.Price), dollars(o.Regular),
		o.UPC, o.Name, o.Brand, o.Size, o.Category)
}

func dollars(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }
