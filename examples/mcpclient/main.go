// Command mcpclient calls the grocery MCP endpoint over plain HTTP and
// prints a product's offers: what an agent's MCP client does, in a page of
// Go.
//
//	go run ./cmd/grocery serve --demo          # in another terminal
//	GROCERY_API_KEY=$(cat grocery.db.demo-key) go run ./examples/mcpclient -upc 067000378089 -province ON
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080/mcp", "MCP endpoint")
	upc := flag.String("upc", "067000378089", "barcode to look up")
	province := flag.String("province", "ON", "province code")
	flag.Parse()
	key := os.Getenv("GROCERY_API_KEY")
	if key == "" {
		log.Fatal("set GROCERY_API_KEY (grocery serve --demo prints one)")
	}
	c := &client{url: *url, key: key}

	// The handshake: stateless, so it only checks the key and the version.
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct{ Name, Version string }
	}
	if err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcpclient-example", "version": "1.0.0"},
	}, &init); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("connected to %s %s (MCP %s)\n", init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion)

	// tools/call: one metered call. The result carries structuredContent
	// (the outputSchema's JSON) and the same JSON as text.
	var res struct {
		IsError           bool `json:"isError"`
		Content           []struct{ Text string }
		StructuredContent struct {
			Product  struct{ UPC, Name, Brand, Size string }
			Province string
			Offers   []struct {
				BannerName  string  `json:"banner_name"`
				ExternalSKU string  `json:"external_sku"`
				Price       float64 `json:"price"`
				Regular     float64 `json:"regular_price"`
				OnPromo     bool    `json:"on_promo"`
				StoreCount  int     `json:"store_count"`
				Verdict     string  `json:"verdict"`
			}
		} `json:"structuredContent"`
	}
	err := c.call("tools/call", map[string]any{
		"name":      "lookup_product",
		"arguments": map[string]any{"upc": *upc, "province": *province},
	}, &res)
	if err != nil {
		log.Fatal(err)
	}
	if res.IsError { // invalid_argument:, not_found:, quota_exceeded: ...
		log.Fatal(res.Content[0].Text)
	}
	p := res.StructuredContent
	fmt.Printf("%s %s, %s (UPC %s) in %s: %d offers\n", p.Product.Brand, p.Product.Name, p.Product.Size, p.Product.UPC, p.Province, len(p.Offers))
	for _, o := range p.Offers {
		promo := ""
		if o.OnPromo {
			promo = fmt.Sprintf("  on promotion, regular $%.2f", o.Regular)
		}
		fmt.Printf("  %-24s $%6.2f  sku %-14s %d stores, %s%s\n", o.BannerName, o.Price, o.ExternalSKU, o.StoreCount, o.Verdict, promo)
	}
	fmt.Printf("quota: %s calls left this month (resets %s)\n", c.remaining, c.reset)
}

// client posts one JSON-RPC message per request, as MCP's stateless
// Streamable HTTP transport does.
type client struct {
	url, key         string
	id               int
	remaining, reset string
}

func (c *client) call(method string, params, result any) error {
	c.id++
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return errors.New("API key rejected: unknown or revoked")
	}
	c.remaining, c.reset = resp.Header.Get("X-Quota-Remaining"), resp.Header.Get("X-Quota-Reset")
	var msg struct {
		Result json.RawMessage
		Error  *struct {
			Code    int
			Message string
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		return fmt.Errorf("%s: %s", method, resp.Status)
	}
	if msg.Error != nil {
		return fmt.Errorf("%s: JSON-RPC error %d: %s", method, msg.Error.Code, msg.Error.Message)
	}
	return json.Unmarshal(msg.Result, result)
}
