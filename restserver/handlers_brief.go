package restserver

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery"
)

// briefCSP lets the brief's page use its inline styles and nothing else:
// it has no script and loads nothing.
const briefCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

// executiveBrief answers GET /b2b/executive_brief?province=[&banner=][&format=json|html]:
// JSON, or the printable HTML page with format=html or an Accept header
// that prefers text/html.
func (s *server) executiveBrief(w http.ResponseWriter, r *http.Request) error {
	var p params
	p.parse(r.URL.RawQuery)
	in := grocery.BriefInput{Province: p.str("province"), Banner: p.str("banner")}
	format := p.str("format")
	if p.err != nil {
		return p.err
	}
	html := false
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "json":
	case "html":
		html = true
	case "":
		html = prefersHTML(r.Header.Get("Accept"))
	default:
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "format %q is not one of json, html", format)
	}
	res, err := s.svc.ExecutiveBrief(r.Context(), in)
	if err != nil {
		return err
	}
	if !html {
		return writeJSON(w, http.StatusOK, res)
	}
	var buf bytes.Buffer
	if err := res.WriteHTML(&buf); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", briefCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes()) // a client that went away needs no answer
	return nil
}

// prefersHTML reports whether an Accept header ranks text/html above
// application/json (a browser's does; a missing one does not).
func prefersHTML(accept string) bool {
	html := acceptQ(accept, "text/html")
	return html > 0 && html > acceptQ(accept, "application/json")
}
