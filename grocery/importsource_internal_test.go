package grocery

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/publicdata"
)

// BenchmarkImportSourceHammer imports a synthetic Project Hammer data set
// (publicdata.WriteHammerSample) with ImportSource and reports rows/s of
// hammer-4-raw.csv and the process's peak resident memory during the
// import (VmHWM, reset before it, which counts the data file's pages the
// import touched), the peak Go heap and the data file's size. GROCERY_BENCH_HAMMER_PRODUCTS (default
// 20,000) and GROCERY_BENCH_HAMMER_DAYS (default 50) size it: rows =
// products × days. The real files hold about 72 million rows of 187,000
// products. GROCERY_BENCH_HAMMER_PART_ROWS sets the rows of a part
// (SourcePartRows); GROCERY_BENCH_HEAP_PROFILE names a file to write the
// heap's profile to as its peak grows (go tool pprof -sample_index
// inuse_space). For the whole process (peak RSS with /usr/bin/time -v),
// publicdata/internal/hammersample writes the same files for the CLI.
func BenchmarkImportSourceHammer(b *testing.B) {
	if testing.Short() {
		b.Skip("imports a million rows")
	}
	sample := publicdata.HammerSample{Products: 20_000, Days: 50, Seed: 35}
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_HAMMER_PRODUCTS")); err == nil && v > 0 {
		sample.Products = v
	}
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_HAMMER_DAYS")); err == nil && v > 0 {
		sample.Days = v
	}
	partRows := SourcePartRows
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_HAMMER_PART_ROWS")); err == nil && v > 0 {
		partRows = v
	}
	dir := b.TempDir()
	rows, err := publicdata.WriteHammerSampleFiles(dir, sample)
	if err != nil {
		b.Fatal(err)
	}
	var files []SourceFile
	for _, n := range []string{"hammer-4-product.csv", "hammer-4-raw.csv"} {
		path := filepath.Join(dir, n)
		files = append(files, SourceFile{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	var hwm, dbSize int64
	var heap uint64
	var cpu time.Duration
	iters := 0
	for i := 0; b.Loop(); i++ {
		iters++
		b.StopTimer()
		svc, err := Open(filepath.Join(b.TempDir(), "hammer.db"), &Options{Now: importClock})
		if err != nil {
			b.Fatal(err)
		}
		debug.FreeOSMemory()
		resetPeakRSS()
		stop := sampleHeap(&heap)
		b.StartTimer()
		c0 := cpuTime()
		rep, err := importSourceParts(b.Context(), svc, files, partRows)
		cpu += cpuTime() - c0
		b.StopTimer()
		stop()
		if size, err := svc.db.Size(); err == nil {
			dbSize = size
		}
		if err != nil {
			b.Fatal(err)
		}
		hwm = max(hwm, peakRSS())
		if rep.Observations.New < rows*9/10 {
			b.Fatalf("new: got %d of %d rows", rep.Observations.New, rows)
		}
		svc.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(iters)/b.Elapsed().Seconds(), "rows/s")
	if cpu > 0 {
		b.ReportMetric(float64(rows)*float64(iters)/cpu.Seconds(), "rows/cpu-s")
	}
	if hwm > 0 {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-rss-MB")
	}
	b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(dbSize)/(1<<20), "db-MB")
}

// importSourceParts is ImportSource of Project Hammer's files in parts of
// partRows rows.
func importSourceParts(ctx context.Context, s *Service, files []SourceFile, partRows int) (*SourceReport, error) {
	conv, err := ConvertSource("hammer", files)
	if err != nil {
		return nil, err
	}
	return importConverted(ctx, s.Import, conv, nil, partRows)
}

// sampleHeap records the most bytes of live and unswept heap objects in
// *peak, every 20 ms, until the returned function is called. The rest of
// the resident memory is the data file's pages, which the kernel maps in
// and may drop.
func sampleHeap(peak *uint64) (stop func()) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var profiled uint64 // the heap when its profile was last written
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > *peak {
				if path := os.Getenv("GROCERY_BENCH_HEAP_PROFILE"); path != "" && v > profiled+profiled/8 {
					// The heap near its peak (as of the last
					// collection): where an import's memory goes.
					if f, err := os.Create(path); err == nil {
						pprof.WriteHeapProfile(f)
						f.Close()
					}
					profiled = v
				}
				*peak = v
			}
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(quit); <-done }
}

// TestImportConvertedParts imports the Hammer fixture in parts of 5 rows:
// the same data as in one part, counted over the parts.
func TestImportConvertedParts(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "parts.db"), &Options{Now: importClock})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	var files []SourceFile
	for _, n := range []string{"hammer-4-product.csv", "hammer-4-raw.csv"} {
		path := filepath.Join("..", "publicdata", "testdata", n)
		files = append(files, SourceFile{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	conv, err := ConvertSource("hammer", files)
	if err != nil {
		t.Fatal(err)
	}
	parts := 0
	imp := func(ctx context.Context, name string, r io.Reader, opts *ImportOptions) (*ImportReport, error) {
		if strings.Contains(name, "observations") {
			parts++
		}
		return svc.Import(ctx, name, r, opts)
	}
	rep, err := importConverted(t.Context(), imp, conv, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if parts != 3 || rep.Observations.Rows != 12 || rep.Observations.New != 12 {
		t.Errorf("got %d parts, %d rows, %d new, want 3, 12, 12", parts, rep.Observations.Rows, rep.Observations.New)
	}
}
