package grocery_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/grocery/internal/exportrows"
	"github.com/xuri/excelize/v2"
)

// The fixture's observations from 2026-10-21 to 2026-11-19 (the default
// window: 30 days up to the as-of date), in key order: banner, SKU,
// province, date, store. Yogurt (10-15) and Metro (10-01) are older.
var fixtureObsCSV = []string{
	"date,store_id,banner,province,external_sku,upc,name,name_fr,brand,size,category,product_type,price,regular_price,on_promo,promo_ends,currency,source",
	"2026-10-29,lob-on-1,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.99,5.99,false,,CAD,import",
	"2026-10-29,lob-on-2,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,6.50,6.50,false,,CAD,import",
	"2026-11-05,lob-on-1,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.99,5.99,false,,CAD,import",
	"2026-11-05,lob-on-2,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.99,5.99,false,,CAD,import",
	"2026-11-05,lob-on-3,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,6.29,6.29,false,,CAD,import",
	"2026-11-12,lob-on-1,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.99,5.99,false,,CAD,import",
	"2026-11-12,lob-on-2,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.99,5.99,false,,CAD,import",
	"2026-11-12,lob-on-3,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,6.29,6.29,false,,CAD,import",
	"2026-11-19,lob-on-1,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.99,5.99,true,2026-11-25,CAD,import",
	"2026-11-19,lob-on-2,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.99,5.99,true,2026-11-25,CAD,import",
	"2026-11-19,lob-on-1,loblaws,ON,21000002_EA,060383000028,Chocolate Milk,,Natrel,1 L,Dairy & Eggs,,3.49,3.49,false,,CAD,import",
	"2026-11-19,maxi-qc-1,maxi,QC,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.49,5.49,false,,CAD,import",
	"2026-11-19,maxi-qc-2,maxi,QC,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,5.49,5.49,false,,CAD,import",
	"2026-11-19,maxi-qc-1,maxi,QC,21000009_EA,055742110326,Crème glacée vanille,,Chapman's,2 L,Frozen,,6.99,6.99,false,,CAD,import",
	"2026-11-19,maxi-qc-2,maxi,QC,21000009_EA,055742110326,Crème glacée vanille,,Chapman's,2 L,Frozen,,6.49,6.49,false,,CAD,import",
	"2026-11-19,nf-on-1,no-frills,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.79,4.79,false,,CAD,import",
}

func export(t *testing.T, s *grocery.Service, in grocery.ExportInput) (string, *grocery.ExportSummary) {
	t.Helper()
	var buf bytes.Buffer
	sum, err := s.Export(context.Background(), in, &buf)
	if err != nil {
		t.Fatalf("Export(%+v): %v", in, err)
	}
	if sum.Bytes != int64(buf.Len()) {
		t.Fatalf("summary bytes: got %d, want %d", sum.Bytes, buf.Len())
	}
	return buf.String(), sum
}

func TestExportCSV(t *testing.T) {
	s := MustFixture(t)
	got, sum := export(t, s, grocery.ExportInput{Format: "csv"})
	want := strings.Join(fixtureObsCSV, "\r\n") + "\r\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("CSV (-want +got):\n%s", diff)
	}
	if sum.Rows != 16 {
		t.Fatalf("rows: got %d, want 16", sum.Rows)
	}
}

func TestExportCSVQuoting(t *testing.T) {
	s := MustFixture(t)
	b := &grocery.Batch{
		UpdateNames: true,
		Stores:      []grocery.Store{{ID: "s,1", Banner: "metro", Province: "ON", Name: `Metro "Plaza"`, City: "Toronto", PostalCode: "M5V 2T6", Latitude: 43.5, Longitude: -79.25, Active: true}},
		Products:    []grocery.CatalogueItem{{GTIN: gtin(t, upcSyrup), Name: "Syrup, \"Grade A\"\nAmber", Brand: "CH", Size: "540 mL", Category: "Pantry"}},
		Links:       []grocery.SKULink{{Banner: "metro", ExternalSKU: "M1", GTIN: gtin(t, upcSyrup)}},
		Observations: []grocery.Observation{
			{Date: day(t, "2026-11-18"), StoreID: "s,1", Banner: "metro", ExternalSKU: "M1", Price: 1234, RegularPrice: 1234},
		},
	}
	if _, err := grocery.WriteBatch(context.Background(), s, b); err != nil {
		t.Fatal(err)
	}
	got, _ := export(t, s, grocery.ExportInput{Format: "csv", Banner: "metro"})
	want := fixtureObsCSV[0] + "\r\n" +
		"2026-11-18,\"s,1\",metro,ON,M1,075401234569,\"Syrup, \"\"Grade A\"\"\r\nAmber\",,CH,540 mL,Pantry,,12.34,12.34,false,,CAD,import\r\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("CSV (-want +got):\n%s", diff)
	}
	got, _ = export(t, s, grocery.ExportInput{Format: "csv", Dataset: "stores", Banner: "metro"})
	want = "store_id,banner,banner_name,province,name,city,postal_code,latitude,longitude,observations_30d,active,source\r\n" +
		"met-on-1,metro,Metro,ON,met-on-1,Toronto,M6G 2A1,45,-75,0,false,import\r\n" +
		"\"s,1\",metro,Metro,ON,\"Metro \"\"Plaza\"\"\",Toronto,M5V 2T6,43.5,-79.25,1,true,import\r\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("stores CSV (-want +got):\n%s", diff)
	}
}

func TestExportJSON(t *testing.T) {
	s := MustFixture(t)
	// Chocolate milk: one observation at one store.
	got, _ := export(t, s, grocery.ExportInput{UPC: upcChoc})
	want := "[\n" + `{"date":"2026-11-19","store_id":"lob-on-1","banner":"loblaws","province":"ON","external_sku":"21000002_EA","upc":"060383000028","name":"Chocolate Milk","name_fr":null,"brand":"Natrel","size":"1 L","category":"Dairy & Eggs","product_type":null,"price":3.49,"regular_price":3.49,"on_promo":false,"promo_ends":null,"currency":"CAD","source":"import"}` + "\n]\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("JSON (-want +got):\n%s", diff)
	}
	// The milk at Loblaws ON on 11-19: on promotion at 4.99 (regular 5.99)
	// until 11-25, at two stores.
	got, _ = export(t, s, grocery.ExportInput{Format: "jsonl", UPC: upcMilk, Banner: "loblaws", From: asOf, To: asOf})
	row := `{"date":"2026-11-19","store_id":"lob-on-%d","banner":"loblaws","province":"ON","external_sku":"21000001_EA","upc":"068000000154","name":"2% Partly Skimmed Milk","name_fr":null,"brand":"Natrel","size":"2 L","category":"Dairy & Eggs","product_type":null,"price":4.99,"regular_price":5.99,"on_promo":true,"promo_ends":"2026-11-25","currency":"CAD","source":"import"}` + "\n"
	if want := strings.Replace(row, "%d", "1", 1) + strings.Replace(row, "%d", "2", 1); got != want {
		t.Fatalf("JSON Lines: got\n%s\nwant\n%s", got, want)
	}
	// Offers: the milk's current offers in ON. Loblaws: the most common
	// price 4.99 (two stores of three), min 4.99, max 6.29 (lob-on-3's
	// 11-12 price, its latest); per 100 mL: 499/20 = 24.95 -> 0.25.
	got, _ = export(t, s, grocery.ExportInput{Dataset: "offers", Province: "ON", UPC: upcMilk})
	want = "[\n" +
		`{"province":"ON","upc":"068000000154","name":"2% Partly Skimmed Milk","name_fr":null,"brand":"Natrel","size":"2 L","category":"Dairy & Eggs","product_type":null,"banner":"loblaws","banner_name":"Loblaws","external_sku":"21000001_EA","price":4.99,"regular_price":5.99,"on_promo":true,"promo_ends":"2026-11-25","promo_ended":null,"min_price":4.99,"max_price":6.29,"unit_price":0.25,"unit_price_basis":"per 100 mL","store_count":3,"observed_at":"2026-11-19","currency":"CAD"},` + "\n" +
		`{"province":"ON","upc":"068000000154","name":"2% Partly Skimmed Milk","name_fr":null,"brand":"Natrel","size":"2 L","category":"Dairy & Eggs","product_type":null,"banner":"no-frills","banner_name":"No Frills","external_sku":"21000001_EA","price":4.79,"regular_price":4.79,"on_promo":false,"promo_ends":null,"promo_ended":null,"min_price":4.79,"max_price":4.79,"unit_price":0.24,"unit_price_basis":"per 100 mL","store_count":1,"observed_at":"2026-11-19","currency":"CAD"}` +
		"\n]\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("offers JSON (-want +got):\n%s", diff)
	}
	// Nothing selected: an empty array, valid JSON.
	got, sum := export(t, s, grocery.ExportInput{UPC: upcSyrup})
	if got != "[]\n" || sum.Rows != 0 {
		t.Fatalf("empty export: got %q, %d rows, want []", got, sum.Rows)
	}
	var v []map[string]any
	got, _ = export(t, s, grocery.ExportInput{})
	if err := json.Unmarshal([]byte(got), &v); err != nil || len(v) != 16 {
		t.Fatalf("default JSON: %d objects, %v, want 16", len(v), err)
	}
}

// TestExportFilters counts the rows each filter keeps, from the fixture
// (see fixtureObsCSV and fixtureBatch).
func TestExportFilters(t *testing.T) {
	s := MustFixture(t)
	for _, tc := range []struct {
		name string
		in   grocery.ExportInput
		want int64
	}{
		{"All", grocery.ExportInput{}, 16},
		{"ProvinceQC", grocery.ExportInput{Province: "Québec"}, 4},
		{"ProvinceON", grocery.ExportInput{Province: "on"}, 12},
		{"ProvinceNoData", grocery.ExportInput{Province: "NU"}, 0},
		{"Banner", grocery.ExportInput{Banner: "No Frills"}, 1},
		{"BannerProvince", grocery.ExportInput{Banner: "loblaws", Province: "QC"}, 0},
		{"Category", grocery.ExportInput{Category: "frozen"}, 2},
		{"UPC", grocery.ExportInput{UPC: upcMilk}, 13},
		{"UPCProvince", grocery.ExportInput{UPC: upcMilk, Province: "QC"}, 2},
		{"UPCBanner", grocery.ExportInput{UPC: upcMilk, Banner: "no-frills"}, 1},
		{"FromTo", grocery.ExportInput{From: "2026-11-05", To: "2026-11-12"}, 6},
		{"FromOnly", grocery.ExportInput{From: "2026-11-12"}, 11}, // to the as-of date: 3 on 11-12, 8 on 11-19
		{"ToOnly", grocery.ExportInput{To: "2026-10-29"}, 4},      // from 09-30: metro 10-01, yogurt 10-15, two on 10-29
		{"OldYogurt", grocery.ExportInput{UPC: upcYogurt, From: "2026-10-01"}, 1},
		{"OneDay", grocery.ExportInput{From: "2026-11-19", To: "2026-11-19"}, 8},
		{"Offers", grocery.ExportInput{Dataset: "offers"}, 5},
		{"OffersProvince", grocery.ExportInput{Dataset: "offers", Province: "QC"}, 2},
		{"OffersBanner", grocery.ExportInput{Dataset: "offers", Banner: "maxi"}, 2},
		{"OffersCategory", grocery.ExportInput{Dataset: "offers", Category: "Frozen"}, 1},
		{"OffersUPC", grocery.ExportInput{Dataset: "offers", UPC: upcMilk}, 3}, // metro's is stale
		{"Stores", grocery.ExportInput{Dataset: "stores"}, 7},                  // metro's closed one too (active false)
		{"StoresProvince", grocery.ExportInput{Dataset: "stores", Province: "QC"}, 2},
		{"StoresBanner", grocery.ExportInput{Dataset: "stores", Banner: "loblaws", Province: "ON"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Format = "jsonl"
			got, sum := export(t, s, tc.in)
			if sum.Rows != tc.want || int64(strings.Count(got, "\n")) != tc.want {
				t.Fatalf("got %d rows (%d lines), want %d:\n%s", sum.Rows, strings.Count(got, "\n"), tc.want, got)
			}
		})
	}
}

// TestExportXLSX reads an XLSX export back with excelize: typed cells
// with their number formats, a bold frozen header, fitted widths and an
// autofilter (a table) over every row.
func TestExportXLSX(t *testing.T) {
	s := MustFixture(t)
	got, sum := export(t, s, grocery.ExportInput{Format: "xlsx", Province: "ON", From: "2026-11-19", To: "2026-11-19"})
	if sum.Rows != 4 {
		t.Fatalf("rows: got %d, want 4", sum.Rows)
	}
	f, err := excelize.OpenReader(strings.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheets := f.GetSheetList(); len(sheets) != 1 || sheets[0] != "observations" {
		t.Fatalf("sheets: got %q, want [observations]", sheets)
	}
	if props, err := f.GetDocProps(); err != nil || props.Creator != "grocery" || !strings.HasPrefix(props.Created, "20") || strings.HasPrefix(props.Created, "2006") {
		t.Errorf("document properties: got %+v (%v), want ours, not excelize's defaults", props, err)
	}
	const sh = "observations"
	rows, err := f.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		strings.Split(fixtureObsCSV[0], ","),
		strings.Split(fixtureObsCSV[9], ","),
		strings.Split(fixtureObsCSV[10], ","),
		strings.Split(fixtureObsCSV[11], ","),
		strings.Split(fixtureObsCSV[16], ","),
	}
	// GetRows formats cells with their number format: money as $4.99,
	// booleans as TRUE/FALSE; the last empty cells are cut.
	for _, r := range want[1:] {
		for _, i := range []int{12, 13} {
			r[i] = "$" + r[i]
		}
		r[14] = strings.ToUpper(r[14])
	}
	if diff := cmp.Diff(len(want), len(rows)); diff != "" {
		t.Fatalf("row count (-want +got):\n%s", diff)
	}
	for i := range want {
		if diff := cmp.Diff(want[i], rows[i]); diff != "" {
			t.Errorf("row %d (-want +got):\n%s", i+1, diff)
		}
	}
	// Cell types and formats of the promotion row (2).
	for _, tc := range []struct {
		cell, value string
		typ         excelize.CellType
		format      string
	}{
		{"A2", "46345", excelize.CellTypeUnset, "yyyy-mm-dd"}, // 2026-11-19 as an Excel serial date
		{"B2", "lob-on-1", excelize.CellTypeInlineString, ""},
		{"F2", "068000000154", excelize.CellTypeInlineString, ""},
		{"M2", "4.99", excelize.CellTypeUnset, "[$$-1009]#,##0.00"},
		{"N2", "5.99", excelize.CellTypeUnset, "[$$-1009]#,##0.00"},
		{"O2", "1", excelize.CellTypeBool, ""},
		{"P2", "46351", excelize.CellTypeUnset, "yyyy-mm-dd"}, // 2026-11-25
		{"Q2", "CAD", excelize.CellTypeInlineString, ""},
		{"R2", "import", excelize.CellTypeInlineString, ""},
	} {
		typ, err := f.GetCellType(sh, tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := f.GetCellValue(sh, tc.cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		style, err := f.GetCellStyle(sh, tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(style)
		if err != nil {
			t.Fatal(err)
		}
		format := ""
		if st.CustomNumFmt != nil {
			format = *st.CustomNumFmt
		}
		if typ != tc.typ || raw != tc.value || format != tc.format {
			t.Errorf("%s: got type %v, value %q, format %q, want %v, %q, %q", tc.cell, typ, raw, format, tc.typ, tc.value, tc.format)
		}
	}
	// An empty promo_ends is an empty cell.
	if v, _ := f.GetCellValue(sh, "P5"); v != "" {
		t.Errorf("P5: got %q, want empty", v)
	}
	// The header: bold.
	for _, cell := range []string{"A1", "R1"} {
		style, _ := f.GetCellStyle(sh, cell)
		st, err := f.GetStyle(style)
		if err != nil || st.Font == nil || !st.Font.Bold {
			t.Errorf("%s: not bold (%v)", cell, err)
		}
	}
	// Frozen above row 2.
	panes, err := f.GetPanes(sh)
	if err != nil || !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
		t.Errorf("panes: got %+v (%v), want frozen at A2", panes, err)
	}
	// Widths fit: the name column ("2% Partly Skimmed Milk", 22
	// characters) is wider than the date column.
	wName, _ := f.GetColWidth(sh, "G")
	wDate, _ := f.GetColWidth(sh, "A")
	if wName < 22 || wDate < 10 || wDate >= wName {
		t.Errorf("widths: name %v, date %v: want name >= 22 > date >= 10", wName, wDate)
	}
	// The autofilter: a table over the header and every row.
	tables, err := f.GetTables(sh)
	if err != nil || len(tables) != 1 || tables[0].Range != "A1:R5" {
		t.Errorf("tables: got %+v (%v), want one over A1:R5", tables, err)
	}
}

// TestExportInvalid checks that every bad argument is rejected, naming
// it, before anything is written.
func TestExportInvalid(t *testing.T) {
	s := MustFixture(t)
	for _, tc := range []struct {
		name string
		in   grocery.ExportInput
		msg  string
	}{
		{"ErrFormat", grocery.ExportInput{Format: "xml"}, `format "xml" is not supported`},
		{"ErrDataset", grocery.ExportInput{Dataset: "prices"}, `dataset "prices" is not supported`},
		{"ErrProvince", grocery.ExportInput{Province: "ZZ"}, `province`},
		{"ErrBanner", grocery.ExportInput{Banner: "nosuch"}, `banner`},
		{"ErrUPC", grocery.ExportInput{UPC: "068000000155"}, `check digit`},
		{"ErrFrom", grocery.ExportInput{From: "2026-13-01"}, `from "2026-13-01" is not a date`},
		{"ErrTo", grocery.ExportInput{To: "11/19/2026"}, `to "11/19/2026" is not a date`},
		{"ErrFromAfterTo", grocery.ExportInput{From: "2026-11-19", To: "2026-11-01"}, `from 2026-11-19 is after to 2026-11-01`},
		{"ErrStoresChangedSince", grocery.ExportInput{Dataset: "stores", ChangedSince: "AQ"}, `changed_since does not apply to dataset stores`},
		{"ErrOffersChangedSince", grocery.ExportInput{Dataset: "offers", ChangedSince: "AQ"}, `changed_since does not apply to dataset offers`},
		{"ErrCursor", grocery.ExportInput{ChangedSince: "not-a-cursor"}, `changed_since "not-a-cursor" is not an export cursor`},
		{"ErrStoresCategory", grocery.ExportInput{Dataset: "stores", Category: "Frozen"}, `category does not apply to dataset stores`},
		{"ErrStoresUPC", grocery.ExportInput{Dataset: "stores", UPC: upcMilk}, `upc does not apply to dataset stores`},
		{"ErrOffersFrom", grocery.ExportInput{Dataset: "offers", From: "2026-11-01"}, `from does not apply to dataset offers`},
		{"ErrCategoryLong", grocery.ExportInput{Category: strings.Repeat("x", 201)}, `category is 201 bytes long`},
		{"ErrCategoryUnknown", grocery.ExportInput{Category: "Toys"}, `category "Toys" is not in the catalogue: want one of Dairy & Eggs, Frozen, Pantry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			sum, err := s.Export(context.Background(), tc.in, &buf)
			errCode(t, err, grocery.EINVALIDARGUMENT)
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error: got %q, want it to contain %q", err, tc.msg)
			}
			if buf.Len() != 0 || sum != nil {
				t.Errorf("wrote %d bytes, summary %+v: want nothing", buf.Len(), sum)
			}
		})
	}
}

// TestExportFormatsNamed: the refusal of an unknown format names exactly
// the formats the export writes (the built-in exportrows.Formats and the
// registered xlsx and parquet: grocery.Formats), so that the message and
// the tables cannot drift apart.
func TestExportFormatsNamed(t *testing.T) {
	s := MustFixture(t)
	_, err := s.Export(context.Background(), grocery.ExportInput{Format: "xml"}, io.Discard)
	_, list, ok := strings.Cut(grocery.ErrorMessage(err), "want ")
	if !ok {
		t.Fatalf("error %q names no formats", err)
	}
	list = strings.ReplaceAll(strings.ReplaceAll(list, " (default)", ""), " or ", ", ")
	got := strings.Split(list, ", ")
	slices.Sort(got)
	want := slices.Sorted(slices.Values(grocery.Formats()))
	if !slices.Equal(got, want) {
		t.Errorf("formats named: got %v, want %v (grocery.Formats)", got, want)
	}
	if all := append(slices.Sorted(maps.Keys(exportrows.Formats)), "parquet", "xlsx"); !slices.Equal(want, slices.Sorted(slices.Values(all))) {
		t.Errorf("grocery.Formats() = %v, want the built-in %v and the registered parquet and xlsx", grocery.Formats(), slices.Sorted(maps.Keys(exportrows.Formats)))
	}
}

// TestExportUnknownUPC: a valid barcode the catalogue does not know is not
// found, not an empty file.
func TestExportUnknownUPC(t *testing.T) {
	s := MustFixture(t)
	var buf bytes.Buffer
	_, err := s.Export(context.Background(), grocery.ExportInput{UPC: "067000378089"}, &buf)
	errCode(t, err, grocery.ENOTFOUND)
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes: want nothing", buf.Len())
	}
}

// TestExportFileName checks the names and content types PrepareExport
// gives.
func TestExportFileName(t *testing.T) {
	s := MustFixture(t)
	for _, tc := range []struct {
		in         grocery.ExportInput
		name, mime string
	}{
		{grocery.ExportInput{Format: "csv", Province: "ON", From: "2026-11-01", To: "2026-11-21"},
			"grocery-observations-ON-2026-11-01-2026-11-21.csv", "text/csv; charset=utf-8; header=present"},
		{grocery.ExportInput{}, "grocery-observations-2026-10-21-2026-11-19.json", "application/json"},
		{grocery.ExportInput{Format: "XLSX", Dataset: "offers", Banner: "No Frills", Category: "Dairy & Eggs", UPC: "0068000000154"},
			"grocery-offers-no-frills-dairy-eggs-068000000154-2026-11-19.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
		{grocery.ExportInput{Format: "jsonl", Dataset: "stores", Province: "qc"}, "grocery-stores-QC.jsonl", "application/x-ndjson"},
	} {
		p, err := s.PrepareExport(context.Background(), tc.in)
		if err != nil {
			t.Fatal(err)
		}
		p.Close()
		if p.FileName != tc.name || p.ContentType != tc.mime {
			t.Errorf("%+v: got %q, %q, want %q, %q", tc.in, p.FileName, p.ContentType, tc.name, tc.mime)
		}
		if want := `attachment; filename="` + tc.name + `"`; p.ContentDisposition() != want {
			t.Errorf("disposition: got %q, want %q", p.ContentDisposition(), want)
		}
	}
}

// manyObservations writes 40 SKUs observed at 3 stores on 120 days:
// 14,400 observations, more than one read batch.
func manyObservations(t *testing.T, s *grocery.Service) int64 {
	t.Helper()
	b := &grocery.Batch{}
	for i := 1; i <= 3; i++ {
		b.Stores = append(b.Stores, grocery.Store{ID: fmt.Sprintf("fc-%d", i), Banner: "freshco", Province: "BC", Name: "FreshCo", City: "Vancouver", PostalCode: "V5K 0A1", Latitude: 49, Longitude: -123, Active: true})
	}
	start := day(t, asOf) - 119
	for sku := 0; sku < 40; sku++ {
		for d := grocery.Date(0); d < 120; d++ {
			for i := 1; i <= 3; i++ {
				price := grocery.Cents(100 + sku*10 + i)
				b.Observations = append(b.Observations, grocery.Observation{Date: start + d, StoreID: fmt.Sprintf("fc-%d", i), Banner: "freshco", ExternalSKU: fmt.Sprintf("FC%03d", sku), Price: price, RegularPrice: price})
			}
		}
	}
	if _, err := grocery.WriteBatch(context.Background(), s, b); err != nil {
		t.Fatal(err)
	}
	return 40 * 120 * 3
}

// TestExportBatches reads more rows than one transaction's batch: every
// row comes once, in key order.
func TestExportBatches(t *testing.T) {
	s := MustFixture(t)
	n := manyObservations(t, s)
	got, sum := export(t, s, grocery.ExportInput{Format: "csv", Banner: "freshco", From: "2026-07-23", To: asOf})
	lines := strings.Split(strings.TrimSuffix(got, "\r\n"), "\r\n")[1:]
	if sum.Rows != n || int64(len(lines)) != n {
		t.Fatalf("rows: got %d (%d lines), want %d", sum.Rows, len(lines), n)
	}
	prev := ""
	for _, l := range lines {
		f := strings.Split(l, ",")
		key := f[4] + "|" + f[0] + "|" + f[1] // sku, date, store
		if key <= prev {
			t.Fatalf("row %q after %q: want strictly increasing", key, prev)
		}
		prev = key
	}
}

// cancelWriter cancels its context at its first write.
type cancelWriter struct {
	cancel context.CancelFunc
	n      int
}

func (w *cancelWriter) Write(b []byte) (int, error) {
	w.cancel()
	w.n += len(b)
	return len(b), nil
}

// TestExportCancel cancels an export at its first write, and while it
// reads (at its first progress report): it stops there with the
// context's error. An XLSX export writes nothing before it has read every
// row, so its first write comes after the reading.
func TestExportCancel(t *testing.T) {
	s := MustFixture(t)
	n := manyObservations(t, s)
	for _, format := range []string{"csv", "json", "xlsx"} {
		t.Run(format, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			w := &cancelWriter{cancel: cancel}
			sum, err := s.Export(ctx, grocery.ExportInput{Format: format, Banner: "freshco", From: "2026-07-23", To: asOf}, w)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if format != "xlsx" && sum.Rows >= n || w.n > 128<<10 {
				t.Fatalf("went on after the cancel: %d rows of %d, %d bytes written", sum.Rows, n, w.n)
			}
		})
		t.Run(format+"Reading", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var buf bytes.Buffer
			in := grocery.ExportInput{Format: format, Banner: "freshco", From: "2026-07-23", To: asOf, Progress: func(int64) { cancel() }}
			sum, err := s.Export(ctx, in, &buf)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			if sum.Rows > 8192+360 {
				t.Fatalf("went on after the cancel: %d rows of %d", sum.Rows, n)
			}
		})
	}
}

// upcWithCheck returns the 12-digit UPC of eleven digits with its GS1
// check digit.
func upcWithCheck(eleven string) string {
	sum := 0
	for i, c := range eleven {
		d := int(c - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return eleven + string(rune('0'+(10-sum%10)%10))
}

// TestExportCSVFormulas: text that a spreadsheet would evaluate as a
// formula (= + - @, and tab or CR, which some strip first) is written
// with a leading apostrophe (the OWASP rule); numbers are not touched; and
// the export imports back as it came: the importer removes the
// apostrophe the exporter added, and only that one.
func TestExportCSVFormulas(t *testing.T) {
	ctx := context.Background()
	// The names as stored; the file imported writes them as the export
	// does (with the apostrophe of the rule), plus a raw tab and CR,
	// which the import trims.
	names := []string{`=1+1`, `+1+1`, `-1+1`, `@SUM(1,1)`, `=HYPERLINK("http://127.0.0.1/x","click")`,
		`'=1+1`, `''+1`, `'quoted'`, `plain -1`}
	inFile := []string{`'=1+1`, `'+1+1`, `'-1+1`, `'@SUM(1,1)`, `'=HYPERLINK("http://127.0.0.1/x","click")`,
		`''=1+1`, `'''+1`, `'quoted'`, `plain -1`, "\t=1+1", "\r=1+1"}
	prices := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n"
	for i, n := range inFile {
		quoted := `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		prices += fmt.Sprintf("2026-11-18,s1,metro,M%d,1.%02d,,,%s,%s,'-Brand,'+1 L,'@Pantry\n", i, i, upcWithCheck(fmt.Sprintf("0754012%04d", i)), quoted)
	}
	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"s1,metro,ON,'=Metro,'-Toronto,M5V 2T6,43.5,-79.25\n"
	load := func(s *grocery.Service, storesCSV, pricesCSV string) {
		t.Helper()
		if _, err := s.Import(ctx, "stores.csv", strings.NewReader(storesCSV), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Import(ctx, "prices.csv", strings.NewReader(pricesCSV), nil); err != nil {
			t.Fatal(err)
		}
	}
	now := func() time.Time { return time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC) }
	open := func() *grocery.Service {
		s, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	first := open()
	load(first, stores, prices)
	obs, _ := export(t, first, grocery.ExportInput{Format: "csv", Banner: "metro"})
	st, _ := export(t, first, grocery.ExportInput{Format: "csv", Dataset: "stores", Banner: "metro"})

	// What a spreadsheet reads: no cell starts a formula.
	for _, file := range []string{obs, st} {
		recs, err := csv.NewReader(strings.NewReader(file)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs[1:] {
			for _, f := range rec {
				if f != "" && strings.ContainsRune("=+-@\t\r", rune(f[0])) && f != "-79.25" {
					t.Errorf("cell %q starts a formula in %q", f, rec)
				}
			}
		}
	}
	for _, want := range []string{`,'=1+1,`, `,'+1+1,`, `,'-1+1,`, `"'@SUM(1,1)"`, `"'=HYPERLINK(""http://127.0.0.1/x"",""click"")"`,
		`,''=1+1,`, `,'''+1,`, `,'quoted',`, `,plain -1,`, `,'-Brand,'+1 L,'@Pantry,,1.`} {
		if !strings.Contains(obs, want) {
			t.Errorf("observations CSV lacks %s:\n%s", want, obs)
		}
	}
	if !strings.Contains(st, `,'=Metro,'-Toronto,M5V 2T6,43.5,-79.25,`) {
		t.Errorf("stores CSV: want the text neutralised and the numbers as they are:\n%s", st)
	}

	// Imported back, it is the same data: exported again, the same files.
	// The import takes neither a stores export's banner_name and
	// observations_30d nor an observations export's province, on_promo
	// and currency: the stores file above, the export without those.
	recs, err := csv.NewReader(strings.NewReader(obs)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var back strings.Builder
	w := csv.NewWriter(&back)
	for _, rec := range recs {
		w.Write(slices.Concat(rec[:3], rec[4:11], rec[11:13], rec[14:15]))
	}
	w.Flush()
	second := open()
	load(second, stores, back.String())
	obs2, _ := export(t, second, grocery.ExportInput{Format: "csv", Banner: "metro"})
	st2, _ := export(t, second, grocery.ExportInput{Format: "csv", Dataset: "stores", Banner: "metro"})
	if diff := cmp.Diff(obs, obs2); diff != "" {
		t.Errorf("observations exported, imported and exported again (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(st, st2); diff != "" {
		t.Errorf("stores exported, imported and exported again (-first +second):\n%s", diff)
	}
	res, err := second.SearchProducts(ctx, grocery.SearchInput{Query: "click", Province: "ON"})
	if err != nil || len(res.Results) != 1 || res.Results[0].Name != names[4] {
		t.Errorf("search after the round trip: got %+v %v, want the name %q", res, err, names[4])
	}
}

// TestExportXLSXFormulas: an XLSX export writes text as inline strings
// (<c t="inlineStr"><is><t>), never a formula (<f>), so a name such as
// =1+1 is shown as the text it is, with no apostrophe added.
func TestExportXLSXFormulas(t *testing.T) {
	s := MustFixture(t)
	names := []string{`=1+1`, `+1+1`, `-1+1`, `@SUM(1,1)`, `=HYPERLINK("http://127.0.0.1/x","click")`}
	b := &grocery.Batch{
		Stores: []grocery.Store{{ID: "s1", Banner: "metro", Province: "ON", Name: "=Metro", City: "Toronto", PostalCode: "M5V 2T6", Latitude: 43.5, Longitude: -79.25, Active: true}},
	}
	for i, n := range names {
		g := gtin(t, upcWithCheck(fmt.Sprintf("0754012%04d", i)))
		sku := fmt.Sprintf("M%d", i)
		b.Products = append(b.Products, grocery.CatalogueItem{GTIN: g, Name: n, Brand: "-B", Category: "@C"})
		b.Links = append(b.Links, grocery.SKULink{Banner: "metro", ExternalSKU: sku, GTIN: g})
		b.Observations = append(b.Observations, grocery.Observation{Date: day(t, "2026-11-18"), StoreID: "s1", Banner: "metro", ExternalSKU: sku, Price: 100, RegularPrice: 100})
	}
	if _, err := grocery.WriteBatch(context.Background(), s, b); err != nil {
		t.Fatal(err)
	}
	got, _ := export(t, s, grocery.ExportInput{Format: "xlsx", Banner: "metro"})
	zr, err := zip.NewReader(strings.NewReader(got), int64(len(got)))
	if err != nil {
		t.Fatal(err)
	}
	var sheet []byte
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/worksheets/sheet") && strings.HasSuffix(f.Name, ".xml") {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			sheet, _ = io.ReadAll(rc)
			rc.Close()
		}
	}
	if len(sheet) == 0 {
		t.Fatal("no worksheet in the workbook")
	}
	if bytes.Contains(sheet, []byte("<f>")) || bytes.Contains(sheet, []byte("<f ")) {
		t.Errorf("the sheet holds a formula:\n%s", sheet)
	}
	for _, n := range append(names, "-B", "@C") {
		esc := strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;").Replace(n)
		cell := regexp.MustCompile(`<c r="[A-Z]+[0-9]+"[^>]* t="inlineStr"><is><t>` + regexp.QuoteMeta(esc) + `</t></is></c>`)
		if !cell.Match(sheet) {
			t.Errorf("%q is not an inline string cell of its own:\n%s", n, sheet)
		}
	}
	f, err := excelize.OpenReader(strings.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, err := f.GetCellFormula("observations", "G2"); err != nil || v != "" {
		t.Errorf("G2 formula: got %q %v, want none", v, err)
	}
}
