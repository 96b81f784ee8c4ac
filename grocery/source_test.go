package grocery_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	bolt "go.etcd.io/bbolt"
)

// TestSourceExportRoundTrip: the stores and observations ImportSource
// imports from Project Hammer's fixtures name their source, hammer, in
// the exports of both datasets in every format, and an export imports
// into an empty data file as it comes: the second export is the first
// (XLSX: the same cells), so the source is stored, not inferred.
func TestSourceExportRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := MustOpen(t)
	if _, err := src.ImportSource(ctx, "hammer", sourceFiles("hammer-4-product.csv", "hammer-4-raw.csv"), nil); err != nil {
		t.Fatal(err)
	}
	for _, format := range roundTripFormats {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			dst := MustOpen(t)
			firsts := map[string]string{}
			for _, dataset := range []string{"stores", "observations"} {
				in := grocery.ExportInput{Format: format, Dataset: dataset}
				if dataset == "observations" {
					in.From, in.To = "2025-07-01", "2025-08-31"
				}
				first, sum := export(t, src, in)
				firsts[dataset] = first
				if format == "csv" {
					lines := strings.Split(strings.TrimSuffix(first, "\r\n"), "\r\n")
					if !strings.HasSuffix(lines[0], ",source") || len(lines) < 2 {
						t.Fatalf("%s: header %q, %d lines: want a source column and rows", dataset, lines[0], len(lines))
					}
					for _, l := range lines[1:] {
						if !strings.HasSuffix(l, ",hammer") {
							t.Errorf("%s: row %q does not name hammer as its source", dataset, l)
						}
					}
				}
				rep, err := dst.Import(ctx, dataset+"."+format, strings.NewReader(first), nil)
				if err != nil {
					t.Fatalf("import of the %s export: %v", dataset, err)
				}
				if rep.New != int(sum.Rows) {
					t.Errorf("%s: %d new of %d rows (%v)", dataset, rep.New, sum.Rows, rep.Problems)
				}
			}
			for dataset, first := range firsts {
				in := grocery.ExportInput{Format: format, Dataset: dataset}
				if dataset == "observations" {
					in.From, in.To = "2025-07-01", "2025-08-31"
				}
				second, _ := export(t, dst, in)
				if format == "xlsx" {
					if !equalRows(xlsxRows(t, first), xlsxRows(t, second)) {
						t.Errorf("%s: the second XLSX export's cells differ from the first's", dataset)
					}
				} else if first != second {
					i := firstDiff(first, second)
					t.Errorf("%s: the second export differs at byte %d:\n got %q\nwant %q", dataset, i, around(second, i), around(first, i))
				}
			}
		})
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

// TestImportSourceColumn: a store's source comes with its stores file;
// without one a new store's is "import" and a stored store keeps its own;
// an observation naming another source than its store's is refused, and
// a malformed source is refused.
func TestImportSourceColumn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	stores := func(rows ...string) string {
		return "store_id,banner,province,name,city,postal_code,latitude,longitude,source\n" + strings.Join(rows, "\n") + "\n"
	}
	if _, err := s.Import(ctx, "stores.csv", strings.NewReader(stores(
		"met-1,metro,ON,Metro,Toronto,M5V 2T6,43.6,-79.4,feed-7",
		"met-2,metro,ON,Metro,Toronto,M5V 2T6,43.6,-79.4,")), nil); err != nil {
		t.Fatal(err)
	}
	// Again without the column: met-1 keeps feed-7; met-3 is new.
	if _, err := s.Import(ctx, "stores2.csv", strings.NewReader("store_id,banner,province,name,city,postal_code,latitude,longitude\n"+
		"met-1,metro,ON,Metro Plaza,Toronto,M5V 2T6,43.6,-79.4\nmet-3,metro,ON,Metro,Toronto,M5V 2T6,43.6,-79.4\n"), nil); err != nil {
		t.Fatal(err)
	}
	got, _ := export(t, s, grocery.ExportInput{Format: "csv", Dataset: "stores"})
	for _, want := range []string{"met-1,metro,Metro,ON,Metro Plaza,", ",feed-7\r\n", "met-2,", "met-3,"} {
		if !strings.Contains(got, want) {
			t.Errorf("stores export lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, ",import\r\n"); n != 2 {
		t.Errorf("stores export: %d stores of source import, want 2 (met-2, met-3):\n%s", n, got)
	}

	obs := "date,store_id,banner,external_sku,price,source\n2026-11-18,met-1,metro,M1,1.99,feed-7\n2026-11-18,met-2,metro,M1,2.19,hammer\n"
	_, err := s.Import(ctx, "prices.csv", strings.NewReader(obs), nil)
	errCode(t, err, grocery.EINVALIDARGUMENT)
	if want := `prices.csv:3: source: "hammer" is not the source of store "met-2": it is import`; !strings.Contains(grocery.ErrorMessage(err), want) {
		t.Errorf("got %q, want it to contain %q", grocery.ErrorMessage(err), want)
	}
	// The refused file wrote nothing: met-1's row is new again.
	rep, err := s.Import(ctx, "prices.csv", strings.NewReader(obs), &grocery.ImportOptions{SkipInvalid: true})
	if err != nil || rep.New != 1 || rep.Skipped != 1 {
		t.Errorf("with SkipInvalid: got %+v, %v; want 1 new, 1 skipped", rep, err)
	}

	_, err = s.Import(ctx, "bad.csv", strings.NewReader(stores("met-4,metro,ON,Metro,Toronto,M5V 2T6,43.6,-79.4,Hammer!")), nil)
	errCode(t, err, grocery.EINVALIDARGUMENT)
	if want := `bad.csv:2: source: "Hammer!" is not a source name`; !strings.Contains(grocery.ErrorMessage(err), want) {
		t.Errorf("got %q, want it to contain %q", grocery.ErrorMessage(err), want)
	}
	if got, _ := export(t, s, grocery.ExportInput{Format: "csv", Dataset: "stores"}); strings.Contains(got, "met-4") {
		t.Errorf("the refused stores file wrote met-4:\n%s", got)
	}
}

// TestUpgradeFormat10Sources: a format 10 data file keeps no store's
// source; its first writable open names them by their ids, hammer for
// Project Hammer's stores and import for the others, and the exports
// write them.
func TestUpgradeFormat10Sources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v10.db")
	s, err := grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportSource(ctx, "hammer", sourceFiles("hammer-4-product.csv", "hammer-4-raw.csv"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Import(ctx, "stores.csv", strings.NewReader("store_id,banner,province,name,city,postal_code,latitude,longitude,source\n"+
		"met-1,metro,ON,Metro,Toronto,M5V 2T6,43.6,-79.4,demo\n"), nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Version 10's stores: their values without the source at the end.
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"stores", "storeloc"} {
			bk := tx.Bucket([]byte(name))
			kvs := map[string][]byte{}
			bk.ForEach(func(k, v []byte) error {
				n := len("hammer") + 1 // the source and its length's byte
				if strings.HasSuffix(string(v), "demo") {
					n = len("demo") + 1
				}
				kvs[string(k)] = bytes.Clone(v[:len(v)-n])
				return nil
			})
			for k, v := range kvs {
				if err := bk.Put([]byte(k), v); err != nil {
					return err
				}
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("format"), binary.BigEndian.AppendUint32(nil, 10))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err = grocery.Open(path, nil)
	if err != nil {
		t.Fatalf("writable open of a format 10 file: %v", err)
	}
	defer s.Close()
	got, _ := export(t, s, grocery.ExportInput{Format: "csv", Dataset: "stores"})
	lines := strings.Split(strings.TrimSuffix(got, "\r\n"), "\r\n")[1:]
	if len(lines) != 7 {
		t.Fatalf("got %d stores, want 7:\n%s", len(lines), got)
	}
	for _, l := range lines {
		want := ",hammer"
		if strings.HasPrefix(l, "met-1,") {
			want = ",import" // a format 10 file does not say it was the demo's
		}
		if !strings.HasSuffix(l, want) {
			t.Errorf("store %q: want its source %s", l, want[1:])
		}
	}
}
