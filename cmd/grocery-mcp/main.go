// Command grocery-mcp serves the grocery MCP interface alone: POST /mcp
// (MCP 2025-06-18, stateless Streamable HTTP), GET /healthz, and the admin
// socket beside the data file for the grocery CLI's lookups, key commands
// and imports.
//
//	grocery-mcp [--addr 127.0.0.1:8080] [--db ./grocery.db]
//
// It stops gracefully on SIGINT or SIGTERM: requests in flight finish and
// the quota counts are written before it exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "grocery-mcp: "+grocery.ErrorMessage(err))
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("grocery-mcp", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	db := fs.String("db", envOr("GROCERY_DB", "./grocery.db"), "data file (env GROCERY_DB)")
	if err := fs.Parse(args); err != nil {
		os.Exit(2)
	}
	opts, err := server.OptionsFromEnv(os.Getenv)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*db); err != nil {
		return grocery.Errorf(grocery.ENOTFOUND, "no data file at %s: build one with 'grocery demo' or 'grocery import', or pass --db", *db)
	}
	logs := server.NewLogWriter(os.Stderr, 200*time.Millisecond)
	defer logs.Close()
	return server.Run(ctx, server.Config{
		Addr:    *addr,
		DB:      *db,
		Version: server.Version(),
		Logger:  slog.New(slog.NewJSONHandler(logs, nil)),
		Options: opts,
		Serve:   server.ServeMCP,
	})
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
