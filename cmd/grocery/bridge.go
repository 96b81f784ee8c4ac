package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/mcpserver"
	"github.com/spf13/cobra"
)

func (a *app) bridgeCmd() *cobra.Command {
	var url, keyFile string
	cmd := &cobra.Command{
		Use:   "mcp-bridge --url URL",
		Short: "Relay MCP between stdio and the HTTP endpoint, for stdio-only clients",
		Long: `mcp-bridge lets an MCP client that only speaks stdio use the grocery MCP
endpoint: it reads one JSON-RPC message a line from stdin, POSTs it to URL
with the API key as a Bearer token, and writes each answer as a line on
stdout. Diagnostics go to stderr.

Clients of either era of the protocol work through it. A 2025 client's
version, agreed with initialize, goes in the MCP-Protocol-Version header of
the messages that follow. A 2026-07-28 client names its version in each
request's params._meta: the bridge sends it in MCP-Protocol-Version, with
the method in Mcp-Method and a tools/call's tool in Mcp-Name, as the HTTP
transport requires.

The key comes from GROCERY_API_KEY or --key-file (never from the command
line, where other users could see it). The bridge never tries OAuth.`,
		Example: `  GROCERY_API_KEY=gro_pk_... grocery mcp-bridge --url http://127.0.0.1:8080/mcp`,
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			key := strings.TrimSpace(a.getenv("GROCERY_API_KEY"))
			if keyFile != "" {
				b, err := os.ReadFile(keyFile)
				if err != nil {
					return err
				}
				key = strings.TrimSpace(string(b))
			}
			if key == "" {
				return usagef("no API key: set GROCERY_API_KEY or pass --key-file FILE")
			}
			b := &bridge{url: url, key: key, out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr(), client: &http.Client{Timeout: 2 * time.Minute}}
			return b.run(cmd.Context(), a.stdin)
		}),
	}
	cmd.Flags().StringVar(&url, "url", "", "the MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
	cmd.MarkFlagRequired("url")
	cmd.Flags().StringVar(&keyFile, "key-file", "", "read the API key from this file instead of GROCERY_API_KEY")
	return cmd
}

// bridge relays newline-delimited JSON-RPC between stdio and HTTP.
type bridge struct {
	url, key    string
	version     string // protocol version agreed at initialize, sent after
	out, errOut io.Writer
	client      *http.Client
	warned      bool // the rejected-key message is shown once
}

// bridgeErrorCode is the JSON-RPC error code of failures of the bridge
// itself (endpoint unreachable, key rejected).
const bridgeErrorCode = -32000

func (b *bridge) run(ctx context.Context, in io.Reader) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			b.relay(ctx, line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// head is what the bridge reads of a message to set its HTTP headers.
type head struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"` // tools/call, prompts/get
		URI  string `json:"uri"`  // resources/read
		Meta struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// relay sends one message and writes what comes back.
func (b *bridge) relay(ctx context.Context, msg []byte) {
	var head head
	json.Unmarshal(msg, &head) // a bad message is the server's to refuse
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url, bytes.NewReader(msg))
	if err != nil {
		b.fail(head.ID, "bad --url: "+err.Error())
		return
	}
	req.Header.Set("Authorization", "Bearer "+b.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	switch {
	case head.Params.Meta.ProtocolVersion != "":
		// A message of a revision without handshake: the HTTP headers
		// repeat what the body says.
		req.Header.Set("MCP-Protocol-Version", headerSafe(head.Params.Meta.ProtocolVersion))
		req.Header.Set("Mcp-Method", headerSafe(head.Method))
		switch head.Method {
		case "tools/call", "prompts/get":
			req.Header.Set("Mcp-Name", headerSafe(head.Params.Name))
		case "resources/read":
			req.Header.Set("Mcp-Name", headerSafe(head.Params.URI))
		}
	case b.version != "":
		req.Header.Set("MCP-Protocol-Version", b.version)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.fail(head.ID, fmt.Sprintf("cannot reach %s: %v", b.url, err))
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		b.fail(head.ID, "reading the answer: "+err.Error())
		return
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized && head.Method == "server/discover" && len(head.ID) > 0:
		// A client pinned to 2026-07-28 takes any error to server/discover
		// for a server of an older revision and stops there, hiding why.
		// What the server speaks does not depend on the key: the bridge
		// answers it, and the client's next request gets the reason.
		b.fail(nil, "API key rejected: "+rejectedWhy(resp.Header)+" (check GROCERY_API_KEY or --key-file)")
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": head.ID, "result": mcpserver.Discover(grocery.Version())})
		b.write(line)
	case resp.StatusCode == http.StatusUnauthorized:
		b.fail(head.ID, "API key rejected: "+rejectedWhy(resp.Header)+" (check GROCERY_API_KEY or --key-file)")
	case resp.StatusCode == http.StatusAccepted || len(bytes.TrimSpace(body)) == 0:
		// A notification or a response: nothing comes back.
	case strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"):
		if head.Method == "initialize" {
			var init struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			if json.Unmarshal(body, &init) == nil {
				b.version = init.Result.ProtocolVersion
			}
		}
		b.write(bytes.TrimSpace(body))
	default:
		b.fail(head.ID, fmt.Sprintf("unexpected answer from %s: %s", b.url, resp.Status))
	}
}

// rejectedWhy is why the server refused the key: the error_description
// of its WWW-Authenticate challenge (RFC 6750), or "unknown or revoked"
// when it gives none.
func rejectedWhy(h http.Header) string {
	const param = `error_description="`
	for _, c := range h.Values("WWW-Authenticate") {
		if _, rest, ok := strings.Cut(c, param); ok {
			if why, _, ok := strings.Cut(rest, `"`); ok && why != "" {
				return why
			}
		}
	}
	return "unknown or revoked"
}

// headerSafe returns v as an HTTP header value: as it is when it is
// printable ASCII without surrounding spaces, else in the Base64 form
// "=?base64?...?=" that MCP servers decode.
func headerSafe(v string) string {
	plain := v == strings.TrimSpace(v)
	for i := 0; plain && i < len(v); i++ {
		plain = v[i] >= 0x20 && v[i] < 0x7f
	}
	if plain {
		return v
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
}

// fail reports a failure on stderr and, for a request, answers it with a
// JSON-RPC error so the client does not wait forever.
func (b *bridge) fail(id json.RawMessage, msg string) {
	if !b.warned || !strings.HasPrefix(msg, "API key rejected") {
		fmt.Fprintln(b.errOut, "grocery mcp-bridge: "+msg)
	}
	if strings.HasPrefix(msg, "API key rejected") {
		b.warned = true
	}
	if len(id) == 0 || string(id) == "null" {
		return
	}
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": bridgeErrorCode, "message": msg},
	})
	b.write(resp)
}

func (b *bridge) write(line []byte) {
	b.out.Write(append(line, '\n'))
}
