package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
)

// BenchmarkGetPrice is the in-process cost of one metered GET /price
// through the handler (no network); BenchmarkStorePriceQuery is the query
// alone on the same data, so the difference is the REST overhead:
// routing, authentication, metering, parameters, headers and encoding.
func BenchmarkGetPrice(b *testing.B) {
	benchGet(b, "bench-rest", "/price?banner=loblaws&store=lob-a&sku=L1")
}

// BenchmarkGetCatalogue is the same for the paths that answer as the MCP
// tools do, to be read against BenchmarkGetPrice.
func BenchmarkGetCatalogue(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"product", "/products/" + upcMilk + "?province=ON"},
		{"history", "/history?sku=L1&banner=loblaws&province=ON"},
		{"stores", "/stores?province=ON"},
		{"search_barcode", "/search?q=" + upcMilk + "&province=ON"},
	} {
		b.Run(c.name, func(b *testing.B) { benchGet(b, "bench-rest-"+c.name, c.path) })
	}
}

// benchGet times one metered GET of path by an account of its own.
func benchGet(b *testing.B, account, path string) {
	k, err := svc.CreateKey(b.Context(), grocery.KeyInput{Account: account, Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := restserver.New(svc, nil)
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("X-API-Key", k.Key)
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		w.code = 0
		h.ServeHTTP(w, req)
		if w.code != http.StatusOK {
			b.Fatal(w.code)
		}
	}
}

func BenchmarkStorePriceQuery(b *testing.B) {
	in := grocery.StorePriceInput{Banner: "loblaws", Store: "lob-a", SKU: "L1"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.StorePrice(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// discard is a ResponseWriter that keeps the status only, so the
// benchmark measures the handler, not a recorder.
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
