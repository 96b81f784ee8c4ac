// Command grocery is the command-line interface of the grocery price data
// service: it builds the demo data set, imports stores and observations,
// answers the four lookups (lookup, search, history, stores) from a local
// data file, and manages the API keys, plans and quota of the servers
// (keys, usage, plans).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	// XLSX and Parquet import and export: the formats register themselves.
	_ "github.com/grocerydata/grocery/format/parquet"
	_ "github.com/grocerydata/grocery/format/xlsx"
)

func main() {
	// SIGTERM too: 'grocery serve' under a supervisor stops gracefully.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
