package restserver_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/mcpserver"
	"github.com/grocerydata/grocery/restserver"
)

// The tests share one hand-made data file and one server mounting MCP at
// /mcp and REST at /, as grocery serve does; each test makes its own
// account, so quotas never mix, and runs in parallel with the others.
var (
	svc *grocery.Service
	srv *httptest.Server
)

const upcMilk, upcCheese = "068000000154", "060383000028"

// Hand-made Ontario stores, all on longitude -79.40 so a distance is
// |dlat| x 111.19493 km (6371 km x pi/180). The M5V stores (lob-a 43.60,
// lob-b 43.66, nf-e 43.62) have their centre at 43.626667: nf-e is 0.7 km
// from it, lob-a 3.0, lob-b 3.7; lob-c (M4C, 43.63) is 0.4 km and nf-d
// (K1P, 44.626667) 111.2 km.
const storesCSV = `store_id,banner,province,name,city,postal_code,latitude,longitude
lob-a,loblaws,ON,Loblaws A,Toronto,M5V 1A1,43.60,-79.40
lob-b,loblaws,ON,Loblaws B,Toronto,M5V 3C3,43.66,-79.40
lob-c,loblaws,ON,Loblaws C,Toronto,M4C 1B5,43.63,-79.40
nf-d,no-frills,ON,No Frills D,Ottawa,K1P 5J2,44.626667,-79.40
nf-e,no-frills,ON,No Frills E,Toronto,M5V 2B2,43.62,-79.40
maxi-q,maxi,QC,Maxi Q,Montréal,H2X 1Y4,45.50,-73.57
`

// Milk is observed everywhere on 2026-11-19 (the as-of date), on promotion
// at lob-a; cheese only at lob-a a month earlier (stale for /search, still
// its latest price for /prices); L9 is an unlinked SKU; M2's name has the
// characters encoding/json escapes for HTML by default.
const obsCSV = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-12,lob-a,loblaws,L1,5.99,5.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-a,loblaws,L1,4.99,5.99,2026-11-25,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-b,loblaws,L1,5.99,5.99,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,lob-c,loblaws,L1,5.79,5.79,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-d,no-frills,N1,4.79,4.79,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,nf-e,no-frills,N1,4.69,4.69,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,maxi-q,maxi,M1,5.49,5.49,,068000000154,2% Milk,Natrel,2 L,Dairy & Eggs
2026-11-19,maxi-q,maxi,M2,1.99,1.99,,068000000178,Root Beer <Diet> & Cream,A&W,355 mL,Beverages
2026-10-19,lob-a,loblaws,L2,7.49,7.49,,060383000028,Old Cheddar,Black Diamond,400 g,Dairy & Eggs
2026-11-19,lob-a,loblaws,L9,2.50,2.50,,,,,,
`

// handMade are the files of the shared data file, stores first.
var handMade = []servetest.File{{Name: "stores.csv", Data: storesCSV}, {Name: "obs.csv", Data: obsCSV}}

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "restserver-test")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// The clock sits in November 2026: quotas reset on 2026-12-01.
	svc, err = servetest.HandMade(filepath.Join(dir, "grocery.db"), nil, handMade...)
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpserver.New(svc, nil))
	mux.Handle("/", restserver.NewWithTestRoutes(svc, &restserver.Options{MaxBodyBytes: 1 << 20}))
	srv = httptest.NewServer(mux)
	defer srv.Close()
	return m.Run()
}

type reply struct {
	status  int
	header  http.Header
	body    []byte
	problem restserver.Problem
}

func get(t *testing.T, key, pathQuery string) *reply {
	t.Helper()
	return do(t, key, servetest.Request(t, http.MethodGet, srv.URL+pathQuery, ""))
}

func do(t *testing.T, key string, req *http.Request) *reply {
	t.Helper()
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	a := servetest.Do(t, req)
	r := &reply{status: a.Status, header: a.Header, body: a.Body}
	if a.Header.Get("Content-Type") == "application/problem+json" && req.Method != http.MethodHead {
		if err := json.Unmarshal(r.body, &r.problem); err != nil {
			t.Fatalf("problem is not JSON: %v\n%s", err, r.body)
		}
	}
	return r
}

// wantProblem checks a problem answer's status, code and members.
func wantProblem(t *testing.T, r *reply, status int, code, detailHas string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status: got %d, want %d\n%s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type: got %q, want application/problem+json", ct)
	}
	p := r.problem
	if p.Status != status || p.Code != code || p.Type != restserver.ProblemBase+code || p.Title == "" {
		t.Fatalf("problem: got %+v, want status %d code %s", p, status, code)
	}
	if !strings.Contains(p.Detail, detailHas) {
		t.Fatalf("detail: got %q, want it to contain %q", p.Detail, detailHas)
	}
}

func decode[T any](t *testing.T, r *reply) T {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d, want 200\n%s", r.status, r.body)
	}
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("%v\n%s", err, r.body)
	}
	return v
}

func TestAuth(t *testing.T) {
	t.Parallel()
	revoked := servetest.Key(t, svc, "integration", 0)
	if _, err := svc.RevokeKey(context.Background(), revoked); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, key, detail string }{
		{"Missing", "", "no X-API-Key header: send the key you were given"},
		{"Malformed", "hello", "malformed"},
		{"Unknown", "gro_pk_ABCDEFGH0123456789012345678901234567890A", "not known"},
		{"Revoked", revoked, "revoked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, tc.key, "/prices?banner=loblaws&store=lob-a")
			wantProblem(t, r, http.StatusUnauthorized, grocery.EUNAUTHENTICATED, tc.detail)
			// RFC 6750's parameters in REST's scheme: a bare challenge
			// when no key came, invalid_token and why when one did.
			want := `APIKey realm="grocery"`
			if tc.key != "" {
				want += `, error="invalid_token", error_description="` + r.problem.Detail + `"`
			}
			if got := r.header.Get("WWW-Authenticate"); got != want || tc.key != "" && !strings.Contains(got, tc.detail) {
				t.Fatalf("WWW-Authenticate: got %q, want %q", got, want)
			}
			if r.header.Get("X-Quota-Limit") != "" {
				t.Fatal("an unauthenticated answer carries quota headers")
			}
		})
	}
	t.Run("Bearer", func(t *testing.T) {
		// A valid key sent as MCP takes it: the 401 names the header
		// REST reads.
		key := servetest.Key(t, svc, "integration", 0)
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/prices?banner=loblaws&store=lob-a", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		r := do(t, "", req)
		wantProblem(t, r, http.StatusUnauthorized, grocery.EUNAUTHENTICATED,
			"no X-API-Key header: REST takes the key in X-API-Key: <key>; Authorization: Bearer is the MCP interface's (/mcp)")
		if strings.Contains(string(r.body), key) {
			t.Fatalf("the 401 echoes the key: %s", r.body)
		}
	})
	t.Run("ErrPlanRequiredSignals", func(t *testing.T) {
		key := servetest.Key(t, svc, "starter", 0)
		r := get(t, key, "/b2b/signals?province=ON&banner=loblaws")
		wantProblem(t, r, http.StatusForbidden, grocery.EPLANREQUIRED, "integration plan")
	})
	t.Run("ErrPlanRequired", func(t *testing.T) {
		key := servetest.Key(t, svc, "professional", 0)
		r := get(t, key, "/prices?banner=loblaws&store=lob-a")
		wantProblem(t, r, http.StatusForbidden, grocery.EPLANREQUIRED, "integration plan")
		// Refused at the plan, it spends nothing.
		u, err := svc.UsageOf(context.Background(), "TestAuth.ErrPlanRequired")
		if err != nil || u.Used != 0 {
			t.Fatalf("usage after a 403: got %+v, %v; want 0 used", u, err)
		}
	})
}

// TestSharedQuota spends a quota of 4 on two MCP calls and two REST
// requests (one a 400: refused requests count too); the fifth call, on
// REST, is a 429 with Retry-After and the reset time.
func TestSharedQuota(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 4)
	for i := 0; i < 2; i++ {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":"`+upcMilk+`","province":"ON"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		r := do(t, "", req)
		if r.status != http.StatusOK {
			t.Fatalf("MCP call %d: %d %s", i, r.status, r.body)
		}
	}
	r := get(t, key, "/price?banner=loblaws&store=lob-a&sku=L1")
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	want := map[string]string{"X-Quota-Limit": "4", "X-Quota-Remaining": "1", "X-Quota-Reset": "2026-12-01T00:00:00Z"}
	for h, v := range want {
		if got := r.header.Get(h); got != v {
			t.Fatalf("%s: got %q, want %q", h, got, v)
		}
	}
	r = get(t, key, "/price?banner=loblaws&store=lob-a")
	wantProblem(t, r, http.StatusBadRequest, grocery.EINVALIDARGUMENT, "sku or upc")
	if got := r.header.Get("X-Quota-Remaining"); got != "0" {
		t.Fatalf("X-Quota-Remaining on a 400: got %q, want 0", got)
	}
	r = get(t, key, "/price?banner=loblaws&store=lob-a&sku=L1")
	wantProblem(t, r, http.StatusTooManyRequests, grocery.EQUOTA, "2026-12-01T00:00:00Z")
	// 2026-11-20 12:00 to 2026-12-01 00:00 UTC: 10.5 days.
	if got := r.header.Get("Retry-After"); got != "907200" {
		t.Fatalf("Retry-After: got %q, want 907200", got)
	}
	if r.problem.Reset != "2026-12-01T00:00:00Z" || r.header.Get("X-Quota-Remaining") != "0" {
		t.Fatalf("reset %q, remaining %q", r.problem.Reset, r.header.Get("X-Quota-Remaining"))
	}
	// MCP sees the same spent quota.
	u, err := svc.UsageOf(context.Background(), "TestSharedQuota")
	if err != nil || u.Used != 5 {
		t.Fatalf("usage: got %+v, %v; want 5 used", u, err)
	}
}

func TestPrice(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	promo := grocery.Date(20782) // 2026-11-25
	want := grocery.StorePrice{Banner: "loblaws", StoreID: "lob-a", ExternalSKU: "L1", UPC: upcMilk, ProductName: "2% Milk", Name: "2% Milk",
		Price: 499, RegularPrice: 599, OnPromo: true, PromoEnds: &promo, ObservedAt: 20776, Currency: "CAD"}
	for _, q := range []string{"sku=L1", "upc=" + upcMilk} {
		got := decode[grocery.StorePrice](t, get(t, key, "/price?banner=loblaws&store=lob-a&"+q))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s (-want +got):\n%s", q, diff)
		}
	}
	r := get(t, key, "/price?banner=loblaws&store=lob-a&sku=L1")
	if r.header.Get("Content-Type") != "application/json" || r.header.Get("X-Quota-Limit") != "1000000" {
		t.Fatalf("headers: %v", r.header)
	}
	for _, tc := range []struct {
		name, query string
		status      int
		code, has   string
	}{
		{"ErrNeverObserved", "banner=loblaws&store=lob-b&sku=L2", 404, grocery.ENOTFOUND, "never observed"},
		{"ErrUPCNeverObserved", "banner=loblaws&store=lob-b&upc=" + upcCheese, 404, grocery.ENOTFOUND, "never observed"},
		{"ErrUnknownStore", "banner=loblaws&store=nope&sku=L1", 404, grocery.ENOTFOUND, "no reference store"},
		{"ErrWrongBanner", "banner=no-frills&store=lob-a&sku=L1", 400, grocery.EINVALIDARGUMENT, "belongs to banner loblaws"},
		{"ErrUnknownBanner", "banner=nobody&store=lob-a&sku=L1", 400, grocery.EINVALIDARGUMENT, "nobody"},
		{"ErrBoth", "banner=loblaws&store=lob-a&sku=L1&upc=" + upcMilk, 400, grocery.EINVALIDARGUMENT, "not both"},
		{"ErrBadUPC", "banner=loblaws&store=lob-a&upc=068000000155", 400, grocery.EINVALIDARGUMENT, "check digit"},
		{"ErrNoStore", "banner=loblaws&sku=L1", 400, grocery.EINVALIDARGUMENT, "store is required"},
		{"ErrTwice", "banner=loblaws&store=lob-a&sku=L1&sku=L2", 400, grocery.EINVALIDARGUMENT, "sku is given 2 times"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, get(t, key, "/price?"+tc.query), tc.status, tc.code, tc.has)
		})
	}
}

func TestPrices(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	type page struct {
		Results []grocery.StorePrice `json:"results"`
		Total   int                  `json:"total"`
		Limit   int                  `json:"limit"`
		Offset  int                  `json:"offset"`
	}
	skus := func(p page) string {
		var s []string
		for _, r := range p.Results {
			s = append(s, r.ExternalSKU)
		}
		return strings.Join(s, ",")
	}
	for _, tc := range []struct {
		name, query, skus    string
		total, limit, offset int
	}{
		// lob-a's latest prices, by SKU: L1 (milk), L2 (cheese, a month old), L9 (unlinked).
		{"All", "", "L1,L2,L9", 3, 50, 0},
		{"Page", "&limit=2", "L1,L2", 3, 2, 0},
		{"LastPage", "&limit=2&offset=2", "L9", 3, 2, 2},
		{"PastTheEnd", "&offset=10", "", 3, 50, 10},
		{"Query", "&q=cheddar", "L2", 1, 50, 0},
		{"QueryNoMatch", "&q=caviar", "", 0, 50, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := decode[page](t, get(t, key, "/prices?banner=loblaws&store=lob-a"+tc.query))
			if got := skus(p); got != tc.skus || p.Total != tc.total || p.Limit != tc.limit || p.Offset != tc.offset {
				t.Fatalf("got %s total %d limit %d offset %d; want %s total %d limit %d offset %d",
					got, p.Total, p.Limit, p.Offset, tc.skus, tc.total, tc.limit, tc.offset)
			}
			if p.Results == nil {
				t.Fatal("results is null, want []")
			}
		})
	}
	for _, tc := range []struct{ name, query, has string }{
		{"ErrLimitZero", "&limit=0", "limit 0 is out of range: want 1 to 500"},
		{"ErrLimitBig", "&limit=501", "limit 501 is out of range"},
		{"ErrLimitWord", "&limit=ten", `limit "ten" is not a whole number`},
		{"ErrOffsetNegative", "&offset=-1", "offset -1 is out of range: want 0 to 1000000"},
		{"ErrLimitTwice", "&limit=5&limit=6", "limit is given 2 times"},
		{"ErrWrongBanner", "&banner=metro", "banner is given 2 times"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, get(t, key, "/prices?banner=loblaws&store=lob-a"+tc.query), 400, grocery.EINVALIDARGUMENT, tc.has)
		})
	}
	wantProblem(t, get(t, key, "/prices?banner=metro&store=lob-a"), 400, grocery.EINVALIDARGUMENT, "belongs to banner loblaws, not metro")
}

type hit struct {
	Store    string   `json:"store_id"`
	Distance *float64 `json:"distance_km"`
	Price    float64  `json:"price"`
}

type searchPage struct {
	Results    []hit  `json:"results"`
	Total      int    `json:"total"`
	Province   string `json:"province"`
	PostalCode string `json:"postal_code"`
}

func TestSearch(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name, query string
		want        []hit
	}{
		// The M5V stores first, nearest the centre first (nf-e 0.7, lob-a
		// 3.0, lob-b 3.7), then the rest of Ontario by distance (lob-c
		// 0.4, nf-d 111.2). maxi-q is in Quebec.
		{"PostalCode", "q=milk&postal_code=M5V%202T6", []hit{
			{"nf-e", f(0.7), 4.69}, {"lob-a", f(3.0), 4.99}, {"lob-b", f(3.7), 5.99}, {"lob-c", f(0.4), 5.79}, {"nf-d", f(111.2), 4.79}}},
		{"PostalCodeNoSpaceLower", "q=milk&postal_code=m5v2t6&limit=2", []hit{{"nf-e", f(0.7), 4.69}, {"lob-a", f(3.0), 4.99}}},
		{"PostalCodeOffset", "q=milk&postal_code=M5V2T6&limit=2&offset=3", []hit{{"lob-c", f(0.4), 5.79}, {"nf-d", f(111.2), 4.79}}},
		// No panel store in M5W: the order is from the centre of the M5
		// stores (the same three), by distance alone, but no distance is
		// shown: it would be from M5, not from M5W.
		{"FSAWithoutStores", "q=milk&postal_code=M5W1A1", []hit{
			{"lob-c", nil, 5.79}, {"nf-e", nil, 4.69}, {"lob-a", nil, 4.99}, {"lob-b", nil, 5.99}, {"nf-d", nil, 4.79}}},
		{"Province", "q=milk&province=ON", []hit{
			{"lob-a", nil, 4.99}, {"lob-b", nil, 5.99}, {"lob-c", nil, 5.79}, {"nf-d", nil, 4.79}, {"nf-e", nil, 4.69}}},
		// Cheese was last seen a month ago: not a current price.
		{"Stale", "q=cheddar&province=ON", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := decode[searchPage](t, get(t, key, "/search?"+tc.query))
			if diff := cmp.Diff(tc.want, p.Results, cmp.Comparer(func(a, b []hit) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if p.Province != "ON" {
				t.Fatalf("province: got %q", p.Province)
			}
		})
	}
	p := decode[searchPage](t, get(t, key, "/search?q=milk&postal_code=m5v2t6&limit=1"))
	if p.Total != 5 || p.PostalCode != "M5V 2T6" {
		t.Fatalf("total %d postal_code %q; want 5 and M5V 2T6", p.Total, p.PostalCode)
	}
	for _, tc := range []struct{ name, query, has string }{
		{"ErrNeither", "q=milk", "exactly one of province or postal_code"},
		{"ErrBoth", "q=milk&province=ON&postal_code=M5V2T6", "exactly one of province or postal_code"},
		{"ErrNoQuery", "province=ON", "q is required"},
		{"ErrShort", "q=milk&postal_code=M5V2T", "want the form A1A 1A1"},
		{"ErrDigitFirst", "q=milk&postal_code=15V2T6", "character 1 must be a letter"},
		{"ErrLetterSecond", "q=milk&postal_code=MMV2T6", "character 2 must be a digit"},
		{"ErrUnusedLetter", "q=milk&postal_code=M5V2D6", "letter D is never used"},
		{"ErrFirstW", "q=milk&postal_code=W5V2T6", "no Canadian postal code starts with W"},
		{"ErrProvince", "q=milk&province=Atlantis", "not a Canadian province"},
		{"ErrTwice", "q=milk&q=bread&province=ON", "q is given 2 times"},
		{"ErrLimit", "q=milk&province=ON&limit=9999", "want 1 to 500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, get(t, key, "/search?"+tc.query), 400, grocery.EINVALIDARGUMENT, tc.has)
		})
	}
}

func TestProblems(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	t.Run("NotFoundPath", func(t *testing.T) {
		wantProblem(t, get(t, "", "/nowhere"), 404, grocery.ENOTFOUND, "/nowhere")
	})
	t.Run("MethodNotAllowed", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/prices", nil)
		r := do(t, key, req)
		wantProblem(t, r, 405, "method_not_allowed", "GET")
		if got := r.header.Get("Allow"); got != "GET, HEAD" {
			t.Fatalf("Allow: got %q, want GET, HEAD", got)
		}
	})
	for _, tc := range []struct {
		code   string
		status int
	}{
		{grocery.EINVALIDARGUMENT, 400}, {grocery.ENOTFOUND, 404}, {grocery.ECONFLICT, 409}, {grocery.EPLANREQUIRED, 403},
	} {
		t.Run(tc.code, func(t *testing.T) {
			wantProblem(t, get(t, key, "/test/error?code="+tc.code), tc.status, tc.code, "a "+tc.code+" error")
		})
	}
	t.Run("InternalHidden", func(t *testing.T) {
		r := get(t, key, "/test/error?code=other")
		wantProblem(t, r, 500, grocery.EINTERNAL, "internal error")
		if strings.Contains(string(r.body), "secret") {
			t.Fatalf("internals leaked: %s", r.body)
		}
	})
	t.Run("Panic", func(t *testing.T) {
		r := get(t, key, "/test/panic")
		wantProblem(t, r, 500, grocery.EINTERNAL, "internal error")
		if strings.Contains(string(r.body), "secret") {
			t.Fatalf("internals leaked: %s", r.body)
		}
	})
	post := func(ct, body string) *reply {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/test/echo", strings.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		return do(t, key, req)
	}
	t.Run("OKBody", func(t *testing.T) {
		r := post("application/json; charset=utf-8", `{"name":"x"}`)
		if r.status != 200 || strings.TrimSpace(string(r.body)) != `{"name":"x"}` {
			t.Fatalf("got %d %s", r.status, r.body)
		}
	})
	t.Run("ErrMediaType", func(t *testing.T) {
		wantProblem(t, post("text/plain", `{"name":"x"}`), 415, "unsupported_media_type", "application/json")
		wantProblem(t, post("", `{"name":"x"}`), 415, "unsupported_media_type", "application/json")
	})
	t.Run("ErrContentEncoding", func(t *testing.T) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(`{"name":"x"}`))
		zw.Close()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/test/echo", &gz)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", "gzip")
		wantProblem(t, do(t, key, req), 415, "unsupported_media_type", `Content-Encoding "gzip"`)
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		wantProblem(t, post("application/json", `{"name":"x","colour":1}`), 400, grocery.EINVALIDARGUMENT, `unknown field "colour"`)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
		wantProblem(t, post("application/json", big), 413, "body_too_large", "over 1048576 bytes")
		// Without a Content-Length, the limit holds while reading.
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/test/echo", io.MultiReader(strings.NewReader(big)))
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		wantProblem(t, do(t, key, req), 413, "body_too_large", "over 1048576 bytes")
	})
}

// TestExport: GET /b2b/export streams a data set with its file name; a bad
// argument is a problem before any byte; each request is one call.
func TestExport(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	r := get(t, key, "/b2b/export?format=csv&dataset=observations&province=QC&from=2026-11-01&to=2026-11-19")
	if r.status != http.StatusOK {
		t.Fatalf("status: got %d\n%s", r.status, r.body)
	}
	want := "date,store_id,banner,province,external_sku,upc,name,name_fr,brand,size,category,product_type,price,regular_price,on_promo,promo_ends,currency,source\r\n" +
		"2026-11-19,maxi-q,maxi,QC,M1,068000000154,2% Milk,,Natrel,2 L,Dairy & Eggs,,5.49,5.49,false,,CAD,import\r\n" +
		"2026-11-19,maxi-q,maxi,QC,M2,068000000178,Root Beer <Diet> & Cream,,A&W,355 mL,Beverages,,1.99,1.99,false,,CAD,import\r\n"
	if got := string(r.body); got != want && got != strings.ReplaceAll(want, "\r\n", "\n") {
		t.Errorf("csv:\n got %q\nwant %q", got, want)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type: got %q, want text/csv", ct)
	}
	if cd, want := r.header.Get("Content-Disposition"), `attachment; filename="grocery-observations-QC-2026-11-01-2026-11-19.csv"`; cd != want {
		t.Errorf("Content-Disposition: got %q, want %q", cd, want)
	}

	// Loblaws' Ontario milk, as JSON: lob-a twice (11-12, 11-19), lob-b and lob-c once.
	type row struct {
		Date, StoreID string
		Price         float64
	}
	var rows []struct {
		Date    string  `json:"date"`
		StoreID string  `json:"store_id"`
		Price   float64 `json:"price"`
	}
	if err := json.Unmarshal(get(t, key, "/b2b/export?dataset=observations&banner=loblaws&upc="+upcMilk+"&from=2026-11-01&to=2026-11-19").body, &rows); err != nil {
		t.Fatal(err)
	}
	var got []row
	for _, x := range rows {
		got = append(got, row{x.Date, x.StoreID, x.Price})
	}
	wantRows := []row{{"2026-11-12", "lob-a", 5.99}, {"2026-11-19", "lob-a", 4.99}, {"2026-11-19", "lob-b", 5.99}, {"2026-11-19", "lob-c", 5.79}}
	if diff := cmp.Diff(wantRows, got, cmpopts.SortSlices(func(a, b row) bool { return a.Date+a.StoreID < b.Date+b.StoreID })); diff != "" {
		t.Errorf("json rows (-want +got):\n%s", diff)
	}

	for _, tc := range []struct{ name, query, has string }{
		{"ErrFormat", "format=pdf", "pdf"},
		{"ErrDataset", "dataset=prices", "dataset"},
		{"ErrDates", "from=2026-11-19&to=2026-11-01", "from"},
		{"ErrTwice", "format=csv&format=json", "format is given 2 times"},
		{"ErrCategory", "category=Toys", `category "Toys" is not in the catalogue: want one of Beverages, Dairy & Eggs`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, key, "/b2b/export?"+tc.query)
			wantProblem(t, r, http.StatusBadRequest, grocery.EINVALIDARGUMENT, tc.has)
			if cd := r.header.Get("Content-Disposition"); cd != "" {
				t.Errorf("a refused export carries Content-Disposition %q", cd)
			}
		})
	}
	// A valid barcode the catalogue does not know: not found, not an empty file.
	wantProblem(t, get(t, key, "/b2b/export?upc=067000378089"), http.StatusNotFound, grocery.ENOTFOUND, "not in the catalogue")

	// Two exports and six refusals: eight calls.
	if got := r.header.Get("X-Quota-Remaining"); got != "999999" {
		t.Errorf("X-Quota-Remaining after the first export: got %s, want 999999", got)
	}
	u, err := svc.UsageOf(context.Background(), strings.ReplaceAll(t.Name(), "/", "."))
	if err != nil {
		t.Fatal(err)
	}
	if u.Used != 8 {
		t.Errorf("calls used: got %d, want 8", u.Used)
	}
}

// TestExportOutlivesWriteTimeout: the server's write timeout is for
// answers of one piece; an export (millions of rows, a slow client) must
// not be cut off by it. Here the timeout has passed before the first row.
func TestExportOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 0)
	ts := httptest.NewUnstartedServer(restserver.New(svc, nil))
	ts.Config.WriteTimeout = time.Nanosecond
	ts.Start()
	defer ts.Close()
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/b2b/export?format=csv&dataset=observations&province=QC&from=2026-11-01&to=2026-11-19", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := do(t, key, req)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "2026-11-19,maxi-q,maxi,QC,M1,") {
		t.Fatalf("got %d:\n%s", r.status, r.body)
	}
}

// TestNoHTMLEscaping: an answer is JSON for programs, not a page, so a
// product's name is written as it is, not with \u0026 and \u003c.
func TestNoHTMLEscaping(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 100)
	for _, path := range []string{
		"/price?banner=maxi&store=maxi-q&sku=M2",
		"/prices?banner=maxi&store=maxi-q&q=root",
		"/search?q=root+beer&province=QC",
	} {
		r := get(t, key, path)
		if r.status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", path, r.status, r.body)
		}
		if !strings.Contains(string(r.body), `"Root Beer <Diet> & Cream"`) {
			t.Errorf("%s: the name is escaped or missing: %s", path, r.body)
		}
	}
}

// TestRefusedBodiesMetered: a body refused for its size or type is a
// metered request like any other refusal, whether its size was declared
// (Content-Length) or found while reading (chunked).
func TestRefusedBodiesMetered(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 3)
	big := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	post := func(body io.Reader, length int64, contentType string) *reply {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/b2b/alerts", body)
		req.ContentLength = length
		req.Header.Set("Content-Type", contentType)
		return do(t, key, req)
	}
	for i, tc := range []struct {
		r      *reply
		status int
	}{
		{post(strings.NewReader(big), int64(len(big)), "application/json"), 413},
		{post(io.MultiReader(strings.NewReader(big)), -1, "application/json"), 413},
		{post(strings.NewReader(`{}`), 2, "text/plain"), 415},
		{post(strings.NewReader(big), int64(len(big)), "application/json"), 429},
	} {
		if tc.r.status != tc.status {
			t.Fatalf("call %d: status %d, want %d: %s", i+1, tc.r.status, tc.status, tc.r.body)
		}
		if got, want := tc.r.header.Get("X-Quota-Remaining"), strconv.Itoa(max(2-i, 0)); got != want {
			t.Errorf("call %d: X-Quota-Remaining %q, want %q", i+1, got, want)
		}
	}
}

// TestHead: a GET path answers HEAD with the GET's status and headers and
// no body, metered like the GET; HEAD of an export reads no row.
func TestHead(t *testing.T) {
	t.Parallel()
	key := servetest.Key(t, svc, "integration", 10)
	head := func(path string) *reply {
		req, _ := http.NewRequest(http.MethodHead, srv.URL+path, nil)
		return do(t, key, req)
	}
	g := get(t, key, "/price?banner=maxi&store=maxi-q&sku=M1")
	h := head("/price?banner=maxi&store=maxi-q&sku=M1")
	if h.status != 200 || len(h.body) != 0 {
		t.Fatalf("HEAD /price: %d with %d bytes of body", h.status, len(h.body))
	}
	if got, want := h.header.Get("Content-Length"), strconv.Itoa(len(g.body)); got != want {
		t.Errorf("HEAD /price: Content-Length %q, want the GET's %q", got, want)
	}
	if got := h.header.Get("X-Quota-Remaining"); got != "8" {
		t.Errorf("HEAD /price: X-Quota-Remaining %q, want 8 (the GET then the HEAD counted)", got)
	}
	e := head("/b2b/export?format=csv&dataset=observations&province=QC&from=2026-11-01&to=2026-11-19")
	if e.status != 200 || e.header.Get("Content-Disposition") == "" || len(e.body) != 0 {
		t.Errorf("HEAD /b2b/export: %d, Content-Disposition %q, %d bytes", e.status, e.header.Get("Content-Disposition"), len(e.body))
	}
	if h := head("/price?banner=maxi&store=maxi-q"); h.status != 400 {
		t.Errorf("HEAD /price without sku: %d, want 400", h.status)
	}
	if h := head("/openapi.json"); h.status != 200 {
		t.Errorf("HEAD /openapi.json: %d", h.status)
	}
}

// TestExportHeadLetsGo: HEAD of an export prepares it (its headers) but
// streams nothing; the prepared export's hold on the data file is let go,
// so that the file closes (on a replica, a replaced snapshot is freed).
func TestExportHeadLetsGo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	own, err := servetest.HandMade(filepath.Join(t.TempDir(), "grocery.db"), nil, handMade...)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			own.Close()
		}
	})
	k, err := own.CreateKey(ctx, grocery.KeyInput{Account: "head", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(restserver.New(own, nil))
	defer hs.Close()
	req, err := http.NewRequest(http.MethodHead, hs.URL+"/b2b/export?format=csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := do(t, k.Key, req); r.status != http.StatusOK || r.header.Get("Content-Disposition") == "" {
		t.Fatalf("HEAD /b2b/export: got %d %v, want 200 with a Content-Disposition", r.status, r.header)
	}
	// Close waits for every holder of the file: it returns only if the
	// HEAD let go of it.
	done := make(chan error, 1)
	go func() { done <- own.Close() }()
	select {
	case err := <-done:
		closed = true
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close still waits after 10s: the HEAD's prepared export holds the data file")
	}
}
