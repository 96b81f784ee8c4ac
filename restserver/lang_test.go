package restserver_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// TestLang: lang=fr names products in French on /prices, /price and
// /search, in English for a product without a French name, and in
// English by default; any other lang is a 400 naming en and fr.
func TestLang(t *testing.T) {
	t.Parallel()
	s := servetest.Open(t, nil, append(handMade, servetest.File{Name: "fr.csv", Data: "date,store_id,banner,external_sku,price,upc,name_fr\n" +
		"2026-11-19,maxi-q,maxi,M1,5.49,068000000154,Lait partiellement écrémé 2 %\n"})...)
	ts := httptest.NewServer(restserver.New(s, nil))
	defer ts.Close()
	key := servetest.Key(t, s, "integration", 0)
	send := func(pathQuery string) *servetest.Reply {
		t.Helper()
		req := servetest.Request(t, "GET", ts.URL+pathQuery, "")
		req.Header.Set("X-API-Key", key)
		return servetest.Do(t, req)
	}
	name := func(pathQuery, field string) string {
		t.Helper()
		r := send(pathQuery)
		if r.Status != 200 {
			t.Fatalf("GET %s: got %d %s, want 200", pathQuery, r.Status, r.Body)
		}
		var v struct {
			Name    string `json:"name"`
			Results []map[string]any
		}
		if err := json.Unmarshal(r.Body, &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Results) > 0 {
			s, _ := v.Results[0][field].(string)
			return s
		}
		return v.Name
	}
	for _, tc := range []struct{ pathQuery, field, want string }{
		{"/price?banner=loblaws&store=lob-a&sku=L1", "name", "2% Milk"},
		{"/price?banner=loblaws&store=lob-a&sku=L1&lang=en", "name", "2% Milk"},
		{"/price?banner=loblaws&store=lob-a&sku=L1&lang=fr", "name", "Lait partiellement écrémé 2 %"},
		{"/price?banner=loblaws&store=lob-a&sku=L2&lang=fr", "name", "Old Cheddar"}, // no French name
		{"/prices?banner=maxi&store=maxi-q&q=lait&lang=fr", "name", "Lait partiellement écrémé 2 %"},
		{"/prices?banner=maxi&store=maxi-q&q=lait", "name", "2% Milk"},
		{"/search?q=ecreme&province=QC&lang=fr", "product_name", "Lait partiellement écrémé 2 %"},
		{"/search?q=milk&province=ON&lang=FR", "product_name", "Lait partiellement écrémé 2 %"},
	} {
		if got := name(tc.pathQuery, tc.field); got != tc.want {
			t.Errorf("GET %s: got %s %q, want %q", tc.pathQuery, tc.field, got, tc.want)
		}
	}
	r := send("/price?banner=loblaws&store=lob-a&sku=L1&lang=de")
	var p restserver.Problem
	json.Unmarshal(r.Body, &p)
	if r.Status != 400 || p.Code != grocery.EINVALIDARGUMENT || p.Detail != `lang "de" is not supported: want en (English, the default) or fr (French)` {
		t.Errorf("lang=de: got %d %s, want 400 naming en and fr", r.Status, r.Body)
	}
}
