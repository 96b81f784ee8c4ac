package grocery

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// namesStoresCSV holds a store in Ontario and one in Quebec.
var namesStoresCSV = lines(
	storesHeader,
	"ON-LOB-001,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2R6,43.6410,-79.3760,true",
	"QC-IGA-001,iga,QC,IGA Plateau,Montréal,H2T 1S4,45.5200,-73.5800,true",
)

const oatUPC = "066800000152"

// The Ontario rows name the barcode in English.
var onOatCSV = lines(
	"date,store_id,banner,external_sku,price,upc,name,brand,size,category",
	"2026-11-18,ON-LOB-001,loblaws,21001,4.49,"+oatUPC+",Newcomer Oat Milk,Earth's Own,1.75 L,Dairy & Eggs",
)

// The Quebec rows name the same barcode in French, in the name column.
var qcOatCSV = lines(
	"date,store_id,banner,external_sku,price,upc,name,brand,size,category",
	"2026-11-18,QC-IGA-001,iga,IGA-881,4.79,"+oatUPC+",Lait d'avoine,Earth's Own,1.75 L,Dairy & Eggs",
)

// The Quebec rows with both names.
var qcOatBilingualCSV = lines(
	"date,store_id,banner,external_sku,price,upc,name,name_fr,brand,size,category",
	"2026-11-18,QC-IGA-001,iga,IGA-881,4.79,"+oatUPC+",Newcomer Oat Milk,Lait d'avoine,Earth's Own,1.75 L,Dairy & Eggs",
)

// lookupName returns the product name LookupProduct gives in province
// and lang.
func lookupName(tb testing.TB, svc *Service, province, lang string) string {
	tb.Helper()
	res, err := svc.LookupProduct(context.Background(), LookupInput{UPC: oatUPC, Province: province, Lang: lang})
	if err != nil {
		tb.Fatalf("lookup in %s, lang %q: %v", province, lang, err)
	}
	return res.Product.Name
}

// A later import that names a barcode differently does not rename the
// product for the provinces that know it by its first name: the report
// counts the name kept and says why.
func TestImport_LaterNameDoesNotRename(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	rep := mustImport(t, svc, "qc.csv", qcOatCSV, nil)
	for _, prov := range []string{"ON", "QC"} {
		if got, want := lookupName(t, svc, prov, ""), "Newcomer Oat Milk"; got != want {
			t.Errorf("lookup in %s after the Quebec import: got name %q, want %q", prov, got, want)
		}
	}
	if rep.NamesKept != 1 {
		t.Errorf("NamesKept: got %d, want 1", rep.NamesKept)
	}
	want := `qc.csv:2: name: "Lait d'avoine" differs from "Newcomer Oat Milk", the stored name for upc 066800000152, which it keeps`
	if len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], want) || !strings.Contains(rep.Problems[0], "name_fr") || !strings.Contains(rep.Problems[0], "--update-names") {
		t.Errorf("Problems: got %q, want one starting %q and naming name_fr and --update-names", rep.Problems, want)
	}
	// The same file again keeps the name again, and says so again.
	if rep := mustImport(t, svc, "qc.csv", qcOatCSV, nil); rep.NamesKept != 1 || rep.Unchanged != 1 {
		t.Errorf("the Quebec file again: got %d names kept, %d unchanged; want 1, 1", rep.NamesKept, rep.Unchanged)
	}
}

// With UpdateNames the file's name replaces the stored one everywhere.
func TestImport_UpdateNames(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	rep := mustImport(t, svc, "qc.csv", qcOatCSV, &ImportOptions{UpdateNames: true})
	if rep.NamesKept != 0 || len(rep.Problems) != 0 {
		t.Errorf("report: got %d names kept, problems %q; want none", rep.NamesKept, rep.Problems)
	}
	for _, prov := range []string{"ON", "QC"} {
		if got, want := lookupName(t, svc, prov, ""), "Lait d'avoine"; got != want {
			t.Errorf("lookup in %s after --update-names: got name %q, want %q", prov, got, want)
		}
	}
	// Search follows the new name: the old words no longer find it.
	for q, want := range map[string]int{"newcomer": 0, "lait": 1} {
		res, err := svc.SearchProducts(context.Background(), SearchInput{Query: q, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want {
			t.Errorf("search %q after the rename: got %d products, want %d", q, res.Total, want)
		}
	}
}

// Within one file the first name given for a barcode is kept, unless
// UpdateNames, with which the last one wins.
func TestImport_NamesWithinFile(t *testing.T) {
	file := lines(
		"date,store_id,banner,external_sku,price,upc,name,name_fr,brand",
		"2026-11-17,ON-LOB-001,loblaws,21001,4.49,"+oatUPC+",Newcomer Oat Milk,,Earth's Own",
		"2026-11-18,ON-LOB-001,loblaws,21001,4.49,"+oatUPC+",Oat Beverage,Boisson d'avoine,Earth's Own",
		"2026-11-18,QC-IGA-001,iga,IGA-881,4.79,"+oatUPC+",Oat Drink,Lait d'avoine,Earth's Own",
	)
	for _, tt := range []struct {
		name           string
		update         bool
		wantEN, wantFR string
		wantKept       int
	}{
		{"FirstKept", false, "Newcomer Oat Milk", "Boisson d'avoine", 1},
		{"UpdateNamesLastWins", true, "Oat Drink", "Lait d'avoine", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			svc := openImportService(t)
			mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
			rep := mustImport(t, svc, "prices.csv", file, &ImportOptions{UpdateNames: tt.update})
			if rep.NamesKept != tt.wantKept {
				t.Errorf("NamesKept: got %d, want %d (problems %q)", rep.NamesKept, tt.wantKept, rep.Problems)
			}
			if tt.wantKept > 0 && (len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], `prices.csv:3: name: "Oat Beverage" differs from "Newcomer Oat Milk", an earlier row's name`)) {
				t.Errorf("Problems: got %q, want one note on line 3", rep.Problems)
			}
			if got := lookupName(t, svc, "ON", "en"); got != tt.wantEN {
				t.Errorf("English name: got %q, want %q", got, tt.wantEN)
			}
			if got := lookupName(t, svc, "ON", "fr"); got != tt.wantFR {
				t.Errorf("French name: got %q, want %q", got, tt.wantFR)
			}
		})
	}
}

// name_fr gives the French name in every format the import reads; lang
// shows it, search finds the product by it, and the English name stays.
func TestImport_NameFr(t *testing.T) {
	pq := func(t *testing.T) []byte { return textFile(t, qcOatBilingualCSV, nil) }
	for _, tt := range []struct {
		name string
		file func(t *testing.T) []byte
	}{
		{"prices.csv", func(*testing.T) []byte { return []byte(qcOatBilingualCSV) }},
		{"prices.jsonl", func(*testing.T) []byte {
			return []byte(`{"date":"2026-11-18","store_id":"QC-IGA-001","banner":"iga","external_sku":"IGA-881","price":4.79,"upc":"` + oatUPC +
				`","name":"Newcomer Oat Milk","name_fr":"Lait d'avoine","brand":"Earth's Own","size":"1.75 L","category":"Dairy & Eggs"}` + "\n")
		}},
		{"prices.xlsx", func(t *testing.T) []byte {
			return workbook(t, "Prix", header("date,store_id,banner,external_sku,price,upc,name,name_fr,brand,size,category"),
				[]any{time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC), "QC-IGA-001", "iga", "IGA-881", 4.79, oatUPC, "Newcomer Oat Milk", "Lait d'avoine", "Earth's Own", "1.75 L", "Dairy & Eggs"})
		}},
		{"prices.parquet", pq},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			svc := openImportService(t)
			ctx := context.Background()
			mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
			mustImport(t, svc, "on.csv", onOatCSV, nil)
			rep, err := importBytes(t, svc, tt.name, tt.file(t))
			if err != nil {
				t.Fatal(err)
			}
			if rep.NamesKept != 0 || len(rep.Problems) != 0 {
				t.Errorf("report: got %d names kept, problems %q; want none: the English name is the stored one", rep.NamesKept, rep.Problems)
			}
			for _, c := range []struct{ province, lang, want string }{
				{"ON", "", "Newcomer Oat Milk"}, {"ON", "en", "Newcomer Oat Milk"}, {"QC", "EN", "Newcomer Oat Milk"},
				{"QC", "fr", "Lait d'avoine"}, {"ON", "FR", "Lait d'avoine"},
			} {
				if got := lookupName(t, svc, c.province, c.lang); got != c.want {
					t.Errorf("lookup in %s, lang %q: got %q, want %q", c.province, c.lang, got, c.want)
				}
			}
			// Both names find it, accents and elisions aside, in both
			// provinces; each answer names it in the lang asked for.
			for _, q := range []string{"avoine", "lait d'avoine", "LAIT DAVOINE", "oat milk", "earth"} {
				for _, lang := range []string{"en", "fr"} {
					res, err := svc.SearchProducts(ctx, SearchInput{Query: q, Province: "QC", Lang: lang})
					if err != nil {
						t.Fatal(err)
					}
					want := map[string]string{"en": "Newcomer Oat Milk", "fr": "Lait d'avoine"}[lang]
					if res.Total != 1 || len(res.Results) != 1 || res.Results[0].Name != want {
						t.Errorf("search %q in QC, lang %s: got %d products %+v, want one named %q", q, lang, res.Total, res.Results, want)
					}
				}
			}
			res, err := svc.SearchProducts(ctx, SearchInput{Query: "avoine", Province: "ON"})
			if err != nil || res.Total != 1 {
				t.Errorf("search avoine in ON: got %+v, %v; want the product", res, err)
			}
		})
	}
}

// A French name given later (a name_fr-only row, no English name) is
// added to a product with offers, and search finds it by its words at
// once; the English name, brand, size and category stay, and the file's
// aggregates stay consistent.
func TestImport_NameFrLater(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	mustImport(t, svc, "qc.csv", lines(
		"date,store_id,banner,external_sku,price,upc,name_fr",
		"2026-11-18,QC-IGA-001,iga,IGA-881,4.79,"+oatUPC+",Lait d'avoine",
	), nil)
	res, err := svc.SearchProducts(context.Background(), SearchInput{Query: "avoine", Province: "ON", Lang: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Results[0].Name != "Lait d'avoine" {
		t.Errorf("search avoine in ON: got %+v, want the product named Lait d'avoine", res.Results)
	}
	res2, err := svc.LookupProduct(context.Background(), LookupInput{UPC: oatUPC, Province: "QC"})
	if err != nil {
		t.Fatal(err)
	}
	want := Product{UPC: oatUPC, GTIN: "00" + oatUPC, Name: "Newcomer Oat Milk", Brand: "Earth's Own", Size: "1.75 L", Category: "Dairy & Eggs"}
	if res2.Product != want {
		t.Errorf("product after a name_fr-only row: got %+v, want %+v", res2.Product, want)
	}
	if err := svc.Verify(context.Background()); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// A product without a French name shows its English name for lang fr,
// in every query that names products; a bad lang is an invalid argument.
func TestLang(t *testing.T) {
	svc := openImportService(t)
	ctx := context.Background()
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	const want = "Newcomer Oat Milk"
	if got := lookupName(t, svc, "ON", "fr"); got != want {
		t.Errorf("lookup: got %q, want %q", got, want)
	}
	hist, err := svc.PriceHistory(ctx, HistoryInput{SKU: "21001", Banner: "loblaws", Province: "ON", Lang: "fr"})
	if err != nil || hist.Name != want {
		t.Errorf("history: got %+v, %v; want %q", hist, err, want)
	}
	sp, err := svc.StorePrice(ctx, StorePriceInput{Banner: "loblaws", Store: "ON-LOB-001", UPC: oatUPC, Lang: "fr"})
	if err != nil || sp.Name != want {
		t.Errorf("store price: got %+v, %v; want %q", sp, err, want)
	}
	// With a French name, the store queries give it for fr.
	mustImport(t, svc, "qc.csv", qcOatBilingualCSV, nil)
	sps, err := svc.StorePrices(ctx, StorePricesInput{Banner: "loblaws", Store: "ON-LOB-001", Query: "avoine", Lang: "fr"})
	if err != nil || len(sps.Results) != 1 || sps.Results[0].Name != "Lait d'avoine" {
		t.Errorf("store prices: got %+v, %v; want the product named Lait d'avoine", sps, err)
	}
	ss, err := svc.SearchStores(ctx, StoreSearchInput{Query: "avoine", Province: "QC", Lang: "fr"})
	if err != nil || len(ss.Results) != 1 || ss.Results[0].ProductName != "Lait d'avoine" {
		t.Errorf("store search: got %+v, %v; want the product named Lait d'avoine", ss, err)
	}
	for _, call := range []struct {
		name string
		err  error
	}{
		{"LookupProduct", func() error {
			_, err := svc.LookupProduct(ctx, LookupInput{UPC: oatUPC, Province: "ON", Lang: "de"})
			return err
		}()},
		{"SearchProducts", func() error {
			_, err := svc.SearchProducts(ctx, SearchInput{Query: "oat", Province: "ON", Lang: "french"})
			return err
		}()},
		{"SearchStores", func() error {
			_, err := svc.SearchStores(ctx, StoreSearchInput{Query: "oat", Province: "ON", Lang: "de"})
			return err
		}()},
	} {
		if ErrorCode(call.err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(call.err), "want en (English, the default) or fr (French)") {
			t.Errorf("%s with a bad lang: got %v, want %s naming en and fr", call.name, call.err, EINVALIDARGUMENT)
		}
	}
}

// The report carries names_kept in its JSON, also when it is 0.
func TestImportReportNamesKeptJSON(t *testing.T) {
	b, err := json.Marshal(&ImportReport{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"names_kept":0`) {
		t.Errorf("got %s, want names_kept", b)
	}
}

// An export carries both names, and imported into a new file it gives
// the product both names back.
func TestExportNamesImportBack(t *testing.T) {
	svc := openImportService(t)
	ctx := context.Background()
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	mustImport(t, svc, "qc.csv", qcOatBilingualCSV, nil)
	var out strings.Builder
	if _, err := svc.Export(ctx, ExportInput{Format: "csv"}, &out); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0][6:8], ","); got != "name,name_fr" {
		t.Fatalf("columns 7 and 8: got %s, want name,name_fr", got)
	}
	// The columns the import takes.
	var back strings.Builder
	w := csv.NewWriter(&back)
	for _, rec := range recs {
		w.Write(slices.Concat(rec[:3], rec[4:13], rec[14:15]))
	}
	w.Flush()
	second := openImportService(t)
	mustImport(t, second, "stores.csv", namesStoresCSV, nil)
	if rep := mustImport(t, second, "back.csv", back.String(), nil); rep.NamesKept != 0 || rep.New != 2 {
		t.Fatalf("import of the export: got %+v, want 2 new rows, no name kept", rep)
	}
	for lang, want := range map[string]string{"en": "Newcomer Oat Milk", "fr": "Lait d'avoine"} {
		if got := lookupName(t, second, "ON", lang); got != want {
			t.Errorf("after the round trip, lang %s: got %q, want %q", lang, got, want)
		}
	}

	// JSON Lines: a product without a French name has name_fr null, which
	// imports as none.
	third := openImportService(t)
	mustImport(t, third, "stores.csv", namesStoresCSV, nil)
	mustImport(t, third, "on.csv", onOatCSV, nil)
	var jl strings.Builder
	if _, err := third.Export(ctx, ExportInput{Format: "jsonl"}, &jl); err != nil {
		t.Fatal(err)
	}
	var row map[string]any
	if err := json.Unmarshal([]byte(jl.String()), &row); err != nil {
		t.Fatal(err)
	}
	if v, ok := row["name_fr"]; !ok || v != nil {
		t.Fatalf("JSON Lines name_fr: got %v (present %v), want null", v, ok)
	}
	for _, f := range []string{"province", "on_promo", "currency"} {
		delete(row, f)
	}
	back2, _ := json.Marshal(row)
	fourth := openImportService(t)
	mustImport(t, fourth, "stores.csv", namesStoresCSV, nil)
	mustImport(t, fourth, "back.jsonl", string(back2)+"\n", nil)
	if got := lookupName(t, fourth, "ON", "fr"); got != "Newcomer Oat Milk" {
		t.Errorf("after the JSON Lines round trip, lang fr: got %q, want the English name (no French one)", got)
	}
}

// A French name, once given, is kept as an English one is: a later
// different name_fr is noted as such, and --update-names replaces it.
func TestImport_NameFrKept(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	mustImport(t, svc, "qc.csv", qcOatBilingualCSV, nil)
	other := lines(
		"date,store_id,banner,external_sku,price,upc,name_fr",
		"2026-11-18,QC-IGA-001,iga,IGA-881,4.79,"+oatUPC+",Boisson d'avoine",
	)
	rep := mustImport(t, svc, "other.csv", other, nil)
	want := `other.csv:2: name_fr: "Boisson d'avoine" differs from "Lait d'avoine", the stored name_fr for upc 066800000152, which it keeps`
	if rep.NamesKept != 1 || len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], want) {
		t.Errorf("report: got %d kept, problems %q; want 1 and a note starting %q", rep.NamesKept, rep.Problems, want)
	}
	if got := lookupName(t, svc, "QC", "fr"); got != "Lait d'avoine" {
		t.Errorf("French name: got %q, want it kept", got)
	}
	mustImport(t, svc, "other.csv", other, &ImportOptions{UpdateNames: true})
	if got := lookupName(t, svc, "QC", "fr"); got != "Boisson d'avoine" {
		t.Errorf("French name after UpdateNames: got %q, want it replaced", got)
	}
}

// A product_type column records the product's type, which a lookup shows;
// a later row without one does not clear it, and a later row with another
// replaces it (a type is a fact, not a name).
func TestImport_ProductType(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", namesStoresCSV, nil)
	typed := lines(
		"date,store_id,banner,external_sku,price,upc,name,brand,size,category,product_type",
		"2026-11-18,ON-LOB-001,loblaws,21001,4.49,"+oatUPC+",Newcomer Oat Milk,Earth's Own,1.75 L,Dairy & Eggs,oat milk",
	)
	typeOf := func() string {
		t.Helper()
		res, err := svc.LookupProduct(context.Background(), LookupInput{UPC: oatUPC, Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Product.Type
	}
	mustImport(t, svc, "typed.csv", typed, nil)
	if got := typeOf(); got != "oat milk" {
		t.Fatalf("after the typed file: got product type %q, want %q", got, "oat milk")
	}
	mustImport(t, svc, "on.csv", onOatCSV, nil)
	if got := typeOf(); got != "oat milk" {
		t.Errorf("after a file without product_type: got %q, want %q kept", got, "oat milk")
	}
	mustImport(t, svc, "retyped.csv", strings.Replace(typed, ",oat milk", ",plant-based beverage", 1), nil)
	if got := typeOf(); got != "plant-based beverage" {
		t.Errorf("after a file with another type: got %q, want %q", got, "plant-based beverage")
	}
}
