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
	k, err := svc.CreateKey(b.Context(), grocery.KeyInput{Account: "bench", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := mcpserver.New(svc, nil)
	body := []byte(callTool("lookup_product", `{"upc":"`+samples.CarriedUPC+`","province":"ON"}`))
	rb := &rewindBody{}
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Body = rb
	req.ContentLength = int64(len(body))
	req.Header.Set("Authorization", "Bearer "+k.Key)
	req.Header.Set("Content-Type", "application/json")
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
	in := grocery.LookupInput{UPC: samples.CarriedUPC, Province: "ON"}
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
