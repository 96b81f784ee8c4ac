package grocery_test

import (
	"context"
	"io"
	"runtime/debug"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// BenchmarkExport exports one million observation rows of the large data
// set (ON, from the as-of date back as many days as that takes; for XLSX
// the most days that fit in one sheet) in each format to io.Discard, and reports rows/s and the process's peak
// resident memory before and after (VmHWM, reset before the export), so
// that its growth is what the export held.
func BenchmarkExport(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	in := grocery.ExportInput{Dataset: "observations", Province: "ON", To: benchAsOf.String()}
	// The shortest span up to the as-of date with a million rows, and for
	// XLSX the longest that fits in a sheet.
	const want = 1_000_000
	var from, xlsxFrom grocery.Date
	for days := 1; days <= grocery.MaxExportDays && from == 0; days++ {
		d := benchAsOf - grocery.Date(days) + 1
		sum, err := s.Export(ctx, grocery.ExportInput{Format: "jsonl", Dataset: "observations", Province: "ON", From: d.String(), To: benchAsOf.String()}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Rows <= grocery.MaxXLSXRows {
			xlsxFrom = d
		}
		if sum.Rows >= want {
			from = d
		}
	}
	for _, format := range []string{"csv", "json", "xlsx"} {
		b.Run(format, func(b *testing.B) {
			in := in
			in.Format, in.From = format, from.String()
			if format == "xlsx" {
				in.From = xlsxFrom.String()
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
		})
	}
}
