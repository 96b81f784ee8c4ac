package grocery

import (
	"context"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/redisstore"
	"github.com/grocerydata/grocery/storage"
)

// Batch and BatchStats expose the write path's types to the external
// tests, which build their fixtures with WriteBatch.
type (
	Batch      = batch
	BatchStats = ingest.Stats
)

// WriteBatch exposes the write path to the external tests.
func WriteBatch(ctx context.Context, s *Service, b *Batch) (BatchStats, error) {
	st, err := s.writeBatch(ctx, b)
	return st.Stats, err
}

// OfferSample is a current offer found in a data file, for benchmarks.
type OfferSample struct{ UPC, Banner, SKU string }

// SampleOffers returns up to n current offers of a province, spread
// across the file.
func SampleOffers(s *Service, province string, n int) ([]OfferSample, error) {
	var all []OfferSample
	err := s.db.View(func(tx *storage.Tx) error {
		current := tx.AsOf() - freshDays
		return tx.OffersIn(province, func(gtin string, o *storage.Offer) error {
			if o.ObservedAt > current {
				all = append(all, OfferSample{GTIN(gtin).UPC(), o.Banner, o.SKU})
			}
			return nil
		})
	})
	if err != nil || len(all) <= n {
		return all, err
	}
	out := make([]OfferSample, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out, nil
}

// PeakRSS and ResetPeakRSS expose the memory probes to the external
// benchmarks.
var (
	PeakRSS      = peakRSS
	ResetPeakRSS = resetPeakRSS
)

// HoldWrite opens a write transaction and holds it until release is
// called, as an import holds its own for the whole file: tests use it to
// hold the writer deterministically.
func HoldWrite(s *Service) (release func()) {
	held, done, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		s.db.Update(func(*storage.Tx) error {
			close(held)
			<-done
			return nil
		})
	}()
	<-held
	return func() { close(done); <-finished }
}

// WritersWaiting returns how many write transactions wait for the one
// under way: tests wait for a write to queue behind HoldWrite's.
func WritersWaiting(s *Service) int { return s.db.WritersWaiting() }

// FlushNow writes the quota counts as the once-a-second flush does.
func FlushNow(s *Service) error { return s.bolt.Flush() }

// RedisStore returns the shared store of the Redis at url under prefix
// ("" for redisstore's default): the tests share one redis-server, each
// under a prefix of its own. A Service takes the store it is opened with:
// each Open needs one of its own.
func RedisStore(url, prefix string) SharedStore {
	st, err := redisstore.Dial(url, &redisstore.Options{Prefix: prefix})
	if err != nil {
		panic(err) // a test's own URL
	}
	return st
}

// CPUTime exposes the process's CPU time to the external benchmarks, which
// report it per call beside the wall time a shared machine's load skews.
var CPUTime = cpuTime

// AlertsSettled waits for the evaluation a writable open runs in the
// background when the file owes one (settleOwedAlerts), if it runs.
func AlertsSettled(s *Service) {
	if s.settled != nil {
		<-s.settled
	}
}
