package mcpserver

// CallRecorder is implemented by a ResponseWriter that wants to know what
// an MCP request called, as an access log does. The handler calls
// RecordCall once a request, after decoding the message it decodes
// anyway, with the JSON-RPC method when the server knows it
// ("tools/call", else "") and, for a tools/call, the tool when it exists
// ("lookup_product", else ""). It never passes arguments or keys.
//
// The handler finds the recorder on the ResponseWriter it is given, so a
// host that logs needs no per-request context.
type CallRecorder interface {
	RecordCall(method, tool string)
}
