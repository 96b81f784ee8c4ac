package grocery

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// The stores and observations of testStoresCSV and testObsCSV as a data
// team's pipeline writes them to Parquet: typed where a type fits.
type pqStore struct {
	ID     string  `parquet:"store_id,dict"`
	Banner string  `parquet:"banner,dict"`
	Prov   string  `parquet:"province"`
	Name   string  `parquet:"name"`
	City   string  `parquet:"city"`
	Postal string  `parquet:"postal_code"`
	Lat    float64 `parquet:"latitude"`
	Lon    float64 `parquet:"longitude"`
	Active *bool   `parquet:"active,optional"`
	Index  int64   `parquet:"__index_level_0__"`
}

type pqObs struct {
	Date     int32   `parquet:"date,date"`
	Store    string  `parquet:"store_id"`
	Banner   string  `parquet:"banner"`
	SKU      string  `parquet:"external_sku"`
	Price    int32   `parquet:"price,decimal(2:9)"`
	Regular  *int64  `parquet:"regular_price,optional,decimal(2:18)"`
	Ends     *int32  `parquet:"promo_ends,optional,date"`
	UPC      *string `parquet:"upc,optional"`
	Name     *string `parquet:"name,optional"`
	Brand    *string `parquet:"brand,optional"`
	Size     *string `parquet:"size,optional"`
	Category *string `parquet:"category,optional"`
}

func pqFile[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, parquet.Compression(&parquet.Snappy))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pqDay(s string) int32 {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return int32(d.Unix() / 86400)
}

func ptr[T any](v T) *T { return &v }

// exportAll is every dataset of svc as CSV.
func exportAll(t *testing.T, svc *Service) string {
	t.Helper()
	var all strings.Builder
	for _, in := range []ExportInput{
		{Dataset: "observations", From: "2026-11-01", To: "2026-11-19"},
		{Dataset: "offers"}, {Dataset: "stores"},
	} {
		in.Format = "csv"
		var b bytes.Buffer
		if _, err := svc.Export(context.Background(), in, &b); err != nil {
			t.Fatal(err)
		}
		all.WriteString(b.String())
	}
	return all.String()
}

// TestImportParquetEqualsCSV imports the same stores and observations as
// CSV into one data file and as Parquet (typed columns, and a file of
// text columns only) into others: the reports and every export agree, and
// the data files hold the same rows.
func TestImportParquetEqualsCSV(t *testing.T) {
	ctx := context.Background()
	csvSvc := openImportService(t)
	stRep := mustImport(t, csvSvc, "stores.csv", testStoresCSV, nil)
	obsRep := mustImport(t, csvSvc, "obs.csv", testObsCSV, nil)
	want := exportAll(t, csvSvc)
	if strings.Count(want, "\n") < 10 {
		t.Fatalf("the CSV import exports little:\n%s", want)
	}

	stores := pqFile(t, []pqStore{
		{"ON-LOB-001", "loblaws", "ON", "Loblaws Queens Quay", "Toronto", "M5J 2R6", 43.6410, -79.3760, ptr(true), 0},
		{"ON-NOF-001", "No Frills", "Ontario", "No Frills Dundas", "Toronto", "m6j1w3", 43.6500, -79.4200, ptr(true), 1},
		{"QC-IGA-001", "iga", "qc", "IGA Plateau, Mont-Royal", "Montréal", "H2T 1S4", 45.5200, -73.5800, nil, 2},
		{"ON-LOB-002", "loblaws", "ON", "Loblaws Ottawa", "Ottawa", "K1P 5J2", 45.4215, -75.6972, ptr(false), 3},
	})
	obs := pqFile(t, []pqObs{
		{pqDay("2026-11-18"), "ON-LOB-001", "loblaws", "20001", 499, nil, nil, ptr("06680000015"), ptr("2% Partly Skimmed Milk"), ptr("Natrel"), ptr("2 L"), ptr("Dairy & Eggs")},
		{pqDay("2026-11-18"), "ON-NOF-001", "no-frills", "NF-77", 449, ptr(int64(479)), ptr(pqDay("2026-11-25")), ptr("066800000152"), nil, nil, nil, nil},
		{pqDay("2026-11-18"), "QC-IGA-001", "iga", "IGA-5", 529, nil, nil, ptr("7540123456788"), ptr("Lait 2 %"), ptr("Québon"), ptr("2 L"), ptr("Produits laitiers")},
		{pqDay("2026-11-17"), "ON-LOB-001", "loblaws", "20001", 499, ptr(int64(499)), nil, nil, nil, nil, nil, nil},
		{pqDay("2026-11-18"), "ON-LOB-001", "loblaws", "30002", 399, nil, nil, ptr("060383000011"), ptr("Corn Flakes"), ptr("Kellogg's"), ptr("340 g"), ptr("Pantry")},
	})
	// The same files with every column text, as CSV cells.
	textStores := textFile(t, testStoresCSV, nil)
	textObs := textFile(t, testObsCSV, nil)

	for _, files := range [][2][]byte{{stores, obs}, {textStores, textObs}} {
		path := filepath.Join(t.TempDir(), "grocery.db")
		svc, err := Open(path, &Options{Now: importClock})
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		gotSt, err := svc.Import(ctx, "stores.parquet", bytes.NewReader(files[0]), nil)
		if err != nil {
			t.Fatal(err)
		}
		gotObs, err := svc.Import(ctx, "obs.parquet", bytes.NewReader(files[1]), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct{ got, want *ImportReport }{{gotSt, stRep}, {gotObs, obsRep}} {
			g, w := countsOf(r.got), countsOf(r.want)
			if g.Format != "parquet" {
				t.Errorf("format %q, want parquet", g.Format)
			}
			g.Format = w.Format
			if g != w {
				t.Errorf("report %+v, the CSV's %+v", g, w)
			}
		}
		if diff := cmp.Diff(want, exportAll(t, svc)); diff != "" {
			t.Errorf("exports (-csv import +parquet import):\n%s", diff)
		}
	}
}

// textFile writes a CSV text as a Parquet file of optional string
// columns named like its header, an empty cell a null; edit may change
// the cells first.
func textFile(t *testing.T, csvText string, edit func(rows [][]string)) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(csvText), "\n")
	header := splitCSV(lines[0])
	var rows [][]string
	for _, l := range lines[1:] {
		cells := splitCSV(l)
		if len(cells) != len(header) {
			t.Fatalf("%q: %d cells", l, len(cells))
		}
		rows = append(rows, cells)
	}
	if edit != nil {
		edit(rows)
	}
	g := parquet.Group{}
	for _, h := range header {
		g[h] = parquet.Optional(parquet.String())
	}
	schema := parquet.NewSchema("text", g)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema)
	for _, cells := range rows {
		// The schema's columns come sorted by name.
		row := make(parquet.Row, 0, len(header))
		for ci, f := range schema.Fields() {
			v := cells[slices.Index(header, f.Name())]
			if v == "" {
				row = append(row, parquet.NullValue().Level(0, 0, ci))
			} else {
				row = append(row, parquet.ByteArrayValue([]byte(v)).Level(0, 1, ci))
			}
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// splitCSV splits one CSV line with quoted fields without line breaks.
func splitCSV(l string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case c == '"' && quoted && i+1 < len(l) && l[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, cur.String())
}

// TestImportParquetIntegerUPC: a barcode in an integer column has lost its
// leading zero, as in a spreadsheet: it is put back when that gives a
// valid UPC-A. In a text column the same digits get a check digit, as in
// CSV.
func TestImportParquetIntegerUPC(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	type intUPC struct {
		Date   int32  `parquet:"date,date"`
		Store  string `parquet:"store_id"`
		Banner string `parquet:"banner"`
		SKU    string `parquet:"external_sku"`
		Price  string `parquet:"price"`
		UPC    int64  `parquet:"upc"`
		Name   string `parquet:"name"`
	}
	data := pqFile(t, []intUPC{{pqDay("2026-11-18"), "ON-LOB-001", "loblaws", "30002", "3.99", 60383000011, "Corn Flakes"}})
	if _, err := svc.Import(context.Background(), "int.parquet", bytes.NewReader(data), nil); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := svc.Export(context.Background(), ExportInput{Format: "csv", Dataset: "offers"}, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), ",060383000011,Corn Flakes,") {
		t.Errorf("the integer upc 60383000011 is not read as 060383000011:\n%s", b.String())
	}
}

// TestImportParquetErrors: a Parquet file's bad row is named by its row,
// its unknown columns by the schema, and a damaged file is refused with
// nothing written.
func TestImportParquetErrors(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	bad := textFile(t, testObsCSV, func(rows [][]string) { rows[2][4] = "cheap" })
	_, err := svc.Import(context.Background(), "bad.parquet", bytes.NewReader(bad), nil)
	if err == nil || !strings.Contains(err.Error(), "bad.parquet, row 3: price") {
		t.Errorf("bad price: %v, want it named by file and row 3", err)
	}
	type odd struct {
		Colour string `parquet:"colour"`
	}
	_, err = svc.Import(context.Background(), "odd.parquet", bytes.NewReader(pqFile(t, []odd{{"red"}})), nil)
	if err == nil || !strings.Contains(err.Error(), "odd.parquet, schema: header:") {
		t.Errorf("unknown columns: %v", err)
	}
	good := textFile(t, testObsCSV, nil)
	_, err = svc.Import(context.Background(), "cut.parquet", bytes.NewReader(good[:len(good)/2]), nil)
	if err == nil || !strings.Contains(err.Error(), "cut.parquet: not a readable Parquet file") {
		t.Errorf("a file cut short: %v", err)
	}
	var b bytes.Buffer
	if _, err := svc.Export(context.Background(), ExportInput{Format: "csv", Dataset: "offers"}, &b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 1 {
		t.Errorf("%d rows stored after refused files, want none:\n%s", n-1, b.String())
	}
}
