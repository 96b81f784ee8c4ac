package publicdata_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/publicdata"
)

func files(names ...string) []publicdata.File {
	var out []publicdata.File
	for _, n := range names {
		path := filepath.Join("testdata", n)
		out = append(out, publicdata.File{Name: n, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	}
	return out
}

// validBarcode stands for the import's GTIN check in these tests: the
// fixtures' valid codes.
func validBarcode(s string) bool {
	switch s {
	case "066800000152", "7540123456788", "6291041500213":
		return true
	}
	return false
}

func TestHammer(t *testing.T) {
	conv, err := publicdata.Convert(publicdata.Hammer, files("hammer-4-raw.csv", "hammer-4-product.csv"), publicdata.Options{ValidBarcode: validBarcode})
	if err != nil {
		t.Fatal(err)
	}
	stores := string(conv.Stores)
	for _, want := range []string{"hammer-voila,voila,ON", "hammer-save-on-foods,save-on-foods,BC,", "Kamloops", "hammer-galleria,galleria,ON", ",source\n", ",hammer\n"} {
		if !strings.Contains(stores, want) {
			t.Errorf("stores file lacks %q:\n%s", want, stores)
		}
	}
	if strings.Contains(stores, "costco") {
		t.Errorf("stores file has a Costco store, a vendor Hammer does not publish:\n%s", stores)
	}
	var obs bytes.Buffer
	if err := conv.WriteObservations(context.Background(), 0, func() (io.Writer, error) { return &obs, nil }); err != nil {
		t.Fatal(err)
	}
	wantObs := `date,store_id,banner,external_sku,price,regular_price,upc,name,brand,size,category,source
2025-07-28,hammer-voila,voila,V1001,6.49,6.49,066800000152,2% Milk,Neilson,4 L,,hammer
2025-07-29,hammer-voila,voila,V1001,5.49,6.49,066800000152,2% Milk,Neilson,4 L,,hammer
2025-07-30,hammer-voila,voila,V1001,6.49,6.49,066800000152,2% Milk,Neilson,4 L,,hammer
2025-08-20,hammer-voila,voila,V1001,6.49,6.49,066800000152,2% Milk,Neilson,4 L,,hammer
2025-08-21,hammer-voila,voila,V1001,6.79,6.79,066800000152,2% Milk,Neilson,4 L,,hammer
2025-07-28,hammer-t-and-t,t-and-t,TT2002,21.99,21.99,7540123456788,Jasmine Rice,Three Ladies,8 kg,,hammer
2025-08-21,hammer-t-and-t,t-and-t,TT2002,19.99,21.99,7540123456788,Jasmine Rice,Three Ladies,8 kg,,hammer
2025-07-30,hammer-loblaws,loblaws,L3003,3.49,3.49,,White Bread,Wonder,675 g,,hammer
2025-08-21,hammer-loblaws,loblaws,L3003,2.99,3.49,,White Bread,Wonder,675 g,,hammer
2025-08-21,hammer-no-frills,no-frills,NF4004,2.79,2.79,,White Bread,Wonder,675 g,,hammer
2025-08-21,hammer-save-on-foods,save-on-foods,SOF5005,1.69,1.69,6291041500213,Bananas,,1 kg,,hammer
2025-08-21,hammer-galleria,galleria,hammer-7,8.99,8.99,,"Kimchi, ""Mat"" cut",Jongga,1 kg,,hammer
`
	if diff := cmp.Diff(wantObs, obs.String()); diff != "" {
		t.Errorf("observations (-want +got):\n%s", diff)
	}
	s := conv.Summary
	if s.Rows != 18 || s.Kept != 12 || s.Stores != 6 || s.Products != 6 || s.SKUOnly != 3 {
		t.Errorf("summary: got rows %d kept %d stores %d products %d sku-only %d, want 18 12 6 6 3", s.Rows, s.Kept, s.Stores, s.Products, s.SKUOnly)
	}
	got := map[string]int{}
	for _, r := range s.NotMapped {
		got[r.Reason] = r.Count
	}
	want := map[string]int{
		"product of a vendor with no known banner":                      1,
		"sentinel date -4713-11-24 (no date recorded)":                  1,
		"current_price is not a number (shifted columns)":               1,
		"out of stock: not a price observation":                         1,
		"product_id not in the product file (or its vendor not mapped)": 2,
		"a later price the same day (the day's first is kept)":          1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("not mapped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]publicdata.Gap{{From: "2025-07-31", To: "2025-08-19", Days: 20}}, s.Gaps); diff != "" {
		t.Errorf("gaps (-want +got):\n%s", diff)
	}
}

// convertAll converts files of Project Hammer and writes their
// observations, in parts of partRows rows (0: one).
func convertAll(t *testing.T, fs []publicdata.File, partRows int) (string, *publicdata.Summary) {
	t.Helper()
	conv, err := publicdata.Convert(publicdata.Hammer, fs, publicdata.Options{ValidBarcode: validBarcode})
	if err != nil {
		t.Fatal(err)
	}
	var obs bytes.Buffer
	if err := conv.WriteObservations(context.Background(), partRows, func() (io.Writer, error) { return &obs, nil }); err != nil {
		t.Fatal(err)
	}
	return string(conv.Stores) + obs.String(), conv.Summary
}

// csvLine is a CSV example's location, "hammer-4-raw.csv:12".
var csvLine = regexp.MustCompile(`hammer-4-(product|raw)\.csv:(\d+)`)

// TestHammerSQLite converts Project Hammer's SQLite file holding the rows
// of the CSV fixtures (testdata/make-hammer-sqlite.sh): the same stores,
// observations and summary, in one part and in parts, but for the
// examples' locations, the table and rowid ("hammer.sqlite raw rowid 9")
// where the CSV files' are file:line (the rowid of a fixture's row being
// its line less the header's).
func TestHammerSQLite(t *testing.T) {
	for _, partRows := range []int{0, 5} {
		wantObs, wantSum := convertAll(t, files("hammer-4-product.csv", "hammer-4-raw.csv"), partRows)
		gotObs, gotSum := convertAll(t, files("hammer.sqlite"), partRows)
		if diff := cmp.Diff(wantObs, gotObs); diff != "" {
			t.Errorf("parts of %d: stores and observations (-csv +sqlite):\n%s", partRows, diff)
		}
		for _, rs := range [][]publicdata.Reason{wantSum.NotMapped, wantSum.Notes} {
			for i := range rs {
				for j, ex := range rs[i].Examples {
					rs[i].Examples[j] = csvLine.ReplaceAllStringFunc(ex, func(m string) string {
						sub := csvLine.FindStringSubmatch(m)
						line, _ := strconv.Atoi(sub[2])
						return fmt.Sprintf("hammer.sqlite %s rowid %d", sub[1], line-1)
					})
				}
			}
		}
		if diff := cmp.Diff(wantSum, gotSum); diff != "" {
			t.Errorf("parts of %d: summary (-csv +sqlite):\n%s", partRows, diff)
		}
	}
	_, sum := convertAll(t, files("hammer.sqlite"), 0)
	if sum.Rows != 18 || sum.Kept != 12 || len(sum.NotMapped) != 6 {
		t.Errorf("got %d rows, %d kept, %d reasons, want 18, 12, 6", sum.Rows, sum.Kept, len(sum.NotMapped))
	}
	want := []string{`hammer.sqlite raw rowid 16: "6"`, `hammer.sqlite raw rowid 18: "999"`}
	if diff := cmp.Diff(want, sum.NotMapped[0].Examples); diff != "" {
		t.Errorf("examples of %q (-want +got):\n%s", sum.NotMapped[0].Reason, diff)
	}
}

// TestHammerSQLiteRefused: a SQLite file that is not Project Hammer's, one
// that opens as a stream, and a corrupt one are refused, naming the file
// and what was expected.
func TestHammerSQLiteRefused(t *testing.T) {
	hammer, err := os.ReadFile(filepath.Join("testdata", "hammer.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile(filepath.Join("..", "internal", "sqlitefile", "testdata", "tiny.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(hammer)
	corrupt[16], corrupt[17] = 0x03, 0xe8 // a page size of 1000
	for _, tc := range []struct {
		name string
		open func() (io.ReadCloser, error)
		want string
	}{
		{"stream.sqlite", func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(hammer)), nil },
			"stream.sqlite: a SQLite file is read at random, and this one opens as a stream (io.nopCloserWriterTo): give it as a file"},
		{"tiny.sqlite", func() (io.ReadCloser, error) { return readerAt{bytes.NewReader(other)}, nil },
			"tiny.sqlite is a SQLite file but not Project Hammer's (tables product and raw): no table product: the database has t"},
		{"corrupt.sqlite", func() (io.ReadCloser, error) { return readerAt{bytes.NewReader(corrupt)}, nil },
			"corrupt.sqlite: corrupt SQLite database: page size 1000: want a power of two from 512 to 65536"},
	} {
		_, err := publicdata.Convert(publicdata.Hammer, []publicdata.File{{Name: tc.name, Open: tc.open}}, publicdata.Options{ValidBarcode: validBarcode})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}

// readerAt is a bytes.Reader as a File opens it: an io.ReaderAt with a
// Size.
type readerAt struct{ *bytes.Reader }

func (readerAt) Close() error { return nil }

func TestHammerNeedsProducts(t *testing.T) {
	_, err := publicdata.Convert(publicdata.Hammer, files("hammer-4-raw.csv"), publicdata.Options{ValidBarcode: validBarcode})
	if err == nil || !strings.Contains(err.Error(), "hammer-4-product.csv") {
		t.Errorf("got %v, want an error naming the product file", err)
	}
}

// TestHammerParts writes the observations in parts of 5 rows: each part a
// whole file with its header, the rows in order.
func TestHammerParts(t *testing.T) {
	conv, err := publicdata.Convert(publicdata.Hammer, files("hammer-4-product.csv", "hammer-4-raw.csv"), publicdata.Options{ValidBarcode: validBarcode})
	if err != nil {
		t.Fatal(err)
	}
	var parts []*bytes.Buffer
	err = conv.WriteObservations(context.Background(), 5, func() (io.Writer, error) {
		parts = append(parts, &bytes.Buffer{})
		return parts[len(parts)-1], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range parts {
		if !strings.HasPrefix(p.String(), "date,store_id,") {
			t.Errorf("part without the header: %q", p.String())
		}
		lines = append(lines, strings.Count(p.String(), "\n")-1)
	}
	if diff := cmp.Diff([]int{5, 5, 2}, lines); diff != "" {
		t.Errorf("rows per part (-want +got):\n%s", diff)
	}
}

func TestStatCan(t *testing.T) {
	conv, err := publicdata.Convert(publicdata.StatCan, files("18100245.csv"), publicdata.Options{ValidBarcode: validBarcode})
	if err != nil {
		t.Fatal(err)
	}
	want := []publicdata.Benchmark{
		{Province: "CA", Product: "Milk, 4 litres", Month: "2025-06", UOM: "Dollars", Cents: 641},
		{Province: "ON", Product: "Milk, 4 litres", Month: "2025-07", UOM: "Dollars", Cents: 629},
		{Province: "ON", Product: "Milk, 4 litres", Month: "2025-08", UOM: "Dollars", Cents: 639},
		{Province: "BC", Product: "Bananas, per kilogram", Month: "2025-08", UOM: "Dollars", Cents: 179},
	}
	if diff := cmp.Diff(want, conv.Benchmarks); diff != "" {
		t.Errorf("benchmarks (-want +got):\n%s", diff)
	}
	if n := len(conv.Summary.NotMapped); n != 2 || conv.Summary.Rows != 6 {
		t.Errorf("got %d rows, not mapped %+v, want 6 rows, 2 reasons (no value, a city's GEO)", conv.Summary.Rows, conv.Summary.NotMapped)
	}
}

// TestHammerChunkOrder: written in parts, the observations come by
// product, then day, within each chunk of hammerChunkParts parts (here
// the whole sample), so that a part holds all the days of a few products,
// not a few days of all of them as the raw file, ordered by time, has
// them; they are the rows written in the file's order.
func TestHammerChunkOrder(t *testing.T) {
	var products, raw bytes.Buffer
	if _, err := publicdata.WriteHammerSample(&products, &raw, publicdata.HammerSample{Products: 6, Days: 5, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	sample := []publicdata.File{
		{Name: "hammer-4-product.csv", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(products.Bytes())), nil }},
		{Name: "hammer-4-raw.csv", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw.Bytes())), nil }},
	}
	valid := func(string) bool { return true }
	write := func(partRows int) []string {
		conv, err := publicdata.Convert(publicdata.Hammer, sample, publicdata.Options{ValidBarcode: valid})
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		var buf *bytes.Buffer
		flush := func() {
			if buf != nil {
				lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
				all = append(all, lines[1:]...)
			}
		}
		err = conv.WriteObservations(context.Background(), partRows, func() (io.Writer, error) {
			flush()
			buf = &bytes.Buffer{}
			return buf, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		flush()
		return all
	}
	inFileOrder, inParts := write(0), write(4)
	if len(inParts) < 20 {
		t.Fatalf("%d rows written, want most of the sample's 30", len(inParts))
	}
	// Each product once, its days in order.
	var skus []string
	last := map[string]string{}
	for _, l := range inParts {
		f := strings.Split(l, ",")
		date, sku := f[0], f[3]
		if len(skus) == 0 || skus[len(skus)-1] != sku {
			if slices.Contains(skus, sku) {
				t.Errorf("product %s comes again at %q: want its days together", sku, l)
			}
			skus = append(skus, sku)
		} else if date <= last[sku] {
			t.Errorf("product %s: %s after %s, want its days in order", sku, date, last[sku])
		}
		last[sku] = date
	}
	sortedFileOrder := slices.Clone(inFileOrder)
	slices.Sort(sortedFileOrder)
	sortedParts := slices.Clone(inParts)
	slices.Sort(sortedParts)
	if diff := cmp.Diff(sortedFileOrder, sortedParts); diff != "" {
		t.Errorf("rows written in parts against in one file (-one +parts):\n%s", diff)
	}
}
