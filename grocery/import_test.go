package grocery

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/grocerydata/grocery/grocery/internal/exportrows"
	"github.com/grocerydata/grocery/grocery/internal/importrow"
	"github.com/grocerydata/grocery/internal/rowwrite"
)

// importClock is the fixed clock of the import tests: observations may be
// dated up to 2026-11-20.
func importClock() time.Time { return time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC) }

// openImportService opens a new data file in a temporary directory with the
// fixed clock.
func openImportService(tb testing.TB) *Service {
	tb.Helper()
	svc, err := Open(filepath.Join(tb.TempDir(), "grocery.db"), &Options{Now: importClock})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { svc.Close() })
	return svc
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

const (
	storesHeader = "store_id,banner,province,name,city,postal_code,latitude,longitude,active"
	obsHeader    = "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category"
)

// testStoresCSV holds three valid stores, one of them inactive.
var testStoresCSV = lines(
	storesHeader,
	"ON-LOB-001,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2R6,43.6410,-79.3760,true",
	"ON-NOF-001,No Frills,Ontario,No Frills Dundas,Toronto,m6j1w3,43.6500,-79.4200,yes",
	`QC-IGA-001,iga,qc,"IGA Plateau, Mont-Royal",Montréal,H2T 1S4,45.5200,-73.5800,`,
	"ON-LOB-002,loblaws,ON,Loblaws Ottawa,Ottawa,K1P 5J2,45.4215,-75.6972,no",
)

// testObsCSV holds five valid observations.
var testObsCSV = lines(
	obsHeader,
	"2026-11-18,ON-LOB-001,loblaws,20001,4.99,,,06680000015,2% Partly Skimmed Milk,Natrel,2 L,Dairy & Eggs",
	"2026-11-18,ON-NOF-001,no-frills,NF-77,4.49,4.79,2026-11-25,066800000152,,,,",
	"2026-11-18,QC-IGA-001,iga,IGA-5,5.29,,,7540123456788,Lait 2 %,Québon,2 L,Produits laitiers",
	"2026-11-17,ON-LOB-001,loblaws,20001,4.99,4.99,,,,,,",
	"2026-11-18,ON-LOB-001,loblaws,30002,$3.99,,,060383000011,Corn Flakes,Kellogg's,340 g,Pantry",
)

func importString(tb testing.TB, svc *Service, name, content string, opts *ImportOptions) (*ImportReport, error) {
	tb.Helper()
	return svc.Import(context.Background(), name, strings.NewReader(content), opts)
}

func mustImport(tb testing.TB, svc *Service, name, content string, opts *ImportOptions) *ImportReport {
	tb.Helper()
	rep, err := importString(tb, svc, name, content, opts)
	if err != nil {
		tb.Fatalf("Import(%s): %v", name, err)
	}
	return rep
}

// csvService opens a Service on a new file holding the stores and the
// observations of two CSV files, closed when the test ends.
func csvService(t *testing.T, stores, obs string) *Service {
	t.Helper()
	svc, err := Open(filepath.Join(t.TempDir(), "data.db"), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mustImport(t, svc, "stores.csv", stores, nil)
	mustImport(t, svc, "obs.csv", obs, nil)
	return svc
}

// counts is the part of a report the tests compare.
type counts struct {
	Kind, Format                                  string
	Rows, New, Updated, Unchanged, Skipped, Notes int
}

func countsOf(r *ImportReport) counts {
	return counts{r.Kind, r.Format, r.Rows, r.New, r.Updated, r.Unchanged, r.Skipped, len(r.Problems)}
}

func TestImport(t *testing.T) {
	storesJSONL := lines(
		`{"store_id":"ON-LOB-001","banner":"loblaws","province":"ON","name":"Loblaws Queens Quay","city":"Toronto","postal_code":"M5J 2R6","latitude":43.641,"longitude":-79.376,"active":true}`,
		``,
		`{"store_id":"ON-NOF-001","banner":"no-frills","province":"ON","name":"No Frills Dundas","city":"Toronto","postal_code":"M6J 1W3","latitude":43.65,"longitude":-79.42}`,
		`{"store_id":"QC-IGA-001","banner":"iga","province":"QC","name":"IGA Plateau","city":"Montréal","postal_code":"H2T 1S4","latitude":"45.52","longitude":"-73.58","active":null}`,
	)
	obsJSONL := lines(
		`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"20001","price":4.99,"upc":"06680000015","name":"2% Partly Skimmed Milk","brand":"Natrel","size":"2 L","category":"Dairy & Eggs"}`,
		`{"date":"2026-11-18","store_id":"ON-NOF-001","banner":"no-frills","external_sku":"NF-77","price":"4.49","regular_price":4.790,"promo_ends":"2026-11-25","upc":null}`,
		`{"date":"2026-11-17","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"20001","price":5}`,
	)
	reordered := lines(
		"price,external_sku,store_id,date,banner",
		"4.99,20001,ON-LOB-001,2026-11-18,loblaws",
		"4.89,20001,ON-LOB-001,2026-11-17,loblaws",
	)

	tests := []struct {
		name     string
		stores   string // imported first as stores.*
		obsName  string
		obs      string
		want     counts
		wantObs  counts
		noStores bool
	}{
		{name: "CSV", stores: testStoresCSV, obsName: "prices.csv", obs: testObsCSV,
			want:    counts{Kind: "stores", Format: "csv", Rows: 4, New: 4},
			wantObs: counts{Kind: "observations", Format: "csv", Rows: 5, New: 5}},
		{name: "JSONL", stores: storesJSONL, obsName: "prices.jsonl", obs: obsJSONL,
			want:    counts{Kind: "stores", Format: "jsonl", Rows: 3, New: 3},
			wantObs: counts{Kind: "observations", Format: "jsonl", Rows: 3, New: 3}},
		{name: "ColumnsInAnotherOrder", stores: testStoresCSV, obsName: "prices.csv", obs: reordered,
			want:    counts{Kind: "stores", Format: "csv", Rows: 4, New: 4},
			wantObs: counts{Kind: "observations", Format: "csv", Rows: 2, New: 2}},
		{name: "HeaderOnly", stores: storesHeader + "\n", obsName: "prices.csv", obs: obsHeader + "\n",
			want:    counts{Kind: "stores", Format: "csv"},
			wantObs: counts{Kind: "observations", Format: "csv"}},
		{name: "BOMAndCRLF", stores: "\ufeff" + strings.ReplaceAll(testStoresCSV, "\n", "\r\n"), obsName: "prices.csv", obs: "\ufeff" + testObsCSV,
			want:    counts{Kind: "stores", Format: "csv", Rows: 4, New: 4},
			wantObs: counts{Kind: "observations", Format: "csv", Rows: 5, New: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := openImportService(t)
			storesName := "stores.csv"
			if strings.HasPrefix(tt.stores, "{") {
				storesName = "stores.jsonl"
			}
			rep := mustImport(t, svc, storesName, tt.stores, nil)
			if diff := cmp.Diff(tt.want, countsOf(rep)); diff != "" {
				t.Errorf("stores report (-want +got):\n%s", diff)
			}
			if rep.File != storesName {
				t.Errorf("File: got %q, want %q", rep.File, storesName)
			}
			rep = mustImport(t, svc, tt.obsName, tt.obs, nil)
			if diff := cmp.Diff(tt.wantObs, countsOf(rep)); diff != "" {
				t.Errorf("observations report (-want +got):\n%s", diff)
			}

			// Importing the same files again changes nothing.
			rep = mustImport(t, svc, storesName, tt.stores, nil)
			if want := (counts{Kind: "stores", Format: tt.want.Format, Rows: tt.want.Rows, Unchanged: tt.want.Rows}); rep.Rows > 0 && countsOf(rep) != want {
				t.Errorf("stores again: got %+v, want %+v", countsOf(rep), want)
			}
			rep = mustImport(t, svc, tt.obsName, tt.obs, nil)
			if want := (counts{Kind: "observations", Format: tt.wantObs.Format, Rows: tt.wantObs.Rows, Unchanged: tt.wantObs.Rows}); rep.Rows > 0 && countsOf(rep) != want {
				t.Errorf("observations again: got %+v, want %+v", countsOf(rep), want)
			}
		})
	}
}

func TestImport_Stores(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	got, err := svc.ListReferenceStores(context.Background(), StoresInput{Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	// ON-LOB-002 is inactive: not a reference store.
	want := []Store{
		{ID: "ON-LOB-001", Banner: "loblaws", BannerName: "Loblaws", Province: "ON", Name: "Loblaws Queens Quay", City: "Toronto", PostalCode: "M5J 2R6", Latitude: 43.641, Longitude: -79.376, Active: true},
		{ID: "ON-NOF-001", Banner: "no-frills", BannerName: "No Frills", Province: "ON", Name: "No Frills Dundas", City: "Toronto", PostalCode: "M6J 1W3", Latitude: 43.65, Longitude: -79.42, Active: true},
	}
	if diff := cmp.Diff(want, got.Stores); diff != "" {
		t.Errorf("stores (-want +got):\n%s", diff)
	}

	// Updating a store's name is an update.
	rep := mustImport(t, svc, "stores.csv", lines(storesHeader,
		"ON-LOB-001,loblaws,ON,Loblaws Queens Quay (renamed),Toronto,M5J 2R6,43.6410,-79.3760,true",
		"ON-NOF-001,no-frills,ON,No Frills Dundas,Toronto,M6J 1W3,43.65,-79.42,1",
	), nil)
	if want := (counts{Kind: "stores", Format: "csv", Rows: 2, Updated: 1, Unchanged: 1}); countsOf(rep) != want {
		t.Errorf("got %+v, want %+v", countsOf(rep), want)
	}
}

func TestImport_Observations(t *testing.T) {
	ctx := context.Background()
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	mustImport(t, svc, "prices.csv", testObsCSV, nil)

	t.Run("ElevenDigitUPC", func(t *testing.T) {
		// 06680000015 is stored as 066800000152: the check digit is computed.
		res, err := svc.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		wantProduct := Product{UPC: "066800000152", GTIN: "00066800000152", Name: "2% Partly Skimmed Milk", Brand: "Natrel", Size: "2 L", Category: "Dairy & Eggs"}
		if diff := cmp.Diff(wantProduct, res.Product); diff != "" {
			t.Errorf("product (-want +got):\n%s", diff)
		}
		skus := map[string]Cents{}
		for _, o := range res.Offers {
			skus[o.Banner+"/"+o.ExternalSKU] = o.Price
		}
		if want := map[string]Cents{"loblaws/20001": 499, "no-frills/NF-77": 449}; !cmp.Equal(want, skus) {
			t.Errorf("offers: got %v, want %v", skus, want)
		}
	})

	t.Run("Promotion", func(t *testing.T) {
		res, err := svc.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Offers {
			if o.Banner != "no-frills" {
				continue
			}
			if !o.OnPromo || o.RegularPrice != 479 || o.PromoEnds == nil || o.PromoEnds.String() != "2026-11-25" {
				t.Errorf("no-frills offer: got on_promo %v, regular %v, promo_ends %v; want true, 4.79, 2026-11-25", o.OnPromo, o.RegularPrice, o.PromoEnds)
			}
		}
	})

	t.Run("UpdatePrice", func(t *testing.T) {
		rep := mustImport(t, svc, "prices.csv", lines(obsHeader,
			"2026-11-18,ON-LOB-001,loblaws,20001,4.79,4.99,2026-11-24,,,,,",
			"2026-11-17,ON-LOB-001,loblaws,20001,4.99,,,,,,,",
		), nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 2, Updated: 1, Unchanged: 1}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
		res, err := svc.PriceHistory(ctx, HistoryInput{SKU: "20001", Banner: "loblaws", Province: "ON", Period: "7d"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats == nil || res.Stats.Latest != 479 {
			t.Errorf("history stats: got %+v, want latest 4.79", res.Stats)
		}
	})

	t.Run("RepeatedRows", func(t *testing.T) {
		row := "2026-11-16,ON-LOB-001,loblaws,30002,3.99,,,060383000011,Corn Flakes,Kellogg's,340 g,Pantry"
		rep := mustImport(t, svc, "prices.csv", lines(obsHeader, row, row), nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 2, New: 1, Unchanged: 1}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
	})

	t.Run("RestrictedUPC", func(t *testing.T) {
		rep := mustImport(t, svc, "prices.csv", lines(obsHeader,
			"2026-11-18,ON-LOB-001,loblaws,DELI-9,7.49,,,212345678909,Sliced Ham,,per kg,Deli",
		), nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 1, New: 1, Notes: 1}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
		if len(rep.Problems) == 1 && !strings.HasPrefix(rep.Problems[0], "prices.csv:2: upc: 212345678909 is a restricted-circulation") {
			t.Errorf("problem: got %q", rep.Problems[0])
		}
		// The product is not in the catalogue, the price is kept.
		found, err := svc.SearchProducts(ctx, SearchInput{Query: "sliced ham", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(found.Results) != 0 {
			t.Errorf("search: got %+v, want no product", found.Results)
		}
		res, err := svc.PriceHistory(ctx, HistoryInput{SKU: "DELI-9", Banner: "loblaws", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != 1 || res.Points[0].Median != 749 || res.UPC != "" {
			t.Errorf("history: got points %+v, upc %q; want one point at 7.49 and no upc", res.Points, res.UPC)
		}
	})

	t.Run("UPCWithoutName", func(t *testing.T) {
		// A upc without a name links the SKU and keeps the product's facts.
		mustImport(t, svc, "prices.csv", lines(obsHeader,
			"2026-11-18,ON-LOB-002,loblaws,20001,4.99,,,066800000152,,,,",
		), nil)
		res, err := svc.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Product.Name != "2% Partly Skimmed Milk" || res.Product.Brand != "Natrel" {
			t.Errorf("product: got %+v, want the facts kept", res.Product)
		}
	})
}

func TestImport_Invalid(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)

	good := "ON-LOB-009,loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6410,-79.3760"
	sh := "store_id,banner,province,name,city,postal_code,latitude,longitude"
	obs := "2026-11-18,ON-LOB-001,loblaws,20001,4.99"
	oh := "date,store_id,banner,external_sku,price"
	tests := []struct {
		name    string
		file    string
		content string
		want    string // the message, or its start
	}{
		// The file as a whole.
		{"EmptyFile", "x.csv", "", "x.csv: the file is empty: want a header row of stores (store_id, banner, province, name, city, postal_code, latitude, longitude[, active, banner_name, observations_30d, source]) or observations (date, store_id, banner, external_sku, price[, regular_price, promo_ends, upc, name, brand, size, category, name_fr, product_type, province, on_promo, currency, source])"},
		{"BlankFile", "x.csv", "\n  \n", "x.csv: the file is empty"},
		{"NoHeader", "x.csv", lines(good), "x.csv:1: header: columns on-lob-009, loblaws, on, loblaws, toronto, m5j 2r6, 43.6410, -79.3760 are not recognised: want stores ("},
		{"UnknownHeader", "x.csv", lines("sku,cost"), "x.csv:1: header: columns sku, cost are not recognised: want stores (store_id"},
		{"MissingColumns", "stores.csv", lines("store_id,banner,province,name,city,postal_code"), "stores.csv:1: header: missing columns latitude, longitude for a stores file: want store_id, banner, province, name, city, postal_code, latitude, longitude[, active, banner_name, observations_30d, source]"},
		{"UnknownColumn", "prices.csv", lines(oh + ",colour"), `prices.csv:1: header: unknown column "colour" for an observations file`},
		{"DuplicateColumn", "prices.csv", lines(oh + ",price"), `prices.csv:1: header: column "price" appears twice (columns 5 and 6)`},
		{"JSONLFirstLineBad", "x.jsonl", lines(`{"date": `), "x.jsonl:1: not a JSON object"},
		{"JSONLUnknownFirst", "x.jsonl", lines(`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1,"colour":"red"}`), `x.jsonl:1: header: unknown column "colour" for an observations file`},

		// Stores rows.
		{"FieldCount", "stores.csv", lines(sh, good, "ON-LOB-010,loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6"), "stores.csv:3: the row has 7 fields: want 8 like the header"},
		{"BareQuote", "stores.csv", lines(sh, `ON-LOB-010,loblaws,ON,Lob"laws,Toronto,M5J 2R6,43.6,-79.3`), `stores.csv:2: not valid CSV: bare " in non-quoted-field`},
		{"StoreIDMissing", "stores.csv", lines(sh, ",loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6410,-79.3760"), "stores.csv:2: store_id: is required"},
		{"StoreIDTwice", "stores.csv", lines(sh, good, good), `stores.csv:3: store_id: "ON-LOB-009" appears twice in the file: also on line 2`},
		{"BannerUnknown", "stores.csv", lines(sh, "S1,lowblaws,ON,Loblaws,Toronto,M5J 2R6,43.6410,-79.3760"), `stores.csv:2: banner: "lowblaws" is unknown: want one of atlantic-superstore, `},
		{"BannerMissing", "stores.csv", lines(sh, "S1,,ON,Loblaws,Toronto,M5J 2R6,43.6410,-79.3760"), `stores.csv:2: banner: is required: want one of atlantic-superstore, `},
		{"BannerNotInProvince", "stores.csv", lines(sh, "S1,iga,ON,IGA,Toronto,M5J 2R6,43.6410,-79.3760"), "stores.csv:2: banner: iga does not operate in ON: it operates in QC"},
		{"ProvinceUnknown", "stores.csv", lines(sh, "S1,loblaws,Ontari,Loblaws,Toronto,M5J 2R6,43.6410,-79.3760"), `stores.csv:2: province: "Ontari" is not a Canadian province or territory: want one of AB BC MB NB NL NS NT NU ON PE QC SK YT`},
		{"NameMissing", "stores.csv", lines(sh, "S1,loblaws,ON,,Toronto,M5J 2R6,43.6410,-79.3760"), "stores.csv:2: name: is required"},
		{"CityMissing", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,,M5J 2R6,43.6410,-79.3760"), "stores.csv:2: city: is required"},
		{"PostalCodeForm", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R,43.6410,-79.3760"), `stores.csv:2: postal_code: "M5J 2R": character 5 must be a digit: want the form A1A 1A1`},
		{"PostalCodeLetter", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5O 2R6,43.6410,-79.3760"), `stores.csv:2: postal_code: "M5O 2R6": the letter O is never used in Canadian postal codes`},
		{"PostalCodeTerritory", "stores.csv", lines(sh, "S1,northern,NT,Northern,Iqaluit,X0A 0H0,63.7467,-68.5170"), `stores.csv:2: postal_code: "X0A 0H0" is not in NT: a postal code starting with X0A is in NU`},
		{"PostalCodeProvince", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,H2T 1S4,43.6410,-79.3760"), `stores.csv:2: postal_code: "H2T 1S4" is not in ON: a postal code starting with H is in QC`},
		{"LatitudeNotNumber", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R6,north,-79.3760"), `stores.csv:2: latitude: "north" is not a number: want decimal degrees, e.g. 43.6532`},
		{"LatitudeRange", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R6,93.1,-79.3760"), "stores.csv:2: latitude: 93.1 is out of range: want -90 to 90 degrees"},
		{"LatitudeOutsideCanada", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R6,33.6,-79.3760"), "stores.csv:2: latitude: 33.6 is outside Canada: want 41 to 84 degrees"},
		{"LongitudeRange", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6,-190"), "stores.csv:2: longitude: -190 is out of range: want -180 to 180 degrees"},
		{"LongitudeOutsideCanada", "stores.csv", lines(sh, "S1,loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6,79.3760"), "stores.csv:2: longitude: 79.3760 is outside Canada: want -142 to -52 degrees"},
		{"Active", "stores.csv", lines(sh+",active", good+",maybe"), `stores.csv:2: active: "maybe" is not a yes/no value: want true, false, 1, 0, yes or no (default true)`},
		{"BannerName", "stores.csv", lines(sh+",banner_name", good+",No Frills"), `stores.csv:2: banner_name: "No Frills" is not the name of banner loblaws: want "Loblaws"`},
		{"BannerNameUnknown", "stores.csv", lines(sh+",banner_name", good+",Lowblaws"), `stores.csv:2: banner_name: "Lowblaws" is not the name of banner loblaws: want "Loblaws"`},
		{"Observations30dNegative", "stores.csv", lines(sh+",observations_30d", good+",-3"), `stores.csv:2: observations_30d: "-3" is not a count: want a whole number, 0 or more`},
		{"Observations30dFraction", "stores.csv", lines(sh+",observations_30d", good+",2.5"), `stores.csv:2: observations_30d: "2.5" is not a count`},
		{"JSONLStoreBadValue", "stores.jsonl", lines(`{"store_id":"S1","banner":"loblaws","province":"ON","name":"L","city":"T","postal_code":"M5J 2R6","latitude":43.6,"longitude":-79.3}`, `{"store_id":"S2","banner":"loblaws","province":"ON","name":"L","city":"T","postal_code":"M5J 2R6","latitude":[43.6],"longitude":-79.3}`), "stores.jsonl:2: latitude: is a JSON array: want a string or a number"},

		// Observations rows.
		{"PriceDecimals", "prices.csv", lines(oh, obs, "2026-11-18,ON-LOB-001,loblaws,20002,4.999"), `prices.csv:3: price: "4.999" is not a dollar amount: want digits with at most two decimals, e.g. 4.99`},
		{"PriceMissing", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,20002,"), "prices.csv:2: price: is required: want a dollar amount, e.g. 4.99"},
		{"PriceTooLarge", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,20002,42949673.00"), "prices.csv:2: price: 42949673.00 is more than a price may be: want at most 42949672.95"},
		{"RegularTooLarge", "prices.csv", lines(oh+",regular_price", obs+",99999999.99"), "prices.csv:2: regular_price: 99999999.99 is more than a price may be: want at most 42949672.95"},
		{"PriceZero", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,20002,0.00"), "prices.csv:2: price: 0.00 is not more than zero"},
		{"PriceNegative", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,20002,-1.00"), `prices.csv:2: price: "-1.00" is not a dollar amount`},
		{"RegularBelowPrice", "prices.csv", lines(oh+",regular_price", obs+",4.49"), "prices.csv:2: regular_price: 4.49 is less than the price 4.99: want the regular price, at least the price"},
		{"RegularNotAmount", "prices.csv", lines(oh+",regular_price", obs+",abc"), `prices.csv:2: regular_price: "abc" is not a dollar amount`},
		{"PromoEndsBeforeDate", "prices.csv", lines(oh+",regular_price,promo_ends", "2026-11-18,ON-LOB-001,loblaws,20001,3.99,4.99,2026-11-17"), "prices.csv:2: promo_ends: 2026-11-17 is before the date 2026-11-18: want the last day of the promotion"},
		{"PromoEndsNotDate", "prices.csv", lines(oh+",regular_price,promo_ends", "2026-11-18,ON-LOB-001,loblaws,20001,3.99,4.99,next week"), `prices.csv:2: promo_ends: "next week" is not a date: want YYYY-MM-DD`},
		{"DateMissing", "prices.csv", lines(oh, ",ON-LOB-001,loblaws,20001,3.99"), "prices.csv:2: date: is required: want a date YYYY-MM-DD"},
		{"DateForm", "prices.csv", lines(oh, "18/11/2026,ON-LOB-001,loblaws,20001,3.99"), `prices.csv:2: date: "18/11/2026" is not a date: want YYYY-MM-DD`},
		{"DateInvalid", "prices.csv", lines(oh, "2026-02-30,ON-LOB-001,loblaws,20001,3.99"), `prices.csv:2: date: "2026-02-30" is not a valid date: want YYYY-MM-DD`},
		{"DateFuture", "prices.csv", lines(oh, "2026-11-21,ON-LOB-001,loblaws,20001,3.99"), "prices.csv:2: date: 2026-11-21 is in the future: want a date up to 2026-11-20"},
		{"DateTooOld", "prices.csv", lines(oh, "1999-12-31,ON-LOB-001,loblaws,20001,3.99"), "prices.csv:2: date: 1999-12-31 is before 2000-01-01: want a date from 2000-01-01"},
		{"StoreUnknown", "prices.csv", lines(oh, "2026-11-18,ON-XXX-001,loblaws,20001,3.99"), `prices.csv:2: store_id: "ON-XXX-001" is not a known store: import its stores file first`},
		{"StoreMissing", "prices.csv", lines(oh, "2026-11-18,,loblaws,20001,3.99"), "prices.csv:2: store_id: is required"},
		{"BannerNotStores", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,no-frills,20001,3.99"), `prices.csv:2: banner: no-frills is not the banner of store "ON-LOB-001": it is loblaws`},
		{"BannerUnknownObs", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,lowblaws,20001,3.99"), `prices.csv:2: banner: "lowblaws" is unknown: want one of `},
		{"SKUMissing", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,,3.99"), "prices.csv:2: external_sku: is required"},
		{"SKUTooLong", "prices.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,"+strings.Repeat("9", 65)+",3.99"), "prices.csv:2: external_sku: \"99999"},
		{"UPCCheckDigit", "prices.csv", lines(oh+",upc", obs+",060383000012"), `prices.csv:2: upc: "060383000012" has a wrong check digit: it ends in 2, the GS1 check digit should be 1`},
		{"UPCLength", "prices.csv", lines(oh+",upc", obs+",12345"), `prices.csv:2: upc: "12345" has 5 digits: want a UPC/EAN/GTIN of 8, 12, 13 or 14 digits`},
		{"UPCNotDigits", "prices.csv", lines(oh+",upc", obs+",06038300001X"), `prices.csv:2: upc: "06038300001X" is not a barcode`},
		{"UPCConflict", "prices.csv", lines(oh+",upc", obs+",060383000011", "2026-11-17,ON-LOB-001,loblaws,20001,4.99,066800000152"), `prices.csv:3: upc: 066800000152 conflicts with line 2, which gives 060383000011 for loblaws SKU "20001": a banner SKU has one barcode`},
		{"DuplicateConflict", "prices.csv", lines(oh, obs, "2026-11-18,ON-NOF-001,no-frills,20001,3.99", "2026-11-18,ON-LOB-001,loblaws,20001,5.49"), "prices.csv:4: price: 5.49 conflicts with line 2, which gives 4.99 for the same date, store_id and external_sku"},
		{"NameControlChar", "prices.csv", lines(oh+",upc,name", obs+",060383000011,\"Corn\tFlakes\""), `prices.csv:2: name: "Corn\tFlakes" contains a control character`},
		{"ProvinceNotStores", "prices.csv", lines(oh+",province", obs+",QC"), `prices.csv:2: province: "QC" is not the province of store "ON-LOB-001": it is ON`},
		{"ProvinceUnknownObs", "prices.csv", lines(oh+",province", obs+",Ontari"), `prices.csv:2: province: "Ontari" is not the province of store "ON-LOB-001": it is ON`},
		{"OnPromoNoPromotion", "prices.csv", lines(oh+",regular_price,on_promo", obs+",4.99,true"), "prices.csv:2: on_promo: is true, but the price 4.99 is not under the regular_price 4.99: a row is on promotion when its price is"},
		{"OnPromoNoRegular", "prices.csv", lines(oh+",on_promo", obs+",yes"), "prices.csv:2: on_promo: is yes, but the price 4.99 is not under the regular_price 4.99"},
		{"OnPromoDenied", "prices.csv", lines(oh+",regular_price,on_promo", "2026-11-18,ON-LOB-001,loblaws,20001,3.99,4.99,false"), "prices.csv:2: on_promo: is false, but the price 3.99 is under the regular_price 4.99"},
		{"OnPromoValue", "prices.csv", lines(oh+",on_promo", obs+",maybe"), `prices.csv:2: on_promo: "maybe" is not a yes/no value: want true, false, 1, 0, yes or no (default false)`},
		{"Currency", "prices.csv", lines(oh+",currency", obs+",USD"), `prices.csv:2: currency: "USD" is not CAD: prices are Canadian dollars`},
		{"OffersExport", "offers.csv", lines("province,upc,name,brand,size,category,banner,banner_name,external_sku,price,regular_price,on_promo,promo_ends,promo_ended,min_price,max_price,unit_price,unit_price_basis,store_count,observed_at,currency"),
			"offers.csv:1: header: columns promo_ended, min_price, max_price, unit_price, unit_price_basis, store_count, observed_at are those of an export of dataset offers, which cannot be imported: offers are computed from the stores and observations, so export and import datasets stores and observations instead"},
		{"JSONArrayCutShort", "prices.json", lines("[", `{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1},`), "prices.json:2: the JSON array does not end with ]: the file is cut short"},
		{"JSONArrayObjectOverLines", "prices.json", lines("[", `{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1},`, `{"date":"2026-11-18",`, `"store_id":"ON-LOB-001","banner":"loblaws","external_sku":"2","price":1}`, "]"), "prices.json:3: not a JSON object on one line: a JSON array is read with one object per line, as the export writes it"},
		{"JSONArrayAfterEnd", "prices.json", lines(`[{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1}]`, "[]"), "prices.json:2: text after the end of the JSON array"},
		{"JSONLBadLine", "prices.jsonl", lines(`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1}`, `{"date":`), "prices.jsonl:2: not a JSON object"},
		{"JSONLUnknownField", "prices.jsonl", lines(`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1}`, ``, `{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"2","price":1,"colour":"red"}`), "prices.jsonl:3: colour: unknown field for an observations file"},
		{"JSONLMissingField", "prices.jsonl", lines(`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1}`, `{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"2"}`), "prices.jsonl:2: price: is required"},
		{"JSONLPriceDecimals", "prices.jsonl", lines(`{"date":"2026-11-18","store_id":"ON-LOB-001","banner":"loblaws","external_sku":"1","price":1.999}`), `prices.jsonl:1: price: "1.999" is not a dollar amount`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := importString(t, svc, tt.file, tt.content, nil)
			if err == nil {
				t.Fatalf("got report %+v, want error %q", rep, tt.want)
			}
			if code := ErrorCode(err); code != EINVALIDARGUMENT {
				t.Errorf("code: got %s, want %s (%v)", code, EINVALIDARGUMENT, err)
			}
			if msg := ErrorMessage(err); !strings.HasPrefix(msg, tt.want) {
				t.Errorf("message:\n got %q\nwant %q", msg, tt.want)
			}
		})
	}

	// None of the files above wrote anything: importing every good row of
	// them now finds them all new.
	t.Run("NothingWritten", func(t *testing.T) {
		rep := mustImport(t, svc, "prices.csv", lines(oh, obs, "2026-11-18,ON-NOF-001,no-frills,20001,3.99"), nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 2, New: 2}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
		rep = mustImport(t, svc, "stores.csv", lines(sh, good), nil)
		if want := (counts{Kind: "stores", Format: "csv", Rows: 1, New: 1}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
	})
}

func TestImport_NothingWrittenAfterBadRow(t *testing.T) {
	ctx := context.Background()
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	before, err := svc.ListReferenceStores(ctx, StoresInput{Limit: Some(MaxLimit)})
	if err != nil {
		t.Fatal(err)
	}

	// A new store, a changed store, then a bad row.
	_, err = importString(t, svc, "stores.csv", lines(storesHeader,
		"ON-LOB-003,loblaws,ON,Loblaws Maple Leaf Gardens,Toronto,M5B 2K8,43.6620,-79.3800,true",
		"ON-LOB-001,loblaws,ON,Loblaws Renamed,Toronto,M5J 2R6,43.6410,-79.3760,true",
		"ON-LOB-004,loblaws,ON,Loblaws Bad,Toronto,M5J 2R6,43.6410,79.3760,true",
	), nil)
	if want := "stores.csv:4: longitude: 79.3760 is outside Canada"; !strings.HasPrefix(ErrorMessage(err), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	after, err := svc.ListReferenceStores(ctx, StoresInput{Limit: Some(MaxLimit)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("stores changed by a failed import (-before +after):\n%s", diff)
	}

	// Observations: good rows, then a bad one; the product must not appear.
	_, err = importString(t, svc, "prices.csv", lines(obsHeader,
		"2026-11-18,ON-LOB-001,loblaws,20001,4.99,,,06680000015,2% Milk,Natrel,2 L,Dairy & Eggs",
		"2026-11-18,ON-LOB-001,loblaws,20002,4.999,,,,,,,",
	), nil)
	if ErrorCode(err) != EINVALIDARGUMENT {
		t.Fatalf("got %v, want %s", err, EINVALIDARGUMENT)
	}
	if _, err := svc.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"}); ErrorCode(err) != ENOTFOUND {
		t.Errorf("LookupProduct after a failed import: got %v, want %s", err, ENOTFOUND)
	}
	res, err := svc.PriceHistory(ctx, HistoryInput{SKU: "20001", Banner: "loblaws", Province: "ON"})
	if err == nil && len(res.Points) > 0 {
		t.Errorf("PriceHistory after a failed import: got %d points, want none", len(res.Points))
	}
}

func TestImport_SkipInvalid(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)

	var b strings.Builder
	b.WriteString(obsHeader + "\n")
	for i := range 30 {
		if i%3 == 1 {
			fmt.Fprintf(&b, "2026-11-18,ON-LOB-001,loblaws,S%d,%d.999,,,,,,,\n", i, i)
		} else {
			fmt.Fprintf(&b, "2026-11-18,ON-LOB-001,loblaws,S%d,%d.99,,,,,,,\n", i, i)
		}
	}
	b.WriteString("2026-11-18,ON-LOB-001,loblaws,R1,1.99,,,212345678909,,,,\n")
	rep := mustImport(t, svc, "prices.csv", b.String(), &ImportOptions{SkipInvalid: true})
	if want := (counts{Kind: "observations", Format: "csv", Rows: 31, New: 21, Skipped: 10, Notes: 11}); countsOf(rep) != want {
		t.Errorf("got %+v, want %+v", countsOf(rep), want)
	}
	if len(rep.Problems) > 0 {
		if want := `prices.csv:3: price: "1.999" is not a dollar amount: want digits with at most two decimals, e.g. 4.99`; rep.Problems[0] != want {
			t.Errorf("first problem: got %q, want %q", rep.Problems[0], want)
		}
	}

	// More than 20 problems: the first 20 are listed.
	b.Reset()
	b.WriteString(obsHeader + "\n")
	for i := range 25 {
		fmt.Fprintf(&b, "2026-11-18,ON-LOB-001,loblaws,T%d,0,,,,,,,\n", i)
	}
	rep = mustImport(t, svc, "prices.csv", b.String(), &ImportOptions{SkipInvalid: true})
	if want := (counts{Kind: "observations", Format: "csv", Rows: 25, Skipped: 25, Notes: 20}); countsOf(rep) != want {
		t.Errorf("got %+v, want %+v", countsOf(rep), want)
	}

	// A row with the wrong number of fields is skipped, and the rest read.
	rep = mustImport(t, svc, "prices.csv", lines(obsHeader,
		"2026-11-18,ON-LOB-001,loblaws,U1,1.99",
		"2026-11-18,ON-LOB-001,loblaws,U2,1.99,,,,,,,",
	), &ImportOptions{SkipInvalid: true})
	if want := (counts{Kind: "observations", Format: "csv", Rows: 2, New: 1, Skipped: 1, Notes: 1}); countsOf(rep) != want {
		t.Errorf("got %+v, want %+v", countsOf(rep), want)
	}
}

// TestImport_PhysicalLines checks that a row is named by the line it
// starts on, when quoted fields span lines.
func TestImport_PhysicalLines(t *testing.T) {
	svc := openImportService(t)
	rep := mustImport(t, svc, "stores.csv", lines(storesHeader,
		`S1,loblaws,ON,"Loblaws`,
		`Queens Quay",Toronto,M5J 2R6,43.6,-79.3,`,
		`S2,loblaws,ON,Loblaws,Toronto,M5J 2R6,43.6,-9.3,`,
		`"S3",loblaws,ON,"Loblaws ""Market""",Toronto,M5J 2R6,43.6,-79.3,`,
	), &ImportOptions{SkipInvalid: true})
	want := []string{
		`stores.csv:2: name: "Loblaws\nQueens Quay" contains a control character`,
		"stores.csv:4: longitude: -9.3 is outside Canada: want -142 to -52 degrees",
	}
	if diff := cmp.Diff(want, rep.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if rep.New != 1 || rep.Skipped != 2 || rep.Rows != 3 {
		t.Errorf("got %+v, want 3 rows, 1 new, 2 skipped", countsOf(rep))
	}
}

func TestImport_ProgressAndCancel(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	var b strings.Builder
	b.WriteString(obsHeader + "\n")
	for i := range 10000 {
		fmt.Fprintf(&b, "2026-11-18,ON-LOB-001,loblaws,P%d,1.99,,,,,,,\n", i)
	}
	var calls int
	var last int64
	rep := mustImport(t, svc, "prices.csv", b.String(), &ImportOptions{Progress: func(n int64) { calls++; last = n }})
	if rep.New != 10000 {
		t.Errorf("new: got %d, want 10000", rep.New)
	}
	if calls < 2 || last != int64(b.Len()) {
		t.Errorf("progress: got %d calls ending at %d, want several ending at %d", calls, last, b.Len())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := svc.Import(ctx, "prices.csv", strings.NewReader(b.String()), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want %v", err, context.Canceled)
	}
}

// BenchmarkImportCSV imports a realistic CSV of about a million observation
// rows into a data file that holds its stores, and reports rows/s.
func BenchmarkImportCSV(b *testing.B) {
	if testing.Short() {
		b.Skip("imports a million rows")
	}
	dir := b.TempDir()
	storesCSV, ids := benchStores(200)
	obsPath := filepath.Join(dir, "prices.csv")
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_IMPORT_ROWS")); err == nil && v > 0 {
		n = v // e.g. 10000000 to check that the write path scales linearly
	}
	rows := writeBenchObservations(b, obsPath, ids, n)
	iters := 0
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		iters++
		b.StopTimer()
		svc, err := Open(filepath.Join(dir, fmt.Sprintf("bench%d.db", i)), &Options{Now: importClock})
		if err != nil {
			b.Fatal(err)
		}
		mustImport(b, svc, "stores.csv", storesCSV, nil)
		f, err := os.Open(obsPath)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cpuTime()
		rep, err := svc.Import(context.Background(), "prices.csv", f, nil)
		cpu += cpuTime() - c0
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if rep.New != rows {
			b.Fatalf("new: got %d, want %d", rep.New, rows)
		}
		f.Close()
		svc.Close()
		os.Remove(filepath.Join(dir, fmt.Sprintf("bench%d.db", i)))
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(iters)/b.Elapsed().Seconds(), "rows/s")
	if cpu > 0 {
		b.ReportMetric(float64(rows)*float64(iters)/cpu.Seconds(), "rows/cpu-s")
	}
}

// BenchmarkReimportCSV imports the same rows a second time (a collector
// sending its file again): every observation is unchanged, so the writer
// should derive nothing again. GROCERY_BENCH_IMPORT_ROWS sets the rows.
func BenchmarkReimportCSV(b *testing.B) {
	if testing.Short() {
		b.Skip("imports a million rows twice")
	}
	dir := b.TempDir()
	storesCSV, ids := benchStores(200)
	obsPath := filepath.Join(dir, "prices.csv")
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("GROCERY_BENCH_IMPORT_ROWS")); err == nil && v > 0 {
		n = v
	}
	rows := writeBenchObservations(b, obsPath, ids, n)
	svc, err := Open(filepath.Join(dir, "bench.db"), &Options{Now: importClock})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	mustImport(b, svc, "stores.csv", storesCSV, nil)
	importFileTB(b, svc, obsPath)
	iters := 0
	for b.Loop() {
		iters++
		if rep := importFileTB(b, svc, obsPath); rep.Unchanged != rows {
			b.Fatalf("unchanged: got %d, want %d", rep.Unchanged, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(iters)/b.Elapsed().Seconds(), "rows/s")
}

type benchStore struct{ id, banner string }

// benchStores returns a stores CSV of n stores in eight cities.
func benchStores(n int) (string, []benchStore) {
	cities := []struct {
		banner, province, city, fsa string
		lat, lon                    float64
	}{
		{"loblaws", "ON", "Toronto", "M5V", 43.6532, -79.3832},
		{"no-frills", "ON", "Ottawa", "K1P", 45.4215, -75.6972},
		{"metro", "QC", "Montréal", "H2X", 45.5019, -73.5674},
		{"iga", "QC", "Québec", "G1R", 46.8139, -71.2080},
		{"safeway", "AB", "Calgary", "T2P", 51.0447, -114.0719},
		{"save-on-foods", "BC", "Vancouver", "V6B", 49.2827, -123.1207},
		{"sobeys", "NS", "Halifax", "B3H", 44.6488, -63.5752},
		{"co-op", "SK", "Regina", "S4P", 50.4452, -104.6189},
	}
	var b strings.Builder
	b.WriteString(storesHeader + "\n")
	var ids []benchStore
	for i := range n {
		c := cities[i%len(cities)]
		id := fmt.Sprintf("%s-%s-%03d", c.province, strings.ToUpper(c.banner[:3]), i)
		fmt.Fprintf(&b, "%s,%s,%s,%s %d,%s,%s %dA%d,%.4f,%.4f,true\n", id, c.banner, c.province, c.city, i, c.city, c.fsa, i%10, i%7,
			c.lat+float64(i%20)*0.01, c.lon-float64(i%20)*0.01)
		ids = append(ids, benchStore{id, c.banner})
	}
	return b.String(), ids
}

// writeBenchObservations writes about n observation rows: every store
// observes its banner's products on consecutive days, some on promotion,
// every row with its product's facts, as retailer feeds send them.
func writeBenchObservations(tb testing.TB, path string, stores []benchStore, n int) int {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(obsHeader + "\n")
	rng := rand.New(rand.NewPCG(1, 2))
	const products = 500
	type product struct {
		upc, name, brand, size, category string
		price                            int
	}
	cats := []string{"Dairy & Eggs", "Pantry", "Bakery", "Frozen", "Snacks", "Beverages"}
	ps := make([]product, products)
	for i := range ps {
		body := fmt.Sprintf("0%05d%05d", 60000+i%300, i)
		ps[i] = product{
			upc:      body + string(checkDigit(body)),
			name:     fmt.Sprintf("Product %d Original", i),
			brand:    fmt.Sprintf("Brand %d", i%60),
			size:     fmt.Sprintf("%d g", 100+i%9*50),
			category: cats[i%len(cats)],
			price:    199 + rng.IntN(1200),
		}
	}
	days := n / (len(stores) * products)
	if days < 1 {
		days = 1
	}
	first := Date(DateOf(importClock()) - Date(days))
	rows := 0
	for d := range days {
		date := (first + Date(d)).String()
		for _, st := range stores {
			for i, p := range ps {
				price := p.price/100*100 + 99
				regular, promoEnds := "", ""
				if (i+d/7)%9 == 0 {
					regular = Cents(price).String()
					price = price * 8 / 10
					promoEnds = (first + Date(d/7*7+6)).String()
				}
				fmt.Fprintf(w, "%s,%s,%s,%s-%d,%s,%s,%s,%s,%s,%s,%s,%s\n", date, st.id, st.banner, strings.ToUpper(st.banner[:2]), 10000+i,
					Cents(price), regular, promoEnds, p.upc, p.name, p.brand, p.size, p.category)
				rows++
			}
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// TestImportTakesEveryExportColumn: every column the stores and
// observations exports write is a column of the import's kind of file,
// so that an export imports as it comes (TestExportImportRoundTrip checks
// the values); a column added to an export must be added to the import.
func TestImportTakesEveryExportColumn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		kind *importrow.Kind
		cols []rowwrite.Column
	}{{importrow.Stores, exportrows.StoreCols}, {importrow.Observations, exportrows.ObservationCols}} {
		for _, c := range tc.cols {
			if _, ok := tc.kind.Index[c.Name]; !ok {
				t.Errorf("the %s export writes column %s: the import of %s does not take it", tc.kind.Name, c.Name, tc.kind.Article())
			}
		}
	}
	// The offers export is recognised by its own columns.
	if got := derivedDatasets[0].Signature; len(got) == 0 {
		t.Errorf("the offers export has no column of its own: got %v, want some to recognise it by", got)
	}
}
