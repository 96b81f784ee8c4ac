package grocery

import (
	"context"
	"testing"
)

func BenchmarkSignals(b *testing.B) {
	benchPeriod(b, func(svc *Service) error {
		_, err := svc.Signals(context.Background(), SignalsInput{Province: "ON", Banner: "loblaws"})
		return err
	})
}
