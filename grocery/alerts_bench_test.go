package grocery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkReimportAlerts times re-importing 400,000 observation rows (200
// stores, 500 products, 4 days) into a file with no alert rule and with
// 1,000 rules (a barcode rule and a banner SKU rule on each of 500 Ontario
// offers): the cost of evaluating them once the import committed.
func BenchmarkReimportAlerts(b *testing.B) {
	if testing.Short() {
		b.Skip("imports 400,000 rows")
	}
	dir := b.TempDir()
	storesCSV, ids := benchStores(200)
	obsPath := filepath.Join(dir, "prices.csv")
	rows := writeBenchObservations(b, obsPath, ids, 400_000)
	for _, rules := range []int{0, 1000} {
		b.Run(fmt.Sprintf("rules=%d", rules), func(b *testing.B) {
			svc, err := Open(filepath.Join(b.TempDir(), "bench.db"), &Options{Now: importClock})
			if err != nil {
				b.Fatal(err)
			}
			defer svc.Close()
			mustImport(b, svc, "stores.csv", storesCSV, nil)
			importFile := func() {
				f, err := os.Open(obsPath)
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				if _, err := svc.Import(context.Background(), "prices.csv", f, nil); err != nil {
					b.Fatal(err)
				}
			}
			importFile()
			if rules > 0 {
				if _, err := svc.CreateKey(context.Background(), KeyInput{Account: "acme", Plan: "integration"}); err != nil {
					b.Fatal(err)
				}
				ctx := NewContextWithAccount(context.Background(), "acme")
				offers, err := SampleOffers(svc, "ON", rules/2)
				if err != nil || len(offers) != rules/2 {
					b.Fatalf("SampleOffers: %d, %v", len(offers), err)
				}
				below := 3.0
				for _, o := range offers {
					if _, err := svc.CreateAlert(ctx, AlertInput{Name: "b", UPC: o.UPC, Province: "ON", Condition: AlertPriceBelow, Threshold: &below}); err != nil {
						b.Fatal(err)
					}
					if _, err := svc.CreateAlert(ctx, AlertInput{Name: "p", Banner: o.Banner, SKU: o.SKU, Province: "ON", Condition: AlertPromoStart}); err != nil {
						b.Fatal(err)
					}
				}
			}
			for b.Loop() {
				importFile()
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
