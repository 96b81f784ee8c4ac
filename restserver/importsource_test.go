package restserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/mcpserver"
	"github.com/grocerydata/grocery/restserver"
)

// TestHammerSKUOnlyOverHTTP imports the Project Hammer fixtures and finds
// a product its banner sells under no barcode by its name, through REST's
// /search and MCP's search_products, then its history by the banner SKU
// the search gave.
func TestHammerSKUOnlyOverHTTP(t *testing.T) {
	t.Parallel()
	own := servetest.Open(t, nil)
	var files []grocery.SourceFile
	for _, n := range []string{"hammer-4-product.csv", "hammer-4-raw.csv"} {
		path := filepath.Join("..", "publicdata", "testdata", n)
		files = append(files, grocery.SourceFile{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	if _, err := own.ImportSource(context.Background(), "hammer", files, nil); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpserver.New(own, nil))
	mux.Handle("/", restserver.New(own, nil))
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	key := servetest.Key(t, own, "integration", 0)

	t.Run("REST", func(t *testing.T) {
		req := servetest.Request(t, "GET", hs.URL+"/search?q=kimchi&province=ON", "")
		req.Header.Set("X-API-Key", key)
		r := servetest.Do(t, req)
		var got grocery.StoreSearchResult
		if err := json.Unmarshal(r.Body, &got); err != nil || r.Status != 200 {
			t.Fatalf("got %d %s (%v), want 200", r.Status, r.Body, err)
		}
		if got.Total != 1 || len(got.Results) != 1 {
			t.Fatalf("got %s, want Galleria's kimchi once", r.Body)
		}
		h := got.Results[0]
		if h.StoreID != "hammer-galleria" || h.Banner != "galleria" || h.ExternalSKU != "hammer-7" || h.UPC != "" ||
			h.ProductName != `Kimchi, "Mat" cut` || h.Size != "1 kg" || h.Price != 899 || h.ObservedAt.String() != "2025-08-21" {
			t.Errorf("got %+v, want hammer-7 at hammer-galleria, 8.99 on 2025-08-21, no upc", h)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		call := func(tool, args string) json.RawMessage {
			t.Helper()
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
			req := servetest.Request(t, "POST", hs.URL+"/mcp", body)
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			r := servetest.Do(t, req)
			var rpc struct {
				Result struct {
					IsError           bool            `json:"isError"`
					StructuredContent json.RawMessage `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal(r.Body, &rpc); err != nil || r.Status != 200 || rpc.Result.IsError {
				t.Fatalf("%s: got %d %s (%v), want a result", tool, r.Status, r.Body, err)
			}
			return rpc.Result.StructuredContent
		}
		var found grocery.SearchResult
		if err := json.Unmarshal(call("search_products", `{"query":"wonder bread","province":"ON"}`), &found); err != nil {
			t.Fatal(err)
		}
		if found.Total != 2 || found.Results[0].ExternalSKU != "L3003" || found.Results[0].Banner != "loblaws" || found.Results[0].UPC != "" ||
			found.Results[0].Price != 299 || !found.Results[0].OnPromo || found.Results[1].ExternalSKU != "NF4004" {
			t.Fatalf("got %+v, want Loblaws' L3003 at 2.99 on promotion, then No Frills' NF4004", found)
		}
		e := found.Results[0]
		var hist grocery.HistoryResult
		if err := json.Unmarshal(call("price_history", `{"sku":"`+e.ExternalSKU+`","banner":"`+e.Banner+`","province":"ON","period":"90d"}`), &hist); err != nil {
			t.Fatal(err)
		}
		if len(hist.Points) != 2 || hist.Stats == nil || hist.Stats.Latest != e.Price {
			t.Errorf("got %+v, want 2 points, the latest the search's price %v", hist, e.Price)
		}
	})
}
