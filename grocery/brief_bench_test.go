package grocery

import (
	"context"
	"testing"
)

func BenchmarkExecutiveBrief(b *testing.B) {
	benchCPU(b, func(svc *Service) error {
		_, err := svc.ExecutiveBrief(context.Background(), BriefInput{Province: "ON", Banner: "no-frills"})
		return err
	})
}
