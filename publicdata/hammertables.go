package publicdata

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/internal/sqlitefile"
)

// Project Hammer publishes its data as two CSV files, hammer-4-product.csv
// and hammer-4-raw.csv, and as one SQLite file holding the same columns
// in two tables, product and raw (raw.product_id is a product.id). The
// conversion reads either the same way: a hammerInput opens one of those
// tables as a hammerTable, whose rows are text as the CSV files carry
// them.

// The tables of Project Hammer's SQLite file.
const (
	hammerProductTable = "product"
	hammerRawTable     = "raw"
)

// hammerInput is a table to read: a CSV file, or a table of a SQLite file.
type hammerInput struct {
	file  File
	table string // the SQLite file's table; "" for a CSV file
}

// hammerTable is a Hammer table read row by row.
type hammerTable interface {
	Rows
	// Where says where the row Next returned last is, for a summary's
	// examples: "hammer-4-raw.csv:12", "hammer.sqlite raw rowid 12".
	Where() string
}

// errNotCSV is what a CSV file's Next returns for a row that is not
// readable as CSV: counted, not fatal.
var errNotCSV = errors.New("row not readable as CSV")

func (in hammerInput) open() (hammerTable, error) {
	if in.table == "" {
		return openCSVTable(in.file)
	}
	return openSQLiteTable(in.file, in.table)
}

// csvTable is a CSV file read as a hammerTable.
type csvTable struct {
	rc     io.ReadCloser
	cr     *csv.Reader
	name   string
	header []string
	line   int // the line of the last record read: 1 for the header
}

func openCSVTable(f File) (*csvTable, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	t := &csvTable{rc: rc, cr: csvReader(rc), name: f.Name, line: 1}
	h, err := t.cr.Read()
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("%s: no header row: %w", f.Name, err)
	}
	t.header = append([]string(nil), h...)
	return t, nil
}

func (t *csvTable) Header() []string { return t.header }
func (t *csvTable) Close() error     { return t.rc.Close() }
func (t *csvTable) Where() string    { return t.name + ":" + strconv.Itoa(t.line) }

func (t *csvTable) Next() ([]string, error) {
	rec, err := t.cr.Read()
	if err == io.EOF {
		return nil, io.EOF
	}
	t.line++
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, errNotCSV
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Where(), err)
	}
	return rec, nil
}

// sqliteTable is a table of a SQLite file read as a hammerTable: each
// value as text, as Value.AppendText writes it (a CSV file's text).
type sqliteTable struct {
	c           io.Closer
	name, table string
	header      []string
	rows        *sqlitefile.Rows
	buf         []byte
	ends        []int
	rec         []string
}

// openSQLite opens f, a SQLite file, for reading.
func openSQLite(f File) (*sqlitefile.DB, io.Closer, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, err
	}
	ra, size, err := readerAtSize(rc)
	if err == nil {
		var db *sqlitefile.DB
		if db, err = sqlitefile.Open(ra, size); err == nil {
			return db, rc, nil
		}
	}
	rc.Close()
	return nil, nil, fmt.Errorf("%s: %w", f.Name, err)
}

// readerAtSize returns r as an io.ReaderAt with its size: r must be one,
// with a Size method (bytes.Reader, io.SectionReader) or a Stat method
// giving a regular file's (os.File). A SQLite file is read at random, a
// page here and there: a stream is refused rather than copied.
func readerAtSize(r io.Reader) (io.ReaderAt, int64, error) {
	ra, ok := r.(io.ReaderAt)
	if ok {
		switch s := r.(type) {
		case interface{ Size() int64 }:
			return ra, s.Size(), nil
		case interface{ Stat() (fs.FileInfo, error) }:
			if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
				return ra, fi.Size(), nil
			}
		}
	}
	return nil, 0, fmt.Errorf("a SQLite file is read at random, and this one opens as a stream (%T): give it as a file", r)
}

func openSQLiteTable(f File, table string) (*sqliteTable, error) {
	db, c, err := openSQLite(f)
	if err != nil {
		return nil, err
	}
	tb, err := db.Table(table)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return &sqliteTable{c: c, name: f.Name, table: tb.Name, header: tb.ColumnNames(), rows: db.Rows(tb)}, nil
}

func (t *sqliteTable) Header() []string { return t.header }
func (t *sqliteTable) Close() error     { return t.c.Close() }
func (t *sqliteTable) Where() string {
	return t.name + " " + t.table + " rowid " + strconv.FormatInt(t.rows.RowID(), 10)
}

// Next returns the next row's values as text, in one allocation.
func (t *sqliteTable) Next() ([]string, error) {
	if !t.rows.Next() {
		if err := t.rows.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", t.name, err)
		}
		return nil, io.EOF
	}
	t.buf, t.ends = t.buf[:0], t.ends[:0]
	for _, v := range t.rows.Values() {
		t.buf = v.AppendText(t.buf)
		t.ends = append(t.ends, len(t.buf))
	}
	s := string(t.buf)
	t.rec = t.rec[:0]
	start := 0
	for _, end := range t.ends {
		t.rec = append(t.rec, s[start:end])
		start = end
	}
	return t.rec, nil
}

// sniffHammer returns the inputs f holds: its two tables when it is a
// SQLite file (recognised by its first 16 bytes, whatever its name), else
// the CSV file, as products or as raw prices by its header.
func sniffHammer(f File) (products, raws []hammerInput, err error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, err
	}
	head := make([]byte, len(sqlitefile.Magic))
	n, _ := io.ReadFull(rc, head)
	if string(head[:n]) == sqlitefile.Magic {
		rc.Close()
		return sniffSQLite(f)
	}
	defer rc.Close()
	h, err := csvReader(io.MultiReader(bytes.NewReader(head[:n]), rc)).Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: no header row: %w", f.Name, err)
	}
	switch {
	case hasColumns(h, hammerRawCols, "nowtime", "product_id"):
		return nil, []hammerInput{{file: f}}, nil
	case hasColumns(h, hammerProductCols, "id", "vendor"):
		return []hammerInput{{file: f}}, nil, nil
	}
	return nil, nil, fmt.Errorf("%s is not a Project Hammer file: want the columns of hammer-4-product.csv (%s) or hammer-4-raw.csv (%s), or Project Hammer's SQLite file",
		f.Name, strings.Join(hammerProductCols, ", "), strings.Join(hammerRawCols, ", "))
}

// hasColumns reports whether header has each of need, columns of cols.
func hasColumns(header, cols []string, need ...string) bool {
	idx := headerIndex(header, cols)
	for i, c := range cols {
		for _, n := range need {
			if c == n && idx[i] < 0 {
				return false
			}
		}
	}
	return true
}

// sniffSQLite checks that the SQLite file f has Project Hammer's tables,
// each with the columns it is read by.
func sniffSQLite(f File) (products, raws []hammerInput, err error) {
	db, c, err := openSQLite(f)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	for _, want := range []struct {
		table      string
		cols, need []string
	}{
		{hammerProductTable, hammerProductCols, []string{"id", "vendor"}},
		{hammerRawTable, hammerRawCols, []string{"nowtime", "product_id"}},
	} {
		tb, err := db.Table(want.table)
		if err == nil && !hasColumns(tb.ColumnNames(), want.cols, want.need...) {
			err = fmt.Errorf("its table %s has the columns %s: want %s", tb.Name, strings.Join(tb.ColumnNames(), ", "), strings.Join(want.cols, ", "))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s is a SQLite file but not Project Hammer's (tables %s and %s): %w", f.Name, hammerProductTable, hammerRawTable, err)
		}
	}
	return []hammerInput{{f, hammerProductTable}}, []hammerInput{{f, hammerRawTable}}, nil
}
