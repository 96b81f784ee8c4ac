package mcpserver_test

import (
	"net/http"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestAnswerBudget holds what one tools/call costs a model: the whole
// JSON-RPC response, the structured result and its text copy together.
// Clients and directory graders cap a tool answer near 25,000 tokens;
// a search for "milk" in Ontario, the broadest common query of the demo
// data, must stay at 12 KB, and every tool's answer to its default
// arguments at 16 KB. The text copy is never larger than the structured
// one.
func TestAnswerBudget(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, tc := range []struct {
		name, tool, args string
		budget           int
	}{
		{"SearchMilk", "search_products", `{"query":"milk","province":"ON"}`, 12 << 10},
		{"SearchCheese", "search_products", `{"query":"cheese","province":"ON"}`, 16 << 10},
		{"SearchSample", "search_products", `{"query":"` + samples.Query + `","province":"ON"}`, 16 << 10},
		{"Lookup", "lookup_product", `{"upc":"` + samples.CarriedUPC + `","province":"ON"}`, 16 << 10},
		{"History", "price_history", `{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"ON"}`, 16 << 10},
		{"Stores", "list_reference_stores", `{}`, 16 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, key, callTool(tc.tool, tc.args))
			wantStatus(t, r, http.StatusOK)
			res := toolResult(t, r)
			if res.IsError {
				t.Fatalf("got a tool error: %s", res.Content[0].Text)
			}
			if n := len(r.body); n > tc.budget {
				t.Errorf("response: got %d bytes, want at most %d", n, tc.budget)
			}
			if text, structured := len(res.Content[0].Text), len(res.StructuredContent); text > structured {
				t.Errorf("text copy: got %d bytes, want at most the structured %d", text, structured)
			}
			t.Logf("%s: %d bytes", tc.name, len(r.body))
		})
	}
}
