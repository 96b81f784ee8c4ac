package grocery_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/redis/go-redis/v9"
)

// commandCalls returns the calls of each command Redis has run, from
// INFO commandstats (cmdstat_evalsha:calls=12,... -> "evalsha": 12).
func commandCalls(tb testing.TB, c *redis.Client) map[string]int64 {
	tb.Helper()
	text, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]int64{}
	for line := range strings.SplitSeq(text, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":calls=")
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, ",")
		out[strings.TrimPrefix(name, "cmdstat_")], _ = strconv.ParseInt(n, 10, 64)
	}
	return out
}

// BenchmarkRedisAuthConsume is a metered call's key check and charge
// through Redis on loopback (AuthenticateMetered + Consume), one caller at
// a time: p50 and p99 of one call, and Redis's own count of the commands
// it ran (INFO commandstats before and after), per call.
func BenchmarkRedisAuthConsume(b *testing.B) {
	rs := redistest.Start(b)
	ctx := context.Background()
	s := openRedisReplica(b, rs, nil)
	nk, err := s.CreateKey(ctx, grocery.KeyInput{Account: "bench", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := meteredCall(ctx, s, nk.Key); err != nil { // dial, and the script is loaded
		b.Fatal(err)
	}
	stats := rs.Client()
	before := commandCalls(b, stats)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t := time.Now()
		if _, err := meteredCall(ctx, s, nk.Key); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	b.StopTimer()
	after := commandCalls(b, stats)
	var total int64
	for name, n := range after {
		if !scriptCommands[name] {
			total += n - before[name]
		}
	}
	evalsha := after["evalsha"] - before["evalsha"]
	if n := int64(len(lat)); evalsha != n || total != n {
		b.Errorf("clients sent %d commands (%d EVALSHA) for %d calls, want one EVALSHA a call", total, evalsha, n)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(evalsha)/float64(len(lat)), "evalsha/op")
	b.ReportMetric(float64(total)/float64(len(lat)), "round-trips/op")
}

// scriptCommands are the commands the script runs inside Redis (which
// INFO commandstats counts too) and INFO itself: what is left was sent by
// a client, one round trip each.
var scriptCommands = map[string]bool{"hmget": true, "hset": true, "incr": true, "expire": true, "get": true, "info": true}

// TestRedisOneRoundTrip checks what the benchmark reports: a metered call
// is one command sent to Redis: one EVALSHA.
func TestRedisOneRoundTrip(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	ctx := context.Background()
	s := openRedisReplica(t, rs, nil)
	nk, err := s.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	stats := rs.Client()
	before := commandCalls(t, stats)
	const n = 25
	for range n {
		if _, err := meteredCall(ctx, s, nk.Key); err != nil {
			t.Fatal(err)
		}
	}
	after := commandCalls(t, stats)
	for name, calls := range after {
		if d := calls - before[name]; !scriptCommands[name] && name != "evalsha" && d != 0 {
			t.Errorf("Redis ran %s %d times for %d metered calls, want only EVALSHA", name, d, n)
		}
	}
	if d := after["evalsha"] - before["evalsha"]; d != n {
		t.Errorf("Redis ran EVALSHA %d times for %d metered calls, want %d", d, n, n)
	}
}
