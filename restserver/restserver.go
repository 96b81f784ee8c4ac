// Package restserver serves the grocery service's REST interface (its
// contract is the OpenAPI document, openapi.json): JSON over HTTP, authenticated with an
// X-API-Key header, open to the integration plan, metered on the same
// quota as MCP, with errors as RFC 9457 problem details.
//
// The handler only translates: every rule (keys, plans, quota, the
// queries) is package grocery's. A handler parses its parameters, makes one
// grocery call and encodes the answer; authentication, plan gating,
// metering, quota headers, body limits, panic recovery, request ids,
// gzip (gzip.go) and ETags with 304s (etag.go) are middleware; a list
// handler adds its Link header (links.go).
// The access log is the host's (cmd/internal/server), and so is /healthz.
// GET /openapi.json describes every path; GET /docs renders it for people.
package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/challenge"
	"github.com/grocerydata/grocery/internal/requestid"
)

// Options configures New. A nil *Options means the defaults.
type Options struct {
	// MaxBodyBytes limits a request body; default 1 MiB. A larger one is
	// refused with 413.
	MaxBodyBytes int64
	// Logger receives internal errors and panics; default slog.Default().
	Logger *slog.Logger
	// MaxXLSXExports and MaxXLSXExportsPerAccount bound the XLSX exports
	// that run at once, on this server and per account (defaults
	// DefaultMaxXLSXExports and DefaultMaxXLSXExportsPerAccount); one
	// past either is refused with 429 too_many_exports and Retry-After.
	MaxXLSXExports, MaxXLSXExportsPerAccount int
}

// server is the REST interface.
type server struct {
	svc    *grocery.Service
	opts   Options
	log    *slog.Logger
	router *mux.Router
	// static routes the paths without variables ("/price", not
	// "/b2b/alerts/{id}") by method, in front of router: a map lookup
	// instead of its regular expressions, and no copy of the request for
	// its variables. Everything else (paths with variables, 404, 405) is
	// router's.
	static map[string]map[string]http.Handler
	xlsx   exportSlots
}

// New returns the REST handler for svc, serving the paths of routes at
// the root of whatever it is mounted on (grocery serve mounts it at /).
func New(svc *grocery.Service, opts *Options) http.Handler {
	s := newServer(svc, opts)
	s.routes()
	s.indexStatic()
	queryParams() // read now, not at the first request
	return s
}

// indexStatic fills s.static from the route table.
func (s *server) indexStatic() {
	s.static = map[string]map[string]http.Handler{}
	s.router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tmpl, err := route.GetPathTemplate()
		if err != nil || strings.Contains(tmpl, "{") {
			return nil
		}
		methods, _ := route.GetMethods()
		for _, m := range methods {
			if s.static[tmpl] == nil {
				s.static[tmpl] = map[string]http.Handler{}
			}
			if s.static[tmpl][m] == nil { // the first route of a method wins, as in router
				s.static[tmpl][m] = route.GetHandler()
			}
		}
		return nil
	})
}

func newServer(svc *grocery.Service, opts *Options) *server {
	s := &server{svc: svc}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxBodyBytes <= 0 {
		s.opts.MaxBodyBytes = 1 << 20
	}
	s.xlsx.max, s.xlsx.maxPerAccount = s.opts.MaxXLSXExports, s.opts.MaxXLSXExportsPerAccount
	if s.xlsx.max <= 0 {
		s.xlsx.max = DefaultMaxXLSXExports
	}
	if s.xlsx.maxPerAccount <= 0 {
		s.xlsx.maxPerAccount = DefaultMaxXLSXExportsPerAccount
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	s.router = mux.NewRouter()
	s.router.NotFoundHandler = http.HandlerFunc(s.notFound)
	s.router.MethodNotAllowedHandler = http.HandlerFunc(s.methodNotAllowed)
	return s
}

// routes is the whole route table. An authenticated path is metered: one
// call of the account's quota per request, answered or refused. A GET
// path answers HEAD too (the same status and headers, no body), metered
// like a GET.
func (s *server) routes() {
	r := s.router
	get := []string{http.MethodGet, http.MethodHead}
	r.Handle("/prices", s.api(s.prices)).Methods(get...)
	r.Handle("/price", s.api(s.price)).Methods(get...)
	r.Handle("/search", s.api(s.search)).Methods(get...)
	r.Handle("/products/{upc}", s.api(s.product)).Methods(get...)
	r.Handle("/history", s.api(s.history)).Methods(get...)
	r.Handle("/stores", s.api(s.stores)).Methods(get...)
	r.Handle("/b2b/export", s.api(s.export)).Methods(get...)
	r.Handle("/b2b/signals", s.api(s.signals)).Methods(get...)
	r.Handle("/b2b/category_report", s.api(s.categoryReport)).Methods(get...)
	r.Handle("/b2b/promo_calendar", s.api(s.promoCalendar)).Methods(get...)
	r.Handle("/b2b/new_on_shelf", s.api(s.newOnShelf)).Methods(get...)
	r.Handle("/b2b/geographic_prices", s.api(s.geographicPrices)).Methods(get...)
	r.Handle("/b2b/regional_comparison", s.api(s.regionalComparison)).Methods(get...)
	r.Handle("/b2b/competitive_benchmark", s.api(s.competitiveBenchmark)).Methods(get...)
	r.Handle("/b2b/brand_insights", s.api(s.brandInsights)).Methods(get...)
	r.Handle("/b2b/basket", s.api(s.basket)).Methods(http.MethodPost)
	r.Handle("/b2b/executive_brief", s.api(s.executiveBrief)).Methods(get...)
	r.Handle("/b2b/alerts", s.api(s.idempotent(s.createAlert))).Methods(http.MethodPost)
	r.Handle("/b2b/alerts", s.api(s.listAlerts)).Methods(get...)
	r.Handle("/b2b/alerts/events", s.api(s.alertEvents)).Methods(get...) // before {id}
	r.Handle("/b2b/alerts/{id}", s.api(s.alert)).Methods(get...)
	r.Handle("/b2b/alerts/{id}", s.api(s.updateAlert)).Methods(http.MethodPatch)
	r.Handle("/b2b/alerts/{id}", s.api(s.deleteAlert)).Methods(http.MethodDelete)
	r.Handle("/b2b/alerts/{id}/evaluate", s.api(s.evaluateAlert)).Methods(http.MethodPost)
	r.Handle("/b2b/webhooks", s.api(s.idempotent(s.createWebhook))).Methods(http.MethodPost)
	r.Handle("/b2b/webhooks", s.api(s.listWebhooks)).Methods(get...)
	r.Handle("/b2b/webhooks/{id}", s.api(s.webhook)).Methods(get...)
	r.Handle("/b2b/webhooks/{id}", s.api(s.updateWebhook)).Methods(http.MethodPatch)
	r.Handle("/b2b/webhooks/{id}", s.api(s.deleteWebhook)).Methods(http.MethodDelete)
	r.Handle("/b2b/webhooks/{id}/test", s.api(s.testWebhook)).Methods(http.MethodPost)
	r.Handle("/b2b/webhooks/{id}/deliveries", s.api(s.webhookDeliveries)).Methods(get...)
	r.Handle("/b2b/webhooks/{id}/deliveries/{delivery_id}/redeliver", s.api(s.redeliverWebhook)).Methods(http.MethodPost)

	// Authenticated but unmetered: the caller's own quota and usage.
	r.Handle("/usage", s.unmetered(s.usage)).Methods(get...)

	// Unauthenticated and unmetered: the OpenAPI document and its page.
	r.HandleFunc("/openapi.json", s.serveOpenAPI).Methods(get...)
	r.HandleFunc("/docs", s.serveDocs).Methods(get...)
	r.HandleFunc("/docs/redoc.standalone.js", s.serveRedoc).Methods(get...)
}

// ServeHTTP implements http.Handler. Every answer carries the request's
// X-Request-Id (package requestid) and is compressed for a client that
// takes gzip (gzip.go).
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic serving a REST request", "path", r.URL.Path, "panic", fmt.Sprint(v))
			writeProblem(w, grocery.Errorf(grocery.EINTERNAL, "internal error"))
		}
	}()
	requestid.Ensure(w, r)
	w.Header()["Vary"] = varyEncoding
	if hasBody(r.Method) {
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	}
	var h http.Handler = s.router
	if sh := s.static[r.URL.Path][r.Method]; sh != nil {
		h = sh
	}
	if !acceptsGzip(r.Header) {
		h.ServeHTTP(w, r)
		return
	}
	g := newGzipResponse(w, r.Method == http.MethodHead)
	h.ServeHTTP(g, r)
	g.finish() // not after a panic: an answer cut short must not end as if whole
}

// varyEncoding is every answer's Vary: it may be compressed, and its ETag
// depends on whether it is. Nothing modifies it.
var varyEncoding = []string{"Accept-Encoding"}

// varyAcceptEncoding is the Vary of the paths whose format Accept chooses.
var varyAcceptEncoding = []string{"Accept, Accept-Encoding"}

// handlerFunc is a REST handler: it writes a success itself and returns
// an error for the problem answer.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// api wraps a handler in the authenticated, metered chain: X-API-Key (401
// missing, unknown or revoked; 403 without the integration plan), one
// call charged (429 when the quota is spent), the quota headers on every
// answer, JSON bodies only on writes, sent without a content coding (415; a POST without a body, such
// as POST /b2b/alerts/{id}/evaluate or a webhook test, needs no
// Content-Type), only the query parameters the OpenAPI document gives
// the operation (400 naming the others), and on a GET the ETag, with 304
// for a matching If-None-Match (a metered call too).
func (s *server) api(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		key := apiKey(r.Header)
		p := s.authenticate(w, r, key, s.svc.AuthenticateMetered)
		if p == nil {
			return
		}
		u, err := s.svc.Consume(ctx, p)
		if err == nil || grocery.ErrorCode(err) == grocery.EQUOTA {
			quotaHeaders(w.Header(), &u)
		}
		if err != nil {
			keyRefused(w.Header(), key, err)
			writeProblem(w, err)
			return
		}
		if err := s.checkRequest(r); err != nil {
			writeProblem(w, err)
			return
		}
		rp := r.WithContext(grocery.NewContextWithPrincipal(ctx, p))
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := h(w, rp); err != nil {
				s.fail(w, r, err)
			}
			return
		}
		s.serveGet(w, r, rp, h, p.Account)
	})
}

// checkRequest refuses, once the call is counted like every other
// refusal, a body declared too large (one that turns out too large is
// refused by the handler's read, http.MaxBytesReader), a body not JSON
// or sent with a content coding, and query parameters the operation does
// not take.
func (s *server) checkRequest(r *http.Request) error {
	if r.ContentLength > s.opts.MaxBodyBytes {
		return errTooLarge(s.opts.MaxBodyBytes)
	}
	if hasBody(r.Method) && r.ContentLength != 0 && !isJSON(r.Header.Get("Content-Type")) {
		return errMediaType
	}
	if coding, ok := contentCoding(r.Header); ok && hasBody(r.Method) && r.ContentLength != 0 {
		return errContentEncoding(coding)
	}
	return checkQuery(r)
}

// serveGet answers a GET (rp is r with the caller's principal) validated
// by its ETag (etag.go): of the data file's state for the data-tagged
// paths, else of the body, and 304 for a matching If-None-Match.
func (s *server) serveGet(w http.ResponseWriter, r, rp *http.Request, h handlerFunc, account string) {
	tmpl := routeTemplate(r)
	if tmpl == "/b2b/export" || tmpl == "/b2b/executive_brief" {
		w.Header()["Vary"] = varyAcceptEncoding // Accept chooses the format
	}
	if !dataTagged[tmpl] {
		bt := &bodyTagger{w: w, r: r, account: account}
		if err := h(bt, rp); err != nil {
			s.fail(bt, r, err)
		}
		bt.finish()
		return
	}
	tag := s.dataTag(r)
	w.Header()["Etag"] = tag
	if notModified(r, tag[0], false) {
		writeNotModified(w)
		return
	}
	if anyTag(r) {
		// If-None-Match: * is 304 when the answer would be a 200 (a
		// current representation exists), known once it is made.
		aw := &anyTagWriter{w: w}
		if err := h(aw, rp); err != nil {
			s.fail(aw, r, err)
		}
		return
	}
	if err := h(w, rp); err != nil {
		s.fail(w, r, err)
	}
}

// unmetered wraps a handler that reads the caller's own account: the key
// checked as api checks it (401, 403), no call charged, only the query
// parameters the OpenAPI document gives the operation. Every answer
// carries the quota headers, counting no call; the handler sets them
// again from the usage it answers, so that its body and headers agree.
func (s *server) unmetered(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := s.authenticate(w, r, apiKey(r.Header), s.svc.Authenticate)
		if p == nil {
			return
		}
		if u, err := s.svc.UsageOf(r.Context(), p.Account); err == nil {
			quotaHeaders(w.Header(), &u) // a refusal's; the handler's answer sets its own
		}
		if err := checkQuery(r); err != nil {
			writeProblem(w, err)
			return
		}
		if err := h(w, r.WithContext(grocery.NewContextWithPrincipal(r.Context(), p))); err != nil {
			s.fail(w, r, err)
		}
	})
}

// authenticate checks r's key with auth (grocery's Authenticate or
// AuthenticateMetered) for REST and returns its principal, or answers the
// refusal (401 with its challenge, 403) and returns nil.
func (s *server) authenticate(w http.ResponseWriter, r *http.Request, key string,
	auth func(context.Context, string, grocery.Interface) (*grocery.Principal, error)) *grocery.Principal {
	p, err := auth(r.Context(), key, grocery.InterfaceREST)
	if err != nil {
		if key == "" && grocery.ErrorCode(err) == grocery.EUNAUTHENTICATED {
			err = errNoAPIKey(r.Header)
		}
		keyRefused(w.Header(), key, err)
		s.fail(w, r, err)
		return nil
	}
	return p
}

// contentCoding returns the content coding a request body is sent with
// (Content-Encoding other than identity), if any.
func contentCoding(h http.Header) (string, bool) {
	for _, line := range h["Content-Encoding"] {
		for c := range strings.SplitSeq(line, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return c, true
			}
		}
	}
	return "", false
}

// routeTemplate is the path template of r's route ("/b2b/alerts/{id}"):
// the router's, or r's path for a request the static table served (a
// path without variables is its own template). Only handlers of the route
// table call it.
func routeTemplate(r *http.Request) string {
	if route := mux.CurrentRoute(r); route != nil {
		tmpl, _ := route.GetPathTemplate()
		return tmpl
	}
	return r.URL.Path
}

// fail answers err as a problem, logging it first when it is internal:
// its text is not in the answer.
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var pe *problemError
	if grocery.ErrorCode(err) == grocery.EINTERNAL && !errors.As(err, &pe) {
		s.log.Error("REST request failed", "path", r.URL.Path, "err", err)
	}
	writeProblem(w, err)
}

// keyRefused sets the challenge of a key that was sent and refused
// (err is EUNAUTHENTICATED, key is not empty): RFC 6750's
// error="invalid_token" and why, in REST's APIKey scheme. writeProblem
// keeps it; any other 401 gets the bare challenge there.
func keyRefused(h http.Header, key string, err error) {
	if key != "" && grocery.ErrorCode(err) == grocery.EUNAUTHENTICATED {
		h.Set("WWW-Authenticate", challenge.Header("APIKey", "grocery", grocery.ErrorMessageIn(err, restVerbs)))
	}
}

// errNoAPIKey is the 401 of a request without X-API-Key: it names the
// header REST reads, and says so when the key came in the Authorization
// header (Bearer is how the MCP interface takes it).
func errNoAPIKey(h http.Header) error {
	if strings.HasPrefix(strings.ToLower(h.Get("Authorization")), "bearer ") {
		return grocery.Errorf(grocery.EUNAUTHENTICATED, "no X-API-Key header: REST takes the key in X-API-Key: <key>; Authorization: Bearer is the MCP interface's (/mcp)")
	}
	return grocery.Errorf(grocery.EUNAUTHENTICATED, "no X-API-Key header: send the key you were given, of the form PREFIX_pk_..., as X-API-Key: <key>")
}

// apiKey returns the X-API-Key header, read by its canonical name so that
// no request spends an allocation canonicalising it.
func apiKey(h http.Header) string {
	if v := h["X-Api-Key"]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func hasBody(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

func isJSON(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// quotaHeaders sets X-Quota-Limit, -Remaining and -Reset, and Retry-After
// when the call was refused for quota.
func quotaHeaders(h http.Header, u *grocery.Usage) {
	// The three values share one array.
	v := []string{limitText(u.Limit), strconv.FormatInt(u.Remaining, 10), resetText(u.Reset)}
	h["X-Quota-Limit"] = v[0:1:1]
	h["X-Quota-Remaining"] = v[1:2:2]
	h["X-Quota-Reset"] = v[2:3:3]
	if u.RetryAfter > 0 {
		h["Retry-After"] = []string{strconv.FormatInt(int64((u.RetryAfter+time.Second-1)/time.Second), 10)}
	}
}

// lastLimit caches the text of the latest quota size, which is the same
// for every account of a plan.
var lastLimit atomic.Pointer[limitCache]

type limitCache struct {
	n    int64
	text string
}

func limitText(n int64) string {
	if c := lastLimit.Load(); c != nil && c.n == n {
		return c.text
	}
	c := &limitCache{n, strconv.FormatInt(n, 10)}
	lastLimit.Store(c)
	return c.text
}

// lastReset caches the text of the latest reset time: it changes once a
// month, and every answer carries it.
var lastReset atomic.Pointer[resetCache]

type resetCache struct {
	t    time.Time
	text string
}

func resetText(t time.Time) string {
	if c := lastReset.Load(); c != nil && c.t.Equal(t) {
		return c.text
	}
	c := &resetCache{t, t.UTC().Format(time.RFC3339)}
	lastReset.Store(c)
	return c.text
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, grocery.Errorf(grocery.ENOTFOUND, "no such path: %s", r.URL.Path))
}

// methodNotAllowed answers 405 with the methods the path takes in Allow.
func (s *server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	var allow []string
	s.router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		methods, _ := route.GetMethods()
		for _, m := range methods {
			probe := r.Clone(r.Context())
			probe.Method = m
			var rm mux.RouteMatch
			if route.Match(probe, &rm) && rm.MatchErr == nil {
				allow = append(allow, m)
			}
		}
		return nil
	})
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeProblem(w, &problemError{code: codeMethodNotAllowed,
		detail: fmt.Sprintf("%s does not take %s: use %s", r.URL.Path, r.Method, strings.Join(allow, " or "))})
}

// jsonType is shared by every answer; nothing modifies it.
var jsonType = []string{"application/json"}

// appender is a result that encodes itself (package grocery's query
// results): exactly what encoding/json writes, without its reflection.
type appender interface{ AppendJSON([]byte) []byte }

// answers recycles the buffers answers are encoded into.
var answers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// writeJSON answers 200 (or status) with v as JSON. Like every answer of
// this interface it does not escape <, > and & (encoding/json's default
// for HTML pages): a product named "A&W" is written as it is.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	bp := answers.Get().(*[]byte)
	b := (*bp)[:0]
	if a, ok := v.(appender); ok {
		b = a.AppendJSON(b)
	} else {
		buf := bytes.NewBuffer(b)
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	h := w.Header()
	h["Content-Type"] = jsonType
	// net/http adds Content-Length itself to a short answer written in
	// one piece; a longer one would be sent chunked.
	if len(b) > 2048 {
		h["Content-Length"] = []string{strconv.Itoa(len(b))}
	}
	w.WriteHeader(status)
	w.Write(b) // a client that went away needs no answer
	if cap(b) <= 64<<10 {
		*bp = b
		answers.Put(bp)
	}
	return nil
}

// decodeJSON reads a JSON request body into v: one object, no unknown
// fields, within the body limit (413 beyond it).
func decodeJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return errTooLarge(tooBig.Limit)
		case errors.Is(err, io.EOF):
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body: want a JSON object, got nothing")
		}
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body: %s", jsonProblem(err))
	}
	if dec.More() {
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body: want one JSON object")
	}
	return nil
}

// jsonProblem says what is wrong with a request body in the API's terms,
// never in Go's ("cannot unmarshal array into Go value of type ...").
func jsonProblem(err error) string {
	var (
		te *json.UnmarshalTypeError
		se *json.SyntaxError
	)
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("field %s: want %s, got a JSON %s", te.Field, jsonKind(te.Type.Kind()), te.Value)
	case errors.As(err, &te):
		return fmt.Sprintf("want a JSON object, got a JSON %s", te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON at byte %d", se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON object is cut short"
	}
	// Unknown fields: `json: unknown field "nmae"`.
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + f
	}
	return "not a JSON object of the expected fields"
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64, reflect.Int32:
		return "a number"
	case reflect.Pointer:
		return "a number or null"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "another type"
}
