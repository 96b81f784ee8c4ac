package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// demoUPC is a barcode every demo data set carries in Ontario.
const demoUPC = "067000378089"

// serveFlags are serve's own flags (--redis and the webhook policy are
// app's).
type serveFlags struct {
	addr     string
	demo     bool
	origins  []string
	maxConns int
	role     string
	snaps    string
}

func (a *app) serveCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:     "serve",
		Short:   "Serve the MCP and REST interfaces on one listener",
		Long:    serveLong,
		Example: "  grocery serve --demo\n  grocery serve --addr 127.0.0.1:9000 --db prices.db",
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			return a.serve(cmd, &f)
		}),
	}
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8080", "listen address")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "build the demo data if missing and print a demo API key")
	cmd.Flags().StringSliceVar(&f.origins, "allowed-origin", nil, "browser `origin`s allowed to call MCP, e.g. https://app.example.com (repeatable); on a loopback address, loopback origins are allowed too")
	cmd.Flags().IntVar(&f.maxConns, "max-conns", server.DefaultMaxConns, "connections held open at once; when all are taken an idle keep-alive one is closed, else new ones wait")
	cmd.Flags().StringVar(&a.redisURL, "redis", "", redisHelp)
	cmd.Flags().StringVar(&f.role, "role", "", server.RoleHelp)
	cmd.Flags().StringVar(&f.snaps, "snapshots", "", server.SnapshotsHelp)
	webhookPolicyFlags(cmd.Flags(), &a.webhooks)
	return cmd
}

// serveLong is serve's --help.
const serveLong = `serve serves the grocery interfaces on one listener: MCP at /mcp
(stateless Streamable HTTP: revision 2026-07-28, and 2025-11-25,
2025-06-18 and 2025-03-26 after their handshake), REST at / for the
integration plan's keys (X-API-Key), and GET /healthz. The REST paths:

  store prices   GET /prices, GET /price, GET /search
  catalogue      GET /products/{upc}, GET /history, GET /stores (the
                 MCP tools' answers)
  account        GET /usage (free)
  exports        GET /b2b/export (json, jsonl, csv, xlsx, parquet)
  alerts         GET and POST /b2b/alerts, GET, PATCH and DELETE
                 /b2b/alerts/{id}, POST /b2b/alerts/{id}/evaluate,
                 GET /b2b/alerts/events
  webhooks       GET and POST /b2b/webhooks, GET, PATCH and DELETE
                 /b2b/webhooks/{id}, POST /b2b/webhooks/{id}/test,
                 GET /b2b/webhooks/{id}/deliveries, POST
                 /b2b/webhooks/{id}/deliveries/{delivery_id}/redeliver
  analytics      GET /b2b/signals, /b2b/category_report,
                 /b2b/promo_calendar, /b2b/new_on_shelf,
                 /b2b/geographic_prices, /b2b/regional_comparison,
                 /b2b/competitive_benchmark, /b2b/brand_insights,
                 /b2b/executive_brief; POST /b2b/basket
  reference      GET /openapi.json (OpenAPI 3.1), GET /docs (the page,
                 with /docs/redoc.standalone.js)

SIGINT or SIGTERM stops it gracefully: requests in flight finish and
quota counts are written.

Alone (no --role) or with --role ingest, it holds the data file and
listens on an admin socket beside it (<db>.sock, mode 0600) so that the
lookups, 'grocery keys', 'grocery usage' and 'grocery import' keep
working. An ingest node also publishes a snapshot of the file to
--snapshots at start and after each import, and evaluates the alert
rules after each import. It also delivers the accounts' webhooks ('grocery
webhooks'): --webhook-allow-loopback lets endpoints be on this machine
(http:// too) and --webhook-allow-private on a private network, for testing.

With --role replica it has no data file and no admin socket: it serves
the newest snapshot of --snapshots read-only (a private copy in the
temporary directory), takes each new one as it is published, and says on
/healthz which one it serves. Both roles keep keys, quota counts, alert
rules and events in Redis (--redis); 'grocery keys' and 'grocery usage'
reach it with --redis too.

With --demo it first builds the demo data set if the data file is missing,
creates a demo API key on the integration plan once (kept in <db>.demo-key,
mode 0600), and prints the key and a ready curl call.`

// serve runs the server as serve's flags f say.
func (a *app) serve(cmd *cobra.Command, f *serveFlags) error {
	db := a.dbPath(cmd)
	opts, err := server.OptionsFromEnv(a.getenv)
	if err != nil {
		return &usageError{err}
	}
	if a.redisURL != "" {
		opts.RedisURL = a.redisURL
	}
	opts.Webhooks.AllowLoopback, opts.Webhooks.AllowPrivate = a.webhooks.AllowLoopback, a.webhooks.AllowPrivate
	if err := checkRole(f.role, f.snaps, opts.RedisURL, f.demo); err != nil {
		return &usageError{err}
	}
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var key string
	if f.demo {
		if key, err = prepareDemo(cmd.Context(), db, opts, errOut); err != nil {
			return err
		}
	} else if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) && f.role != server.RoleReplica {
		return noDataFile(db)
	}
	logs := server.NewLogWriter(errOut, 200*time.Millisecond)
	defer logs.Close()
	return server.Run(cmd.Context(), server.Config{
		Addr:    f.addr,
		DB:      db,
		Version: server.Version(),
		Logger:  slog.New(server.NewLogHandler(logs, false)),
		Options: opts,

		AllowedOrigins: f.origins,
		MaxConns:       f.maxConns,
		Role:           f.role,
		Snapshots:      f.snaps,
		Ready: func(base string) {
			fmt.Fprintf(out, "Serving %s (MCP at %s/mcp, REST at %s/). Stop with Ctrl-C.\n", base, base, base)
			if key != "" {
				printDemoHelp(out, base, db, key)
			}
		},
	})
}

// checkRole checks the flags of serve's --role.
func checkRole(role, snaps, redisURL string, demo bool) error {
	if err := server.CheckRole(role, snaps, redisURL); err != nil {
		return err
	}
	if role == server.RoleReplica && demo {
		return errors.New("--demo builds a data file: use it on the ingest node, not with --role replica")
	}
	return nil
}

// prepareDemo builds the demo data set when the file is missing and
// returns the demo key, creating it once.
func prepareDemo(ctx context.Context, db string, opts server.Options, errOut io.Writer) (string, error) {
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(errOut, "Building the demo data set in %s ...\n", db)
		sum, err := grocery.BuildDemo(ctx, db, nil)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(errOut, "Built %d stores, %d products, %d observations in %s.\n", sum.Stores, sum.Products, sum.Observations, sum.Elapsed.Round(1e8))
	}
	svc, err := server.Open(db, opts)
	if err != nil {
		return "", err
	}
	defer svc.Close()
	keyFile := db + ".demo-key"
	if b, err := os.ReadFile(keyFile); err == nil {
		key := strings.TrimSpace(string(b))
		if _, err := svc.Authenticate(ctx, key, grocery.InterfaceREST); err == nil {
			// A key file from before keys were written private.
			return key, os.Chmod(keyFile, 0o600)
		}
		// The data file was rebuilt or the key revoked: make a new one.
	}
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "demo", Plan: "integration"})
	if err != nil {
		return "", err
	}
	return k.Key, writePrivate(keyFile, []byte(k.Key+"\n"))
}

// writePrivate replaces the file at path with data, readable by its owner
// only (mode 0600) from the first byte, whatever mode an older file had.
func writePrivate(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".demo-key")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func printDemoHelp(out io.Writer, base, db, key string) {
	fmt.Fprintf(out, `
Demo API key (integration plan; also in %s.demo-key):
  %s

Try MCP:
  curl -s %s/mcp \
    -H 'Authorization: Bearer %s' \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"%s","province":"ON"}}}'

Try REST:
  curl -s '%s/search?q=orange+juice&postal_code=M5E+1C7&limit=3' -H 'X-API-Key: %s'
`, db, key, base, key, demoUPC, base, key)
}
