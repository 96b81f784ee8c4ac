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
	k, err := svc.CreateKey(b.Context(), grocery.KeyInput{Account: "bench-rest", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := restserver.New(svc, nil)
	req := httptest.NewRequest(http.MethodGet, "/price?banner=loblaws&store=lob-a&sku=L1", nil)
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
