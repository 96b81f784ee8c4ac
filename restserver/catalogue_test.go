package restserver_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestSameAsMCP: GET /products/{upc}, /history and /stores answer, byte
// for byte, the structuredContent of the MCP tools lookup_product,
// price_history and list_reference_stores called with the same
// arguments, on the same server and key.
func TestSameAsMCP(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	for _, c := range []struct {
		name, rest, tool, args string
	}{
		{"lookup", "/products/" + upcMilk + "?province=ON&limit=3", "lookup_product", `{"upc":"` + upcMilk + `","province":"ON","limit":3}`},
		{"lookup fr", "/products/" + upcMilk + "?province=QC&lang=fr&limit=10", "lookup_product", `{"upc":"` + upcMilk + `","province":"QC","lang":"fr","limit":10}`},
		{"lookup not carried", "/products/" + upcCheese + "?province=QC&limit=10", "lookup_product", `{"upc":"` + upcCheese + `","province":"QC","limit":10}`},
		{"history", "/history?sku=L1&banner=loblaws&province=ON&period=14d", "price_history", `{"sku":"L1","banner":"loblaws","province":"ON","period":"14d"}`},
		{"history default period", "/history?sku=N1&banner=No%20Frills&province=Ontario", "price_history", `{"sku":"N1","banner":"No Frills","province":"Ontario"}`},
		{"history unlinked", "/history?sku=L9&banner=loblaws&province=ON", "price_history", `{"sku":"L9","banner":"loblaws","province":"ON"}`},
		{"stores", "/stores?province=ON&limit=2&offset=1", "list_reference_stores", `{"province":"ON","limit":2,"offset":1}`},
		{"stores near", "/stores?near=M5V%202T6&banner=loblaws&limit=10", "list_reference_stores", `{"near":"M5V 2T6","banner":"loblaws","limit":10}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, key, c.rest)
			if r.status != http.StatusOK {
				t.Fatalf("GET %s: got %d, want 200\n%s", c.rest, r.status, r.body)
			}
			got := mcpResult(t, key, c.tool, c.args)
			if string(r.body) != string(got) {
				t.Errorf("GET %s differs from %s %s:\nREST: %s\nMCP:  %s", c.rest, c.tool, c.args, r.body, got)
			}
		})
	}
}

// mcpResult calls the MCP tool with args and returns its structuredContent.
func mcpResult(t *testing.T, key, tool, args string) json.RawMessage {
	t.Helper()
	req := servetest.Request(t, http.MethodPost, srv.URL+"/mcp",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+key)
	r := do(t, "", req)
	var res struct {
		Result struct {
			StructuredContent json.RawMessage `json:"structuredContent"`
			IsError           bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.body, &res); err != nil || r.status != http.StatusOK || res.Result.IsError {
		t.Fatalf("%s %s: got %d %v\n%s", tool, args, r.status, err, r.body)
	}
	return res.Result.StructuredContent
}

// TestCatalogueMetered: the lookup, history and stores paths are metered
// like every data path (a refused call counts too), and carry an ETag
// that a later If-None-Match turns into a 304.
func TestCatalogueMetered(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 100)
	paths := []string{
		"/products/" + upcMilk + "?province=ON",
		"/history?sku=L1&banner=loblaws&province=ON",
		"/stores?province=ON",
	}
	remaining := 100
	for _, p := range paths {
		r := get(t, key, p)
		remaining--
		if r.status != http.StatusOK {
			t.Fatalf("GET %s: got %d\n%s", p, r.status, r.body)
		}
		if got := r.header.Get("X-Quota-Remaining"); got != strconv.Itoa(remaining) {
			t.Errorf("GET %s: X-Quota-Remaining %s, want %d", p, got, remaining)
		}
		tag := r.header.Get("ETag")
		if !strings.HasPrefix(tag, `W/"`) {
			t.Fatalf("GET %s: ETag %q, want a weak tag", p, tag)
		}
		req := servetest.Request(t, http.MethodGet, srv.URL+p, "")
		req.Header.Set("If-None-Match", tag)
		r = do(t, key, req)
		remaining--
		if r.status != http.StatusNotModified || len(r.body) != 0 {
			t.Errorf("GET %s with its ETag: got %d with %d bytes, want 304 without a body", p, r.status, len(r.body))
		}
		if got := r.header.Get("X-Quota-Remaining"); got != strconv.Itoa(remaining) {
			t.Errorf("GET %s with its ETag: X-Quota-Remaining %s, want %d", p, got, remaining)
		}
	}
	// Refused: a wrong check digit, an unknown SKU, an unknown parameter.
	for _, p := range []string{"/products/068000000155?province=ON", "/history?sku=NOPE&banner=loblaws&province=ON", "/stores?provnce=ON"} {
		r := get(t, key, p)
		remaining--
		if r.status < 400 {
			t.Fatalf("GET %s: got %d, want a problem", p, r.status)
		}
		if got := r.header.Get("X-Quota-Remaining"); got != strconv.Itoa(remaining) {
			t.Errorf("GET %s (%d): X-Quota-Remaining %s, want %d", p, r.status, got, remaining)
		}
	}
}
