package mcpserver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/mcpserver"
)

// meta2026 is a request's params._meta under 2026-07-28.
const meta2026 = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// send2026 sends a request of the 2026-07-28 revision: params holds the
// members of params besides _meta (may be ""), name is the tools/call's
// tool. The headers are those the revision asks for; extra overrides them
// in pairs, an empty value removing one.
func send2026(t *testing.T, key string, id int, method, params, name string, extra ...string) *reply {
	t.Helper()
	if params != "" {
		params += ","
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":%s}}`, id, method, params, meta2026)
	h := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
	if name != "" {
		h = append(h, "Mcp-Name", name)
	}
	return postRaw(t, key, body, append(h, extra...)...)
}

// postRaw sends one MCP POST; header pairs with an empty value remove the
// header.
func postRaw(t *testing.T, key, body string, headers ...string) *reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if name, ok := strings.CutPrefix(headers[i], "+"); ok { // another line of that header
			req.Header.Add(name, headers[i+1])
			continue
		}
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	return do(t, req)
}

func call2026(t *testing.T, key, tool, args string, extra ...string) *reply {
	t.Helper()
	return send2026(t, key, 7, "tools/call", fmt.Sprintf(`"name":%q,"arguments":%s`, tool, args), tool, extra...)
}

// wantError checks a JSON-RPC error answer: status, code, and the
// request's id.
func wantError(t *testing.T, r *reply, status, code int, id string) {
	t.Helper()
	if r.status != status || r.msg.Error == nil || r.msg.Error.Code != code || string(r.msg.ID) != id || r.msg.JSONRPC != "2.0" {
		t.Fatalf("got %d %s; want %d with error %d and id %s", r.status, r.body, status, code, id)
	}
}

func used(t *testing.T) int64 {
	t.Helper()
	u, err := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", "."))
	if err != nil {
		t.Fatal(err)
	}
	return u.Used
}

// TestProtocolVersionHeader: the 2025 header is checked against the
// versions initialize agrees on. It refused 2025-11-25 and accepted
// 2024-11-05 and 2025-03-26 whatever was agreed before.
func TestProtocolVersionHeader(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		r := post(t, key, rpc(3, "tools/list", ""), "MCP-Protocol-Version", v)
		wantStatus(t, r, http.StatusOK)
		if r.msg.Error != nil || !strings.Contains(string(r.msg.Result), "lookup_product") {
			t.Fatalf("%s: got %s, want the tool list", v, r.body)
		}
	}
	for _, v := range []string{"2024-11-05", "2031-01-01", "latest"} {
		r := post(t, key, rpc(3, "tools/list", ""), "MCP-Protocol-Version", v)
		wantError(t, r, http.StatusBadRequest, -32022, "3")
		var e struct {
			Error struct {
				Message string `json:"message"`
				Data    struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				} `json:"data"`
			} `json:"error"`
		}
		json.Unmarshal(r.body, &e)
		if !slices.Equal(e.Error.Data.Supported, mcpserver.ProtocolVersions()) || e.Error.Data.Requested != v ||
			!strings.Contains(e.Error.Message, "2025-11-25") {
			t.Fatalf("%s: got %s, want the supported versions named", v, r.body)
		}
		if r.header.Get("X-Quota-Remaining") == "" {
			t.Fatalf("%s: no quota headers on an authenticated answer", v)
		}
	}
	if got := mcpserver.ProtocolVersions(); !slices.Equal(got, []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}) {
		t.Fatalf("ProtocolVersions: got %v", got)
	}
}

// TestErrorIDs: every error answer to a readable request carries its id;
// the refusals of the protocol version, of Origin and of Content-Type
// answered "id": null.
func TestErrorIDs(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for _, tc := range []struct {
		name    string
		headers []string
		status  int
		code    int
	}{
		{"ErrVersion", []string{"MCP-Protocol-Version", "2031-01-01"}, http.StatusBadRequest, -32022},
		{"ErrOrigin", []string{"Origin", "https://evil.example"}, http.StatusForbidden, -32600},
		{"ErrContentType", []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType, -32600},
		{"ErrAuth", []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized, -32600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, post(t, key, rpc(41, "tools/list", ""), tc.headers...), tc.status, tc.code, "41")
			wantError(t, post(t, key, `{"jsonrpc":"2.0","id":"s-1","method":"ping"}`, tc.headers...), tc.status, tc.code, `"s-1"`)
		})
	}
	t.Run("Err2026", func(t *testing.T) {
		wantError(t, send2026(t, key, 42, "tools/list", "", "", "Mcp-Method", "tools/call"), http.StatusBadRequest, -32020, "42")
		wantError(t, send2026(t, key, 43, "ping", "", ""), http.StatusNotFound, -32601, "43")
	})
}

// TestDiscover: server/discover under 2026-07-28 names the versions, the
// capabilities, the instructions and (in _meta) the server and its
// build's version, with cache hints; it is free. Under a 2025 revision it
// is an unknown method.
func TestDiscover(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	r := send2026(t, key, 1, "server/discover", "", "")
	wantStatus(t, r, http.StatusOK)
	var res struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
		Instructions      string                     `json:"instructions"`
		TTLMs             *int                       `json:"ttlMs"`
		CacheScope        string                     `json:"cacheScope"`
		ResultType        string                     `json:"resultType"`
		Meta              map[string]struct {
			Name, Title, Version string
		} `json:"_meta"`
	}
	if err := json.Unmarshal(r.msg.Result, &res); err != nil {
		t.Fatal(err)
	}
	info := res.Meta["io.modelcontextprotocol/serverInfo"]
	if !slices.Equal(res.SupportedVersions, []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}) ||
		string(res.Capabilities["tools"]) != `{"listChanged":false}` || len(res.Capabilities) != 1 ||
		!strings.Contains(res.Instructions, "external_sku") || res.TTLMs == nil || *res.TTLMs <= 0 ||
		res.CacheScope != "public" || res.ResultType != "complete" ||
		info.Name != "grocery" || info.Version != grocery.Version() || info.Title == "" {
		t.Fatalf("discover: got %s", r.msg.Result)
	}
	if remaining(t, r) != 1000 || used(t) != 0 {
		t.Fatal("server/discover was metered")
	}
	wantError(t, post(t, key, rpc(2, "server/discover", "")), http.StatusOK, -32601, "2")
}

// TestStateless drives the 2026-07-28 revision: per-request _meta, no
// handshake, results with resultType, tools/list with cache hints, and a
// tools/call metered once, with the same results as under 2025.
func TestStateless(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	r := send2026(t, key, 2, "tools/list", "", "")
	wantStatus(t, r, http.StatusOK)
	var list struct {
		Tools      []json.RawMessage `json:"tools"`
		TTLMs      *int              `json:"ttlMs"`
		CacheScope string            `json:"cacheScope"`
		ResultType string            `json:"resultType"`
	}
	if err := json.Unmarshal(r.msg.Result, &list); err != nil || len(list.Tools) != 4 || list.TTLMs == nil || *list.TTLMs <= 0 ||
		list.CacheScope != "public" || list.ResultType != "complete" {
		t.Fatalf("tools/list: got %s", r.msg.Result)
	}
	// The tools are those of the 2025 revisions, byte for byte.
	var old struct{ Tools []json.RawMessage }
	json.Unmarshal(post(t, key, rpc(2, "tools/list", "")).msg.Result, &old)
	for i := range old.Tools {
		if string(old.Tools[i]) != string(list.Tools[i]) {
			t.Fatalf("tool %d differs between the eras", i)
		}
	}

	args := `{"upc":"` + samples.CarriedUPC + `","province":"ON"}`
	r = call2026(t, key, "lookup_product", args)
	wantStatus(t, r, http.StatusOK)
	var res struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ResultType        string          `json:"resultType"`
	}
	if err := json.Unmarshal(r.msg.Result, &res); err != nil || res.IsError || res.ResultType != "complete" || string(r.msg.ID) != "7" {
		t.Fatalf("tools/call: got %s", r.body)
	}
	var same struct{ StructuredContent json.RawMessage }
	json.Unmarshal(post(t, key, callTool("lookup_product", args)).msg.Result, &same)
	if string(same.StructuredContent) != string(res.StructuredContent) {
		t.Fatal("lookup_product answers differently in the two eras")
	}
	if remaining(t, r) != 999 {
		t.Fatalf("X-Quota-Remaining after one call: got %d, want 999", remaining(t, r))
	}

	// A tool error carries its code and resultType; it is metered too.
	r = call2026(t, key, "lookup_product", `{"upc":"`+samples.UnknownUPC+`","province":"ON"}`)
	wantStatus(t, r, http.StatusOK)
	var terr struct {
		IsError    bool              `json:"isError"`
		Meta       map[string]string `json:"_meta"`
		ResultType string            `json:"resultType"`
	}
	if json.Unmarshal(r.msg.Result, &terr); !terr.IsError || terr.Meta["code"] != "not_found" || terr.ResultType != "complete" {
		t.Fatalf("tool error: got %s", r.msg.Result)
	}
	// An unknown tool is invalid params, 400 under this revision, and
	// metered like any tools/call.
	wantError(t, call2026(t, key, "get_weather", `{}`), http.StatusBadRequest, -32602, "7")
	// A clientInfo is optional.
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}}}`
	wantStatus(t, postRaw(t, key, body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"), http.StatusOK)
	// Notifications need no _meta and are accepted as under 2025.
	r = postRaw(t, key, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "notifications/cancelled")
	wantStatus(t, r, http.StatusAccepted)
	if got := used(t); got != 4 {
		t.Fatalf("used: got %d, want 4 (the four tools/call, one of them under 2025)", got)
	}
}

// TestStatelessRemovedMethods: under 2026-07-28 the methods it removed
// and unknown methods are 404 with -32601, carrying the request's id.
func TestStatelessRemovedMethods(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	for i, method := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "prompts/list", "unknown/method"} {
		r := send2026(t, key, 500+i, method, "", "")
		wantError(t, r, http.StatusNotFound, -32601, fmt.Sprint(500+i))
		if r.header.Get("X-Quota-Remaining") != "1000" {
			t.Fatalf("%s: quota headers %v", method, r.header)
		}
	}
}

// TestStatelessRefusals: a request of the 2026-07-28 revision whose
// _meta, version or headers are wrong is refused with 400 and the
// revision's error code, carrying its id, and is not metered (not even a
// tools/call).
func TestStatelessRefusals(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "starter", 0)
	lookup := `"name":"lookup_product","arguments":{"upc":"` + samples.CarriedUPC + `","province":"ON"}`
	withMeta := func(meta string) string {
		return `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{` + lookup + `,"_meta":` + meta + `}}`
	}
	hdr := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_product"}
	for _, tc := range []struct {
		name    string
		body    string
		headers []string
		code    int
	}{
		{"ErrNoMeta", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{` + lookup + `}}`, hdr, -32602},
		{"ErrNoParams", `{"jsonrpc":"2.0","id":11,"method":"tools/list"}`, []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"}, -32602},
		{"ErrNoVersionInMeta", withMeta(`{"io.modelcontextprotocol/clientCapabilities":{}}`), hdr, -32602},
		{"ErrVersionNotString", withMeta(`{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}`), hdr, -32602},
		{"ErrNoCapabilities", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`), hdr, -32602},
		{"ErrCapabilitiesNotObject", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}`), hdr, -32602},
		{"ErrNoVersionHeader", withMeta(meta2026), []string{"Mcp-Method", "tools/call", "Mcp-Name", "lookup_product"}, -32020},
		{"ErrVersionMismatch", withMeta(strings.Replace(meta2026, "2026-07-28", "2099-01-01", 1)), hdr, -32020},
		{"ErrVersion2025Header", withMeta(meta2026), []string{"MCP-Protocol-Version", "2025-06-18", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_product"}, -32020},
		{"ErrUnsupportedVersion", withMeta(strings.Replace(meta2026, "2026-07-28", "2099-01-01", 1)), []string{"MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_product"}, -32022},
		{"ErrHandshakeVersionInMeta", withMeta(strings.Replace(meta2026, "2026-07-28", "2025-06-18", 1)), []string{"MCP-Protocol-Version", "2025-06-18", "Mcp-Method", "tools/call", "Mcp-Name", "lookup_product"}, -32022},
		{"ErrNoMethodHeader", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Name", "lookup_product"}, -32020},
		{"ErrMethodHeader", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list", "Mcp-Name", "lookup_product"}, -32020},
		{"ErrMethodHeaderCase", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "TOOLS/CALL", "Mcp-Name", "lookup_product"}, -32020},
		{"ErrNoNameHeader", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call"}, -32020},
		{"ErrNameHeader", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "search_products"}, -32020},
		// A header given twice with different values: the second is not
		// ignored (the first would run, and be metered).
		{"ErrNameHeaderTwice", withMeta(meta2026), append(slices.Clone(hdr), "+Mcp-Name", "search_products"), -32020},
		{"ErrMethodHeaderTwice", withMeta(meta2026), append(slices.Clone(hdr), "+Mcp-Method", "tools/list"), -32020},
		{"ErrVersionHeaderTwice", withMeta(meta2026), append(slices.Clone(hdr), "+MCP-Protocol-Version", "2025-11-25"), -32020},
		{"ErrNameHeaderBase64", withMeta(meta2026), []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "=?base64?not base64?="}, -32020},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := postRaw(t, key, tc.body, tc.headers...)
			wantError(t, r, http.StatusBadRequest, tc.code, "11")
			if tc.code == -32022 {
				var e struct {
					Error struct{ Data struct{ Supported []string } }
				}
				json.Unmarshal(r.body, &e)
				if !slices.Equal(e.Error.Data.Supported, []string{"2026-07-28"}) {
					t.Fatalf("got %s, want the versions taking per-request _meta", r.body)
				}
			}
			if r.header.Get("X-Quota-Remaining") != "1000" {
				t.Fatalf("quota headers: got %v", r.header)
			}
		})
	}
	if got := used(t); got != 0 {
		t.Fatalf("used: got %d, want 0: a refused request was metered", got)
	}
	t.Run("ErrNameTwice", func(t *testing.T) {
		// A tool named twice in the body is invalid params saying so, not
		// a header mismatch with the tool "".
		body := `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"search_products",` + lookup + `,"_meta":` + meta2026 + `}}`
		r := postRaw(t, key, body, hdr...)
		wantError(t, r, http.StatusBadRequest, -32602, "11")
		if !strings.Contains(string(r.body), `member \"name\" is given twice`) {
			t.Fatalf("got %s, want the message to say the member is repeated", r.body)
		}
	})
	t.Run("OKHeaderForms", func(t *testing.T) {
		// Header names are case-insensitive, values are trimmed, and
		// Mcp-Name may come in the Base64 form.
		for _, h := range [][]string{
			{"mcp-method", "tools/call", "MCP-NAME", "lookup_product"},
			{"Mcp-Name", " lookup_product\t"},
			{"Mcp-Name", "=?base64?" + base64.StdEncoding.EncodeToString([]byte("lookup_product")) + "?="},
		} {
			r := postRaw(t, key, withMeta(meta2026), append(slices.Clone(hdr), h...)...)
			if r.status != http.StatusOK || r.msg.Error != nil {
				t.Fatalf("%v: got %d %s", h, r.status, r.body)
			}
		}
	})
	t.Run("ErrAuth", func(t *testing.T) {
		r := send2026(t, "", 12, "server/discover", "", "")
		wantError(t, r, http.StatusUnauthorized, -32600, "12")
		if r.header.Get("WWW-Authenticate") == "" {
			t.Fatal("no WWW-Authenticate")
		}
	})
}
