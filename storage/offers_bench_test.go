package storage_test

import (
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// BenchmarkOffersIn reads every offer of a national-sized panel, province
// by province, as the regional comparison of the panel does: 13
// provinces, 2,000 barcodes each, 4 banner SKUs a barcode (104,000
// offers, about the national demo set's 101,476).
func BenchmarkOffersIn(b *testing.B) {
	db := MustOpen(b)
	provinces := []string{"AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"}
	banners := []string{"foodbasics", "loblaws", "metro", "nofrills"}
	update(b, db, func(tx *storage.Tx) error {
		for _, pv := range provinces {
			for g := range 2000 {
				gtin := fmt.Sprintf("%014d", 60000000000+g*7)
				for i, banner := range banners {
					o := storage.Offer{Banner: banner, SKU: fmt.Sprintf("%d_EA", g), Price: uint32(199 + g%700 + i*10), Regular: 999,
						Min: 150, Max: 1099, StoreCount: 12, ObservedAt: 20700, Expires: 20710, Low30: 180, Typical: 999,
						Daily: storage.DayPrice{Day: 20700, Price: 398, Regular: 1998}}
					if err := tx.PutOffer(pv, gtin, &o); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	b.ResetTimer()
	n := 0
	for b.Loop() {
		err := db.View(func(tx *storage.Tx) error {
			for _, pv := range provinces {
				err := tx.OffersIn(pv, func(_ string, o *storage.Offer) error {
					n += int(o.StoreCount)
					return nil
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if n == 0 {
		b.Fatal("no offer read")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/104000, "ns/offer")
}
