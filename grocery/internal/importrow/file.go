// Package importrow reads the rows of an import file: it opens a file of
// any format rowfile reads, recognises its kind (stores or observations)
// by the names in its header, hands out its rows by canonical column,
// checks the fields that are plain text (identifiers, names, coordinates,
// yes/no flags) and words what is wrong with a bad row, naming the file
// and the line (or sheet and row).
//
// It is not the import's rules: what a banner, a province, a postal code,
// a barcode, a price or a date is, and what a row does to the data, are
// grocery's, which decides each row. Errors about the file as a whole are
// *fault.Error values of kind Invalid, whose messages grocery passes on
// as they are.
package importrow

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/rowfile"
)

const (
	maxJSONLine   = 16 << 20 // longest JSON Lines line
	ctxEvery      = 4096     // rows between context checks
	progressEvery = 64 << 10 // bytes between progress calls
)

// Opener reads the header of a file of a format other than CSV and JSON
// (XLSX, Parquet), r just past its signature's Sniff; errors about the
// file's form are *rowfile.FormatError values.
type Opener func(f rowfile.Format, r io.Reader) (*rowfile.Rows, error)

// File is an import file being read, past its header.
type File struct {
	Format rowfile.Format
	Kind   *Kind

	name         string
	counter      *rowfile.Counter
	rows         *rowfile.Rows            // CSV, XLSX or Parquet
	lines        *rowfile.JSONLines       // JSON Lines or JSON
	row          Row                      // the row Next returns
	decimalComma bool                     // numbers may be written 4,99 (a ';' or tab file)
	column       func(string) (int, bool) // a JSON field's canonical column
	n            int                      // rows read
}

// Open reads the format and the header of the file name from r and
// recognises its kind; a file with the columns of a derived dataset's
// export is refused. progress, when not nil, is called with the bytes
// read every 64 KiB; other opens a file of a format other than CSV and
// JSON. It returns an Invalid *fault.Error naming the file
// for an empty file, one of another format, and a header that gives no
// kind (saying what is wrong with its names), and the reader's own
// errors. name is used in messages only.
func Open(name string, r io.Reader, progress func(bytesRead int64), derived []Derived, other Opener) (*File, error) {
	counter := &rowfile.Counter{R: r, Progress: progress, Every: progressEvery}
	br := bufio.NewReaderSize(counter, 64<<10)
	format, empty, err := rowfile.Sniff(br)
	if err != nil {
		return nil, fileErr(name, err)
	}
	if empty {
		return nil, fault.New(fault.Invalid, "%s: the file is empty: want a header row of %s", name, describeKinds())
	}
	f := &File{Format: format, name: name, counter: counter}
	if format == rowfile.JSONL || format == rowfile.JSON {
		return f, f.openJSONL(br, derived)
	}
	if format == rowfile.CSV {
		f.rows, err = rowfile.OpenCSV(br, func(names []string) bool {
			_, _, problem := detect(normalNames(names), derived)
			return problem == ""
		})
	} else {
		f.rows, err = other(format, br)
	}
	if err == io.EOF {
		return nil, fault.New(fault.Invalid, "%s: the file is empty: want a header row of %s", name, describeKinds())
	}
	var re *rowfile.RecordError
	if errors.As(err, &re) {
		return nil, fault.New(fault.Invalid, "%s:%d: %s", name, re.Pos, re.Reason)
	}
	if err != nil {
		return nil, fileErr(name, err)
	}
	f.decimalComma = f.rows.Format == rowfile.CSV && f.rows.Sep != ','
	kind, pos, problem := detect(normalNames(f.rows.Header()), derived)
	if problem != "" {
		if note := f.rows.SeparatorNote(); note != "" {
			problem += "; " + note
		}
		err := fault.New(fault.Invalid, "%s: header: %s", f.At(f.rows.HeaderPos()), problem)
		f.rows.Close()
		return nil, err
	}
	f.Kind, f.row.pos = kind, pos
	return f, nil
}

// openJSONL reads the first object of a JSON Lines file or JSON array;
// its field names give the kind, later objects may leave out optional
// fields.
func (f *File) openJSONL(br *bufio.Reader, derived []Derived) error {
	open := rowfile.OpenJSONL
	if f.Format == rowfile.JSON {
		open = rowfile.OpenJSON
	}
	lines, err := open(br, maxJSONLine)
	var re *rowfile.RecordError
	switch {
	case err == io.EOF:
		return fault.New(fault.Invalid, "%s: the file holds no JSON object: want one object per line with the fields of %s", f.name, describeKinds())
	case errors.As(err, &re):
		return fault.New(fault.Invalid, "%s:%d: %s: want one object per line with the fields of %s", f.name, re.Pos, re.Reason, describeKinds())
	case err != nil:
		return fileErr(f.name, err)
	}
	kind, _, problem := detect(normalNames(lines.Header()), derived)
	if problem != "" {
		return fault.New(fault.Invalid, "%s: header: %s", f.At(lines.HeaderPos()), problem)
	}
	f.lines, f.Kind = lines, kind
	f.row.pos = make([]int, len(kind.columns))
	for i := range f.row.pos {
		f.row.pos[i] = i
	}
	f.row.rec = make([]string, len(kind.columns))
	f.column = func(name string) (int, bool) { c, ok := kind.Index[name]; return c, ok }
	return nil
}

// Read reads the data rows and calls row with each, in file order. A row
// that cannot be read as one, or whose Problem row returns, goes to bad
// with its line; Read stops with the first error bad returns, with the
// Fatal error of a Problem, and with ctx's error when ctx ends (checked
// every few thousand rows). It also returns Next's errors.
func (f *File) Read(ctx context.Context, row func(*Row) *Problem, bad func(line int, p *Problem) error) error {
	for {
		r, p, err := f.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		f.n++
		if p == nil {
			if f.n%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			p = row(r)
		}
		if p == nil {
			continue
		}
		if p.Fatal != nil {
			return p.Fatal
		}
		if err := bad(r.Line, p); err != nil {
			return err
		}
	}
}

// Rows returns the number of data rows Read has read, bad ones included.
func (f *File) Rows() int { return f.n }

// BytesRead returns the bytes of the file read so far.
func (f *File) BytesRead() int64 { return f.counter.N() }

// Next reads the next data row. For a row that cannot be read as one (a
// CSV record of the wrong length, a JSON line that is not an object, a
// JSON field that is not a value or not a column of the kind) it returns
// the row, whose Line is set and whose fields are not, and what is wrong
// with it; the next call goes on with the row after it. It returns
// io.EOF after the last row, an Invalid *fault.Error for a file that is
// not well formed past its header, and the reader's own errors. The row
// is reused by the next call.
func (f *File) Next() (*Row, *Problem, error) {
	if f.lines != nil {
		return f.nextJSON()
	}
	rec, n, err := f.rows.Next()
	if err == io.EOF {
		return nil, nil, err
	}
	f.row.Line = n
	if err != nil {
		var re *rowfile.RecordError
		if !errors.As(err, &re) {
			return nil, nil, fileErr(f.name, err)
		}
		return &f.row, &Problem{Reason: re.Reason}, nil
	}
	f.row.rec = rec
	return &f.row, nil, nil
}

func (f *File) nextJSON() (*Row, *Problem, error) {
	line, err := f.lines.Next(f.row.rec, f.column)
	if err == io.EOF {
		return nil, nil, err
	}
	f.row.Line = line
	var (
		re *rowfile.RecordError
		fe *rowfile.FieldError
		ue *rowfile.UnknownFieldError
	)
	switch {
	case errors.As(err, &re):
		return &f.row, &Problem{Reason: re.Reason}, nil
	case errors.As(err, &fe):
		return &f.row, Badf(fe.Field, "%s", fe.Reason), nil
	case errors.As(err, &ue):
		return &f.row, Badf(ue.Field, "unknown field for %s: want %s", f.Kind.Article(), f.Kind.Describe()), nil
	case err != nil:
		return nil, nil, fileErr(f.name, err)
	}
	return &f.row, nil, nil
}

// Close releases what the reader holds (an XLSX file's temporary files).
func (f *File) Close() error {
	if f.rows != nil {
		return f.rows.Close()
	}
	return nil
}

// fileErr turns a *rowfile.FormatError into an Invalid *fault.Error
// naming the file, and a *rowfile.TooLongError into one naming the line.
func fileErr(name string, err error) error {
	var (
		fe *rowfile.FormatError
		tl *rowfile.TooLongError
	)
	switch {
	case errors.As(err, &fe):
		return fault.New(fault.Invalid, "%s: %s", name, fe.Reason)
	case errors.As(err, &tl):
		return fault.New(fault.Invalid, "%s:%d: the line is longer than %d MiB", name, tl.Pos, tl.Limit>>20)
	}
	return err
}

// At names a place in the file: "file:12", or "file, sheet Sheet1, row 12".
func (f *File) At(n int) string {
	if f.rows != nil && f.rows.Format != rowfile.CSV {
		return f.name + ", " + f.rows.Where(n)
	}
	return f.name + ":" + strconv.Itoa(n)
}

// Unit is what At's numbers count: "line" or "row".
func (f *File) Unit() string {
	if f.rows != nil {
		return f.rows.Unit()
	}
	return "line"
}

// Decimal turns a decimal comma (4,99) into a point when the file's
// separator leaves commas free for numbers.
func (f *File) Decimal(s string) string {
	if f.decimalComma && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		return strings.Replace(s, ",", ".", 1)
	}
	return s
}

// NumericColumn reports whether the file may hold the column of that
// name as numbers, which lose their leading zeros: any column of an XLSX
// sheet, an integer column of a Parquet file.
func (f *File) NumericColumn(name string) bool {
	return f.rows != nil && (f.rows.Format == rowfile.XLSX || f.rows.IntegerColumn(name))
}

// Message says what is wrong with the row on line: "file:line: field: reason".
func (f *File) Message(line int, p *Problem) string {
	msg := f.At(line) + ": "
	if p.Field != "" {
		msg += p.Field + ": "
	}
	return msg + p.Reason
}

// Row is one data row: its fields in file order, mapped to canonical
// columns.
type Row struct {
	Line int // its line (or row)
	rec  []string
	pos  []int
}

// Get returns canonical column c, trimmed, or "" when it is absent.
func (r *Row) Get(c int) string {
	if p := r.pos[c]; p >= 0 && p < len(r.rec) {
		return strings.TrimSpace(r.rec[p])
	}
	return ""
}

// Problem is what is wrong with one row.
type Problem struct {
	Field  string // "" when the row as a whole is wrong
	Reason string
	Fatal  error // not the row's fault: the import stops with this error
}

// Badf returns the Problem of field, its reason formatted.
func Badf(field, format string, args ...any) *Problem {
	return &Problem{Field: field, Reason: fmt.Sprintf(format, args...)}
}
