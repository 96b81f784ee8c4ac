package server_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
)

// TestRun serves a demo file, makes MCP and REST calls on one listener,
// stops the server as a signal would, and checks that the counts were
// written and the socket removed.
func TestRun(t *testing.T) {
	// In parallel: a server and a data file of its own.
	t.Parallel()
	dir, err := os.MkdirTemp("", "srv") // short: Unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "g.db")
	ctx := context.Background()
	demoCopy(t, db)
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "srv", Plan: "integration"})
	svc.Close()
	if err != nil {
		t.Fatal(err)
	}

	runCtx, stop := context.WithCancel(ctx)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(runCtx, server.Config{
			Addr: "127.0.0.1:0", DB: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready: func(base string) { ready <- base },
		})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	if fi, err := os.Stat(admin.SocketPath(db)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("admin socket: %v, %v; want mode 0600", fi, err)
	}
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/healthz", "", 200},
		{"GET", "/.well-known/oauth-authorization-server", "", 404},
		{"GET", "/mcp", "", 405},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_reference_stores","arguments":{}}}`, 200},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, 200},
		// REST at / on the same listener and the same quota.
		{"GET", "/search?q=milk&province=ON", "", 200},
		{"GET", "/no-such-path", "", 404},
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+k.Key)
		req.Header.Set("X-API-Key", k.Key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Fatalf("%s %s: got %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
	}

	stop()
	if err := <-done; err != nil {
		t.Fatalf("Run after stop: %v", err)
	}
	if _, err := os.Stat(admin.SocketPath(db)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("admin socket after stop: %v, want it removed", err)
	}
	svc, err = grocery.Open(db, nil)
	if err != nil {
		t.Fatalf("the file should be free after stop: %v", err)
	}
	defer svc.Close()
	u, err := svc.UsageOf(ctx, "srv")
	if err != nil || u.Used != 3 {
		t.Fatalf("usage after stop: %+v, %v; want the 3 calls written (2 MCP, 1 REST)", u, err)
	}
}

func TestOptionsFromEnv(t *testing.T) {
	env := map[string]string{"GROCERY_PLAN_QUOTAS": "starter=5, Integration=2_000_000", "GROCERY_KEY_PREFIX": "acme"}
	opts, err := server.OptionsFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if opts.KeyPrefix != "acme" || opts.Plans[0].Quota != 5 || opts.Plans[1].Quota != 25000 || opts.Plans[2].Quota != 2_000_000 {
		t.Fatalf("got %+v", opts)
	}
	for _, bad := range []string{"gold=5", "starter=0", "starter", "starter=x"} {
		env["GROCERY_PLAN_QUOTAS"] = bad
		if _, err := server.OptionsFromEnv(func(k string) string { return env[k] }); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Fatalf("%q: got %v, want invalid_argument", bad, err)
		}
	}
}
