package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestDirect checks that direct sends every request where the mux alone
// would, with the same answer, for each set of interfaces.
func TestDirect(t *testing.T) {
	paths := []string{"/mcp", "/mcp/", "/MCP", "/mcpx", "/price", "/prices", "/b2b/alerts/3", "/", "/healthz",
		"/healthz/", "/.well-known", "/.well-known/", "/.well-known/oauth-protected-resource", "//price", "/price/",
		"/a/../mcp", "/./price", "/%6Dcp", "/pr%69ce", "/a%2Fb", "/price?x=1", "*", "/b2b/export"}
	for _, serve := range []Interfaces{ServeAll, ServeMCP, ServeREST} {
		mux := http.NewServeMux()
		var mcp, rest http.Handler
		answer := func(name string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, name, " ", r.URL.Path) })
		}
		if serve != ServeREST {
			mcp = answer("mcp")
			mux.Handle("/mcp", mcp)
			mux.Handle("/.well-known/", mcp)
		}
		if serve != ServeMCP {
			rest = answer("rest")
			mux.Handle("/", rest)
		}
		mux.Handle("GET /healthz", answer("health"))
		d := direct(mux, mcp, rest)
		for _, method := range []string{"GET", "POST", "DELETE", "CONNECT"} {
			for _, p := range paths {
				want, got := httptest.NewRecorder(), httptest.NewRecorder()
				mux.ServeHTTP(want, httptest.NewRequest(method, p, nil))
				d.ServeHTTP(got, httptest.NewRequest(method, p, nil))
				if got.Code != want.Code || got.Body.String() != want.Body.String() || got.Header().Get("Location") != want.Header().Get("Location") {
					t.Errorf("%s: %s %s: got %d %q, want %d %q", serve, method, p, got.Code, got.Body, want.Code, want.Body)
				}
			}
		}
	}
}
