package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/xuri/excelize/v2"
)

// xlsxFile builds a workbook whose first sheet holds rows (nil cells are left
// empty), with a date format on column dateCol (0: none).
func xlsxFile(t *testing.T, rows [][]any, style func(f *excelize.File, sheet string)) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sheet := "Prices"
	f.SetSheetName("Sheet1", sheet)
	for i, row := range rows {
		for j, v := range row {
			if v == nil {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
			if err := f.SetCellValue(sheet, cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if style != nil {
		style(f, sheet)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestOpenXLSX(t *testing.T) {
	day := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	b := xlsxFile(t, [][]any{
		nil,
		{"date", "price", "upc", "ean", "promo_ends", "active", "regular_price"},
		{day, 4.99, 67000378089, 5000112637922, "2026-11-25", true, 1299.5},
		nil,
		{"2026-11-20", "4.99", "067000378089", nil, day.Add(13 * time.Hour), false, 3},
	}, func(f *excelize.File, sheet string) {
		money := "$#,##0.00"
		st, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &money})
		f.SetCellStyle(sheet, "G3", "G5", st)
		short, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
		f.SetCellStyle(sheet, "A3", "A3", short)
		custom := `d" de "mmmm yyyy`
		st2, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &custom})
		f.SetCellStyle(sheet, "E5", "E5", st2)
		dec, _ := f.NewStyle(&excelize.Style{NumFmt: 2}) // 0.00
		f.SetCellStyle(sheet, "B3", "B3", dec)
	})
	r, err := open(bytes.NewReader(b), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if diff := cmp.Diff([]string{"date", "price", "upc", "ean", "promo_ends", "active", "regular_price"}, r.Header()); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	if r.HeaderPos() != 2 || r.Sheet != "Prices" || r.Where(5) != "sheet Prices, row 5" {
		t.Errorf("got header row %d, sheet %q, %q", r.HeaderPos(), r.Sheet, r.Where(5))
	}
	want := []struct {
		row int
		rec []string
	}{
		{3, []string{"2026-11-19", "4.99", "67000378089", "5000112637922", "2026-11-25", "TRUE", "1299.5"}},
		{5, []string{"2026-11-20", "4.99", "067000378089", "", "2026-11-19", "FALSE", "3"}},
	}
	for _, w := range want {
		rec, row, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if row != w.row {
			t.Errorf("got row %d, want %d", row, w.row)
		}
		if diff := cmp.Diff(w.rec, rec); diff != "" {
			t.Errorf("row %d (-want +got):\n%s", w.row, diff)
		}
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Errorf("got %v, want io.EOF", err)
	}
}

func TestOpenXLSXErrors(t *testing.T) {
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, _ := zw.Create("hello.txt")
	w.Write([]byte("hello"))
	zw.Close()
	book := xlsxFile(t, [][]any{{"a"}}, nil)
	for _, tc := range []struct {
		name  string
		in    []byte
		limit int64
		want  string
	}{
		{"ErrNotXLSX", zipBuf.Bytes(), MaxSize, "not a CSV, JSON Lines, JSON, XLSX or Parquet file: it is a ZIP archive but not a readable XLSX workbook"},
		{"ErrODS", odsFile(t), MaxSize, "not a CSV, JSON Lines, JSON, XLSX or Parquet file: it is an OpenDocument spreadsheet (ODS): save it as XLSX or CSV and import that"},
		{"ErrBrokenZIP", []byte("PK\x03\x04\x00\x01\x02garbage\xff\xfe"), MaxSize, "not a CSV, JSON Lines, JSON, XLSX or Parquet file: it starts as a ZIP archive but is not a readable one"},
		{"ErrTooLarge", book, 1 << 10, "the XLSX file is larger than 0 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := open(bytes.NewReader(tc.in), tc.limit)
			var fe *rowfile.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a FormatError with %q", err, tc.want)
			}
		})
	}
	if _, err := open(bytes.NewReader(book), int64(len(book))); err != nil {
		t.Errorf("a file of exactly the limit: got %v, want no error", err)
	}
}

// odsFile is the start of an OpenDocument spreadsheet as LibreOffice
// writes one: "mimetype" first, stored, then the content.
func odsFile(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("application/vnd.oasis.opendocument.spreadsheet"))
	w, _ = zw.Create("content.xml")
	w.Write([]byte("<office:document-content/>"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// isFormat reports whether err is a *rowfile.FormatError whose reason has has.
func isFormat(err error, has string) bool {
	var fe *rowfile.FormatError
	return errors.As(err, &fe) && strings.Contains(fe.Reason, has)
}
