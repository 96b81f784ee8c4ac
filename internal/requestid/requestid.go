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

// New returns a new id: 26 characters of base32 (130 random bits).
func New() string { return rand.Text() }

// Ensure returns r's request id and sets it in w's header: the one
// r's X-Request-Id header carries when it is Valid (the first of several),
// otherwise a New one, which then replaces r's header so that handlers
// further in see the same id. A server calls it first thing; a handler
// further in calling it again gets the same id.
func Ensure(w http.ResponseWriter, r *http.Request) string {
	var id string
	if v := r.Header[Header]; len(v) > 0 && Valid(v[0]) {
		id = v[0]
	} else {
		id = New()
		r.Header[Header] = []string{id}
	}
	w.Header()[Header] = []string{id}
	return id
}
