package xlsx

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

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
			rows, err := open(bytes.NewReader(tc.data), MaxSize)
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
