package rowfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/parquet-go/parquet-go"
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

// FuzzOpenParquet: any bytes read as a Parquet file give rows or a
// FormatError, never a panic or an allocation of what the bytes declare,
// and no row is longer than MaxRecord.
func FuzzOpenParquet(f *testing.F) {
	type obs struct {
		Date  int32   `parquet:"date,date"`
		Store string  `parquet:"store_id,dict"`
		Price int64   `parquet:"price,decimal(2:18)"`
		Promo *bool   `parquet:"on_promo,optional"`
		Lat   float64 `parquet:"latitude"`
	}
	yes := true
	rows := []obs{{20411, "s1", 499, &yes, 43.6}, {20410, "s2", 1200, nil, -79.4}}
	f.Add(writeParquet(f, rows))
	f.Add(writeParquet(f, rows, parquet.Compression(&parquet.Snappy), parquet.DataPageVersion(1)))
	f.Add(writeParquet(f, rows, parquet.Compression(&parquet.Gzip)))
	f.Add(writeParquet(f, rows, parquet.Compression(&parquet.Lz4Raw)))
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := OpenParquet(bytes.NewReader(data), 1<<20)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) && err != io.EOF {
				t.Fatalf("OpenParquet: %T %v, want a *FormatError or io.EOF", err, err)
			}
			return
		}
		defer rows.Close()
		for range 10000 {
			rec, _, err := rows.Next()
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) && err != io.EOF {
					t.Fatalf("Next: %T %v, want a *FormatError or io.EOF", err, err)
				}
				return
			}
			n := 0
			for _, c := range rec {
				n += len(c)
			}
			if n > MaxRecord {
				t.Fatalf("a row of %d bytes, past MaxRecord", n)
			}
		}
	})
}
