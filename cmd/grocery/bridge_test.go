package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/mcpserver"
)

// mcpEndpoint serves MCP on a writable copy of the demo file and returns
// its URL, a valid key, and the protocol-version headers it received.
func mcpEndpoint(t *testing.T) (url, key string, versions func() []string) {
	url, key, headers := mcpEndpointHeaders(t)
	return url, key, func() []string {
		var v []string
		for _, h := range headers() {
			v = append(v, h.Get("MCP-Protocol-Version"))
		}
		return v
	}
}

// mcpEndpointHeaders is mcpEndpoint returning the headers of every
// request it received.
func mcpEndpointHeaders(t *testing.T) (url, key string, headers func() []http.Header) {
	t.Helper()
	b, err := os.ReadFile(demoDB)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	svc, err := grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	k, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: "bridge", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []http.Header
	h := mcpserver.New(svc, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", k.Key, func() []http.Header { mu.Lock(); defer mu.Unlock(); return append([]http.Header(nil), seen...) }
}

// bridgeRun runs 'grocery mcp-bridge' with stdin and an environment.
func bridgeRun(t *testing.T, e env, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), nil, nil, e.get)
	root.SetOut(&out)
	root.SetErr(&errb)
	code := execute(context.Background(), root, append([]string{"mcp-bridge"}, args...), e.get)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

const bridgeSession = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}

{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"067000378089","province":"ON"}}}
{"jsonrpc":"2.0","id":4,"method":"ping"}`

// answers decodes the bridge's stdout: one JSON-RPC message a line.
func answers(t *testing.T, stdout string) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout line is not one JSON message: %q", line)
		}
		out = append(out, m)
	}
	return out
}

func TestBridge(t *testing.T) {
	url, key, versions := mcpEndpoint(t)
	t.Run("OK", func(t *testing.T) {
		r := bridgeRun(t, env{"GROCERY_API_KEY": key}, bridgeSession, "--url", url)
		ok(t, r)
		got := answers(t, r.stdout)
		var ids []string
		for _, m := range got {
			ids = append(ids, string(m["id"]))
		}
		if strings.Join(ids, " ") != `1 2 "three" 4` {
			t.Fatalf("answer ids: got %v, want 1 2 \"three\" 4 (the notification gets none)", ids)
		}
		if !bytes.Contains(got[2]["result"], []byte(`offers`)) || !bytes.Contains(got[1]["result"], []byte(`price_history`)) {
			t.Fatalf("got %s / %s, want the tool list and the offers", got[1]["result"], got[2]["result"])
		}
		// After initialize the bridge sends the agreed protocol version.
		if v := versions(); len(v) != 5 || v[0] != "" || v[4] != "2025-06-18" {
			t.Fatalf("MCP-Protocol-Version headers: got %q", v)
		}
	})
	t.Run("OKKeyFile", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "key")
		os.WriteFile(f, []byte(key+"\n"), 0o600)
		r := bridgeRun(t, env{}, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "--url", url, "--key-file", f)
		ok(t, r)
		if !strings.Contains(r.stdout, `"result":{}`) {
			t.Fatalf("got %q, want the ping answer", r.stdout)
		}
	})
	t.Run("ErrKeyRejected", func(t *testing.T) {
		r := bridgeRun(t, env{"GROCERY_API_KEY": "gro_pk_" + strings.Repeat("x", 40)}, bridgeSession, "--url", url)
		if r.code != 0 {
			t.Fatalf("exit %d, want 0 (the client gets the errors)", r.code)
		}
		got := answers(t, r.stdout)
		if len(got) != 4 {
			t.Fatalf("got %d answers, want an error for each of the 4 requests", len(got))
		}
		// The server's reason (WWW-Authenticate's error_description)
		// reaches the client: unknown here, revoked for a revoked key.
		const want = "API key rejected: API key is not known: check it, or ask for a new one"
		for _, m := range got {
			if !bytes.Contains(m["error"], []byte(want)) {
				t.Fatalf("got %s, want the rejected-key error %q", m["error"], want)
			}
		}
		if strings.Count(r.stderr, want) != 1 {
			t.Fatalf("stderr: got %q, want the message once", r.stderr)
		}
	})
	t.Run("ErrKeyRejectedPinned", func(t *testing.T) {
		// A client pinned to 2026-07-28 first asks server/discover, and
		// takes an error there for an older server. The bridge answers it
		// for a refused key; the next request carries the reason.
		session := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta2026 + `}}`
		r := bridgeRun(t, env{"GROCERY_API_KEY": "gro_pk_" + strings.Repeat("x", 40)}, session, "--url", url)
		got := answers(t, r.stdout)
		if len(got) != 2 || !bytes.Contains(got[0]["result"], []byte(`"supportedVersions":["2026-07-28"`)) ||
			!bytes.Contains(got[0]["result"], []byte(`"name":"grocery"`)) {
			t.Fatalf("discover: got %s, want the bridge's own discover result", r.stdout)
		}
		const want = "API key rejected: API key is not known: check it, or ask for a new one"
		if !bytes.Contains(got[1]["error"], []byte(want)) || strings.Count(r.stderr, want) != 1 {
			t.Fatalf("tools/list: got %s, stderr %q, want the rejected-key error %q", got[1]["error"], r.stderr, want)
		}
	})
	t.Run("ErrUnreachable", func(t *testing.T) {
		r := bridgeRun(t, env{"GROCERY_API_KEY": key}, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, "--url", "http://127.0.0.1:1/mcp")
		if !strings.Contains(r.stdout, `"id":9`) || !strings.Contains(r.stdout, "cannot reach") || !strings.Contains(r.stderr, "cannot reach") {
			t.Fatalf("got stdout %q stderr %q, want an error answer and a message", r.stdout, r.stderr)
		}
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		r := bridgeRun(t, env{}, "", "--url", url)
		if r.code != 2 || !strings.Contains(r.stderr, "GROCERY_API_KEY") {
			t.Fatalf("got exit %d, stderr %q; want a usage error naming GROCERY_API_KEY", r.code, r.stderr)
		}
	})
}

// meta2026 is the params._meta of a stdio client of the 2026-07-28
// revision.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestBridgeStateless: a stdio client of the 2026-07-28 revision (no
// handshake, _meta in every request) works through the bridge, which adds
// the headers the HTTP transport requires; it chains barcode -> offers ->
// external_sku -> price_history.
func TestBridgeStateless(t *testing.T) {
	url, key, headers := mcpEndpointHeaders(t)
	session := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"067000378089","province":"ON"},` + meta2026 + `}}
{"jsonrpc":"2.0","id":4,"method":"ping","params":{` + meta2026 + `}}
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`
	r := bridgeRun(t, env{"GROCERY_API_KEY": key}, session, "--url", url)
	ok(t, r)
	got := answers(t, r.stdout)
	if len(got) != 4 {
		t.Fatalf("got %d answers, want 4 (the notification gets none):\n%s", len(got), r.stdout)
	}
	if !bytes.Contains(got[0]["result"], []byte(`"supportedVersions":["2026-07-28"`)) || !bytes.Contains(got[1]["result"], []byte(`"ttlMs"`)) {
		t.Fatalf("discover and tools/list: got %s / %s", got[0]["result"], got[1]["result"])
	}
	// ping is not a method of 2026-07-28: the error reaches the client.
	if !bytes.Contains(got[3]["error"], []byte(`-32601`)) || string(got[3]["id"]) != "4" {
		t.Fatalf("ping: got %v, want the server's -32601", got[3])
	}
	var lookup struct {
		StructuredContent struct {
			Offers []struct {
				Banner      string `json:"banner"`
				ExternalSKU string `json:"external_sku"`
			} `json:"offers"`
		} `json:"structuredContent"`
		ResultType string `json:"resultType"`
	}
	if err := json.Unmarshal(got[2]["result"], &lookup); err != nil || len(lookup.StructuredContent.Offers) == 0 || lookup.ResultType != "complete" {
		t.Fatalf("lookup: got %s", got[2]["result"])
	}
	o := lookup.StructuredContent.Offers[0]
	h := headers()
	if len(h) != 5 || h[2].Get("MCP-Protocol-Version") != "2026-07-28" || h[2].Get("Mcp-Method") != "tools/call" ||
		h[2].Get("Mcp-Name") != "lookup_product" || h[0].Get("Mcp-Method") != "server/discover" || h[0].Get("Mcp-Name") != "" {
		t.Fatalf("headers the server received: %v", h)
	}

	// The chain's next step, with the offer's external_sku.
	next := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"price_history","arguments":{"sku":"` + o.ExternalSKU + `","banner":"` + o.Banner + `","province":"ON"},` + meta2026 + `}}`
	r = bridgeRun(t, env{"GROCERY_API_KEY": key}, next, "--url", url)
	ok(t, r)
	got = answers(t, r.stdout)
	if len(got) != 1 || !bytes.Contains(got[0]["result"], []byte(`"points":[{`)) {
		t.Fatalf("price_history: got %s", r.stdout)
	}
}

func TestHeaderSafe(t *testing.T) {
	for in, want := range map[string]string{
		"lookup_product": "lookup_product",
		"tools/call":     "tools/call",
		" x":             "=?base64?IHg=?=",
		"café":           "=?base64?Y2Fmw6k=?=",
		"a\nb":           "=?base64?YQpi?=",
	} {
		if got := headerSafe(in); got != want {
			t.Errorf("headerSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
