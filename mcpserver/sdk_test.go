package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport adds the API key to every request, as an MCP client's
// configured header does.
type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// TestOfficialSDKClient connects the official MCP Go SDK, an independent
// implementation of the protocol, with its default settings, lists the
// tools and calls each one.
func TestOfficialSDKClient(t *testing.T) {
	key := newKey(t, "integration", 0)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk-test", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{key}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	init := session.InitializeResult()
	if init.ProtocolVersion != "2025-06-18" || init.ServerInfo.Name != "grocery" || !strings.Contains(init.Instructions, "external_sku") {
		t.Fatalf("initialize: got %+v", init)
	}
	if err := session.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"list_reference_stores", "lookup_product", "price_history", "search_products"}; !slices.Equal(names, want) {
		t.Fatalf("tools: got %v, want %v", names, want)
	}

	for _, tc := range []struct {
		name string
		args map[string]any
		want string // a field the structured result must have
	}{
		{"lookup_product", map[string]any{"upc": samples.CarriedUPC, "province": "ON"}, "offers"},
		{"search_products", map[string]any{"query": samples.Query, "province": "ON", "limit": 5}, "results"},
		{"price_history", map[string]any{"sku": samples.SKU, "banner": samples.Banner, "province": "ON", "period": "90d"}, "points"},
		{"list_reference_stores", map[string]any{"province": "ON", "limit": 3}, "stores"},
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.IsError {
			t.Fatalf("%s: tool error %+v", tc.name, res.Content)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil || len(m[tc.want]) < 3 {
			t.Fatalf("%s: structured content %s, want a non-empty %q", tc.name, b, tc.want)
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		var fromText any
		if !ok || json.Unmarshal([]byte(text.Text), &fromText) != nil {
			t.Fatalf("%s: text content %+v, want JSON", tc.name, res.Content)
		}
		if diff := cmp.Diff(res.StructuredContent, fromText); diff != "" {
			t.Fatalf("%s: text and structured content differ (-structured +text):\n%s", tc.name, diff)
		}
	}

	// A tool error reaches the SDK as a result with IsError, not a failure.
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_product", Arguments: map[string]any{"upc": samples.UnknownUPC, "province": "ON"}})
	if err != nil || !res.IsError {
		t.Fatalf("unknown barcode: got %+v, %v; want a tool error", res, err)
	}
}
