package server_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// BenchmarkRoutes is the in-process cost of a request through the whole
// route table as the binaries serve it (the access log, panic recovery,
// the mux, the interface), next to the query alone on the same data: the
// difference is what a request costs above its query. The log goes to
// io.Discard through the binaries' text handler; the request and the
// writer are reused, so that httptest's are not counted.
func BenchmarkRoutes(b *testing.B) {
	ctx := context.Background()
	db := filepath.Join(b.TempDir(), "g.db")
	sum, err := grocery.BuildDemo(ctx, db, &grocery.DemoOptions{AsOf: 20776})
	if err != nil {
		b.Fatal(err)
	}
	svc, err := grocery.Open(db, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "bench", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := server.Routes(svc, server.Config{}, slog.New(server.NewLogHandler(io.Discard, false)))
	lookup := grocery.LookupInput{UPC: sum.Samples.CarriedUPC, Province: "ON", Limit: grocery.Some(10)}
	hits, err := svc.SearchStores(ctx, grocery.StoreSearchInput{Query: "milk", Province: "ON", Limit: grocery.Some(1)})
	if err != nil || len(hits.Results) == 0 {
		b.Fatal("no store price to ask for", err)
	}
	hit := hits.Results[0]
	price := grocery.StorePriceInput{Banner: hit.Banner, Store: hit.StoreID, SKU: hit.ExternalSKU}

	b.Run("MCPToolsCallLookup", func(b *testing.B) {
		body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"` + lookup.UPC + `","province":"ON"}}}`)
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		rb := &rewindBody{}
		req.Body, req.ContentLength = rb, int64(len(body))
		req.Header.Set("Authorization", "Bearer "+k.Key)
		req.Header.Set("Content-Type", "application/json")
		serve(b, h, req, func() { rb.Reset(body) })
	})
	// The same call under the 2026-07-28 revision: _meta in the params and
	// the headers it requires, all checked on every request.
	b.Run("MCPToolsCallLookup2026", func(b *testing.B) {
		body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"` + lookup.UPC + `","province":"ON"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`)
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		rb := &rewindBody{}
		req.Body, req.ContentLength = rb, int64(len(body))
		req.Header.Set("Authorization", "Bearer "+k.Key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "lookup_product")
		serve(b, h, req, func() { rb.Reset(body) })
	})
	b.Run("LookupProduct", func(b *testing.B) {
		b.ReportAllocs()
		c0 := servetest.CPUTime()
		for b.Loop() {
			if _, err := svc.LookupProduct(ctx, lookup); err != nil {
				b.Fatal(err)
			}
		}
		if c := servetest.CPUTime() - c0; c > 0 {
			b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	})
	b.Run("RESTGetPrice", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "/price?banner="+price.Banner+"&store="+price.Store+"&sku="+price.SKU, nil)
		req.Header.Set("X-API-Key", k.Key)
		serve(b, h, req, func() {})
	})
	b.Run("StorePrice", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.StorePrice(ctx, price); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// serve runs req through h b.N times, reset before each. Besides wall
// time it reports the process's CPU time per request (cpu-ns/op), which
// on a shared machine follows the code rather than the load.
func serve(b *testing.B, h http.Handler, req *http.Request, reset func()) {
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	c0 := servetest.CPUTime()
	for b.Loop() {
		reset()
		clear(w.h)
		w.code, w.n = 0, 0
		h.ServeHTTP(w, req)
		if w.code != http.StatusOK || w.n == 0 {
			b.Fatal(w.code)
		}
	}
	if c := servetest.CPUTime() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// rewindBody is a request body the benchmark refills for each request.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// discard is a ResponseWriter that keeps the status and the body's size.
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
