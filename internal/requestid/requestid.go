// Package requestid gives every HTTP request of the servers an id: the
// client's X-Request-Id when it is a usable one, otherwise one made
// here. The id is returned in the answer's X-Request-Id header, written
// in the access log line and, in REST, in problem details, so that a
// client's report of a failed call and the server's log meet on it.
package requestid

import (
	"crypto/rand"
	"net/http"
)

// Header is the request and response header that carries the id.
const Header = "X-Request-Id"

// MaxLen is the longest id accepted from a client.
const MaxLen = 128

// Valid reports whether s is an id a client may choose: 1 to MaxLen
// visible ASCII characters (0x21 to 0x7E: no space, no control, nothing
// outside ASCII), so that it is written as it is in a header, a log line
// and a JSON string.
func Valid(s string) bool {
	if s == "" || len(s) > MaxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// New returns a new id: 26 characters of base32 (130 random bits, as
// crypto/rand.Text), in one allocation.
func New() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var src [26]byte
	rand.Read(src[:])
	for i := range src {
		src[i] = alphabet[src[i]&31]
	}
	return string(src[:])
}

// Ensure returns r's request id and sets it in w's header: the one
// r's X-Request-Id header carries when it is Valid (the first of several),
// otherwise a New one, which then replaces r's header so that handlers
// further in see the same id. A server calls it first thing; a handler
// further in calling it again gets the same id, at no cost.
func Ensure(w http.ResponseWriter, r *http.Request) string {
	h := w.Header()
	if v := r.Header[Header]; len(v) > 0 && Valid(v[0]) {
		if got := h[Header]; len(got) == 1 && got[0] == v[0] {
			return v[0]
		}
		h[Header] = v[:1:1]
		return v[0]
	}
	v := []string{New()} // shared by the request and the answer; nothing appends to either
	r.Header[Header] = v
	h[Header] = v
	return v[0]
}
