package alertredis

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/redisconn"
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

// A rule stored before Paused existed (its JSON without the field) reads
// as active and is watched; UpdateRule pausing it takes it off its watch
// hash, resuming it puts it back, and a rule deleted meanwhile is not
// brought back.
func TestRedisUpdateRuleCompatible(t *testing.T) {
	t.Parallel()
	a := testRedis(t)
	ctx := context.Background()
	old := `{"Account":"acme","ID":0,"Name":"n","GTIN":"","Banner":"loblaws","SKU":"L1","Province":"ON","Condition":"promo_start","Threshold":0,"Created":5}`
	watch := a.watchKey("ON", "", "loblaws", "L1")
	for _, k := range []string{a.key("rules", "acme"), watch} {
		if err := a.c.Client.HSet(ctx, k, "7", old).Err(); err != nil {
			t.Fatal(err)
		}
	}
	watched := func() int {
		rules, err := a.Watching(ctx, nil, []alertstore.WatchQuery{{Province: "ON", Banner: "loblaws", SKU: "L1"}})
		if err != nil {
			t.Fatal(err)
		}
		return len(rules[0])
	}
	var r storage.AlertRule
	if found, err := a.Rule(ctx, "acme", 7, &r); err != nil || !found || r.Paused || r.Name != "n" {
		t.Fatalf("old rule: got %+v, %v, %v, want it active", r, found, err)
	}
	if n := watched(); n != 1 {
		t.Fatalf("old rule watched %d times, want 1", n)
	}
	for _, paused := range []bool{true, false} {
		found, err := a.UpdateRule(ctx, "acme", 7, func(r *storage.AlertRule) error { r.Paused = paused; r.Name = "m"; return nil })
		if err != nil || !found {
			t.Fatalf("UpdateRule(paused %v): %v, %v", paused, found, err)
		}
		if _, err := a.Rule(ctx, "acme", 7, &r); err != nil || r.Paused != paused || r.Name != "m" || r.ID != 7 {
			t.Errorf("rule after UpdateRule(paused %v): got %+v, %v", paused, r, err)
		}
		if n, want := watched(), map[bool]int{true: 0, false: 1}[paused]; n != want {
			t.Errorf("paused %v: watched %d times, want %d", paused, n, want)
		}
	}
	if found, err := a.DeleteRule(ctx, "acme", 7); err != nil || !found {
		t.Fatal(found, err)
	}
	if found, err := a.UpdateRule(ctx, "acme", 7, func(r *storage.AlertRule) error { return nil }); err != nil || found {
		t.Errorf("UpdateRule of a deleted rule: got %v, %v, want not found", found, err)
	}
	if n := watched(); n != 0 {
		t.Errorf("deleted rule watched %d times, want 0", n)
	}
}
