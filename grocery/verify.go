package grocery

import (
	"context"
	"errors"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/storage"
)

// errVerified rolls back Verify's transaction, which recomputes the
// aggregates in place to compare them.
var errVerified = errors.New("verified")

// Verify checks the data file's own invariants, for the crash tests and
// for an operator after a crash: every index entry names a record that
// exists, every offer is backed by stored observations, and the analytics
// aggregates (category days, shelf, promotions) equal a recomputation
// from the stored observations. The recomputation runs in a write
// transaction that is rolled back, so Verify changes nothing; it needs a
// writable Service and waits for an import under way.
//
// The recomputation takes each product's category as it is now, where
// the aggregates keep the category an observation had when it was
// written: a file whose products changed category after their
// observations reports a difference.
//
// Verify returns nil when the file is consistent, an *Error with
// ECONFLICT naming the first disagreement (an index entry, or an
// aggregate's bucket and key), EINVALIDARGUMENT on a read-only Service, and
// EINTERNAL when the file cannot be read.
func (s *Service) Verify(ctx context.Context) error {
	if !s.bolt.Metering() {
		return Errorf(EINVALIDARGUMENT, "verify needs the data file open for writing")
	}
	var mismatch error
	err := s.db.Update(func(tx *storage.Tx) error {
		if err := tx.CheckIndexes(); err != nil {
			return err
		}
		before := map[string]string{}
		if err := tx.ForEachAnalytics(func(bucket string, k, v []byte) error {
			before[bucket+"\x00"+string(k)] = string(v)
			return nil
		}); err != nil {
			return err
		}
		if err := ingest.RederiveAnalytics(ctx, tx, writeRules); err != nil {
			return err
		}
		if err := tx.ForEachAnalytics(func(bucket string, k, v []byte) error {
			key := bucket + "\x00" + string(k)
			old, ok := before[key]
			switch {
			case !ok:
				mismatch = Errorf(ECONFLICT, "%s %q: missing, the observations give one", bucket, k)
			case old != string(v):
				mismatch = Errorf(ECONFLICT, "%s %q: the stored value (%d bytes) differs from the observations' (%d bytes)", bucket, k, len(old), len(v))
			default:
				delete(before, key)
				return nil
			}
			return errVerified
		}); err != nil && err != errVerified {
			return err
		}
		if mismatch == nil && len(before) > 0 {
			for key := range before {
				bucket, k, _ := strings.Cut(key, "\x00")
				mismatch = Errorf(ECONFLICT, "%s %q: stored, the observations give none (%d such entries)", bucket, k, len(before))
				break
			}
		}
		return errVerified
	})
	switch {
	case errors.Is(err, storage.ErrInconsistent):
		return Errorf(ECONFLICT, "%v", err)
	case err != nil && err != errVerified:
		return err
	}
	return mismatch
}

// upgradeFormat upgrades a data file of an older format version in
// place (storage.Options.Upgrade): it derives the analytics aggregates
// again (each SKU's daily prices as its price in force, which versions 3
// to 6 lack) and every offer as the price in force on the data set's
// latest day (which versions 3 to 5 lack).
func upgradeFormat(ctx context.Context) func(tx *storage.Tx, from int) error {
	return func(tx *storage.Tx, _ int) error {
		return ingest.RederiveAll(ctx, tx, writeRules)
	}
}
