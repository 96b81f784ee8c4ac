// Package rowfile reads tabular input files: it recognises CSV, JSON Lines,
// JSON arrays (one object per line), XLSX and Parquet by their content,
// finds a CSV file's separator from its header line, and reads the header
// and records of a CSV file. The XLSX and Parquet readers are in the
// module's format packages and make their Rows with NewRows. It knows
// nothing of what the columns mean: a caller says which headers it accepts.
//
// Errors about the input's form are *FormatError values; their messages
// never quote the input's bytes, so binary input cannot leak into them.
package rowfile

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/grocerydata/grocery/internal/words"
)

// Format is a kind of input file.
type Format string

// The formats Sniff recognises.
const (
	CSV   Format = "csv"
	JSONL Format = "jsonl"
	JSON  Format = "json" // a JSON array of objects, one object per line
	// XLSX and Parquet are recognised by their signatures; their readers
	// are in the packages of the module's format directory.
	XLSX    Format = "xlsx"
	Parquet Format = "parquet" // by its PAR1 magic
)

// FormatError says the input is not a file this package reads, or not a
// well-formed one, in words meant for the person who supplied it.
type FormatError struct {
	Reason string
}

func (e *FormatError) Error() string { return e.Reason }

// NotOurs is the start of every message about a file of another kind.
const NotOurs = "not a CSV, JSON Lines, JSON, XLSX or Parquet file: "

// sniffLen is how many bytes Sniff examines for binary content.
const sniffLen = 4096

// Sniff skips a UTF-8 byte order mark and leading blank space and reports
// the input's format: XLSX for a ZIP signature (the archive itself is
// checked by OpenXLSX), JSON Lines for a first non-blank byte '{', JSON
// for '[' (an array, read by OpenJSON), CSV for other text. empty reports input with nothing but blank space. It returns
// a *FormatError for other files it recognises (legacy .xls, gzip, UTF-16
// text) and for binary data, and the reader's own errors.
func Sniff(br *bufio.Reader) (f Format, empty bool, err error) {
	head, err := br.Peek(8)
	if err != nil && err != io.EOF {
		return "", false, err
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return XLSX, false, nil
	case bytes.HasPrefix(head, []byte("PAR1")):
		return Parquet, false, nil
	case bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return "", false, &FormatError{NotOurs + "it is an empty ZIP archive"}
	case bytes.HasPrefix(head, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")):
		return "", false, &FormatError{NotOurs + "it is an OLE2 file, such as an Excel 97-2003 .xls or a password-protected workbook: save it as .xlsx (without a password) or as CSV UTF-8"}
	case bytes.HasPrefix(head, []byte("\x1f\x8b")):
		return "", false, &FormatError{NotOurs + "it is gzip-compressed: decompress it first"}
	case bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")):
		return "", false, &FormatError{NotOurs + "it is UTF-16 text (as Excel's \"Unicode text\"): save it as CSV UTF-8"}
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		br.Discard(3)
	}
	// Skip blank space, up to the buffer's size.
	for {
		buf, err := br.Peek(1)
		if err == io.EOF {
			return "", true, nil
		}
		if err != nil {
			return "", false, err
		}
		if c := buf[0]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		br.Discard(1)
	}
	buf, err := br.Peek(min(sniffLen, br.Size()))
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return "", false, err
	}
	if binary(buf) {
		return "", false, &FormatError{NotOurs + "it holds binary data"}
	}
	switch buf[0] {
	case '{':
		return JSONL, false, nil
	case '[':
		return JSON, false, nil
	}
	return CSV, false, nil
}

// binary reports whether b holds control characters other than tab, line
// feed, carriage return and form feed: text files do not.
func binary(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			return true
		}
	}
	return false
}

// Rows reads the header and records of a CSV file or of an XLSX sheet.
type Rows struct {
	Format Format
	Sep    rune   // a CSV file's separator: ',', ';' or '\t'
	Sheet  string // an XLSX file's sheet

	header []string
	ints   map[string]bool // a Parquet file's integer columns
	hpos   int             // the header's line or row
	note   string          // about the header's separators, when it has a problem
	next   func() ([]string, int, error)
	close  func() error
}

// NewRows returns the Rows of a reader that another package implements
// (the XLSX and Parquet readers): next reads the records as Next does,
// close (when not nil) releases what it holds. SetHeader gives its header.
func NewRows(f Format, next func() ([]string, int, error), close func() error) *Rows {
	return &Rows{Format: f, next: next, close: close}
}

// SetHeader sets the column names of the header and its line or row.
func (r *Rows) SetHeader(names []string, pos int) { r.header, r.hpos = names, pos }

// SetIntegerColumn marks the column of that name as one holding integers
// (see IntegerColumn).
func (r *Rows) SetIntegerColumn(name string) {
	if r.ints == nil {
		r.ints = map[string]bool{}
	}
	r.ints[strings.ToLower(strings.TrimSpace(name))] = true
}

// Header returns the column names of the header row, as written.
func (r *Rows) Header() []string { return r.header }

// IntegerColumn reports whether a Parquet file's column of that name
// (compared case-insensitively) holds integers (plain INT32 or INT64): a barcode read from one has lost
// its leading zeros, as a number typed in a spreadsheet has.
func (r *Rows) IntegerColumn(name string) bool {
	return r.ints[strings.ToLower(strings.TrimSpace(name))]
}

// HeaderPos returns the line (CSV) or row (XLSX) of the header.
func (r *Rows) HeaderPos() int { return r.hpos }

// Next returns the next record and its line (CSV, the line it starts on)
// or row (XLSX); a CSV record's fields have a neutralised formula's
// apostrophe removed (Unneutralise). It returns io.EOF after the last one, a *RecordError for
// a record that cannot be read (the next call goes on with the one after
// it), and the reader's own errors. The slice is reused by the next call.
func (r *Rows) Next() ([]string, int, error) {
	return r.next()
}

// Where describes a line or row number: "line 12", "sheet Sheet1, row 12",
// or a Parquet file's "row 12" ("schema" for its column names).
func (r *Rows) Where(pos int) string {
	switch r.Format {
	case XLSX:
		return fmt.Sprintf("sheet %s, row %d", r.Sheet, pos)
	case Parquet:
		if pos == 0 {
			return "schema" // its column names
		}
		return fmt.Sprintf("row %d", pos)
	}
	return fmt.Sprintf("line %d", pos)
}

// Unit is what a position counts: "line" or "row".
func (r *Rows) Unit() string {
	if r.Format == XLSX || r.Format == Parquet {
		return "row"
	}
	return "line"
}

// SeparatorNote explains the separators of a CSV header that the caller
// did not accept, or "" when there is nothing to say about them (only
// commas, or an XLSX file).
func (r *Rows) SeparatorNote() string { return r.note }

// Close releases what the reader holds (an XLSX file's temporary files).
func (r *Rows) Close() error {
	if r.close != nil {
		return r.close()
	}
	return nil
}

// A RecordError is a record that cannot be read.
type RecordError struct {
	Pos    int    // line or row
	Fields int    // fields read, for a record of the wrong length
	Reason string // what is wrong
}

func (e *RecordError) Error() string { return e.Reason }

// separators are the CSV separators recognised, comma first.
var separators = []rune{',', ';', '\t'}

// sepName names a separator in messages.
func sepName(c rune) string {
	if c == '\t' {
		return "tab"
	}
	return fmt.Sprintf("%q", string(c))
}

// OpenCSV reads the header of an RFC 4180 file (br just past Sniff) and
// chooses its separator: the first of ',', ';' and tab with which the
// header's fields are ones accept takes. When none is accepted, the one
// found most often in the header line is used and SeparatorNote says what
// was found and what is expected. It returns a *RecordError for a header
// that is not valid CSV and io.EOF for an empty file.
func OpenCSV(br *bufio.Reader, accept func(names []string) bool) (*Rows, error) {
	r := &Rows{Format: CSV, Sep: ','}
	line, _ := br.Peek(br.Size())
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	var counts [3]int
	chosen := -1
	for i, sep := range separators {
		cr := csv.NewReader(bytes.NewReader(line))
		cr.Comma = sep
		f, err := cr.Read()
		if err != nil {
			continue
		}
		counts[i] = len(f) - 1
		if chosen < 0 && len(f) > 1 && accept(f) {
			chosen = i
		}
	}
	if chosen < 0 {
		// None fits: read with the separator found most often and say so.
		chosen = 0
		for i := range counts {
			if counts[i] > counts[chosen] {
				chosen = i
			}
		}
		var found []string
		for i, n := range counts {
			if n > 0 {
				found = append(found, fmt.Sprintf("%s %s", sepName(separators[i]), times(n)))
			}
		}
		switch {
		case len(found) == 0 && bytes.Count(line, []byte{'|'}) > 0:
			r.note = fmt.Sprintf("the header is separated by \"|\" (%s), which is not a CSV separator this reads: want \",\" (%s or tab also work when they separate all the required columns)",
				times(bytes.Count(line, []byte{'|'})), sepName(';'))
		case len(found) == 0 || len(found) == 1 && chosen == 0:
			// Commas only, or a single column: the caller's message is enough.
		case len(found) == 1:
			r.note = fmt.Sprintf("the header is separated by %s: want \",\" (%s or tab also work when they separate all the required columns)",
				sepName(separators[chosen]), sepName(';'))
		default:
			r.note = fmt.Sprintf("the header mixes separators (%s): want one separator, \",\" (or %s or tab), between all its columns",
				strings.Join(found, ", "), sepName(';'))
		}
	}
	r.Sep = separators[chosen]
	rl := &recordLimit{r: br, line: 1, start: 1}
	cr := csv.NewReader(rl)
	cr.Comma = r.Sep
	cr.ReuseRecord = true
	header, err := cr.Read()
	if rl.over {
		return nil, &FormatError{fmt.Sprintf("line %d: a header longer than %d KiB: the file is not a data file of this kind", rl.overLine, MaxRecord>>10)}
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &RecordError{Pos: pe.StartLine, Reason: "header: not valid CSV: " + pe.Err.Error()}
		}
		return nil, err
	}
	r.header = append([]string(nil), header...)
	r.hpos = 1
	r.next = func() ([]string, int, error) {
		rec, err := cr.Read()
		if rl.over {
			return nil, 0, &FormatError{fmt.Sprintf("line %d: a row longer than %d KiB, where no field is longer than a few hundred characters: the file is not a data file of this kind (the import stops here)", rl.overLine, MaxRecord>>10)}
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, 0, err
			}
			re := &RecordError{Pos: pe.StartLine, Fields: len(rec), Reason: "not valid CSV: " + pe.Err.Error()}
			if errors.Is(pe.Err, csv.ErrFieldCount) {
				re.Reason = fmt.Sprintf("the row has %d %s: want %d like the header", len(rec), words.Plural(len(rec), "field"), len(r.header))
			}
			return nil, pe.StartLine, re
		}
		for i, f := range rec {
			rec[i] = Unneutralise(f)
		}
		line, _ := cr.FieldPos(0)
		return rec, line, nil
	}
	return r, nil
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// Unneutralise undoes the neutralising of a CSV cell that a spreadsheet
// would take for a formula (rowwrite.Neutralise, the OWASP rule): a field
// of one or more apostrophes followed by one of = + - @ tab CR loses its
// first apostrophe (the field '=1+1 reads =1+1; two apostrophes before
// =1 read one); any other field is returned as it is. CSV records from
// OpenCSV have it applied.
func Unneutralise(s string) string {
	i := 0
	for i < len(s) && s[i] == '\'' {
		i++
	}
	if i == 0 || i == len(s) {
		return s
	}
	switch s[i] {
	case '=', '+', '-', '@', '\t', '\r':
		return s[1:]
	}
	return s
}

// MaxRecord is the longest CSV record (a row, with its separators and
// quotes) OpenCSV reads: the CSV reader holds a record whole, so a field
// of hundreds of megabytes would be in memory before any length check.
// The reading stops at this limit instead.
const MaxRecord = 64 << 10

// recordLimit passes a CSV file through, counting the bytes of the
// current record (since the last line end outside quotes), and fails once
// a record passes MaxRecord.
type recordLimit struct {
	r        io.Reader
	n        int  // bytes of the current record so far
	quoted   bool // inside a quoted field
	line     int  // the current line
	start    int  // the line the current record starts on
	over     bool
	overLine int // the line of the record that passed the limit
}

var errRecordTooLong = errors.New("record too long")

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.over {
		return 0, errRecordTooLong
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		switch c {
		case '"':
			l.quoted = !l.quoted // "" inside a quoted field toggles twice
		case '\n':
			l.line++
			if !l.quoted {
				l.n, l.start = 0, l.line
				continue
			}
		}
		if l.n++; l.n > MaxRecord {
			l.over, l.overLine = true, l.start
			return i, errRecordTooLong
		}
	}
	return n, err
}

// The bounds on the rows of a file whose format declares its counts
// (Parquet's footer and pages, an XLSX sheet's dimension), checked on
// what it declares before anything is unpacked and on the rows read: a
// few bytes can declare millions of rows (a dictionary page of one
// repeated value, a footer listing one row group many times).
//
//   - MaxRows: the rows of one file;
//   - MaxRowsPerByte: rows per byte of the file. A data file costs at
//     least a few bits a row (a file of 1,000,000 observations of 200
//     SKUs in 50 stores over 100 days, sorted, with constant prices,
//     takes 0.17 bytes a row in zstd-compressed Parquet: 6 rows a byte).
//
// CSV and JSON Lines declare nothing: each of their rows is its bytes.
const (
	MaxRows        = 50_000_000
	MaxRowsPerByte = 64
)

// CheckRows refuses n rows in a file of format f and size bytes past
// MaxRows or MaxRowsPerByte.
func CheckRows(f Format, n, size int64) error {
	name := "the " + formatName(f) + " file"
	switch {
	case n > MaxRows:
		return &FormatError{fmt.Sprintf("%s holds more than %d rows (the most read): split it", name, MaxRows)}
	case n > size*MaxRowsPerByte:
		return &FormatError{fmt.Sprintf("%s holds %d rows in %d bytes, more than %d rows per byte (the most a data file holds): it is not a data file this program reads", name, n, size, MaxRowsPerByte)}
	}
	return nil
}

// formatName names a format in messages.
func formatName(f Format) string {
	switch f {
	case Parquet:
		return "Parquet"
	case XLSX:
		return "XLSX"
	case JSONL:
		return "JSON Lines"
	}
	return strings.ToUpper(string(f))
}
