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

import "github.com/grocerydata/grocery/cmd/internal/server"

func main() { server.Main("grocery-mcp", server.ServeMCP) }
