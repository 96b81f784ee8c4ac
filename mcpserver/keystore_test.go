package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/mcpserver"
)

// TestKeyStoreFailure: when the key store (Redis) cannot check a key, the
// client is never told its key is invalid. A Redis reply error (the
// account's record is of the wrong type, so the key check's script gets
// WRONGTYPE) is an internal error: 500 with the JSON-RPC internal error
// and no text of it, no WWW-Authenticate. Redis not answering is 503 with
// Retry-After. A good key on a sound store still gets 200.
func TestKeyStoreFailure(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	s := servetest.Open(t, &grocery.Options{Shared: servetest.Redis(t, rs.URL())})
	h := httptest.NewServer(mcpserver.New(s, nil))
	t.Cleanup(h.Close)
	ctx := context.Background()
	good := servetest.AccountKey(t, s, "good", "starter", 0)
	broken := servetest.AccountKey(t, s, "broken", "starter", 0)
	send := func(key, body string) *reply {
		req := servetest.Request(t, http.MethodPost, h.URL, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		return do(t, req)
	}
	bodies := []string{rpc(4, "tools/list", ""), callTool("lookup_product", `{"upc":"068000000154","province":"ON"}`)}
	for _, body := range bodies {
		wantStatus(t, send(good, body), http.StatusOK)
	}

	// The account's record becomes a string: HMGET on it is a reply error.
	c := rs.Client()
	accts, err := c.Keys(ctx, "*acct:broken").Result()
	if err != nil || len(accts) != 1 {
		t.Fatalf("the account's record in Redis: %v, %v", accts, err)
	}
	if err := c.Set(ctx, accts[0], "not a hash", 0).Err(); err != nil {
		t.Fatal(err)
	}
	for _, body := range bodies {
		r := send(broken, body)
		wantStatus(t, r, http.StatusInternalServerError)
		if got := r.header.Get("WWW-Authenticate"); got != "" {
			t.Errorf("%s: WWW-Authenticate %q on an internal error: the key is not at fault", body, got)
		}
		if r.msg.Error == nil || r.msg.Error.Code != -32603 || r.msg.Error.Message != "internal error" {
			t.Errorf("%s: got %s, want the JSON-RPC internal error without its text", body, r.body)
		}
		if strings.Contains(string(r.body), "WRONGTYPE") || strings.Contains(strings.ToLower(string(r.body)), "redis") {
			t.Errorf("%s: internals leaked: %s", body, r.body)
		}
	}
	wantStatus(t, send(good, bodies[0]), http.StatusOK)

	rs.Stop()
	for _, body := range bodies {
		r := send(good, body)
		wantStatus(t, r, http.StatusServiceUnavailable)
		if got := r.header.Get("Retry-After"); got != "1" {
			t.Errorf("%s: Retry-After %q, want 1", body, got)
		}
		if got := r.header.Get("WWW-Authenticate"); got != "" {
			t.Errorf("%s: WWW-Authenticate %q while Redis is down", body, got)
		}
		if r.msg.Error == nil || r.msg.Error.Code != -32603 || !strings.Contains(r.msg.Error.Message, "does not answer") {
			t.Errorf("%s: got %s, want an internal error naming the store that does not answer", body, r.body)
		}
	}
}
