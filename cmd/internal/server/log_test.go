package server_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
)

// lockedBuffer is a log destination safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAccessLog checks that the request log names the tool of a
// tools/call, and never the arguments or the key.
func TestAccessLog(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "g.db")
	sum, err := grocery.BuildDemo(ctx, db, &grocery.DemoOptions{AsOf: 20776})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "log", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	srv := httptest.NewServer(server.Routes(svc, server.Config{}, slog.New(slog.NewTextHandler(&logs, nil))))
	upc := sum.Samples.CarriedUPC
	cases := []struct {
		method, path, body string
		want               string // in the request's log line
	}{
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"` + upc + `","province":"ON"}}}`,
			"path=/mcp rpc=tools/call tool=lookup_product status=200"},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_products","arguments":{"query":"zzsecret","province":"ON"}}}`,
			"path=/mcp rpc=tools/call tool=search_products status=200"},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
			"path=/mcp rpc=tools/call status=200"},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, "path=/mcp rpc=tools/list status=200"},
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":5,"method":"made/up"}`, "path=/mcp status=200"},
		{"GET", "/healthz", "", "path=/healthz status=200"},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+k.Key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	srv.Close() // waits for the handlers, so every line is written
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("got %d log lines, want %d:\n%s", len(lines), len(cases), logs.String())
	}
	// A line is written after its answer: the lines may come in any order.
	for _, tc := range cases {
		n := 0
		for _, l := range lines {
			if strings.Contains(l, " "+tc.want+" ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("got %d lines holding %q, want 1:\n%s", n, tc.want, logs.String())
		}
	}
	for _, secret := range []string{k.Key, upc, "zzsecret", "nope", "made/up"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, logs.String())
		}
	}
}
