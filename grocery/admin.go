package grocery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The admin socket: a server holds the data file for writing, so the key
// and usage operations of the CLI reach it over a Unix socket beside the
// file. The protocol is HTTP/1.1 with JSON bodies; its routes are in
// adminHandler and its error statuses in adminStatus.

// ErrNoAdmin means that no admin server answers on a socket: there is no
// socket file, or nothing listens on it. Calls of an AdminClient return an
// error that wraps it (errors.Is) when they could not connect, so that
// nothing was sent.
var ErrNoAdmin = errors.New("no admin server answers")

// Limits of the admin protocol.
const (
	adminMaxBody     = 1 << 20 // request bodies
	adminMaxAnswer   = 64 << 20
	adminDialTimeout = time.Second
	adminCallTimeout = 10 * time.Second
)

// AdminSocketPath returns the admin socket of a data file: path + ".sock".
func AdminSocketPath(dbPath string) string { return dbPath + ".sock" }

// AdminServer serves the admin operations of a Service on a Unix socket.
type AdminServer struct {
	path   string
	file   fs.FileInfo // the socket file, to remove only our own
	srv    *http.Server
	served chan error

	once     sync.Once
	closeErr error
}

// ListenAdmin serves the admin operations of s (CreateKey, ListKeys,
// RevokeKey, UsageOf, Plans) on a Unix socket at path, with mode 0600,
// until Close. Close the AdminServer before the Service.
//
// The socket is created in a new private directory beside path, given
// mode 0600, then renamed to path, so that it is never reachable with
// looser permissions. A stale socket at path (one nothing listens on) is
// replaced.
//
// It returns ECONFLICT when a server already answers at path or path is
// something other than a socket, and EINVALID when the socket cannot be
// created there.
func (s *Service) ListenAdmin(path string) (*AdminServer, error) {
	if err := checkAdminPath(path); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".gs")
	if err != nil {
		return nil, Errorf(EINVALID, "cannot create the admin socket %s: %v", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		msg := fmt.Sprintf("cannot create the admin socket %s: %v", path, err)
		if len(tmp) > 100 {
			msg += " (a Unix socket path is limited to about 100 bytes: use a shorter data file path)"
		}
		return nil, Errorf(EINVALID, "%s", msg)
	}
	// The socket file is renamed away from where it was bound: it is
	// removed by Close, not by the listener.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	var fi fs.FileInfo
	if err = os.Chmod(tmp, 0o600); err == nil {
		if err = os.Rename(tmp, path); err == nil {
			fi, err = os.Lstat(path)
		}
	}
	if err != nil {
		ln.Close()
		return nil, Errorf(EINVALID, "cannot create the admin socket %s: %v", path, err)
	}
	a := &AdminServer{
		path: path,
		file: fi,
		srv: &http.Server{
			Handler:           s.adminHandler(),
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       adminCallTimeout,
			WriteTimeout:      adminCallTimeout,
			IdleTimeout:       time.Minute,
		},
		served: make(chan error, 1),
	}
	go func() { a.served <- a.srv.Serve(ln) }()
	return a, nil
}

// checkAdminPath returns nil when a socket can be put at path: nothing is
// there, or a stale socket nothing listens on.
func checkAdminPath(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return Errorf(EINVALID, "cannot create the admin socket %s: %v", path, err)
	case fi.Mode()&fs.ModeSocket == 0:
		return Errorf(ECONFLICT, "%s exists and is not a socket: move it away, or use another data file path", path)
	}
	c, err := net.DialTimeout("unix", path, adminDialTimeout)
	switch {
	case err == nil:
		c.Close()
		return Errorf(ECONFLICT, "another server already serves %s", path)
	case errors.Is(err, syscall.ECONNREFUSED):
		return nil // stale: replaced by the rename
	default:
		return Errorf(ECONFLICT, "cannot tell whether a server answers on %s: %v", path, err)
	}
}

// Close stops serving, waiting up to five seconds for calls under way, and
// removes the socket file.
func (a *AdminServer) Close() error {
	a.once.Do(func() {
		var errs []error
		// New calls find no socket from here on.
		if fi, err := os.Lstat(a.path); err == nil && os.SameFile(fi, a.file) {
			if err := os.Remove(a.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.srv.Shutdown(ctx); err != nil {
			a.srv.Close()
		}
		if err := <-a.served; !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}

// adminStatus is the HTTP status of each error code on the admin socket;
// any other code is 500.
var adminStatus = map[string]int{
	EINVALID:  http.StatusBadRequest,
	ENOTFOUND: http.StatusNotFound,
	ECONFLICT: http.StatusConflict,
}

// adminError is the body of an error answer.
type adminError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// revokeInput is the body of POST /v1/keys/revoke.
type revokeInput struct {
	Key string `json:"key"` // a key's text or public id
}

// adminRoute answers one method of one path: it returns the answer's
// body, or an error.
type adminRoute struct {
	status int // of a successful answer
	call   func(w http.ResponseWriter, r *http.Request) (any, error)
}

// adminHandler is the admin protocol: its whole route table.
func (s *Service) adminHandler() http.Handler {
	routes := map[string]map[string]adminRoute{
		"/v1/keys": {
			http.MethodPost: {http.StatusCreated, func(w http.ResponseWriter, r *http.Request) (any, error) {
				var in KeyInput
				if err := decodeAdminBody(w, r, &in); err != nil {
					return nil, err
				}
				return s.CreateKey(r.Context(), in)
			}},
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				return s.ListKeys(r.Context())
			}},
		},
		"/v1/keys/revoke": {
			http.MethodPost: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				var in revokeInput
				if err := decodeAdminBody(w, r, &in); err != nil {
					return nil, err
				}
				return s.RevokeKey(r.Context(), in.Key)
			}},
		},
		"/v1/usage": {
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				name := r.URL.Query().Get("account")
				if name == "" {
					return nil, Errorf(EINVALID, "the account parameter is required")
				}
				return s.UsageOf(r.Context(), name)
			}},
		},
		"/v1/plans": {
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				return s.Plans(), nil
			}},
		},
		"/v1/import": {
			// The body is the file itself, of any size: the call may take
			// as long as the import does.
			http.MethodPost: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				rc := http.NewResponseController(w)
				rc.SetReadDeadline(time.Time{})
				rc.SetWriteDeadline(time.Time{})
				q := r.URL.Query()
				name := q.Get("name")
				if name == "" || len(name) > 4096 {
					return nil, Errorf(EINVALID, "the name parameter is required: the file's name, for messages")
				}
				return s.Import(r.Context(), name, r.Body, &ImportOptions{SkipInvalid: q.Get("skip_invalid") == "true"})
			}},
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods, ok := routes[r.URL.Path]
		if !ok {
			writeAdminError(w, Errorf(ENOTFOUND, "no admin operation at %s", r.URL.Path))
			return
		}
		route, ok := methods[r.Method]
		if !ok {
			var allow []string
			for m := range methods {
				allow = append(allow, m)
			}
			slices.Sort(allow)
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeAdminJSON(w, http.StatusMethodNotAllowed, adminError{EINVALID, fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path)})
			return
		}
		v, err := route.call(w, r)
		if err != nil {
			writeAdminError(w, err)
			return
		}
		writeAdminJSON(w, route.status, v)
	})
}

// decodeAdminBody decodes a request body of at most adminMaxBody bytes
// holding one JSON object with no unknown fields. Its errors never repeat
// the body's values (a revocation's body holds a key).
func decodeAdminBody(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, adminMaxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return nil
		}
		return Errorf(EINVALID, "request body holds more than one JSON value")
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return Errorf(EINVALID, "request body is larger than 1 MiB")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return Errorf(EINVALID, "request body: %s", strings.TrimPrefix(err.Error(), "json: "))
	default:
		return Errorf(EINVALID, "request body is not a JSON object of the expected form")
	}
}

func writeAdminError(w http.ResponseWriter, err error) {
	code := ErrorCode(err)
	status, ok := adminStatus[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	writeAdminJSON(w, status, adminError{code, ErrorMessage(err)})
}

func writeAdminJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// AdminClient calls the admin operations of a server through its socket.
// It is safe for concurrent use.
type AdminClient struct {
	path   string
	http   *http.Client
	stream *http.Client // no overall timeout: an import takes as long as it takes
}

// DialAdmin returns a client of the admin socket at path. It does not
// connect until a call. Connecting is given one second and a whole call
// ten seconds.
func DialAdmin(path string) *AdminClient {
	d := &net.Dialer{Timeout: adminDialTimeout}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			c, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return nil, &noAdminError{path: path, err: err}
			}
			return c, nil
		},
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
	}
	return &AdminClient{path: path, http: &http.Client{Transport: tr, Timeout: adminCallTimeout}, stream: &http.Client{Transport: tr}}
}

// noAdminError is a failure to connect to an admin socket.
type noAdminError struct {
	path string
	err  error
}

func (e *noAdminError) Error() string {
	return fmt.Sprintf("%v on %s: %v", ErrNoAdmin, e.path, e.err)
}
func (e *noAdminError) Is(target error) bool { return target == ErrNoAdmin }
func (e *noAdminError) Unwrap() error        { return e.err }

// CreateKey calls Service.CreateKey on the server. Besides that method's
// errors it returns one wrapping ErrNoAdmin when nothing answers.
func (c *AdminClient) CreateKey(ctx context.Context, in KeyInput) (*NewKey, error) {
	var out NewKey
	if err := c.call(ctx, http.MethodPost, "/v1/keys", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListKeys calls Service.ListKeys on the server. It returns an error
// wrapping ErrNoAdmin when nothing answers.
func (c *AdminClient) ListKeys(ctx context.Context) ([]KeyInfo, error) {
	var out []KeyInfo
	if err := c.call(ctx, http.MethodGet, "/v1/keys", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RevokeKey calls Service.RevokeKey on the server: when it returns, the
// server refuses the key. Besides that method's errors it returns one
// wrapping ErrNoAdmin when nothing answers.
func (c *AdminClient) RevokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error) {
	var out KeyInfo
	if err := c.call(ctx, http.MethodPost, "/v1/keys/revoke", revokeInput{Key: keyOrID}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UsageOf calls Service.UsageOf on the server. Besides that method's
// errors it returns one wrapping ErrNoAdmin when nothing answers.
func (c *AdminClient) UsageOf(ctx context.Context, account string) (Usage, error) {
	var out Usage
	err := c.call(ctx, http.MethodGet, "/v1/usage?"+url.Values{"account": {account}}.Encode(), nil, &out)
	return out, err
}

// Plans returns the server's plans. It returns an error wrapping
// ErrNoAdmin when nothing answers.
func (c *AdminClient) Plans(ctx context.Context) ([]Plan, error) {
	var out []Plan
	if err := c.call(ctx, http.MethodGet, "/v1/plans", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Import imports a file through the server that holds the data file, as
// Service.Import does on a file this process holds: r is streamed to the
// server, which writes it in one transaction. opts.Progress counts the
// bytes sent.
//
// It returns ErrNoAdmin (wrapped) when no server answers, having read
// nothing of r, and the server's errors as *Error values.
func (c *AdminClient) Import(ctx context.Context, name string, r io.Reader, opts *ImportOptions) (*ImportReport, error) {
	if opts == nil {
		opts = &ImportOptions{}
	}
	q := url.Values{"name": {name}}
	if opts.SkipInvalid {
		q.Set("skip_invalid", "true")
	}
	var counted *countingReader
	if opts.Progress != nil {
		counted = &countingReader{r: r, fn: opts.Progress, next: progressEvery}
		r = counted
	}
	var rep ImportReport
	err := c.send(ctx, c.stream, http.MethodPost, "/v1/import?"+q.Encode(), "text/plain", r, &rep)
	if err != nil {
		return nil, err
	}
	if counted != nil {
		opts.Progress(counted.n) // all of it, as a local import reports
	}
	return &rep, nil
}

// call sends one request and decodes its answer into out. An error answer
// becomes the *Error the server returned.
func (c *AdminClient) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	return c.send(ctx, c.http, method, path, "application/json", body, out)
}

func (c *AdminClient) send(ctx context.Context, client *http.Client, method, path, contentType string, body io.Reader, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, "http://admin"+path, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		var na *noAdminError
		var ne net.Error
		switch {
		case errors.As(err, &na):
			return na
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &ne) && ne.Timeout():
			return Errorf(EINTERNAL, "the server on %s did not answer within %s", c.path, adminCallTimeout)
		default:
			return Errorf(EINTERNAL, "the server on %s did not answer: %v", c.path, errors.Unwrap(err))
		}
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(io.LimitReader(resp.Body, adminMaxAnswer))
	if resp.StatusCode/100 != 2 {
		var e adminError
		if err := dec.Decode(&e); err != nil || e.Code == "" {
			return Errorf(EINTERNAL, "the server on %s answered %s", c.path, resp.Status)
		}
		return &Error{Code: e.Code, Message: e.Message}
	}
	if err := dec.Decode(out); err != nil {
		return Errorf(EINTERNAL, "the server on %s sent a malformed answer: %v", c.path, err)
	}
	return nil
}
