package restserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// TestUnknownQueryParams: a query parameter the operation does not take,
// misspelt or unsupported (limit where the answer has no pages), is a 400
// that names it and lists what the operation takes, instead of being
// ignored while it changes the answer; it is metered like any 400.
func TestUnknownQueryParams(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	for _, tc := range []struct{ name, pathQuery, has string }{
		{"Misspelt", "/b2b/export?dataset=offers&provnce=ON",
			`unknown query parameter "provnce": GET /b2b/export takes only format, dataset, province, banner, category, upc, from, to`},
		{"Plural", "/b2b/signals?province=ON&banner=loblaws&kinds=threats", `unknown query parameter "kinds": GET /b2b/signals takes only province, banner, category, kind, since, limit, offset`},
		{"LimitOnExport", "/b2b/export?limit=5", `query parameter "limit" is not supported by GET /b2b/export, whose answer is not paginated`},
		{"LimitOnCategoryReport", "/b2b/category_report?province=ON&limit=5", `query parameter "limit" is not supported by GET /b2b/category_report`},
		{"OnPrices", "/prices?banner=loblaws&store=lob-a&colour=blue", `unknown query parameter "colour": GET /prices takes only banner, store, q, limit, offset, lang`},
		{"Escaped", "/prices?banner=loblaws&store=lob-a&col%6Fur=blue", `unknown query parameter "colour"`},
		{"NoParams", "/b2b/alerts/alr_1?x=1", `unknown query parameter "x": GET /b2b/alerts/{id} takes no query parameters`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, get(t, key, tc.pathQuery), 400, grocery.EINVALIDARGUMENT, tc.has)
		})
	}
	t.Run("Head", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodHead, srv.URL+"/b2b/export?provnce=ON", nil)
		if r := do(t, key, req); r.status != 400 {
			t.Fatalf("HEAD with an unknown parameter: got %d, want 400", r.status)
		}
	})
	t.Run("Known", func(t *testing.T) {
		if r := get(t, key, "/prices?banner=loblaws&store=lob-a&limit=1&offset=0&q=milk"); r.status != 200 {
			t.Fatalf("documented parameters: got %d %s", r.status, r.body)
		}
	})
}

// TestXLSXExportSlots: XLSX exports under way are bounded per account (1)
// and per server (2): one more is a 429 too_many_exports with
// Retry-After, naming the limit; other formats are not limited, and a
// slot set free is taken again.
func TestXLSXExportSlots(t *testing.T) {
	t.Parallel()
	h := restserver.NewWithTestRoutes(svc, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	acme := servetest.Key(t, svc, "integration", 0)
	getXLSX := func(key, format string) *reply {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/b2b/export?format="+format, nil)
		return do(t, key, req)
	}
	// One of acme's own under way.
	release, err := restserver.HoldXLSXExports(h, "TestXLSXExportSlots", 1)
	if err != nil {
		t.Fatal(err)
	}
	r := getXLSX(acme, "xlsx")
	wantProblem(t, r, 429, "too_many_exports", "at most 1 XLSX export of one account run at a time")
	if r.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	if r := getXLSX(acme, "csv"); r.status != 200 {
		t.Errorf("a CSV export meanwhile: %d, want 200", r.status)
	}
	release()
	if r := getXLSX(acme, "xlsx"); r.status != 200 {
		t.Fatalf("an XLSX export once the slot is free: %d %s", r.status, r.body)
	}
	// Two of other accounts under way: the server's limit.
	release, err = restserver.HoldXLSXExports(h, "other", 1)
	if err != nil {
		t.Fatal(err)
	}
	release2, err := restserver.HoldXLSXExports(h, "another", 1)
	if err != nil {
		t.Fatal(err)
	}
	wantProblem(t, getXLSX(acme, "xlsx"), 429, "too_many_exports", "at most 2 XLSX exports run at a time on this server")
	release()
	release2()
}
