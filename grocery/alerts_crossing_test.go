package grocery_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

// hover creates a rule on No Frills N1 (one store, nf-1: its price in
// force is that store's) after the fixture's day 1 (4.50), then imports
// one day at a time from 2026-11-21 at the prices given (price/regular,
// or price alone for a regular price), and returns the days of the
// rule's events and their prices, oldest first.
func hover(t *testing.T, rs *redistest.Server, in grocery.AlertInput, prices ...string) []string {
	t.Helper()
	f := newAlertFixture(t, rs)
	in.Name, in.Banner, in.SKU, in.Province = "r", "no-frills", "N1", "ON"
	r := f.create(t, f.acme, in)
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, p := range prices {
		price, regular, _ := strings.Cut(p, "/")
		if regular == "" {
			regular = price
		}
		f.setClock(day.Add(18 * time.Hour))
		f.importCSV(t, "day.csv", fmt.Sprintf("%s%s,nf-1,no-frills,N1,%s,%s,,,,,\n", alertObsHeader, day.Format("2006-01-02"), price, regular))
		day = day.AddDate(0, 0, 1)
	}
	got := []string{}
	l := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: r.ID, Limit: grocery.Some(500)})
	for i := len(l.Results) - 1; i >= 0; i-- {
		e := l.Results[i]
		if e.Reason != grocery.AlertReasonImport {
			t.Errorf("event %+v: reason %q, want import", e, e.Reason)
		}
		got = append(got, e.ObservedAt.String()+" "+e.Price.String())
	}
	return got
}

// A price hovering around a rule's threshold fires it once per crossing:
// after firing, a rule re-arms only once the price has moved back past the
// threshold by 2% of it (or, for a move, past the price it fired at).
func TestAlerts_Hovering(t *testing.T) { alertStores(t, testAlertsHovering) }

func testAlertsHovering(t *testing.T, rs *redistest.Server) {
	tests := []struct {
		name   string
		in     grocery.AlertInput
		prices []string
		want   []string
	}{{
		// Margin: 2% of 4.00 is 0.08, so 4.01 and 4.05 leave it fired
		// (not above 4.08) and 4.10 re-arms it.
		name:   "price_below",
		in:     grocery.AlertInput{Condition: "price_below", Threshold: num(4)},
		prices: []string{"3.99", "4.01", "3.99", "4.05", "3.98", "4.10", "3.99"},
		want:   []string{"2026-11-21 3.99", "2026-11-27 3.99"},
	}, {
		// Margin: 2% of 4.60 is 0.092, rounded up 0.10: a price must go
		// under 4.50 to re-arm; 4.59 and 4.55 do not.
		name:   "price_above",
		in:     grocery.AlertInput{Condition: "price_above", Threshold: num(4.60)},
		prices: []string{"4.60", "4.59", "4.61", "4.55", "4.62", "4.49", "4.60"},
		want:   []string{"2026-11-21 4.60", "2026-11-27 4.60"},
	}, {
		// 4.50 -> 4.05 is 10.0% down: fires. 4.10 -> 4.05 is 1.2%. Back
		// at 4.50, above 4.05 + 0.09 (2% of 4.05, rounded up): re-armed,
		// and 4.50 -> 4.05 fires again. 4.05 -> 3.60 is 11.1% down and
		// 10% under the 4.05 it fired at: a further move, it fires.
		name:   "price_drop_pct",
		in:     grocery.AlertInput{Condition: "price_drop_pct", Threshold: num(10)},
		prices: []string{"4.05", "4.10", "4.05", "4.50", "4.05", "3.60", "3.62"},
		want:   []string{"2026-11-21 4.05", "2026-11-25 4.05", "2026-11-26 3.60"},
	}, {
		// 4.50 -> 4.95 is 10.0% up: fires. 4.90 -> 4.95 is 1%. 4.50 is
		// under 4.95 - 0.10: re-armed; 4.50 -> 4.95 fires again; 4.95 ->
		// 5.45 is 10.1% above the 4.95 it fired at: fires.
		name:   "rise_pct",
		in:     grocery.AlertInput{Condition: "rise_pct", Threshold: num(10)},
		prices: []string{"4.95", "4.90", "4.95", "4.50", "4.95", "5.45", "5.40"},
		want:   []string{"2026-11-21 4.95", "2026-11-25 4.95", "2026-11-26 5.45"},
	}, {
		// On promotion on 11-21 and 11-22 (one promotion), off on 11-23,
		// on again on 11-24.
		name:   "promo_start",
		in:     grocery.AlertInput{Condition: "promo_start"},
		prices: []string{"3.99/4.50", "3.89/4.50", "4.50", "3.99/4.50", "3.99/4.50"},
		want:   []string{"2026-11-21 3.99", "2026-11-24 3.99"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, hover(t, rs, tt.in, tt.prices...)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// A banner's price in force does not move when a different store is
// visited: Loblaws' stores price L1 at 5.00, 5.00 and 5.20 (day 1); a
// visit of lob-3 alone (5.20) then of lob-1 alone (5.00) leaves the
// price in force at 5.00, the most common of the three. The median of
// each day's visits, which the rules read before, went 5.00 -> 5.20 ->
// 5.00: a 3.8% drop that no store made.
func TestAlerts_PriceInForce(t *testing.T) { alertStores(t, testAlertsPriceInForce) }

func testAlertsPriceInForce(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	drop := f.create(t, f.acme, grocery.AlertInput{Name: "drop", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "price_drop_pct", Threshold: num(1)})
	f.setClock(time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "d2.csv", alertObsHeader+"2026-11-21,lob-3,loblaws,L1,5.20,5.20,,,,,\n")
	f.setClock(time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "d3.csv", alertObsHeader+"2026-11-22,lob-1,loblaws,L1,5.00,5.00,,,,,\n")
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: drop.ID}); got.Total != 0 {
		t.Errorf("got %+v, want no event: no store's price moved", got.Results)
	}
	r, err := f.svc.EvaluateAlert(f.acme, drop.ID)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Standing.Series[0]
	if st.Price != 500 || st.PreviousPrice == nil || *st.PreviousPrice != 500 || st.Holds {
		t.Errorf("standing: got %+v, want price 5.00 after 5.00, not holding", st)
	}
}

// A move of the banner's price that comes only from which stores' prices
// are in force fires no move condition: lob-3 (5.20) is visited on
// 11-27 and 12-03 while lob-1's and lob-2's 5.00 of 11-20 leave the
// 14 days on 12-04, so the price in force goes from 5.00 to 5.20 (+4.0%)
// with no store raising its price. On 12-05 lob-3 raises its own to
// 5.80 (+11.5%): the rule fires.
func TestAlerts_StoreLeaves(t *testing.T) { alertStores(t, testAlertsStoreLeaves) }

func testAlertsStoreLeaves(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	rise := f.create(t, f.acme, grocery.AlertInput{Name: "rise", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "rise_pct", Threshold: num(3)})
	for _, d := range []string{"2026-11-27", "2026-12-03", "2026-12-04"} {
		f.setClock(time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC))
		if d == "2026-12-04" { // another SKU's day moves the data set on
			f.importCSV(t, "other.csv", alertObsHeader+d+",lob-1,loblaws,L2,2.00,2.00,,,,,\n")
			continue
		}
		f.importCSV(t, "lob3.csv", alertObsHeader+d+",lob-3,loblaws,L1,5.20,5.20,,,,,\n")
	}
	if got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: rise.ID}); got.Total != 0 {
		t.Errorf("got %+v, want no event: no store raised its price", got.Results)
	}
	r, err := f.svc.EvaluateAlert(f.acme, rise.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Standing.Series[0]; st.Price != 520 || st.Holds {
		t.Errorf("standing: got %+v, want 5.20, not holding", st)
	}
	f.setClock(time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "lob3.csv", alertObsHeader+"2026-12-05,lob-3,loblaws,L1,5.80,5.80,,,,,\n")
	got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: rise.ID})
	if got.Total != 1 || got.Results[0].Price != 580 || got.Results[0].ObservedAt.String() != "2026-12-05" {
		t.Errorf("got %+v, want one event at 5.80 on 2026-12-05", got.Results)
	}
}

// A promotion past its stated end is not in force: on 2026-11-23, the day
// after the Loblaws promotion's end, L1 is back at its regular 5.00 with no
// new visit, a 13.6% rise from 4.40 that the next import's evaluation
// finds; and a series no store has observed for 14 days leaves the shelf
// (delisted), then comes back (back_in_stock), as days of other series
// move the data set on.
func TestAlerts_NoVisit(t *testing.T) { alertStores(t, testAlertsNoVisit) }

func testAlertsNoVisit(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	rise := f.create(t, f.acme, grocery.AlertInput{Name: "rise", Banner: "loblaws", SKU: "L1", Province: "ON", Condition: "rise_pct", Threshold: num(10)})
	gone := f.create(t, f.acme, grocery.AlertInput{Name: "gone", Banner: "no-frills", SKU: "N1", Province: "ON", Condition: "delisted"})
	back := f.create(t, f.acme, grocery.AlertInput{Name: "back", Banner: "no-frills", SKU: "N1", Province: "ON", Condition: "back_in_stock"})
	listed := f.create(t, f.acme, grocery.AlertInput{Name: "listed", UPC: upcMilk, Province: "ON", Condition: "listed"})
	names := map[string]string{rise.ID: "rise", gone.ID: "gone", back.ID: "back", listed.ID: "listed"}
	const header = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc\n"
	f.setClock(time.Date(2026, 12, 6, 18, 0, 0, 0, time.UTC))
	f.importCSV(t, "promo.csv", header+
		"2026-11-21,lob-1,loblaws,L1,4.40,5.00,2026-11-22,\n"+
		"2026-11-21,lob-2,loblaws,L1,4.40,5.00,2026-11-22,\n"+
		"2026-11-21,lob-3,loblaws,L1,4.40,5.00,2026-11-22,\n")
	// Later days of another Loblaws SKU only: L1 and N1 are not visited.
	for _, d := range []string{"2026-11-24", "2026-12-04", "2026-12-05"} {
		f.importCSV(t, "other.csv", header+d+",lob-1,loblaws,L2,2.00,2.00,,\n")
	}
	// N1 again, and a new barcode's first listing at No Frills.
	f.importCSV(t, "n1.csv", header+
		"2026-12-06,nf-1,no-frills,N1,4.70,4.70,,\n"+
		"2026-12-06,nf-1,no-frills,N9,1.00,1.00,,"+upcMilk+"\n")
	got := f.events(t, f.acme, grocery.AlertEventsInput{Limit: grocery.Some(500)})
	want := []eventKey{
		// The barcode's SKUs at Loblaws and No Frills were listed before
		// the rule: only N9 is new. (One day's events list the later rule
		// first.)
		{"listed", "no-frills", "2026-12-06", 100, nil},
		{"back", "no-frills", "2026-12-06", 470, nil},
		// 4.50 on 2026-11-20 was in force through 2026-12-03.
		{"gone", "no-frills", "2026-12-04", 450, cents(450)},
		{"rise", "loblaws", "2026-11-23", 500, cents(440)},
	}
	if diff := cmp.Diff(want, keysOf(got, names)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for _, e := range got.Results {
		if names[e.RuleID] == "gone" {
			if w := "gone: 2% Milk at No Frills in ON left the shelf on 2026-12-04: no store has observed it for 14 days (last $4.50 on 2026-11-20)"; e.Message != w {
				t.Errorf("got message %q, want %q", e.Message, w)
			}
		}
	}
}

// competitor_undercut fires when another banner's price in force of the
// barcode goes under the rule's banner's, once per crossing: Loblaws L1
// is 5.00 (in force from 2026-11-20 throughout); No Frills N1 is at 4.50
// when the rule is created (it holds: an event at creation), then 5.00
// (not under, but not 2% over: still fired), 4.99 (under: no new event),
// 5.10 (at or over 5.00 + 0.10: re-armed), 4.95 (fires).
func TestAlerts_CompetitorUndercut(t *testing.T) { alertStores(t, testAlertsCompetitorUndercut) }

func testAlertsCompetitorUndercut(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	if _, err := f.svc.CreateAlert(f.acme, grocery.AlertInput{Name: "u", UPC: upcMilk, Province: "ON", Condition: "competitor_undercut"}); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT ||
		!strings.Contains(grocery.ErrorMessage(err), "give upc and banner") {
		t.Errorf("competitor_undercut without a banner: got %v, want invalid_argument asking for upc and banner", err)
	}
	r := f.create(t, f.acme, grocery.AlertInput{Name: "undercut", UPC: upcMilk, Banner: "loblaws", Province: "ON", Condition: "competitor_undercut"})
	if st := r.Standing; st == nil || !st.Holds || st.Event == nil || st.Event.Banner != "no-frills" || st.Event.Price != 450 {
		t.Fatalf("standing at creation: got %+v, want No Frills at 4.50 under Loblaws' 5.00", st)
	}
	day := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"5.00", "4.99", "5.10", "4.95"} {
		f.setClock(day.Add(18 * time.Hour))
		f.importCSV(t, "day.csv", fmt.Sprintf("%s%s,nf-1,no-frills,N1,%s,%s,,,,,\n", alertObsHeader, day.Format("2006-01-02"), p, p))
		day = day.AddDate(0, 0, 1)
	}
	got := f.events(t, f.acme, grocery.AlertEventsInput{RuleID: r.ID})
	want := []eventKey{
		{"undercut", "no-frills", "2026-11-24", 495, cents(510)},
		{"undercut", "no-frills", "2026-11-20", 450, nil},
	}
	if diff := cmp.Diff(want, keysOf(got, map[string]string{r.ID: "undercut"})); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	if w := "undercut: 2% Milk at No Frills in ON is $4.95 on 2026-11-24, under Loblaws at $5.00 (was $5.10 on 2026-11-23)"; got.Results[0].Message != w {
		t.Errorf("got message %q, want %q", got.Results[0].Message, w)
	}
}
