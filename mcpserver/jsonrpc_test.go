package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeFast checks that the allocation-free reading of a message
// decodes exactly what decodeSlow does, or leaves the message to it.
func TestDecodeFast(t *testing.T) {
	t.Parallel()
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"0123","province":"ON"}}}`,
		` { "jsonrpc" : "2.0" , "id" : "a\"b" , "method" : "tools/call" , "params" : { "name" : "x" , "arguments" : { "limit" : 5 , "q" : [1,{"a":"}"}] } } } `,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"result":{"a":[]}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":1}}`,
		`{"jsonrpc":null,"id":-1.5e3,"method":null,"params":null}`,
		`{"jsonrpc":"1.0","id":true,"method":"made/up","params":{"_meta":{"progressToken":1},"name":null,"arguments":null}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"1","upc":"2"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"ünï":"1","up\u0063":"2"}}}`,
		`{"jsonrpc":"2.0","ID":1,"Method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"Name":"lookup_product","ARGUMENTS":{"upc":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"arguments":{"upc":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools\/call"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tööls"}`,
		`{"jsonrpc":2,"id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":["ping"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":"upc"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping","other":{"x":[1,2,"]"]}}`,
		`{}`, `null`, `"x"`, `[]`, `1`, `{"jsonrpc":"2.0","id":1,"méthod":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"a":1},"name":"lookup_product","_meta":{"b":2}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
	}
	for _, body := range bodies {
		if !json.Valid([]byte(body)) {
			t.Fatalf("test body %s is not JSON", body)
		}
		checkFastMatchesSlow(t, []byte(body))
	}
	// The common message must take the fast path.
	var m message
	if !decodeFast([]byte(bodies[0]), &m) {
		t.Error("decodeFast refused a plain tools/call")
	}
}

// checkFastMatchesSlow fails when decodeFast reads the valid JSON body
// otherwise than decodeSlow does.
func checkFastMatchesSlow(t *testing.T, body []byte) {
	t.Helper()
	var got, want message
	fast := decodeFast(body, &got)
	werr := decodeSlow(body, &want)
	if !fast {
		return // decodeSlow reads it
	}
	if werr != nil || want.paramsErr != nil {
		t.Errorf("%s: decodeFast read a message decodeSlow refuses (%v, %v)", body, werr, want.paramsErr)
		return
	}
	// A repeated argument's last value counts; the order is the client's.
	last := map[string]json.RawMessage{}
	for _, a := range got.Params.Arguments {
		last[a.name] = a.value
	}
	wantArgs := map[string]json.RawMessage{}
	for _, a := range want.Params.Arguments {
		wantArgs[a.name] = a.value
	}
	opt := cmp.AllowUnexported(message{}, params{}, argument{})
	got.Params.Arguments, want.Params.Arguments = nil, nil
	got.Params.buf, want.Params.buf = [4]argument{}, [4]argument{}
	if diff := cmp.Diff(want, got, opt); diff != "" {
		t.Errorf("%s: decodeFast differs from decodeSlow (-want +got):\n%s", body, diff)
	}
	if diff := cmp.Diff(wantArgs, last); diff != "" {
		t.Errorf("%s: arguments differ (-want +got):\n%s", body, diff)
	}
}

// FuzzDecodeMessage checks the two readings of a message against each
// other on any body: decodeMessage never panics, refuses what is not
// JSON with a parse error, and decodeFast reads what it accepts exactly
// as decodeSlow does.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"0123","province":"ON"}}}`,
		`{"jsonrpc":"2.0","ID":1,"METHOD":"ping","id":2}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"arguments":{"upc":"1"}}}`,
		`{"a":"\ud800","id":[{}],"method":"p\u0069ng"}`, `[1]`, `{`, ``, "\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if got, want := validJSON(body), json.Valid(body); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", body, got, want)
		}
		var m message
		rerr := decodeMessage(body, &m)
		if !json.Valid(body) {
			if rerr == nil || rerr.Code != codeParseError {
				t.Fatalf("%q is not JSON: got %+v, want a parse error", body, rerr)
			}
			return
		}
		if rerr != nil && rerr.Code != codeInvalidRequest {
			t.Fatalf("%q: got %+v, want an invalid request or none", body, rerr)
		}
		checkFastMatchesSlow(t, body)
	})
}

// TestValidJSON holds validJSON to json.Valid on the edges of the grammar;
// FuzzDecodeMessage does the same on any body.
func TestValidJSON(t *testing.T) {
	t.Parallel()
	cases := []string{
		``, ` `, `0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`, `1e5x`, `-a`, `2.5e+10`,
		`""`, `"\u00e9"`, `"\u00zz"`, `"\u12"`, `"\x"`, `"\/\b\f\n\r\t\"\\"`, "\"a\x1fb\"", "\"\xff\"", `"abc`, `"\`,
		`true`, `tru`, `truex`, `false`, `null`, `nul`, `NaN`,
		`{}`, `{ }`, `[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1,}`, `{"a" 1}`, `{"a":}`, `{1:2}`, `{"a":1`, `[`, `]`,
		" \t\r\n{\"a\" : [ 1 , {\"b\":null} ] }\n", `{} {}`, `[] x`, "\v1", `{"a":1}}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
		strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
	}
	for _, c := range cases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%.40q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func BenchmarkValidJSON(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"067000378089","province":"ON"}}}`)
	b.Run("validJSON", func(b *testing.B) {
		for b.Loop() {
			validJSON(body)
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		for b.Loop() {
			json.Valid(body)
		}
	})
}

// TestReadMeta holds the allocation-free reading of params._meta to the
// reading by encoding/json.
func TestReadMeta(t *testing.T) {
	for _, raw := range []string{
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`,
		` { "io.modelcontextprotocol/clientCapabilities" : { "a" : [1] } , "io.modelcontextprotocol/protocolVersion" : "2026-07-28" } `,
		`{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}`,
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-2\u0038","io.modelcontextprotocol/clientCapabilities":null}`,
		`{"io.modelcontextprotocol/protocolVersion":5,"io.modelcontextprotocol/clientCapabilities":{}}`,
		`{"io.modelcontextprotocol/protocolVersion":"a","io.modelcontextprotocol/protocolVersion":"b"}`,
		`{"progressToken":"x","ünï":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
		`{}`, `[]`, `"x"`, `null`,
	} {
		raw = strings.TrimSpace(raw)
		if !json.Valid([]byte(raw)) {
			t.Fatalf("%s is not JSON", raw)
		}
		got := readMeta(json.RawMessage(raw))
		want := requestMeta{}
		if raw[0] == '{' {
			want = readMetaSlow(json.RawMessage(raw))
		}
		if got != want {
			t.Errorf("%s: got %+v, want %+v", raw, got, want)
		}
	}
	raw := json.RawMessage(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)
	if n := testing.AllocsPerRun(100, func() { readMeta(raw) }); n != 0 {
		t.Errorf("readMeta allocates %v times", n)
	}
}
