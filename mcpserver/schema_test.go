package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestSchemas validates real tool calls against the schemas tools/list
// advertises: the arguments against inputSchema, and every result,
// including the empty and null cases, against outputSchema.
func TestSchemas(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	r := post(t, key, rpc(1, "tools/list", ""))
	wantStatus(t, r, http.StatusOK)
	var list struct {
		Tools []struct {
			Name         string             `json:"name"`
			InputSchema  *jsonschema.Schema `json:"inputSchema"`
			OutputSchema *jsonschema.Schema `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.msg.Result, &list); err != nil {
		t.Fatal(err)
	}
	calls := map[string][]string{
		"lookup_product": {
			`{"upc":"` + samples.CarriedUPC + `","province":"ON","limit":50}`, // promotions, unit prices
			`{"upc":"` + samples.NotCarriedUPC + `","province":"ON"}`,         // no offers
		},
		"search_products": {
			`{"query":"` + samples.Query + `","province":"ON","limit":50}`, `{"query":"zzzz","province":"ON"}`,
			`{"query":"cheapest milk 4 L","province":"ON","limit":1}`, // a size, a stop word, next_offset
			`{"query":"milk oikos","province":"ON"}`,                  // nothing: a hint
		},
		"price_history": {
			`{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"ON","period":"365d"}`,
			`{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"NU"}`, // no points, stats null
		},
		"list_reference_stores": {`{"limit":50}`, `{"province":"NU","banner":"metro"}`},
	}
	for _, tl := range list.Tools {
		in, err := tl.InputSchema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s inputSchema: %v", tl.Name, err)
		}
		out, err := tl.OutputSchema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s outputSchema: %v", tl.Name, err)
		}
		if len(calls[tl.Name]) == 0 {
			t.Fatalf("no calls for %s", tl.Name)
		}
		for _, args := range calls[tl.Name] {
			var a map[string]any
			if err := json.Unmarshal([]byte(args), &a); err != nil {
				t.Fatal(err)
			}
			if err := in.Validate(a); err != nil {
				t.Fatalf("%s %s: arguments fail inputSchema: %v", tl.Name, args, err)
			}
			res := toolResult(t, post(t, key, callTool(tl.Name, args)))
			if res.IsError {
				t.Fatalf("%s %s: %s", tl.Name, args, res.Content[0].Text)
			}
			var v map[string]any
			if err := json.Unmarshal(res.StructuredContent, &v); err != nil {
				t.Fatal(err)
			}
			if err := out.Validate(v); err != nil {
				t.Fatalf("%s %s: result fails outputSchema: %v\n%s", tl.Name, args, err, res.StructuredContent)
			}
		}
	}
	// The input schemas accept every form the tools accept: a province
	// as a code in any case or an English or French name.
	for _, tl := range list.Tools {
		in, _ := tl.InputSchema.Resolve(nil)
		for _, prov := range []string{"on", "Ontario", "QUÉBEC", "quebec", " qc ", "Colombie-Britannique"} {
			args := map[string]string{
				"lookup_product":        `{"upc":"` + samples.CarriedUPC + `","province":"` + prov + `"}`,
				"search_products":       `{"query":"` + samples.Query + `","province":"` + prov + `"}`,
				"price_history":         `{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"` + prov + `"}`,
				"list_reference_stores": `{"province":"` + prov + `"}`,
			}[tl.Name]
			var a map[string]any
			if err := json.Unmarshal([]byte(args), &a); err != nil {
				t.Fatal(err)
			}
			if err := in.Validate(a); err != nil {
				t.Errorf("%s: inputSchema refuses %s, which the tool accepts: %v", tl.Name, args, err)
			}
			if res := toolResult(t, post(t, key, callTool(tl.Name, args))); res.IsError {
				t.Errorf("%s %s: %s", tl.Name, args, res.Content[0].Text)
			}
		}
	}
	// The input schemas refuse what the server refuses.
	for _, tl := range list.Tools {
		if tl.Name != "lookup_product" {
			continue
		}
		in, _ := tl.InputSchema.Resolve(nil)
		for _, bad := range []string{`{"upc":"x"}`, `{"upc":"068000000154","province":5}`, `{"upc":"068000000154","province":"ON","limit":0}`, `{"upc":"068000000154","province":"ON","store":1}`} {
			var a map[string]any
			json.Unmarshal([]byte(bad), &a)
			if in.Validate(a) == nil {
				t.Fatalf("inputSchema accepts %s", bad)
			}
		}
	}
}

// TestToolsListBudget keeps tools/list small: a client puts it in the
// model's context on every conversation, before any question is asked.
// The four tools took 9,561 bytes before they were trimmed to what a model
// needs and 7,345 after; 8,000 bytes (about 2,000 tokens) leaves room for
// a sentence or two, so growth past it is a decision, not a drift. 8,200:
// a search result is a catalogue entry (banner, banner_name, external_sku,
// price, regular_price, on_promo, observed_at of its cheapest banner SKU,
// as the contract has it) as well as the product's next offers. 8,300:
// search_products says what a result with an empty upc (a product sold
// under no barcode) allows.
func TestToolsListBudget(t *testing.T) {
	t.Parallel()
	const budget = 8300
	r := post(t, servetest.Key(t, svc, "starter", 0), rpc(1, "tools/list", ""))
	wantStatus(t, r, http.StatusOK)
	if n := len(r.msg.Result); n > budget {
		t.Errorf("tools/list result: got %d bytes, want at most %d", n, budget)
	}
}

// TestSchemasPortable walks every input and output schema tools/list
// advertises and refuses a type array (["string","null"]): some model
// providers reject one, and the Inspector's strict mode warns on it. A
// nullable value is an anyOf of two schemas instead. It also holds the
// annotations every tool carries: all four only read, the same call
// answers the same, and none reaches outside the data set.
func TestSchemasPortable(t *testing.T) {
	t.Parallel()
	r := post(t, servetest.Key(t, svc, "starter", 0), rpc(1, "tools/list", ""))
	wantStatus(t, r, http.StatusOK)
	var list struct {
		Tools []struct {
			Name         string         `json:"name"`
			Title        string         `json:"title"`
			InputSchema  any            `json:"inputSchema"`
			OutputSchema any            `json:"outputSchema"`
			Annotations  map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.msg.Result, &list); err != nil {
		t.Fatal(err)
	}
	var walk func(tool, at string, v any)
	walk = func(tool, at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if ty, ok := v["type"]; ok {
				if _, isArray := ty.([]any); isArray {
					t.Errorf("%s %s: type %v is an array, want anyOf", tool, at, ty)
				}
			}
			for k, w := range v {
				walk(tool, at+"/"+k, w)
			}
		case []any:
			for i, w := range v {
				walk(tool, at+"/"+strconv.Itoa(i), w)
			}
		}
	}
	for _, tl := range list.Tools {
		walk(tl.Name, "inputSchema", tl.InputSchema)
		walk(tl.Name, "outputSchema", tl.OutputSchema)
		want := map[string]any{"title": tl.Title, "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}
		if diff := cmp.Diff(want, tl.Annotations); diff != "" {
			t.Errorf("%s annotations (-want +got):\n%s", tl.Name, diff)
		}
	}
}
