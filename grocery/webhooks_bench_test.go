package grocery_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/webhookclient"
)

// openWorker opens a new data file with a delivery worker on the real
// clock that may reach loopback, and an account acme with a key; with
// withRedis, keys, alerts and webhooks in the shared test Redis.
func openWorker(b *testing.B, withRedis bool) (*grocery.Service, context.Context) {
	b.Helper()
	opts := &grocery.Options{Webhooks: grocery.WebhookOptions{
		Sender: webhookclient.New(grocery.WebhookPolicy{Loopback: true}), AllowLoopback: true}}
	if withRedis {
		rs := redistest.Shared(b)
		opts.Shared = grocery.RedisStore(rs.URL(), rs.Prefix())
	}
	svc, err := grocery.Open(filepath.Join(b.TempDir(), "grocery.db"), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	if _, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		b.Fatal(err)
	}
	return svc, grocery.NewContextWithAccount(context.Background(), "acme")
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)]
}

// BenchmarkWebhookLatency: one import a loop, each recording one alert
// event (rule k, price_below 10.00 - k cents, crossed by the k-th day's
// price), and the time from the import's return (its commit is just
// before) to the event's arrival at a receiver on loopback, through the
// worker. At most 1,000 (an account's rules): -benchtime=1000x. With
// store=redis the event is recorded in Redis, and the worker queues it
// from Redis's fanout list before sending it.
func BenchmarkWebhookLatency(b *testing.B) {
	for _, store := range []string{"bolt", "redis"} {
		b.Run("store="+store, func(b *testing.B) { webhookLatency(b, store == "redis") })
	}
}

func webhookLatency(b *testing.B, withRedis bool) {
	svc, acme := openWorker(b, withRedis)
	mustImportCSV(b, svc, "stores.csv", "store_id,banner,province,name,city,postal_code,latitude,longitude\nnf-1,no-frills,ON,No Frills 1,Hamilton,L8P 4R5,43.25,-79.87\n")
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	row := func(day int, cents int) string {
		return fmt.Sprintf("date,store_id,banner,external_sku,price\n%s,nf-1,no-frills,N1,%d.%02d\n", start.AddDate(0, 0, day).Format("2006-01-02"), cents/100, cents%100)
	}
	mustImportCSV(b, svc, "day0.csv", row(0, 1001))
	got := make(chan time.Time, 1)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- time.Now()
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(rcv.Close)
	if _, err := svc.CreateWebhook(acme, grocery.WebhookInput{URL: rcv.URL}); err != nil {
		b.Fatal(err)
	}
	n := min(b.N, grocery.MaxAlertRules)
	for k := range n {
		t := float64(1000-k) / 100
		if _, err := svc.CreateAlert(acme, grocery.AlertInput{Name: "r", Banner: "no-frills", SKU: "N1", Province: "ON", Condition: grocery.AlertPriceBelow, Threshold: &t}); err != nil {
			b.Fatal(err)
		}
	}
	var lat, total []time.Duration
	early := 0
	b.ResetTimer()
	for k := range n {
		t0 := time.Now()
		mustImportCSV(b, svc, "day.csv", row(k+1, 1000-k))
		t1 := time.Now()
		select {
		case r := <-got:
			total = append(total, r.Sub(t0))
			if r.Before(t1) {
				early++ // arrived before Import returned
			}
			lat = append(lat, max(r.Sub(t1), 0))
		case <-time.After(10 * time.Second):
			b.Fatalf("event %d not delivered within 10 s", k)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(percentile(lat, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(percentile(total, 0.5).Microseconds()), "p50-from-import-start-µs")
	b.ReportMetric(float64(percentile(total, 0.99).Microseconds()), "p99-from-import-start-µs")
	b.ReportMetric(float64(early), "before-return")
}

func mustImportCSV(b *testing.B, svc *grocery.Service, name, data string) {
	b.Helper()
	if _, err := svc.Import(context.Background(), name, strings.NewReader(data), nil); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWebhookDeadEndpoints: 100 endpoints of one account, 10 pings
// queued for each; 50 answer 204 at once, 50 never answer (each attempt
// holds a sender until the 10 s timeout). It reports how long the
// healthy endpoints' 500 deliveries take, and the peak heap in use and
// goroutines of the process (the receivers' included) meanwhile. Run it
// with -benchtime=1x: it takes over 10 s.
func BenchmarkWebhookDeadEndpoints(b *testing.B) {
	base := runtime.NumGoroutine()
	svc, acme := openWorker(b, false)
	done := make(chan struct{})
	delivered := make(chan struct{}, 1000)
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delivered <- struct{}{}
		w.WriteHeader(http.StatusNoContent)
	}))
	var timedOut chan struct{} // this iteration's: set before its first ping
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // read whole, the server sees the sender hang up
		select {                    // never answers while the benchmark runs
		case <-done:
		case <-r.Context().Done(): // the sender gave up: its timeout
			select {
			case timedOut <- struct{}{}:
			default: // the iteration heard of one already
			}
		}
	}))
	b.Cleanup(func() { close(done); dead.Close(); ok.Close() })
	var ids []string
	for i := range 100 {
		url := ok.URL
		if i%2 == 1 {
			url = dead.URL
		}
		w, err := svc.CreateWebhook(acme, grocery.WebhookInput{URL: fmt.Sprintf("%s/%d", url, i)})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	b.ResetTimer()
	for b.Loop() {
		var peakHeap uint64
		peakG := 0
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() { // samples until a dead endpoint's first attempt times out
			defer close(sampled)
			var ms runtime.MemStats
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					runtime.ReadMemStats(&ms)
					peakHeap = max(peakHeap, ms.HeapInuse)
					peakG = max(peakG, runtime.NumGoroutine())
				}
			}
		}()
		timedOut = make(chan struct{}, 1)
		t0 := time.Now()
		for range 10 {
			for _, id := range ids {
				if _, err := svc.TestWebhook(acme, id); err != nil {
					b.Fatal(err)
				}
			}
		}
		queued := time.Since(t0)
		for n := 0; n < 500; n++ {
			select {
			case <-delivered:
			case <-time.After(120 * time.Second):
				b.Fatalf("the healthy endpoints got %d of 500 deliveries in 120 s", n)
			}
		}
		healthy := time.Since(t0)
		select { // the first dead attempt's timeout: those sent with it end with it
		case <-timedOut:
		case <-time.After(120 * time.Second):
			b.Fatal("no attempt to a dead endpoint timed out in 120 s")
		}
		close(stop)
		<-sampled
		b.ReportMetric(queued.Seconds(), "s-to-queue-1000")
		b.ReportMetric(healthy.Seconds(), "s-healthy-500")
		b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(peakG), "peak-goroutines")
		b.ReportMetric(float64(base), "goroutines-before")
	}
}
