package mcpserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/mcpserver"
)

// BenchmarkToolsCallLookup is the in-process cost of one metered
// lookup_product call through the handler (no network).
func BenchmarkToolsCallLookup(b *testing.B) {
	k, err := svc.CreateKey(b.Context(), grocery.KeyInput{Account: "bench", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	h := mcpserver.New(svc, nil)
	body := callTool("lookup_product", `{"upc":"`+samples.CarriedUPC+`","province":"ON"}`)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+k.Key)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}
