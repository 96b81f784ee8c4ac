package grocery_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// exportCursor exports in and returns its rows (CSV lines after the
// header) and its cursor.
func exportCursor(t *testing.T, s *grocery.Service, in grocery.ExportInput) ([]string, string) {
	t.Helper()
	ctx := context.Background()
	in.Format = "csv"
	p, err := s.PrepareExport(ctx, in)
	if err != nil {
		t.Fatalf("PrepareExport(%+v): %v", in, err)
	}
	var buf bytes.Buffer
	if _, err := p.Stream(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\r\n"), "\r\n")
	return lines[1:], p.Cursor
}

func obs(date, store, banner, sku string, price, regular grocery.Cents) grocery.Observation {
	d, _ := grocery.ParseDate(date)
	return grocery.Observation{Date: d, StoreID: store, Banner: banner, ExternalSKU: sku, Price: price, RegularPrice: regular}
}

// TestExportChangedSince: an export with the cursor of an earlier one
// gives exactly the observations added or changed since, each once, at
// its current price; a write that commits while an export streams comes
// with the next one; a rename brings its SKU's rows again; every format
// takes the cursor; a cursor of another file is EGONE.
func TestExportChangedSince(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustFixture(t)
	all, c1 := exportCursor(t, s, grocery.ExportInput{})
	if len(all) != 16 || c1 == "" {
		t.Fatalf("full export: %d rows, cursor %q; want 16 and a cursor", len(all), c1)
	}
	if got, c := exportCursor(t, s, grocery.ExportInput{ChangedSince: c1}); len(got) != 0 || c != c1 {
		t.Fatalf("nothing written since: got %v with cursor %q, want no row and the same cursor", got, c)
	}
	// A new day, a correction of 11-19 and a row given again alike.
	if _, err := grocery.WriteBatch(ctx, s, &grocery.Batch{Observations: []grocery.Observation{
		obs("2026-11-20", "lob-on-1", "loblaws", "21000001_EA", 479, 599),
		obs("2026-11-20", "nf-on-1", "no-frills", "21000001_EA", 469, 469),
		obs("2026-11-19", "lob-on-2", "loblaws", "21000001_EA", 449, 599),
		obs("2026-11-19", "lob-on-1", "loblaws", "21000002_EA", 349, 349),
	}}); err != nil {
		t.Fatal(err)
	}
	got, c2 := exportCursor(t, s, grocery.ExportInput{ChangedSince: c1})
	want := []string{
		"2026-11-19,lob-on-2,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.49,5.99,true,,CAD,import",
		"2026-11-20,lob-on-1,loblaws,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.79,5.99,true,,CAD,import",
		"2026-11-20,nf-on-1,no-frills,ON,21000001_EA,068000000154,2% Partly Skimmed Milk,,Natrel,2 L,Dairy & Eggs,,4.69,4.69,false,,CAD,import",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes since the first export (-want +got):\n%s", diff)
	}
	if c2 == c1 {
		t.Errorf("cursor after a write: got the earlier one %q", c2)
	}
	// Filters apply to the changes too.
	if got, _ := exportCursor(t, s, grocery.ExportInput{ChangedSince: c1, Banner: "no-frills"}); !cmp.Equal(got, want[2:]) {
		t.Errorf("changes of no-frills: got %v, want %v", got, want[2:])
	}
	if got, _ := exportCursor(t, s, grocery.ExportInput{ChangedSince: c1, From: "2026-11-20"}); !cmp.Equal(got, want[1:]) {
		t.Errorf("changes from 2026-11-20: got %v, want %v", got, want[1:])
	}

	// A write between PrepareExport and Stream: not in this export, in
	// the next.
	p, err := s.PrepareExport(ctx, grocery.ExportInput{Format: "jsonl", ChangedSince: c2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := grocery.WriteBatch(ctx, s, &grocery.Batch{Observations: []grocery.Observation{
		obs("2026-11-21", "lob-on-3", "loblaws", "21000001_EA", 629, 629),
	}}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if sum, err := p.Stream(ctx, &buf); err != nil || sum.Rows != 0 {
		t.Errorf("export prepared before a write: %d rows (%v), want 0: the write is the next export's", sum.Rows, err)
	}
	got, c3 := exportCursor(t, s, grocery.ExportInput{ChangedSince: p.Cursor})
	if len(got) != 1 || !strings.HasPrefix(got[0], "2026-11-21,lob-on-3,") {
		t.Errorf("changes since the export prepared before the write: got %v, want the 2026-11-21 row", got)
	}

	// Every format takes a cursor.
	for _, f := range []string{"json", "jsonl", "csv", "xlsx", "parquet"} {
		var buf bytes.Buffer
		sum, err := s.Export(ctx, grocery.ExportInput{Format: f, ChangedSince: c2}, &buf)
		if err != nil || sum.Rows != 1 {
			t.Errorf("format %s since c2: %d rows (%v), want 1", f, sum.Rows, err)
		}
	}

	// A rename: every row of the product's SKUs again, renamed.
	b := fixtureBatch(t)
	b.UpdateNames = true
	b.Products = b.Products[4:5] // chocolate milk
	b.Products[0].Name = "Chocolate Milk 1%"
	b.Stores, b.Links, b.Observations = nil, nil, nil
	if _, err := grocery.WriteBatch(ctx, s, b); err != nil {
		t.Fatal(err)
	}
	got, _ = exportCursor(t, s, grocery.ExportInput{ChangedSince: c3})
	if len(got) != 1 || !strings.Contains(got[0], ",Chocolate Milk 1%,") {
		t.Errorf("changes since a rename: got %v, want the chocolate milk row, renamed", got)
	}

	// A cursor of another data file, of later data, or none at all.
	other := MustFixture(t)
	_, err = other.PrepareExport(ctx, grocery.ExportInput{ChangedSince: c1})
	errCode(t, err, grocery.EGONE)
	if !strings.Contains(grocery.ErrorMessage(err), "export again in full") {
		t.Errorf("another file's cursor: got %q, want it to say to export again in full", grocery.ErrorMessage(err))
	}
	_, c0 := exportCursor(t, other, grocery.ExportInput{})
	if p, err := other.PrepareExport(ctx, grocery.ExportInput{ChangedSince: c0}); err != nil {
		t.Errorf("the file's own cursor: %v", err)
	} else {
		p.Close()
	}
	_, err = s.PrepareExport(ctx, grocery.ExportInput{ChangedSince: c1[:len(c1)-2]})
	errCode(t, err, grocery.EINVALIDARGUMENT)
}

// TestExportLongSpan: a span of any length is taken (it streams).
func TestExportLongSpan(t *testing.T) {
	t.Parallel()
	s := MustFixture(t)
	got, _ := exportCursor(t, s, grocery.ExportInput{From: "2016-01-01", To: "2026-11-19"})
	if len(got) != 18 {
		t.Errorf("ten years: got %d rows, want the fixture's 18", len(got))
	}
}
