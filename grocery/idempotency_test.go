package grocery_test

import (
	"context"
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
