package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Keys of a request's params._meta under a revision without handshake.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// protocolError is a request refused for its protocol framing (version,
// _meta, headers) before any method runs: not metered, answered with
// status.
type protocolError struct {
	status int
	rpcError
}

// negotiate returns the revision a message speaks, from its
// MCP-Protocol-Version header and, for a request, its
// params._meta protocol version (see revision.handshake), or why it cannot
// be answered. Only requests carry _meta and the method headers:
// notifications and responses are checked for the header's version alone.
func negotiate(h http.Header, m *message) (*revision, *protocolError) {
	for _, key := range framingHeaders {
		if v := h[key]; len(v) > 1 {
			for _, other := range v[1:] {
				if other != v[0] {
					return nil, headerMismatch("the " + key + " header is given more than once, with different values (" +
						strconv.Quote(v[0]) + ", " + strconv.Quote(other) + "): send it once")
				}
			}
		}
	}
	header := headerValue(h, "Mcp-Protocol-Version")
	var hrev *revision
	if header != "" {
		hrev = revisionOf(header)
	}
	meta := readMeta(m.Params.Meta)
	isRequest := m.Method != "" && validID(m.ID)
	if isRequest && (meta.version != "" || hrev != nil && !hrev.handshake) {
		return perRequest(h, m, header, meta)
	}
	if header != "" && hrev == nil {
		return nil, unsupported(header, supportedVersions)
	}
	if hrev == nil {
		hrev = newestHandshake
	}
	return hrev, nil
}

// framingHeaders are the headers that name what a request is, by their
// canonical keys: each is read once, so each must have one value (a
// second value that differs would be ignored while the first ran).
var framingHeaders = []string{"Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name"}

// perRequest checks a request that names its version per request: the
// header and _meta must agree on a version without handshake, the client
// must declare its capabilities, and the method headers must match the
// body.
func perRequest(h http.Header, m *message, header string, meta requestMeta) (*revision, *protocolError) {
	switch {
	case header == "":
		return nil, headerMismatch("the MCP-Protocol-Version header is required with params._meta[" + strconv.Quote(metaProtocolVersion) + "]")
	case meta.version == "":
		return nil, invalidMeta("params._meta[" + strconv.Quote(metaProtocolVersion) + "] is required (a string): this request's MCP-Protocol-Version is " + header)
	case meta.version != header:
		return nil, headerMismatch("the MCP-Protocol-Version header " + strconv.Quote(header) + " does not match params._meta[" +
			strconv.Quote(metaProtocolVersion) + "] " + strconv.Quote(meta.version))
	}
	rev := revisionOf(meta.version)
	if rev == nil || rev.handshake {
		return nil, unsupported(meta.version, perRequestVersions)
	}
	if !meta.capabilities {
		return nil, invalidMeta("params._meta[" + strconv.Quote(metaClientCapabilities) + "] is required (an object, {} when the client declares none)")
	}
	if rev.methodHeaders {
		if got := headerValue(h, "Mcp-Method"); got != m.Method {
			if got == "" {
				return nil, headerMismatch("the Mcp-Method header is required: " + strconv.Quote(m.Method))
			}
			return nil, headerMismatch("the Mcp-Method header " + strconv.Quote(got) + " does not match the method " + strconv.Quote(m.Method))
		}
		if m.Method == "tools/call" && m.paramsErr != nil && m.Params.Name == "" {
			// No name to compare: the body is what is wrong.
			return nil, invalidMeta(strings.TrimPrefix(m.paramsErr.Error(), "params: "))
		}
		if m.Method == "tools/call" {
			got, ok := headerText(headerValue(h, "Mcp-Name"))
			switch {
			case !ok:
				return nil, headerMismatch("the Mcp-Name header is not valid Base64")
			case got != m.Params.Name && got == "":
				return nil, headerMismatch("the Mcp-Name header is required: the tool's name, " + strconv.Quote(m.Params.Name))
			case got != m.Params.Name:
				return nil, headerMismatch("the Mcp-Name header " + strconv.Quote(got) + " does not match the tool " + strconv.Quote(m.Params.Name))
			}
		}
	}
	return rev, nil
}

func headerMismatch(msg string) *protocolError {
	return &protocolError{http.StatusBadRequest, rpcError{Code: codeHeaderMismatch, Message: "header mismatch: " + msg}}
}

func invalidMeta(msg string) *protocolError {
	return &protocolError{http.StatusBadRequest, rpcError{Code: codeInvalidParams, Message: "invalid params: " + msg}}
}

// unsupported refuses a version, naming the ones the client may use
// instead.
func unsupported(requested string, supported []string) *protocolError {
	return &protocolError{http.StatusBadRequest, rpcError{
		Code:    codeUnsupportedVersion,
		Message: "unsupported protocol version " + strconv.Quote(requested) + ": this server speaks " + strings.Join(supported, ", "),
		Data:    map[string]any{"supported": supported, "requested": requested},
	}}
}

// headerText decodes a header value that may be Base64 in the
// "=?base64?...?=" form, which clients use for values that are not plain
// ASCII.
func headerText(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) < len(prefix)+len(suffix) || !strings.HasPrefix(v, prefix) || !strings.HasSuffix(v, suffix) {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(prefix) : len(v)-len(suffix)])
	return string(b), err == nil
}

// requestMeta is what the server reads of a request's params._meta.
type requestMeta struct {
	version      string // "" when absent or not a string
	capabilities bool   // the client capabilities are an object
}

// readMeta reads params._meta, a value of a valid JSON document (nil when
// absent). It walks the object without a callback, so that reading it
// allocates nothing.
func readMeta(raw json.RawMessage) requestMeta {
	var m requestMeta
	if len(raw) == 0 || raw[0] != '{' {
		return m
	}
	for i := skipSpace(raw, 1); i < len(raw) && raw[i] != '}'; {
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		end := skipString(raw, i)
		key := raw[i+1 : end-1]
		i = skipSpace(raw, skipSpace(raw, end)+1) // past the colon
		end = skipValue(raw, i)
		v := raw[i:end]
		i = skipSpace(raw, end)
		if !plain(key) {
			return readMetaSlow(raw)
		}
		switch string(key) {
		case metaProtocolVersion:
			s, ok := plainString(v)
			if !ok {
				return readMetaSlow(raw)
			}
			m.version = intern(s, supportedVersions)
		case metaClientCapabilities:
			m.capabilities = v[0] == '{'
		}
	}
	return m
}

// readMetaSlow is readMeta for escaped names or values: by exact name, the
// last one where a name repeats, as decodeSlow reads.
func readMetaSlow(raw json.RawMessage) requestMeta {
	var m requestMeta
	ms, _, _ := objectMembers(raw)
	if json.Unmarshal(ms[metaProtocolVersion], &m.version) != nil {
		m.version = ""
	}
	c := ms[metaClientCapabilities]
	m.capabilities = len(c) > 0 && c[0] == '{'
	return m
}
