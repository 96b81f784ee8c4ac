package grocery

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// testRedisAlerts is the alert store of the Redis rs, without a Service.
func testRedisAlerts(rs *redistest.Server) redisAlerts {
	return redisAlerts{&redisAccess{rdb: rs.Client(), addr: "test", prefix: redisPrefix}}
}

// putRedisEvents stores events ids lo..hi of account as recordScript
// would, as another server's import does.
func putRedisEvents(t *testing.T, a redisAlerts, account string, lo, hi uint64) {
	t.Helper()
	ctx := context.Background()
	_, err := a.ra.rdb.Pipelined(ctx, func(pl redis.Pipeliner) error {
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
func TestRedisAlerts_EventsPagesByID(t *testing.T) {
	rs := redistest.Start(t)
	a := testRedisAlerts(rs)
	const n = eventsChunk + 100
	putRedisEvents(t, a, "acme", 1, n)
	seen := map[uint64]int{}
	var last uint64
	err := a.events(context.Background(), "acme", func(e *storage.AlertEvent) error {
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

// With Redis down, a brief or the watchlist signals for an account are
// EUNAVAILABLE, never an answer without the account's events or rules;
// without an account they need no Redis and answer.
func TestRedisAnalyticsUnavailable(t *testing.T) {
	rs := redistest.Start(t)
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{RedisURL: rs.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		t.Fatal(err)
	}
	acme := NewContextWithAccount(ctx, "acme")
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", briefObs, nil)
	rs.Stop()
	if _, err := svc.ExecutiveBrief(acme, BriefInput{Province: "ON"}); ErrorCode(err) != EUNAVAILABLE {
		t.Errorf("ExecutiveBrief(acme) with Redis down: got %v, want unavailable", err)
	}
	for _, kind := range []string{"", SignalWatchlist} {
		if _, err := svc.Signals(acme, SignalsInput{Province: "ON", Kind: kind}); ErrorCode(err) != EUNAVAILABLE {
			t.Errorf("Signals(acme, kind %q) with Redis down: got %v, want unavailable", kind, err)
		}
	}
	if _, err := svc.ExecutiveBrief(ctx, BriefInput{Province: "ON"}); err != nil {
		t.Errorf("ExecutiveBrief without an account, Redis down: %v", err)
	}
	if _, err := svc.Signals(ctx, SignalsInput{Province: "ON"}); err != nil {
		t.Errorf("Signals without an account, Redis down: %v", err)
	}
}

// countingAlerts is an alert store that counts the events its listings
// hand out.
type countingAlerts struct {
	alertStore
	n *int
}

func (c countingAlerts) events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	return c.alertStore.events(ctx, account, func(e *storage.AlertEvent) error { *c.n++; return fn(e) })
}

// A brief reads the account's events of its week and stops at the first
// recorded well before it, not the whole history.
func TestBriefEventsStopAtWeek(t *testing.T) {
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, svc, "stores.csv", briefStores, nil)
	mustImport(t, svc, "obs.csv", briefObs, nil)
	// 1,000 events recorded a year before the week, then one of the week.
	old := time.Date(2025, 11, 19, 12, 0, 0, 0, time.UTC)
	err = svc.db.Update(func(tx *storage.Tx) error {
		for i := range 1001 {
			e := storage.AlertEvent{Account: "acme", RuleID: 1, Triggered: old.Unix(), Day: int32(DateOf(old)) - int32(i%30),
				Condition: AlertPromoStart, Banner: "metro", SKU: "M1", Province: "ON", Price: 480}
			if i == 1000 {
				e.Triggered, e.Day = time.Date(2026, 11, 19, 20, 0, 0, 0, time.UTC).Unix(), int32(DateOf(time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)))
			}
			id, err := tx.NewAlertEventID()
			if err != nil {
				return err
			}
			e.ID = id
			if err := tx.PutAlertEvent(&e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	svc.alerts = countingAlerts{svc.alerts, &n}
	b, err := svc.ExecutiveBrief(NewContextWithAccount(ctx, "acme"), BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.AlertEvents) != 1 || n > 2 {
		t.Errorf("brief: %d events after reading %d; want the week's 1 after reading at most 2", len(b.AlertEvents), n)
	}
}

// TestBriefEventsOfAFutureWeek: data dated ahead of the clock (a demo set
// built --as-of a later day) has its events recorded before its week; the
// brief still finds them.
func TestBriefEventsOfAFutureWeek(t *testing.T) {
	clock := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC) // before the data's week
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	if _, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "integration"}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, svc, "stores.csv", briefStores, nil)
	if err := svc.db.Update(func(tx *storage.Tx) error {
		return tx.SetAsOf(int32(DateOf(time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC))))
	}); err != nil {
		t.Fatal(err)
	}
	err = svc.db.Update(func(tx *storage.Tx) error {
		id, err := tx.NewAlertEventID()
		if err != nil {
			return err
		}
		return tx.PutAlertEvent(&storage.AlertEvent{ID: id, Account: "acme", RuleID: 1, Triggered: clock.Unix(),
			Day: int32(DateOf(time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC))), Condition: AlertPromoStart,
			Banner: "metro", SKU: "M1", Province: "ON", Price: 480})
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := svc.ExecutiveBrief(NewContextWithAccount(ctx, "acme"), BriefInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.AlertEvents) != 1 {
		t.Errorf("brief of the week %s to %s: %d events, want the one recorded on %s for %s", b.WeekFrom, b.WeekTo,
			len(b.AlertEvents), clock.Format(time.DateOnly), "2026-11-18")
	}
}

// A Redis whose alert data is of another format is refused at open, not
// misread; one without it gets this version's.
func TestRedisAlertsFormat(t *testing.T) {
	rs := redistest.Start(t)
	path := filepath.Join(t.TempDir(), "f.db")
	svc, err := Open(path, &Options{RedisURL: rs.URL()})
	if err != nil {
		t.Fatal(err)
	}
	svc.Close()
	ctx := context.Background()
	if v, err := rs.Client().Get(ctx, redisPrefix+"alerts:format").Result(); err != nil || v != alertsFormat {
		t.Fatalf("format key: got %q, %v, want %q", v, err, alertsFormat)
	}
	if err := rs.Client().Set(ctx, redisPrefix+"alerts:format", "2", 0).Err(); err != nil {
		t.Fatal(err)
	}
	svc, err = Open(path, &Options{RedisURL: rs.URL()})
	if err == nil {
		svc.Close()
	}
	if ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), `format "2"`) {
		t.Errorf("Open with alert format 2 in Redis: got %v, want invalid naming the format", err)
	}
}
