package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// Main is the whole of a single-interface server binary (grocery-mcp,
// grocery-rest): it reads --addr, --db (env GROCERY_DB), --redis,
// --role and --snapshots, serves the interfaces of serve until SIGINT or
// SIGTERM, logs JSON lines to stderr, and exits 1 with one line on an
// error, 2 on a wrong command line. --version prints "NAME version V"
// (V is Version()) and exits 0.
func Main(name string, serve Interfaces) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runMain(ctx, name, serve, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var usage *usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, &usage):
		if usage.err != nil { // else the flag package said it
			fmt.Fprintln(os.Stderr, name+": "+usage.err.Error())
		}
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, name+": "+grocery.ErrorMessage(err))
		os.Exit(1)
	}
}

// usageError is a wrong command line; err is nil when the flag package
// already printed why.
type usageError struct{ err error }

func (e *usageError) Error() string {
	if e.err == nil {
		return "wrong command line"
	}
	return e.err.Error()
}

// Flag help shared by grocery serve, grocery-mcp and grocery-rest.
const (
	RoleHelp      = "run as one of several servers; both roles need --redis, where keys, quota counts, alert rules and events live: 'ingest' holds the data file, publishes a snapshot of it to --snapshots at start and after each import, and evaluates the alert rules after each import; 'replica' serves the newest snapshot of --snapshots read-only and follows new ones"
	SnapshotsHelp = "snapshot `dir`ectory that --role ingest publishes to and --role replica follows"
)

// CheckRole checks the --role, --snapshots and --redis flags of a
// server together, with an error naming the flag to fix.
func CheckRole(role, snapshots, redisURL string) error {
	switch role {
	case "":
		if snapshots != "" {
			return errors.New("--snapshots needs --role ingest or --role replica")
		}
		return nil
	case RoleIngest, RoleReplica:
	default:
		return fmt.Errorf("--role %q: want ingest or replica", role)
	}
	if snapshots == "" {
		return fmt.Errorf("--role %s needs --snapshots DIR, the snapshot directory", role)
	}
	if role == RoleReplica && redisURL == "" {
		return errors.New("--role replica needs --redis (or GROCERY_REDIS_URL): a replica has no writable file for keys and quota counts")
	}
	if role == RoleIngest && redisURL == "" {
		return errors.New("--role ingest needs --redis (or GROCERY_REDIS_URL): the replicas' keys, quota counts and alert rules live there, and the ingest node evaluates those rules after each import")
	}
	return nil
}

func runMain(ctx context.Context, name string, serve Interfaces, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	db := fs.String("db", envOr("GROCERY_DB", "./grocery.db"), "data file (env GROCERY_DB); not used by --role replica")
	var origins []string
	fs.Func("allowed-origin", "a browser `origin` allowed to call MCP, e.g. https://app.example.com (repeatable)", func(v string) error {
		origins = append(origins, v)
		return nil
	})
	maxConns := fs.Int("max-conns", DefaultMaxConns, "connections held open at once; when all are taken an idle keep-alive one is closed, else new ones wait")
	redisURL := fs.String("redis", "", "keep keys, quota counts, alert rules and events and webhooks in this Redis, shared with other servers: redis://127.0.0.1:6379/0 (env GROCERY_REDIS_URL)")
	role := fs.String("role", "", RoleHelp)
	snaps := fs.String("snapshots", "", SnapshotsHelp)
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{}
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Errorf("unexpected argument %q: %s takes flags only", fs.Arg(0), name)}
	}
	if *version {
		_, err := fmt.Fprintf(stdout, "%s version %s\n", name, Version())
		return err
	}
	opts, err := OptionsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if *redisURL != "" {
		opts.RedisURL = *redisURL
	}
	if err := CheckRole(*role, *snaps, opts.RedisURL); err != nil {
		return &usageError{err}
	}
	if *role != RoleReplica {
		if _, err := os.Stat(*db); err != nil {
			return grocery.Errorf(grocery.ENOTFOUND, "no data file at %s: build one with 'grocery demo' or 'grocery import', or pass --db", *db)
		}
	}
	logs := NewLogWriter(stderr, 200*time.Millisecond)
	defer logs.Close()
	return Run(ctx, Config{
		Addr:    *addr,
		DB:      *db,
		Version: Version(),
		Logger:  slog.New(NewLogHandler(logs, true)),
		Options: opts,
		Serve:   serve,

		AllowedOrigins: origins,
		MaxConns:       *maxConns,
		Role:           *role,
		Snapshots:      *snaps,
	})
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
