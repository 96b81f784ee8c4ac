package grocery_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
)

// Two servers on one Redis, creating rules for one account at once, never
// exceed MaxAlertRules between them, and never give one id twice.
func TestRedisAlerts_LimitAcrossServices(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	a, b := newAlertFixture(t, rs), newAlertFixture(t, rs)
	in := grocery.AlertInput{Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"}
	const workers, each = 8, 140 // 1,120 attempts
	var mu sync.Mutex
	ids := map[string]bool{}
	conflicts := 0
	var wg sync.WaitGroup
	for i := range workers {
		f := a
		if i%2 == 1 {
			f = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				r, err := f.svc.CreateAlert(f.acme, in)
				mu.Lock()
				switch {
				case err == nil && ids[r.ID]:
					t.Errorf("id %s given twice", r.ID)
				case err == nil:
					ids[r.ID] = true
				case grocery.ErrorCode(err) == grocery.ECONFLICT:
					conflicts++
				default:
					t.Errorf("CreateAlert: %v", err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(ids) != grocery.MaxAlertRules || conflicts != workers*each-grocery.MaxAlertRules {
		t.Errorf("got %d rules and %d conflicts, want %d and %d", len(ids), conflicts, grocery.MaxAlertRules, workers*each-grocery.MaxAlertRules)
	}
	for _, f := range []*alertFixture{a, b} {
		if l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{}); err != nil || l.Total != grocery.MaxAlertRules {
			t.Errorf("ListAlerts: got %+v, %v, want %d", l.Total, err, grocery.MaxAlertRules)
		}
	}
}

// A rule created through one server fires on imports on two servers (each
// on its own copy of the data) and through reruns of EvaluateAlerts on
// either: one event per rule and day all the same. A rule deleted through
// one server is gone on the other; its events stay.
func TestRedisAlerts_DedupAcrossServices(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	a, b := newAlertFixture(t, rs), newAlertFixture(t, rs)
	drop := a.create(t, a.acme, grocery.AlertInput{Name: "L1 drop", Banner: "loblaws", SKU: "L1", Province: "ON",
		Condition: "price_drop_pct", Threshold: num(10)})
	below := b.create(t, b.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	promo := a.create(t, a.acme, grocery.AlertInput{Name: "milk promo at loblaws", UPC: upcMilk, Banner: "loblaws",
		Province: "ON", Condition: "promo_start"})
	names := map[string]string{drop.ID: "drop", below.ID: "below", promo.ID: "promo"}
	if drop.ID == below.ID || below.ID == promo.ID {
		t.Fatalf("rule ids %s %s %s: want distinct ids across servers", drop.ID, below.ID, promo.ID)
	}

	day2 := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for _, f := range []*alertFixture{a, b} {
		f.setClock(day2)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := f.svc.Import(context.Background(), "day2.csv", strings.NewReader(alertDay2), nil)
			if err != nil || rep.AlertsError != "" {
				t.Errorf("Import: %+v, %v", rep, err)
			}
		}()
	}
	wg.Wait()
	for _, f := range []*alertFixture{a, b, a} {
		if ev, err := f.svc.EvaluateAlerts(context.Background()); err != nil || ev.Rules != 3 || ev.Events != 0 {
			t.Errorf("EvaluateAlerts after both imports: got %+v, %v, want 3 rules, 0 new events", ev, err)
		}
	}
	want := []eventKey{
		{"promo", "loblaws", "2026-11-21", 450, cents(500)},
		{"below", "no-frills", "2026-11-21", 399, cents(450)},
		{"drop", "loblaws", "2026-11-21", 450, cents(500)},
	}
	for _, f := range []*alertFixture{a, b} {
		got := f.events(t, f.acme, grocery.AlertEventsInput{})
		if diff := cmp.Diff(want, keysOf(got, names)); diff != "" || got.Total != 3 {
			t.Errorf("events (total %d, want 3) (-want +got):\n%s", got.Total, diff)
		}
	}

	if err := b.svc.DeleteAlert(b.acme, drop.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.Alert(a.acme, drop.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("Alert(deleted through the other server): got %v, want not_found", err)
	}
	if got := a.events(t, a.acme, grocery.AlertEventsInput{RuleID: drop.ID}); got.Total != 1 {
		t.Errorf("deleted rule's events: got %d, want 1", got.Total)
	}
	if err := a.svc.DeleteAlert(a.acme, drop.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("second delete: got %v, want not_found", err)
	}
}

// With Redis gone every alert call is EUNAVAILABLE and stores nothing; an
// import still commits its data and says the events were not recorded;
// once Redis is back, EvaluateAlerts records exactly the missing ones.
func TestRedisAlerts_Unavailable(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	rs.Stop()

	in := grocery.AlertInput{Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"}
	for name, call := range map[string]func() error{
		"CreateAlert":          func() error { _, err := f.svc.CreateAlert(f.acme, in); return err },
		"ListAlerts":           func() error { _, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{}); return err },
		"Alert":                func() error { _, err := f.svc.Alert(f.acme, r.ID); return err },
		"DeleteAlert":          func() error { return f.svc.DeleteAlert(f.acme, r.ID) },
		"AlertEvents":          func() error { _, err := f.svc.AlertEvents(f.acme, grocery.AlertEventsInput{}); return err },
		"EvaluateAlerts":       func() error { _, err := f.svc.EvaluateAlerts(context.Background()); return err },
		"EvaluateAlerts(acme)": func() error { _, err := f.svc.EvaluateAlerts(f.acme); return err },
	} {
		if err := call(); grocery.ErrorCode(err) != grocery.EUNAVAILABLE || !strings.Contains(grocery.ErrorMessage(err), "Redis") {
			t.Errorf("%s with Redis down: got %v, want unavailable naming Redis", name, err)
		}
	}

	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	rep := f.importCSV(t, "day2.csv", alertDay2)
	if rep.New != 4 || !strings.Contains(rep.AlertsError, "Redis") || !strings.Contains(rep.AlertsError, "grocery alerts evaluate") {
		t.Errorf("import with Redis down: got %d new, alerts error %q; want 4 new and an error naming Redis and 'grocery alerts evaluate'", rep.New, rep.AlertsError)
	}

	rs.Restart()
	if l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{}); err != nil || l.Total != 1 || l.Results[0].ID != r.ID {
		t.Fatalf("rules after Redis came back: got %+v, %v, want only %s (nothing stored during the outage)", l, err, r.ID)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 0 {
		t.Fatalf("events before evaluating: got %d, want 0", got.Total)
	}
	for i, want := range []int{1, 0} {
		ev, err := f.svc.EvaluateAlerts(context.Background())
		if err != nil || ev.Events != want {
			t.Errorf("EvaluateAlerts #%d: got %+v, %v, want %d new events", i+1, ev, err, want)
		}
	}
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-11-21", 399, cents(450)}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Errorf("recovered events (-want +got):\n%s", diff)
	}
}

// reopen closes the fixture's service and opens its file again with opts
// (its clock added) and keys, rules and events in the Redis rs.
func (f *alertFixture) reopen(t *testing.T, rs *redistest.Server, opts grocery.Options) {
	t.Helper()
	if err := f.svc.Close(); err != nil {
		t.Fatal(err)
	}
	opts.Now, opts.Shared = f.clock, grocery.RedisStore(rs.URL(), rs.Prefix())
	svc, err := grocery.Open(f.path, &opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	f.svc = svc
}

// An import whose events could not be recorded (Redis down) says so
// plainly, logs it, and leaves a mark in the file: the next import records
// them, even one that writes none of the series.
func TestRedisAlerts_OwedByNextImport(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	var log servetest.LogBuffer
	f.reopen(t, rs, grocery.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	rs.Stop()
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	rep := f.importCSV(t, "day2.csv", alertDay2)
	for _, want := range []string{"data imported", "alert events not yet recorded", "alert store (Redis at", "next import", "grocery alerts evaluate"} {
		if !strings.Contains(rep.AlertsError, want) {
			t.Errorf("AlertsError %q: want it to say %q", rep.AlertsError, want)
		}
	}
	if strings.Contains(rep.AlertsError, "refused") || strings.Contains(rep.AlertsError, "key store") {
		t.Errorf("AlertsError %q: the import was not refused, and the alert store is not the key store", rep.AlertsError)
	}
	if !strings.Contains(log.String(), "alert events not yet recorded") {
		t.Errorf("log %q: want the alert error logged", log.String())
	}

	rs.Restart()
	if rep := f.importCSV(t, "stores.csv", alertStoresCSV); rep.AlertsError != "" {
		t.Fatalf("next import: %s", rep.AlertsError)
	}
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-11-21", 399, cents(450)}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Errorf("events after the next import (-want +got):\n%s", diff)
	}
	if ev, err := f.svc.EvaluateAlerts(context.Background()); err != nil || ev.Events != 0 {
		t.Errorf("EvaluateAlerts after: got %+v, %v, want nothing new", ev, err)
	}
}

// The events of an import whose evaluation never ran (Redis down, or the
// process gone after the commit) are recorded when the file is next
// opened with Redis, in the background.
func TestRedisAlerts_OwedAtOpen(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	rs.Stop()
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	if rep := f.importCSV(t, "day2.csv", alertDay2); rep.AlertsError == "" {
		t.Fatal("import with Redis down: want an AlertsError")
	}
	rs.Restart()
	f.reopen(t, rs, grocery.Options{})
	got := f.settledEvents(t, f.acme)
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-11-21", 399, cents(450)}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Errorf("events after reopening (-want +got):\n%s", diff)
	}
}

// Turning Redis on for a file that holds alert rules copies them and their
// events there with their ids, once: an id a client kept names the same
// rule, new ids follow, nothing fires twice.
func TestRedisAlerts_CopiesFileRules(t *testing.T) {
	t.Parallel()
	f := newAlertFixture(t, nil)
	drop := f.create(t, f.acme, grocery.AlertInput{Name: "L1 drop", Banner: "loblaws", SKU: "L1", Province: "ON",
		Condition: "price_drop_pct", Threshold: num(10)})
	below := f.create(t, f.beta, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	gone := f.create(t, f.acme, grocery.AlertInput{Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if err := f.svc.DeleteAlert(f.acme, gone.ID); err != nil {
		t.Fatal(err)
	}
	wantRules := map[context.Context][]grocery.AlertRule{}
	wantEvents := map[context.Context]*grocery.AlertEventList{}
	for _, ctx := range []context.Context{f.acme, f.beta} {
		l, err := f.svc.ListAlerts(ctx, grocery.ListAlertsInput{})
		if err != nil {
			t.Fatal(err)
		}
		wantRules[ctx], wantEvents[ctx] = l.Results, f.events(t, ctx, grocery.AlertEventsInput{})
	}
	if wantEvents[f.acme].Total != 2 || wantEvents[f.beta].Total != 1 {
		t.Fatalf("events in the file: acme %d, beta %d, want 2 and 1", wantEvents[f.acme].Total, wantEvents[f.beta].Total)
	}
	rs := redistest.Shared(t)
	other := newAlertFixture(t, rs) // another server's keys on the Redis: acme and beta exist there
	for i := range 2 {
		f.reopen(t, rs, grocery.Options{})
		for _, ctx := range []context.Context{f.acme, f.beta} {
			l, err := f.svc.ListAlerts(ctx, grocery.ListAlertsInput{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantRules[ctx], l.Results); diff != "" {
				t.Errorf("open %d: rules in Redis (-file +redis):\n%s", i+1, diff)
			}
			if diff := cmp.Diff(wantEvents[ctx], f.events(t, ctx, grocery.AlertEventsInput{})); diff != "" {
				t.Errorf("open %d: events in Redis (-file +redis):\n%s", i+1, diff)
			}
		}
		if ev, err := f.svc.EvaluateAlerts(context.Background()); err != nil || ev.Events != 0 {
			t.Errorf("open %d: EvaluateAlerts: got %+v, %v, want nothing new (the fired days are copied)", i+1, ev, err)
		}
	}
	r := other.create(t, other.acme, grocery.AlertInput{Name: "new", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	for _, old := range []*grocery.AlertRule{drop, below, gone} {
		if r.ID == old.ID {
			t.Errorf("new rule %s: the id of the file's rule %q", r.ID, old.Name)
		}
	}
}

// A file whose alert ids Redis has given out already (to rules of other
// servers, live or deleted) is copied renumbered after Redis's ids: no id
// names two rules, a rule deleted in Redis stays deleted, and the file's
// events follow their rule's new id.
func TestRedisAlerts_CopyRenumbers(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	other := newAlertFixture(t, rs)
	deleted := other.create(t, other.acme, grocery.AlertInput{Name: "deleted in Redis", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	if err := other.svc.DeleteAlert(other.acme, deleted.ID); err != nil {
		t.Fatal(err)
	}
	kept := other.create(t, other.beta, grocery.AlertInput{Name: "beta's in Redis", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	if deleted.ID == kept.ID {
		t.Fatalf("Redis gave two rules the id %s", kept.ID)
	}

	f := newAlertFixture(t, nil)
	fr := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	fileEvents := f.events(t, f.acme, grocery.AlertEventsInput{})
	if fileEvents.Total != 1 {
		t.Fatalf("events in the file: %d, want 1", fileEvents.Total)
	}

	f.reopen(t, rs, grocery.Options{})
	if _, err := other.svc.Alert(other.acme, deleted.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("%s, deleted in Redis before the copy: got %v, want not found", deleted.ID, err)
	}
	if r, err := other.svc.Alert(other.beta, kept.ID); err != nil || r.Name != kept.Name {
		t.Errorf("beta's %s: got %+v, %v, want %q", kept.ID, r, err, kept.Name)
	}
	l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{})
	if err != nil || len(l.Results) != 1 || l.Results[0].Name != fr.Name {
		t.Fatalf("acme's rules after the copy: %+v, %v; want the file's rule", l, err)
	}
	moved := l.Results[0].ID
	if moved == deleted.ID || moved == kept.ID {
		t.Fatalf("the file's rule copied as %s, an id Redis gave before", moved)
	}
	ev := f.events(t, f.acme, grocery.AlertEventsInput{})
	if ev.Total != 1 || ev.Results[0].RuleID != moved || ev.Results[0].ObservedAt != fileEvents.Results[0].ObservedAt {
		t.Errorf("acme's events after the copy: %+v, want the file's event on %s", ev.Results, moved)
	}
	if n := other.create(t, other.acme, grocery.AlertInput{Name: "next", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"}); n.ID == moved || n.ID == kept.ID || n.ID == deleted.ID {
		t.Errorf("next rule in Redis: %s, an id given before", n.ID)
	}
	if _, err := f.svc.EvaluateAlerts(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ev := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: moved}); ev.Total != 1 {
		t.Errorf("%s's events after an evaluation: %d, want 1 (its fired day is copied)", moved, ev.Total)
	}
	f.reopen(t, rs, grocery.Options{}) // copied once
	if l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{}); err != nil || len(l.Results) != 2 {
		t.Errorf("acme's rules after a second open: %+v, %v, want the copied one and the next", l, err)
	}
}
