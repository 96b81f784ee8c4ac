package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestAccessLog checks that the request log names the tool of a
// tools/call, and never the arguments or the key.
func TestAccessLog(t *testing.T) {
	svc, sum, k := demoService(t)
	var logs servetest.LogBuffer
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

// TestAccessLogAborted: an export whose client goes away midway is cut
// off by the handler, and still has its log line, marked aborted.
func TestAccessLogAborted(t *testing.T) {
	svc, _, k := demoService(t)
	var logs servetest.LogBuffer
	srv := httptest.NewServer(server.Routes(svc, server.Config{}, slog.New(slog.NewTextHandler(&logs, nil))))
	defer srv.Close()

	// All the observations of 90 days as JSON: megabytes, more than the
	// connection holds while nobody reads.
	req, _ := http.NewRequest("GET", srv.URL+"/b2b/export?dataset=observations&from=2026-08-21&to=2026-11-18", nil)
	req.Header.Set("X-API-Key", k.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // the client goes away
	srv.CloseClientConnections()

	// The handler notices at its next write, logs "export cut short",
	// then the access log writes the request's line: wait for that one.
	accessLine := func() string {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "msg=request") && strings.Contains(l, "path=/b2b/export") {
				return l
			}
		}
		return ""
	}
	logs.WaitFor(t, 10*time.Second, "access log line of the export", func(string) bool { return accessLine() != "" })
	line := accessLine()
	if !strings.Contains(line, "aborted=true") || !strings.Contains(line, "status=200") {
		t.Fatalf("got log line %q, want the export logged as aborted", line)
	}
}

// TestExportThroughLog: the export lifts the server's write timeout
// through the access log's writer (which must unwrap to the connection's).
func TestExportThroughLog(t *testing.T) {
	svc, _, k := demoService(t)
	srv := httptest.NewUnstartedServer(server.Routes(svc, server.Config{}, slog.New(slog.NewTextHandler(io.Discard, nil))))
	srv.Config.WriteTimeout = time.Nanosecond // passed before the first row
	srv.Start()
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/b2b/export?dataset=stores&format=csv", nil)
	req.Header.Set("X-API-Key", k.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the export was cut off: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 || strings.Count(string(body), "\n") < 10 {
		t.Fatalf("got %d, %d bytes, %v: want the stores", resp.StatusCode, len(body), err)
	}
}

// demoService opens a copy of the demo data file in t's temporary directory,
// with an integration key of the account "log"; t's cleanup closes it.
func demoService(t *testing.T) (*grocery.Service, *grocery.DemoSummary, *grocery.NewKey) {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "g.db")
	sum := demoCopy(t, db)
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "log", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	return svc, sum, k
}
