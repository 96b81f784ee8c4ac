package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
)

// JSON-RPC 2.0 error codes, as mcpserver/README.md lists them.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602 // also an unknown tool
	codeInternalError  = -32603

	// Codes of the 2026-07-28 revision.
	codeHeaderMismatch      = -32020 // the HTTP headers disagree with the body, or are missing
	codeMissingCapabilities = -32021 // the request needs a client capability it did not declare
	codeUnsupportedVersion  = -32022 // the protocol version is not one the server speaks
)

// message is one JSON-RPC message from the client: a request (method and
// id), a notification (method, no id) or a response (result or error).
// The raw values (ID, Result, Error, the arguments) may share the request
// body's bytes: they are valid while the body is.
type message struct {
	JSONRPC string
	ID      json.RawMessage
	Method  string
	Params  params
	Result  json.RawMessage
	Error   json.RawMessage

	paramsErr error // params had a field of the wrong type
}

// params is what the server reads of any method's params, decoded with
// the message in one pass: a tools/call's tool name and arguments, an
// initialize's protocolVersion, and any request's _meta (raw, read by
// readMeta). Other params fields are ignored.
type params struct {
	Name            string
	Arguments       []argument // in the order sent; where a name repeats, the last one counts
	ProtocolVersion string     // "" when absent or not a string
	Meta            json.RawMessage
	buf             [4]argument
}

// argument is one member of a tools/call's arguments object.
type argument struct {
	name  string
	value json.RawMessage
}

// decodeMessage decodes one JSON-RPC message. A syntax error is a parse
// error; a field of the wrong type in params is kept for the method to
// refuse (tools/call answers invalid params); any other wrong type, and a
// member of the envelope given twice, makes the message an invalid
// request. Member names match exactly, as JSON-RPC names them: unlike
// encoding/json's field matching, "METHOD" is not "method".
//
// Messages as clients send them (known members, plain ASCII names, the
// right types) are read by decodeFast without allocating; any other is
// left to decodeSlow, whose reading decodeFast matches exactly where it
// answers at all.
func decodeMessage(body []byte, m *message) *rpcError {
	if !validJSON(body) {
		return &rpcError{Code: codeParseError, Message: "parse error: the body is not one JSON-RPC message"}
	}
	if decodeFast(body, m) {
		return nil
	}
	return decodeSlow(body, m)
}

// decodeSlow decodes a valid JSON document that decodeFast left: member
// names match exactly (an object with "METHOD" but no "method" has no
// method), an envelope member given twice makes the message an invalid
// request, and a params member given twice, or of the wrong type, is kept
// for the method to refuse.
func decodeSlow(body []byte, m *message) *rpcError {
	*m = message{}
	invalid := &rpcError{Code: codeInvalidRequest, Message: "invalid request: want a JSON-RPC 2.0 object with a string method"}
	top, dup, ok := objectMembers(body, "jsonrpc", "id", "method", "params", "result", "error")
	if !ok {
		return invalid
	}
	m.ID, m.Result, m.Error = top["id"], top["result"], top["error"]
	if dup == "id" {
		m.ID = nil // which one is meant is not known: answered with null
	}
	if dup != "" {
		return &rpcError{Code: codeInvalidRequest, Message: "invalid request: member " + strconv.Quote(dup) + " is given twice"}
	}
	if v, ok := top["jsonrpc"]; ok && json.Unmarshal(v, &m.JSONRPC) != nil {
		return invalid
	}
	if v, ok := top["method"]; ok && json.Unmarshal(v, &m.Method) != nil {
		return invalid
	}
	if v, ok := top["params"]; ok && string(v) != "null" {
		m.paramsErr = decodeParamsSlow(v, &m.Params)
	}
	return nil
}

// decodeParamsSlow decodes params for decodeSlow. _meta and
// protocolVersion are read even when another member is wrong: a bad
// tools/call name is the method's to refuse, after the request's version
// is known.
func decodeParamsSlow(v []byte, p *params) error {
	ps, dup, ok := objectMembers(v, "name", "arguments", "_meta", "protocolVersion")
	if !ok {
		return errors.New("params: want an object")
	}
	if dup != "_meta" {
		p.Meta = ps["_meta"]
	}
	if dup != "protocolVersion" && json.Unmarshal(ps["protocolVersion"], &p.ProtocolVersion) != nil {
		p.ProtocolVersion = "" // initialize answers a version it cannot read with the newest
	}
	if dup != "" {
		return errors.New("params: member " + strconv.Quote(dup) + " is given twice")
	}
	if v, ok := ps["name"]; ok && json.Unmarshal(v, &p.Name) != nil {
		return errors.New("params: name: want a string")
	}
	v, ok = ps["arguments"]
	if !ok || string(v) == "null" {
		return nil
	}
	args, _, ok := objectMembers(v)
	if !ok {
		return errors.New("params: arguments: want an object")
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p.Arguments = append(p.Arguments, argument{name, args[name]})
	}
	return nil
}

// objectMembers returns the members of the object v (a value of a valid
// JSON document) by exact name, the last one where a name repeats, and
// the first of watch given twice. ok is false when v is not an object.
func objectMembers(v []byte, watch ...string) (members map[string]json.RawMessage, dup string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(v))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", false
	}
	members = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", false
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, "", false
		}
		if _, seen := members[name]; seen && dup == "" && slices.Contains(watch, name) {
			dup = name
		}
		members[name] = raw
	}
	return members, dup, true
}

// decodeFast decodes a valid JSON document b into m as decodeSlow
// would, and reports whether it could: it gives up (and m is to be
// decoded again) on anything but an object whose member and params member
// names are plain ASCII, each known name once, with values of the right
// type and strings without escapes or non-ASCII bytes.
func decodeFast(b []byte, m *message) bool {
	const (
		seenJSONRPC = 1 << iota
		seenID
		seenMethod
		seenParams
		seenResult
		seenError
	)
	seen := 0
	ok := members(b, skipSpace(b, 0), func(key, v []byte) bool {
		var bit int
		switch string(key) {
		case "jsonrpc":
			bit = seenJSONRPC
			s, ok := plainString(v)
			if !ok {
				return false
			}
			if string(s) == "2.0" {
				m.JSONRPC = "2.0"
			} else {
				m.JSONRPC = string(s)
			}
		case "id":
			bit, m.ID = seenID, v
		case "method":
			bit = seenMethod
			s, ok := plainString(v)
			if !ok {
				return false
			}
			m.Method = intern(s, methods)
		case "params":
			bit = seenParams
			if !decodeParams(v, &m.Params) {
				return false
			}
		case "result":
			bit, m.Result = seenResult, v
		case "error":
			bit, m.Error = seenError, v
		default:
			return true // names match exactly: "METHOD" is not "method"
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	return ok
}

// decodeParams decodes params, as decodeFast.
func decodeParams(v []byte, p *params) bool {
	if string(v) == "null" {
		return true
	}
	seenName, seenArgs, seenMeta, seenVersion := false, false, false, false
	return members(v, 0, func(key, v []byte) bool {
		switch string(key) {
		case "_meta":
			if seenMeta {
				return false
			}
			seenMeta, p.Meta = true, v
			return true
		case "protocolVersion":
			s, ok := plainString(v)
			if !ok || seenVersion {
				return false
			}
			seenVersion = true
			p.ProtocolVersion = intern(s, supportedVersions)
			return true
		case "name":
			s, ok := plainString(v)
			if !ok || seenName {
				return false
			}
			seenName = true
			p.Name = intern(s, toolNames)
			return true
		case "arguments":
			if seenArgs {
				return false
			}
			seenArgs = true
			if string(v) == "null" {
				return true
			}
			p.Arguments = p.buf[:0]
			return members(v, 0, func(key, v []byte) bool {
				if !plain(key) {
					return false
				}
				p.Arguments = append(p.Arguments, argument{intern(key, argNames), v})
				return true
			})
		}
		return true
	})
}

// Names the server knows, kept as strings so that decoding them
// allocates nothing.
var (
	methods   = []string{"initialize", "ping", "tools/list", "tools/call", "server/discover", "notifications/initialized", "notifications/cancelled"}
	toolNames = []string{"lookup_product", "search_products", "price_history", "list_reference_stores"}
	argNames  = []string{"upc", "province", "limit", "query", "sku", "banner", "period"}
)

// intern returns b as one of known, or as a new string.
func intern(b []byte, known []string) string {
	for _, k := range known {
		if string(b) == k {
			return k
		}
	}
	return string(b)
}

// members calls f with each member of the object at b[i:] (a value of a
// valid JSON document) and reports whether the value is an object whose
// names are plain and f accepted every member.
func members(b []byte, i int, f func(key, value []byte) bool) bool {
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] != '}' {
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		end := skipString(b, i)
		key := b[i+1 : end-1]
		if !plain(key) {
			return false
		}
		i = skipSpace(b, skipSpace(b, end)+1) // past the colon
		end = skipValue(b, i)
		if !f(key, b[i:end]) {
			return false
		}
		i = skipSpace(b, end)
	}
	return true
}

// plainString returns the text of a JSON string without escapes or
// non-ASCII bytes; null is "". Anything else is not ok.
func plainString(v []byte) ([]byte, bool) {
	if string(v) == "null" {
		return nil, true
	}
	if len(v) < 2 || v[0] != '"' || !plain(v[1:len(v)-1]) {
		return nil, false
	}
	return v[1 : len(v)-1], true
}

// plain reports whether the text of a JSON string reads as it is written:
// ASCII with no escape.
func plain(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index past the string starting at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index past the value starting at b[i], in a valid
// JSON document.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\r' && b[i] != '\n' {
		i++
	}
	return i
}

func (m *message) isNotification() bool { return m.ID == nil && m.Method != "" }
func (m *message) isResponse() bool     { return m.Method == "" && (m.Result != nil || m.Error != nil) }

// validID reports whether id, a value of a valid JSON document, is a
// string or a number, as MCP requires.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

// errorResponse answers with an error; an id that is not a string or a
// number (an object, an array, a boolean) is answered with null.
func errorResponse(id json.RawMessage, code int, msg string) *response {
	if !validID(id) {
		id = nullID
	}
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

// isBatch reports whether a body is a JSON array, which this stateless
// server does not accept (MCP 2025-06-18 removed batching). A body that
// only begins like one but is not JSON is not a batch: it is answered as
// any other, with a parse error.
func isBatch(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	return len(b) > 0 && b[0] == '[' && validJSON(b)
}
