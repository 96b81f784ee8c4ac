package restserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
)

// sampleLiveHeap samples the live heap (as of the last GC) every 2 ms
// until the returned function is called, which returns the highest.
func sampleLiveHeap() func() uint64 {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var most uint64
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			most = max(most, s[0].Value.Uint64())
			select {
			case <-done:
				peak <- most
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-peak }
}

// BenchmarkExportFlatMemory exports about 100,000, 1,000,000 and (when
// the set has them) 3,000,000 observation rows of the large data set (ON, the shortest
// span up to the as-of date that holds them) over HTTP as CSV and as
// Parquet, and reports for each the rows/s, the body's size and how much
// the process's peak resident memory grew during the export (VmHWM,
// reset before it, after an export of the widest span has mapped the
// data file's pages in) and the highest live heap seen (as of each GC,
// sampled every 2 ms): both stay about the same however many rows there
// are.
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
		lo, hi := 1, 366 // a year holds a million ON rows
		for lo < hi {
			if mid := (lo + hi) / 2; count(mid) >= want {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return hi
	}
	most := count(366)
	for _, want := range []int64{100_000, 1_000_000, 3_000_000} {
		if want > most {
			b.Logf("the large set has %d ON rows in %d days: no export of %d", most, 366, want)
			continue
		}
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
				live := sampleLiveHeap()
				for b.Loop() {
					size = getAll(b, k.Key, url, format, rows)
				}
				after := peakRSS()
				b.ReportMetric(float64(live())/1e6, "peak-live-heap-MB")
				b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(float64(rows), "rows")
				b.ReportMetric(float64(size)/1e6, "body-MB")
				b.ReportMetric(float64(after-before)/1e6, "VmHWM-growth-MB")
			})
		}
	}
}
