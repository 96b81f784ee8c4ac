package server_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/internal/requestid"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestRequestID: every answer, MCP and REST, success or error, carries
// X-Request-Id: the client's when it is valid, a new one otherwise (too
// long, a space, a control or non-ASCII character); the access log line
// names it, and a REST problem holds it as request_id.
func TestRequestID(t *testing.T) {
	svc, _, k := demoService(t)
	var logs servetest.LogBuffer
	srv := httptest.NewServer(server.Routes(svc, server.Config{}, slog.New(slog.NewTextHandler(&logs, nil))))
	defer srv.Close()
	mcpCall := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	cases := []struct {
		name, method, path, body, auth string
		status                         int
	}{
		{"MCP", "POST", "/mcp", mcpCall, "Bearer " + k.Key, 200},
		{"MCPUnauthenticated", "POST", "/mcp", mcpCall, "Bearer nope", 401},
		{"MCPGet", "GET", "/mcp", "", "", 405},
		{"REST", "GET", "/b2b/regional_comparison", "", k.Key, 200},
		{"RESTProblem", "GET", "/search?q=milk&province=Ontari", "", k.Key, 400},
		{"RESTNoKey", "GET", "/prices", "", "", 401},
		{"Health", "GET", "/healthz", "", "", 200},
	}
	var ids []string
	long := strings.Repeat("x", requestid.MaxLen+1)
	for _, tc := range cases {
		for _, g := range []struct {
			id   string
			keep bool // written out here, not asked of requestid.Valid
		}{{"", false}, {"client-id.42:a/b", true}, {strings.Repeat("y", requestid.MaxLen), true}, {long, false},
			{"has space", false}, {"caf\u00e9", false}, {"tab\tx", false}} {
			given := g.id
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			switch {
			case strings.HasPrefix(tc.auth, "Bearer "):
				req.Header.Set("Authorization", tc.auth)
			case tc.auth != "":
				req.Header.Set("X-API-Key", tc.auth)
			}
			req.Header.Set("Content-Type", "application/json")
			if given != "" {
				req.Header.Set("X-Request-Id", given)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var problem struct {
				RequestID string `json:"request_id"`
			}
			if resp.Header.Get("Content-Type") == "application/problem+json" {
				json.NewDecoder(resp.Body).Decode(&problem)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("%s: status: got %d, want %d", tc.name, resp.StatusCode, tc.status)
			}
			got := resp.Header.Values("X-Request-Id")
			if len(got) != 1 || !requestid.Valid(got[0]) {
				t.Fatalf("%s, X-Request-Id %q: answer's X-Request-Id: got %q, want one valid id", tc.name, given, got)
			}
			if kept := got[0] == given; kept != g.keep {
				t.Errorf("%s, X-Request-Id %q: got %q back, want it kept: %v", tc.name, given, got[0], g.keep)
			}
			if strings.HasPrefix(tc.name, "REST") && tc.status >= 400 && problem.RequestID != got[0] {
				t.Errorf("%s: problem's request_id: got %q, want %q", tc.name, problem.RequestID, got[0])
			}
			ids = append(ids, got[0])
		}
	}
	srv.Close() // waits for the handlers: every line is written
	for _, id := range ids {
		if !strings.Contains(logs.String(), " request_id="+id+"\n") {
			t.Errorf("no log line ends with request_id=%s:\n%s", id, logs.String())
		}
	}
}
