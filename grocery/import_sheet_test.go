package grocery

import (
	"archive/zip"
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/grocerydata/grocery/grocery/internal/importrow"
)

// workbook builds an XLSX file whose first sheet, named sheet, holds rows;
// a nil cell is left empty, a time.Time is a date cell.
func workbook(tb testing.TB, sheet string, rows ...[]any) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		tb.Fatal(err)
	}
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14}) // Excel's short date
	if err != nil {
		tb.Fatal(err)
	}
	for i, row := range rows {
		for j, v := range row {
			if v == nil {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
			if err := f.SetCellValue(sheet, cell, v); err != nil {
				tb.Fatal(err)
			}
			if _, ok := v.(time.Time); ok {
				f.SetCellStyle(sheet, cell, cell, date)
			}
		}
	}
	// A second sheet, which is not read.
	f.NewSheet("Notes")
	f.SetCellValue("Notes", "A1", "not data")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func importBytes(tb testing.TB, svc *Service, name string, b []byte) (*ImportReport, error) {
	tb.Helper()
	return svc.Import(context.Background(), name, bytes.NewReader(b), nil)
}

func header(s string) []any {
	var h []any
	for _, c := range strings.Split(s, ",") {
		h = append(h, c)
	}
	return h
}

func TestImport_XLSX(t *testing.T) {
	ctx := context.Background()
	svc := openImportService(t)
	day := time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)

	stores := workbook(t, "Stores",
		header(storesHeader),
		[]any{"ON-LOB-001", "loblaws", "ON", "Loblaws Queens Quay", "Toronto", "M5J 2R6", 43.641, -79.376, true},
		nil, // an empty row is skipped
		[]any{"QC-IGA-001", "iga", "QC", "IGA Plateau, Mont-Royal", "Montréal", "H2T 1S4", 45.52, -73.58, nil},
	)
	rep, err := importBytes(t, svc, "stores.xlsx", stores)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := countsOf(rep), (counts{Kind: "stores", Format: "xlsx", Rows: 2, New: 2}); got != want {
		t.Errorf("stores: got %+v, want %+v", got, want)
	}

	prices := workbook(t, "Prices",
		header(obsHeader),
		// A date cell, a numeric price, a barcode typed as a number that
		// lost its leading 0 (067000378089).
		[]any{day, "ON-LOB-001", "loblaws", 20001, 3.5, 4.79, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), 67000378089, "Orange Juice", "Minute Maid", "1.54 L", "Beverages"},
		// Text cells; a 13-digit numeric barcode.
		[]any{"2026-11-18", "QC-IGA-001", "iga", "IGA-5", "5.29", nil, nil, 7540123456788, "Lait 2 %", "Québon", "2 L", "Produits laitiers"},
	)
	rep, err = importBytes(t, svc, "prices.xlsx", prices)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := countsOf(rep), (counts{Kind: "observations", Format: "xlsx", Rows: 2, New: 2}); got != want {
		t.Errorf("observations: got %+v, want %+v", got, want)
	}

	res, err := svc.LookupProduct(ctx, LookupInput{UPC: "067000378089", Province: "ON"})
	if err != nil {
		t.Fatalf("LookupProduct(067000378089): %v", err)
	}
	if len(res.Offers) != 1 {
		t.Fatalf("got %d offers, want 1", len(res.Offers))
	}
	o := res.Offers[0]
	if o.Price != 350 || o.RegularPrice != 479 || o.PromoEnds == nil || o.PromoEnds.String() != "2026-11-25" || o.ObservedAt.String() != "2026-11-18" {
		t.Errorf("offer: got price %s, regular %s, promo_ends %v, date %s; want 3.50, 4.79, 2026-11-25, 2026-11-18",
			o.Price, o.RegularPrice, o.PromoEnds, o.ObservedAt)
	}
	if _, err := svc.LookupProduct(ctx, LookupInput{UPC: "7540123456788", Province: "QC"}); err != nil {
		t.Errorf("LookupProduct(7540123456788): %v", err)
	}

	// The same file again changes nothing.
	rep, err = importBytes(t, svc, "prices.xlsx", prices)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := countsOf(rep), (counts{Kind: "observations", Format: "xlsx", Rows: 2, Unchanged: 2}); got != want {
		t.Errorf("again: got %+v, want %+v", got, want)
	}
}

func TestImport_XLSXBadRow(t *testing.T) {
	ctx := context.Background()
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	prices := workbook(t, "Sheet1",
		header(obsHeader),
		[]any{"2026-11-18", "ON-LOB-001", "loblaws", "20001", 4.99, nil, nil, "066800000152", "2% Milk", "Natrel", "2 L", "Dairy & Eggs"},
		nil,
		[]any{"2026-11-18", "ON-LOB-001", "loblaws", "20002", "4.999"},
	)
	_, err := importBytes(t, svc, "prices.xlsx", prices)
	if want := `prices.xlsx, sheet Sheet1, row 4: price: "4.999" is not a dollar amount`; ErrorCode(err) != EINVALIDARGUMENT || !strings.HasPrefix(ErrorMessage(err), want) {
		t.Fatalf("got %v, want %s %q", err, EINVALIDARGUMENT, want)
	}
	// All or nothing: the good row 2 is not stored either.
	if _, err := svc.LookupProduct(ctx, LookupInput{UPC: "066800000152", Province: "ON"}); ErrorCode(err) != ENOTFOUND {
		t.Errorf("LookupProduct after a failed import: got %v, want %s", err, ENOTFOUND)
	}

	// A repeated row is named by its row.
	prices = workbook(t, "Sheet1",
		header(obsHeader),
		[]any{"2026-11-18", "ON-LOB-001", "loblaws", "20001", 4.99},
		[]any{"2026-11-18", "ON-LOB-001", "loblaws", "20001", 4.49},
	)
	_, err = importBytes(t, svc, "prices.xlsx", prices)
	if want := "prices.xlsx, sheet Sheet1, row 3: price: 4.49 conflicts with row 2"; !strings.HasPrefix(ErrorMessage(err), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestImport_Separators(t *testing.T) {
	ctx := context.Background()
	svc := openImportService(t)
	semi := func(s string) string { return strings.ReplaceAll(s, ",", ";") }

	t.Run("Semicolon", func(t *testing.T) {
		// Decimal commas (as a French-Canadian spreadsheet writes them).
		rep := mustImport(t, svc, "stores.csv", lines(semi(storesHeader),
			"ON-LOB-001;loblaws;ON;Loblaws Queens Quay;Toronto;M5J 2R6;43,6410;-79,3760;true",
			`QC-IGA-001;iga;QC;"IGA Plateau; Mont-Royal";Montréal;H2T 1S4;45.52;-73.58;`,
		), nil)
		if got, want := countsOf(rep), (counts{Kind: "stores", Format: "csv", Rows: 2, New: 2}); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		rep = mustImport(t, svc, "prices.csv", lines(semi(obsHeader),
			"2026-11-18;ON-LOB-001;loblaws;20001;3,50;4,79;2026-11-25;067000378089;Orange Juice;Minute Maid;1,54 L;Beverages",
		), nil)
		if got, want := countsOf(rep), (counts{Kind: "observations", Format: "csv", Rows: 1, New: 1}); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
		res, err := svc.LookupProduct(ctx, LookupInput{UPC: "067000378089", Province: "ON"})
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Offers[0]; o.Price != 350 || o.RegularPrice != 479 {
			t.Errorf("got price %s, regular %s, want 3.50, 4.79", o.Price, o.RegularPrice)
		}
		if res.Product.Size != "1,54 L" {
			t.Errorf("got size %q, want %q (text keeps its comma)", res.Product.Size, "1,54 L")
		}
	})

	t.Run("Tab", func(t *testing.T) {
		tab := func(s string) string { return strings.ReplaceAll(s, ",", "\t") }
		rep := mustImport(t, svc, "prices.tsv", lines(tab(obsHeader),
			tab("2026-11-19,ON-LOB-001,loblaws,20001,3.75,4.79,2026-11-25,,,,,"),
		), nil)
		if got, want := countsOf(rep), (counts{Kind: "observations", Format: "csv", Rows: 1, New: 1}); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})

	for _, tc := range []struct {
		name, header, want string
	}{
		{"ErrSemicolonUnknownColumn", "date;store_id;banner;sku;price",
			`prices.csv:1: header: missing column external_sku; unknown column "sku" for an observations file: want ` + importrow.Observations.Describe() +
				`; the header is separated by ";": want "," (";" or tab also work when they separate all the required columns)`},
		{"ErrMixed", "date;store_id;banner;external_sku,price",
			`; the header mixes separators ("," once, ";" 3 times): want one separator, "," (or ";" or tab), between all its columns`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importString(t, svc, "prices.csv", lines(tc.header, "2026-11-18;ON-LOB-001;loblaws;20001;4.99"), nil)
			if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(ErrorMessage(err), tc.want) {
				t.Errorf("got %v, want %s with %q", err, EINVALIDARGUMENT, tc.want)
			}
		})
	}
}

func TestImport_NotATable(t *testing.T) {
	svc := openImportService(t)
	var zipFile bytes.Buffer
	zw := zip.NewWriter(&zipFile)
	w, _ := zw.Create("photos/IMG_0001.jpg")
	w.Write([]byte("\xff\xd8\xff\xe0 not really a photo"))
	zw.Close()
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"Zip", zipFile.Bytes(), "data.csv: not a CSV, JSON Lines, JSON, XLSX or Parquet file: it is a ZIP archive but not a readable XLSX workbook"},
		{"Random", random, "data.csv: not a CSV, JSON Lines, JSON, XLSX or Parquet file: it holds binary data"},
		{"BinaryAfterText", append([]byte("date,price\n"), random...), "data.csv: not a CSV, JSON Lines, JSON, XLSX or Parquet file: it holds binary data"},
		{"XLS", append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), random...), "data.csv: not a CSV, JSON Lines, JSON, XLSX or Parquet file: it is an OLE2 file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := importBytes(t, svc, "data.csv", tc.in)
			msg := ErrorMessage(err)
			if ErrorCode(err) != EINVALIDARGUMENT || !strings.HasPrefix(msg, tc.want) {
				t.Errorf("got %v, want %s %q", err, EINVALIDARGUMENT, tc.want)
			}
			for _, r := range msg {
				if !unicode.IsPrint(r) || r > unicode.MaxASCII {
					t.Fatalf("the message holds %q: %q", r, msg)
				}
			}
		})
	}
}

// TestImport_XLSXHeader checks that a bad header in a workbook is named by
// its sheet and row, and that a sheet without rows is an empty file.
func TestImport_XLSXHeader(t *testing.T) {
	svc := openImportService(t)
	b := workbook(t, "Feuil1", nil, []any{"date", "magasin", "prix"})
	_, err := importBytes(t, svc, "prix.xlsx", b)
	if want := "prix.xlsx, sheet Feuil1, row 2: header: "; !strings.HasPrefix(ErrorMessage(err), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = importBytes(t, svc, "empty.xlsx", workbook(t, "Sheet1"))
	if want := "empty.xlsx: the file is empty"; !strings.HasPrefix(ErrorMessage(err), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
