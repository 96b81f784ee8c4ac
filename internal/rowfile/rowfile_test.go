package rowfile

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSniff(t *testing.T) {
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	w, _ := zw.Create("hello.txt")
	w.Write([]byte("hello"))
	zw.Close()
	for _, tc := range []struct {
		name, in string
		want     Format
		empty    bool
		err      string
	}{
		{"CSV", "\xef\xbb\xbf  date,price\n", CSV, false, ""},
		{"JSONL", "\n {\"a\":1}\n", JSONL, false, ""},
		{"Empty", " \r\n\t", "", true, ""},
		{"ZIP", zipBuf.String(), XLSX, false, ""},
		{"ErrBinary", "date\x00\x01\x02\xff\xfe", "", false, "not a CSV, JSON Lines, JSON, XLSX or Parquet file: it holds binary data"},
		{"ErrXLS", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "", false, "Excel 97-2003 .xls"},
		{"ErrGzip", "\x1f\x8b\x08\x00", "", false, "gzip"},
		{"ErrUTF16", "\xff\xfed\x00a\x00", "", false, "UTF-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, empty, err := Sniff(bufio.NewReader(strings.NewReader(tc.in)))
			if tc.err != "" {
				var fe *FormatError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got error %v, want a FormatError with %q", err, tc.err)
				}
				return
			}
			if err != nil || f != tc.want || empty != tc.empty {
				t.Fatalf("got %q, %v, %v, want %q, %v", f, empty, err, tc.want, tc.empty)
			}
		})
	}
}

// wantFields accepts a header with all of the given fields.
func wantFields(fields ...string) func([]string) bool {
	return func(names []string) bool {
		have := map[string]bool{}
		for _, n := range names {
			have[strings.TrimSpace(n)] = true
		}
		for _, f := range fields {
			if !have[f] {
				return false
			}
		}
		return true
	}
}

func TestOpenCSV(t *testing.T) {
	accept := wantFields("date", "price")
	for _, tc := range []struct {
		name, in string
		sep      rune
		note     string
		recs     [][]string
	}{
		{"Comma", "date,price\n2026-01-02,4.99\n", ',', "", [][]string{{"2026-01-02", "4.99"}}},
		{"Semicolon", "date;price\n2026-01-02;4,99\n", ';', "", [][]string{{"2026-01-02", "4,99"}}},
		{"Tab", "date\tprice\n2026-01-02\t4.99\n", '\t', "", [][]string{{"2026-01-02", "4.99"}}},
		{"SemicolonUnknown", "day;price\n", ';', `the header is separated by ";": want ","`, nil},
		{"Mixed", "date;price,name;brand\n", ';', `the header mixes separators ("," once, ";" twice)`, nil},
		{"CommaUnknown", "day,price\n", ',', "", nil},
		{"Pipe", "date|store_id|price\n", ',', `the header is separated by "|" (twice), which is not a CSV separator this reads: want ","`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenCSV(bufio.NewReader(strings.NewReader(tc.in)), accept)
			if err != nil {
				t.Fatal(err)
			}
			if r.Sep != tc.sep {
				t.Errorf("got separator %q, want %q", r.Sep, tc.sep)
			}
			if !strings.Contains(r.SeparatorNote(), tc.note) || tc.note == "" && r.SeparatorNote() != "" {
				t.Errorf("got note %q, want %q", r.SeparatorNote(), tc.note)
			}
			var recs [][]string
			for {
				rec, line, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if line != len(recs)+2 {
					t.Errorf("got line %d, want %d", line, len(recs)+2)
				}
				recs = append(recs, append([]string(nil), rec...))
			}
			if diff := cmp.Diff(tc.recs, recs); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}
