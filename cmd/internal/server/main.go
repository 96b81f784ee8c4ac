package server

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// Main is the whole of a single-interface server binary (grocery-mcp,
// grocery-rest): it reads --addr and --db (env GROCERY_DB), serves the
// interfaces of serve until SIGINT or SIGTERM, logs JSON lines to stderr,
// and exits 1 with one line on an error, 2 on a wrong command line.
func Main(name string, serve Interfaces) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runMain(ctx, name, serve, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+": "+grocery.ErrorMessage(err))
		os.Exit(1)
	}
}

func runMain(ctx context.Context, name string, serve Interfaces, args []string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	db := fs.String("db", envOr("GROCERY_DB", "./grocery.db"), "data file (env GROCERY_DB)")
	var origins []string
	fs.Func("allowed-origin", "a browser `origin` allowed to call MCP, e.g. https://app.example.com (repeatable)", func(v string) error {
		origins = append(origins, v)
		return nil
	})
	maxConns := fs.Int("max-conns", DefaultMaxConns, "connections held open at once; when all are taken an idle keep-alive one is closed, else new ones wait")
	redisURL := fs.String("redis", "", "keep keys and quota in this Redis, shared with other servers: redis://127.0.0.1:6379/0 (env GROCERY_REDIS_URL)")
	if err := fs.Parse(args); err != nil {
		os.Exit(2)
	}
	opts, err := OptionsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if *redisURL != "" {
		opts.RedisURL = *redisURL
	}
	if _, err := os.Stat(*db); err != nil {
		return grocery.Errorf(grocery.ENOTFOUND, "no data file at %s: build one with 'grocery demo' or 'grocery import', or pass --db", *db)
	}
	logs := NewLogWriter(os.Stderr, 200*time.Millisecond)
	defer logs.Close()
	return Run(ctx, Config{
		Addr:    *addr,
		DB:      *db,
		Version: Version(),
		Logger:  slog.New(slog.NewJSONHandler(logs, nil)),
		Options: opts,
		Serve:   serve,

		AllowedOrigins: origins,
		MaxConns:       *maxConns,
	})
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
