package restserver

import (
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Compression of answers (Content-Encoding: gzip) for a client whose
// Accept-Encoding takes gzip: JSON answers and problems, the exports in
// text formats (CSV, JSON Lines, JSON), the OpenAPI document and the
// reference page. XLSX and Parquet are compressed already and go as
// they are. An answer under gzipMinSize goes as it is: its few bytes
// saved would cost more than they save. A streamed answer (an export) is
// compressed as it is written: nothing waits for its end, and a Flush of
// the handler sends what is compressed so far.
const (
	gzipMinSize = 1024
	// gzipLevel trades CPU for size (BenchmarkGzip): on the demo's 2.9 MB
	// CSV export, level 1 (gzip.BestSpeed) takes 8.6 ms of CPU for 195 KB,
	// the default level 6 takes 30.5 ms for 162 KB. Fixed answers (the
	// OpenAPI document, the reference page's script) are compressed once,
	// at the best level (openapi.go).
	gzipLevel = gzip.BestSpeed
)

// gzipWriters recycles the compressors (each holds about 1 MB of
// tables, which an allocation a request would spend again and again).
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzipLevel)
	return w
}}

// gzipResponses recycles the response wrappers and their first bytes.
var gzipResponses = sync.Pool{New: func() any { return &gzipResponse{buf: make([]byte, 0, gzipMinSize)} }}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: gzip
// (or x-gzip, or *) listed with a q-value above 0.
func acceptsGzip(h http.Header) bool {
	v := h["Accept-Encoding"]
	if len(v) == 0 {
		return false
	}
	ok := false
	for _, line := range v {
		for part := range strings.SplitSeq(line, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			if qValue(params) <= 0 {
				if coding != "*" {
					return false // gzip;q=0 refuses it whatever * says
				}
				continue
			}
			ok = true
		}
	}
	return ok
}

// compressible reports whether an answer of Content-Type ct is worth
// compressing: text (JSON, CSV, HTML, JavaScript), not the formats that
// are compressed already.
func compressible(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.TrimSpace(mt)
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/json", mt == "application/problem+json", mt == "application/x-ndjson",
		mt == "application/javascript":
		return true
	}
	return false
}

// gzipResponse compresses what a handler writes when it is compressible
// and at least gzipMinSize bytes. Until it knows (a Content-Length, or
// gzipMinSize bytes written, or the handler's end or Flush) it holds the
// first bytes and the status.
type gzipResponse struct {
	w      http.ResponseWriter
	gz     *gzip.Writer // while compressing
	buf    []byte       // the first bytes, until decided
	status int          // the status to send, 0 until the handler sets one
	head   bool         // a HEAD request: headers as for GET, no body
	// decided: the headers are sent; compress: through gz.
	decided, compress bool
}

func newGzipResponse(w http.ResponseWriter, head bool) *gzipResponse {
	g := gzipResponses.Get().(*gzipResponse)
	g.w, g.head = w, head
	return g
}

// Header implements http.ResponseWriter.
func (g *gzipResponse) Header() http.Header { return g.w.Header() }

// Unwrap gives http.ResponseController the connection's writer (an
// export sets its own write deadlines).
func (g *gzipResponse) Unwrap() http.ResponseWriter { return g.w }

// WriteHeader implements http.ResponseWriter: it decides at once when
// the headers tell enough, and holds the status otherwise.
func (g *gzipResponse) WriteHeader(status int) {
	if g.decided || g.status != 0 {
		if g.decided {
			g.w.WriteHeader(status) // superfluous: let net/http say so
		}
		return
	}
	g.status = status
	h := g.w.Header()
	switch {
	case status < 200 || status == http.StatusNoContent || status == http.StatusNotModified,
		h.Get("Content-Encoding") != "", !compressible(h.Get("Content-Type")):
		g.send(false)
	case h.Get("Content-Length") != "":
		n, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
		g.send(err == nil && n >= gzipMinSize)
	}
}

// send sends the headers and what is held, compressed or not.
func (g *gzipResponse) send(compress bool) {
	g.decided, g.compress = true, compress
	if compress {
		h := g.w.Header()
		delete(h, "Content-Length")
		h.Set("Content-Encoding", "gzip")
		if !g.head {
			g.gz = gzipWriters.Get().(*gzip.Writer)
			g.gz.Reset(g.w)
		}
	}
	g.w.WriteHeader(g.status)
	if len(g.buf) > 0 {
		g.write(g.buf)
		g.buf = g.buf[:0]
	}
}

func (g *gzipResponse) write(p []byte) (int, error) {
	switch {
	case g.compress && g.head:
		return len(p), nil
	case g.compress:
		return g.gz.Write(p)
	}
	return g.w.Write(p)
}

// Write implements http.ResponseWriter.
func (g *gzipResponse) Write(p []byte) (int, error) {
	if g.status == 0 {
		g.WriteHeader(http.StatusOK)
	}
	if g.decided {
		return g.write(p)
	}
	if len(g.buf)+len(p) < gzipMinSize {
		g.buf = append(g.buf, p...)
		return len(p), nil
	}
	g.send(true)
	return g.write(p)
}

// Flush implements http.Flusher: what is written so far goes to the
// client, compressed if the answer may be.
func (g *gzipResponse) Flush() {
	if !g.decided {
		if g.status == 0 {
			g.WriteHeader(http.StatusOK)
		}
		if !g.decided {
			g.send(true)
		}
	}
	if g.gz != nil {
		g.gz.Flush()
	}
	http.NewResponseController(g.w).Flush()
}

// finish ends the answer once the handler returned: what is held goes as
// it is (it is under gzipMinSize), a compressed stream gets its trailer.
// It is not called when the handler panicked, so an answer cut short
// never ends as if it were whole. g is recycled.
func (g *gzipResponse) finish() {
	if !g.decided && g.status != 0 {
		g.send(false)
	}
	if g.gz != nil {
		g.gz.Close()
		g.gz.Reset(io.Discard) // drop the connection's writer
		gzipWriters.Put(g.gz)
	}
	*g = gzipResponse{buf: g.buf[:0]}
	gzipResponses.Put(g)
}
