package mcpserver

import "net/http"

// revision is one MCP protocol version the server speaks and what the
// server does differently under it. The revisions table is the one place
// these rules are written: the handler asks the request's revision, never
// a version string, so that the next revision is one more entry.
type revision struct {
	version string
	// handshake: the client agrees on the version once, with initialize,
	// and names it afterwards in the MCP-Protocol-Version header (absent is
	// allowed). Otherwise there is no handshake: every request names the
	// version in params._meta["io.modelcontextprotocol/protocolVersion"],
	// with the client's capabilities in
	// params._meta["io.modelcontextprotocol/clientCapabilities"], and the
	// MCP-Protocol-Version header must be present and say the same.
	handshake bool
	// methods are the requests the server answers under the revision; any
	// other method is -32601 (methods the revision removed too).
	methods []string
	// methodHeaders: a request's Mcp-Method header must be its method, and
	// a tools/call's Mcp-Name header its tool name; else 400 HeaderMismatch.
	methodHeaders bool
	// resultType: every result carries "resultType": "complete".
	resultType bool
	// cacheHints: tools/list and server/discover carry ttlMs and
	// cacheScope.
	cacheHints bool
	// statuses are the HTTP statuses of JSON-RPC errors answered to a
	// request the server read; a code not listed is 200.
	statuses map[int]int
}

// revisions are the versions the server speaks, newest first.
var revisions = []*revision{
	{
		version:       "2026-07-28",
		methods:       []string{"server/discover", "tools/list", "tools/call"},
		methodHeaders: true,
		resultType:    true,
		cacheHints:    true,
		statuses: map[int]int{
			codeMethodNotFound:      http.StatusNotFound,
			codeInvalidParams:       http.StatusBadRequest,
			codeHeaderMismatch:      http.StatusBadRequest,
			codeMissingCapabilities: http.StatusBadRequest,
			codeUnsupportedVersion:  http.StatusBadRequest,
		},
	},
	{version: "2025-11-25", handshake: true, methods: handshakeMethods},
	{version: "2025-06-18", handshake: true, methods: handshakeMethods},
	{version: "2025-03-26", handshake: true, methods: handshakeMethods},
}

// handshakeMethods are the requests of the 2025 revisions.
var handshakeMethods = []string{"initialize", "ping", "tools/list", "tools/call"}

// newestHandshake is what initialize answers a client asking for a
// version the server does not speak, and the revision of a request that
// names none.
var newestHandshake = func() *revision {
	for _, r := range revisions {
		if r.handshake {
			return r
		}
	}
	panic("mcpserver: no handshake revision")
}()

// Cache hints of the results that carry them: the tool list is the same
// for every key and changes only with a new release.
const (
	cacheTTLMs = 3_600_000
	cacheScope = "public"
)

// revisionOf returns the revision of a version, or nil.
func revisionOf(version string) *revision {
	for _, r := range revisions {
		if r.version == version {
			return r
		}
	}
	return nil
}

// answers reports whether the server answers method under r.
func (r *revision) answers(method string) bool {
	for _, m := range r.methods {
		if m == method {
			return true
		}
	}
	return false
}

// status is the HTTP status of a JSON-RPC error code under r.
func (r *revision) status(code int) int {
	if s, ok := r.statuses[code]; ok {
		return s
	}
	return http.StatusOK
}

// supportedVersions lists the versions the server speaks, newest first;
// perRequest lists those named per request (without handshake).
var supportedVersions, perRequestVersions = func() (all, perRequest []string) {
	for _, r := range revisions {
		all = append(all, r.version)
		if !r.handshake {
			perRequest = append(perRequest, r.version)
		}
	}
	return all, perRequest
}()
