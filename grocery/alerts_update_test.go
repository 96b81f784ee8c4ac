package grocery_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

func str(s string) *string { return &s }

func boolp(b bool) *bool { return &b }

// TestUpdateAlert: a changed rule keeps its id, creation time and events;
// a paused rule records nothing on import or evaluation, and records
// again once resumed.
func TestUpdateAlert(t *testing.T) { alertStores(t, testUpdateAlert) }

func testUpdateAlert(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "N1 under 4", Banner: "no-frills", SKU: "N1", Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	promo := f.create(t, f.acme, grocery.AlertInput{Name: "L1 promo", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})

	paused, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Name: str("N1 under 4.20"), Threshold: num(4.20), Active: boolp(false)})
	if err != nil {
		t.Fatal(err)
	}
	if paused.ID != r.ID || paused.Name != "N1 under 4.20" || *paused.Threshold != 4.20 || paused.Active || !paused.CreatedAt.Equal(r.CreatedAt) || paused.Standing != nil {
		t.Fatalf("updated rule: got %+v, want id %s, name N1 under 4.20, threshold 4.20, paused, created %v", paused, r.ID, r.CreatedAt)
	}
	if got, err := f.svc.Alert(f.acme, r.ID); err != nil || !cmp.Equal(got, paused) {
		t.Errorf("Alert after the update: got %+v, %v, want %+v", got, err, paused)
	}

	// Day 2: N1 3.99 crosses 4.20, but the rule is paused: nothing, on
	// import or on evaluation. L1's promotion starts: its rule records.
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if ev, err := f.svc.EvaluateAlerts(f.acme); err != nil || ev.Events != 0 || ev.Rules != 1 {
		t.Errorf("EvaluateAlerts with one rule paused: got %+v, %v, want 1 rule evaluated, 0 events", ev, err)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: r.ID}); got.Total != 0 {
		t.Errorf("a paused rule's events: got %d, want 0", got.Total)
	}
	e, err := f.svc.EvaluateAlert(f.acme, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Standing; st == nil || !st.Holds || st.Recorded || st.Event != nil {
		t.Errorf("EvaluateAlert of a paused rule: got %+v, want it to hold, nothing recorded", st)
	}

	// Resumed (and renamed), evaluated on demand: one event, reason
	// evaluate; again: the same event, nothing new.
	resumed, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: boolp(true)})
	if err != nil || !resumed.Active || resumed.Name != "N1 under 4.20" {
		t.Fatalf("resume: got %+v, %v", resumed, err)
	}
	var first *grocery.AlertEvent
	for i := range 2 {
		e, err := f.svc.EvaluateAlert(f.acme, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		st := e.Standing
		if st == nil || !st.Holds || st.Recorded != (i == 0) || st.Event == nil || st.Event.Reason != grocery.AlertReasonEvaluate || st.Event.Price != 399 {
			t.Fatalf("EvaluateAlert call %d: got %+v, want it to hold, recorded %v, the evaluate event at 3.99", i+1, st, i == 0)
		}
		if first == nil {
			first = st.Event
		} else if st.Event.ID != first.ID {
			t.Errorf("second EvaluateAlert answered event %s, want the first's %s", st.Event.ID, first.ID)
		}
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: r.ID}); got.Total != 1 {
		t.Errorf("events after two evaluations: got %d, want 1", got.Total)
	}

	// Changing the condition keeps the events; the old threshold goes with
	// the old condition.
	changed, err := f.svc.UpdateAlert(f.acme, promo.ID, grocery.AlertUpdate{Condition: str("price_drop_pct"), Threshold: num(5)})
	if err != nil || changed.Condition != "price_drop_pct" || *changed.Threshold != 5 || changed.ID != promo.ID {
		t.Fatalf("condition change: got %+v, %v", changed, err)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: promo.ID}); got.Total != 1 || got.Results[0].Reason != grocery.AlertReasonImport {
		t.Errorf("events after the condition changed: got %+v, want the import's one", got)
	}
	back, err := f.svc.UpdateAlert(f.acme, promo.ID, grocery.AlertUpdate{Condition: str("promo_start")})
	if err != nil || back.Threshold != nil {
		t.Errorf("back to promo_start without a threshold: got %+v, %v, want no threshold", back, err)
	}

	// Bad changes: a clear invalid_argument, nothing stored.
	before, err := f.svc.Alert(f.acme, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   grocery.AlertUpdate
		want string
	}{
		{"ErrNothing", grocery.AlertUpdate{}, "nothing to change: give name, condition, threshold or active"},
		{"ErrName", grocery.AlertUpdate{Name: str(" ")}, "name is required"},
		{"ErrCondition", grocery.AlertUpdate{Condition: str("cheap")}, `condition "cheap" is unknown: want one of price_below, price_above, price_drop_pct, rise_pct, promo_start, back_in_stock, listed, delisted`},
		{"ErrNoThreshold", grocery.AlertUpdate{Condition: str("price_drop_pct")}, "threshold is required for price_drop_pct"},
		{"ErrThreshold", grocery.AlertUpdate{Threshold: num(-1)}, "threshold -1 for price_below: want a price in dollars above 0"},
		{"ErrThresholdNotTaken", grocery.AlertUpdate{Condition: str("promo_start"), Threshold: num(3)}, "threshold is not taken by promo_start"},
		{"ErrUPC", grocery.AlertUpdate{UPC: str(upcMilk), Name: str("x")}, "upc cannot change"},
		{"ErrProvince", grocery.AlertUpdate{Province: str("QC")}, "province cannot change"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.UpdateAlert(f.acme, r.ID, tc.in)
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want invalid_argument containing %q", err, tc.want)
			}
		})
	}
	if after, err := f.svc.Alert(f.acme, r.ID); err != nil || !cmp.Equal(after, before) {
		t.Errorf("rule after the refused changes: got %+v, %v, want %+v", after, err, before)
	}
	if _, err := f.svc.UpdateAlert(f.beta, r.ID, grocery.AlertUpdate{Active: boolp(false)}); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("another account's update: got %v, want not_found", err)
	}
	if _, err := f.svc.EvaluateAlert(f.beta, r.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("another account's evaluation: got %v, want not_found", err)
	}
	if _, err := f.svc.UpdateAlert(f.acme, "alr_x", grocery.AlertUpdate{Active: boolp(false)}); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
		t.Errorf("malformed id: got %v, want invalid_argument", err)
	}
}

// TestEvaluateAlerts_Reason: the events of 'alerts evaluate' carry reason
// evaluate, an import's reason import.
func TestEvaluateAlerts_Reason(t *testing.T) { alertStores(t, testEvaluateAlertsReason) }

func testEvaluateAlertsReason(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	// Created paused (through an update) before day 2, resumed after it:
	// only an evaluation sees day 2's drop.
	r := f.create(t, f.acme, grocery.AlertInput{Name: "drop", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "price_drop_pct", Threshold: num(10)})
	if _, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: boolp(false)}); err != nil {
		t.Fatal(err)
	}
	f.setClock(time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if _, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: boolp(true)}); err != nil {
		t.Fatal(err)
	}
	if ev, err := f.svc.EvaluateAlerts(f.acme); err != nil || ev.Events != 1 {
		t.Fatalf("EvaluateAlerts: got %+v, %v, want 1 event", ev, err)
	}
	f.importCSV(t, "day3.csv", alertDay3)
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	if got.Total != 2 || got.Results[0].Reason != grocery.AlertReasonImport || got.Results[1].Reason != grocery.AlertReasonEvaluate {
		t.Errorf("got %+v, want day 3's event by import, day 2's by evaluate", got)
	}
}

// TestCreateAlert_Standing: at creation the state conditions record an
// event when they already hold (promo_start on a day on promotion), the
// change conditions never (price_drop_pct after a 10% drop); evaluated
// on demand, the change condition holds on the latest day's move.
func TestCreateAlert_Standing(t *testing.T) { alertStores(t, testCreateAlertStanding) }

func testCreateAlertStanding(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)

	promo := f.create(t, f.acme, grocery.AlertInput{Name: "promo", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	if st := promo.Standing; st == nil || !st.Holds || !st.Recorded || st.Event == nil || st.Event.Reason != grocery.AlertReasonAtCreation || len(st.Series) != 1 || !st.Series[0].OnPromo || st.Series[0].RegularPrice != 500 {
		t.Errorf("promo_start on a day on promotion: got %+v, want an at_creation event, on promotion, regular 5.00", st)
	}
	drop := f.create(t, f.acme, grocery.AlertInput{Name: "drop", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "price_drop_pct", Threshold: num(10)})
	if st := drop.Standing; st == nil || st.Holds || st.Recorded || st.Event != nil || len(st.Series) != 1 || st.Series[0].PreviousPrice == nil || *st.Series[0].PreviousPrice != 500 {
		t.Errorf("price_drop_pct at creation after a 10%% drop: got %+v, want it not to hold, previous price 5.00", st)
	}
	e, err := f.svc.EvaluateAlert(f.acme, drop.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := e.Standing; st == nil || !st.Holds || !st.Recorded || st.Event == nil || st.Event.Reason != grocery.AlertReasonEvaluate || st.Event.Price != 450 {
		t.Errorf("price_drop_pct evaluated on demand: got %+v, want the drop to 4.50 recorded, reason evaluate", st)
	}
	// A barcode rule watching no series observed in the 14 days: nothing
	// to stand on.
	f.setClock(time.Date(2026, 12, 30, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "late.csv", alertObsHeader+"2026-12-20,lob-1,loblaws,L9,2.00,2.00,,,,,\n")
	stale := f.create(t, f.acme, grocery.AlertInput{Name: "stale", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(9)})
	if st := stale.Standing; st == nil || st.Holds || len(st.Series) != 0 || st.AsOf.String() != "2026-12-20" {
		t.Errorf("a rule on series not observed in 14 days: got %+v, want no series, as of 2026-12-20", st)
	}
}

// TestRedisAlerts_CopiesPausedRule: a rule paused in the data file stays
// paused once the file's rules are copied to Redis, and records nothing
// there.
func TestRedisAlerts_CopiesPausedRule(t *testing.T) {
	t.Parallel()
	f := newAlertFixture(t, nil)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "N1 under 4", Banner: "no-frills", SKU: "N1", Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	if _, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: boolp(false)}); err != nil {
		t.Fatal(err)
	}
	rs := redistest.Shared(t)
	newAlertFixture(t, rs) // the accounts' keys on the Redis
	f.reopen(t, rs, grocery.Options{})
	if got, err := f.svc.Alert(f.acme, r.ID); err != nil || got.Active {
		t.Fatalf("the paused rule in Redis: got %+v, %v, want it paused", got, err)
	}
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2) // N1 3.99 crosses 4.00
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 0 {
		t.Errorf("events of the paused rule after the copy: got %d, want 0", got.Total)
	}
	if _, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: boolp(true)}); err != nil {
		t.Fatal(err)
	}
	if ev, err := f.svc.EvaluateAlerts(f.acme); err != nil || ev.Events != 1 {
		t.Errorf("EvaluateAlerts once resumed: got %+v, %v, want the crossing recorded", ev, err)
	}
}
