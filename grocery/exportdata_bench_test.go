package grocery_test

import (
	"context"
	"io"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// BenchmarkExport exports one million observation rows of the large data
// set (ON, from the as-of date back as many days as that takes, the same
// rows in every format) in each format to io.Discard, and reports rows/s
// and the process's peak resident memory before and after (VmHWM, reset
// before the export), so that its growth is what the export held.
// restserver's BenchmarkExportHTTP times the same export over HTTP.
func BenchmarkExport(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	in := grocery.ExportInput{Dataset: "observations", Province: "ON", To: benchAsOf.String()}
	// The shortest span up to the as-of date with a million rows: the row
	// count grows with the span, so search it.
	const want = 1_000_000
	count := func(days int) int64 {
		d := benchAsOf - grocery.Date(days) + 1
		sum, err := s.Export(ctx, grocery.ExportInput{Format: "csv", Dataset: "observations", Province: "ON", From: d.String(), To: benchAsOf.String()}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		return sum.Rows
	}
	lo, hi := 1, 366 // a year holds a million ON rows
	if count(hi) < want {
		b.Fatalf("the large set has fewer than %d ON observations in %d days", want, hi)
	}
	for lo < hi {
		if mid := (lo + hi) / 2; count(mid) >= want {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	from := benchAsOf - grocery.Date(hi) + 1
	if n := count(hi); n > grocery.MaxXLSXRows {
		b.Fatalf("%d rows from %s: more than an XLSX sheet holds", n, from)
	}
	for _, format := range []string{"csv", "json", "xlsx"} {
		b.Run(format, func(b *testing.B) {
			in := in
			in.Format, in.From = format, from.String()
			benchExport(b, s, in)
		})
	}
}

// BenchmarkExportBackfill exports every observation of the large data set
// (every province, every date: years of backfill in one request) as CSV
// to io.Discard, and reports the rows, rows/s and the peak resident
// memory before and after (VmHWM, reset before the export): the export
// streams, so what it holds does not grow with the span (compare
// BenchmarkExport's million rows).
func BenchmarkExportBackfill(b *testing.B) {
	benchExport(b, largeService(b), grocery.ExportInput{Format: "csv", Dataset: "observations", From: "2000-01-01", To: benchAsOf.String()})
}

// benchExport exports in to io.Discard b.N times and reports rows/s, the
// rows of an export, the process's peak resident memory before and after
// (VmHWM, reset before the first export; it counts the data file's pages
// the export mapped in) and the peak of the live heap during the exports
// (heap-peak-MB: what the export holds, the data file's pages aside).
func benchExport(b *testing.B, s *grocery.Service, in grocery.ExportInput) {
	ctx := context.Background()
	// The live heap, sampled at every progress report (every batch of
	// rows): its peak is what the export holds, whatever the span.
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var heapPeak uint64
	in.Progress = func(int64) {
		metrics.Read(sample)
		heapPeak = max(heapPeak, sample[0].Value.Uint64())
	}
	var rows int64
	debug.FreeOSMemory()
	grocery.ResetPeakRSS()
	before := grocery.PeakRSS()
	for b.Loop() {
		sum, err := s.Export(ctx, in, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		rows += sum.Rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)/float64(b.N), "rows")
	b.ReportMetric(float64(before)/1e6, "VmHWM-before-MB")
	b.ReportMetric(float64(grocery.PeakRSS())/1e6, "VmHWM-after-MB")
	b.ReportMetric(float64(heapPeak)/1e6, "heap-peak-MB")
}
