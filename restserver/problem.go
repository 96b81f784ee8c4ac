package restserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/challenge"
	"github.com/grocerydata/grocery/internal/requestid"
)

// ProblemBase prefixes the type URI of every problem: ProblemBase + code.
const ProblemBase = "https://grocerydata.ca/problems/"

// Problem is an RFC 9457 problem details body, with the error code beside
// the standard members.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
	// Reset is when a spent quota comes back (429 only).
	Reset string `json:"reset,omitempty"`
	// RequestID is the request's id, as its X-Request-Id header: the
	// one to quote when reporting the problem.
	RequestID string `json:"request_id,omitempty"`
}

// statusOf is the one table from error codes to HTTP statuses and
// titles. Codes of the transport itself (body too large, wrong media
// type, wrong method) sit beside grocery's.
var statusOf = map[string]struct {
	status int
	title  string
}{
	grocery.EINVALIDARGUMENT: {http.StatusBadRequest, "Invalid argument"},
	grocery.EUNAUTHENTICATED: {http.StatusUnauthorized, "Unauthenticated"},
	grocery.EPLANREQUIRED:    {http.StatusForbidden, "Plan required"},
	grocery.ENOTFOUND:        {http.StatusNotFound, "Not found"},
	codeMethodNotAllowed:     {http.StatusMethodNotAllowed, "Method not allowed"},
	codeNotAcceptable:        {http.StatusNotAcceptable, "Not acceptable"},
	grocery.ECONFLICT:        {http.StatusConflict, "Conflict"},
	grocery.EGONE:            {http.StatusGone, "Gone"},
	codeBodyTooLarge:         {http.StatusRequestEntityTooLarge, "Body too large"},
	codeMediaType:            {http.StatusUnsupportedMediaType, "Unsupported media type"},
	grocery.EQUOTA:           {http.StatusTooManyRequests, "Quota exceeded"},
	codeTooManyExports:       {http.StatusTooManyRequests, "Too many exports"},
	grocery.EUNAVAILABLE:     {http.StatusServiceUnavailable, "Service unavailable"},
	grocery.EINTERNAL:        {http.StatusInternalServerError, "Internal error"},
}

// The codes of the transport itself, beside grocery's in statusOf.
const (
	codeMethodNotAllowed = "method_not_allowed"
	codeNotAcceptable    = "not_acceptable"
	codeBodyTooLarge     = "body_too_large"
	codeMediaType        = "unsupported_media_type"
	codeTooManyExports   = "too_many_exports"
)

// problemError is an error of the transport itself: its code is one of
// statusOf's, which gives its status.
type problemError struct {
	code   string
	detail string
}

func (e *problemError) Error() string { return e.code + ": " + e.detail }

var errMediaType = &problemError{code: codeMediaType,
	detail: "the request body must be JSON: send Content-Type: application/json"}

// errContentEncoding refuses a request body sent with a content coding
// (Content-Encoding: gzip): bodies are read as they are sent.
func errContentEncoding(coding string) error {
	return &problemError{code: codeMediaType,
		detail: fmt.Sprintf("the request body is sent with Content-Encoding %q, which this server does not take: send it uncompressed, as application/json", coding)}
}

func errTooLarge(limit int64) error {
	return &problemError{code: codeBodyTooLarge,
		detail: fmt.Sprintf("the request body is over %d bytes", limit)}
}

// problemOf maps err to its problem through statusOf. The detail of an
// internal error is never err's text.
func problemOf(err error) *Problem {
	code, detail := grocery.ErrorCode(err), grocery.ErrorMessageIn(err, restVerbs)
	var pe *problemError
	if errors.As(err, &pe) {
		code, detail = pe.code, pe.detail
	}
	st, ok := statusOf[code]
	if !ok {
		code, st = grocery.EINTERNAL, statusOf[grocery.EINTERNAL]
	}
	if code == grocery.EINTERNAL {
		detail = "internal error: the request could not be answered; try again later"
	}
	return &Problem{Type: ProblemBase + code, Title: st.title, Status: st.status, Detail: detail, Code: code}
}

// writeProblem answers err as application/problem+json, with the
// request id that ServeHTTP put in the X-Request-Id header. A 401 carries
// WWW-Authenticate; a 429 names the reset time (its Retry-After and quota
// headers are set by the metering middleware). An ETag set for a success
// is dropped: a problem is never a cached answer.
func writeProblem(w http.ResponseWriter, err error) {
	p := problemOf(err)
	h := w.Header()
	if v := h[requestid.Header]; len(v) > 0 {
		p.RequestID = v[0]
	}
	delete(h, "Etag")
	switch p.Status {
	case http.StatusUnauthorized:
		if h.Get("WWW-Authenticate") == "" {
			h.Set("WWW-Authenticate", challenge.Header("APIKey", "grocery", ""))
		}
	case http.StatusTooManyRequests:
		p.Reset = h.Get("X-Quota-Reset")
	case http.StatusServiceUnavailable:
		h.Set("Retry-After", "1")
	}
	b, _ := json.Marshal(p) // strings and ints only
	b = append(b, '\n')
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Del("Content-Disposition")
	w.WriteHeader(p.Status)
	w.Write(b)
}

// restVerbs names the queries in errors' follow-ups as this interface
// offers them: a SKU comes from a barcode's offers or a search.
var restVerbs = grocery.Verbs{Lookup: "GET /products/{upc}", Search: "GET /search"}
