package grocery

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

// benchPeriod runs fn on the large demo set named by GROCERY_BENCH_DB
// (build it with grocery demo --scale large) and reports its p50 and
// its CPU time per call.
func benchPeriod(b *testing.B, fn func(svc *Service) error) {
	path := os.Getenv("GROCERY_BENCH_DB")
	if path == "" {
		b.Skip("GROCERY_BENCH_DB names no large demo file")
	}
	// GROCERY_BENCH_PRELOAD=1 opens it as a server does (Options.Preload).
	svc, err := Open(path, &Options{ReadOnly: true, Preload: os.Getenv("GROCERY_BENCH_PRELOAD") == "1"})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	var times []time.Duration
	c0 := cpuTime()
	for b.Loop() {
		t := time.Now()
		if err := fn(svc); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t))
	}
	cpu := cpuTime() - c0
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	// The process's CPU time per call: on a shared machine wall time
	// follows the load, CPU time much less.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(times)), "cpu-ms/op")
}

func BenchmarkCategoryReport(b *testing.B) {
	benchPeriod(b, func(svc *Service) error {
		_, err := svc.CategoryReport(context.Background(), CategoryReportInput{Province: "ON"})
		return err
	})
}

func BenchmarkPromoCalendar(b *testing.B) {
	benchPeriod(b, func(svc *Service) error {
		_, err := svc.PromoCalendar(context.Background(), PromoCalendarInput{Province: "ON", Category: "Dairy & Eggs"})
		return err
	})
}

func BenchmarkNewOnShelf(b *testing.B) {
	benchPeriod(b, func(svc *Service) error {
		_, err := svc.NewOnShelf(context.Background(), NewOnShelfInput{Province: "ON"})
		return err
	})
}
