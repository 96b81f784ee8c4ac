package publicdata

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkHammer reads a synthetic Project Hammer data set of a million
// raw rows (WriteHammerSample: 20,000 products over 50 days) from its CSV
// pair and from the SQLite file holding the same rows, written by
// testdata/make-hammer-sqlite.sh (skipped without Debian's sqlite3 CLI):
// Read, the raw table's rows as text; Convert, the whole conversion, its
// observations written to io.Discard in parts of 500,000 rows. It reports
// raw rows a second; B/op is a whole read or conversion's.
//
//	go test -run '^$' -bench BenchmarkHammer -benchtime 3x ./publicdata
func BenchmarkHammer(b *testing.B) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		b.Skip("no sqlite3 on PATH (Debian's package sqlite3): it writes the SQLite file")
	}
	dir := b.TempDir()
	rows, err := WriteHammerSampleFiles(dir, HammerSample{Products: 20_000, Days: 50, Seed: 35})
	if err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command("bash", filepath.Join("testdata", "make-hammer-sqlite.sh"), dir).CombinedOutput(); err != nil {
		b.Fatalf("make-hammer-sqlite.sh: %v\n%s", err, out)
	}
	file := func(name string) File {
		return File{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(filepath.Join(dir, name)) }}
	}
	for _, tc := range []struct {
		name  string
		files []File
		raw   hammerInput
	}{
		{"CSV", []File{file("hammer-4-product.csv"), file("hammer-4-raw.csv")}, hammerInput{file: file("hammer-4-raw.csv")}},
		{"SQLite", []File{file("hammer.sqlite")}, hammerInput{file: file("hammer.sqlite"), table: hammerRawTable}},
	} {
		b.Run("Read/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if n := readRows(b, tc.raw); n != rows {
					b.Fatalf("%d rows, want %d", n, rows)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run("Convert/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				conv, err := Convert(Hammer, tc.files, Options{ValidBarcode: func(string) bool { return true }})
				if err != nil {
					b.Fatal(err)
				}
				if err := conv.WriteObservations(context.Background(), 500_000, func() (io.Writer, error) { return io.Discard, nil }); err != nil {
					b.Fatal(err)
				}
				if conv.Summary.Rows != rows {
					b.Fatalf("%d rows, want %d", conv.Summary.Rows, rows)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// readRows reads every row of in, returning how many.
func readRows(b *testing.B, in hammerInput) int {
	t, err := in.open()
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	n := 0
	for {
		_, err := t.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}
