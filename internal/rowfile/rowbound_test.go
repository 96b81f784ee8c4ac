package rowfile

import (
	"archive/zip"
	"bytes"
	bin "encoding/binary"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/xuri/excelize/v2"
)

// repeatedRun is a Parquet file of one dictionary-encoded column whose
// n rows hold one value: its data pages are a single repeated run, a few
// bytes for any n.
func repeatedRun(t *testing.T, n int) []byte {
	t.Helper()
	type row struct {
		Store string `parquet:"store_id,dict"`
	}
	in := make([]row, n)
	for i := range in {
		in[i].Store = "costco-on-5524"
	}
	return writeParquet(t, in, parquet.MaxRowsPerRowGroup(int64(n)))
}

// editFooter rewrites a Parquet file's footer with edit.
func editFooter(t *testing.T, data []byte, edit func(*format.FileMetaData)) []byte {
	t.Helper()
	n := int(bin.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	meta := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], meta); err != nil {
		t.Fatal(err)
	}
	edit(meta)
	fb, err := thrift.Marshal(new(thrift.CompactProtocol), meta)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:start]...)
	out = append(out, fb...)
	out = bin.LittleEndian.AppendUint32(out, uint32(len(fb)))
	return append(out, "PAR1"...)
}

// TestOpenParquetRowBound: a file whose rows cost nothing to declare (a
// repeated run, the same row group listed many times, a footer that
// understates its rows) is refused before any row is read, naming the
// bound; a file within the bound is read whole.
func TestOpenParquetRowBound(t *testing.T) {
	run := repeatedRun(t, 1<<20)
	for _, tc := range []struct {
		name string
		data []byte
		want string // "" for a file read whole
	}{
		{"OK", repeatedRun(t, 20000), ""},
		{"ErrRepeatedRun", run, "rows per byte"},
		{"ErrRowGroupListedTwice", editFooter(t, repeatedRun(t, 10000), func(m *format.FileMetaData) {
			m.RowGroups = append(m.RowGroups, m.RowGroups[0])
			m.NumRows *= 2
		}), "listed more than once"},
		{"ErrRowGroupListedOften", editFooter(t, run, func(m *format.FileMetaData) {
			for range 3 {
				m.RowGroups = append(m.RowGroups, m.RowGroups[0])
			}
			m.NumRows *= 4
		}), "rows per byte"},
		{"ErrFooterUnderstates", editFooter(t, run, func(m *format.FileMetaData) {
			m.NumRows, m.RowGroups[0].NumRows = 10, 10
		}), "rows per byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := OpenParquet(bytes.NewReader(tc.data), MaxParquet)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want the file read", err)
				}
				defer rows.Close()
				if got := len(readAll(t, rows)); got != 20000 {
					t.Fatalf("got %d rows, want 20000", got)
				}
				return
			}
			if err == nil {
				rows.Close()
			}
			if !isFormat(err, tc.want) {
				t.Fatalf("%d-byte file: got %v, want a FormatError saying %q", len(tc.data), err, tc.want)
			}
		})
	}
}

// TestCheckRows: the bounds on rows, whatever a format declares or holds.
func TestCheckRows(t *testing.T) {
	for _, tc := range []struct {
		rows, size int64
		want       string
	}{
		{1000, 100, ""},
		{MaxRowsPerByte * 1000, 1000, ""},
		{MaxRowsPerByte*1000 + 1, 1000, fmt.Sprintf("more than %d rows per byte", MaxRowsPerByte)},
		{MaxRows, 1 << 30, ""},
		{MaxRows + 1, 1 << 30, fmt.Sprintf("more than %d rows", MaxRows)},
	} {
		err := checkRows(Parquet, tc.rows, tc.size)
		if (tc.want == "") != (err == nil) || err != nil && !isFormat(err, tc.want) {
			t.Errorf("checkRows(%d rows, %d bytes): got %v, want %q", tc.rows, tc.size, err, tc.want)
		}
	}
}

// TestOpenXLSXRowBound: a sheet that declares, or holds, more rows than
// a sheet can (1,048,576) is refused naming the bound.
func TestOpenXLSXRowBound(t *testing.T) {
	book := func(edit func(sheet string) string) []byte {
		f := excelize.NewFile()
		f.SetSheetRow("Sheet1", "A1", &[]string{"store_id", "banner"})
		f.SetSheetRow("Sheet1", "A2", &[]string{"s1", "costco"})
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return rezip(t, buf.Bytes(), "xl/worksheets/sheet1.xml", edit)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"OK", book(func(s string) string { return s }), ""},
		{"ErrDeclared", book(func(s string) string {
			return regexp.MustCompile(`<dimension ref="[^"]*"`).ReplaceAllString(s, `<dimension ref="A1:B2000000"`)
		}), "more than 1048576 rows"},
		{"ErrHeld", book(func(s string) string {
			return strings.Replace(s, "</sheetData>", `<row r="1048577"><c r="A1048577" t="inlineStr"><is><t>x</t></is></c></row></sheetData>`, 1)
		}), "more than 1048576 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := OpenXLSX(bytes.NewReader(tc.data), MaxXLSX)
			if err == nil {
				defer rows.Close()
				for err == nil {
					_, _, err = rows.Next()
				}
				if err.Error() == "EOF" {
					err = nil
				}
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want the sheet read", err)
				}
				return
			}
			if !isFormat(err, tc.want) {
				t.Fatalf("got %v, want a FormatError saying %q", err, tc.want)
			}
		})
	}
}

// rezip returns the ZIP archive data with its part name rewritten by edit.
func rezip(t *testing.T, data []byte, name string, edit func(string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == name {
			b = []byte(edit(string(b)))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
