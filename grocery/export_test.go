package grocery

import "context"

// WriteBatch exposes the write path to the external tests, which build
// their fixtures with it.
func WriteBatch(ctx context.Context, s *Service, b *Batch) (BatchStats, error) {
	return s.writeBatch(ctx, b)
}
