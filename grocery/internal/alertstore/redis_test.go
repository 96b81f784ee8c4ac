package alertstore

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/grocerydata/grocery/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

func TestMain(m *testing.M) { os.Exit(redistest.Run(m)) }

// testRedis is the alert store of the shared Redis, under tb's prefix.
func testRedis(tb testing.TB) Redis {
	rs := redistest.Shared(tb)
	c, err := redisconn.Dial(rs.URL(), rs.Prefix(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return Redis{c}
}

// putRedisEvents stores events ids lo..hi of account as recordScript
// would, as another server's import does.
func putRedisEvents(t *testing.T, a Redis, account string, lo, hi uint64) {
	t.Helper()
	ctx := context.Background()
	_, err := a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for id := lo; id <= hi; id++ {
			body, _ := json.Marshal(&storage.AlertEvent{Account: account, RuleID: 1, Day: int32(id)})
			pl.HSet(ctx, a.key("event", account), id, body)
			pl.ZAdd(ctx, a.key("events", account), redis.Z{Score: float64(id), Member: id})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// One listing of more than a page of events, while another server records
// events between its pages, lists every event that was there once, newest
// first: pages go by id, not by rank.
func TestRedisEventsPagesByID(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	const n = eventsChunk + 100
	putRedisEvents(t, a, "acme", 1, n)
	seen := map[uint64]int{}
	var last uint64
	err := a.Events(context.Background(), "acme", func(e *storage.AlertEvent) error {
		if len(seen) == 10 {
			putRedisEvents(t, a, "acme", n+1, n+50) // an import, during the listing
		}
		if last != 0 && e.ID >= last {
			return errors.New("not newest first")
		}
		last = e.ID
		seen[e.ID]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id := uint64(1); id <= n; id++ {
		if seen[id] != 1 {
			t.Errorf("event %d listed %d times, want once", id, seen[id])
		}
	}
	if len(seen) != n {
		t.Errorf("listed %d events, want the %d there when the listing began", len(seen), n)
	}
}
