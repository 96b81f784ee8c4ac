package grocery

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkImportCSVVaried imports a CSV shaped like real collected data
// rather than the demo's: three to five reference stores per banner and
// province, so few stores share a SKU-day; prices that differ by store and
// by day; and rows in no order at all. It reports rows/s, the data file's
// bytes per observation and the process's peak resident memory (VmHWM,
// reset before the import, so it counts the import alone plus the test
// binary's own few MB). bytes/obs counts the pages the data takes (the
// file up to its highest page in use); file-bytes/obs the file's length,
// which bbolt grows up to 1 MiB (storage's AllocSize) past that.
//
// GROCERY_BENCH_VARIED_ROWS sets the row count (default 600,000), and
// GROCERY_BENCH_VARIED_DIR keeps the two CSV files (varied-stores.csv,
// varied-prices.csv) in that directory, to import them with the CLI:
//
//	GROCERY_BENCH_VARIED_DIR=/tmp/varied go test ./grocery -run XXX -bench ImportCSVVaried -benchtime 1x
//	/usr/bin/time -v grocery --db /tmp/v.db import /tmp/varied/varied-stores.csv /tmp/varied/varied-prices.csv
func BenchmarkImportCSVVaried(b *testing.B) {
	if testing.Short() {
		b.Skip("imports 600,000 rows")
	}
	n := 600_000
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_VARIED_ROWS")); err == nil && v > 0 {
		n = v
	}
	dir := os.Getenv("GROCERY_BENCH_VARIED_DIR")
	if dir == "" {
		dir = b.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	storesPath, obsPath := filepath.Join(dir, "varied-stores.csv"), filepath.Join(dir, "varied-prices.csv")
	rows := writeVariedData(b, storesPath, obsPath, n)
	dbDir := b.TempDir()
	var size, fileSize int64
	var hwm int64
	var cpu time.Duration
	iters := 0
	for i := 0; b.Loop(); i++ {
		iters++
		b.StopTimer()
		path := filepath.Join(dbDir, fmt.Sprintf("varied%d.db", i))
		svc, err := Open(path, &Options{Now: importClock})
		if err != nil {
			b.Fatal(err)
		}
		importFileTB(b, svc, storesPath)
		debug.FreeOSMemory() // the generator's garbage
		resetPeakRSS()
		b.StartTimer()
		c0 := cpuTime()
		rep := importFileTB(b, svc, obsPath)
		cpu += cpuTime() - c0
		b.StopTimer()
		hwm = max(hwm, peakRSS())
		if rep.New != rows {
			b.Fatalf("new: got %d, want %d", rep.New, rows)
		}
		if size, err = svc.db.Size(); err != nil {
			b.Fatal(err)
		}
		if err := svc.Close(); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		fileSize = fi.Size()
		os.Remove(path)
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(iters)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(size)/float64(rows), "bytes/obs")
	b.ReportMetric(float64(fileSize)/float64(rows), "file-bytes/obs")
	if cpu > 0 {
		b.ReportMetric(float64(rows)*float64(iters)/cpu.Seconds(), "rows/cpu-s")
	}
	if hwm > 0 {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-rss-MB")
	}
}

func importFileTB(tb testing.TB, svc *Service, path string) *ImportReport {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rep, err := svc.Import(context.Background(), filepath.Base(path), f, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// resetPeakRSS resets the process's VmHWM (Linux; elsewhere a no-op).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS returns the process's VmHWM in bytes, or 0 where unknown.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// writeVariedData writes a stores file and an observations file of about
// n rows, deterministically (fixed seeds), and returns the number of
// observation rows. Sixteen banner-province panels have three to five
// stores each; each banner sells its own SKUs, under barcodes shared
// across banners. A store observes a SKU on most days, at a price of its
// own (the product's base price, the store's markup, a weekly change and
// the odd promotion), so no two stores' series are alike. The rows are
// shuffled.
func writeVariedData(tb testing.TB, storesPath, obsPath string, n int) int {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	panels := []struct{ banner, province, city, fsa string }{
		{"loblaws", "ON", "Toronto", "M5V"}, {"no-frills", "ON", "Ottawa", "K1P"},
		{"no-frills", "AB", "Calgary", "T2P"}, {"metro", "QC", "Montréal", "H2X"},
		{"metro", "ON", "Toronto", "M4C"}, {"iga", "QC", "Québec", "G1R"},
		{"safeway", "AB", "Edmonton", "T5J"}, {"safeway", "BC", "Vancouver", "V6B"},
		{"save-on-foods", "BC", "Victoria", "V8W"}, {"sobeys", "NS", "Halifax", "B3H"},
		{"sobeys", "ON", "Hamilton", "L8P"}, {"co-op", "SK", "Regina", "S4P"},
		{"walmart", "ON", "Mississauga", "L5B"}, {"walmart", "MB", "Winnipeg", "R3C"},
		{"maxi", "QC", "Laval", "H7N"}, {"food-basics", "ON", "London", "N6A"},
	}
	type store struct {
		id, banner string
		markup     float64
	}
	var stores []store
	var sb strings.Builder
	sb.WriteString(storesHeader + "\n")
	for pi, p := range panels {
		for k := range 3 + rng.IntN(3) {
			id := fmt.Sprintf("%s-%s-%02d-%d", p.province, strings.ToUpper(p.banner[:3]), pi, k)
			fmt.Fprintf(&sb, "%s,%s,%s,%s %s %d,%s,%s %dA%d,%.4f,%.4f,true\n", id, p.banner, p.province,
				p.banner, p.city, k, p.city, p.fsa, k, pi%10, 45+float64(pi)*0.1, -75-float64(k)*0.1)
			stores = append(stores, store{id, p.banner, 0.95 + rng.Float64()*0.1})
		}
	}
	if err := os.WriteFile(storesPath, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}

	const products = 400
	type product struct {
		upc, name, brand, size, category string
		base                             float64
	}
	cats := []string{"Dairy & Eggs", "Pantry", "Bakery", "Frozen", "Snacks", "Beverages", "Produce", "Meat"}
	ps := make([]product, products)
	for i := range ps {
		body := fmt.Sprintf("0%05d%05d", 55000+i%400, i*7%100000)
		ps[i] = product{upc: body + string(checkDigit(body)), name: fmt.Sprintf("Varied Product %d", i),
			brand: fmt.Sprintf("Maker %d", i%70), size: fmt.Sprintf("%d g", 150+i%11*25), category: cats[i%len(cats)],
			base: 1.49 + rng.Float64()*18}
	}
	// Each store observes each SKU of its banner on a share of the days
	// that gives about n rows.
	days := 90
	share := float64(n) / float64(len(stores)*products*days)
	if share > 1 {
		days = (n + len(stores)*products - 1) / (len(stores) * products)
		share = float64(n) / float64(len(stores)*products*days)
	}
	first := DateOf(importClock()) - Date(days)
	lines := make([]string, 0, n+n/16)
	for si, st := range stores {
		for pi, p := range ps {
			week := -1
			var price float64
			for d := range days {
				if w := d / 7; w != week {
					week = w
					price = p.base * st.markup * (0.9 + rng.Float64()*0.2)
				}
				if rng.Float64() >= share {
					continue
				}
				shelf := int(price*100)/10*10 + 9    // x.x9
				daily := shelf + rng.IntN(3)*10 - 10 // store-and-day noise
				regular, promoEnds := "", ""
				if (pi+si+d/7)%11 == 0 {
					regular = Cents(daily).String()
					daily = daily * 85 / 100
					promoEnds = (first + Date(d/7*7+6)).String()
				}
				lines = append(lines, fmt.Sprintf("%s,%s,%s,%s-%05d,%s,%s,%s,%s,%s,%s,%s,%s\n",
					(first+Date(d)).String(), st.id, st.banner, strings.ToUpper(st.banner[:2]), 10000+pi,
					Cents(daily), regular, promoEnds, p.upc, p.name, p.brand, p.size, p.category))
			}
		}
	}
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	f, err := os.Create(obsPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(obsHeader + "\n")
	for _, l := range lines {
		w.WriteString(l)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return len(lines)
}
