// Package server runs the grocery HTTP servers: it wires the data file,
// the admin socket and the interface handlers onto one listener, logs
// every request, and shuts down gracefully. The binaries (grocery serve,
// grocery-mcp, grocery-rest) differ only in the Config they pass.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/requestid"
	"github.com/grocerydata/grocery/internal/webhookclient"
	"github.com/grocerydata/grocery/mcpserver"
	"github.com/grocerydata/grocery/restserver"
)

// Config configures Run.
type Config struct {
	Addr    string // listen address, e.g. 127.0.0.1:8080
	DB      string // data file
	Version string // in MCP's serverInfo, /healthz and the start line; "" means Version()
	Logger  *slog.Logger

	// Options opens the data file (plans, key prefix, clock).
	Options Options
	// AllowedOrigins are the browser origins allowed to call MCP
	// (--allowed-origin); on a loopback address, loopback origins are
	// allowed too.
	AllowedOrigins []string
	// MaxConns bounds the connections held open at once (--max-conns);
	// 0 means DefaultMaxConns.
	MaxConns int
	// Ready, if set, is called with the base URL once the server listens.
	Ready func(baseURL string)
	// Serve picks the interfaces; the zero value serves MCP and REST.
	Serve Interfaces

	// Role is "" (one process: the default), RoleIngest or RoleReplica.
	Role string
	// Snapshots is the snapshot directory of RoleIngest (published to
	// after each import) and RoleReplica (followed).
	Snapshots string
}

// The roles of a server that runs with others (--role).
const (
	RoleIngest  = "ingest"  // holds the writable file, publishes snapshots
	RoleReplica = "replica" // serves the newest snapshot, read-only
)

// Interfaces says which interfaces a server mounts.
type Interfaces int

// The interface sets: grocery serve mounts both, grocery-mcp and
// grocery-rest one each.
const (
	ServeAll  Interfaces = iota // MCP at /mcp, REST at /
	ServeMCP                    // MCP at /mcp only
	ServeREST                   // REST at / only
)

// Run serves until ctx is cancelled, then stops accepting requests, lets
// those in flight finish (up to ShutdownTimeout), writes the last quota
// counts and closes the data file.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	if cfg.Version == "" {
		cfg.Version = Version()
	}
	svc, err := open(ctx, cfg, log)
	if err != nil {
		return err
	}
	tuneGC(os.Getenv("GOGC"))
	defer func() {
		if err := svc.Close(); err != nil {
			log.Error("closing the data file", "err", err)
		}
	}()
	sock := ""
	if cfg.Role != RoleReplica { // a replica has no file of its own
		sock = admin.SocketPath(cfg.DB)
		adm, err := admin.Listen(svc, sock)
		if err != nil {
			return err
		}
		defer adm.Close()
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return grocery.Errorf(grocery.EINVALIDARGUMENT, "cannot listen on %s: %v", cfg.Addr, err)
	}
	maxConns := cfg.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	limited := newLimitListener(ln, maxConns)
	ln = limited
	srv := &http.Server{
		Handler:           Routes(svc, cfg, log),
		ConnState:         limited.ConnState,
		MaxHeaderBytes:    MaxHeaderBytes,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()
	if cfg.Role == RoleReplica { // no data file of its own, no admin socket
		log.Info("serving", "url", base, "version", cfg.Version, "interfaces", cfg.Serve.String(), "role", cfg.Role, "snapshots", cfg.Snapshots)
	} else {
		log.Info("serving", "url", base, "version", cfg.Version, "interfaces", cfg.Serve.String(), "db", cfg.DB, "admin_socket", sock)
	}
	if cfg.Ready != nil {
		cfg.Ready(base)
	}
	stopStats := logRuntime(log, RuntimeLogEvery)
	defer stopStats()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing requests in flight")
	shut, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		log.Warn("shutdown", "err", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// open opens the service of cfg's role: the data file, published once
// at start for an ingest node, or the newest snapshot for a replica.
func open(ctx context.Context, cfg Config, log *slog.Logger) (*grocery.Service, error) {
	opts := cfg.Options
	opts.WarmAnswers = true // the competitive benchmark's answers ready after each import
	opts.Preload = true     // a first request of its kind pays no page faults
	if opts.Logger == nil { // the service logs what it does on its own: alert evaluations owed, snapshots refused
		opts.Logger = log
	}
	if opts.Webhooks.Sender == nil && cfg.Role != RoleReplica {
		// The node that holds the file for writing delivers the webhooks.
		w := opts.Webhooks
		opts.Webhooks.Sender = webhookclient.New(grocery.WebhookPolicy{Loopback: w.AllowLoopback, Private: w.AllowPrivate})
	}
	switch cfg.Role {
	case "":
		return Open(cfg.DB, opts)
	case RoleIngest:
		opts.SnapshotDir = cfg.Snapshots
		svc, err := Open(cfg.DB, opts)
		if err != nil {
			return nil, err
		}
		snap, err := svc.Publish(ctx)
		if err != nil {
			svc.Close()
			return nil, err
		}
		log.Info("snapshot published", "seq", snap.Seq, "as_of", snap.AsOf, "size", snap.Size, "dir", cfg.Snapshots)
		return svc, nil
	case RoleReplica:
		svc, err := OpenReplica(cfg.Snapshots, opts)
		if err != nil {
			return nil, err
		}
		st, _ := svc.Replica()
		log.Info("replica serving snapshot", "seq", st.Snapshot.Seq, "as_of", st.Snapshot.AsOf, "dir", cfg.Snapshots)
		return svc, nil
	}
	return nil, grocery.Errorf(grocery.EINVALIDARGUMENT, "role %q: want %s or %s", cfg.Role, RoleIngest, RoleReplica)
}

// ShutdownTimeout bounds how long Run waits for requests in flight.
const ShutdownTimeout = 10 * time.Second

// String names the interfaces for the log.
func (i Interfaces) String() string {
	switch i {
	case ServeMCP:
		return "mcp"
	case ServeREST:
		return "rest"
	}
	return "mcp,rest"
}

// Routes returns the whole route table: MCP at /mcp with the OAuth
// discovery probes answered 404, REST at / (every other path), and
// /healthz, as cfg.Serve selects. /healthz names cfg.Version.
func Routes(svc *grocery.Service, cfg Config, log *slog.Logger) http.Handler {
	if cfg.Version == "" {
		cfg.Version = Version()
	}
	okHealth, _ := json.Marshal(struct {
		Status  string `json:"status"`
		Version string `json:"version"`
	}{"ok", cfg.Version})
	okHealth = append(okHealth, '\n')
	mux := http.NewServeMux()
	var mcp, rest http.Handler
	if cfg.Serve != ServeREST {
		mcp = mcpserver.New(svc, &mcpserver.Options{AllowedOrigins: cfg.AllowedOrigins,
			AllowLoopbackOrigins: listensOnLoopback(cfg.Addr), Version: cfg.Version, Logger: log})
		mux.Handle("/mcp", mcp)
		mux.Handle("/.well-known/", mcp)
	}
	if cfg.Serve != ServeMCP {
		rest = restserver.New(svc, &restserver.Options{Logger: log})
		mux.Handle("/", rest)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		st, ok := svc.Replica()
		if !ok {
			if h := svc.Health(); h.UsageNotSaved != "" {
				// It serves, but a crash now would lose counts.
				json.NewEncoder(w).Encode(struct {
					Status  string `json:"status"`
					Version string `json:"version"`
					grocery.Health
				}{"degraded", cfg.Version, h})
				return
			}
			w.Write(okHealth)
			return
		}
		// A replica says which snapshot it serves and, when it did not
		// take a newer one, why, and whether it tries again: it still
		// serves, so the status stays ok.
		h := replicaHealth{Status: "ok", Version: cfg.Version, Snapshot: snapshotHealth{st.Snapshot.Seq, st.Snapshot.AsOf},
			Refused: st.Refused, Retry: st.Retry}
		if n, since := st.Behind(); n > 0 {
			h.Behind = &behindHealth{Snapshots: n, LatestSeq: st.Latest.Seq, Seconds: max(0, int64(time.Since(since).Seconds()))}
		}
		json.NewEncoder(w).Encode(h)
	})
	return accessLog(log, recoverPanics(log, direct(mux, mcp, rest)))
}

// replicaHealth is a replica's /healthz answer.
type replicaHealth struct {
	Status   string         `json:"status"`
	Version  string         `json:"version"` // the server's, as Config.Version
	Snapshot snapshotHealth `json:"snapshot"`
	Refused  string         `json:"refused,omitempty"`
	Retry    bool           `json:"retry,omitempty"` // Refused may pass: the snapshot is fetched again
	// Behind says how far the snapshot served lags the newest the
	// manifest names (absent when it serves that one).
	Behind *behindHealth `json:"behind,omitempty"`
}

// behindHealth is a replica's lag: snapshots behind the manifest's newest,
// that one's sequence number, and seconds since it was published.
type behindHealth struct {
	Snapshots uint64 `json:"snapshots"`
	LatestSeq uint64 `json:"latest_seq"`
	Seconds   int64  `json:"seconds"`
}

type snapshotHealth struct {
	Seq  uint64       `json:"seq"`
	AsOf grocery.Date `json:"as_of"`
}

// direct sends a request whose path is plain (clean, nothing escaped)
// straight to the interface mux would choose for it, and any other
// request to mux: the mux's matching costs a request four allocations.
// mcp or rest is nil when it is not served.
func direct(mux *http.ServeMux, mcp, rest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if r.Method == http.MethodConnect || r.URL.RawPath != "" || p == "" || p[0] != '/' || path.Clean(p) != p {
			mux.ServeHTTP(w, r)
			return
		}
		switch {
		case p == "/mcp" && mcp != nil:
			mcp.ServeHTTP(w, r)
		case p == "/mcp" || p == "/healthz" || p == "/.well-known" || strings.HasPrefix(p, "/.well-known/") || rest == nil:
			mux.ServeHTTP(w, r)
		default:
			rest.ServeHTTP(w, r)
		}
	})
}

// statusWriter records what a handler wrote, for the access log, and
// what an MCP request called: it is the mcpserver.CallRecorder the MCP
// handler finds on its ResponseWriter.
type statusWriter struct {
	http.ResponseWriter
	status    int
	bytes     int
	rpc, tool string
}

var _ mcpserver.CallRecorder = (*statusWriter)(nil)

// RecordCall implements mcpserver.CallRecorder.
func (w *statusWriter) RecordCall(method, tool string) { w.rpc, w.tool = method, tool }

// Unwrap gives http.ResponseController the connection's writer, so that
// a handler can set its own deadlines (a long export does).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// accessLog logs one line a request, naming for an MCP request its
// JSON-RPC method (rpc=tools/call) and tool (tool=lookup_product), and
// the request's id (request_id), which every answer carries in
// X-Request-Id: the client's when valid, otherwise one made here (package
// requestid). It never logs other headers or arguments, so neither a key
// nor a query reaches the log.
func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		id := requestid.Ensure(w, r) // every answer carries it, errors and MCP too
		// Logged in a defer: a request the handler aborted (an export
		// whose client went away) is logged too, as aborted.
		defer func() {
			v := recover()
			now := time.Now()
			logAccess(log, r, now, &accessLine{
				method: r.Method, path: r.URL.Path, rpc: sw.rpc, tool: sw.tool,
				status: sw.status, bytes: sw.bytes, duration: now.Sub(start),
				remote: r.RemoteAddr, aborted: v != nil, requestID: id,
			})
			if v != nil {
				panic(v)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// recoverPanics turns a panic into a 500 without internals, and logs it.
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic serving a request", "path", r.URL.Path, "panic", fmt.Sprint(v))
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// ServeGOGC is the garbage collector's target a server runs with when the
// GOGC environment variable does not set one: the price data lives in
// bbolt's memory map, not on the heap, so the live heap is a few MB and
// Go's default of 100 collects after every few MB of garbage, tens of
// times a second under load. 400 lets the heap grow to five times its live
// size between collections: a few tens of MB more for a fifth of the
// collections.
const ServeGOGC = 400

// tuneGC sets ServeGOGC unless gogc (the GOGC environment variable) is set.
func tuneGC(gogc string) {
	if gogc == "" {
		debug.SetGCPercent(ServeGOGC)
	}
}

// RuntimeLogEvery is how often a server logs its runtime figures.
const RuntimeLogEvery = time.Minute

// logRuntime logs the process's goroutines, heap and collections every
// interval (an operator's and the soak run's view of leaks), until the
// returned function is called.
func logRuntime(log *slog.Logger, every time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				log.Info("runtime", "goroutines", runtime.NumGoroutine(), "heap_mb", m.HeapAlloc>>20,
					"sys_mb", m.Sys>>20, "gc", m.NumGC)
			}
		}
	}()
	return sync.OnceFunc(func() { close(done) })
}
