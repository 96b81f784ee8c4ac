package grocery_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/storage"
)

// alertFixture is a data file with four Ontario stores (three Loblaws, one
// No Frills), the milk of upcMilk under loblaws L1 and no-frills N1, two
// accounts (acme and beta) and a clock the test moves.
type alertFixture struct {
	svc        *grocery.Service
	path       string
	acme, beta context.Context
	mu         sync.Mutex
	now        time.Time
}

func (f *alertFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *alertFixture) setClock(t time.Time) {
	f.mu.Lock()
	f.now = t
	f.mu.Unlock()
}

const alertStoresCSV = "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
	"lob-1,loblaws,ON,Loblaws 1,Toronto,M5V 2T6,43.64,-79.39\n" +
	"lob-2,loblaws,ON,Loblaws 2,Toronto,M4C 1B5,43.68,-79.31\n" +
	"lob-3,loblaws,ON,Loblaws 3,Ottawa,K1P 5J2,45.42,-75.69\n" +
	"nf-1,no-frills,ON,No Frills 1,Hamilton,L8P 4R5,43.25,-79.87\n"

const alertObsHeader = "date,store_id,banner,external_sku,price,regular_price,upc,name,brand,size,category\n"

// Day 1, 2026-11-20: loblaws L1 at 5.00, 5.00, 5.20 (median 5.00, no
// promotion); no-frills N1 at 4.50.
const alertDay1 = alertObsHeader +
	"2026-11-20,lob-1,loblaws,L1,5.00,5.00,068000000154,2% Milk,Natrel,2 L,Dairy\n" +
	"2026-11-20,lob-2,loblaws,L1,5.00,5.00,,,,,\n" +
	"2026-11-20,lob-3,loblaws,L1,5.20,5.20,,,,,\n" +
	"2026-11-20,nf-1,no-frills,N1,4.50,4.50,068000000154,,,,\n"

// Day 2, 2026-11-21: loblaws L1 on promotion at all three stores, 4.40,
// 4.50, 4.50 (regular 5.00): median 4.50, 10% below 5.00. No Frills 3.99
// (regular 4.50).
const alertDay2 = alertObsHeader +
	"2026-11-21,lob-1,loblaws,L1,4.40,5.00,,,,,\n" +
	"2026-11-21,lob-2,loblaws,L1,4.50,5.00,,,,,\n" +
	"2026-11-21,lob-3,loblaws,L1,4.50,5.00,,,,,\n" +
	"2026-11-21,nf-1,no-frills,N1,3.99,4.50,,,,,\n"

// Day 3, 2026-11-22: loblaws 4.00, 4.00, 4.05 (regular 5.00): median 4.00,
// (4.50-4.00)/4.50 = 11.1% below day 2, still on promotion. No Frills 3.89.
const alertDay3 = alertObsHeader +
	"2026-11-22,lob-1,loblaws,L1,4.00,5.00,,,,,\n" +
	"2026-11-22,lob-2,loblaws,L1,4.00,5.00,,,,,\n" +
	"2026-11-22,lob-3,loblaws,L1,4.05,5.00,,,,,\n" +
	"2026-11-22,nf-1,no-frills,N1,3.89,4.50,,,,,\n"

// alertStores runs test with rules and events in the data file (rs nil)
// and in Redis, under a prefix of the test's own on the shared server.
func alertStores(t *testing.T, test func(t *testing.T, rs *redistest.Server)) {
	t.Parallel()
	t.Run("bbolt", func(t *testing.T) { t.Parallel(); test(t, nil) })
	t.Run("redis", func(t *testing.T) { t.Parallel(); test(t, redistest.Shared(t)) })
}

// newAlertFixture opens the fixture's data file, with keys, rules and
// events in the Redis rs (under its prefix) when it is not nil.
func newAlertFixture(t *testing.T, rs *redistest.Server) *alertFixture {
	t.Helper()
	f := &alertFixture{now: time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC), path: filepath.Join(t.TempDir(), "grocery.db")}
	opts := &grocery.Options{Now: f.clock}
	if rs != nil {
		opts.Shared = grocery.RedisStore(rs.URL(), rs.Prefix())
	}
	svc, err := grocery.Open(f.path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	f.svc = svc
	ctx := context.Background()
	for _, acct := range []string{"acme", "beta"} {
		if _, err := svc.CreateKey(ctx, grocery.KeyInput{Account: acct, Plan: "integration"}); err != nil {
			t.Fatal(err)
		}
	}
	f.acme = grocery.NewContextWithAccount(ctx, "acme")
	f.beta = grocery.NewContextWithAccount(ctx, "beta")
	f.importCSV(t, "stores.csv", alertStoresCSV)
	f.importCSV(t, "day1.csv", alertDay1)
	return f
}

func (f *alertFixture) importCSV(t *testing.T, name, content string) *grocery.ImportReport {
	t.Helper()
	rep, err := f.svc.Import(context.Background(), name, strings.NewReader(content), nil)
	if err != nil {
		t.Fatalf("Import(%s): %v", name, err)
	}
	return rep
}

func (f *alertFixture) create(t *testing.T, ctx context.Context, in grocery.AlertInput) *grocery.AlertRule {
	t.Helper()
	r, err := f.svc.CreateAlert(ctx, in)
	if err != nil {
		t.Fatalf("CreateAlert(%+v): %v", in, err)
	}
	return r
}

func (f *alertFixture) events(t *testing.T, ctx context.Context, in grocery.AlertEventsInput) *grocery.AlertEventList {
	t.Helper()
	l, err := f.svc.AlertEvents(ctx, in)
	if err != nil {
		t.Fatalf("AlertEvents: %v", err)
	}
	return l
}

// settledEvents returns ctx's events once the evaluation an open runs in
// the background has ended.
func (f *alertFixture) settledEvents(t *testing.T, ctx context.Context) *grocery.AlertEventList {
	t.Helper()
	grocery.AlertsSettled(f.svc)
	return f.events(t, ctx, grocery.AlertEventsInput{})
}

func num(v float64) *float64 { return &v }

func cents(c grocery.Cents) *grocery.Cents { return &c }

// eventKey is what the tests compare of an event.
type eventKey struct {
	Rule, Banner string
	Day          string
	Price        grocery.Cents
	Previous     *grocery.Cents
}

func keysOf(l *grocery.AlertEventList, names map[string]string) []eventKey {
	out := []eventKey{}
	for _, e := range l.Results {
		out = append(out, eventKey{names[e.RuleID], e.Banner, e.ObservedAt.String(), e.Price, e.PreviousPrice})
	}
	return out
}

func TestAlerts_FireOnImport(t *testing.T) { alertStores(t, testAlertsFireOnImport) }

func testAlertsFireOnImport(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	drop := f.create(t, f.acme, grocery.AlertInput{Name: "L1 drop", Banner: "Loblaws", SKU: "L1", Province: "ontario",
		Condition: "price_drop_pct", Threshold: num(10)})
	below := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: "0 68000 00015 4", Province: "ON",
		Condition: "price_below", Threshold: num(4)})
	promo := f.create(t, f.acme, grocery.AlertInput{Name: "milk promo at loblaws", UPC: upcMilk, Banner: "loblaws",
		Province: "ON", Condition: "promo_start"})
	names := map[string]string{drop.ID: "drop", below.ID: "below", promo.ID: "promo"}

	want := &grocery.AlertRule{ID: below.ID, Name: "milk under 4", UPC: upcMilk, GTIN: "00" + upcMilk, Province: "ON",
		Condition: "price_below", Threshold: num(4), Active: true, CreatedAt: time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC),
		Standing: &grocery.AlertStanding{AsOf: day(t, "2026-11-20"), Currency: "CAD", Series: []grocery.AlertSeriesStanding{
			{Banner: "no-frills", BannerName: "No Frills", SKU: "N1", Price: 450, RegularPrice: 450, ObservedAt: day(t, "2026-11-20")},
			{Banner: "loblaws", BannerName: "Loblaws", SKU: "L1", Price: 500, RegularPrice: 500, ObservedAt: day(t, "2026-11-20")},
		}}}
	if diff := cmp.Diff(want, below); diff != "" {
		t.Errorf("created rule (-want +got):\n%s", diff)
	}
	if drop.Banner != "loblaws" || drop.SKU != "L1" || drop.Province != "ON" || *drop.Threshold != 10 {
		t.Errorf("got %+v, want banner loblaws, sku L1, province ON, threshold 10", drop)
	}

	// Day 1 is before the rules: evaluating it finds no crossing (5.00
	// and 4.50 are above 4.00; no previous day to drop from; no promotion).
	ev, err := f.svc.EvaluateAlerts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ev.Rules != 3 || ev.Events != 0 {
		t.Errorf("evaluate after day 1: got %+v, want 3 rules, 0 events", ev)
	}

	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	// Day 2: loblaws median 4.50 is (5.00-4.50)/5.00 = 10% below 5.00:
	// drop fires; all three loblaws stores on promotion after none:
	// promo fires; no-frills 3.99 <= 4.00 after 4.50: below fires
	// (loblaws' 4.50 is above 4.00).
	wantDay2 := []eventKey{
		{"promo", "loblaws", "2026-11-21", 450, cents(500)},
		{"below", "no-frills", "2026-11-21", 399, cents(450)},
		{"drop", "loblaws", "2026-11-21", 450, cents(500)},
	}
	if diff := cmp.Diff(wantDay2, keysOf(got, names)); diff != "" || got.Total != 3 {
		t.Fatalf("events after day 2 (total %d, want 3) (-want +got):\n%s", got.Total, diff)
	}
	e := got.Results[1]
	if e.UPC == nil || *e.UPC != upcMilk || e.SKU != "N1" || e.Province != "ON" || e.Condition != "price_below" ||
		e.Currency != "CAD" || !e.TriggeredAt.Equal(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)) {
		t.Errorf("got event %+v, want upc %s, sku N1, ON, price_below, CAD, triggered at the clock", e, upcMilk)
	}
	if want := "milk under 4: 2% Milk at No Frills in ON is $3.99 on 2026-11-21, at or below $4.00 (was $4.50 on 2026-11-20)"; e.Message != want {
		t.Errorf("got message %q, want %q", e.Message, want)
	}

	// A re-import records nothing new, nor does evaluating again.
	f.importCSV(t, "day2.csv", alertDay2)
	if ev, err := f.svc.EvaluateAlerts(context.Background()); err != nil || ev.Events != 0 {
		t.Errorf("evaluate after re-import: got %+v, %v, want 0 events", ev, err)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 3 {
		t.Fatalf("after re-import: got %d events, want 3", got.Total)
	}

	f.setClock(time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day3.csv", alertDay3)
	// Day 3: loblaws 4.00 is 11.1% below 4.50: drop fires again; 4.00 <=
	// 4.00 after 4.50: below fires for loblaws; no-frills 3.89 was already
	// below (3.99): no crossing; loblaws stays on promotion: no start.
	got = f.events(t, f.acme, grocery.AlertEventsInput{Since: "2026-11-22T00:00:00Z"})
	wantDay3 := []eventKey{
		{"below", "loblaws", "2026-11-22", 400, cents(450)},
		{"drop", "loblaws", "2026-11-22", 400, cents(450)},
	}
	if diff := cmp.Diff(wantDay3, keysOf(got, names)); diff != "" {
		t.Errorf("events since day 3 (-want +got):\n%s", diff)
	}
	all := f.events(t, f.acme, grocery.AlertEventsInput{})
	if all.Total != 5 || all.Results[0].ObservedAt.String() != "2026-11-22" || all.Results[4].ObservedAt.String() != "2026-11-21" {
		t.Errorf("got %d events, newest %v, oldest %v: want 5, newest first", all.Total, all.Results[0].ObservedAt, all.Results[len(all.Results)-1].ObservedAt)
	}
	byRule := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: drop.ID, Limit: grocery.Some(1), Offset: 1})
	if byRule.Total != 2 || len(byRule.Results) != 1 || byRule.Results[0].ObservedAt.String() != "2026-11-21" {
		t.Errorf("drop's events, second page of 1: got %+v, want total 2 and the day 2 event", byRule)
	}

	// A rule created now on a price already under its threshold records
	// its event at creation (loblaws 4.00 <= 4.25 on day 3); evaluating
	// the window then finds that day's event recorded.
	late := f.create(t, f.acme, grocery.AlertInput{Name: "late", Banner: "loblaws", SKU: "L1", Province: "ON",
		Condition: "price_below", Threshold: num(4.25)})
	if st := late.Standing; st == nil || !st.Recorded || st.Event == nil || st.Event.Reason != grocery.AlertReasonAtCreation {
		t.Errorf("late rule's standing: got %+v, want an event recorded at creation", st)
	}
	ev, err = f.svc.EvaluateAlerts(f.acme)
	if err != nil || ev.Rules != 4 || ev.Events != 0 || ev.From.String() != "2026-11-09" || ev.To.String() != "2026-11-22" {
		t.Errorf("evaluate with a new rule: got %+v, %v, want 4 rules, 0 events, 2026-11-09..2026-11-22", ev, err)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: late.ID}); got.Total != 1 || got.Results[0].Price != 400 || got.Results[0].Reason != grocery.AlertReasonAtCreation {
		t.Errorf("late rule's events: got %+v, want one at 4.00, at creation", got)
	}

	// Deleting a rule keeps its events.
	if err := f.svc.DeleteAlert(f.acme, drop.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Alert(f.acme, drop.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("Alert(deleted): got %v, want not_found", err)
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: drop.ID}); got.Total != 2 {
		t.Errorf("deleted rule's events: got %d, want 2", got.Total)
	}
}

// A barcode rule watches every banner: when two cross the same day, one
// event is recorded, at the lower price.
func TestAlerts_OneEventPerRuleAndDay(t *testing.T) { alertStores(t, testAlertsOneEventPerRuleAndDay) }

func testAlertsOneEventPerRuleAndDay(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "any banner", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4.45)})
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	// Day 2: loblaws 4.40 <= 4.45 after 5.00; no-frills 4.30 <= 4.45 after
	// 4.50: both cross; one event, no-frills at 4.30.
	f.importCSV(t, "day2.csv", alertObsHeader+
		"2026-11-21,lob-1,loblaws,L1,4.40,5.00,,,,,\n"+
		"2026-11-21,nf-1,no-frills,N1,4.30,4.50,,,,,\n")
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-11-21", 430, cents(450)}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Conditions that look at a series' history: back_in_stock after a gap of
// 14 days or on a first observation, and no event for days older than the
// 14-day window.
func TestAlerts_BackInStock(t *testing.T) { alertStores(t, testAlertsBackInStock) }

func testAlertsBackInStock(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "back", Banner: "no-frills", SKU: "N1", Province: "ON", Condition: "back_in_stock"})
	f.setClock(time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC))
	// 2026-12-03 is 13 days after 2026-11-20: not back in stock.
	f.importCSV(t, "d13.csv", alertObsHeader+"2026-12-03,nf-1,no-frills,N1,4.50,4.50,,,,,\n")
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 0 {
		t.Fatalf("after a 13-day gap: got %d events, want 0", got.Total)
	}
	// 2026-12-18 is 15 days after 2026-12-03, whose price was in force
	// through 2026-12-16: off the shelf on 2026-12-17, back on 2026-12-18.
	// (On 2026-12-17 itself the new price would take over the day the old
	// one left the window: never off the shelf.)
	f.setClock(time.Date(2026, 12, 18, 12, 0, 0, 0, time.UTC))
	f.importCSV(t, "d15.csv", alertObsHeader+"2026-12-18,nf-1,no-frills,N1,4.60,4.60,,,,,\n")
	got := f.events(t, f.acme, grocery.AlertEventsInput{})
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-12-18", 460, nil}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if want := "back: 2% Milk at No Frills in ON is $4.60 on 2026-12-18: back on the shelf after leaving it on 2026-12-17"; got.Total == 1 && got.Results[0].Message != want {
		t.Errorf("got message %q, want %q", got.Results[0].Message, want)
	}
}

func TestAlerts_Isolation(t *testing.T) { alertStores(t, testAlertsIsolation) }

func testAlertsIsolation(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "acme's", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2)
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 1 {
		t.Fatalf("acme: got %d events, want 1", got.Total)
	}

	if l, err := f.svc.ListAlerts(f.beta, grocery.ListAlertsInput{}); err != nil || l.Total != 0 || len(l.Results) != 0 {
		t.Errorf("beta ListAlerts: got %+v, %v, want none", l, err)
	}
	if _, err := f.svc.Alert(f.beta, r.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("beta Alert(acme's): got %v, want not_found", err)
	}
	if err := f.svc.DeleteAlert(f.beta, r.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("beta DeleteAlert(acme's): got %v, want not_found", err)
	}
	if got := f.events(t, f.beta, grocery.AlertEventsInput{}); got.Total != 0 || len(got.Results) != 0 {
		t.Errorf("beta events: got %+v, want none", got)
	}
	if got := f.events(t, f.beta, grocery.AlertEventsInput{RuleID: r.ID}); got.Total != 0 {
		t.Errorf("beta events of acme's rule: got %+v, want none", got)
	}
	if ev, err := f.svc.EvaluateAlerts(f.beta); err != nil || ev.Rules != 0 || ev.Events != 0 {
		t.Errorf("beta evaluate: got %+v, %v, want nothing", ev, err)
	}
	// acme's rule is intact.
	if got, err := f.svc.Alert(f.acme, r.ID); err != nil || got.Name != "acme's" {
		t.Errorf("acme Alert: got %+v, %v", got, err)
	}

	// No account, or an unknown one.
	if _, err := f.svc.ListAlerts(context.Background(), grocery.ListAlertsInput{}); grocery.ErrorCode(err) != grocery.EUNAUTHENTICATED {
		t.Errorf("no account: got %v, want unauthenticated", err)
	}
	ghost := grocery.NewContextWithAccount(context.Background(), "ghost")
	if _, err := f.svc.CreateAlert(ghost, grocery.AlertInput{Name: "x", UPC: upcMilk, Province: "ON", Condition: "promo_start"}); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("unknown account: got %v, want not_found", err)
	}
}

func TestCreateAlert_Invalid(t *testing.T) { alertStores(t, testCreateAlertInvalid) }

func testCreateAlertInvalid(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	ok := grocery.AlertInput{Name: "n", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)}
	with := func(change func(*grocery.AlertInput)) grocery.AlertInput {
		in := ok
		change(&in)
		return in
	}
	for _, tc := range []struct {
		name string
		in   grocery.AlertInput
		want string // in the message
	}{
		{"ErrNoName", with(func(in *grocery.AlertInput) { in.Name = " " }), "name is required"},
		{"ErrLongName", with(func(in *grocery.AlertInput) { in.Name = strings.Repeat("x", 101) }), "name: want 1 to 100"},
		{"ErrUPCAndSKU", with(func(in *grocery.AlertInput) { in.SKU = "L1"; in.Banner = "loblaws" }), "upc and sku are both given"},
		{"ErrNeither", with(func(in *grocery.AlertInput) { in.UPC = "" }), "upc or sku is required"},
		{"ErrCheckDigit", with(func(in *grocery.AlertInput) { in.UPC = "068000000155" }), "wrong check digit"},
		{"ErrUnknownUPC", with(func(in *grocery.AlertInput) { in.UPC = upcUnknown }), "not in the catalogue"},
		{"ErrSKUWithoutBanner", with(func(in *grocery.AlertInput) { in.UPC, in.SKU = "", "L1" }), "banner is required with sku"},
		{"ErrUnknownSKU", with(func(in *grocery.AlertInput) { in.UPC, in.SKU, in.Banner = "", "NOPE", "loblaws" }), `sku "NOPE": banner loblaws has no such external_sku`},
		{"ErrBarcodeAsSKU", with(func(in *grocery.AlertInput) { in.UPC, in.SKU, in.Banner = "", upcMilk, "loblaws" }), "is a barcode, not an external_sku"},
		{"ErrUnknownBanner", with(func(in *grocery.AlertInput) { in.Banner = "costco-ish" }), "banner"},
		{"ErrBannerNotInProvince", with(func(in *grocery.AlertInput) { in.Banner = "maxi" }), "banner maxi has no stores in province ON"},
		{"ErrNoProvince", with(func(in *grocery.AlertInput) { in.Province = "" }), "province"},
		{"ErrUnknownProvince", with(func(in *grocery.AlertInput) { in.Province = "XX" }), "province"},
		{"ErrNoCondition", with(func(in *grocery.AlertInput) { in.Condition = "" }), "condition is required: want one of price_below, price_above, price_drop_pct, rise_pct, promo_start, back_in_stock, listed, delisted"},
		{"ErrUnknownCondition", with(func(in *grocery.AlertInput) { in.Condition = "price_over" }), `condition "price_over" is unknown: want one of price_below, price_above, price_drop_pct, rise_pct, promo_start, back_in_stock, listed, delisted`},
		{"ErrNoThreshold", with(func(in *grocery.AlertInput) { in.Threshold = nil }), "threshold is required for price_below"},
		{"ErrThreeDecimals", with(func(in *grocery.AlertInput) { in.Threshold = num(3.999) }), "threshold 3.999 for price_below"},
		{"ErrZeroPrice", with(func(in *grocery.AlertInput) { in.Threshold = num(0) }), "above 0"},
		{"ErrNoPercent", with(func(in *grocery.AlertInput) { in.Condition, in.Threshold = "price_drop_pct", nil }), "threshold is required for price_drop_pct"},
		{"ErrPercent100", with(func(in *grocery.AlertInput) { in.Condition, in.Threshold = "price_drop_pct", num(100) }), "below 100"},
		{"ErrThresholdNotTaken", with(func(in *grocery.AlertInput) { in.Condition = "promo_start" }), "threshold is not taken by promo_start"},
		{"ErrThresholdNotTakenStock", with(func(in *grocery.AlertInput) { in.Condition = "back_in_stock" }), "threshold is not taken by back_in_stock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.CreateAlert(f.acme, tc.in)
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want invalid_argument containing %q", err, tc.want)
			}
		})
	}
	if l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{}); err != nil || l.Total != 0 {
		t.Errorf("after rejected rules: got %+v, %v, want none stored", l, err)
	}
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"ErrLimit", func() error {
			_, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{Limit: grocery.Some(501)})
			return err
		}, "limit 501 is out of range: want 1 to 500"},
		{"ErrOffset", func() error { _, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{Offset: -1}); return err }, "offset -1 is out of range: want 0 to 1000000"},
		{"ErrSince", func() error {
			_, err := f.svc.AlertEvents(f.acme, grocery.AlertEventsInput{Since: "yesterday"})
			return err
		}, `since "yesterday"`},
		{"ErrRuleID", func() error { _, err := f.svc.AlertEvents(f.acme, grocery.AlertEventsInput{RuleID: "7"}); return err }, `rule_id "7" is not an alert rule id: want alr_ and 16 hexadecimal digits`},
		{"ErrID", func() error { _, err := f.svc.Alert(f.acme, "evt_1"); return err }, "alert rule id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want invalid_argument containing %q", err, tc.want)
			}
		})
	}
}

func TestCreateAlert_Limit(t *testing.T) { alertStores(t, testCreateAlertLimit) }

func testCreateAlertLimit(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	in := grocery.AlertInput{Name: "n", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"}
	var last *grocery.AlertRule
	for range grocery.MaxAlertRules {
		last = f.create(t, f.acme, in)
	}
	_, err := f.svc.CreateAlert(f.acme, in)
	if grocery.ErrorCode(err) != grocery.ECONFLICT || !strings.Contains(err.Error(), "1000 alert rules, the most an account may hold") {
		t.Fatalf("rule 1001: got %v, want conflict naming the limit", err)
	}
	// Another account is not limited by acme's rules; a deletion makes room.
	f.create(t, f.beta, in)
	if err := f.svc.DeleteAlert(f.acme, last.ID); err != nil {
		t.Fatal(err)
	}
	f.create(t, f.acme, in)
	l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{Limit: grocery.Some(500), Offset: 900})
	if err != nil || l.Total != 1000 || len(l.Results) != 100 || l.Limit != 500 || l.Offset != 900 {
		t.Errorf("ListAlerts offset 900: got total %d, %d results, %v; want 1000, 100", l.Total, len(l.Results), err)
	}
}

func TestAlerts_IDsCarryNoCount(t *testing.T) { alertStores(t, testAlertsIDsCarryNoCount) }

// Rule and event ids tell an account nothing of the other accounts'
// rules and events: between two rules of acme, beta creates six, and
// acme's ids are 16 hex digits far apart (two numbers of a random
// permutation of 2^64 fall within 2^40 of each other with probability
// 2^-23), not alr_1 and alr_8. Each id still finds its rule, for its
// account only; a rule's and an event's number do not give the same
// digits.
func testAlertsIDsCarryNoCount(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	first := f.create(t, f.acme, grocery.AlertInput{Name: "first", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	for i := range 6 {
		f.create(t, f.beta, grocery.AlertInput{Name: fmt.Sprint("beta ", i), Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "promo_start"})
	}
	second := f.create(t, f.acme, grocery.AlertInput{Name: "second", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "price_below", Threshold: num(4.60)})
	form := regexp.MustCompile(`^alr_[0-9a-f]{16}$`)
	var n [2]uint64
	for i, r := range []*grocery.AlertRule{first, second} {
		if !form.MatchString(r.ID) {
			t.Fatalf("rule id %q: want alr_ and 16 hex digits", r.ID)
		}
		n[i], _ = strconv.ParseUint(r.ID[4:], 16, 64)
		got, err := f.svc.Alert(f.acme, r.ID)
		if err != nil || got.Name != r.Name {
			t.Errorf("Alert(acme, %s) = %+v, %v; want %q", r.ID, got, err, r.Name)
		}
		if _, err := f.svc.Alert(f.beta, r.ID); grocery.ErrorCode(err) != grocery.ENOTFOUND {
			t.Errorf("Alert(beta, acme's %s): %v, want not found", r.ID, err)
		}
	}
	if d := max(n[0], n[1]) - min(n[0], n[1]); d < 1<<40 {
		t.Errorf("acme's ids %s and %s are %d apart: they count the rules between them", first.ID, second.ID, d)
	}
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "day2.csv", alertDay2) // L1 on promotion at 4.50: both rules fire
	ev := f.events(t, f.acme, grocery.AlertEventsInput{})
	if ev.Total != 2 {
		t.Fatalf("acme's events: %d, want 2", ev.Total)
	}
	for _, e := range ev.Results {
		if !regexp.MustCompile(`^evt_[0-9a-f]{16}$`).MatchString(e.ID) || e.ID[4:] == e.RuleID[4:] {
			t.Errorf("event %s of rule %s: want evt_ and 16 hex digits of its own", e.ID, e.RuleID)
		}
	}
	if l := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: second.ID}); l.Total != 1 || l.Results[0].RuleID != second.ID {
		t.Errorf("events of %s: %+v, want its one", second.ID, l.Results)
	}
	// An id in the decimal form rules had before (acme's first rule is
	// the store's first, alr_1) still names the rule, for its account
	// only, and is answered with the id of today's form.
	if got, err := f.svc.Alert(f.acme, "alr_1"); err != nil || got.ID != first.ID {
		t.Errorf("Alert(acme, alr_1) = %+v, %v; want %s", got, err, first.ID)
	}
	if _, err := f.svc.Alert(f.beta, "alr_1"); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("Alert(beta, alr_1): %v, want not found", err)
	}
	if l := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: "alr_1"}); l.Total != 1 || l.Results[0].RuleID != first.ID {
		t.Errorf("events of alr_1: %+v, want the first rule's one", l.Results)
	}
}

// TestAlertsOwedAtOpen: a write that committed but whose process died
// before its alert evaluation recorded the events leaves the file's owed
// mark; the next writable open evaluates what is owed, with the rules in
// the data file as in a shared store (TestRedisAlerts_OwedAtOpen).
func TestAlertsOwedAtOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newAlertFixture(t, nil)
	r := f.create(t, f.acme, grocery.AlertInput{Name: "milk under 4", UPC: upcMilk, Province: "ON", Condition: "price_below", Threshold: num(4)})
	// Day 2 puts No Frills' milk at 3.99 while the rule is paused, so that
	// nothing records its event; the rule is then resumed.
	for _, active := range []bool{false, true} {
		if _, err := f.svc.UpdateAlert(f.acme, r.ID, grocery.AlertUpdate{Active: &active}); err != nil {
			t.Fatal(err)
		}
		if !active {
			f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
			f.importCSV(t, "day2.csv", alertDay2)
		}
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{}); got.Total != 0 {
		t.Fatalf("%d events before the crash's mark: want none", got.Total)
	}
	if err := f.svc.Close(); err != nil {
		t.Fatal(err)
	}
	// The mark day 2's import would have left had its process died
	// between its commit and its evaluation, the rule active.
	db, err := storage.Open(f.path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	day2, _ := grocery.ParseDate("2026-11-21")
	if err := db.Update(func(tx *storage.Tx) error { return tx.OweAlerts(int32(day2)) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	svc, err := grocery.Open(f.path, &grocery.Options{Now: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	f.svc = svc
	got := f.settledEvents(t, f.acme)
	if diff := cmp.Diff([]eventKey{{"r", "no-frills", "2026-11-21", 399, cents(450)}}, keysOf(got, map[string]string{r.ID: "r"})); diff != "" {
		t.Fatalf("events after reopening (-want +got):\n%s", diff)
	}
	if reason := got.Results[0].Reason; reason != grocery.AlertReasonImport {
		t.Errorf("reason %q, want %q", reason, grocery.AlertReasonImport)
	}
	// Settled: evaluating again records nothing.
	res, err := svc.EvaluateAlerts(ctx)
	if err != nil || res.Events != 0 {
		t.Errorf("EvaluateAlerts after the settle: %+v, %v; want no new event", res, err)
	}
}
