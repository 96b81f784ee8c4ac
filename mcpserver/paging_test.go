package mcpserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// walkPages calls tool with args (a JSON object) page by page, following
// next_offset, and returns how many items each page held (ids reads a
// page's structuredContent: its items' ids) and the total every page
// reported. It fails on an id seen twice, a total that changes, or a
// next_offset other than the count of items so far.
func walkPages(t *testing.T, key, tool, args string, ids func(page json.RawMessage) []string) (seen map[string]bool, total, pages int) {
	t.Helper()
	seen, total = map[string]bool{}, -1
	call := args
	for {
		res := toolResult(t, post(t, key, callTool(tool, call)))
		if res.IsError {
			t.Fatalf("%s: %s", call, res.Content[0].Text)
		}
		var page struct {
			Total      int  `json:"total"`
			NextOffset *int `json:"next_offset"`
		}
		if err := json.Unmarshal(res.StructuredContent, &page); err != nil {
			t.Fatal(err)
		}
		if total >= 0 && page.Total != total {
			t.Fatalf("total: got %d on page %d, want %d on every page", page.Total, pages, total)
		}
		total = page.Total
		pages++
		for _, id := range ids(res.StructuredContent) {
			if seen[id] {
				t.Fatalf("%s on two pages", id)
			}
			seen[id] = true
		}
		if page.NextOffset == nil {
			return seen, total, pages
		}
		if *page.NextOffset != len(seen) || pages > 10 {
			t.Fatalf("next_offset: got %d after %d items", *page.NextOffset, len(seen))
		}
		call = strings.TrimSuffix(args, "}") + `,"offset":` + strconv.Itoa(*page.NextOffset) + `}`
	}
}

// TestStoresPaging walks the whole reference panel with
// list_reference_stores, following next_offset from page to page: every
// active store once, and no next_offset on the last page. Without offset
// a model could read only the first 50 stores of the panel.
func TestStoresPaging(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	seen, total, pages := walkPages(t, key, "list_reference_stores", `{"limit":20}`, func(raw json.RawMessage) []string {
		var page struct {
			Stores []struct {
				ID string `json:"store_id"`
			} `json:"stores"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, st := range page.Stores {
			ids = append(ids, st.ID)
		}
		return ids
	})
	if len(seen) != total || total <= 50 || pages != (total+19)/20 {
		t.Fatalf("got %d stores in %d pages, want all %d (more than 50) in pages of 20", len(seen), pages, total)
	}
	// A bad offset is an argument error a model can act on.
	res := toolResult(t, post(t, key, callTool("list_reference_stores", `{"offset":-1}`)))
	if !res.IsError || !strings.HasPrefix(res.Content[0].Text, "invalid_argument:") {
		t.Fatalf("offset -1: got %+v, want an invalid_argument error", res)
	}
}

// TestStoresNear: list_reference_stores with near (a postal code) lists
// its province's stores, those of its FSA first, as REST's /search does
// with postal_code; a province that disagrees with it is an argument error.
func TestStoresNear(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	all := toolResult(t, post(t, key, callTool("list_reference_stores", `{"province":"ON","limit":50}`)))
	var on struct {
		Stores []struct {
			ID         string `json:"store_id"`
			PostalCode string `json:"postal_code"`
			Province   string `json:"province"`
		} `json:"stores"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(all.StructuredContent, &on); err != nil || len(on.Stores) < 2 {
		t.Fatalf("ON stores: %v %s", err, all.StructuredContent)
	}
	// The last store by id in ON: near its postal code it comes first.
	last := on.Stores[len(on.Stores)-1]
	res := toolResult(t, post(t, key, callTool("list_reference_stores", `{"near":"`+strings.ToLower(last.PostalCode)+`","limit":50}`)))
	if res.IsError {
		t.Fatal(res.Content[0].Text)
	}
	var near struct {
		Stores []struct {
			ID       string `json:"store_id"`
			Province string `json:"province"`
		} `json:"stores"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(res.StructuredContent, &near); err != nil {
		t.Fatal(err)
	}
	if near.Total != on.Total || len(near.Stores) != len(on.Stores) || near.Stores[0].ID != last.ID {
		t.Fatalf("near %s: got %d of %d stores, first %v; want the %d ON stores, %s first", last.PostalCode, len(near.Stores), near.Total, near.Stores[0], on.Total, last.ID)
	}
	for _, bad := range []string{`{"near":"H2X 1Y4","province":"ON"}`, `{"near":"12345"}`} {
		res := toolResult(t, post(t, key, callTool("list_reference_stores", bad)))
		if !res.IsError || !strings.HasPrefix(res.Content[0].Text, "invalid_argument:") {
			t.Errorf("%s: got %+v, want an invalid_argument error", bad, res)
		}
	}
}

// TestSearchPaging follows search_products' next_offset through every
// product "milk" finds in Ontario: each product once, total the same on
// every page, no next_offset on the last; and each product shows at most
// five offers, offer_count counting them all.
func TestSearchPaging(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	cut := 0
	seen, total, pages := walkPages(t, key, "search_products", `{"query":"milk","province":"ON","limit":4}`, func(raw json.RawMessage) []string {
		var page struct {
			Results []struct {
				UPC        string            `json:"upc"`
				OfferCount int               `json:"offer_count"`
				Offers     []json.RawMessage `json:"offers"`
			} `json:"results"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range page.Results {
			if 1+len(p.Offers) != min(p.OfferCount, 5) {
				t.Fatalf("%s: %d offers of %d, want min(offer_count, 5)", p.UPC, 1+len(p.Offers), p.OfferCount)
			}
			if p.OfferCount > 5 {
				cut++
			}
			ids = append(ids, p.UPC)
		}
		return ids
	})
	if len(seen) != total || total <= 10 || pages != (total+3)/4 || cut == 0 {
		t.Fatalf("got %d products in %d pages (%d with more than 5 offers), want all %d (more than 10) in pages of 4, some cut", len(seen), pages, cut, total)
	}
}
