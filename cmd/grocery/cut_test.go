package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// withCheckDigit completes 11 digits to a UPC-A with its GS1 check digit
// (weights 3,1,3,... from the right).
func withCheckDigit(digits string) string {
	sum := 0
	for i := range len(digits) {
		w := 1
		if (len(digits)-i)%2 == 1 {
			w = 3
		}
		sum += w * int(digits[i]-'0')
	}
	return digits + string(rune('0'+(10-sum%10)%10))
}

// cutDB imports a hand-made data file for the tests of cut lists:
//   - 53 active stores: 50 Loblaws, one No Frills and one Metro in ON, one
//     Maxi in QC;
//   - 2% Milk (066800000152) at Loblaws, No Frills and Metro in ON: 3 offers;
//   - Chocolate Milk at Loblaws and Oat Milk at No Frills: with 2% Milk,
//     3 products match "milk" in ON, in 5 entries;
//   - Tomato Soup 1..52 at Loblaws: 52 products match "soup" in ON.
func cutDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var st strings.Builder
	st.WriteString("store_id,banner,province,name,city,postal_code,latitude,longitude\n")
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&st, "on-lob-%d,loblaws,ON,Loblaws %d,Toronto,M5J 2R6,43.64,-79.37\n", i, i)
	}
	st.WriteString("on-nf-1,no-frills,ON,No Frills Dundas,Toronto,M6J 1W3,43.65,-79.42\n")
	st.WriteString("on-met-1,metro,ON,Metro College,Toronto,M6G 1A1,43.66,-79.41\n")
	st.WriteString("qc-maxi-1,maxi,QC,Maxi Mont-Royal,Montréal,H2J 1X6,45.52,-73.58\n")

	var obs strings.Builder
	obs.WriteString("date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n")
	const d = "2026-11-18"
	obs.WriteString(d + ",on-lob-1,loblaws,20001,4.99,,,066800000152,2% Milk,Natrel,2 L,Dairy & Eggs\n")
	obs.WriteString(d + ",on-nf-1,no-frills,20001,4.79,,,066800000152,,,,\n")
	obs.WriteString(d + ",on-met-1,metro,M20001,5.29,,,066800000152,,,,\n")
	obs.WriteString(d + ",on-lob-1,loblaws,20002,3.49,,," + withCheckDigit("06680000016") + ",Chocolate Milk,Natrel,1 L,Dairy & Eggs\n")
	obs.WriteString(d + ",on-nf-1,no-frills,20003,4.29,,," + withCheckDigit("06680000017") + ",Oat Milk,Oatly,1.75 L,Dairy & Eggs\n")
	for i := 1; i <= 52; i++ {
		upc := withCheckDigit(fmt.Sprintf("060100000%02d", i))
		fmt.Fprintf(&obs, "%s,on-lob-1,loblaws,3%04d,1.99,,,%s,Tomato Soup %d,Campbell's,284 mL,Pantry\n", d, i, upc, i)
	}
	db := filepath.Join(dir, "cut.db")
	ok(t, cli(t, nil, "import", "--db", db, writeFile(t, dir, "stores.csv", st.String()), writeFile(t, dir, "obs.csv", obs.String())))
	return db
}

// TestCutLists checks that a table cut by --limit says so and how to see
// the rest, and that the JSON carries the total.
func TestCutLists(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	db := cutDB(t)
	for _, tc := range []struct {
		name string
		args []string
		want string // the line that says the list was cut; "" for none
	}{
		{"LookupCut", []string{"lookup", "066800000152", "--province", "ON", "--limit", "2"}, "2 of 3 offers (--limit 3 for all, or --offset 2 for the next page)"},
		{"LookupWhole", []string{"lookup", "066800000152", "--province", "ON"}, ""},
		{"SearchCut", []string{"search", "milk", "--province", "ON", "--limit", "2"}, "2 of 3 products (--limit 3 for all, or --offset 2 for the next page)"},
		{"SearchWhole", []string{"search", "milk", "--province", "ON"}, ""},
		{"SearchOverMax", []string{"search", "soup", "--province", "ON"},
			"10 of 52 products (--limit 52 for all, or --offset 10 for the next page)"},
		{"SearchMax", []string{"search", "soup", "--province", "ON", "--limit", "50"}, "50 of 52 products (--limit 52 for all, or --offset 50 for the next page)"},
		{"StoresCut", []string{"stores", "--province", "ON", "--banner", "loblaws", "--limit", "2"}, "2 of 50 reference stores (--limit 50 for all, or --offset 2 for the next page)"},
		{"StoresOverMax", []string{"stores"},
			"10 of 53 reference stores (--limit 53 for all, or --offset 10 for the next page)"},
		{"StoresMax", []string{"stores", "--limit", "50"}, "50 of 53 reference stores (--limit 53 for all, or --offset 50 for the next page)"},
		{"StoresNextPage", []string{"stores", "--limit", "50", "--offset", "50"}, "51 to 53 of 53 reference stores"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cli(t, nil, append(tc.args, "--db", db)...)
			ok(t, r)
			got := findLine(r.stdout, " of ")
			if strings.HasPrefix(got, "Offers in") || strings.HasPrefix(got, "Price history of") {
				got = ""
			}
			if got != tc.want {
				t.Errorf("cut line: got %q, want %q\n%s", got, tc.want, r.stdout)
			}
		})
	}
	t.Run("StoresWhole", func(t *testing.T) {
		r := cli(t, nil, "stores", "--province", "ON", "--banner", "loblaws", "--limit", "50", "--db", db)
		ok(t, r)
		if !strings.HasSuffix(r.stdout, "\n50 reference stores.\n") {
			t.Errorf("got %q at the end, want the count of a whole list", r.stdout[max(0, len(r.stdout)-60):])
		}
	})
	t.Run("SearchRows", func(t *testing.T) {
		// --limit 2 is two products of three, each product's rows
		// together, whatever number of banners each has.
		r := cli(t, nil, "search", "milk", "--province", "ON", "--limit", "2", "--json", "--db", db)
		ok(t, r)
		var got grocery.SearchResult
		decode(t, r.stdout, &got)
		var upcs []string
		for _, e := range got.Results {
			if len(upcs) == 0 || upcs[len(upcs)-1] != e.UPC {
				upcs = append(upcs, e.UPC)
			}
		}
		if len(upcs) != 2 || got.Total != 3 {
			t.Errorf("got products %v (total %d), want 2 distinct products, each once, total 3", upcs, got.Total)
		}
	})
	t.Run("LookupJSON", func(t *testing.T) {
		r := cli(t, nil, "lookup", "066800000152", "--province", "ON", "--limit", "2", "--json", "--db", db)
		ok(t, r)
		var got grocery.LookupResult
		decode(t, r.stdout, &got)
		if len(got.Offers) != 2 || got.Total != 3 || got.Offers[0].Banner != "no-frills" || got.Offers[1].Banner != "loblaws" {
			t.Errorf("got %d offers (total %d): %+v; want No Frills 4.79 and Loblaws 4.99 of 3", len(got.Offers), got.Total, got.Offers)
		}
	})
}

// The basis line counts in the singular when there is one of a thing.
func TestBasisNotePlurals(t *testing.T) {
	for _, tc := range []struct {
		b    grocery.Basis
		want string
	}{
		{grocery.Basis{Provinces: []string{"NU"}, Banners: []string{"northern"}, Stores: 1, Observations: 1, Comparison: "same_barcode"},
			"\nBasis: 1 province, 1 banner, 1 reference store, 1 store price, compared by same barcode.\n"},
		{grocery.Basis{Provinces: []string{"ON", "QC"}, Banners: []string{}, Stores: 1200, Observations: 2, Comparison: "unit_price"},
			"\nBasis: 2 provinces, 0 banners, 1,200 reference stores, 2 store prices, compared by unit price.\n"},
	} {
		var buf strings.Builder
		printBasisNote(&buf, tc.b)
		if got := buf.String(); !strings.HasPrefix(got, tc.want[:len(tc.want)-2]) {
			t.Errorf("basis note:\n got %q\nwant %q", got, tc.want)
		}
	}
}

// Help says what is there: serve lists both MCP eras and REST beyond the
// three store-price paths; brief's --json is not an MCP tool's result
// (there is no brief tool).
func TestHelpSaysWhatIsThere(t *testing.T) {
	serve := cli(t, nil, "serve", "--help")
	for _, want := range []string{"2026-07-28", "2025-06-18", "/docs"} {
		if !strings.Contains(serve.stdout, want) {
			t.Errorf("serve --help does not say %q:\n%s", want, serve.stdout)
		}
	}
	// Every path of the REST interface's document, by its name.
	doc, err := os.ReadFile(filepath.Join("..", "..", "restserver", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var api struct{ Paths map[string]any }
	if err := json.Unmarshal(doc, &api); err != nil {
		t.Fatal(err)
	}
	for path := range api.Paths {
		if !regexp.MustCompile(regexp.QuoteMeta(path) + `[,;) \n]`).MatchString(serve.stdout) {
			t.Errorf("serve --help does not name the REST path %s:\n%s", path, serve.stdout)
		}
	}
	brief := cli(t, nil, "brief", "--help")
	if strings.Contains(brief.stdout, "MCP tool") {
		t.Errorf("brief --help speaks of an MCP tool:\n%s", brief.stdout)
	}
}
