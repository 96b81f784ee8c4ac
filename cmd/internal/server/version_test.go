package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestVersionReported: a server started as the binaries start it reports
// grocery.Version in its start line, /healthz, MCP's serverInfo and
// /openapi.json's info.version, over real HTTP.
func TestVersionReported(t *testing.T) {
	want := grocery.Version()
	dir, err := os.MkdirTemp("", "srv") // short: Unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "g.db")
	if _, err := grocery.BuildDemo(context.Background(), db, &grocery.DemoOptions{AsOf: 20776}); err != nil {
		t.Fatal(err)
	}
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	k, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: "v", Plan: "integration"})
	svc.Close()
	if err != nil {
		t.Fatal(err)
	}
	var logs servetest.LogBuffer
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{Addr: "127.0.0.1:0", DB: db,
			Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Ready: func(base string) { ready <- base }})
	}()
	var base string
	select {
	case base = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Run after stop: %v", err)
		}
	}()

	getJSON := func(t *testing.T, req *http.Request, v any) {
		t.Helper()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d", req.Method, req.URL.Path, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("StartLine", func(t *testing.T) {
		var line struct{ Msg, URL, Version string }
		for _, l := range strings.Split(logs.String(), "\n") {
			if json.Unmarshal([]byte(l), &line) == nil && line.Msg == "serving" {
				break
			}
		}
		if line.Msg != "serving" || line.URL != base || line.Version != want {
			t.Errorf("start line: got %+v, want msg serving, url %s, version %s\n%s", line, base, want, logs.String())
		}
	})
	t.Run("Healthz", func(t *testing.T) {
		var h struct{ Status, Version string }
		req, _ := http.NewRequest("GET", base+"/healthz", nil)
		getJSON(t, req, &h)
		if h.Status != "ok" || h.Version != want {
			t.Errorf("/healthz: got %+v, want status ok, version %s", h, want)
		}
	})
	t.Run("MCPServerInfo", func(t *testing.T) {
		req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+k.Key)
		var res struct {
			Result struct {
				ServerInfo struct{ Version string } `json:"serverInfo"`
			}
		}
		getJSON(t, req, &res)
		if res.Result.ServerInfo.Version != want {
			t.Errorf("serverInfo.version: got %q, want %q", res.Result.ServerInfo.Version, want)
		}
	})
	t.Run("OpenAPI", func(t *testing.T) {
		var doc struct{ Info struct{ Version string } }
		req, _ := http.NewRequest("GET", base+"/openapi.json", nil)
		getJSON(t, req, &doc)
		if doc.Info.Version != want {
			t.Errorf("/openapi.json info.version: got %q, want %q", doc.Info.Version, want)
		}
	})
}
