package grocery_test

import (
	"context"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// BenchmarkCachedCompetitiveBenchmark is a repeated request for the
// competitive benchmark of one banner, answered from the answer cache
// (Cached) after the first; BenchmarkCompetitiveBenchmark computes it
// every time.
func BenchmarkCachedCompetitiveBenchmark(b *testing.B) {
	s := largeService(b)
	ctx := context.Background()
	in := grocery.BenchmarkInput{Banner: "loblaws", Province: "ON"}
	timed(b, func(int) error {
		_, err := grocery.Cached(ctx, s, "CompetitiveBenchmark", s.CompetitiveBenchmark, in)
		return err
	})
	st := s.AnswerCacheStats()
	b.ReportMetric(float64(st.Misses), "computed")
}
