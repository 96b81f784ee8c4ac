package restserver_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
)

// benchAsOf is the large data set's last day, as in grocery's benchmarks.
const benchAsOf = grocery.Date(20776) // 2026-11-19

// largeCopy opens a private copy of grocery's large benchmark data set
// (GROCERY_BENCH_DB, or grocery-bench-large.db in the temporary
// directory: the file `go test ./grocery -bench .` builds), building the
// set first if it is missing. The copy can be written, so that the
// benchmark makes its own key.
func largeCopy(b *testing.B) *grocery.Service {
	b.Helper()
	if testing.Short() {
		b.Skip("large data set: not in -short mode")
	}
	src := os.Getenv("GROCERY_BENCH_DB")
	if src == "" {
		src = filepath.Join(os.TempDir(), "grocery-bench-large.db")
	}
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		b.Logf("building the large data set in %s (once)", src)
		if _, err := grocery.BuildDemo(context.Background(), src, &grocery.DemoOptions{Scale: "large", AsOf: benchAsOf}); err != nil {
			b.Fatal(err)
		}
	}
	dst := filepath.Join(b.TempDir(), "large.db")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		b.Fatal(err)
	}
	s, err := grocery.Open(dst, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkExportHTTP exports a million observation rows of the large
// data set (ON, from the as-of date back as many days as that takes, the
// same rows in every format) through the REST handler on a
// real loopback listener (httptest.NewServer), reading the whole body as
// a client would, in each format. It reports rows/s end to end, the
// body's size, and the process's peak resident memory before and after
// (VmHWM, reset after a first export has mapped the data file's pages),
// so that its growth is what the export held: server and client share
// the process, the client holding only a read buffer.
//
//	go test ./restserver -run XXX -bench ExportHTTP -benchtime 1x
func BenchmarkExportHTTP(b *testing.B) {
	s := largeCopy(b)
	ctx := context.Background()
	k, err := s.CreateKey(ctx, grocery.KeyInput{Account: "bench-export", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(restserver.New(s, nil))
	defer srv.Close()

	// The shortest span up to the as-of date with a million rows (the
	// row count grows with the span: search it). Counting them reads every
	// page the exports read, so the data file is mapped in before the
	// memory is measured.
	const want = 1_000_000
	count := func(days int) int64 {
		from := benchAsOf - grocery.Date(days) + 1
		sum, err := s.Export(ctx, grocery.ExportInput{Format: "csv", Province: "ON", From: from.String(), To: benchAsOf.String()}, io.Discard)
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
	from, rows := benchAsOf-grocery.Date(hi)+1, count(hi)
	if rows > grocery.MaxXLSXRows {
		b.Fatalf("%d rows from %s: more than an XLSX sheet holds", rows, from)
	}
	b.Logf("ON observations from %s to %s: %d rows", from, benchAsOf, rows)
	for _, format := range []string{"csv", "json", "xlsx", "parquet"} {
		b.Run(format, func(b *testing.B) {
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
			b.ReportMetric(float64(before)/1e6, "VmHWM-before-MB")
			b.ReportMetric(float64(after)/1e6, "VmHWM-after-MB")
		})
	}
}

// getAll GETs url and reads the whole body, checking the status and, for
// CSV and JSON, that it holds rows lines of data; it returns the body's
// size.
func getAll(b *testing.B, key, url, format string, rows int64) int64 {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		b.Fatalf("%s: %s: %s", url, resp.Status, msg)
	}
	lc := &lineCounter{}
	size, err := io.Copy(lc, resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	// CSV has a header line, a JSON array its brackets' lines.
	extra := map[string]int64{"csv": 1, "json": 2}
	if e, ok := extra[format]; ok && lc.n != rows+e {
		b.Fatalf("%s: %d lines, want %d rows and %d", format, lc.n, rows, e)
	}
	return size
}

// lineCounter counts the line feeds written to it.
type lineCounter struct{ n int64 }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// resetPeakRSS resets the process's VmHWM (Linux; elsewhere a no-op).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS returns the process's VmHWM in bytes, or 0 where unknown.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
