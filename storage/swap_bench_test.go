package storage_test

import (
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// BenchmarkView is the fixed cost of a read transaction (what every
// query pays once): with Reopen, it includes taking and dropping a
// reference to the current file.
func BenchmarkView(b *testing.B) {
	db := MustOpen(b)
	var d int32
	b.ReportAllocs()
	b.Run("Serial", func(b *testing.B) {
		for b.Loop() {
			db.View(func(tx *storage.Tx) error { d = tx.AsOf(); return nil })
		}
	})
	b.Run("Parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				db.View(func(tx *storage.Tx) error { tx.AsOf(); return nil })
			}
		})
	})
	_ = d
}
