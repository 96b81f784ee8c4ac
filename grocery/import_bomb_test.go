package grocery

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

func openEmpty(t *testing.T) *Service {
	t.Helper()
	svc, err := Open(filepath.Join(t.TempDir(), "grocery.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// TestImportXLSXBomb: a small workbook whose sheet unpacks to a long run
// of spaces (a decompression bomb) is refused before it is unpacked,
// naming the limit; so is one whose shared strings unpack past theirs.
func TestImportXLSXBomb(t *testing.T) {
	// A real workbook (a header row, a shared string), with one part
	// padded with spaces before its last element.
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"date", "store_id", "banner", "external_sku", "price"})
	book, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	bomb := func(part string, size int) []byte {
		zr, err := zip.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		found := false
		for _, zf := range zr.File {
			rc, _ := zf.Open()
			body, _ := io.ReadAll(rc)
			rc.Close()
			w, _ := zw.Create(zf.Name)
			if zf.Name != part {
				w.Write(body)
				continue
			}
			found = true
			cut := bytes.LastIndexByte(body, '<')
			w.Write(body[:cut])
			space := bytes.Repeat([]byte(" "), 1<<20)
			for left := size; left > 0; left -= len(space) {
				w.Write(space[:min(left, len(space))])
			}
			w.Write(body[cut:])
		}
		zw.Close()
		if !found {
			t.Fatalf("no part %s in the workbook", part)
		}
		return b.Bytes()
	}
	svc := openEmpty(t)
	for _, tc := range []struct {
		name, part string
		size       int
		want       string
	}{
		{"SheetRun", "xl/worksheets/sheet1.xml", 64 << 20, "holds a run of more than 256 KiB without markup"},
		{"SharedStrings", "xl/sharedStrings.xml", 80 << 20, "part xl/sharedStrings.xml unpacks to more than 64 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := bomb(tc.part, tc.size)
			if len(file) > 1<<20 {
				t.Fatalf("the bomb is %d bytes, want a small file", len(file))
			}
			_, err := svc.Import(context.Background(), "bomb.xlsx", bytes.NewReader(file), nil)
			if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), tc.want) {
				t.Fatalf("import of a %d-byte bomb: got %v, want invalid_argument: %s", len(file), err, tc.want)
			}
		})
	}
}

// TestImportCSVLongField: a CSV field of many megabytes stops the import
// at the record limit, naming the line, before the CSV reader holds it.
func TestImportCSVLongField(t *testing.T) {
	svc := openEmpty(t)
	long := strings.NewReader(obsHeader + "\n2026-11-18,ON-LOB-001,loblaws,20001,4.99,,,," + strings.Repeat("x", 32<<20) + ",,,\n")
	_, err := svc.Import(context.Background(), "long.csv", long, nil)
	if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), "line 2: a row longer than 64 KiB") {
		t.Fatalf("import of a 32 MiB field: got %v, want invalid_argument naming line 2 and the limit", err)
	}
	if left := long.Len(); left < 30<<20 {
		t.Errorf("the import read %d bytes of the field, want it to stop near 64 KiB", 32<<20-left)
	}
}
