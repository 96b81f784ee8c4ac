package rowfile

import (
	"bufio"
	"bytes"
	"errors"
	"testing"
)

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
