package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// JSON-RPC 2.0 error codes (CONTRACT.md section 4).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602 // also an unknown tool
	codeInternalError  = -32603
)

// message is one JSON-RPC message from the client: a request (method and
// id), a notification (method, no id) or a response (result or error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  params          `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`

	paramsErr error // params had a field of the wrong type
}

// params is what the server reads of any method's params: a tools/call's
// tool name and arguments, decoded with the message in one pass. Other
// methods' params fields are ignored.
type params struct {
	Name      string                     `json:"name"`
	Arguments map[string]json.RawMessage `json:"arguments"`
}

// decodeMessage decodes one JSON-RPC message. A syntax error is a parse
// error; a field of the wrong type in params is kept for the method to
// refuse (tools/call answers invalid params); any other wrong type makes
// the message an invalid request.
func decodeMessage(body []byte, m *message) *rpcError {
	err := json.Unmarshal(body, m)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr) && strings.HasPrefix(typeErr.Field, "params"):
		m.paramsErr = err
		return nil
	case errors.As(err, &typeErr):
		return &rpcError{Code: codeInvalidRequest, Message: "invalid request: want a JSON-RPC 2.0 object with a string method"}
	default:
		return &rpcError{Code: codeParseError, Message: "parse error: the body is not one JSON-RPC message"}
	}
}

func (m *message) isNotification() bool { return m.ID == nil && m.Method != "" }
func (m *message) isResponse() bool     { return m.Method == "" && (m.Result != nil || m.Error != nil) }

// validID reports whether id is a string or a number, as MCP requires.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
	return false
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

func errorResponse(id json.RawMessage, code int, msg string) *response {
	if id == nil {
		id = nullID
	}
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

// isBatch reports whether a body is a JSON array, which this stateless
// server does not accept (MCP 2025-06-18 removed batching).
func isBatch(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	return len(b) > 0 && b[0] == '['
}
