package restserver_test

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
	"github.com/xuri/excelize/v2"
)

// TestExportXLSXReadBack exports the same thousands of observation rows
// of the small demo set over HTTP as CSV and as XLSX, reads the workbook
// back with excelize and finds every row of the CSV in it, cell by cell,
// with its type and number format: dates as serial numbers formatted
// yyyy-mm-dd, prices as numbers in dollars, booleans as booleans, barcodes
// as text keeping their leading zeros, empty promo_ends as empty cells;
// and the bold frozen header row with an autofilter over every row.
func TestExportXLSXReadBack(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the small demo set: not in -short mode")
	}
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: benchAsOf}); err != nil {
		t.Fatal(err)
	}
	s, err := grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k, err := s.CreateKey(ctx, grocery.KeyInput{Account: "xlsx-read-back", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(restserver.New(s, nil))
	defer hs.Close()
	fetch := func(format string) []byte {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, hs.URL+"/b2b/export?dataset=observations&province=ON&from=2026-11-13&to=2026-11-19&format="+format, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-API-Key", k.Key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s: %s", format, resp.Status, body)
		}
		return body
	}
	want, err := csv.NewReader(bytes.NewReader(fetch("csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// More rows than the writer holds back to size the columns (1,000),
	// with promotions and empty promo_ends among them.
	if len(want) < 2000 {
		t.Fatalf("the CSV export has %d rows: want thousands to compare", len(want))
	}
	f, err := excelize.OpenReader(bytes.NewReader(fetch("xlsx")))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const sh = "observations"
	got, err := f.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("rows: the XLSX has %d, the CSV %d", len(got), len(want))
	}
	// GetRows shows cells through their number formats: money as $4.99
	// (with a thousands separator), booleans as TRUE/FALSE.
	money := func(s string) string { return strings.ReplaceAll(strings.TrimPrefix(s, "$"), ",", "") }
	var promo, plain int // rows with and without a promo_ends date
	for i := range want {
		g, w := got[i], want[i]
		if i > 0 {
			if len(g) != len(w) {
				t.Fatalf("row %d: %d cells, want %d: %q", i+1, len(g), len(w), g)
			}
			g[12], g[13], g[14] = money(g[12]), money(g[13]), strings.ToLower(g[14])
			if w[15] == "" {
				plain++
			} else {
				promo++
			}
		}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Fatalf("row %d (-csv +xlsx):\n%s", i+1, diff)
		}
	}
	if promo == 0 || plain == 0 {
		t.Fatalf("%d rows with a promo_ends date, %d without: want both", promo, plain)
	}

	// Every data row's cells are typed and formatted by column.
	formats := map[int]string{0: rowDateFormat, 12: rowMoneyFormat, 13: rowMoneyFormat, 15: rowDateFormat}
	for i := 1; i < len(want); i += 97 {
		for col := range want[i] {
			cell, _ := excelize.CoordinatesToCellName(col+1, i+1)
			typ, err := f.GetCellType(sh, cell)
			if err != nil {
				t.Fatal(err)
			}
			style, err := f.GetCellStyle(sh, cell)
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
			wantType := excelize.CellTypeInlineString
			switch {
			case col == 14:
				wantType = excelize.CellTypeBool
			case formats[col] != "":
				wantType = excelize.CellTypeUnset // a number
			}
			if (col == 15 || col == 11 || col == 7) && want[i][col] == "" {
				wantType = excelize.CellTypeUnset // empty: no promo_ends, no product_type, no name_fr
			}
			if typ != wantType || format != formats[col] {
				t.Fatalf("%s: type %v, format %q; want %v, %q", cell, typ, format, wantType, formats[col])
			}
		}
	}

	// The header: bold, frozen above the rows, under an autofilter that
	// covers every row.
	style, err := f.GetCellStyle(sh, "A1")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := f.GetStyle(style); err != nil || st.Font == nil || !st.Font.Bold {
		t.Errorf("A1 is not bold: %+v, %v", st, err)
	}
	panes, err := f.GetPanes(sh)
	if err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("panes: %+v, %v; want the first row frozen", panes, err)
	}
	tables, err := f.GetTables(sh)
	if err != nil {
		t.Fatal(err)
	}
	last, _ := excelize.CoordinatesToCellName(len(want[0]), len(want))
	if len(tables) != 1 || tables[0].Range != "A1:"+last {
		t.Errorf("tables: %+v; want one over A1:%s", tables, last)
	}
}

// The number formats of the XLSX money and date cells.
const (
	rowMoneyFormat = `[$$-1009]#,##0.00`
	rowDateFormat  = `yyyy-mm-dd`
)
