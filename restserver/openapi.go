package restserver

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/grocerydata/grocery/grocery"
)

// The OpenAPI document of the REST interface (GET /openapi.json) and the
// reference page that renders it (GET /docs): Redoc's standalone bundle,
// vendored unmodified from the npm package redoc@2.5.4 (MIT; .ci/run checks
// its sha256 against the registry's tarball), so the page needs nothing
// beyond this server.
var (
	//go:embed openapi.json
	openAPIDoc []byte
	//go:embed docs/index.html docs/redoc.standalone.js
	docsFS embed.FS
)

// docsCSP keeps the reference page to this server: Redoc styles inline and
// runs its search index in a blob worker, and fetches nothing else.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// servedOpenAPI is the document as GET /openapi.json serves it: the
// file's info.version (the release, grocery.Release) replaced by the
// build's grocery.Version, which adds the VCS revision when the build
// carries one, so that the document and the page's title name the build.
var servedOpenAPI = sync.OnceValue(func() []byte { return withInfoVersion(openAPIDoc, grocery.Version()) })

// withInfoVersion returns doc with the value of info.version, the first
// "version" member after "info", replaced by v; doc unchanged if it has
// none.
func withInfoVersion(doc []byte, v string) []byte {
	info := bytes.Index(doc, []byte(`"info":`))
	if info < 0 {
		return doc
	}
	key := []byte(`"version": "`)
	start := bytes.Index(doc[info:], key)
	if start < 0 {
		return doc
	}
	start += info + len(key) - 1 // the opening quote
	end := bytes.IndexByte(doc[start+1:], '"')
	if end < 0 {
		return doc
	}
	end += start + 2 // past the closing quote
	quoted, _ := json.Marshal(v)
	out := make([]byte, 0, len(doc)+len(quoted))
	out = append(out, doc[:start]...)
	out = append(out, quoted...)
	return append(out, doc[end:]...)
}

// serveOpenAPI answers GET /openapi.json: unauthenticated and unmetered.
func (s *server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	serveAsset(w, r, "application/json", "no-cache", openAPIAsset())
}

// serveDocs answers GET /docs, the reference page.
func (s *server) serveDocs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", docsCSP)
	serveAsset(w, r, "text/html; charset=utf-8", "no-cache", docsAsset())
}

// serveRedoc answers GET /docs/redoc.standalone.js. It changes only with
// the server's version, so browsers keep it for a year.
func (s *server) serveRedoc(w http.ResponseWriter, r *http.Request) {
	serveAsset(w, r, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", redocAsset())
}

// asset is a fixed answer: its bytes, their hash (its ETag's) and, when
// it is worth it, its gzip encoding, made once at the best compression.
type asset struct {
	body, gzipped []byte
	hash          string
}

func newAsset(b []byte) *asset {
	sum := sha256.Sum256(b)
	a := &asset{body: b, hash: hex.EncodeToString(sum[:16])}
	if len(b) >= gzipMinSize {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		a.gzipped = buf.Bytes()
	}
	return a
}

func embedded(name string) func() *asset {
	return sync.OnceValue(func() *asset { b, _ := docsFS.ReadFile(name); return newAsset(b) })
}

var (
	openAPIAsset = sync.OnceValue(func() *asset { return newAsset(servedOpenAPI()) })
	docsAsset    = embedded("docs/index.html")
	redocAsset   = embedded("docs/redoc.standalone.js")
)

// serveAsset answers a, gzip-encoded for a client that takes it, with
// an ETag made from its hash and its coding (a 304 for a matching
// If-None-Match).
func serveAsset(w http.ResponseWriter, r *http.Request, contentType, cache string, a *asset) {
	h := w.Header()
	b, coding := a.body, "identity"
	if a.gzipped != nil && acceptsGzip(r.Header) {
		b, coding = a.gzipped, "gzip"
		h.Set("Content-Encoding", "gzip")
	}
	tag := `W/"` + a.hash + "-" + coding + `"`
	h["Etag"] = []string{tag}
	h.Set("Cache-Control", cache)
	if notModified(r, tag, true) {
		writeNotModified(w)
		return
	}
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b) // a client that went away needs no answer
}
