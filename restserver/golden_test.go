package restserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestGoldenAnswers: a few representative answers on the hand-made data
// (a store's prices, a search by words and by barcode, one price, a
// product's offers, a SKU's history, the stores near a postal code, a
// problem, the executive brief as JSON and as its printable HTML page)
// are those in testdata/answers/, byte for byte: status, Content-Type and
// body. After a change that is meant, 'go test -run TestGoldenAnswers -update ./restserver' rewrites
// them; review the diff before committing it. Quota headers are left
// out: they count the test's own calls. The request id is the test's.
func TestGoldenAnswers(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	for _, tc := range []struct{ name, path string }{
		{"prices.json", "/prices?banner=loblaws&store=lob-a"},
		{"search.json", "/search?q=milk&province=ON"},
		{"price.json", "/price?banner=loblaws&store=lob-a&sku=L1"},
		{"search_barcode.json", "/search?q=068000000154&province=ON"},
		{"product.json", "/products/068000000154?province=ON"},
		{"history.json", "/history?sku=L1&banner=loblaws&province=ON&period=7d"},
		{"stores.json", "/stores?near=M5V2T6"},
		{"problem_province.json", "/search?q=milk&province=Ontari"},
		{"brief.json", "/b2b/executive_brief?province=ON&banner=loblaws"},
		{"brief.html", "/b2b/executive_brief?province=ON&banner=loblaws&format=html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // reads only; the account's quota is the plan's
			req := servetest.Request(t, http.MethodGet, srv.URL+tc.path, "")
			req.Header.Set("X-Request-Id", "golden-"+tc.name) // a problem holds it
			r := do(t, key, req)
			var b strings.Builder
			fmt.Fprintf(&b, "GET %s\n%d %s\n\n", tc.path, r.status, r.header.Get("Content-Type"))
			b.Write(r.body)
			servetest.Golden(t, "answers/"+tc.name, []byte(b.String()))
		})
	}
}
