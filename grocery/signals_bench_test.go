package grocery

import (
	"context"
	"testing"
	"time"
)

// benchCPU runs fn as benchPeriod does and reports, beside the p50 wall
// time, the process's CPU time per call: on a shared machine wall time
// follows the load, CPU time much less.
func benchCPU(b *testing.B, fn func(svc *Service) error) {
	var cpu time.Duration
	n := 0
	benchPeriod(b, func(svc *Service) error {
		c0 := cpuTime()
		err := fn(svc)
		cpu += cpuTime() - c0
		n++
		return err
	})
	if n > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
	}
}

func BenchmarkSignals(b *testing.B) {
	benchCPU(b, func(svc *Service) error {
		_, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws"})
		return err
	})
}
