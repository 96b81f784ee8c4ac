package rowfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"

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
		rows, err := OpenXLSX(bytes.NewReader(data), 1<<20)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) && err != io.EOF {
				t.Fatalf("OpenXLSX: %T %v, want a *FormatError or io.EOF", err, err)
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
				if len(c) > MaxXLSXRun {
					t.Fatalf("a cell of %d bytes, past the run limit", len(c))
				}
			}
		}
	})
}

// FuzzOpenCSV: any text read as CSV gives records or errors, never a
// panic, and never a field longer than MaxRecord.
func FuzzOpenCSV(f *testing.F) {
	f.Add("date,store_id,price\n2026-11-19,s1,4.99\n")
	f.Add("name;price\n\"a;\"\"b\"\"\";4,99\n")
	f.Add("a,b\n\"x\ny\",'=1+1\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := OpenCSV(bufio.NewReaderSize(bytes.NewReader([]byte(text)), 4096), func([]string) bool { return true })
		if err != nil {
			return
		}
		for range 10000 {
			rec, _, err := rows.Next()
			var re *RecordError
			if errors.As(err, &re) {
				continue
			}
			if err != nil {
				return
			}
			for _, c := range rec {
				if len(c) > MaxRecord {
					t.Fatalf("a field of %d bytes, past MaxRecord", len(c))
				}
			}
		}
	})
}
