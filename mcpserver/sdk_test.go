package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
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
// implementation of the protocol, in each era: with its default settings
// it asks for 2026-07-28 first (server/discover, then per-request _meta and
// headers); pinned to a 2025 version it runs the initialize handshake. In
// each it lists the tools, calls each one, and chains barcode -> offers ->
// external_sku -> price_history.
func TestOfficialSDKClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ pin, want string }{
		{"", "2026-07-28"},
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
	} {
		t.Run("Protocol"+tc.want, func(t *testing.T) {
			key := servetest.Key(t, svc, "integration", 0)
			sdkSession(t, srv.URL+"/mcp", key, tc.pin, tc.want, samples.CarriedUPC, samples.Query)
			// Every tools/call was metered once; the rest was free.
			if u, _ := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", ".")); u.Used != 5 {
				t.Fatalf("used: got %d, want 5 (the five tools/call)", u.Used)
			}
		})
	}
}

// TestOfficialSDKClientExternal runs the same sessions against a running
// server when GROCERY_MCP_URL and GROCERY_API_KEY are set (CI points it at
// "grocery serve --demo"; the barcode is the README's), and is skipped
// otherwise.
func TestOfficialSDKClientExternal(t *testing.T) {
	t.Parallel()
	url, key := os.Getenv("GROCERY_MCP_URL"), os.Getenv("GROCERY_API_KEY")
	if url == "" || key == "" {
		t.Skip("GROCERY_MCP_URL and GROCERY_API_KEY are not set")
	}
	t.Run("Protocol2026-07-28", func(t *testing.T) { sdkSession(t, url, key, "", "2026-07-28", "067000378089", "milk") })
	t.Run("Protocol2025-11-25", func(t *testing.T) { sdkSession(t, url, key, "2025-11-25", "2025-11-25", "067000378089", "milk") })
}

// sdkSession connects the SDK's client to endpoint, pinned to a version
// (or with its defaults when pin is ""), and checks it agreed on want,
// then drives the four tools from the barcode upc.
func sdkSession(t *testing.T, endpoint, key, pin, want, upc, query string) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk-test", Version: "1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if pin != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: pin}
	}
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: bearerTransport{key}},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	init := session.InitializeResult()
	if init.ProtocolVersion != want || init.ServerInfo == nil || init.ServerInfo.Name != "grocery" ||
		!strings.HasPrefix(init.ServerInfo.Version, grocery.Release) || !strings.Contains(init.Instructions, "external_sku") {
		t.Fatalf("connect: got %+v (serverInfo %+v), want protocol %s", init, init.ServerInfo, want)
	}
	if want < "2026" { // ping is a method of the 2025 revisions only
		if err := session.Ping(ctx, nil); err != nil {
			t.Fatal(err)
		}
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

	call := func(name string, args map[string]any, field string) map[string]json.RawMessage {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s: tool error %+v", name, res.Content)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil || len(m[field]) < 3 {
			t.Fatalf("%s: structured content %s, want a non-empty %q", name, b, field)
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		var fromText any
		if !ok || json.Unmarshal([]byte(text.Text), &fromText) != nil {
			t.Fatalf("%s: text content %+v, want JSON", name, res.Content)
		}
		if diff := cmp.Diff(res.StructuredContent, fromText); diff != "" {
			t.Fatalf("%s: text and structured content differ (-structured +text):\n%s", name, diff)
		}
		return m
	}
	call("search_products", map[string]any{"query": query, "province": "ON", "limit": 5}, "results")
	call("list_reference_stores", map[string]any{"province": "ON", "limit": 3}, "stores")

	// The chain a model follows: barcode -> offers -> external_sku -> history.
	var offers []struct {
		Banner      string `json:"banner"`
		ExternalSKU string `json:"external_sku"`
	}
	if err := json.Unmarshal(call("lookup_product", map[string]any{"upc": upc, "province": "ON"}, "offers")["offers"], &offers); err != nil || len(offers) == 0 || offers[0].ExternalSKU == "" {
		t.Fatalf("offers: %+v, %v", offers, err)
	}
	call("price_history", map[string]any{"sku": offers[0].ExternalSKU, "banner": offers[0].Banner, "province": "ON", "period": "90d"}, "points")

	// A tool error reaches the SDK as a result with IsError, not a failure.
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "price_history", Arguments: map[string]any{"sku": upc, "banner": offers[0].Banner, "province": "ON"}})
	if err != nil || !res.IsError {
		t.Fatalf("a barcode as sku: got %+v, %v; want a tool error", res, err)
	}
}
