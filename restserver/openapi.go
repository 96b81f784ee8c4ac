package restserver

import (
	"embed"
	"net/http"
	"strconv"
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

// serveOpenAPI answers GET /openapi.json: unauthenticated and unmetered.
func (s *server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	serveBytes(w, "application/json", "no-cache", openAPIDoc)
}

// serveDocs answers GET /docs, the reference page.
func (s *server) serveDocs(w http.ResponseWriter, r *http.Request) {
	b, _ := docsFS.ReadFile("docs/index.html")
	w.Header().Set("Content-Security-Policy", docsCSP)
	serveBytes(w, "text/html; charset=utf-8", "no-cache", b)
}

// serveRedoc answers GET /docs/redoc.standalone.js. It changes only with
// the server's version, so browsers keep it for a year.
func (s *server) serveRedoc(w http.ResponseWriter, r *http.Request) {
	b, _ := docsFS.ReadFile("docs/redoc.standalone.js")
	serveBytes(w, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", b)
}

func serveBytes(w http.ResponseWriter, contentType, cache string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", cache)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b) // a client that went away needs no answer
}
