// Command grocery-rest serves the grocery REST interface alone (store
// prices, multi-store search, alerts, exports and the OpenAPI document,
// with an X-API-Key on the integration plan), GET /healthz, and the admin
// socket beside the data file for the grocery CLI's lookups, key commands
// and imports. It shares the quota counters of the data file with MCP.
//
//	grocery-rest [--addr 127.0.0.1:8080] [--db ./grocery.db]
//	grocery-rest --role ingest --snapshots DIR [--db ./grocery.db] [--redis URL]
//	grocery-rest --role replica --snapshots DIR --redis URL
//
// With --role ingest it publishes a snapshot of the data file to DIR at
// start and after each import; with --role replica it serves the newest
// snapshot of DIR read-only and follows new ones, keys and quota in Redis
// (see grocery serve --help and cmd/grocery/README.md, "Running more
// than one server").
//
// It stops gracefully on SIGINT or SIGTERM: requests in flight finish and
// the quota counts are written before it exits.
package main

import (
	"github.com/grocerydata/grocery/cmd/internal/server"

	// XLSX and Parquet import and export: the formats register themselves.
	_ "github.com/grocerydata/grocery/format/parquet"
	_ "github.com/grocerydata/grocery/format/xlsx"
)

func main() { server.Main("grocery-rest", server.ServeREST) }
