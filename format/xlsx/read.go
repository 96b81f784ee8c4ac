package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/xuri/excelize/v2"
)

// MaxSize is the largest XLSX file an import reads, in bytes. A workbook is
// a ZIP archive, read whole into memory: the file's bytes, its shared
// strings and its small parts stay in memory while the sheet is read; a
// worksheet of more than 16 MiB uncompressed is unpacked to a temporary
// file and read row by row.
const MaxSize = 256 << 20

// The limits on what an XLSX workbook unpacks to (a few MB of ZIP can
// hold gigabytes of repeated bytes). excelize keeps every part but the
// worksheets in memory, and a worksheet past 16 MiB in a temporary file:
//
//   - MaxUnzipped: all the parts together, as the archive declares
//     them (archive/zip refuses a part longer than declared);
//   - MaxPart: each part other than a worksheet (shared strings,
//     styles), held in memory;
//   - MaxRun: the longest run of a worksheet without markup: the XML
//     decoder holds a run whole, and a cell holds at most 32,767
//     characters (escaped: up to six bytes each).
const (
	MaxUnzipped = 1 << 30
	MaxPart     = 64 << 20
	MaxRun      = 256 << 10
)

// MaxSheetRows is the most rows a sheet holds (Excel's own limit): an
// imported sheet whose dimension declares more is refused before it is
// read, and the rows read stop there. The rows read are bounded by
// rowfile.MaxRows and rowfile.MaxRowsPerByte too. An export holds one row
// fewer than this, the header taking one (grocery.MaxSheetRows).
const MaxSheetRows = 1 << 20

// checkParts refuses a workbook whose parts unpack to more than the
// limits above, reading each worksheet once, as a stream.
func checkParts(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return &rowfile.FormatError{Reason: rowfile.NotOurs + "it starts as a ZIP archive but is not a readable one"}
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
		sheet := strings.HasPrefix(f.Name, "xl/worksheets/") && strings.HasSuffix(f.Name, ".xml")
		switch {
		case total > MaxUnzipped:
			return &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX workbook unpacks to more than %d MiB (the most read): save it as CSV, or split it", MaxUnzipped>>20)}
		case !sheet && f.UncompressedSize64 > MaxPart:
			return &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX workbook's part %s unpacks to more than %d MiB (the most read for a part other than a sheet): save it as CSV", f.Name, MaxPart>>20)}
		case sheet:
			if err := checkRuns(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRuns refuses a worksheet with a run of more than MaxRun bytes
// without markup.
func checkRuns(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return &rowfile.FormatError{Reason: rowfile.NotOurs + "it starts as a ZIP archive but is not a readable one"}
	}
	defer rc.Close()
	buf := make([]byte, 64<<10)
	run := 0
	for first := true; ; first = false {
		n, err := rc.Read(buf)
		if first {
			if rows, ok := dimensionRows(buf[:n]); ok && rows > MaxSheetRows {
				return &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX workbook's sheet %s declares %d rows, more than %d rows (the most a sheet holds): it is not a sheet this program reads", f.Name, rows, MaxSheetRows)}
			}
		}
		for _, c := range buf[:n] {
			if c == '<' || c == '>' {
				run = 0
			} else if run++; run > MaxRun {
				return &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX workbook's sheet %s holds a run of more than %d KiB without markup (a cell holds at most 32,767 characters): it is not a sheet this program reads", f.Name, MaxRun>>10)}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &rowfile.FormatError{Reason: rowfile.NotOurs + "it starts as a ZIP archive but is not a readable one"}
		}
	}
}

// dimensionRows returns the last row of the <dimension ref="A1:C9"/>
// element at the start of a worksheet's XML, if head holds one.
func dimensionRows(head []byte) (int64, bool) {
	_, after, ok := bytes.Cut(head, []byte(`<dimension ref="`))
	if !ok {
		return 0, false
	}
	ref, _, ok := bytes.Cut(after, []byte{'"'})
	if !ok || len(ref) > 32 {
		return 0, false
	}
	if _, last, ok := bytes.Cut(ref, []byte{':'}); ok {
		ref = last
	}
	ref = bytes.TrimLeft(ref, "$ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	n, err := strconv.ParseInt(string(ref), 10, 64)
	return n, err == nil
}

// open reads an XLSX workbook from r (to its end) and the header of
// its first sheet: its first row that is not empty. Cells are read as
// text: numbers as their digits ("4.99", "67000378089", never in
// exponent form up to 15 digits), dates and date-times formatted as dates
// as YYYY-MM-DD, booleans as TRUE or FALSE. Empty rows are skipped.
//
// It returns a *FormatError for input that is not an XLSX workbook, one of
// more than limit bytes, or a workbook without a sheet, and io.EOF for a
// first sheet without a row.
func open(r io.Reader, limit int64) (*rowfile.Rows, error) {
	lr := &rowfile.LimitReader{R: r, Left: limit}
	data, err := io.ReadAll(lr)
	switch {
	case lr.Err != nil:
		return nil, lr.Err
	case lr.Over:
		return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX file is larger than %d MiB: save it as CSV, or split it", limit>>20)}
	case err != nil:
		return nil, err
	}
	if odsSpreadsheet(data) {
		return nil, &rowfile.FormatError{Reason: rowfile.NotOurs + "it is an OpenDocument spreadsheet (ODS): save it as XLSX or CSV and import that"}
	}
	size := int64(len(data))
	// A decompression bomb is refused before excelize unpacks anything.
	if err := checkParts(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: MaxUnzipped, UnzipXMLSizeLimit: 16 << 20})
	data = nil
	if err != nil {
		if f != nil {
			f.Close()
		}
		switch {
		case lr.Err != nil:
			return nil, lr.Err
		case lr.Over:
			return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the XLSX file is larger than %d MiB: save it as CSV, or split it", limit>>20)}
		case errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrAlgorithm) || errors.Is(err, zip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, &rowfile.FormatError{Reason: rowfile.NotOurs + "it starts as a ZIP archive but is not a readable one"}
		}
		// The message of excelize's error may quote the archive's content.
		return nil, &rowfile.FormatError{Reason: rowfile.NotOurs + "it is a ZIP archive but not a readable XLSX workbook"}
	}
	_, types := f.Pkg.Load("[Content_Types].xml")
	_, book := f.Pkg.Load("xl/workbook.xml")
	if !types || !book {
		f.Close()
		return nil, &rowfile.FormatError{Reason: rowfile.NotOurs + "it is a ZIP archive but not a readable XLSX workbook"}
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, &rowfile.FormatError{Reason: "the XLSX workbook has no sheet"}
	}
	if err := plainFormats(f); err != nil {
		f.Close()
		return nil, err
	}
	xr, err := f.Rows(sheets[0])
	if err != nil {
		f.Close()
		return nil, &rowfile.FormatError{Reason: fmt.Sprintf("sheet %s cannot be read: %v", sheets[0], err)}
	}
	sheet := sheets[0]
	n, held := 0, 0
	next := func() ([]string, int, error) {
		for xr.Next() {
			n++
			rec, err := xr.Columns()
			if errors.Is(err, excelize.ErrMaxRows) || n > MaxSheetRows {
				return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("sheet %s holds more than %d rows (the most a sheet holds): it is not a sheet this program reads", sheet, MaxSheetRows)}
			}
			if err != nil {
				return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("sheet %s, row %d cannot be read: %v", sheet, n, err)}
			}
			if !blank(rec) {
				if held++; held > rowfile.MaxRows || int64(held) > size*rowfile.MaxRowsPerByte {
					return nil, n, rowfile.CheckRows(rowfile.XLSX, int64(held), size)
				}
				return rec, n, nil
			}
		}
		if err := xr.Error(); errors.Is(err, excelize.ErrMaxRows) {
			return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("sheet %s holds more than %d rows (the most a sheet holds): it is not a sheet this program reads", sheet, MaxSheetRows)}
		}
		if err := xr.Error(); err != nil {
			return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("sheet %s after row %d cannot be read: %v", sheet, n, err)}
		}
		return nil, n, io.EOF
	}
	rows := rowfile.NewRows(rowfile.XLSX, next, func() error {
		err := xr.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
	rows.Sheet = sheet
	header, pos, err := rows.Next()
	if err != nil {
		rows.Close()
		return nil, err
	}
	// Trailing empty header cells are formatting, not columns.
	for len(header) > 0 && strings.TrimSpace(header[len(header)-1]) == "" {
		header = header[:len(header)-1]
	}
	rows.SetHeader(header, pos)
	return rows, nil
}

func blank(rec []string) bool {
	for _, s := range rec {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

// plainFormats rewrites the workbook's cell formats, in memory, so that
// cells read as plain values: date formats become yyyy-mm-dd and every
// other number format General (no currency signs, thousands separators or
// rounding to the shown decimals).
func plainFormats(f *excelize.File) error {
	ss := f.Styles
	if ss == nil || ss.CellXfs == nil {
		return nil
	}
	custom := map[int]string{}
	if ss.NumFmts != nil {
		for _, nf := range ss.NumFmts.NumFmt {
			code := nf.FormatCode
			if nf.FormatCode16 != "" {
				code = nf.FormatCode16
			}
			custom[nf.NumFmtID] = code
		}
	}
	var dateFmt *int
	for i := range ss.CellXfs.Xf {
		xf := &ss.CellXfs.Xf[i]
		if xf.NumFmtID == nil || *xf.NumFmtID == 0 {
			continue
		}
		id := *xf.NumFmtID
		code, isCustom := custom[id]
		if isCustom && isDateCode(code) || !isCustom && builtinDate(id) {
			if dateFmt == nil {
				// NewStyle adds the format and a style using it: borrow its id.
				code := "yyyy-mm-dd"
				sid, err := f.NewStyle(&excelize.Style{CustomNumFmt: &code})
				if err != nil {
					return &rowfile.FormatError{Reason: "the XLSX workbook's styles cannot be read: " + err.Error()}
				}
				xf = &ss.CellXfs.Xf[i] // NewStyle may have grown the slice
				dateFmt = ss.CellXfs.Xf[sid].NumFmtID
			}
			xf.NumFmtID = dateFmt
			continue
		}
		general := 0
		xf.NumFmtID = &general
	}
	return nil
}

// builtinDate reports whether a built-in number format shows a date.
func builtinDate(id int) bool {
	return 14 <= id && id <= 17 || id == 22 || 27 <= id && id <= 31 || 34 <= id && id <= 36 || 50 <= id && id <= 58
}

// isDateCode reports whether a custom number format code shows a date:
// outside quoted text, escapes and [bracketed] parts, it has a day or year
// token.
func isDateCode(code string) bool {
	inQuote, inBracket := false, false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case inQuote:
			inQuote = c != '"'
		case inBracket:
			inBracket = c != ']'
		case c == '"':
			inQuote = true
		case c == '[':
			inBracket = true
		case c == '\\' || c == '_' || c == '*':
			i++
		case c == 'd' || c == 'D' || c == 'y' || c == 'Y':
			return true
		}
	}
	return false
}

// odsSpreadsheet reports whether data is an OpenDocument spreadsheet: a
// ZIP archive whose first entry is "mimetype", stored, holding the ODS
// media type (as the OpenDocument format requires).
func odsSpreadsheet(data []byte) bool {
	const header, name, media = 30, "mimetype", "application/vnd.oasis.opendocument.spreadsheet"
	if len(data) < header || string(data[:4]) != "PK\x03\x04" {
		return false
	}
	n, m := int(data[26])|int(data[27])<<8, int(data[28])|int(data[29])<<8 // little-endian lengths
	if n != len(name) || len(data) < header+n+m+len(media) || string(data[header:header+n]) != name {
		return false
	}
	return bytes.HasPrefix(data[header+n+m:], []byte(media))
}
