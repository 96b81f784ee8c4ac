package restserver

import (
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// NewWithTestRoutes is New plus routes that exercise what the product
// routes cannot reach yet: a JSON body (POST /test/echo), a panic
// (GET /test/panic) and any error code (GET /test/error?code=).
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
	return s
}

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
