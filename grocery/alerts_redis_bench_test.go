package grocery

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/redistest"
)

// alertBenchService opens the small demo set at path with 1,000 rules of
// one account (a barcode rule and a banner SKU rule on each of 500 Ontario
// offers), keys and rules in the Redis at redisURL when it is not "".
func alertBenchService(b *testing.B, path, redisURL string) *Service {
	b.Helper()
	now := func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }
	svc, err := Open(path, &Options{Now: now, Shared: RedisStore(redisURL, "")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	ctx := context.Background()
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		b.Fatal(err)
	}
	actx := NewContextWithAccount(ctx, "acme")
	offers, err := SampleOffers(svc, "ON", 500)
	if err != nil || len(offers) != 500 {
		b.Fatalf("SampleOffers: %d, %v", len(offers), err)
	}
	below := 3.0
	for _, o := range offers {
		if _, err := svc.CreateAlert(actx, AlertInput{Name: "b", UPC: o.UPC, Province: "ON", Condition: AlertPriceBelow, Threshold: &below}); err != nil {
			b.Fatal(err)
		}
		if _, err := svc.CreateAlert(actx, AlertInput{Name: "p", Banner: o.Banner, SKU: o.SKU, Province: "ON", Condition: AlertPromoStart}); err != nil {
			b.Fatal(err)
		}
	}
	return svc
}

// BenchmarkEvaluateAlertsStores times EvaluateAlerts of 1,000 rules over
// the small demo set's last 14 days, rules and events in the data file
// and in Redis on loopback. The first evaluation records the events; the
// timed ones find them recorded (the cost of a rerun, or of the
// evaluation an import of those days runs: the same reads and dedup).
func BenchmarkEvaluateAlertsStores(b *testing.B) {
	if testing.Short() {
		b.Skip("builds the demo set")
	}
	demo := filepath.Join(b.TempDir(), "demo.db")
	if _, err := BuildDemo(context.Background(), demo, &DemoOptions{AsOf: 20261120}); err != nil {
		b.Fatal(err)
	}
	for _, store := range []string{"bbolt", "redis"} {
		b.Run("store="+store, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "demo.db")
			copyFile(b, demo, path)
			url := ""
			if store == "redis" {
				url = redistest.Start(b).URL()
			}
			svc := alertBenchService(b, path, url)
			first, err := svc.EvaluateAlerts(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				ev, err := svc.EvaluateAlerts(context.Background())
				if err != nil || ev.Events != 0 {
					b.Fatalf("EvaluateAlerts: %+v, %v", ev, err)
				}
			}
			b.ReportMetric(float64(first.Series), "series")
			b.ReportMetric(float64(first.Events), "events")
		})
	}
}

// BenchmarkRedisAlertCalls is the p50 and p99 of CreateAlert (POST
// /b2b/alerts) and Alert (GET /b2b/alerts/{id}) with the rules in Redis on
// loopback, one caller at a time; each created rule is deleted again.
func BenchmarkRedisAlertCalls(b *testing.B) {
	rs := redistest.Start(b)
	now := func() time.Time { return time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC) }
	svc, err := Open(filepath.Join(b.TempDir(), "g.db"), &Options{Now: now, Shared: RedisStore(rs.URL(), "")})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	mustImport(b, svc, "stores.csv", "store_id,banner,province,name,city,postal_code,latitude,longitude\n"+
		"lob-1,loblaws,ON,Loblaws 1,Toronto,M5V 2T6,43.64,-79.39\n", nil)
	mustImport(b, svc, "obs.csv", "date,store_id,banner,external_sku,price,upc,name\n"+
		"2026-11-20,lob-1,loblaws,L1,5.00,068000000154,Milk\n", nil)
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		b.Fatal(err)
	}
	actx := NewContextWithAccount(ctx, "acme")
	in := AlertInput{Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: AlertPromoStart}
	var create, get []time.Duration
	for b.Loop() {
		t := time.Now()
		r, err := svc.CreateAlert(actx, in)
		if err != nil {
			b.Fatal(err)
		}
		create = append(create, time.Since(t))
		t = time.Now()
		if _, err := svc.Alert(actx, r.ID); err != nil {
			b.Fatal(err)
		}
		get = append(get, time.Since(t))
		if err := svc.DeleteAlert(actx, r.ID); err != nil {
			b.Fatal(err)
		}
	}
	for _, m := range []struct {
		name string
		lat  []time.Duration
	}{{"create", create}, {"get", get}} {
		slices.Sort(m.lat)
		b.ReportMetric(float64(m.lat[len(m.lat)/2].Microseconds()), m.name+"-p50-µs")
		b.ReportMetric(float64(m.lat[len(m.lat)*99/100].Microseconds()), m.name+"-p99-µs")
	}
}

// copyFile copies the data file src to dst.
func copyFile(b *testing.B, src, dst string) {
	b.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		b.Fatal(err)
	}
}
