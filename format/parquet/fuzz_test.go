package parquet

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/parquet-go/parquet-go"
)

// FuzzOpenParquet: any bytes read as a Parquet file give rows or a
// FormatError, never a panic or an allocation of what the bytes declare,
// and no row is longer than rowfile.MaxRecord.
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
		rows, err := open(bytes.NewReader(data), 1<<20)
		if err != nil {
			var fe *rowfile.FormatError
			if !errors.As(err, &fe) && err != io.EOF {
				t.Fatalf("OpenParquet: %T %v, want a *rowfile.FormatError or io.EOF", err, err)
			}
			return
		}
		defer rows.Close()
		for range 10000 {
			rec, _, err := rows.Next()
			if err != nil {
				var fe *rowfile.FormatError
				if !errors.As(err, &fe) && err != io.EOF {
					t.Fatalf("Next: %T %v, want a *rowfile.FormatError or io.EOF", err, err)
				}
				return
			}
			n := 0
			for _, c := range rec {
				n += len(c)
			}
			if n > rowfile.MaxRecord {
				t.Fatalf("a row of %d bytes, past rowfile.MaxRecord", n)
			}
		}
	})
}
