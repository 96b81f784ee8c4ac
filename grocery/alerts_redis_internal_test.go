package grocery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/alertredis"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/storage"
)

// With Redis down, a brief or the watchlist signals for an account are
// EUNAVAILABLE, never an answer without the account's events or rules;
// without an account they need no Redis and answer.
func TestRedisAnalyticsUnavailable(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	svc, err := Open(filepath.Join(t.TempDir(), "b.db"), &Options{Shared: RedisStore(rs.URL(), "")})
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
	alertstore.Store
	n *int
}

func (c countingAlerts) Events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	return c.Store.Events(ctx, account, func(e *storage.AlertEvent) error { *c.n++; return fn(e) })
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
	svc.alerts = alertStore{st: countingAlerts{svc.alerts.st, &n}}
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
	t.Parallel()
	rs := redistest.Shared(t)
	path := filepath.Join(t.TempDir(), "f.db")
	svc, err := Open(path, &Options{Shared: RedisStore(rs.URL(), rs.Prefix())})
	if err != nil {
		t.Fatal(err)
	}
	svc.Close()
	ctx := context.Background()
	if v, err := rs.Client().Get(ctx, rs.Prefix()+"alerts:format").Result(); err != nil || v != alertredis.Format {
		t.Fatalf("format key: got %q, %v, want %q", v, err, alertredis.Format)
	}
	// Format 1 (before webhooks) is raised at open.
	if err := rs.Client().Set(ctx, rs.Prefix()+"alerts:format", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if svc, err = Open(path, &Options{Shared: RedisStore(rs.URL(), rs.Prefix())}); err != nil {
		t.Fatalf("Open with alert format 1 in Redis: %v", err)
	}
	svc.Close()
	if v, err := rs.Client().Get(ctx, rs.Prefix()+"alerts:format").Result(); err != nil || v != alertredis.Format {
		t.Fatalf("format key after a format 1 open: got %q, %v, want %q", v, err, alertredis.Format)
	}
	if err := rs.Client().Set(ctx, rs.Prefix()+"alerts:format", "3", 0).Err(); err != nil {
		t.Fatal(err)
	}
	svc, err = Open(path, &Options{Shared: RedisStore(rs.URL(), rs.Prefix())})
	if err == nil {
		svc.Close()
	}
	if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), `format "3"`) {
		t.Errorf("Open with alert format 3 in Redis: got %v, want invalid naming the format", err)
	}
}
