package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/mcpserver"
)

// The tests share one demo data file and one server; each test makes its
// own account, so quotas never mix, and runs in parallel with the others
// (but those that count allocations, which testing runs alone).
var (
	svc     *grocery.Service
	srv     *httptest.Server
	samples grocery.DemoSamples
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mcpserver-test")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// The clock sits inside the demo's month, so quota resets fall on
	// 2026-12-01.
	svc, samples, err = servetest.Demo(filepath.Join(dir, "grocery.db"), nil)
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	srv = httptest.NewServer(routes(mcpserver.New(svc, &mcpserver.Options{AllowedOrigins: []string{"https://allowed.example"}, AllowLoopbackOrigins: true, MaxBodyBytes: 64 << 10})))
	defer srv.Close()
	return m.Run()
}

// routes mounts the handler as grocery serve does.
func routes(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/.well-known/", h)
	return mux
}

type reply struct {
	status int
	header http.Header
	body   []byte
	msg    struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
}

// post sends one MCP POST; extra holds header pairs.
func post(t *testing.T, key, body string, extra ...string) *reply {
	t.Helper()
	req := servetest.Request(t, http.MethodPost, srv.URL+"/mcp", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) *reply {
	t.Helper()
	a := servetest.Do(t, req)
	r := &reply{status: a.Status, header: a.Header, body: a.Body}
	if len(r.body) > 0 && strings.HasPrefix(a.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(r.body, &r.msg); err != nil {
			t.Fatalf("response is not JSON: %v\n%s", err, r.body)
		}
	}
	return r
}

func rpc(id int, method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

func callTool(name, args string) string {
	return rpc(7, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args))
}

// remaining reads X-Quota-Remaining.
func remaining(t *testing.T, r *reply) int64 {
	t.Helper()
	n, err := strconv.ParseInt(r.header.Get("X-Quota-Remaining"), 10, 64)
	if err != nil {
		t.Fatalf("X-Quota-Remaining %q: %v", r.header.Get("X-Quota-Remaining"), err)
	}
	return n
}

func wantStatus(t *testing.T, r *reply, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status: got %d, want %d\n%s", r.status, status, r.body)
	}
}

// TestInitialize: the 2025 handshake answers the version the client asks
// for when the server speaks it, else the newest 2025 one (it answered
// 2025-06-18 to every client before), and serverInfo carries the build's
// version.
func TestInitialize(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	// Params the server does not read may take any form.
	r := post(t, key, rpc(1, "initialize", `{"protocolVersion":"2025-06-18","name":["x"],"arguments":5}`))
	wantStatus(t, r, http.StatusOK)
	if r.msg.Error != nil {
		t.Fatalf("initialize with unusual params: %+v", r.msg.Error)
	}
	for _, tc := range []struct{ asked, want string }{
		{`"2025-06-18"`, "2025-06-18"},
		{`"2025-03-26"`, "2025-03-26"},
		{`"2025-11-25"`, "2025-11-25"},
		{`"2024-11-05"`, "2025-11-25"},
		{`"1999-01-01"`, "2025-11-25"},
		{`"2026-07-28"`, "2025-11-25"}, // a revision without handshake is never agreed by initialize
		{`5`, "2025-11-25"},
		{`null`, "2025-11-25"},
	} {
		r := post(t, key, rpc(1, "initialize", `{"protocolVersion":`+tc.asked+`,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}`))
		wantStatus(t, r, http.StatusOK)
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
			Capabilities    struct {
				Tools struct {
					ListChanged *bool `json:"listChanged"`
				} `json:"tools"`
			} `json:"capabilities"`
			ServerInfo   map[string]string `json:"serverInfo"`
			Instructions string            `json:"instructions"`
			ResultType   *string           `json:"resultType"`
		}
		if err := json.Unmarshal(r.msg.Result, &res); err != nil {
			t.Fatal(err)
		}
		if res.ProtocolVersion != tc.want || res.Capabilities.Tools.ListChanged == nil || *res.Capabilities.Tools.ListChanged || res.ResultType != nil {
			t.Fatalf("asked %s: got %s, want protocolVersion %s", tc.asked, r.msg.Result, tc.want)
		}
		if res.ServerInfo["name"] != "grocery" || res.ServerInfo["title"] == "" || res.ServerInfo["version"] == "" {
			t.Fatalf("serverInfo: got %v", res.ServerInfo)
		}
		if !strings.Contains(res.Instructions, "external_sku") || !strings.Contains(res.Instructions, "does not prove") {
			t.Fatalf("instructions do not explain the chain and empty results: %q", res.Instructions)
		}
		if string(r.msg.ID) != "1" || r.header.Get("Mcp-Session-Id") != "" {
			t.Fatalf("got id %s, session %q; want id 1 and no session", r.msg.ID, r.header.Get("Mcp-Session-Id"))
		}
	}
}

// TestServerInfoVersion: serverInfo carries the build's version (it said
// "dev"), in both eras.
func TestServerInfoVersion(t *testing.T) {
	t.Parallel()
	if v := grocery.Version(); v == "dev" || !strings.HasPrefix(v, grocery.Release) {
		t.Fatalf("grocery.Version() = %q, want the release %s (and the revision)", v, grocery.Release)
	}
	key := servetest.Key(t, svc, "starter", 0)
	var res struct {
		ServerInfo struct{ Version string } `json:"serverInfo"`
	}
	json.Unmarshal(post(t, key, rpc(1, "initialize", `{"protocolVersion":"2025-06-18"}`)).msg.Result, &res)
	if res.ServerInfo.Version != grocery.Version() {
		t.Fatalf("serverInfo.version: got %q, want %q", res.ServerInfo.Version, grocery.Version())
	}
}

func TestToolsList(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	r := post(t, key, rpc(2, "tools/list", ""))
	wantStatus(t, r, http.StatusOK)
	var res struct {
		Tools []struct {
			Name        string `json:"name"`
			Title       string `json:"title"`
			Description string `json:"description"`
			InputSchema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			} `json:"inputSchema"`
			OutputSchema map[string]any `json:"outputSchema"`
			Annotations  map[string]any `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.msg.Result, &res); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"lookup_product":        {"upc", "province"},
		"search_products":       {"query", "province"},
		"price_history":         {"sku", "banner", "province"},
		"list_reference_stores": nil,
	}
	if len(res.Tools) != 4 {
		t.Fatalf("got %d tools, want exactly 4", len(res.Tools))
	}
	for _, tl := range res.Tools {
		req, ok := want[tl.Name]
		if !ok {
			t.Fatalf("unexpected tool %q", tl.Name)
		}
		if diff := cmp.Diff(req, tl.InputSchema.Required); diff != "" {
			t.Errorf("%s required (-want +got):\n%s", tl.Name, diff)
		}
		if tl.Title == "" || len(tl.Description) < 200 || tl.InputSchema.Type != "object" || tl.OutputSchema["type"] != "object" {
			t.Errorf("%s: title, a model-oriented description, and object schemas are required", tl.Name)
		}
		if tl.Annotations["readOnlyHint"] != true || tl.Annotations["openWorldHint"] != false {
			t.Errorf("%s annotations: got %v", tl.Name, tl.Annotations)
		}
	}
}

func TestUnmeteredMethods(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, body := range []string{
		rpc(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`),
		rpc(2, "tools/list", ""),
		rpc(3, "ping", ""),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	} {
		r := post(t, key, body)
		if got := remaining(t, r); got != 1000 {
			t.Fatalf("%s: X-Quota-Remaining %d, want 1000 (unmetered)", body, got)
		}
		if r.header.Get("X-Quota-Limit") != "1000" || r.header.Get("X-Quota-Reset") != "2026-12-01T00:00:00Z" {
			t.Fatalf("quota headers: got %v", r.header)
		}
	}
	u, _ := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", "."))
	if u.Used != 0 {
		t.Fatalf("used: got %d, want 0", u.Used)
	}
}

func TestPingAndNotifications(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	r := post(t, key, rpc(9, "ping", ""))
	wantStatus(t, r, http.StatusOK)
	if string(r.msg.Result) != "{}" {
		t.Fatalf("ping: got %s, want {}", r.msg.Result)
	}
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
	} {
		r := post(t, key, body)
		wantStatus(t, r, http.StatusAccepted)
		if len(r.body) != 0 {
			t.Fatalf("%s: got body %q, want none", body, r.body)
		}
	}
}

// TestMetering: every tools/call costs exactly one call, whatever happens.
func TestMetering(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	calls := []string{
		callTool("lookup_product", `{"upc":"`+samples.CarriedUPC+`","province":"ON"}`), // success
		callTool("lookup_product", `{"upc":"`+samples.UnknownUPC+`","province":"ON"}`), // not found
		callTool("lookup_product", `{"upc":"123","province":"ON"}`),                    // invalid
		callTool("no_such_tool", `{}`),                                                 // unknown tool
		rpc(7, "tools/call", `{}`),                                                     // no name
		callTool("list_reference_stores", `{"province":"QC","limit":2}`),               // success
		callTool("search_products", `{"query":"milk","province":"ON","extra":1}`),      // unknown argument
		callTool("price_history", `{"sku":"`+samples.SKU+`","banner":"`+samples.Banner+`","province":"ON"}`),
	}
	for i, body := range calls {
		r := post(t, key, body)
		wantStatus(t, r, http.StatusOK)
		if got, want := remaining(t, r), int64(1000-i-1); got != want {
			t.Fatalf("call %d (%s): X-Quota-Remaining %d, want %d", i, body, got, want)
		}
	}
	u, _ := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", "."))
	if u.Used != int64(len(calls)) {
		t.Fatalf("used: got %d, want %d", u.Used, len(calls))
	}
}

func TestQuotaExceeded(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 2)
	body := callTool("list_reference_stores", `{}`)
	for i := 0; i < 2; i++ {
		wantStatus(t, post(t, key, body), http.StatusOK)
	}
	for i := 0; i < 2; i++ { // retrying does not help
		r := post(t, key, body)
		wantStatus(t, r, http.StatusOK)
		res := toolResult(t, r)
		if !res.IsError || !strings.HasPrefix(res.Content[0].Text, "quota_exceeded:") || res.Meta["code"] != "quota_exceeded" {
			t.Fatalf("got %+v, want a quota_exceeded tool error", res)
		}
		if !strings.Contains(res.Content[0].Text, "2026-12-01T00:00:00Z") {
			t.Fatalf("got %q, want the reset time", res.Content[0].Text)
		}
		// The clock says 2026-11-20T12:00Z: 10.5 days to the reset.
		if ra := r.header.Get("Retry-After"); ra != strconv.Itoa(10*86400+12*3600) {
			t.Fatalf("Retry-After: got %q, want %d", ra, 10*86400+12*3600)
		}
		if remaining(t, r) != 0 {
			t.Fatal("X-Quota-Remaining should be 0")
		}
		// A client reads the reset from _meta without parsing the text.
		want := map[string]any{"code": "quota_exceeded", "reset": "2026-12-01T00:00:00Z", "retry_after_seconds": float64(10*86400 + 12*3600)}
		if diff := cmp.Diff(want, res.Meta); diff != "" {
			t.Fatalf("_meta (-want +got):\n%s", diff)
		}
	}
	// Free methods still answer.
	wantStatus(t, post(t, key, rpc(1, "tools/list", "")), http.StatusOK)
}

type callResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	Meta              map[string]any  `json:"_meta"`
}

func toolResult(t *testing.T, r *reply) *callResult {
	t.Helper()
	if r.msg.Error != nil {
		t.Fatalf("got JSON-RPC error %+v, want a tool result", r.msg.Error)
	}
	var res callResult
	if err := json.Unmarshal(r.msg.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("content: got %+v, want one text item", res.Content)
	}
	return &res
}

// TestToolResults: each tool's structured content is the library's result,
// and the text is the same JSON.
func TestToolResults(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	ctx := context.Background()
	lookup, _ := svc.LookupProduct(ctx, grocery.LookupInput{UPC: samples.CarriedUPC, Province: "ON", Limit: grocery.Some(3)})
	// Without a limit, the tools give 10.
	search, _ := svc.SearchProducts(ctx, grocery.SearchInput{Query: samples.Query, Province: "ON", Limit: grocery.Some(10)})
	history, _ := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: samples.SKU, Banner: samples.Banner, Province: "ON", Period: "90d"})
	stores, _ := svc.ListReferenceStores(ctx, grocery.StoresInput{Province: "QC", Limit: grocery.Some(10)})
	notCarried, _ := svc.LookupProduct(ctx, grocery.LookupInput{UPC: samples.NotCarriedUPC, Province: "ON", Limit: grocery.Some(10)})
	for _, tc := range []struct {
		name, args string
		want       any
	}{
		{"lookup_product", `{"upc":"` + samples.CarriedUPC + `","province":"Ontario","limit":3}`, lookup},
		{"lookup_product", `{"upc":"` + samples.NotCarriedUPC + `","province":"on"}`, notCarried},
		{"search_products", `{"query":"` + samples.Query + `","province":"ON"}`, search},
		{"price_history", `{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"ON","period":"90d"}`, history},
		{"list_reference_stores", `{"province":"QC"}`, stores},
	} {
		r := post(t, key, callTool(tc.name, tc.args))
		wantStatus(t, r, http.StatusOK)
		res := toolResult(t, r)
		want := marshalNoEscape(t, tc.want)
		if res.IsError || string(res.StructuredContent) != string(want) || res.Content[0].Text != string(want) {
			t.Fatalf("%s %s:\ngot  %s\ntext %s\nwant %s", tc.name, tc.args, res.StructuredContent, res.Content[0].Text, want)
		}
	}
	if len(notCarried.Offers) != 0 || len(lookup.Offers) == 0 || len(history.Points) == 0 {
		t.Fatal("the samples should give offers, no offers and a history")
	}
}

func TestToolErrors(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	for _, tc := range []struct {
		name, tool, args, code, text string
	}{
		{"ErrProvince", "lookup_product", `{"upc":"` + samples.CarriedUPC + `","province":"Ontari"}`, "invalid_argument", "want one of AB BC"},
		{"ErrNoProvince", "search_products", `{"query":"milk"}`, "invalid_argument", "province is required"},
		{"ErrCheckDigit", "lookup_product", `{"upc":"067000378088","province":"ON"}`, "invalid_argument", "check digit should be 9"},
		{"ErrUPCNumber", "lookup_product", `{"upc":67000378089,"province":"ON"}`, "invalid_argument", "leading zeros"},
		{"ErrNotFound", "lookup_product", `{"upc":"` + samples.UnknownUPC + `","province":"ON"}`, "not_found", "not in the catalogue"},
		{"ErrBarcodeAsSKU", "price_history", `{"sku":"` + samples.CarriedUPC + `","banner":"` + samples.Banner + `","province":"ON"}`, "not_found", "is a barcode, not an external_sku: price history is keyed by the banner's own SKU; take the external_sku of an offer or a search hit from lookup_product or search_products"},
		{"ErrRestricted", "lookup_product", `{"upc":"212345678909","province":"ON"}`, "invalid_argument", "cannot be looked up across banners; search by name with search_products"},
		{"ErrPeriod", "price_history", `{"sku":"x","banner":"metro","province":"ON","period":"2d"}`, "invalid_argument", "7d, 14d, 30d"},
		{"ErrBanner", "list_reference_stores", `{"banner":"frills"}`, "invalid_argument", "want one of"},
		{"ErrLimitZero", "list_reference_stores", `{"limit":0}`, "invalid_argument", "limit 0 is out of range: want 1 to 50"},
		{"ErrLimitHigh", "search_products", `{"query":"milk","province":"ON","limit":51}`, "invalid_argument", "want 1 to 50"},
		{"ErrLimitHighStores", "list_reference_stores", `{"limit":51}`, "invalid_argument", "limit 51 is out of range: want 1 to 50 (default 10)"},
		{"ErrLimitHighLookup", "lookup_product", `{"upc":"` + samples.CarriedUPC + `","province":"ON","limit":51}`, "invalid_argument", "limit 51 is out of range: want 1 to 50 (default 10)"},
		{"ErrLimitString", "search_products", `{"query":"milk","province":"ON","limit":"5"}`, "invalid_argument", "whole number"},
		{"ErrUnknownArgument", "lookup_product", `{"upc":"x","province":"ON","store":"1"}`, "invalid_argument", `unknown argument "store"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, key, callTool(tc.tool, tc.args))
			wantStatus(t, r, http.StatusOK)
			res := toolResult(t, r)
			if !res.IsError || !strings.HasPrefix(res.Content[0].Text, tc.code+": ") || res.Meta["code"] != tc.code || res.StructuredContent != nil {
				t.Fatalf("got %+v, want a %s tool error", res, tc.code)
			}
			if !strings.Contains(res.Content[0].Text, tc.text) {
				t.Fatalf("got %q, want it to contain %q", res.Content[0].Text, tc.text)
			}
		})
	}
}

func TestJSONRPCErrors(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, tc := range []struct {
		name, body string
		status     int
		code       int
	}{
		{"ErrParse", `{"jsonrpc":"2.0",`, http.StatusBadRequest, -32700},
		{"ErrBatch", `[` + rpc(1, "ping", "") + `]`, http.StatusBadRequest, -32600},
		{"ErrParseBatch", `[` + rpc(1, "ping", ""), http.StatusBadRequest, -32700}, // found by FuzzHandler
		{"ErrVersion", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, http.StatusBadRequest, -32600},
		{"ErrNoID", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, http.StatusBadRequest, -32600},
		{"ErrMethod", rpc(1, "resources/list", ""), http.StatusOK, -32601},
		{"ErrUnknownTool", callTool("get_weather", `{}`), http.StatusOK, -32602},
		{"ErrToolCallParams", rpc(1, "tools/call", `{"arguments":{}}`), http.StatusOK, -32602},
		{"ErrToolCallParamsArray", rpc(1, "tools/call", `[1,2]`), http.StatusOK, -32602},
		{"ErrToolNameNotString", rpc(1, "tools/call", `{"name":5,"arguments":{}}`), http.StatusOK, -32602},
		{"ErrArgumentsNotObject", rpc(1, "tools/call", `{"name":"lookup_product","arguments":"upc"}`), http.StatusOK, -32602},
		{"ErrMethodNotString", `{"jsonrpc":"2.0","id":1,"method":5}`, http.StatusBadRequest, -32600},
		{"ErrNotAnObject", `"ping"`, http.StatusBadRequest, -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, key, tc.body)
			wantStatus(t, r, tc.status)
			if r.msg.Error == nil || r.msg.Error.Code != tc.code || r.msg.JSONRPC != "2.0" {
				t.Fatalf("got %s, want JSON-RPC error %d", r.body, tc.code)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	revoked := servetest.Key(t, svc, "starter", 0)
	if _, err := svc.RevokeKey(context.Background(), revoked); err != nil {
		t.Fatal(err)
	}
	// RFC 6750: a request without a bearer token gets a bare challenge
	// (section 3.1: no error code), one with a token the server refuses
	// gets invalid_token and an error_description, which SDKs show.
	const missing = `Bearer realm="grocery"`
	invalid := func(why string) string {
		return `Bearer realm="grocery", error="invalid_token", error_description="` + why + `"`
	}
	for _, tc := range []struct{ name, auth, challenge string }{
		{"ErrMissing", "", missing},
		{"ErrScheme", "Basic " + key, missing},
		{"ErrMalformed", "Bearer nope", invalid("API key is missing or malformed: want the key you were given, of the form PREFIX_pk_...")},
		{"ErrUnknown", "Bearer gro_pk_" + strings.Repeat("x", 40), invalid("API key is not known: check it, or ask for a new one")},
		{"ErrRevoked", "Bearer " + revoked, "revoked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, body := range []string{rpc(4, "initialize", `{}`), rpc(4, "tools/list", ""), callTool("lookup_product", `{}`)} {
				r := post(t, "", body, "Authorization", tc.auth)
				wantStatus(t, r, http.StatusUnauthorized)
				got := r.header.Get("WWW-Authenticate")
				if tc.challenge == "revoked" {
					if !strings.HasPrefix(got, `Bearer realm="grocery", error="invalid_token", error_description="API key `) || !strings.HasSuffix(got, ` was revoked: ask for a new one"`) {
						t.Fatalf("WWW-Authenticate: got %q, want invalid_token saying the key was revoked", got)
					}
				} else if got != tc.challenge {
					t.Fatalf("WWW-Authenticate: got %q, want %q", got, tc.challenge)
				}
				if r.msg.Error == nil || string(r.msg.ID) != "4" && !strings.Contains(body, `"id":7`) {
					t.Fatalf("got %s, want a JSON-RPC error answering the request", r.body)
				}
				if strings.Contains(string(r.body), revoked[15:]) {
					t.Fatal("the response repeats the key")
				}
			}
		})
	}
	t.Run("OKRevokedAtOnce", func(t *testing.T) {
		k := servetest.Key(t, svc, "starter", 0)
		wantStatus(t, post(t, k, rpc(1, "ping", "")), http.StatusOK)
		if _, err := svc.RevokeKey(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, post(t, k, rpc(1, "ping", "")), http.StatusUnauthorized)
	})
}

func TestTransport(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, srv.URL+"/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		r := do(t, req)
		wantStatus(t, r, http.StatusMethodNotAllowed)
		if r.header.Get("Allow") != "POST" {
			t.Fatalf("%s: Allow %q, want POST", method, r.header.Get("Allow"))
		}
	}
	for _, tc := range []struct {
		name   string
		header []string
		status int
	}{
		{"OKProtocolVersion", []string{"MCP-Protocol-Version", "2025-06-18"}, http.StatusOK},
		{"ErrProtocolVersion", []string{"MCP-Protocol-Version", "2031-01-01"}, http.StatusBadRequest},
		{"OKSameOrigin", []string{"Origin", srv.URL}, http.StatusOK},
		{"OKAllowedOrigin", []string{"Origin", "https://allowed.example"}, http.StatusOK},
		{"ErrOrigin", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"ErrContentType", []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType},
		{"ErrContentEncoding", []string{"Content-Encoding", "gzip"}, http.StatusUnsupportedMediaType},
		{"OKContentEncodingIdentity", []string{"Content-Encoding", "identity"}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantStatus(t, post(t, key, rpc(1, "ping", ""), tc.header...), tc.status)
		})
	}
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		big := callTool("search_products", `{"query":"`+strings.Repeat("a", 70<<10)+`","province":"ON"}`)
		wantStatus(t, post(t, key, big), http.StatusRequestEntityTooLarge)
	})
	t.Run("WellKnown404", func(t *testing.T) {
		for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/mcp"} {
			resp, err := http.Get(srv.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				t.Fatalf("%s: got %d, want 404", p, resp.StatusCode)
			}
		}
	})
}

// marshalNoEscape is json.Marshal without HTML escaping, as results are
// encoded.
func marshalNoEscape(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// TestJSONRPCStrict: member names match exactly, an envelope member given
// twice makes the request invalid, and an invalid id is answered with
// null; none of these is executed or metered.
func TestJSONRPCStrict(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	lookup := `{"name":"lookup_product","arguments":{"upc":"` + samples.CarriedUPC + `","province":"ON"}}`
	for _, tc := range []struct{ name, body string }{
		{"ErrMethodCase", `{"jsonrpc":"2.0","id":1,"METHOD":"tools/call","params":` + lookup + `}`},
		{"ErrMethodMixedCase", `{"jsonrpc":"2.0","id":1,"Method":"tools/call","params":` + lookup + `}`},
		{"ErrDuplicateMethod", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":` + lookup + `}`},
		{"ErrDuplicateID", `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":` + lookup + `}`},
		{"ErrDuplicateParams", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{},"params":` + lookup + `}`},
		{"ErrDuplicateJSONRPC", `{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"tools/call","params":` + lookup + `}`},
		{"ErrObjectID", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":` + lookup + `}`},
		{"ErrArrayID", `{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":` + lookup + `}`},
		{"ErrBoolID", `{"jsonrpc":"2.0","id":true,"method":"tools/call","params":` + lookup + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, key, tc.body)
			wantStatus(t, r, http.StatusBadRequest)
			if r.msg.Error == nil || r.msg.Error.Code != -32600 {
				t.Fatalf("got %s, want JSON-RPC error -32600", r.body)
			}
			if id := string(r.msg.ID); id != "null" && id != "1" {
				t.Fatalf("got id %s, want null (or the request's valid id 1)", id)
			}
			if strings.Contains(tc.body, `"id":{`) || strings.Contains(tc.body, `"id":[`) || strings.Contains(tc.body, `"id":true`) {
				if string(r.msg.ID) != "null" {
					t.Fatalf("got id %s, want null for an invalid id", r.msg.ID)
				}
			}
		})
	}
	u, _ := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", "."))
	if u.Used != 0 {
		t.Fatalf("used: got %d, want 0: an invalid request was executed", u.Used)
	}
}

// TestOriginRebinding: the Origin check never trusts the request's own
// Host, which a DNS-rebinding page controls; loopback origins pass only
// when the server is told it listens on loopback.
func TestOriginRebinding(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	send := func(t *testing.T, base, host, origin string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(rpc(1, "ping", "")))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Origin", origin)
		return do(t, req).status
	}
	t.Run("ErrSameAsHost", func(t *testing.T) {
		if got := send(t, srv.URL, "rebind.example:8080", "http://rebind.example:8080"); got != http.StatusForbidden {
			t.Fatalf("got %d, want 403 for an Origin that only matches the Host header", got)
		}
	})
	t.Run("ErrLoopbackNotListening", func(t *testing.T) {
		other := httptest.NewServer(routes(mcpserver.New(svc, &mcpserver.Options{})))
		defer other.Close()
		if got := send(t, other.URL, "", other.URL); got != http.StatusForbidden {
			t.Fatalf("got %d, want 403 for a loopback Origin on a server not told it listens on loopback", got)
		}
	})
	t.Run("OKLoopback", func(t *testing.T) {
		for _, origin := range []string{srv.URL, "http://localhost:3000", "http://[::1]:5173"} {
			if got := send(t, srv.URL, "", origin); got != http.StatusOK {
				t.Fatalf("%s: got %d, want 200 on a loopback server", origin, got)
			}
		}
	})
}
