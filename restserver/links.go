package restserver

import (
	"net/http"
	"strconv"
	"strings"
)

// pageLinks sets the Link header of a page of a list ({results, total,
// limit, offset}) answering r, as RFC 8288 and GitHub's API have it: the
// next page (rel="next", absent on the last page) and the previous one
// (rel="prev", when offset is above 0), each r's own path and query with
// offset moved by limit. The links are relative to the server, as
// Location is.
func pageLinks(w http.ResponseWriter, r *http.Request, total, limit, offset int) {
	if limit <= 0 {
		return
	}
	var b strings.Builder
	if offset+limit < total {
		b.WriteByte('<')
		appendPageURL(&b, r, offset+limit)
		b.WriteString(`>; rel="next"`)
	}
	if offset > 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('<')
		appendPageURL(&b, r, max(0, offset-limit))
		b.WriteString(`>; rel="prev"`)
	}
	if b.Len() > 0 {
		w.Header()["Link"] = []string{b.String()}
	}
}

// appendPageURL writes r's path and query with its offset parameter set
// to offset (added last when r has none), the other parameters as r gave
// them; a byte a URI may not hold is percent-encoded.
func appendPageURL(b *strings.Builder, r *http.Request, offset int) {
	uriText(b, r.URL.EscapedPath())
	b.WriteByte('?')
	n, set := 0, false
	for part := range strings.SplitSeq(r.URL.RawQuery, "&") {
		if part == "" {
			continue
		}
		if name, _, _ := strings.Cut(part, "="); name == "offset" {
			if set {
				continue
			}
			part, set = "offset="+strconv.Itoa(offset), true
		}
		if n > 0 {
			b.WriteByte('&')
		}
		uriText(b, part)
		n++
	}
	if !set {
		if n > 0 {
			b.WriteByte('&')
		}
		b.WriteString("offset=")
		b.WriteString(strconv.Itoa(offset))
	}
}

// uriText writes s with the bytes a URI may not hold (controls, space,
// <, >, ", and non-ASCII) percent-encoded, so that a Link target never
// ends early.
func uriText(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '"' || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}':
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
}
