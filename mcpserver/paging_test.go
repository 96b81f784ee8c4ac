package mcpserver_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/servetest"
)

// TestStoresPaging walks the whole reference panel with
// list_reference_stores, following next_offset from page to page: every
// active store once, and no next_offset on the last page. Without offset
// a model could read only the first 50 stores of the panel.
func TestStoresPaging(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	seen := map[string]bool{}
	total, pages := -1, 0
	args := `{"limit":20}`
	for {
		res := toolResult(t, post(t, key, callTool("list_reference_stores", args)))
		if res.IsError {
			t.Fatalf("%s: %s", args, res.Content[0].Text)
		}
		var page struct {
			Stores []struct {
				ID string `json:"store_id"`
			} `json:"stores"`
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
		for _, st := range page.Stores {
			if seen[st.ID] {
				t.Fatalf("store %s on two pages", st.ID)
			}
			seen[st.ID] = true
		}
		if page.NextOffset == nil {
			break
		}
		if *page.NextOffset != len(seen) || pages > 10 {
			t.Fatalf("next_offset: got %d after %d stores", *page.NextOffset, len(seen))
		}
		args = `{"limit":20,"offset":` + strconv.Itoa(*page.NextOffset) + `}`
	}
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
