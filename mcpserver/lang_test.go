package mcpserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestToolLang: lookup_product, search_products and price_history take
// lang; with fr the
// results name products in French (the demo's orange juice has a French
// name), the same JSON as the library's; another lang is a tool error.
func TestToolLang(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	ctx := context.Background()
	const oj = "067000378089"
	lookup, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: oj, Province: "QC", Limit: grocery.Some(3), Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if lookup.Product.Name != "Jus d'orange sans pulpe" {
		t.Fatalf("the demo's %s in French: got %q, want Jus d'orange sans pulpe", oj, lookup.Product.Name)
	}
	search, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: "jus orange", Province: "QC", Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	o := lookup.Offers[0]
	history, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: o.ExternalSKU, Banner: o.Banner, Province: "QC", Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if history.Name != "Jus d'orange sans pulpe" {
		t.Fatalf("history in French: got name %q", history.Name)
	}
	for _, tc := range []struct {
		name, args string
		want       any
	}{
		{"lookup_product", `{"upc":"` + oj + `","province":"QC","limit":3,"lang":"fr"}`, lookup},
		{"search_products", `{"query":"jus orange","province":"QC","lang":"fr"}`, search},
		{"price_history", `{"sku":"` + o.ExternalSKU + `","banner":"` + o.Banner + `","province":"QC","lang":"fr"}`, history},
	} {
		r := post(t, key, callTool(tc.name, tc.args))
		wantStatus(t, r, http.StatusOK)
		res := toolResult(t, r)
		want := marshalNoEscape(t, tc.want)
		if res.IsError || string(res.StructuredContent) != string(want) {
			t.Errorf("%s %s:\ngot  %s\nwant %s", tc.name, tc.args, res.StructuredContent, want)
		}
	}
	if !strings.Contains(string(marshalNoEscape(t, search)), `"name":"Jus d'orange sans pulpe"`) {
		t.Errorf("search jus orange, lang fr: got %+v, want the French name", search.Results)
	}
	res := toolResult(t, post(t, key, callTool("search_products", `{"query":"milk","province":"ON","lang":"de"}`)))
	if !res.IsError || !strings.Contains(res.Content[0].Text, `lang "de" is not supported: want en (English, the default) or fr (French)`) {
		t.Errorf("lang de: got %+v, want a tool error naming en and fr", res)
	}
}

// TestLookupOffset: lookup_product pages its offers with offset, as the
// library does: page 2 of limit 1 is the library's second offer.
func TestLookupOffset(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "professional", 0)
	const oj = "067000378089"
	want, err := svc.LookupProduct(context.Background(), grocery.LookupInput{UPC: oj, Province: "ON", Limit: grocery.Some(1), Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Offers) != 1 || want.Total < 2 {
		t.Fatalf("the demo's %s in ON: %d offers of %d, want a second one", oj, len(want.Offers), want.Total)
	}
	res := toolResult(t, post(t, key, callTool("lookup_product", `{"upc":"`+oj+`","province":"ON","limit":1,"offset":1}`)))
	if got := marshalNoEscape(t, want); res.IsError || string(res.StructuredContent) != string(got) {
		t.Errorf("offset 1:\ngot  %s\nwant %s", res.StructuredContent, got)
	}
}
