package grocery

import (
	"context"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/answercache"
)

// BenchmarkExecutiveBrief is a brief computed every call (cold): the
// answer cache keeps nothing.
func BenchmarkExecutiveBrief(b *testing.B) {
	benchCPU(b, func(svc *Service) error {
		svc.answers = answercache.New(0)
		_, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "no-frills"})
		return err
	})
}

// BenchmarkExecutiveBriefCached is a brief repeated on one data version:
// its market part kept, each call adding the events and the summary.
func BenchmarkExecutiveBriefCached(b *testing.B) {
	benchCPU(b, func(svc *Service) error {
		_, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "no-frills"})
		return err
	})
}
