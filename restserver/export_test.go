package restserver

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/grocery"
)

// NewWithTestRoutes is New plus routes that exercise what the product
// routes cannot reach yet: a JSON body (POST /test/echo), a panic
// (GET /test/panic), any error code (GET /test/error?code=) and a
// stream written line by line (GET /test/stream).
func NewWithTestRoutes(svc *grocery.Service, opts *Options) http.Handler {
	s := newServer(svc, opts)
	s.routes()
	r := s.router
	r.Handle("/test/echo", s.api(func(w http.ResponseWriter, r *http.Request) error {
		var body struct {
			Name string `json:"name"`
		}
		if err := decodeJSON(r, &body); err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, body)
	})).Methods(http.MethodPost)
	r.Handle("/test/panic", s.api(func(w http.ResponseWriter, r *http.Request) error {
		panic("secret internals")
	})).Methods(http.MethodGet)
	r.Handle("/test/error", s.api(func(w http.ResponseWriter, r *http.Request) error {
		code := r.URL.Query().Get("code")
		if code == "other" {
			return errPlain
		}
		return grocery.Errorf(code, "a %s error", code)
	})).Methods(http.MethodGet)
	r.Handle("/test/stream", s.api(func(w http.ResponseWriter, r *http.Request) error {
		n, _ := strconv.Atoi(r.URL.Query().Get("lines"))
		read := streamReads(apiKey(r.Header))
		w.Header().Set("Content-Type", "text/csv")
		for i := range n {
			io.WriteString(w, StreamText(i))
			http.NewResponseController(w).Flush()
			select { // the client read the line
			case <-read:
			case <-r.Context().Done():
				return nil
			}
		}
		return nil
	})).Methods(http.MethodGet)
	return s
}

// StreamLine is the length of each line of GET /test/stream?lines=N,
// which writes N lines (StreamText), flushing each and waiting for
// StreamRead of the caller's key before the next: a stream whose lines
// reach the client only if every layer sends what is flushed.
const StreamLine = 100

// StreamText is line i of GET /test/stream.
func StreamText(i int) string {
	s := fmt.Sprintf("line %d,", i)
	return s + strings.Repeat("x", StreamLine-len(s)-1) + "\n"
}

var streams sync.Map // API key -> chan struct{}

func streamReads(key string) chan struct{} {
	ch, _ := streams.LoadOrStore(key, make(chan struct{}, 1))
	return ch.(chan struct{})
}

// StreamRead tells GET /test/stream of key that its line was read.
func StreamRead(key string) { streamReads(key) <- struct{}{} }

type plainError struct{}

func (plainError) Error() string { return "disk /var/secret failed" }

var errPlain = plainError{}

// HoldXLSXExports takes n of h's XLSX export slots for account, as n
// exports under way would, until release is called. h is from New or
// NewWithTestRoutes.
func HoldXLSXExports(h http.Handler, account string, n int) (release func(), err error) {
	s := h.(*server)
	var held []func()
	release = func() {
		for _, r := range held {
			r()
		}
	}
	for range n {
		r, err := s.xlsx.acquire(account)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, r)
	}
	return release, nil
}
