package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/mcpserver"
)

// FuzzHandler sends any body, with a valid key, a wrong one or none, with
// or without the headers of the 2026-07-28 revision (for a tools/call of
// lookup_product), through the real handler on the demo data file: it never panics, never
// answers 5xx, and every answer is one JSON-RPC response (202 with no
// body for a notification): "jsonrpc" "2.0", an id that is a string, a
// number or null, and exactly one of result and error, an error with an
// integer code and a message. A body that is not JSON is answered with a
// parse error, one that is not an object with an error, and a result only
// goes to a request naming one of the server's methods exactly, with a
// string or number id, which the answer echoes.
func FuzzHandler(f *testing.F) {
	k, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: "fuzz-handler", Plan: "professional", Quota: 1 << 40})
	if err != nil {
		f.Fatal(err)
	}
	h := mcpserver.New(svc, &mcpserver.Options{MaxBodyBytes: 64 << 10})
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"` + samples.CarriedUPC + `","province":"` + samples.Province + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_products","arguments":{"query":"milk","province":"QC","limit":5}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"price_history","arguments":{"sku":"` + samples.SKU + `","banner":"` + samples.Banner + `","province":"` + samples.Province + `","period":"7d"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_reference_stores","arguments":{"province":"ON"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":{"x":1},"METHOD":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":1e999}}}`,
		`nul`, ``,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"` + samples.CarriedUPC + `","province":"ON"},"_meta":` + meta2026 + `}}`,
		`{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":` + meta2026 + `}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"lookup_product","_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	} {
		for auth := range uint8(3) {
			f.Add(auth, []byte(s))
			f.Add(auth|8, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, auth uint8, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		switch auth % 3 {
		case 0:
			req.Header.Set("Authorization", "Bearer "+k.Key)
		case 1:
			req.Header.Set("Authorization", "Bearer "+k.Key+"x")
		}
		if auth&8 != 0 {
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "lookup_product")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, body, rec)
	})
}

// knownMethods are the methods answered with a result.
var knownMethods = []string{"initialize", "ping", "tools/list", "tools/call", "server/discover"}

func checkAnswer(t *testing.T, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("%q: status %d\n%s", body, rec.Code, rec.Body)
	}
	if rec.Code == http.StatusAccepted {
		if rec.Body.Len() != 0 {
			t.Fatalf("%q: 202 with a body %s", body, rec.Body)
		}
		return
	}
	var ans map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
		t.Fatalf("%q: status %d, the answer is not a JSON object: %v\n%s", body, rec.Code, err, rec.Body)
	}
	if string(ans["jsonrpc"]) != `"2.0"` {
		t.Fatalf("%q: the answer's jsonrpc is %s\n%s", body, ans["jsonrpc"], rec.Body)
	}
	id, ok := ans["id"]
	if !ok || !(string(id) == "null" || id[0] == '"' || id[0] == '-' || '0' <= id[0] && id[0] <= '9') {
		t.Fatalf("%q: the answer's id is %s, want a string, a number or null\n%s", body, id, rec.Body)
	}
	result, hasResult := ans["result"]
	rawErr, hasErr := ans["error"]
	if hasResult == hasErr || len(ans) != 3 {
		t.Fatalf("%q: want jsonrpc, id and one of result and error\n%s", body, rec.Body)
	}
	if hasErr {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(rawErr, &e); err != nil || e.Code == nil || e.Message == nil || *e.Message == "" {
			t.Fatalf("%q: the error is %s, want an integer code and a message", body, rawErr)
		}
		if !json.Valid(body) && *e.Code != -32700 {
			t.Fatalf("%q is not JSON: got error %s, want code -32700", body, rawErr)
		}
		return
	}
	// A result: the request was one, read by its exact member names.
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("%q: a result for a body that is not a JSON object: %s", body, result)
	}
	var method string
	if json.Unmarshal(req["method"], &method) != nil || !slices.Contains(knownMethods, method) {
		t.Fatalf("%q: a result for method %s\n%s", body, req["method"], rec.Body)
	}
	var sent, echoed bytes.Buffer
	if json.Compact(&sent, req["id"]) != nil || json.Compact(&echoed, id) != nil || sent.String() == "null" || sent.String() != echoed.String() {
		t.Fatalf("%q: a result with id %s for the request id %s", body, id, req["id"])
	}
	if rec.Code != http.StatusOK || !json.Valid(result) || result[0] != '{' {
		t.Fatalf("%q: status %d, result %s: want 200 and an object", body, rec.Code, result)
	}
}
