package grocery_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
)

// TestIdempotent: a request under way with a key makes another with that
// key a conflict until it answers, or until a minute has passed (its
// process is taken as dead); the answer is kept where the rules are (in
// Redis, with Redis: a second service on it replays it).
func TestIdempotent(t *testing.T) { alertStores(t, testIdempotent) }

func testIdempotent(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	req := grocery.IdempotentRequest{Key: "k", Operation: "POST /x", Body: []byte(`{"a":1}`)}
	runs := 0
	answer := func(ctx context.Context) ([]byte, error) { runs++; return []byte("answer"), nil }
	var inner error
	_, _, err := f.svc.Idempotent(f.acme, req, func(ctx context.Context) ([]byte, error) {
		_, _, inner = f.svc.Idempotent(f.acme, req, answer)
		f.setClock(f.clock().Add(time.Minute))
		got, replayed, err := f.svc.Idempotent(f.acme, req, answer)
		if err != nil || replayed || string(got) != "answer" {
			t.Errorf("a minute after a claim: got %q, %v, %v, want the request run again", got, replayed, err)
		}
		return []byte("late"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if grocery.ErrorCode(inner) != grocery.ECONFLICT || !strings.Contains(inner.Error(), "still being answered") {
		t.Errorf("a second request while the first runs: got %v, want conflict", inner)
	}
	if runs != 1 {
		t.Errorf("runs: got %d, want 1", runs)
	}
	if rs == nil {
		return
	}
	// Another service on the same Redis (another server) replays it.
	other := newAlertFixture(t, rs)
	other.setClock(f.clock())
	got, replayed, err := other.svc.Idempotent(other.acme, req, answer)
	if err != nil || !replayed || string(got) != "answer" || runs != 1 {
		t.Errorf("through another service on the same Redis: got %q, %v, %v (runs %d), want the kept answer replayed", got, replayed, err, runs)
	}
}

// TestIdempotent_CrashAfterCreate: a process that dies after a creation
// commits and before the key's answer is kept (do panics after the
// create, as a SIGKILL there would leave it) leaves a key that never
// creates again: a retry at once, and one after the minute a claim is
// taken as abandoned, answers with the object the first request made.
func TestIdempotent_CrashAfterCreate(t *testing.T) { alertStores(t, testIdempotentCrashAfterCreate) }

func testIdempotentCrashAfterCreate(t *testing.T, rs *redistest.Server) {
	f := newAlertFixture(t, rs)
	for _, tc := range []struct {
		name   string
		create func(ctx context.Context) (string, error)
		count  func() int
	}{
		{"Alert", func(ctx context.Context) (string, error) {
			r, err := f.svc.CreateAlert(ctx, grocery.AlertInput{Name: "milk", UPC: "068000000154", Province: "ON", Condition: "price_below", Threshold: num(4)})
			if err != nil {
				return "", err
			}
			return r.ID, nil
		}, func() int {
			l, err := f.svc.ListAlerts(f.acme, grocery.ListAlertsInput{})
			if err != nil {
				t.Fatal(err)
			}
			return l.Total
		}},
		{"Webhook", func(ctx context.Context) (string, error) {
			w, err := f.svc.CreateWebhook(ctx, grocery.WebhookInput{URL: "https://203.0.113.9/hook"})
			if err != nil {
				return "", err
			}
			return w.ID + " " + w.Secret, nil
		}, func() int {
			l, err := f.svc.ListWebhooks(f.acme)
			if err != nil {
				t.Fatal(err)
			}
			return l.Total
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := grocery.IdempotentRequest{Key: "crash-" + tc.name, Operation: "POST /" + tc.name, Body: []byte(`{}`)}
			var first string
			func() {
				defer func() {
					if v := recover(); v != "killed" {
						panic(v)
					}
				}()
				f.svc.Idempotent(f.acme, req, func(ctx context.Context) ([]byte, error) {
					id, err := tc.create(ctx)
					if err != nil {
						t.Fatal(err)
					}
					first = id
					panic("killed") // after the creation, before the answer is kept
				})
			}()
			for _, wait := range []time.Duration{0, 2 * time.Minute} {
				f.setClock(f.clock().Add(wait))
				got, _, err := f.svc.Idempotent(f.acme, req, func(ctx context.Context) ([]byte, error) {
					id, err := tc.create(ctx)
					return []byte(id), err
				})
				if err != nil || string(got) != first {
					t.Fatalf("retry %s after the crash: got %q, %v, want the first request's object %q", wait, got, err, first)
				}
			}
			if n := tc.count(); n != 1 {
				t.Fatalf("got %d objects, want 1: the key created twice", n)
			}
			// Kept now: replayed without running again.
			got, replayed, err := f.svc.Idempotent(f.acme, req, func(ctx context.Context) ([]byte, error) { return nil, errors.New("ran again") })
			if err != nil || !replayed || string(got) != first {
				t.Fatalf("after the answer is kept: got %q, %v, %v, want %q replayed", got, replayed, err, first)
			}
		})
	}
}
