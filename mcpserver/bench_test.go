package mcpserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/mcpserver"
)

// BenchmarkToolsCallLookup is the in-process cost of one metered
// lookup_product call through the handler (no network);
// BenchmarkLookupProductQuery is the query alone on the same data, so the
// difference is the MCP overhead: authentication, metering, JSON-RPC
// decoding, arguments, headers and the result's envelope. The request and
// the writer are reused, so that neither httptest's request nor its
// recorder is counted.
func BenchmarkToolsCallLookup(b *testing.B) {
	benchToolsCall(b, callTool("lookup_product", `{"upc":"`+samples.CarriedUPC+`","province":"ON"}`))
}

// BenchmarkToolsCallLookup2026 is the same call as a client of the
// 2026-07-28 revision sends it: _meta in the params, and the headers.
func BenchmarkToolsCallLookup2026(b *testing.B) {
	benchToolsCall(b, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"`+samples.CarriedUPC+`","province":"ON"},"_meta":`+meta2026+`}}`,
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_product")
}

func benchToolsCall(b *testing.B, msg string, headers ...string) {
	k, err := svc.CreateKey(b.Context(), grocery.KeyInput{Account: "bench", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := mcpserver.New(svc, nil)
	body := []byte(msg)
	rb := &rewindBody{}
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Body = rb
	req.ContentLength = int64(len(body))
	req.Header.Set("Authorization", "Bearer "+k.Key)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		rb.Reset(body)
		clear(w.h)
		w.code, w.n = 0, 0
		h.ServeHTTP(w, req)
		if w.code != http.StatusOK || w.n == 0 {
			b.Fatal(w.code)
		}
	}
}

func BenchmarkLookupProductQuery(b *testing.B) {
	in := grocery.LookupInput{UPC: samples.CarriedUPC, Province: "ON", Limit: grocery.Some(10)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.LookupProduct(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// rewindBody is a request body the benchmark refills for each request.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// discard is a ResponseWriter that keeps the status and the body's size
// only, so the benchmark measures the handler, not a recorder.
type discard struct {
	h    http.Header
	code int
	n    int
}

func (d *discard) Header() http.Header  { return d.h }
func (d *discard) WriteHeader(code int) { d.code = code }
func (d *discard) Write(b []byte) (int, error) {
	d.n += len(b)
	return len(b), nil
}
