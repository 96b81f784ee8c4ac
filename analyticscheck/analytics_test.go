//go:build unix

package analyticscheck

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// asOf pins the demo data set: 2026-11-19.
const asOfText = "2026-11-19"

// fixture is the demo data set, open in Go and loaded into PostgreSQL from
// its own CSV exports.
type fixture struct {
	svc    *grocery.Service
	pg     *pgServer
	dir    string
	asOf   grocery.Date
	offers string // the offers export (checked, never used to compute)
}

// newFixture builds the small demo pinned to asOf, exports observations
// (every day of the data set) and stores as CSV, and loads them into a
// database of the test's own on the shared PostgreSQL server.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return buildFixture(t, func(ctx context.Context, path string, asOf grocery.Date) (*grocery.Service, error) {
		if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{Scale: "small", AsOf: asOf}); err != nil {
			return nil, err
		}
		return grocery.Open(path, nil)
	})
}

// buildFixture starts PostgreSQL (or shares the server already started),
// builds a data file with build, exports it and loads the export into a
// database of t's own.
func buildFixture(t *testing.T, build func(ctx context.Context, path string, asOf grocery.Date) (*grocery.Service, error)) *fixture {
	t.Helper()
	phase := time.Now()
	lap := func(what string) {
		t.Logf("%s: %v", what, time.Since(phase).Round(time.Millisecond))
		phase = time.Now()
	}
	ctx := context.Background()
	asOf, err := grocery.ParseDate(asOfText)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// The data file is built while PostgreSQL starts.
	type built struct {
		svc *grocery.Service
		err error
	}
	data := make(chan built, 1)
	go func() {
		svc, err := build(ctx, filepath.Join(dir, "data.db"), asOf)
		data <- built{svc, err}
	}()
	var b built
	received := false
	t.Cleanup(func() { // also when startPostgres skips or fails t
		if !received {
			b = <-data
		}
		if b.err == nil {
			b.svc.Close()
		}
	})
	pg := startPostgres(t)
	lap("PostgreSQL started")
	b, received = <-data, true
	if b.err != nil {
		t.Fatal(b.err)
	}
	svc := b.svc
	fx := &fixture{svc: svc, pg: pg, dir: dir, asOf: asOf}
	lap("data built")

	// The observations export of the year up to asOf holds the whole
	// data set (checked below: its first day is later).
	from := grocery.Date(int32(asOf) - 365).String()
	fx.export(t, "observations.csv", grocery.ExportInput{Format: "csv", Dataset: "observations", From: from, To: asOfText})
	fx.export(t, "stores.csv", grocery.ExportInput{Format: "csv", Dataset: "stores"})
	fx.offers = fx.export(t, "offers.csv", grocery.ExportInput{Format: "csv", Dataset: "offers"})

	lap("exported")
	fx.psqlFile(t, "schema.sql", nil)
	for table, file := range map[string]string{"obs_csv": "observations.csv", "stores_csv": "stores.csv"} {
		copyCmd := fmt.Sprintf(`\copy %s FROM '%s' WITH (FORMAT csv, HEADER true)`, table, filepath.Join(dir, file))
		if _, err := pg.psql(nil, copyCmd); err != nil {
			t.Fatal(err)
		}
	}
	lap("loaded")
	fx.psqlFile(t, "derive.sql", nil)
	lap("derived")
	var first, last string
	fx.query(t, "SELECT to_json(min(d)::text) FROM obs", &first)
	fx.query(t, "SELECT to_json(max(d)::text) FROM obs", &last)
	if first <= from || last != asOfText {
		t.Fatalf("the export holds %s..%s: want the data set's every day, after %s and up to %s", first, last, from, asOfText)
	}
	return fx
}

// export writes one of the product's CSV exports to a file of the fixture.
func (fx *fixture) export(t *testing.T, name string, in grocery.ExportInput) string {
	t.Helper()
	path := filepath.Join(fx.dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fx.svc.Export(context.Background(), in, f); err != nil {
		t.Fatalf("export %s: %v", name, err)
	}
	return path
}

// psqlFile runs testdata/<name> with psql variables vars and returns its
// output.
func (fx *fixture) psqlFile(t testing.TB, name string, vars map[string]string) []byte {
	t.Helper()
	out, err := fx.pg.psql(vars, `\i `+filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sql runs testdata/<name>, which ends with one query returning one JSON
// value, and decodes that value into v (numbers kept exact).
func (fx *fixture) sql(t testing.TB, name string, vars map[string]string, v any) {
	t.Helper()
	out := fx.psqlFile(t, name, vars)
	if err := decode(out, v); err != nil {
		t.Fatalf("%s: %v: %.300s", name, err, out)
	}
}

// query runs one SQL statement returning one JSON value.
func (fx *fixture) query(t testing.TB, q string, v any) {
	t.Helper()
	out, err := fx.pg.psql(nil, q)
	if err != nil {
		t.Fatal(err)
	}
	if err := decode(out, v); err != nil {
		t.Fatalf("%s: %v: %.300s", q, err, out)
	}
}

// TestAnalytics recomputes every analytic of the definitions in SQL from
// the demo's CSV exports and compares every figure with the Go library's
// answer to the same request: one subtest per analytic and request.
func TestAnalytics(t *testing.T) {
	if testing.Short() {
		t.Skip("the SQL check builds a demo data set and starts PostgreSQL")
	}
	t.Parallel() // beside TestSQLByHand, in a database of its own
	start := time.Now()
	fx := newFixture(t)
	t.Logf("demo built, exported and loaded into PostgreSQL in %v", time.Since(start).Round(time.Millisecond))
	// The analytics share the data and the server and change nothing:
	// they run side by side (one psql each at a time).
	for _, a := range analytics {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			a.run(t, fx)
		})
	}
}

// analytics is the table of checks, by the definition they check.
var analytics = []struct {
	name string
	run  func(t *testing.T, fx *fixture)
}{
	{"export", checkExport},
	{"offers", checkOffers},
	{"lookup", checkLookup},
	{"new_on_shelf", checkNewOnShelf},
	{"promo_calendar", checkPromoCalendar},
	{"basket", checkBasket},
	{"price_history", checkPriceHistory},
	{"verdict", checkVerdict},
	{"category_report", checkCategoryReport},
	{"competitive_benchmark", checkBenchmark},
	{"geography", checkGeography},
	{"brand_insights", checkBrands},
	{"signals", checkSignals},
	{"executive_brief", checkBrief},
}

// Requests across provinces: the two largest, one with seven stores, a thin
// province (one store) and a territory.
var provinces = []string{"ON", "QC", "BC", "MB", "NT"}

// checkExport compares the export's row counts, filtered, with the SQL's
// counts of the full observations export, and the stores export with the
// stores the observations name.
func checkExport(t *testing.T, fx *fixture) {
	type req struct {
		name  string
		in    grocery.ExportInput
		where string
	}
	reqs := []req{
		{"ON no-frills", grocery.ExportInput{Province: "ON", Banner: "no-frills"}, "province = 'ON' AND banner = 'no-frills'"},
		{"QC Dairy & Eggs 2026-11-01..19", grocery.ExportInput{Province: "QC", Category: "Dairy & Eggs", From: "2026-11-01", To: asOfText},
			"province = 'QC' AND category = 'Dairy & Eggs' AND d BETWEEN '2026-11-01' AND '" + asOfText + "'"},
		{"upc 067000378089", grocery.ExportInput{UPC: "067000378089"}, "upc = '067000378089'"},
		{"NT default 30 days", grocery.ExportInput{Province: "NT"}, "province = 'NT' AND d > date '" + asOfText + "' - 30"},
		{"MB save-on-foods", grocery.ExportInput{Province: "MB", Banner: "save-on-foods"}, "province = 'MB' AND banner = 'save-on-foods'"},
	}
	for _, r := range reqs {
		t.Run(r.name, func(t *testing.T) {
			in := r.in
			in.Format, in.Dataset = "csv", "observations"
			if in.From == "" && !strings.Contains(r.name, "default") {
				in.From = grocery.Date(int32(fx.asOf) - 365).String()
				in.To = asOfText
			}
			sum, err := fx.svc.Export(context.Background(), in, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			var n json.Number
			fx.query(t, "SELECT to_json(count(*)) FROM obs WHERE "+r.where, &n)
			c := newChecker(t, "export observations "+r.name)
			c.exact("rows", json.Number(fmt.Sprint(sum.Rows)), n)
			c.done()
		})
	}
	t.Run("stores", func(t *testing.T) {
		for _, p := range provinces {
			res, err := fx.svc.ListReferenceStores(context.Background(), grocery.StoresInput{Province: p, Limit: grocery.Some(50)})
			if err != nil {
				t.Fatal(err)
			}
			var n json.Number
			fx.query(t, "SELECT to_json(count(*)) FROM stores_csv WHERE active AND province = '"+p+"'", &n)
			c := newChecker(t, "list_reference_stores province="+p)
			c.exact("total", json.Number(fmt.Sprint(res.Total)), n)
			c.done()
		}
	})
}

// sqlOffer is one current offer as offers.sql computes it.
type sqlOffer struct {
	Province     string        `json:"province"`
	Banner       string        `json:"banner"`
	ExternalSKU  string        `json:"external_sku"`
	UPC          string        `json:"upc"`
	PriceModes   []json.Number `json:"price_modes"`
	RegularModes []json.Number `json:"regular_modes"`
	MinPrice     json.Number   `json:"min_price"`
	MaxPrice     json.Number   `json:"max_price"`
	StoreCount   json.Number   `json:"store_count"`
	ObservedAt   string        `json:"observed_at"`
	Promos       []struct {
		PC   json.Number `json:"pc"`
		Ends *string     `json:"ends"`
	} `json:"promos"`
	PromoEnded *string      `json:"promo_ended"`
	UnitBasis  string       `json:"unit_price_basis"`
	UnitFactor *json.Number `json:"unit_factor"`
}

func (fx *fixture) sqlOffers(t testing.TB) map[string]*sqlOffer {
	var rows []*sqlOffer
	fx.sql(t, "offers.sql", nil, &rows)
	m := make(map[string]*sqlOffer, len(rows))
	for _, o := range rows {
		m[o.Province+" "+o.Banner+" "+o.ExternalSKU] = o
	}
	return m
}

// checkOffer compares one offer (as JSON: the offers export's row or a
// lookup's offer) with the SQL's. The most common price's tie-break is not
// documented: any tied price is accepted.
func checkOffer(c *checker, key string, g map[string]any, s *sqlOffer, unit bool) {
	modeOK := func(field string, modes []json.Number) {
		c.checked++
		gv := lookup(g, field)
		for _, m := range modes {
			r, _ := ratOf(m)
			want := new(big.Rat).Quo(r, big.NewRat(100, 1))
			if gr, ok := ratOf(gv); ok && gr.Cmp(want) == 0 {
				return
			}
		}
		c.diff(key+" "+field, gv, fmt.Sprintf("one of %v cents (most common)", modes), "")
	}
	if !unit {
		modeOK("price", s.PriceModes)
		modeOK("regular_price", s.RegularModes)
		c.money(key+" min_price", lookup(g, "min_price"), s.MinPrice)
		c.money(key+" max_price", lookup(g, "max_price"), s.MaxPrice)
		c.exact(key+" store_count", lookup(g, "store_count"), s.StoreCount)
		c.exact(key+" observed_at", lookup(g, "observed_at"), s.ObservedAt)
		// on_promo and promo_ends: the price written is on promotion when
		// a store's latest observation at that price was.
		price, _ := ratOf(lookup(g, "price"))
		var ends []any
		promo := false
		for _, p := range s.Promos {
			r, _ := ratOf(p.PC)
			if price != nil && r.Cmp(new(big.Rat).Mul(price, big.NewRat(100, 1))) == 0 {
				promo = true
				if p.Ends != nil {
					ends = append(ends, *p.Ends)
				}
			}
		}
		c.exact(key+" on_promo", lookup(g, "on_promo"), promo)
		c.checked++
		if ge := lookup(g, "promo_ends"); promo && len(ends) > 0 {
			found := false
			for _, e := range ends {
				found = found || jsonEqual(ge, e)
			}
			if !found {
				c.diff(key+" promo_ends", ge, fmt.Sprintf("one of %v", ends), "")
			}
		} else if !promo && ge != nil && ge != "" {
			c.diff(key+" promo_ends", ge, nil, "")
		}
		// promo_ended, where the answer has it (a lookup's offer): the
		// latest end of the stores' promotions that ended, when the
		// offer is not on promotion.
		if ge, ok := g["promo_ended"]; ok {
			var want any
			if s.PromoEnded != nil && !promo {
				want = *s.PromoEnded
			}
			c.exact(key+" promo_ended", ge, want)
		}
		return
	}
	// M9: the unit price, per the basis of the size, of the price written.
	c.exact(key+" unit_price_basis", lookup(g, "unit_price_basis"), s.UnitBasis)
	if s.UnitFactor == nil {
		c.exact(key+" unit_price", lookup(g, "unit_price"), nil)
		return
	}
	price, ok := ratOf(lookup(g, "price"))
	if !ok {
		return
	}
	f, _ := ratOf(*s.UnitFactor)
	// offers.sql's factor is a rounded numeric; recompute it exactly
	// would need the quantity: its 20 digits are far below a half-step.
	exact := new(big.Rat).Mul(new(big.Rat).Mul(price, big.NewRat(100, 1)), f)
	c.money(key+" unit_price", lookup(g, "unit_price"), exact.FloatString(12))
}

// checkOffers compares every row of the offers export with the SQL's
// offers: the same set of current offers, and each one's figures.
func checkOffers(t *testing.T, fx *fixture) {
	sqlRows := fx.sqlOffers(t)
	f, err := os.Open(fx.offers)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := records[0]
	var goRows []map[string]any
	for _, rec := range records[1:] {
		m := map[string]any{}
		for i, h := range head {
			switch v := rec[i]; {
			case h == "on_promo":
				m[h] = v == "true"
			case v == "" && (h == "promo_ends" || h == "promo_ended" || h == "unit_price"):
				m[h] = nil
			case h == "price" || h == "regular_price" || h == "min_price" || h == "max_price" || h == "unit_price" || h == "store_count":
				m[h] = json.Number(v)
			default:
				m[h] = v
			}
		}
		goRows = append(goRows, m)
	}
	for _, part := range []struct {
		name string
		unit bool
	}{{"export rows", false}, {"unit_price (M9)", true}} {
		t.Run(part.name, func(t *testing.T) {
			c := newChecker(t, "export offers")
			seen := map[string]bool{}
			for _, g := range goRows {
				key := fmt.Sprintf("%s %s %s", g["province"], g["banner"], g["external_sku"])
				seen[key] = true
				s := sqlRows[key]
				if s == nil {
					c.diff(key, "an offer", "no current offer", "")
					continue
				}
				checkOffer(c, key, g, s, part.unit)
			}
			c.checked++
			for key := range sqlRows {
				if !seen[key] {
					c.diff(key, "no offer", "a current offer", "")
				}
			}
			c.done()
		})
	}
}

// checkLookup compares lookup_product's offers with the SQL's for a few
// barcodes across provinces.
func checkLookup(t *testing.T, fx *fixture) {
	sqlRows := fx.sqlOffers(t)
	byUPC := map[string][]*sqlOffer{}
	for _, o := range sqlRows {
		byUPC[o.Province+" "+o.UPC] = append(byUPC[o.Province+" "+o.UPC], o)
	}
	var upcs []string
	// the barcodes with the most current offers in ON, plus the README's
	fx.query(t, `SELECT json_agg(upc) FROM (SELECT upc FROM cur WHERE province = 'ON'
		GROUP BY upc ORDER BY count(*) DESC, upc LIMIT 3) x`, &upcs)
	if !slices.Contains(upcs, "067000378089") {
		upcs = append(upcs, "067000378089")
	}
	for _, p := range provinces {
		for _, upc := range upcs {
			t.Run(p+" "+upc, func(t *testing.T) {
				res, err := fx.svc.LookupProduct(context.Background(), grocery.LookupInput{UPC: upc, Province: p, Limit: grocery.Some(50)})
				if err != nil {
					t.Fatal(err)
				}
				g := asJSON(t, res)
				c := newChecker(t, fmt.Sprintf("lookup_product upc=%s province=%s", upc, p))
				want := byUPC[p+" "+upc]
				c.exact("total", lookup(g, "total"), len(want))
				offers, _ := g["offers"].([]any)
				var prev *big.Rat
				for i, o := range offers {
					om := o.(map[string]any)
					key := fmt.Sprintf("offers[%d] %s %s", i, om["banner"], om["external_sku"])
					s := sqlRows[p+" "+fmt.Sprint(om["banner"])+" "+fmt.Sprint(om["external_sku"])]
					if s == nil {
						c.diff(key, "an offer", "no current offer", "")
						continue
					}
					checkOffer(c, key, om, s, false)
					// cheapest first
					pr, _ := ratOf(om["price"])
					if prev != nil && pr != nil && pr.Cmp(prev) < 0 {
						c.diff(key+" order", om["price"], "cheapest first", "")
					}
					prev = pr
				}
				c.done()
			})
		}
	}
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
