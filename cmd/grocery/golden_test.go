package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
)

// TestTables: the tables the commands print on the demo data are those
// in testdata/tables/, byte for byte: a change of a column, a width, a
// rounding or a note shows in the diff. After a change that is meant,
// 'go test -run TestTables -update ./cmd/grocery' rewrites them; review
// the diff before committing it. The JSON beside each table is checked
// against the library's result by the command's own test.
func TestTables(t *testing.T) {
	svc := openDemo(t)
	s := demoSummary.Samples
	lk, err := svc.LookupProduct(context.Background(), grocery.LookupInput{UPC: s.CarriedUPC, Province: s.Province})
	if err != nil {
		t.Fatal(err)
	}
	search := append([]string{"search", "--province", s.Province}, strings.Fields(s.Query)...)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"lookup", []string{"lookup", s.CarriedUPC, "--province", s.Province}},
		{"lookup_not_carried", []string{"lookup", s.NotCarriedUPC, "--province", s.Province}},
		{"search", search},
		{"search_no_match", []string{"search", "zzzzqqq", "--province", s.Province}},
		{"history_90d", []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--period", "90d"}},
		{"stores_province", []string{"stores", "--province", s.Province}},
		{"stores_banner", []string{"stores", "--banner", s.Banner, "--limit", "50"}},
		{"stores_page", []string{"stores", "--limit", "60", "--offset", "20"}},
		{"report_category", []string{"report", "category", "--province", s.Province, "--banner", "metro"}},
		{"report_promos_page", []string{"report", "promos", "--province", s.Province, "--limit", "3", "--offset", "2"}},
		{"report_new_empty", []string{"report", "new", "--province", s.Province, "--category", "Nothing Such"}},
		{"report_signals", []string{"report", "signals", "--province", s.Province, "--banner", s.Banner, "--kind", "changes", "--limit", "5"}},
		{"report_geo", []string{"report", "geo", "--upc", s.CarriedUPC}},
		{"report_regional", []string{"report", "regional"}},
		{"report_benchmark", []string{"report", "benchmark", "--banner", "no-frills", "--province", s.Province}},
		{"report_brand", []string{"report", "brand", lk.Product.Brand}},
		{"report_brand_90d", []string{"report", "brand", lk.Product.Brand, "--period", "90d"}},
		{"report_basket", []string{"report", "basket", s.CarriedUPC + ":2", "milk", "--province", s.Province}},
		{"brief", []string{"brief", "--province", s.Province, "--banner", s.Banner}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each runs its own command on the shared read-only demo file
			r := cli(t, nil, tc.args...)
			ok(t, r)
			servetest.Golden(t, "tables/"+tc.name+".txt", []byte(r.stdout))
		})
	}
}

// TestBriefHTML: the printable page 'grocery brief -o FILE.html' writes on
// the demo data is testdata/brief.html, byte for byte (charts included).
func TestBriefHTML(t *testing.T) {
	t.Parallel()
	s := demoSummary.Samples
	out := filepath.Join(t.TempDir(), "brief.html")
	ok(t, cli(t, nil, "brief", "--province", s.Province, "--banner", s.Banner, "-o", out))
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	servetest.Golden(t, "brief.html", b)
}
