package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/grocerydata/grocery/grocery"
)

// idempotent wraps the handler of a POST path so that it takes an
// Idempotency-Key header, as Stripe's API does (grocery.Idempotent is
// the rule): the same key and the same body within 24 hours answer the
// first answer again (status, Location and body), with
// Idempotent-Replayed: true, without running the handler; the same key
// with another body or path is a 409. Without the header the handler
// runs as it is. Only successes are kept: a problem answer is not, so a
// corrected request may reuse its key. It serves any path: the request's
// operation is its method and route template.
func (s *server) idempotent(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		keys, ok := r.Header["Idempotency-Key"]
		if !ok {
			return h(w, r)
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return errTooLarge(tooBig.Limit)
			}
			return err
		}
		op := r.Method + " " + routeTemplate(r)
		answer, replayed, err := s.svc.Idempotent(r.Context(), grocery.IdempotentRequest{Key: keys[0], Operation: op, Body: body},
			func(ctx context.Context) ([]byte, error) {
				rec := &recorder{header: http.Header{}}
				inner := r.WithContext(ctx)
				inner.Body = io.NopCloser(bytes.NewReader(body))
				if err := h(rec, inner); err != nil {
					return nil, err
				}
				return json.Marshal(storedAnswer{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Location: rec.header.Get("Location"), Body: rec.body.Bytes()})
			})
		if err != nil {
			return err
		}
		var a storedAnswer
		if err := json.Unmarshal(answer, &a); err != nil {
			return err
		}
		hdr := w.Header()
		if a.ContentType != "" {
			hdr.Set("Content-Type", a.ContentType)
		}
		if a.Location != "" {
			hdr.Set("Location", a.Location)
		}
		if replayed {
			hdr.Set("Idempotent-Replayed", "true")
		}
		w.WriteHeader(a.Status)
		w.Write(a.Body)
		return nil
	}
}

// storedAnswer is the answer an idempotency key keeps.
type storedAnswer struct {
	Status      int    `json:"status"`
	ContentType string `json:"content_type,omitempty"`
	Location    string `json:"location,omitempty"`
	Body        []byte `json:"body"`
}

// recorder is the ResponseWriter an idempotent handler answers into.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}
