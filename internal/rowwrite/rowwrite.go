// Package rowwrite writes tables of typed rows as CSV (RFC 4180, with a
// header row) and JSON (an array of objects written incrementally, or JSON
// Lines), and declares the Writer that the XLSX and Parquet writers of the
// module's format packages implement. It knows nothing of what the
// columns mean: a caller gives the columns and then the rows, one at a
// time, and memory stays flat however many rows come. The CSV and JSON
// writers write through a buffer as rows come.
package rowwrite

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strconv"

	"github.com/grocerydata/grocery/internal/jsontext"
)

// Kind is the type of a column's values.
type Kind uint8

// The kinds of column. A Value's field used by each is given.
const (
	Text  Kind = iota // Value.S
	Int               // Value.N
	Money             // Value.N, in cents; written as dollars with two decimals
	Date              // Value.N, days since 1970-01-01; written as YYYY-MM-DD
	Bool              // Value.N != 0
	Float             // Value.F
)

// Column is one column of a table.
type Column struct {
	Name string // header text, and the key of a JSON object
	Kind Kind
}

// Value is one cell. Null is an absent value: an empty CSV field, a JSON
// null, an empty XLSX cell.
type Value struct {
	S    string
	N    int64
	F    float64
	Null bool
}

// Writer writes the rows of one table.
type Writer interface {
	// Row writes one row: one value per column, in the columns' order.
	// The writer does not keep vals after it returns.
	Row(vals []Value) error
	// Close writes what remains (the end of a JSON array, an XLSX
	// archive) and flushes it to the underlying writer. It does not close
	// that writer.
	Close() error
	// Abort releases what the writer holds (an XLSX writer's temporary
	// file) without writing anything more.
	Abort()
}

// MaxXLSXRows is the most data rows an XLSX sheet holds: a sheet has
// 1,048,576 rows (Excel's limit), the first of them the header.
const MaxXLSXRows = 1<<20 - 1

// ErrTooManyRows is returned by an XLSX writer's Row past MaxXLSXRows,
// before anything is written.
var ErrTooManyRows = errors.New("rowwrite: too many rows for one XLSX sheet")

// BufSize is the buffer between the writers and the underlying writer.
const BufSize = 64 << 10

// AppendCell appends v as text in a column of kind k: the form CSV fields
// take. Null appends nothing.
func AppendCell(b []byte, k Kind, v *Value) []byte {
	if v.Null {
		return b
	}
	switch k {
	case Int:
		return strconv.AppendInt(b, v.N, 10)
	case Money:
		return jsontext.AppendCents(b, v.N)
	case Date:
		return jsontext.AppendISODate(b, v.N)
	case Bool:
		return strconv.AppendBool(b, v.N != 0)
	case Float:
		return strconv.AppendFloat(b, v.F, 'f', -1, 64)
	}
	return append(b, v.S...)
}

// csvWriter writes RFC 4180 CSV with encoding/csv: CRLF line ends, fields
// quoted when they hold a comma, a quote or a line break, and text that a
// spreadsheet would take for a formula neutralised (Neutralise); numbers,
// dates and booleans are written as they are.
type csvWriter struct {
	bw      *bufio.Writer
	cw      *csv.Writer
	cols    []Column
	fields  []string
	scratch []byte
}

// NewCSV writes the header row of cols to w and returns a writer of the
// rows.
func NewCSV(w io.Writer, cols []Column) (Writer, error) {
	bw := bufio.NewWriterSize(w, BufSize)
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	c := &csvWriter{bw: bw, cw: cw, cols: cols, fields: make([]string, len(cols))}
	for i, col := range cols {
		c.fields[i] = col.Name
	}
	if err := cw.Write(c.fields); err != nil {
		return nil, err
	}
	return c, nil
}

// formulaStart reports whether a spreadsheet reading c first in a cell
// would take the cell for a formula (=, +, -, @) or strip it (tab, CR),
// as the OWASP rule on CSV injection lists them.
func formulaStart(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// NeedsNeutralising reports whether CSV text s is written with a leading
// apostrophe: when it starts with one of = + - @ tab CR, or with
// apostrophes followed by one of them (so that reading strips exactly the
// apostrophe writing added: see Neutralise).
func NeedsNeutralising(s string) bool {
	i := 0
	for i < len(s) && s[i] == '\'' {
		i++
	}
	return i < len(s) && formulaStart(s[i])
}

// Neutralise returns the text of a CSV cell as written: s with a leading
// apostrophe when NeedsNeutralising(s) (the OWASP rule: a spreadsheet
// shows '=1+1 as the text =1+1 and does not evaluate it), else s.
// Reading undoes it: a cell of one or more apostrophes followed by one of
// = + - @ tab CR loses its first apostrophe (rowfile does it), so an
// export imports back as it was.
func Neutralise(s string) string {
	if NeedsNeutralising(s) {
		return "'" + s
	}
	return s
}

func (c *csvWriter) Row(vals []Value) error {
	// The formatted values share one string per row.
	b := c.scratch[:0]
	var ends [64]int
	for i, col := range c.cols {
		if col.Kind == Text {
			continue
		}
		b = AppendCell(b, col.Kind, &vals[i])
		if i < len(ends) {
			ends[i] = len(b)
		}
	}
	c.scratch = b
	s := string(b)
	start := 0
	for i, col := range c.cols {
		if col.Kind == Text {
			if vals[i].Null {
				c.fields[i] = ""
			} else {
				c.fields[i] = Neutralise(vals[i].S)
			}
			continue
		}
		end := ends[i]
		c.fields[i] = s[start:end]
		start = end
	}
	return c.cw.Write(c.fields)
}

func (c *csvWriter) Close() error {
	c.cw.Flush()
	if err := c.cw.Error(); err != nil {
		return err
	}
	return c.bw.Flush()
}

func (c *csvWriter) Abort() {}

// jsonWriter writes a JSON array of objects, one per line, or JSON Lines.
type jsonWriter struct {
	bw    *bufio.Writer
	cols  []Column
	keys  [][]byte // `"name":` per column, the first preceded by `{`, others by `,`
	lines bool
	n     int64
	buf   []byte
}

// NewJSON returns a writer of rows as JSON objects keyed by the column
// names: with lines false an array, opened on the first row (or at Close)
// and closed by Close, with one object per line; with lines true JSON
// Lines. Money is a number with two decimals, a date a "YYYY-MM-DD"
// string, Null null.
func NewJSON(w io.Writer, cols []Column, lines bool) Writer {
	j := &jsonWriter{bw: bufio.NewWriterSize(w, BufSize), cols: cols, lines: lines}
	for i, col := range cols {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		k := jsontext.AppendString([]byte{sep}, col.Name)
		j.keys = append(j.keys, append(k, ':'))
	}
	return j
}

func (j *jsonWriter) Row(vals []Value) error {
	b := j.buf[:0]
	switch {
	case j.lines:
	case j.n == 0:
		b = append(b, "[\n"...)
	default:
		b = append(b, ",\n"...)
	}
	for i, col := range j.cols {
		b = append(b, j.keys[i]...)
		v := &vals[i]
		switch {
		case v.Null:
			b = append(b, "null"...)
		case col.Kind == Text:
			b = jsontext.AppendString(b, v.S)
		case col.Kind == Date:
			b = append(jsontext.AppendISODate(append(b, '"'), v.N), '"')
		default:
			b = AppendCell(b, col.Kind, v)
		}
	}
	b = append(b, '}')
	if j.lines {
		b = append(b, '\n')
	}
	j.buf = b
	j.n++
	_, err := j.bw.Write(b)
	return err
}

func (j *jsonWriter) Close() error {
	if !j.lines {
		end := "\n]\n"
		if j.n == 0 {
			end = "[]\n"
		}
		if _, err := j.bw.WriteString(end); err != nil {
			return err
		}
	}
	return j.bw.Flush()
}

func (j *jsonWriter) Abort() {}
