package restserver_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// day2CSV is the day after the hand-made data's latest: two new rows
// and a correction of one of 2026-11-19.
const day2CSV = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-20,lob-a,loblaws,L1,4.99,5.99,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-20,nf-e,no-frills,N1,4.59,4.69,2026-11-26,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-c,loblaws,L1,5.69,5.79,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-b,loblaws,L1,5.99,5.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
`

// pull exports query as CSV over HTTP and returns its rows (header
// dropped) and its X-Export-Cursor.
func pull(t *testing.T, base, key, query string) ([][]string, string) {
	t.Helper()
	r := rawGet(t, http.MethodGet, base, key, "/b2b/export?format=csv&"+query)
	if r.Status != http.StatusOK {
		t.Fatalf("export %s: status %d\n%s", query, r.Status, r.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cur := r.Header.Get("X-Export-Cursor")
	if cur == "" {
		t.Fatalf("export %s: no X-Export-Cursor", query)
	}
	return rows[1:], cur
}

// TestNightlySync is the README's nightly job over real HTTP and a real
// data file: a full pull, then an import of the next day, then a pull
// with the first pull's cursor, which gets exactly the day's rows (and
// the correction), then nothing more.
func TestNightlySync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := servetest.Open(t, nil, handMade...)
	srv := httptest.NewServer(restserver.New(s, nil))
	defer srv.Close()
	key := servetest.Key(t, s, "integration", 0)

	first, c1 := pull(t, srv.URL, key, "from=2000-01-01&to=2026-11-19")
	if len(first) != 10 {
		t.Fatalf("first pull: %d rows, want the 10 hand-made ones", len(first))
	}
	if _, err := s.Import(ctx, "day2.csv", strings.NewReader(day2CSV), nil); err != nil {
		t.Fatal(err)
	}
	got, c2 := pull(t, srv.URL, key, "changed_since="+url.QueryEscape(c1))
	var dates []string
	for _, r := range got {
		dates = append(dates, r[0]+" "+r[1]+" "+r[12])
	}
	want := []string{"2026-11-19 lob-c 5.69", "2026-11-20 lob-a 4.99", "2026-11-20 nf-e 4.59"}
	if diff := cmp.Diff(want, dates); diff != "" {
		t.Errorf("second pull (-want +got):\n%s", diff)
	}
	if got, c3 := pull(t, srv.URL, key, "changed_since="+c2); len(got) != 0 || c3 != c2 {
		t.Errorf("third pull, nothing imported: %d rows, cursor %q; want none and %q", len(got), c3, c2)
	}

	// Refusals: not a cursor, a cursor for the wrong dataset, a cursor of
	// another data file.
	r := rawGet(t, http.MethodGet, srv.URL, key, "/b2b/export?changed_since=nope")
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `changed_since \"nope\" is not an export cursor`) {
		t.Errorf("bad cursor: got %d %s, want 400 naming changed_since", r.Status, r.Body)
	}
	r = rawGet(t, http.MethodGet, srv.URL, key, "/b2b/export?dataset=stores&changed_since="+c2)
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "changed_since does not apply to dataset stores") {
		t.Errorf("stores since a cursor: got %d %s, want 400", r.Status, r.Body)
	}
	other := servetest.Open(t, nil, handMade...)
	osrv := httptest.NewServer(restserver.New(other, nil))
	defer osrv.Close()
	r = rawGet(t, http.MethodGet, osrv.URL, servetest.Key(t, other, "integration", 0), "/b2b/export?changed_since="+c2)
	if r.Status != http.StatusGone || r.Header.Get("Content-Type") != "application/problem+json" ||
		!strings.Contains(string(r.Body), `"code":"gone"`) || !strings.Contains(string(r.Body), "export again in full") {
		t.Errorf("another file's cursor: got %d %s, want a 410 gone problem saying to export again in full", r.Status, r.Body)
	}
	if grocery.ErrorCode(grocery.Errorf(grocery.EGONE, "x")) != "gone" {
		t.Error("EGONE is not gone")
	}
}
