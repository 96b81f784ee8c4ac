package storage_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// BenchmarkLastPromoBeforeRewrite reads each series' last promotion
// before a day the way an import's derive does: series by series in key
// order, in one transaction that deletes each series' events as it goes
// (DeletePromosFrom), over 20,000 series, every other one with two
// events. The leaves the deletes empty stay in the tree until the commit:
// a read for a series without events that steps back from the next
// series passes over all of them.
func BenchmarkLastPromoBeforeRewrite(b *testing.B) {
	const series = 20000
	db := MustOpen(b)
	name := func(i int) string { return fmt.Sprintf("%08d_EA", i) }
	update(b, db, func(tx *storage.Tx) error {
		ps := make([]storage.Promo, 0, 2*series)
		for i := 0; i < series; i += 2 {
			for _, start := range []int32{20700, 20740} {
				ps = append(ps, storage.Promo{Banner: "loblaws", SKU: name(i), Province: "ON", Start: start, End: start + 6, Regular: 599, Price: 499, Stores: 2, Days: 7})
			}
		}
		return tx.PutPromos(ps)
	})
	b.ReportAllocs()
	b.ResetTimer()
	calls := 0
	for n := 0; n < b.N; n++ {
		err := db.Update(func(tx *storage.Tx) error {
			var p storage.Promo
			for i := range series {
				found, err := tx.LastPromoBefore("loblaws", name(i), "ON", 20750, &p)
				if err != nil {
					return err
				}
				if want := i%2 == 0; found != want || found && p.Start != 20740 {
					return fmt.Errorf("series %d: got %v, %+v, want %v (the event of day 20740)", i, found, p, want)
				}
				calls++
				if err := tx.DeletePromosFrom("loblaws", name(i), "ON", 0); err != nil {
					return err
				}
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/series")
}

var errRollback = errors.New("rollback")
