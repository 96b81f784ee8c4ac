package xlsx

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/xuri/excelize/v2"
)

// FuzzOpenXLSX: any bytes read as a workbook give rows or an error,
// never a panic, and no row holds more than the limits allow.
func FuzzOpenXLSX(f *testing.F) {
	x := excelize.NewFile()
	x.SetSheetRow("Sheet1", "A1", &[]any{"date", "store_id", "price"})
	x.SetSheetRow("Sheet1", "A2", &[]any{"2026-11-19", "s1", 4.99})
	book, err := x.WriteToBuffer()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(book.Bytes())
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := open(bytes.NewReader(data), 1<<20)
		if err != nil {
			var fe *rowfile.FormatError
			if !errors.As(err, &fe) && err != io.EOF {
				t.Fatalf("OpenXLSX: %T %v, want a *rowfile.FormatError or io.EOF", err, err)
			}
			return
		}
		defer rows.Close()
		for range 1000 {
			rec, _, err := rows.Next()
			if err != nil {
				return
			}
			for _, c := range rec {
				if len(c) > MaxRun {
					t.Fatalf("a cell of %d bytes, past the run limit", len(c))
				}
			}
		}
	})
}
