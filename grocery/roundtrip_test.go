package grocery_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/grocerydata/grocery/grocery"
)

// roundTripFormats are the export formats Import reads: all of them.
var roundTripFormats = []string{"csv", "jsonl", "json", "xlsx", "parquet"}

// roundTripProvince keeps the round trip small: the demo's BC holds seven
// stores of six banners and a store that left the panel (walmart-bc-8310)
// whose observations are in the export's 30 days.
const roundTripProvince = "BC"

// TestExportImportRoundTrip: for each format, the demo's stores export
// and then its observations export (the default 30 days) of one province
// import as they come into an empty data file, whose exports of the same
// datasets are the same files: byte for byte, but for XLSX, whose workbook records
// when it was written, the same rows (cell values as stored, compared
// after excelize decodes them). The stores export carries the stores
// that left the panel, which the observations name.
func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, err := grocery.Open(grocery.DemoCopy(t), &grocery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	now := func() time.Time { return time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC) }
	for _, format := range roundTripFormats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			dst, err := grocery.Open(filepath.Join(t.TempDir(), "empty.db"), &grocery.Options{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { dst.Close() })
			// Stores first: the observations name them. Both are imported
			// before either is exported again: a store's observations_30d
			// counts the observations.
			datasets := []string{"stores", "observations"}
			firsts := map[string]string{}
			for _, dataset := range datasets {
				in := grocery.ExportInput{Format: format, Dataset: dataset, Province: roundTripProvince}
				first, sum := export(t, src, in)
				if sum.Rows == 0 {
					t.Fatalf("%s: the demo's export holds no rows", dataset)
				}
				firsts[dataset] = first
				rep, err := dst.Import(ctx, dataset+"."+format, strings.NewReader(first), nil)
				if err != nil {
					t.Fatalf("import of the %s export: %v", dataset, err)
				}
				if rep.Kind != dataset || rep.Rows != int(sum.Rows) || rep.New != int(sum.Rows) {
					t.Errorf("%s: got report %s %d rows, %d new; want %s %d rows, all new", dataset, rep.Kind, rep.Rows, rep.New, dataset, sum.Rows)
				}
			}
			for _, dataset := range datasets {
				first := firsts[dataset]
				second, _ := export(t, dst, grocery.ExportInput{Format: format, Dataset: dataset, Province: roundTripProvince})
				if format == "xlsx" {
					if diff := cmp.Diff(xlsxRows(t, first), xlsxRows(t, second)); diff != "" {
						t.Errorf("%s: the rows of the second XLSX export differ (-first +second):\n%s", dataset, diff)
					}
				} else if first != second {
					i := firstDiff(first, second)
					t.Errorf("%s: the second export differs from the first at byte %d of %d:\n got %q\nwant %q", dataset, i, len(first), around(second, i), around(first, i))
				}
			}
			if format == "jsonl" && (!strings.Contains(firsts["observations"], `"product_type":"2% milk"`) || strings.Contains(firsts["observations"], `"product_type":null`)) {
				t.Errorf("the observations export does not carry every demo product's type")
			}
			if format == "csv" && !strings.Contains(firsts["stores"], ",false,demo\r\n") {
				t.Errorf("the stores export holds no inactive store: want those the observations name")
			}
			// Every row names its source, the demo's: a second import that
			// dropped it would give its stores SourceImport, and the second
			// export would differ.
			if format == "csv" && (!strings.HasSuffix(strings.SplitN(firsts["observations"], "\r\n", 2)[0], ",source") || strings.Count(firsts["observations"], ",demo\r\n") != strings.Count(firsts["observations"], "\r\n")-1) {
				t.Errorf("the observations export does not name the demo as every row's source")
			}
		})
	}
}

// TestImportOffersExport: an offers export is refused, saying what it is
// and what to export instead, in every format.
func TestImportOffersExport(t *testing.T) {
	t.Parallel()
	src, err := grocery.Open(grocery.DemoCopy(t), &grocery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	dst := MustOpen(t)
	for _, format := range roundTripFormats {
		t.Run(format, func(t *testing.T) {
			offers, _ := export(t, src, grocery.ExportInput{Format: format, Dataset: "offers", Province: "PE"})
			_, err := dst.Import(context.Background(), "offers."+format, strings.NewReader(offers), nil)
			errCode(t, err, grocery.EINVALIDARGUMENT)
			for _, want := range []string{"offers." + format, "dataset offers, which cannot be imported", "export and import datasets stores and observations instead"} {
				if !strings.Contains(grocery.ErrorMessage(err), want) {
					t.Errorf("got %q, want it to contain %q", grocery.ErrorMessage(err), want)
				}
			}
		})
	}
}

// xlsxRows returns the cells of an XLSX export's first sheet as stored.
func xlsxRows(t *testing.T, b string) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(strings.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetName(0), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// firstDiff returns the first byte where a and b differ.
func firstDiff(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// around returns up to 80 bytes of s from 40 before i.
func around(s string, i int) string {
	lo := max(0, i-40)
	return string(bytes.ToValidUTF8([]byte(s[lo:min(len(s), lo+80)]), nil))
}
