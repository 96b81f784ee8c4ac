package restserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery"
)

// Validators. A GET (or HEAD) answer of 200 carries a weak ETag, and a
// request whose If-None-Match holds it, or "*", is answered 304 Not
// Modified without a body. It is a metered call like any other: the server
// answered it, only the body is saved.
//
// An answer depends only on the data set's state and on the request, so
// the tag of most paths (dataTagged) is known before the answer is made,
// and a 304 saves the server the query too: it is made from the server's
// version, the data's grocery.Service.DataVersion, the path, the query
// parameters (in any order), Accept and whether the client takes gzip.
// The answers of the other paths depend also on the caller's account
// (its alert rules and events: the alerts themselves, the signals'
// watchlist, the brief's events; its webhook endpoints and deliveries),
// which can change on another server
// sharing them: their tag is a hash of the account and of the answer
// itself, so the answer is made and a 304 saves only its transfer.
//
// The tags are weak (W/"..."): one tag, one content, though bytes may
// differ where a format holds a time (an XLSX file's entries).

// dataTagged are the paths whose answers depend on the data set's state
// and the request only. A path not listed is tagged by its answer.
var dataTagged = map[string]bool{
	"/prices": true, "/price": true, "/search": true, "/b2b/export": true,
	"/products/{upc}": true, "/history": true, "/stores": true,
	"/b2b/category_report": true, "/b2b/promo_calendar": true, "/b2b/new_on_shelf": true,
	"/b2b/geographic_prices": true, "/b2b/regional_comparison": true,
	"/b2b/competitive_benchmark": true, "/b2b/brand_insights": true,
}

// tagInput appends what every tag of an answer to r depends on to b:
// kind, the server's version, the path, Accept and the content coding.
func tagInput(b []byte, kind string, r *http.Request) []byte {
	b = appendField(b, kind)
	b = appendField(b, grocery.Version())
	b = appendField(b, r.URL.Path)
	b = appendField(b, r.Header.Get("Accept"))
	if acceptsGzip(r.Header) {
		return appendField(b, "gzip")
	}
	return appendField(b, "identity")
}

// appendField appends s, its length first, so that no two sequences of
// strings hash alike.
func appendField(b []byte, s string) []byte {
	return append(binary.BigEndian.AppendUint64(b, uint64(len(s))), s...)
}

// weakTag is the weak ETag of a hash.
func weakTag(sum [sha256.Size]byte) string {
	var t [3 + 32 + 1]byte
	copy(t[:], `W/"`)
	hex.Encode(t[3:], sum[:16])
	t[len(t)-1] = '"'
	return string(t[:])
}

// dataTag is the tag of a dataTagged answer to r: made in a buffer on
// the stack, in two allocations with its header.
func (s *server) dataTag(r *http.Request) []string {
	var buf [512]byte
	b := tagInput(buf[:0], "data", r)
	b = binary.BigEndian.AppendUint64(b, s.svc.DataVersion())
	var arr [16]pair
	pairs := arr[:0]
	for part := range strings.SplitSeq(r.URL.RawQuery, "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		n, err1 := url.QueryUnescape(name)
		v, err2 := url.QueryUnescape(value)
		if err1 != nil || err2 != nil {
			n, v = name, value
		}
		pairs = append(pairs, pair{n, v})
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	for _, p := range pairs {
		b = appendField(appendField(b, p.name), p.value)
	}
	return []string{weakTag(sha256.Sum256(b))}
}

// notModified reports whether r's If-None-Match holds tag (weak
// comparison, RFC 9110 section 13.1.2: W/ is ignored), or is "*" when
// known is set: the answer is known to be a 200 (a data path's tag is
// checked before its answer is made, which may be a 404).
func notModified(r *http.Request, tag string, known bool) bool {
	v := r.Header["If-None-Match"]
	if len(v) == 0 {
		return false
	}
	opaque := strings.TrimPrefix(tag, "W/")
	for _, line := range v {
		for c := range strings.SplitSeq(line, ",") {
			c = strings.TrimSpace(c)
			if c == "*" && known || strings.TrimPrefix(c, "W/") == opaque {
				return true
			}
		}
	}
	return false
}

// anyTag reports whether r's If-None-Match holds "*".
func anyTag(r *http.Request) bool {
	for _, line := range r.Header["If-None-Match"] {
		for c := range strings.SplitSeq(line, ",") {
			if strings.TrimSpace(c) == "*" {
				return true
			}
		}
	}
	return false
}

// anyTagWriter answers a request with If-None-Match: * on a data path:
// a 200 becomes a 304 without its body; any other status passes through.
type anyTagWriter struct {
	w      http.ResponseWriter
	status int
}

func (a *anyTagWriter) Header() http.Header { return a.w.Header() }

func (a *anyTagWriter) WriteHeader(status int) {
	if a.status != 0 {
		return
	}
	a.status = status
	if status == http.StatusOK {
		writeNotModified(a.w)
		return
	}
	a.w.WriteHeader(status)
}

func (a *anyTagWriter) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	if a.status == http.StatusOK {
		return len(p), nil // the 304 has no body
	}
	return a.w.Write(p)
}

// Unwrap gives http.ResponseController the writer underneath.
func (a *anyTagWriter) Unwrap() http.ResponseWriter { return a.w }

// writeNotModified answers 304 with the headers a 200 would carry
// (ETag, Vary, the quota headers) but none of its body's.
func writeNotModified(w http.ResponseWriter) {
	h := w.Header()
	for _, k := range []string{"Content-Type", "Content-Length", "Content-Disposition", "Content-Encoding"} {
		delete(h, k)
	}
	w.WriteHeader(http.StatusNotModified)
}

// bodyTagger holds a 200 answer of a path that is not dataTagged to tag
// it by its bytes: it then sends it with its ETag, or 304 when the
// request's If-None-Match holds that tag. Other statuses, and an answer
// the handler flushes, pass through.
type bodyTagger struct {
	w       http.ResponseWriter
	r       *http.Request
	account string
	buf     bytes.Buffer
	status  int
	held    bool // a 200 is being held
}

func (b *bodyTagger) Header() http.Header { return b.w.Header() }

func (b *bodyTagger) WriteHeader(status int) {
	if b.status != 0 {
		return
	}
	b.status = status
	b.held = status == http.StatusOK
	if !b.held {
		b.w.WriteHeader(status)
	}
}

func (b *bodyTagger) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.WriteHeader(http.StatusOK)
	}
	if b.held {
		return b.buf.Write(p)
	}
	return b.w.Write(p)
}

// Flush implements http.Flusher: a handler that flushes streams its
// answer, which then goes as it is written, without a tag.
func (b *bodyTagger) Flush() {
	if b.held {
		b.held = false
		b.w.WriteHeader(http.StatusOK)
		b.w.Write(b.buf.Bytes())
		b.buf.Reset()
	}
	http.NewResponseController(b.w).Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (b *bodyTagger) Unwrap() http.ResponseWriter { return b.w }

// finish sends a held answer with its tag, or 304.
func (b *bodyTagger) finish() {
	if !b.held {
		return
	}
	in := tagInput(nil, "answer", b.r)
	in = appendField(in, b.account)
	in = appendField(in, b.w.Header().Get("Content-Type"))
	h := sha256.New()
	h.Write(in)
	h.Write(b.buf.Bytes())
	var sum [sha256.Size]byte
	tag := weakTag([sha256.Size]byte(h.Sum(sum[:0])))
	b.w.Header()["Etag"] = []string{tag}
	if notModified(b.r, tag, true) {
		writeNotModified(b.w)
		return
	}
	b.w.WriteHeader(http.StatusOK)
	b.w.Write(b.buf.Bytes()) // a client that went away needs no answer
}
