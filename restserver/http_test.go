package restserver_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// raw sends requests without the transport's own gzip handling, so that
// the tests see Content-Encoding and the compressed bytes as sent.
var raw = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// rawGet sends GET (or method) base+path with key and the headers given
// as name, value pairs, and reads the answer whole, as sent.
func rawGet(t testing.TB, method, base, key, path string, headers ...string) *servetest.Reply {
	t.Helper()
	req := servetest.Request(t, method, base+path, "")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return servetest.DoClient(t, raw, req)
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip stream: %v", err)
	}
	return out
}

// TestGzip: with Accept-Encoding: gzip, JSON answers, the text exports
// (CSV, JSON Lines, JSON), /openapi.json and the /docs script of 1,024
// bytes or more come gzip-compressed, with Vary: Accept-Encoding, and
// decompress to the identity answer; XLSX and Parquet exports, answers
// under 1,024 bytes, and clients that do not take gzip get identity.
func TestGzip(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	const obs = "/b2b/export?dataset=observations&from=2026-10-01&to=2026-11-30&format="
	for _, tc := range []struct {
		path string
		gzip bool
	}{
		{"/b2b/executive_brief?province=ON&banner=loblaws", true},
		{"/b2b/executive_brief?province=ON&banner=loblaws&format=html", true},
		{obs + "csv", true},
		{obs + "jsonl", true},
		{obs + "json", true},
		{"/openapi.json", true},
		{"/docs/redoc.standalone.js", true},
		{obs + "xlsx", false},
		{obs + "parquet", false},
		{"/price?banner=loblaws&store=lob-a&sku=L1", false}, // under 1,024 bytes
		{"/docs", false},                                    // the page, under 1,024 bytes; its script is compressed
		{"/search?q=milk&province=Ontari", false},           // a short problem
	} {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			plain := rawGet(t, "GET", srv.URL, key, tc.path)
			for _, ae := range []string{"gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*"} {
				zipped := rawGet(t, "GET", srv.URL, key, tc.path, "Accept-Encoding", ae)
				if zipped.Status != plain.Status {
					t.Fatalf("status: got %d with gzip, want %d as without", zipped.Status, plain.Status)
				}
				if v := zipped.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
					t.Errorf("Accept-Encoding %q: Vary: got %q, want it to name Accept-Encoding", ae, v)
				}
				got := zipped.Header.Get("Content-Encoding")
				if !tc.gzip {
					if got != "" {
						t.Errorf("Accept-Encoding %q: Content-Encoding: got %q, want none", ae, got)
					}
					continue
				}
				if got != "gzip" {
					t.Fatalf("Accept-Encoding %q: Content-Encoding: got %q, want gzip (identity answer: %d bytes)", ae, got, len(plain.Body))
				}
				if zipped.Header.Get("Content-Length") != "" && zipped.Header.Get("Content-Length") == plain.Header.Get("Content-Length") {
					t.Errorf("Content-Length: got the identity answer's, %s", zipped.Header.Get("Content-Length"))
				}
				if body := gunzip(t, zipped.Body); !bytes.Equal(body, plain.Body) {
					t.Errorf("Accept-Encoding %q: the answer decompresses to %d bytes, want the identity answer's %d:\n%.300s", ae, len(body), len(plain.Body), body)
				}
				if len(zipped.Body) >= len(plain.Body) {
					t.Errorf("compressed: got %d bytes, want fewer than the identity answer's %d", len(zipped.Body), len(plain.Body))
				}
			}
			for _, ae := range []string{"", "identity", "gzip;q=0", "br", "*, gzip;q=0"} {
				r := rawGet(t, "GET", srv.URL, key, tc.path, "Accept-Encoding", ae)
				if ce := r.Header.Get("Content-Encoding"); ce != "" {
					t.Errorf("Accept-Encoding %q: Content-Encoding: got %q, want none", ae, ce)
				}
				if v := r.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
					t.Errorf("Accept-Encoding %q: Vary: got %q, want it to name Accept-Encoding", ae, v)
				}
			}
			if tc.gzip {
				head := rawGet(t, "HEAD", srv.URL, key, tc.path, "Accept-Encoding", "gzip")
				if strings.Contains(tc.path, "export") {
					return // a HEAD export reads no row: it cannot know its size
				}
				if ce := head.Header.Get("Content-Encoding"); ce != "gzip" || len(head.Body) != 0 {
					t.Errorf("HEAD: Content-Encoding %q and %d bytes, want gzip and none, as the GET's headers", ce, len(head.Body))
				}
			}
		})
	}
}

// TestGzipStreams: a streamed answer is compressed as it is written: what
// the handler flushed reaches the client, decompressed, while the handler
// is still writing (a test route writes a line, flushes, and waits for
// the client to have read it before the next).
func TestGzipStreams(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	req := servetest.Request(t, "GET", srv.URL+"/test/stream?lines=5", "")
	req.Header.Set("X-API-Key", key)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ce := resp.Header.Get("Content-Encoding"); ce != "gzip" {
		t.Fatalf("Content-Encoding: got %q, want gzip", ce)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, restserver.StreamLine)
	for i := range 5 {
		if _, err := io.ReadFull(zr, line); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if want := restserver.StreamText(i); string(line) != want {
			t.Fatalf("line %d: got %.40q, want %.40q", i, line, want)
		}
		restserver.StreamRead(key) // the handler writes the next line only now
	}
	if rest, err := io.ReadAll(zr); err != nil || len(rest) != 0 {
		t.Fatalf("after the lines: got %d bytes and %v, want the end of a whole stream", len(rest), err)
	}
}

// TestETag: a GET answer carries a weak ETag; If-None-Match with it is a
// 304 without a body, metered like the 200, until the data changes (an
// import) or, on the alert paths, the account's rules do. The tag does
// not depend on the order of the query parameters, and differs with the
// parameters, the content coding, the Accept header and, where the answer
// depends on it, the account (even for the same bytes).
func TestETag(t *testing.T) {
	t.Parallel()
	s := servetest.Open(t, nil, handMade...)
	hs := httptest.NewServer(restserver.New(s, nil))
	defer hs.Close()
	key := servetest.Key(t, s, "integration", 0)
	other := servetest.AccountKey(t, s, "TestETag.other", "integration", 0)

	tagOf := func(key, path string, headers ...string) string {
		t.Helper()
		r := rawGet(t, "GET", hs.URL, key, path, headers...)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: got %d, want 200\n%s", path, r.Status, r.Body)
		}
		tag := r.Header.Get("ETag")
		if !strings.HasPrefix(tag, `W/"`) || !strings.HasSuffix(tag, `"`) || len(tag) < 10 {
			t.Fatalf("GET %s: ETag: got %q, want a weak tag W/\"...\"", path, tag)
		}
		return tag
	}
	// wantStatus sends If-None-Match: tag with key and checks the answer.
	wantStatus := func(path, tag string, status int, headers ...string) {
		t.Helper()
		for _, method := range []string{"GET", "HEAD"} {
			before, _ := s.UsageOf(context.Background(), "TestETag")
			r := rawGet(t, method, hs.URL, key, path, append([]string{"If-None-Match", tag}, headers...)...)
			after, _ := s.UsageOf(context.Background(), "TestETag")
			if r.Status != status {
				t.Fatalf("%s %s with If-None-Match %s: got %d, want %d\n%s", method, path, tag, r.Status, status, r.Body)
			}
			if after.Used != before.Used+1 {
				t.Errorf("%s %s answered %d: calls used went from %d to %d, want one more (metered)", method, path, r.Status, before.Used, after.Used)
			}
			if status != http.StatusNotModified {
				continue
			}
			if len(r.Body) != 0 || r.Header.Get("Content-Type") != "" || r.Header.Get("Content-Length") != "" {
				t.Errorf("304: got %d bytes, Content-Type %q, Content-Length %q, want no body and neither", len(r.Body), r.Header.Get("Content-Type"), r.Header.Get("Content-Length"))
			}
			if et := r.Header.Get("ETag"); !strings.HasPrefix(et, `W/"`) || tag != "*" && !strings.Contains(tag, strings.TrimPrefix(et, "W/")) {
				t.Errorf("304: ETag: got %q, want the tag If-None-Match %s matched", et, tag)
			}
			for _, h := range []string{"X-Quota-Remaining", "X-Request-Id", "Vary"} {
				if r.Header.Get(h) == "" {
					t.Errorf("304: no %s header", h)
				}
			}
		}
	}

	prices := "/prices?banner=loblaws&store=lob-a&limit=2"
	tag := tagOf(key, prices)
	wantStatus(prices, tag, http.StatusNotModified)
	wantStatus(prices, `"other", `+tag, http.StatusNotModified)
	wantStatus(prices, strings.TrimPrefix(tag, "W/"), http.StatusNotModified) // weak comparison
	wantStatus(prices, "*", http.StatusNotModified)                           // a current representation exists (RFC 9110 13.1.2)
	if r := rawGet(t, "GET", hs.URL, key, "/prices?banner=loblaws&store=nope", "If-None-Match", "*"); r.Status != http.StatusNotFound {
		t.Errorf("If-None-Match: * for no such store: got %d, want 404", r.Status)
	}
	wantStatus(prices, `W/"0123"`, http.StatusOK)
	if got := tagOf(other, prices); got != tag {
		t.Errorf("another account: got %s, want %s: the answer depends on the data only", got, tag)
	}
	if got := tagOf(key, "/prices?limit=2&store=lob-a&banner=loblaws"); got != tag {
		t.Errorf("parameters in another order: got %s, want %s", got, tag)
	}
	for _, differs := range []struct {
		path    string
		headers []string
	}{
		{"/prices?banner=loblaws&store=lob-a&limit=3", nil},
		{"/prices?banner=loblaws&store=lob-b&limit=2", nil},
		{prices, []string{"Accept-Encoding", "gzip"}},
		{prices, []string{"Accept", "application/json"}},
	} {
		if got := tagOf(key, differs.path, differs.headers...); got == tag {
			t.Errorf("%s %v: got the tag of %s, want another", differs.path, differs.headers, prices)
		}
	}
	// A problem carries no tag.
	if r := rawGet(t, "GET", hs.URL, key, "/prices?banner=loblaws&store=nope"); r.Status != 404 || r.Header.Get("ETag") != "" {
		t.Errorf("a 404: got %d with ETag %q, want 404 without", r.Status, r.Header.Get("ETag"))
	}
	// The export: its tag names its format, chosen by Accept too.
	csv := tagOf(key, "/b2b/export?dataset=stores&format=csv")
	wantStatus("/b2b/export?dataset=stores&format=csv", csv, http.StatusNotModified)
	if got := tagOf(key, "/b2b/export?dataset=stores", "Accept", "text/csv"); got == csv || got == tagOf(key, "/b2b/export?dataset=stores") {
		t.Errorf("export by Accept: got %s, want a tag of its own", got)
	}

	// An import changes the data: the old tags are stale.
	if _, err := s.Import(context.Background(), "obs2.csv", strings.NewReader(
		"date,store_id,banner,external_sku,price\n2026-11-20,lob-a,loblaws,L1,4.49\n"), nil); err != nil {
		t.Fatal(err)
	}
	wantStatus(prices, tag, http.StatusOK)
	wantStatus("/b2b/export?dataset=stores&format=csv", csv, http.StatusOK)
	if got := tagOf(key, prices); got == tag {
		t.Errorf("after an import: got the same tag %s, want another", got)
	}

	// The alert paths answer for the account: a tag of its own, even for
	// the same (empty) list, which changes when a rule is made.
	rules := tagOf(key, "/b2b/alerts")
	if got := tagOf(other, "/b2b/alerts"); got == rules {
		t.Errorf("another account's empty rules: got the same tag %s, want another", got)
	}
	wantStatus("/b2b/alerts", rules, http.StatusNotModified)
	events := tagOf(key, "/b2b/alerts/events")
	wantStatus("/b2b/alerts/events", events, http.StatusNotModified)
	brief := tagOf(key, "/b2b/executive_brief?province=ON&banner=loblaws")
	wantStatus("/b2b/executive_brief?province=ON&banner=loblaws", brief, http.StatusNotModified)
	req := servetest.Request(t, "POST", hs.URL+"/b2b/alerts", `{"name":"Milk","upc":"`+upcMilk+`","province":"ON","condition":"price_below","threshold":6}`)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key)
	if r := servetest.Do(t, req); r.Status != http.StatusCreated {
		t.Fatalf("create a rule: got %d\n%s", r.Status, r.Body)
	}
	wantStatus("/b2b/alerts", rules, http.StatusOK)
	if got := tagOf(other, "/b2b/alerts"); got == tagOf(key, "/b2b/alerts") {
		t.Errorf("after a rule: the accounts' tags are the same, %s", got)
	}

	// The OpenAPI document, free, has a tag too.
	doc := tagOf("", "/openapi.json")
	if r := rawGet(t, "GET", hs.URL, "", "/openapi.json", "If-None-Match", doc); r.Status != http.StatusNotModified || len(r.Body) != 0 {
		t.Errorf("/openapi.json with If-None-Match: got %d and %d bytes, want 304 and none", r.Status, len(r.Body))
	}
}

// TestLinks: every paginated list carries Link to its next page (absent
// on the last) and to its previous one (when offset is above 0), made of
// the request's own path and query with offset moved; following next from
// the first page walks every result exactly once.
func TestLinks(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	// Rules and their events, so that the alert lists have pages.
	for _, body := range []string{
		`{"name":"Milk under 6","upc":"` + upcMilk + `","province":"ON","condition":"price_below","threshold":6}`,
		`{"name":"Milk under 7","upc":"` + upcMilk + `","province":"ON","condition":"price_below","threshold":7}`,
	} {
		if r := send(t, key, "POST", "/b2b/alerts", "application/json", body); r.status != http.StatusCreated {
			t.Fatalf("create: got %d\n%s", r.status, r.body)
		}
	}
	if _, err := svc.EvaluateAlerts(grocery.NewContextWithAccount(context.Background(), "TestLinks")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		first    string
		minTotal int // the hand-made data's
	}{
		{"/prices?banner=loblaws&store=lob-a&limit=1", 2},
		{"/search?q=milk&province=ON&limit=1", 2},
		{"/b2b/signals?province=ON&banner=loblaws&limit=1", 2},
		{"/b2b/promo_calendar?province=ON&from=2026-10-01&to=2026-11-30&limit=1", 1}, // one promotion
		{"/b2b/new_on_shelf?province=ON&days=60&limit=1", 2},
		{"/b2b/alerts?limit=1", 2},
		{"/b2b/alerts/events?limit=1", 2},
	} {
		first := tc.first
		t.Run(first, func(t *testing.T) {
			var page struct {
				Results       []json.RawMessage
				Total, Offset int
			}
			seen, next := 0, first
			for i := 0; next != ""; i++ {
				r := get(t, key, next)
				if err := json.Unmarshal(r.body, &page); r.status != 200 || err != nil {
					t.Fatalf("GET %s: got %d, %v\n%s", next, r.status, err, r.body)
				}
				seen += len(page.Results)
				links := parseLinks(t, r.header.Values("Link"))
				if page.Offset > 0 && links["prev"] != withOffset(t, next, page.Offset-1) {
					t.Errorf("GET %s: prev: got %q, want %q", next, links["prev"], withOffset(t, next, page.Offset-1))
				}
				if links["next"] != "" && links["next"] != withOffset(t, next, page.Offset+1) {
					t.Errorf("GET %s: next: got %q, want %q", next, links["next"], withOffset(t, next, page.Offset+1))
				}
				if page.Offset == 0 && links["prev"] != "" {
					t.Errorf("GET %s (offset 0): got prev %q, want none", next, links["prev"])
				}
				if last := page.Offset+1 >= page.Total; last != (links["next"] == "") {
					t.Fatalf("GET %s: offset %d of %d, next %q: want next exactly when a page follows", next, page.Offset, page.Total, links["next"])
				}
				next = links["next"]
				if i > 20 {
					t.Fatal("more than 20 pages")
				}
			}
			if seen != page.Total {
				t.Errorf("following next: got %d results, want total %d", seen, page.Total)
			}
			if page.Total < tc.minTotal {
				t.Errorf("total %d: want at least %d, so that there are pages to follow", page.Total, tc.minTotal)
			}
		})
	}
}

// withOffset is pathQuery with its offset parameter set to offset, in
// its place, or last when it has none.
func withOffset(t *testing.T, pathQuery string, offset int) string {
	t.Helper()
	path, query, _ := strings.Cut(pathQuery, "?")
	var parts []string
	set := false
	for _, p := range strings.Split(query, "&") {
		if strings.HasPrefix(p, "offset=") {
			p, set = "offset="+strconv.Itoa(offset), true
		}
		parts = append(parts, p)
	}
	if !set {
		parts = append(parts, "offset="+strconv.Itoa(offset))
	}
	return path + "?" + strings.Join(parts, "&")
}

// parseLinks returns the targets of a Link header by rel.
func parseLinks(t *testing.T, values []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, v := range values {
		for part := range strings.SplitSeq(v, ", ") {
			target, rel, ok := strings.Cut(part, ">; rel=")
			if !ok || !strings.HasPrefix(target, "<") {
				t.Fatalf("Link %q: want <target>; rel=\"...\"", v)
			}
			out[strings.Trim(rel, `"`)] = target[1:]
		}
	}
	return out
}

// TestExportAccept: without format, Accept chooses the export's format
// (JSON with none, */*, or on a tie); format wins over Accept; an Accept
// that takes none of the formats is a 406 that names them.
func TestExportAccept(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	const stores = "/b2b/export?dataset=stores"
	for _, tc := range []struct{ query, accept, want string }{
		{"", "", "application/json"},
		{"", "*/*", "application/json"},
		{"", "text/csv", "text/csv"},
		{"", "text/*", "text/csv"},
		{"", "application/x-ndjson", "application/x-ndjson"},
		{"", "application/jsonl", "application/x-ndjson"},
		{"", "application/vnd.apache.parquet", "application/vnd.apache.parquet"},
		{"", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
		{"", "application/json;q=0.5, text/csv", "text/csv"},
		{"", "text/csv;q=0.2, application/x-ndjson;q=0.9", "application/x-ndjson"},
		{"", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/json"}, // a browser's
		{"&format=json", "text/csv", "application/json"},
		{"&format=csv", "image/png", "text/csv"},
	} {
		req := servetest.Request(t, "GET", srv.URL+stores+tc.query, "")
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		r := do(t, key, req)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), tc.want) {
			t.Errorf("%s with Accept %q: got %d %s, want 200 %s", tc.query, tc.accept, r.status, r.header.Get("Content-Type"), tc.want)
		}
	}
	req := servetest.Request(t, "GET", srv.URL+stores, "")
	req.Header.Set("Accept", "image/png, text/csv;q=0")
	wantProblem(t, do(t, key, req), http.StatusNotAcceptable, "not_acceptable", "format parameter")
}
