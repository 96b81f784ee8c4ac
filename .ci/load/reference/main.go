// Command reference is the load run's reference handler: what a plain
// standard-library server costs for the same answers as grocery serve's
// GET /price and MCP tools/call lookup_product. It opens a copy of the
// data file read-only, parses with net/url and encoding/json, asks the
// same grocery query, encodes the answer with encoding/json, and sets a
// request id, the quota headers and an access line on stderr, as the
// grocery server does; it checks no key and meters nothing.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: reference ADDR DATA_FILE")
	}
	svc, err := grocery.Open(os.Args[2], &grocery.Options{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	access := log.New(os.Stderr, "", 0)
	headers := func(w http.ResponseWriter) string {
		var id [8]byte
		rand.Read(id[:])
		rid := hex.EncodeToString(id[:])
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Request-Id", rid)
		h.Set("X-Quota-Limit", "1000000000")
		h.Set("X-Quota-Remaining", "999999999")
		h.Set("X-Quota-Reset", "2026-12-01T00:00:00Z")
		return rid
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /price", func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		q := r.URL.Query()
		res, err := svc.StorePrice(r.Context(), grocery.StorePriceInput{Banner: q.Get("banner"), Store: q.Get("store"), SKU: q.Get("sku")})
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		rid := headers(w)
		json.NewEncoder(w).Encode(res)
		access.Printf("%s %s %s 200 %s %s", start.UTC().Format(time.RFC3339), r.Method, r.URL.Path, time.Since(start), rid)
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var req struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Params  struct {
				Name      string              `json:"name"`
				Arguments grocery.LookupInput `json:"arguments"`
				Meta      json.RawMessage     `json:"_meta"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Method != "tools/call" || req.Params.Name != "lookup_product" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		res, err := svc.LookupProduct(r.Context(), req.Params.Arguments)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		text, _ := json.Marshal(res)
		type content struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		out := struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  struct {
				Content           []content             `json:"content"`
				StructuredContent *grocery.LookupResult `json:"structuredContent"`
			} `json:"result"`
		}{JSONRPC: "2.0", ID: req.ID}
		out.Result.Content = []content{{"text", string(text)}}
		out.Result.StructuredContent = res
		rid := headers(w)
		json.NewEncoder(w).Encode(&out)
		access.Printf("%s %s %s 200 %s %s", start.UTC().Format(time.RFC3339), r.Method, r.URL.Path, time.Since(start), rid)
	})
	log.Fatal(http.ListenAndServe(os.Args[1], mux))
}
