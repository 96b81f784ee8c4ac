package restserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// hostPaths are documented operations that the host (cmd/internal/server)
// serves beside the REST handler, not its router.
var hostPaths = []string{"GET /healthz"}

// apiDoc is the OpenAPI document as served, with its component schemas
// as JSON Schema $defs so that a validator resolves its references.
type apiDoc struct {
	doc  map[string]any
	defs map[string]any
	// resolved holds each schema resolved once, by its JSON text: a
	// resolution carries every component and costs far more than a
	// validation.
	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
}

// loadDoc fetches GET /openapi.json over HTTP, without a key.
func loadDoc(t *testing.T) *apiDoc {
	t.Helper()
	r := get(t, "", "/openapi.json")
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %s", r.status, r.header.Get("Content-Type"))
	}
	text := strings.ReplaceAll(string(r.body), `"#/components/schemas/`, `"#/$defs/`)
	d := &apiDoc{}
	if err := json.Unmarshal([]byte(text), &d.doc); err != nil {
		t.Fatal(err)
	}
	if v := d.doc["openapi"]; v != "3.1.0" {
		t.Fatalf("openapi: got %v, want 3.1.0", v)
	}
	d.defs = d.get(t, "components", "schemas").(map[string]any)
	return d
}

// get returns the member at path, following a $ref at every step.
func (d *apiDoc) get(t *testing.T, path ...string) any {
	t.Helper()
	var v any = d.doc
	for _, p := range path {
		m, ok := d.deref(t, v).(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return d.deref(t, v)
}

// deref follows a "#/components/..." reference (schemas excepted: the
// validator follows those).
func (d *apiDoc) deref(t *testing.T, v any) any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, "#/components/") {
		return v
	}
	return d.get(t, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...)
}

// schema resolves an OpenAPI schema object as a JSON Schema 2020-12.
func (d *apiDoc) schema(t *testing.T, s any) *jsonschema.Resolved {
	t.Helper()
	m, ok := s.(map[string]any)
	if !ok {
		t.Fatalf("schema is %T, want an object", s)
	}
	own, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if rs, ok := d.resolved[string(own)]; ok {
		return rs
	}
	root := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": d.defs}
	for k, v := range m {
		root[k] = v
	}
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	rs, err := js.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving %s: %v", b, err)
	}
	if d.resolved == nil {
		d.resolved = map[string]*jsonschema.Resolved{}
	}
	d.resolved[string(own)] = rs
	return rs
}

// operations returns "METHOD /path" of every documented operation.
func (d *apiDoc) operations(t *testing.T) []string {
	var ops []string
	for path, item := range d.get(t, "paths").(map[string]any) {
		for method := range item.(map[string]any) {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options", "trace":
				ops = append(ops, strings.ToUpper(method)+" "+path)
			}
		}
	}
	sort.Strings(ops)
	return ops
}

// TestOpenAPIRoutes: the router and the document describe the same
// operations, no path or method in one and not the other.
func TestOpenAPIRoutes(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	routes, err := restserver.RouteTable(svc)
	if err != nil {
		t.Fatal(err)
	}
	routes = append(routes, hostPaths...)
	sort.Strings(routes)
	documented := d.operations(t)
	for _, r := range routes {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is served but not in /openapi.json", r)
		}
	}
	for _, op := range documented {
		if !slices.Contains(routes, op) {
			t.Errorf("%s is in /openapi.json but not served", op)
		}
	}
}

// TestOpenAPIServed: the document and its page are served without a key
// and cost nothing; the page's script is cached.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	for _, tc := range []struct{ path, contentType, has string }{
		{"/openapi.json", "application/json", `"openapi": "3.1.0"`},
		{"/docs", "text/html; charset=utf-8", `<redoc spec-url="/openapi.json">`},
		{"/docs/redoc.standalone.js", "text/javascript; charset=utf-8", "Redoc"},
	} {
		for _, k := range []string{"", key} {
			r := get(t, k, tc.path)
			if r.status != http.StatusOK || r.header.Get("Content-Type") != tc.contentType || !bytes.Contains(r.body, []byte(tc.has)) {
				t.Fatalf("GET %s: got %d %q, want 200 %q containing %q", tc.path, r.status, r.header.Get("Content-Type"), tc.contentType, tc.has)
			}
			if r.header.Get("X-Quota-Limit") != "" {
				t.Fatalf("GET %s carries quota headers: it is unmetered", tc.path)
			}
		}
	}
	r := get(t, "", "/docs/redoc.standalone.js")
	if got := r.header.Get("Cache-Control"); !strings.Contains(got, "max-age=31536000") {
		t.Errorf("Cache-Control of the script: got %q, want a year", got)
	}
	vendored, err := os.ReadFile("docs/redoc.standalone.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.body, vendored) {
		t.Error("the served script is not the vendored file")
	}
	if csp := get(t, "", "/docs").header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy of /docs: got %q", csp)
	}
	u, err := svc.UsageOf(context.Background(), "TestOpenAPIServed")
	if err != nil || u.Used != 0 {
		t.Fatalf("usage: got %+v, %v; want 0 calls used", u, err)
	}
}

// TestOpenAPIEnums: the enums of the document are the service's own.
func TestOpenAPIEnums(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	enum := func(path ...string) []string {
		var out []string
		for _, v := range d.get(t, path...).([]any) {
			out = append(out, v.(string))
		}
		sort.Strings(out)
		return out
	}
	var banners, provinces, codes []string
	for _, b := range grocery.Banners() {
		banners = append(banners, b.Slug)
	}
	for _, p := range grocery.Provinces() {
		provinces = append(provinces, p.Code)
	}
	statuses := restserver.ProblemStatuses()
	for c := range statuses {
		codes = append(codes, c)
	}
	sort.Strings(banners)
	sort.Strings(provinces)
	sort.Strings(codes)
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		{"Banner", enum("components", "schemas", "Banner", "enum"), banners},
		{"Province", enum("components", "schemas", "Province", "enum"), provinces},
		{"Problem.code", enum("components", "schemas", "Problem", "properties", "code", "enum"), codes},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s enum: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Each problem response names the status of its code (a 304 has no body).
	for name, v := range d.get(t, "components", "responses").(map[string]any) {
		if d.get(t, "components", "responses", name, "content") == nil {
			continue
		}
		ex := d.get(t, "components", "responses", name, "content", "application/problem+json", "example").(map[string]any)
		code := ex["code"].(string)
		if st := int(ex["status"].(float64)); st != statuses[code] {
			t.Errorf("response %s: code %s has status %d, the table says %d", name, code, st, statuses[code])
		}
		_ = v
	}
}

// TestOpenAPIExamples: every example in the document fits its schema.
func TestOpenAPIExamples(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	n := 0
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if s, ok := v["schema"]; ok {
				if ex, ok := v["example"]; ok {
					n++
					if err := d.schema(t, s).Validate(ex); err != nil {
						t.Errorf("%s: example does not fit the schema: %v", path, err)
					}
				}
			}
			if exs, ok := v["examples"].([]any); ok && v["type"] != nil {
				for _, ex := range exs {
					n++
					if err := d.schema(t, v).Validate(ex); err != nil {
						t.Errorf("%s: example does not fit the schema: %v", path, err)
					}
				}
			}
			for k, x := range v {
				walk(path+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(path+"/"+strconv.Itoa(i), x)
			}
		}
	}
	walk("#", d.doc)
	if n < 20 {
		t.Fatalf("checked %d examples, want at least 20", n)
	}
}

// TestOpenAPIResponses validates real answers, successes and problems,
// against the responses the document gives for their path, method and
// status: the body against the schema of its media type, and the headers
// (those documented as required are present; quota headers are never
// sent undocumented). Every documented success of a path the REST
// handler serves must be met at least once.
func TestOpenAPIResponses(t *testing.T) {
	t.Parallel()
	d := loadDoc(t)
	key := servetest.Key(t, svc, "integration", 0)
	pro := servetest.AccountKey(t, svc, "TestOpenAPIResponses.pro", "professional", 0)
	spent := servetest.AccountKey(t, svc, "TestOpenAPIResponses.spent", "integration", 1)
	get(t, spent, "/price?banner=loblaws&store=lob-a&sku=L1")

	// Rules of this account: by barcode (milk under 6 dollars: it fires
	// on its first day, with no previous price) and on the unlinked SKU
	// L9 (back in stock on its first day, with no barcode); evaluating
	// them over the data records their events.
	const (
		milkRule = `{"name":"Milk under 6","upc":"` + upcMilk + `","province":"ON","condition":"price_below","threshold":6}`
		l9Rule   = `{"name":"L9 back","banner":"loblaws","sku":"L9","province":"ON","condition":"back_in_stock"}`
	)
	met := map[string]bool{} // "METHOD /path status" validated
	var ids []string
	for _, body := range []string{milkRule, l9Rule} {
		r := send(t, key, "POST", "/b2b/alerts", "application/json", body)
		if r.status != http.StatusCreated {
			t.Fatalf("create: got %d\n%s", r.status, r.body)
		}
		d.check(t, "POST /b2b/alerts", r)
		met["POST /b2b/alerts 201"] = true
		ids = append(ids, jsonOf(t, r.body).(map[string]any)["id"].(string))
	}
	ctx := grocery.NewContextWithAccount(context.Background(), "TestOpenAPIResponses")
	if ev, err := svc.EvaluateAlerts(ctx); err != nil || ev.Events == 0 {
		t.Fatalf("evaluate: %+v, %v; want events", ev, err)
	}
	full := servetest.AccountKey(t, svc, "TestOpenAPIResponses.full", "integration", 0)
	for i := 0; i < grocery.MaxAlertRules; i++ {
		if _, err := svc.CreateAlert(grocery.NewContextWithAccount(context.Background(), "TestOpenAPIResponses.full"),
			grocery.AlertInput{Name: "milk", UPC: upcMilk, Province: "ON", Condition: grocery.AlertPromoStart}); err != nil {
			t.Fatal(err)
		}
	}

	// A webhook endpoint of this account, and a ping queued for it.
	r := send(t, key, "POST", "/b2b/webhooks", "application/json", `{"url":"https://203.0.113.9/hooks","description":"relay"}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create webhook: got %d\n%s", r.status, r.body)
	}
	d.check(t, "POST /b2b/webhooks", r)
	met["POST /b2b/webhooks 201"] = true
	hook := "/b2b/webhooks/" + jsonOf(t, r.body).(map[string]any)["id"].(string)

	type call struct {
		op, url, key, contentType, body string
		status                          int
		answerType                      string
	}
	const jsonType = "application/json"
	calls := []call{
		{"GET /prices", "/prices?banner=loblaws&store=lob-a", key, "", "", 200, jsonType},
		{"GET /prices", "/prices?banner=loblaws&store=lob-a&q=caviar", key, "", "", 200, jsonType},
		{"GET /prices", "/prices?banner=loblaws&store=lob-a&limit=0", key, "", "", 400, ""},
		{"GET /prices", "/prices?banner=loblaws&store=lob-a", "", "", "", 401, ""},
		{"GET /prices", "/prices?banner=loblaws&store=lob-a", pro, "", "", 403, ""},
		{"GET /prices", "/prices?banner=loblaws&store=nope", key, "", "", 404, ""},
		{"GET /prices", "/prices?banner=loblaws&store=lob-a", spent, "", "", 429, ""},
		{"GET /price", "/price?banner=loblaws&store=lob-a&sku=L1", key, "", "", 200, jsonType},
		{"GET /price", "/price?banner=loblaws&store=lob-b&sku=L1", key, "", "", 200, jsonType},
		{"GET /price", "/price?banner=loblaws&store=lob-a&sku=L9", key, "", "", 200, jsonType}, // not linked to a barcode
		{"GET /price", "/price?banner=loblaws&store=lob-b&sku=L2", key, "", "", 404, ""},
		{"GET /search", "/search?q=milk&postal_code=M5V2T6", key, "", "", 200, jsonType},
		{"GET /search", "/search?q=milk&province=ON", key, "", "", 200, jsonType},
		{"GET /search", "/search?q=caviar&province=QC", key, "", "", 200, jsonType},
		{"GET /search", "/search?q=milk", key, "", "", 400, ""},
		{"GET /search", "/search?q=" + upcMilk + "&province=ON", key, "", "", 200, jsonType},
		{"GET /search", "/search?q=067000445842&province=ON", key, "", "", 404, ""},
		{"GET /products/{upc}", "/products/" + upcMilk + "?province=ON", key, "", "", 200, jsonType},
		{"GET /products/{upc}", "/products/" + upcCheese + "?province=QC&lang=fr", key, "", "", 200, jsonType}, // no offers
		{"GET /products/{upc}", "/products/" + upcMilk + "?province=ON&limit=1&offset=1", key, "", "", 200, jsonType},
		{"GET /products/{upc}", "/products/068000000155?province=ON", key, "", "", 400, ""},
		{"GET /products/{upc}", "/products/067000445842?province=ON", key, "", "", 404, ""},
		{"GET /products/{upc}", "/products/" + upcMilk + "?province=ON", pro, "", "", 403, ""},
		{"GET /history", "/history?sku=L1&banner=loblaws&province=ON&period=7d", key, "", "", 200, jsonType},
		{"GET /history", "/history?sku=L9&banner=loblaws&province=ON", key, "", "", 200, jsonType}, // not linked to a barcode
		{"GET /history", "/history?sku=L1&banner=loblaws&province=QC", key, "", "", 200, jsonType}, // no points
		{"GET /history", "/history?sku=L1&banner=loblaws&province=ON&period=2d", key, "", "", 400, ""},
		{"GET /history", "/history?sku=" + upcMilk + "&banner=loblaws&province=ON", key, "", "", 404, ""},
		{"GET /stores", "/stores", key, "", "", 200, jsonType},
		{"GET /stores", "/stores?province=ON&banner=loblaws&limit=1", key, "", "", 200, jsonType},
		{"GET /stores", "/stores?near=M5V2T6&limit=2&offset=1", key, "", "", 200, jsonType},
		{"GET /stores", "/stores?near=M5V2T6&province=QC", key, "", "", 400, ""},
		{"GET /stores", "/stores", spent, "", "", 429, ""},
		{"GET /b2b/export", "/b2b/export?province=ON&from=2026-11-01&to=2026-11-19", key, "", "", 200, jsonType},
		{"GET /b2b/export", "/b2b/export?dataset=offers", key, "", "", 200, jsonType},
		{"GET /b2b/export", "/b2b/export?dataset=stores", key, "", "", 200, jsonType},
		{"GET /b2b/export", "/b2b/export?dataset=offers&format=jsonl", key, "", "", 200, "application/x-ndjson"},
		{"GET /b2b/export", "/b2b/export?dataset=observations&format=csv&from=2026-11-01", key, "", "", 200, "text/csv"},
		{"GET /b2b/export", "/b2b/export?dataset=offers&format=csv", key, "", "", 200, "text/csv"},
		{"GET /b2b/export", "/b2b/export?dataset=stores&format=csv", key, "", "", 200, "text/csv"},
		{"GET /b2b/export", "/b2b/export?dataset=stores&format=xlsx", key, "", "", 200, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
		{"GET /b2b/export", "/b2b/export?dataset=offers&format=parquet", key, "", "", 200, "application/vnd.apache.parquet"},
		{"GET /b2b/export", "/b2b/export?format=pdf", key, "", "", 400, ""},
		{"GET /b2b/category_report", "/b2b/category_report?province=ON", key, "", "", 200, jsonType},
		{"GET /b2b/category_report", "/b2b/category_report?province=ON&category=Caviar", key, "", "", 200, jsonType},
		{"GET /b2b/category_report", "/b2b/category_report?province=ON&period=2d", key, "", "", 400, ""},
		{"GET /b2b/category_report", "/b2b/category_report?province=ON", pro, "", "", 403, ""},
		{"GET /b2b/promo_calendar", "/b2b/promo_calendar?province=ON&banner=loblaws", key, "", "", 200, jsonType},
		{"GET /b2b/promo_calendar", "/b2b/promo_calendar?province=ON&from=2026-12-01&to=2026-11-01", key, "", "", 400, ""},
		{"GET /b2b/new_on_shelf", "/b2b/new_on_shelf?province=ON&days=30", key, "", "", 200, jsonType},
		{"GET /b2b/new_on_shelf", "/b2b/new_on_shelf?days=30", key, "", "", 400, ""},
		{"GET /b2b/signals", "/b2b/signals?province=ON&banner=loblaws", key, "", "", 200, jsonType},
		{"GET /b2b/signals", "/b2b/signals?province=ON&kind=all", key, "", "", 400, ""},
		{"GET /b2b/signals", "/b2b/signals?province=ON&since=today", key, "", "", 400, ""},
		{"GET /b2b/executive_brief", "/b2b/executive_brief?province=ON&banner=no-frills", key, "", "", 200, jsonType},
		{"GET /b2b/executive_brief", "/b2b/executive_brief?province=ON&format=html", key, "", "", 200, "text/html"},
		{"GET /b2b/executive_brief", "/b2b/executive_brief?province=NU", key, "", "", 200, jsonType},
		{"GET /b2b/executive_brief", "/b2b/executive_brief?province=ON&format=pdf", key, "", "", 400, ""},
		{"GET /b2b/executive_brief", "/b2b/executive_brief?province=ON", pro, "", "", 403, ""},
		{"GET /b2b/alerts", "/b2b/alerts", key, "", "", 200, jsonType},
		{"GET /b2b/alerts", "/b2b/alerts?limit=1&offset=5", key, "", "", 200, jsonType},
		{"GET /b2b/alerts", "/b2b/alerts?offset=-1", key, "", "", 400, ""},
		{"POST /b2b/alerts", "/b2b/alerts", key, jsonType, `{"name":"x","upc":"` + upcMilk + `","province":"ON","condition":"sometimes"}`, 400, ""},
		{"POST /b2b/alerts", "/b2b/alerts", full, jsonType, milkRule, 409, ""},
		{"POST /b2b/alerts", "/b2b/alerts", key, jsonType, `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, 413, ""},
		{"POST /b2b/alerts", "/b2b/alerts", key, "text/plain", milkRule, 415, ""},
		{"GET /b2b/alerts/events", "/b2b/alerts/events", key, "", "", 200, jsonType},
		{"GET /b2b/alerts/events", "/b2b/alerts/events?rule_id=" + ids[1] + "&since=2026-11-01", key, "", "", 200, jsonType},
		{"GET /b2b/alerts/events", "/b2b/alerts/events?since=yesterday", key, "", "", 400, ""},
		{"GET /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], key, "", "", 200, jsonType},
		{"GET /b2b/alerts/{id}", "/b2b/alerts/" + ids[1], key, "", "", 200, jsonType},
		{"GET /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], full, "", "", 404, ""}, // another account's
		{"GET /b2b/alerts/{id}", "/b2b/alerts/alert1", key, "", "", 400, ""},
		{"PATCH /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], key, jsonType, `{"threshold":5.5}`, 200, jsonType},
		{"PATCH /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], key, jsonType, `{}`, 400, ""},
		{"PATCH /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], key, jsonType, `{"province":"QC"}`, 400, ""},
		{"PATCH /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], full, jsonType, `{"active":false}`, 404, ""},
		{"PATCH /b2b/alerts/{id}", "/b2b/alerts/" + ids[0], key, "text/plain", `{"active":false}`, 415, ""},
		{"POST /b2b/alerts/{id}/evaluate", "/b2b/alerts/" + ids[0] + "/evaluate", key, "", "", 200, jsonType},
		{"POST /b2b/alerts/{id}/evaluate", "/b2b/alerts/" + ids[1] + "/evaluate", key, "", "", 200, jsonType},
		{"POST /b2b/alerts/{id}/evaluate", "/b2b/alerts/" + ids[0] + "/evaluate", full, "", "", 404, ""},
		{"POST /b2b/alerts/{id}/evaluate", "/b2b/alerts/alert1/evaluate", key, "", "", 400, ""},
		{"DELETE /b2b/alerts/{id}", "/b2b/alerts/" + ids[1], key, "", "", 204, ""},
		{"DELETE /b2b/alerts/{id}", "/b2b/alerts/" + ids[1], key, "", "", 404, ""},
		{"GET /b2b/geographic_prices", "/b2b/geographic_prices?upc=" + upcMilk, key, "", "", 200, jsonType},
		{"GET /b2b/geographic_prices", "/b2b/geographic_prices?category=dairy%20%26%20eggs", key, "", "", 200, jsonType},
		{"GET /b2b/geographic_prices", "/b2b/geographic_prices", key, "", "", 400, ""},
		{"GET /b2b/geographic_prices", "/b2b/geographic_prices?upc=067000445842", key, "", "", 404, ""},
		{"GET /b2b/geographic_prices", "/b2b/geographic_prices?upc=" + upcMilk, pro, "", "", 403, ""},
		{"GET /b2b/regional_comparison", "/b2b/regional_comparison", key, "", "", 200, jsonType},
		{"GET /b2b/regional_comparison", "/b2b/regional_comparison?upc=" + upcCheese, key, "", "", 200, jsonType},
		{"GET /b2b/regional_comparison", "/b2b/regional_comparison?category=Nope", key, "", "", 400, ""},
		{"GET /b2b/competitive_benchmark", "/b2b/competitive_benchmark?banner=loblaws&province=ON", key, "", "", 200, jsonType},
		{"GET /b2b/competitive_benchmark", "/b2b/competitive_benchmark?banner=maxi&province=ON", key, "", "", 404, ""},
		{"GET /b2b/competitive_benchmark", "/b2b/competitive_benchmark?banner=loblaws", key, "", "", 400, ""},
		{"GET /b2b/brand_insights", "/b2b/brand_insights?brand=natrel", key, "", "", 200, jsonType},
		{"GET /b2b/brand_insights", "/b2b/brand_insights?brand=Natrel&province=NU", key, "", "", 200, jsonType},
		{"GET /b2b/brand_insights", "/b2b/brand_insights?brand=Nobody", key, "", "", 400, ""},
		{"POST /b2b/basket", "/b2b/basket", key, jsonType, `{"province":"ON","items":[{"upc":"` + upcMilk + `","quantity":2},{"name":"cheddar","quantity":1},{"name":"caviar","quantity":1}]}`, 200, jsonType},
		{"POST /b2b/basket", "/b2b/basket", key, jsonType, `{"province":"ON","items":[{"upc":"` + upcMilk + `","quantity":100}]}`, 400, ""},
		{"POST /b2b/basket", "/b2b/basket", key, jsonType, `{"province":"ON","items":[{"upc":"` + upcMilk + `"},{"name":"cheddar"}]}`, 200, jsonType},
		{"POST /b2b/basket", "/b2b/basket", key, jsonType, `{"province":"ON","items":[],"extra":1}`, 400, ""},
		{"POST /b2b/basket", "/b2b/basket", key, "text/plain", `{}`, 415, ""},
		{"POST /b2b/basket", "/b2b/basket", key, jsonType, `{"province":"` + strings.Repeat("x", 1<<20) + `"}`, 413, ""},
		{"POST /b2b/webhooks", "/b2b/webhooks", key, jsonType, `{"url":"https://10.0.0.1/hooks"}`, 400, ""},
		{"POST /b2b/webhooks", "/b2b/webhooks", key, jsonType, `{"url":"https://203.0.113.9/","secret":"mine"}`, 400, ""},
		{"GET /b2b/webhooks", "/b2b/webhooks", key, "", "", 200, jsonType},
		{"GET /b2b/webhooks/{id}", hook, key, "", "", 200, jsonType},
		{"GET /b2b/webhooks/{id}", hook, full, "", "", 404, ""}, // another account's
		{"GET /b2b/webhooks/{id}", "/b2b/webhooks/hook1", key, "", "", 400, ""},
		{"PATCH /b2b/webhooks/{id}", hook, key, jsonType, `{"description":"relay to Slack"}`, 200, jsonType},
		{"PATCH /b2b/webhooks/{id}", hook, key, jsonType, `{"url":"http://203.0.113.9/"}`, 400, ""},
		{"POST /b2b/webhooks/{id}/test", hook + "/test", key, "", "", 202, jsonType},
		{"GET /b2b/webhooks/{id}/deliveries", hook + "/deliveries", key, "", "", 200, jsonType},
		{"GET /b2b/webhooks/{id}/deliveries", hook + "/deliveries?limit=0", key, "", "", 400, ""},
		{"POST /b2b/webhooks/{id}/deliveries/{delivery_id}/redeliver", hook + "/deliveries/whd_0000000000000001/redeliver", key, "", "", 202, jsonType},
		{"POST /b2b/webhooks/{id}/deliveries/{delivery_id}/redeliver", hook + "/deliveries/whd_00000000000000ff/redeliver", key, "", "", 404, ""},
		{"DELETE /b2b/webhooks/{id}", hook, full, "", "", 404, ""},
		{"DELETE /b2b/webhooks/{id}", hook, key, "", "", 204, ""},
		{"GET /usage", "/usage", key, "", "", 200, jsonType},
		{"GET /usage", "/usage", spent, "", "", 200, jsonType},
		{"GET /usage", "/usage?account=other", key, "", "", 400, ""},
		{"GET /usage", "/usage", "", "", "", 401, ""},
		{"GET /usage", "/usage", pro, "", "", 403, ""},
		{"GET /openapi.json", "/openapi.json", "", "", "", 200, jsonType},
		{"GET /docs", "/docs", "", "", "", 200, "text/html"},
		{"GET /docs/redoc.standalone.js", "/docs/redoc.standalone.js", "", "", "", 200, "text/javascript"},
	}
	for _, c := range calls {
		t.Run(fmt.Sprintf("%s %d %.80s", c.op, c.status, c.url), func(t *testing.T) {
			method, _, _ := strings.Cut(c.op, " ")
			r := send(t, c.key, method, c.url, c.contentType, c.body)
			if r.status != c.status {
				t.Fatalf("status: got %d, want %d\n%.500s", r.status, c.status, r.body)
			}
			want := c.answerType
			if c.status >= 400 {
				want = "application/problem+json"
			}
			if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt != want && !(want == "" && r.status == 204) {
				t.Fatalf("Content-Type: got %q, want %s", r.header.Get("Content-Type"), want)
			}
			d.check(t, c.op, r)
			met[c.op+" "+strconv.Itoa(r.status)] = true
		})
	}
	// With an Idempotency-Key: the first answer, its replay (with
	// Idempotent-Replayed) and the 409 of another body fit the document.
	for i, body := range []string{l9Rule, l9Rule, milkRule} {
		req := servetest.Request(t, "POST", srv.URL+"/b2b/alerts", body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "openapi-responses")
		r := do(t, key, req)
		want := map[int]int{0: 201, 1: 201, 2: 409}[i]
		if r.status != want || (i == 1) != (r.header.Get("Idempotent-Replayed") == "true") {
			t.Fatalf("idempotent POST %d: got %d, replayed %q, want %d\n%s", i+1, r.status, r.header.Get("Idempotent-Replayed"), want, r.body)
		}
		if i == 1 {
			h := d.get(t, "paths", "/b2b/alerts", "post", "responses", "201", "headers", "Idempotent-Replayed")
			if h == nil {
				t.Errorf("Idempotent-Replayed is sent but not documented for POST /b2b/alerts 201")
			}
		}
		d.check(t, "POST /b2b/alerts", r)
	}

	// A body without a declared length is metered, then refused once read
	// past the limit: a 413 with the quota headers.
	req, err := http.NewRequest("POST", srv.URL+"/b2b/alerts", io.MultiReader(strings.NewReader(`{"name":"`+strings.Repeat("x", 1<<20)+`"}`)))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	if r := do(t, key, req); r.status != http.StatusRequestEntityTooLarge || r.header.Get("X-Quota-Limit") == "" {
		t.Errorf("a long body without a length: got %d with X-Quota-Limit %q, want 413 with quota headers", r.status, r.header.Get("X-Quota-Limit"))
	} else {
		d.check(t, "POST /b2b/alerts", r)
	}

	// Problems no operation lists: a path that does not exist, a method a
	// path does not take, an internal error.
	problem := d.get(t, "components", "schemas", "Problem")
	for _, tc := range []struct {
		method, path string
		status       int
	}{{"GET", "/nowhere", 404}, {"DELETE", "/prices", 405}, {"GET", "/test/panic", 500}, {"GET", "/test/error?code=conflict", 409}} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		r := do(t, key, req)
		if r.status != tc.status {
			t.Fatalf("%s %s: got %d, want %d", tc.method, tc.path, r.status, tc.status)
		}
		if err := d.schema(t, problem).Validate(jsonOf(t, r.body)); err != nil {
			t.Errorf("%s %s: the problem does not fit the Problem schema: %v\n%s", tc.method, tc.path, err, r.body)
		}
	}
	for _, op := range d.operations(t) {
		if slices.Contains(hostPaths, op) {
			continue
		}
		for status := range d.get(t, append(append([]string{"paths"}, opPath(op)...), "responses")...).(map[string]any) {
			if strings.HasPrefix(status, "2") && !met[op+" "+status] {
				t.Errorf("no real %s answer to %s was validated: add a call", status, op)
			}
		}
	}
}

func opPath(op string) []string {
	method, path, _ := strings.Cut(op, " ")
	return []string{path, strings.ToLower(method)}
}

// check validates a real answer to op ("METHOD /path/template") against
// the response the document gives for its status.
func (d *apiDoc) check(t *testing.T, op string, r *reply) {
	t.Helper()
	v := d.get(t, append(append([]string{"paths"}, opPath(op)...), "responses", strconv.Itoa(r.status))...)
	if v == nil {
		t.Fatalf("the document has no %d response for %s", r.status, op)
	}
	resp := v.(map[string]any)
	headers, _ := d.deref(t, resp["headers"]).(map[string]any)
	for name, h := range headers {
		h := d.deref(t, h).(map[string]any)
		if h["required"] == true && r.header.Get(name) == "" {
			t.Errorf("header %s is documented as required but not sent", name)
		}
	}
	for _, name := range []string{"X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset", "Retry-After", "WWW-Authenticate", "Content-Disposition", "Location",
		"ETag", "Link", "X-Request-Id", "Vary"} {
		if r.header.Get(name) != "" && headers[name] == nil {
			t.Errorf("header %s is sent but not documented for this response", name)
		}
	}
	mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type"))
	content, _ := resp["content"].(map[string]any)
	if content == nil && len(r.body) == 0 {
		return
	}
	media, ok := content[mt].(map[string]any)
	if !ok {
		t.Fatalf("media type %s is not documented for this response", mt)
	}
	schema := media["schema"]
	switch mt {
	case "application/json", "application/problem+json":
		if err := d.schema(t, schema).Validate(jsonOf(t, r.body)); err != nil {
			t.Errorf("the answer does not fit the documented schema: %v\n%.2000s", err, r.body)
		}
	case "application/x-ndjson":
		// Each line is one item of the JSON format's array.
		items := d.schema(t, d.get(t, "paths", "/b2b/export", "get", "responses", "200", "content", "application/json", "schema", "items"))
		sc := bufio.NewScanner(bytes.NewReader(r.body))
		lines := 0
		for sc.Scan() {
			lines++
			if err := items.Validate(jsonOf(t, sc.Bytes())); err != nil {
				t.Errorf("line %d does not fit the documented row: %v\n%s", lines, err, sc.Bytes())
			}
		}
		if lines == 0 {
			t.Error("no rows")
		}
	case "text/csv":
		// The header row names the properties of one documented row.
		header, _, _ := strings.Cut(string(r.body), "\n")
		cols := strings.Split(strings.TrimSuffix(header, "\r"), ",")
		var matched bool
		for _, row := range []string{"ObservationRow", "OfferRow", "StoreRow"} {
			props := d.get(t, "components", "schemas", row, "properties").(map[string]any)
			if len(props) != len(cols) {
				continue
			}
			matched = true
			for _, c := range cols {
				if props[c] == nil {
					matched = false
				}
			}
			if matched {
				break
			}
		}
		if !matched {
			t.Errorf("the CSV columns %v are not those of a documented row", cols)
		}
	}
}

// send makes a request with an optional body and content type.
func send(t *testing.T, key, method, path, contentType, body string) *reply {
	t.Helper()
	req := servetest.Request(t, method, srv.URL+path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(t, key, req)
}

func jsonOf(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v\n%.500s", err, b)
	}
	return v
}

// TestOpenAPIDescriptions: every description in the document says
// something; an empty one is a field a reader of the reference learns
// nothing about.
func TestOpenAPIDescriptions(t *testing.T) {
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "description" && strings.TrimSpace(s) == "" {
					t.Errorf("%s: an empty description", path)
				}
				walk(x, path+"/"+k)
			}
		case []any:
			for i, x := range v {
				walk(x, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "")
}
