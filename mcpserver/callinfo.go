package mcpserver

import "context"

// CallInfo is what one MCP request asked for, for an access log: the
// JSON-RPC method and, for a tools/call, the tool. The handler fills it in
// from the message it decodes anyway; it never holds arguments or keys.
type CallInfo struct {
	Method string // the JSON-RPC method when the server knows it ("tools/call"), else ""
	Tool   string // the tool of a tools/call when it exists ("lookup_product"), else ""
}

type callInfoKey struct{}

// NewContextWithCallInfo returns a copy of ctx carrying ci: the handler
// serving a request with that context records into ci what it was asked.
func NewContextWithCallInfo(ctx context.Context, ci *CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, ci)
}

// CallInfoFromContext returns the CallInfo ctx carries, or nil.
func CallInfoFromContext(ctx context.Context) *CallInfo {
	ci, _ := ctx.Value(callInfoKey{}).(*CallInfo)
	return ci
}
