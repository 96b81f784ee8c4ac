package admin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// Server serves the admin operations of a Service on a Unix socket.
type Server struct {
	path   string
	file   fs.FileInfo // the socket file, to remove only our own
	srv    *http.Server
	served chan error

	once     sync.Once
	closeErr error
}

// Listen serves svc on a Unix socket at path, with mode 0600, until
// Close: the key operations (CreateKey, ListKeys, RevokeKey, AccountUsage,
// Plans), Import, Export, the queries (LookupProduct, SearchProducts,
// PriceHistory, ListReferenceStores) and the alert rules (CreateAlert,
// ListAlerts, Alert, UpdateAlert, DeleteAlert, AlertEvents, EvaluateAlert,
// EvaluateAlerts) and the webhook endpoints (CreateWebhook, ListWebhooks,
// DeleteWebhook, TestWebhook, WebhookDeliveries). Close the Server before
// the Service.
//
// The socket is created in a new private directory beside path, given
// mode 0600, then renamed to path, so that it is never reachable with
// looser permissions. A stale socket at path (one nothing listens on) is
// replaced.
//
// It returns ECONFLICT when a server already answers at path or path is
// something other than a socket, and EINVALIDARGUMENT when the socket cannot be
// created there.
func Listen(svc *grocery.Service, path string) (*Server, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".gs")
	if err != nil {
		return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "cannot create the admin socket %s: %v", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		msg := fmt.Sprintf("cannot create the admin socket %s: %v", path, err)
		if len(tmp) > 100 {
			msg += " (a Unix socket path is limited to about 100 bytes: use a shorter data file path)"
		}
		return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "%s", msg)
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
		return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "cannot create the admin socket %s: %v", path, err)
	}
	s := &Server{
		path: path,
		file: fi,
		srv: &http.Server{
			Handler:           handler(svc),
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       callTimeout,
			WriteTimeout:      callTimeout,
			IdleTimeout:       time.Minute,
		},
		served: make(chan error, 1),
	}
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// checkPath returns nil when a socket can be put at path: nothing is
// there, or a stale socket nothing listens on.
func checkPath(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "cannot create the admin socket %s: %v", path, err)
	case fi.Mode()&fs.ModeSocket == 0:
		return grocery.Errorf(grocery.ECONFLICT, "%s exists and is not a socket: move it away, or use another data file path", path)
	}
	c, err := net.DialTimeout("unix", path, dialTimeout)
	switch {
	case err == nil:
		c.Close()
		return grocery.Errorf(grocery.ECONFLICT, "another server already serves %s", path)
	case errors.Is(err, syscall.ECONNREFUSED):
		return nil // stale: replaced by the rename
	default:
		return grocery.Errorf(grocery.ECONFLICT, "cannot tell whether a server answers on %s: %v", path, err)
	}
}

// Close stops serving, waiting up to five seconds for calls under way, and
// removes the socket file.
func (s *Server) Close() error {
	s.once.Do(func() {
		var errs []error
		// New calls find no socket from here on.
		if fi, err := os.Lstat(s.path); err == nil && os.SameFile(fi, s.file) {
			if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			s.srv.Close()
		}
		if err := <-s.served; !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// statusOf is the HTTP status of each error code on the socket; any other
// code is 500. The client reads the code from the body, not the status.
var statusOf = map[string]int{
	grocery.EINVALIDARGUMENT: http.StatusBadRequest,
	grocery.ENOTFOUND:        http.StatusNotFound,
	grocery.ECONFLICT:        http.StatusConflict,
}

// route answers one method of one path: it returns the answer's body, or
// an error.
type route struct {
	status int // of a successful answer
	call   func(w http.ResponseWriter, r *http.Request) (any, error)
}

// query is the route of a Service query: the body is its input struct,
// the answer its result.
func query[I, R any](f func(context.Context, I) (R, error)) map[string]route {
	return map[string]route{http.MethodPost: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var in I
		if err := decodeBody(w, r, &in); err != nil {
			return nil, err
		}
		return f(r.Context(), in)
	}}}
}

// cached is a Service method answered from the Service's answer cache
// (grocery.Cached), under the name the REST interface gives it too, so
// that the CLI and REST clients share the answers.
func cached[I comparable, R any](svc *grocery.Service, name string, f func(context.Context, I) (*R, error)) func(context.Context, I) (*R, error) {
	return func(ctx context.Context, in I) (*R, error) { return grocery.Cached(ctx, svc, name, f, in) }
}

// accountQuery is the route of a Service method that acts for an account:
// the account parameter names it (trusted: the socket is its owner's
// only), the body is its input, the answer its result.
func accountQuery[I, R any](status int, f func(context.Context, I) (R, error)) map[string]route {
	return map[string]route{http.MethodPost: {status, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var in I
		if err := decodeBody(w, r, &in); err != nil {
			return nil, err
		}
		ctx := r.Context()
		if name := r.URL.Query().Get("account"); name != "" {
			ctx = grocery.NewContextWithAccount(ctx, name)
		}
		return f(ctx, in)
	}}}
}

// handler is the protocol: its whole route table, by group.
func handler(svc *grocery.Service) http.Handler {
	routes := map[string]map[string]route{}
	for _, group := range []map[string]map[string]route{keyRoutes(svc), dataRoutes(svc), queryRoutes(svc), alertRoutes(svc), webhookRoutes(svc)} {
		maps.Copy(routes, group)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serveRoute(routes, w, r) })
}

// keyRoutes are the API keys' and plans' routes.
func keyRoutes(svc *grocery.Service) map[string]map[string]route {
	return map[string]map[string]route{
		"/v1/keys": {
			http.MethodPost: {http.StatusCreated, func(w http.ResponseWriter, r *http.Request) (any, error) {
				var in grocery.KeyInput
				if err := decodeBody(w, r, &in); err != nil {
					return nil, err
				}
				return svc.CreateKey(r.Context(), in)
			}},
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				return svc.ListKeys(r.Context())
			}},
		},
		"/v1/keys/revoke": {
			http.MethodPost: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				var in revokeInput
				if err := decodeBody(w, r, &in); err != nil {
					return nil, err
				}
				return svc.RevokeKey(r.Context(), in.Key)
			}},
		},
		"/v1/usage": {
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				name := r.URL.Query().Get("account")
				if name == "" {
					return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "the account parameter is required")
				}
				return svc.AccountUsage(r.Context(), name)
			}},
		},
		"/v1/plans": {
			http.MethodGet: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
				return svc.Plans(), nil
			}},
		},
	}
}

// dataRoutes import and export data.
func dataRoutes(svc *grocery.Service) map[string]map[string]route {
	return map[string]map[string]route{
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
					return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "the name parameter is required: the file's name, for messages")
				}
				return svc.Import(r.Context(), name, r.Body, &grocery.ImportOptions{SkipInvalid: q.Get("skip_invalid") == "true", UpdateNames: q.Get("update_names") == "true"})
			}},
		},
		"/v1/export": {http.MethodPost: {http.StatusOK, func(w http.ResponseWriter, r *http.Request) (any, error) {
			return exportTo(svc, w, r)
		}}},
	}
}

// queryRoutes are the queries and analytics.
func queryRoutes(svc *grocery.Service) map[string]map[string]route {
	return map[string]map[string]route{
		// The queries, for the CLI while the server holds the file.
		"/v1/lookup":  query(svc.LookupProduct),
		"/v1/search":  query(svc.SearchProducts),
		"/v1/history": query(svc.PriceHistory),
		"/v1/stores":  query(svc.ListReferenceStores),
		// The period analytics (grocery report category|promos|new).
		"/v1/report/category_report": query(cached(svc, "CategoryReport", svc.CategoryReport)),
		"/v1/report/promo_calendar":  query(cached(svc, "PromoCalendar", svc.PromoCalendar)),
		"/v1/report/new_on_shelf":    query(cached(svc, "NewOnShelf", svc.NewOnShelf)),
		// The snapshot analytics (grocery report geo|regional|benchmark|brand|basket).
		"/v1/report/geographic_prices":     query(cached(svc, "GeographicPrices", svc.GeographicPrices)),
		"/v1/report/regional_comparison":   query(cached(svc, "RegionalComparison", svc.RegionalComparison)),
		"/v1/report/competitive_benchmark": query(cached(svc, "CompetitiveBenchmark", svc.CompetitiveBenchmark)),
		"/v1/report/brand_insights":        query(cached(svc, "BrandInsights", svc.BrandInsights)),
		"/v1/report/basket":                query(svc.CompareBasket),
		// Analytics, for the account in the account parameter when given.
		"/v1/brief":          accountQuery(http.StatusOK, svc.ExecutiveBrief),
		"/v1/report/signals": accountQuery(http.StatusOK, svc.Signals),
	}
}

// alertRoutes are an account's alert rules.
func alertRoutes(svc *grocery.Service) map[string]map[string]route {
	return map[string]map[string]route{
		// Alert rules, for the account in the account parameter.
		"/v1/alerts":        accountQuery(http.StatusCreated, svc.CreateAlert),
		"/v1/alerts/list":   accountQuery(http.StatusOK, svc.ListAlerts),
		"/v1/alerts/get":    accountQuery(http.StatusOK, func(ctx context.Context, in alertID) (*grocery.AlertRule, error) { return svc.Alert(ctx, in.ID) }),
		"/v1/alerts/delete": accountQuery(http.StatusOK, func(ctx context.Context, in alertID) (alertID, error) { return in, svc.DeleteAlert(ctx, in.ID) }),
		"/v1/alerts/update": accountQuery(http.StatusOK, func(ctx context.Context, in alertUpdate) (*grocery.AlertRule, error) {
			return svc.UpdateAlert(ctx, in.ID, in.Update)
		}),
		"/v1/alerts/evaluate_one": accountQuery(http.StatusOK, func(ctx context.Context, in alertID) (*grocery.AlertRule, error) {
			return svc.EvaluateAlert(ctx, in.ID)
		}),
		"/v1/alerts/events": accountQuery(http.StatusOK, svc.AlertEvents),
		"/v1/alerts/evaluate": accountQuery(http.StatusOK, func(ctx context.Context, _ struct{}) (*grocery.AlertEvaluation, error) {
			return svc.EvaluateAlerts(ctx)
		}),
	}
}

// webhookRoutes are an account's webhook endpoints.
func webhookRoutes(svc *grocery.Service) map[string]map[string]route {
	return map[string]map[string]route{
		// Webhook endpoints, for the account in the account parameter.
		"/v1/webhooks": accountQuery(http.StatusCreated, svc.CreateWebhook),
		"/v1/webhooks/list": accountQuery(http.StatusOK, func(ctx context.Context, _ struct{}) (*grocery.WebhookList, error) {
			return svc.ListWebhooks(ctx)
		}),
		"/v1/webhooks/delete": accountQuery(http.StatusOK, func(ctx context.Context, in webhookRef) (webhookRef, error) {
			return in, svc.DeleteWebhook(ctx, in.ID)
		}),
		"/v1/webhooks/test": accountQuery(http.StatusOK, func(ctx context.Context, in webhookRef) (*grocery.WebhookDelivery, error) {
			return svc.TestWebhook(ctx, in.ID)
		}),
		"/v1/webhooks/deliveries": accountQuery(http.StatusOK, func(ctx context.Context, in webhookDeliveries) (*grocery.WebhookDeliveryList, error) {
			return svc.WebhookDeliveries(ctx, in.ID, in.WebhookDeliveriesInput)
		}),
	}
}

// serveRoute answers r by its route in routes.
func serveRoute(routes map[string]map[string]route, w http.ResponseWriter, r *http.Request) {
	methods, ok := routes[r.URL.Path]
	if !ok {
		// A newer CLI than this server: the client says to restart it.
		writeError(w, grocery.Errorf(grocery.ECONFLICT, "%s%s", unknownOperation, r.URL.Path))
		return
	}
	rt, ok := methods[r.Method]
	if !ok {
		var allow []string
		for m := range methods {
			allow = append(allow, m)
		}
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Code: grocery.EINVALIDARGUMENT, Message: fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path)})
		return
	}
	v, err := rt.call(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	if _, ok := v.(streamed); ok {
		return
	}
	writeJSON(w, rt.status, v)
}

// streamed is the answer of a route that wrote its own body.
type streamed struct{}

// exportRowsTrailer carries an export's row count after its body: a body
// without it was cut short.
const exportRowsTrailer = "X-Export-Rows"

// exportCursorHeader carries an export's cursor (grocery.PreparedExport.Cursor).
const exportCursorHeader = "X-Export-Cursor"

// exportTo streams an export as the answer's body. Bad arguments are an
// error answer, as from any route; a failure once the body has begun
// aborts the connection, so the client sees the body cut short.
func exportTo(svc *grocery.Service, w http.ResponseWriter, r *http.Request) (any, error) {
	var in grocery.ExportInput
	if err := decodeBody(w, r, &in); err != nil {
		return nil, err
	}
	p, err := svc.PrepareExport(r.Context(), in)
	if err != nil {
		return nil, err
	}
	defer p.Close() // a panic before Stream: it holds the data file
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", p.ContentType)
	w.Header().Set("Content-Disposition", p.ContentDisposition())
	w.Header().Set(exportCursorHeader, p.Cursor)
	w.Header().Set("Trailer", exportRowsTrailer)
	sum, err := p.Stream(r.Context(), w)
	switch {
	case err != nil && sum.Bytes == 0:
		w.Header().Del("Trailer")
		return nil, err
	case err != nil:
		panic(http.ErrAbortHandler)
	}
	w.Header().Set(exportRowsTrailer, strconv.FormatInt(sum.Rows, 10))
	return streamed{}, nil
}

// decodeBody decodes a request body of at most maxBody bytes holding one
// JSON object with no unknown fields. Its errors never repeat the body's
// values (a revocation's body holds a key).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return nil
		}
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body holds more than one JSON value")
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body is larger than 1 MiB")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body: %s", strings.TrimPrefix(err.Error(), "json: "))
	default:
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "request body is not a JSON object of the expected form")
	}
}

// writeError answers err: a *grocery.Error as it is, any other error as
// EINTERNAL without its text.
func writeError(w http.ResponseWriter, err error) {
	body := errorBody{Code: grocery.ErrorCode(err), Message: grocery.ErrorMessage(err)}
	var ge *grocery.Error
	if errors.As(err, &ge) {
		body.Message, body.Next = ge.Message, ge.Next
	}
	status, ok := statusOf[body.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	writeJSON(w, status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
