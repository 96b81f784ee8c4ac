package restserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"runtime/debug"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
)

// BenchmarkExportFlatMemory exports about 100,000 and then about
// 1,000,000 observation rows of the large data set (ON, the shortest
// span up to the as-of date that holds them) over HTTP as CSV and as
// Parquet, and reports for each the rows/s, the body's size and how much
// the process's peak resident memory grew during the export (VmHWM,
// reset before it, after an export of the widest span has mapped the
// data file's pages in): the growth stays the same however many rows
// there are.
//
//	go test ./restserver -run XXX -bench ExportFlatMemory -benchtime 1x
func BenchmarkExportFlatMemory(b *testing.B) {
	s := largeCopy(b)
	ctx := context.Background()
	k, err := s.CreateKey(ctx, grocery.KeyInput{Account: "bench-flat", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(restserver.New(s, nil))
	defer srv.Close()
	count := func(days int) int64 {
		from := benchAsOf - grocery.Date(days) + 1
		sum, err := s.Export(ctx, grocery.ExportInput{Format: "csv", Province: "ON", From: from.String(), To: benchAsOf.String()}, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		return sum.Rows
	}
	span := func(want int64) int {
		lo, hi := 1, grocery.MaxExportDays
		for lo < hi {
			if mid := (lo + hi) / 2; count(mid) >= want {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return hi
	}
	for _, want := range []int64{100_000, 1_000_000} {
		days := span(want)
		from, rows := benchAsOf-grocery.Date(days)+1, count(days)
		for _, format := range []string{"csv", "parquet"} {
			b.Run(fmt.Sprintf("rows=%d/%s", want, format), func(b *testing.B) {
				url := srv.URL + "/b2b/export?dataset=observations&province=ON&format=" + format +
					"&from=" + from.String() + "&to=" + benchAsOf.String()
				var size int64
				debug.FreeOSMemory()
				resetPeakRSS()
				before := peakRSS()
				for b.Loop() {
					size = getAll(b, k.Key, url, format, rows)
				}
				after := peakRSS()
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(float64(rows), "rows")
				b.ReportMetric(float64(size)/1e6, "body-MB")
				b.ReportMetric(float64(after-before)/1e6, "VmHWM-growth-MB")
			})
		}
	}
}
