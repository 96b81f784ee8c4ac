// Package mcpserver serves the grocery service's four tools over MCP, on
// stateless Streamable HTTP: each POST carries one JSON-RPC message and
// gets one JSON answer; no session is ever issued.
//
// One endpoint speaks two eras of the protocol, told apart request by
// request:
//
//   - The 2025 revisions (2025-03-26, 2025-06-18, 2025-11-25): the client
//     sends initialize, which answers the version it asked for when the
//     server speaks it and 2025-11-25 otherwise, then names that version in
//     the MCP-Protocol-Version header (or sends none). Methods: initialize,
//     ping, tools/list, tools/call.
//   - The 2026-07-28 revision: no handshake. Every request carries
//     params._meta with "io.modelcontextprotocol/protocolVersion" and
//     "io.modelcontextprotocol/clientCapabilities", the same version in
//     MCP-Protocol-Version, and its method in Mcp-Method (a tools/call its
//     tool in Mcp-Name); a disagreement is 400 with -32020 (HeaderMismatch).
//     Methods: server/discover, tools/list, tools/call; any other, removed
//     ones (initialize, ping) included, is 404 with -32601. Results carry
//     "resultType": "complete"; tools/list and server/discover carry the
//     cache hints ttlMs and cacheScope. An unsupported version is 400 with
//     -32022 whose data lists the supported versions.
//
// The table in versions.go holds these rules, one entry a version. In both
// eras every method needs the key (Authorization: Bearer), every answer to
// an authenticated request carries the quota headers, tools/call is
// metered once whatever follows, and the other methods are free. A request
// refused for its framing (version, _meta, headers) is not metered. Every
// error answer carries the request's id when the body could be read.
//
// The handler only translates: every rule (keys, plans, quota, the queries)
// is package grocery's.
package mcpserver

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// ProtocolVersions returns the MCP versions the server speaks, newest
// first.
func ProtocolVersions() []string { return slices.Clone(supportedVersions) }

// Options configures New. A nil *Options means the defaults.
type Options struct {
	// AllowedOrigins are the browser origins (e.g.
	// "https://app.example.com") allowed to call the server. A request
	// with another Origin header is refused with 403; one without Origin
	// (not from a browser) is not checked. The request's own Host is never
	// trusted: a DNS-rebinding page controls it.
	AllowedOrigins []string
	// AllowLoopbackOrigins also allows origins on a loopback host
	// (localhost, 127.0.0.0/8, [::1]): set it when the server listens on
	// loopback only, where the browser pages that can reach it are local.
	AllowLoopbackOrigins bool
	// MaxBodyBytes limits a request body; default 1 MiB.
	MaxBodyBytes int64
	// Version is reported in serverInfo; default grocery.Version().
	Version string
	// Logger receives internal errors; default slog.Default().
	Logger *slog.Logger
}

// server is the MCP endpoint.
type server struct {
	svc      *grocery.Service
	opts     Options
	log      *slog.Logger
	tools    []tool
	listings map[*revision][]byte // the tools/list result of each revision, encoded once
	discover []byte               // the server/discover result, encoded once
}

// New returns the MCP handler for svc. It serves POST on any path it is
// mounted at (grocery serve mounts it at /mcp) and answers 404 at once
// for the OAuth discovery paths clients probe (/.well-known/oauth-*): the
// service uses API keys, never OAuth.
func New(svc *grocery.Service, opts *Options) http.Handler {
	s := &server{svc: svc}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxBodyBytes <= 0 {
		s.opts.MaxBodyBytes = 1 << 20
	}
	if s.opts.Version == "" {
		s.opts.Version = grocery.Version()
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	s.tools = newTools(svc)
	s.listings = map[*revision][]byte{}
	for _, rev := range revisions {
		list := map[string]any{"tools": s.tools}
		if rev.cacheHints {
			list["ttlMs"], list["cacheScope"] = cacheTTLMs, cacheScope
		}
		if rev.resultType {
			list["resultType"] = "complete"
		}
		s.listings[rev] = mustMarshal(list)
	}
	s.discover = Discover(s.opts.Version)
	return s
}

// Discover returns the result of server/discover that a server of
// version answers (the revisions it speaks, its capabilities and
// instructions): the same for every key. grocery mcp-bridge answers it
// itself when the server refuses the key, so that a client pinned to the
// 2026-07-28 revision goes on to a request whose error says why.
func Discover(version string) json.RawMessage {
	if version == "" {
		version = grocery.Version()
	}
	return mustMarshal(map[string]any{
		"supportedVersions": supportedVersions,
		"capabilities":      capabilities,
		"instructions":      instructions,
		"ttlMs":             cacheTTLMs,
		"cacheScope":        cacheScope,
		"resultType":        "complete",
		"_meta":             map[string]any{metaServerInfo: serverInfo(version)},
	})
}

// capabilities are the server's: tools, a list that never changes while
// it runs.
var capabilities = map[string]any{"tools": map[string]any{"listChanged": false}}

func (s *server) serverInfo() map[string]any { return serverInfo(s.opts.Version) }

func serverInfo(version string) map[string]any {
	return map[string]any{"name": "grocery", "title": "Canadian grocery prices", "version": version}
}

// ServeHTTP implements http.Handler.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/.well-known/") {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "the MCP endpoint takes POST only: this stateless server opens no event stream", http.StatusMethodNotAllowed)
		return
	}
	if coding, ok := contentCoding(r.Header); ok {
		// A compressed body would read as a parse error at byte 1.
		writeJSON(w, http.StatusUnsupportedMediaType, errorResponse(nil, codeInvalidRequest,
			"the request body is sent with Content-Encoding "+coding+", which this server does not take: send it uncompressed, as application/json"))
		return
	}
	buf := bodyBufs.Get().(*[]byte)
	defer bodyBufs.Put(buf)
	body, err := s.readBody(w, r, (*buf)[:0])
	if cap(body) <= 64<<10 {
		*buf = body[:0] // keep a grown buffer, not a huge one
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, errorResponse(nil, codeInvalidRequest,
				"request body over "+strconv.FormatInt(s.opts.MaxBodyBytes, 10)+" bytes"))
			return
		}
		writeJSON(w, http.StatusBadRequest, errorResponse(nil, codeParseError, "could not read the request body"))
		return
	}
	if isBatch(body) {
		writeJSON(w, http.StatusBadRequest, errorResponse(nil, codeInvalidRequest, "JSON-RPC batches are not supported: send one message per request"))
		return
	}
	// The message is read before the Origin and Content-Type checks so
	// that their refusals, too, answer the request's id.
	var msg message
	derr := decodeMessage(body, &msg)
	if !s.originAllowed(r) {
		writeJSON(w, http.StatusForbidden, errorResponse(msg.ID, codeInvalidRequest, "origin not allowed"))
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		writeJSON(w, http.StatusUnsupportedMediaType, errorResponse(msg.ID, codeInvalidRequest, "Content-Type must be application/json"))
		return
	}
	if derr != nil {
		writeJSON(w, http.StatusBadRequest, errorResponse(msg.ID, derr.Code, derr.Message))
		return
	}
	rev, perr := negotiate(r.Header, &msg)

	// Every method needs a valid key, the free ones too. A tools/call is
	// metered: its key check and charge can be one step (with Redis, one
	// round trip), whose outcome call's Consume returns.
	authenticate := s.svc.Authenticate
	if msg.Method == "tools/call" && msg.JSONRPC == "2.0" && validID(msg.ID) && perr == nil && rev.answers("tools/call") {
		authenticate = s.svc.AuthenticateMetered
	}
	key := bearer(r)
	p, err := authenticate(r.Context(), key, grocery.InterfaceMCP)
	if err != nil {
		s.refuse(w, msg.ID, key, err)
		return
	}

	switch {
	case msg.JSONRPC != "2.0":
		s.quotaHeaders(w, r, p, nil)
		writeJSON(w, http.StatusBadRequest, errorResponse(msg.ID, codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`))
	case msg.isNotification() || msg.isResponse():
		// Notifications (notifications/initialized, cancellations) and
		// answers to server requests need nothing from a stateless server.
		s.quotaHeaders(w, r, p, nil)
		w.WriteHeader(http.StatusAccepted)
	case msg.Method == "" || !validID(msg.ID):
		s.quotaHeaders(w, r, p, nil)
		writeJSON(w, http.StatusBadRequest, errorResponse(msg.ID, codeInvalidRequest, "invalid request: want a method and a string or number id"))
	case perr != nil:
		s.quotaHeaders(w, r, p, nil)
		writeJSON(w, perr.status, &response{JSONRPC: "2.0", ID: msg.ID, Error: &perr.rpcError})
	default:
		s.handle(w, r, p, &msg, rev)
	}
}

// handle answers one request. A CallRecorder on w learns the method
// (when the server knows it) and, for a tools/call, the tool (when it
// exists), even when the call is refused.
func (s *server) handle(w http.ResponseWriter, r *http.Request, p *grocery.Principal, msg *message, rev *revision) {
	var result any
	var rerr *rpcError
	var usage *grocery.Usage
	if rec, ok := w.(CallRecorder); ok {
		method, tool := "", ""
		switch msg.Method {
		case "initialize", "ping", "tools/list", "server/discover":
			method = msg.Method
		case "tools/call":
			method = msg.Method
			if t := s.toolOf(msg); t != nil {
				tool = t.Name
			}
		}
		rec.RecordCall(method, tool)
	}
	switch {
	case !rev.answers(msg.Method):
		rerr = &rpcError{Code: codeMethodNotFound, Message: "method not found: " + msg.Method}
		if !rev.handshake {
			rerr.Message += " (protocol " + rev.version + " has " + strings.Join(rev.methods, ", ") + ")"
		}
	case msg.Method == "initialize":
		result = s.initialize(msg.Params.ProtocolVersion)
	case msg.Method == "ping":
		result = struct{}{}
	case msg.Method == "tools/list":
		result = json.RawMessage(s.listings[rev])
	case msg.Method == "server/discover":
		result = json.RawMessage(s.discover)
	case msg.Method == "tools/call":
		var payload any
		var res *callResult
		payload, res, rerr, usage = s.call(r, p, msg, s.toolOf(msg))
		if usage != nil && usage.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(retryAfterSeconds(usage.RetryAfter), 10))
		}
		if payload != nil {
			s.quotaHeaders(w, r, p, usage)
			writeToolResult(w, msg.ID, payload, rev.resultType)
			return
		}
		if res != nil {
			if rev.resultType {
				res.ResultType = "complete"
			}
			result = res
		}
	}
	s.quotaHeaders(w, r, p, usage)
	resp := &response{JSONRPC: "2.0", ID: msg.ID, Result: result, Error: rerr}
	status := http.StatusOK
	if rerr != nil {
		resp.Result = nil
		status = rev.status(rerr.Code)
	}
	writeJSON(w, status, resp)
}

// initialize answers the 2025 handshake: the version the client asked
// for when the server speaks it with a handshake, else the newest such.
func (s *server) initialize(asked string) any {
	version := newestHandshake.version
	if rev := revisionOf(asked); rev != nil && rev.handshake {
		version = rev.version
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    capabilities,
		"serverInfo":      s.serverInfo(),
		"instructions":    instructions,
	}
}

// quotaHeaders sets X-Quota-Limit, -Remaining and -Reset from u, or from
// the account's current usage when the request was not metered.
func (s *server) quotaHeaders(w http.ResponseWriter, r *http.Request, p *grocery.Principal, u *grocery.Usage) {
	if u == nil {
		cur, err := s.svc.UsageOf(r.Context(), p.Account)
		if err != nil {
			return
		}
		u = &cur
	}
	// The keys are canonical, and the three values share one array.
	v := []string{limitText(u.Limit), strconv.FormatInt(u.Remaining, 10), resetText(u.Reset)}
	h := w.Header()
	h["X-Quota-Limit"] = v[0:1:1]
	h["X-Quota-Remaining"] = v[1:2:2]
	h["X-Quota-Reset"] = v[2:3:3]
}

// retryAfterSeconds is d in whole seconds, rounded up: waiting that long
// is never too early.
func retryAfterSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}

// textCache keeps the text of the latest quota size and reset time: they
// change once a month, and every answer carries them.
type textCache[T comparable] struct {
	v    T
	text string
}

var (
	lastLimit atomic.Pointer[textCache[int64]]
	lastReset atomic.Pointer[textCache[time.Time]]
)

func limitText(n int64) string {
	if c := lastLimit.Load(); c != nil && c.v == n {
		return c.text
	}
	c := &textCache[int64]{n, strconv.FormatInt(n, 10)}
	lastLimit.Store(c)
	return c.text
}

// resetText formats t as RFC 3339. The cached time matches when it is
// the same instant in the same location, so the text is the same.
func resetText(t time.Time) string {
	if c := lastReset.Load(); c != nil && c.v.Equal(t) && c.v.Location() == t.Location() {
		return c.text
	}
	c := &textCache[time.Time]{t, t.Format(time.RFC3339)}
	lastReset.Store(c)
	return c.text
}

// jsonType is the Content-Type of every JSON answer; nothing modifies it.
var jsonType = []string{"application/json"}

// setJSONHeaders sets Content-Type and Content-Length for a JSON body of
// n bytes, by canonical key.
func setJSONHeaders(h http.Header, n int) {
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(n)}
}

// bodyBufs hold request bodies; a message's raw values point into its
// body, so a buffer goes back only when the answer is written.
var bodyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// readBody appends r's body to b, up to MaxBodyBytes: beyond it the error
// is an *http.MaxBytesError. A body whose length is known and allowed is
// read as it is; net/http stops it at its length.
func (s *server) readBody(w http.ResponseWriter, r *http.Request, b []byte) ([]byte, error) {
	body := r.Body
	if r.ContentLength < 0 || r.ContentLength > s.opts.MaxBodyBytes {
		body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	} else {
		b = slices.Grow(b, int(r.ContentLength)+1) // +1 to see the end in one read
	}
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, 512)
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// contentCoding returns the content coding a request body is sent with
// (Content-Encoding other than identity), if any, quoted for a message.
func contentCoding(h http.Header) (string, bool) {
	for _, line := range h["Content-Encoding"] {
		for c := range strings.SplitSeq(line, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return strconv.Quote(c), true
			}
		}
	}
	return "", false
}

// headerValue returns the first value of a header by its canonical key,
// which net/http gives every request header: Header.Get would spend an
// allocation canonicalising a key such as MCP-Protocol-Version.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// bearer returns the key of an "Authorization: Bearer <key>" header.
func bearer(r *http.Request) string {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}

// originAllowed refuses browser requests from other sites (DNS
// rebinding): it allows no Origin header, a configured origin, and a
// loopback origin when Options.AllowLoopbackOrigins. It never compares
// Origin with the request's Host, which a rebinding page controls.
func (s *server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	if slices.Contains(s.opts.AllowedOrigins, origin) {
		return true
	}
	if !s.opts.AllowLoopbackOrigins {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host (a name or an IP address, without
// a port) is on loopback: localhost, 127.0.0.0/8 or ::1.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = mustMarshal(errorResponse(nil, codeInternalError, "internal error"))
		status = http.StatusInternalServerError
	}
	setJSONHeaders(w.Header(), len(b))
	w.WriteHeader(status)
	w.Write(b)
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // static data only
	}
	return b
}
