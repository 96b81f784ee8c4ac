package grocery

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery/internal/gs1"
	"github.com/grocerydata/grocery/storage"
)

// TestImport_SpilledRuns imports files larger than a run (three rows
// here), so that rows are sorted in runs in a temporary file and repeats
// and conflicts are found across runs.
func TestImport_SpilledRuns(t *testing.T) {
	const oh = "date,store_id,banner,external_sku,price"
	ctx := context.Background()
	// mustImport in runs of three rows.
	mustImport := func(t *testing.T, svc *Service, name, content string, opts *ImportOptions) *ImportReport {
		t.Helper()
		rep, err := svc.importRuns(ctx, name, strings.NewReader(content), opts, 3)
		if err != nil {
			t.Fatalf("Import(%s): %v", name, err)
		}
		return rep
	}

	t.Run("Repeats", func(t *testing.T) {
		svc := openImportService(t)
		mustImport(t, svc, "stores.csv", testStoresCSV, nil)
		f := lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99",
			"2026-11-18,ON-NOF-001,no-frills,A,1.49",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-18,ON-LOB-001,loblaws,B,2.99", // repeats line 2
			"2026-11-17,ON-LOB-001,loblaws,B,2.79",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99", // repeats line 3
		)
		rep := mustImport(t, svc, "prices.csv", f, nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 7, New: 5, Unchanged: 2}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
		rep = mustImport(t, svc, "prices.csv", f, nil)
		if want := (counts{Kind: "observations", Format: "csv", Rows: 7, Unchanged: 7}); countsOf(rep) != want {
			t.Errorf("again: got %+v, want %+v", countsOf(rep), want)
		}
	})

	errCases := []struct{ name, file, want string }{
		{"Conflict", lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-15,ON-LOB-001,loblaws,A,1.79",
			"2026-11-18,ON-LOB-001,loblaws,B,3.49",
		), "prices.csv:6: price: 3.49 conflicts with line 2, which gives 2.99 for the same date, store_id and external_sku"},
		// Of two conflicts, the one on the earlier line, though its SKU
		// sorts last.
		{"EarliestConflict", lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-18,ON-LOB-001,loblaws,A,1.99",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-15,ON-LOB-001,loblaws,A,1.79",
			"2026-11-18,ON-LOB-001,loblaws,B,2.89",
			"2026-11-18,ON-LOB-001,loblaws,A,1.49",
		), "prices.csv:6: price: 2.89 conflicts with line 2, which gives 2.99 for the same date, store_id and external_sku"},
		// A conflict before a bad row is the first problem of the file.
		{"ConflictThenBadRow", lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-15,ON-LOB-001,loblaws,A,1.79",
			"2026-11-18,ON-LOB-001,loblaws,B,3.49",
			"2026-11-14,ON-LOB-001,loblaws,A,1.999",
		), "prices.csv:6: price: 3.49 conflicts with line 2"},
		{"BadRowThenConflict", lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-15,ON-LOB-001,loblaws,A,1.999",
			"2026-11-18,ON-LOB-001,loblaws,B,3.49",
		), `prices.csv:5: price: "1.999" is not a dollar amount`},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			svc := openImportService(t)
			mustImport(t, svc, "stores.csv", testStoresCSV, nil)
			_, err := svc.importRuns(ctx, "prices.csv", strings.NewReader(tc.file), nil, 3)
			if ErrorCode(err) != EINVALIDARGUMENT || !strings.HasPrefix(ErrorMessage(err), tc.want) {
				t.Fatalf("got %v, want EINVALIDARGUMENT %q", err, tc.want)
			}
			// Nothing of the file is stored.
			rep := mustImport(t, svc, "ok.csv", lines(oh, "2026-11-18,ON-LOB-001,loblaws,B,2.99"), nil)
			if rep.New != 1 {
				t.Errorf("after the failed import: got %+v, want the row new", countsOf(rep))
			}
		})
	}

	t.Run("SkipInvalid", func(t *testing.T) {
		svc := openImportService(t)
		mustImport(t, svc, "stores.csv", testStoresCSV, nil)
		rep := mustImport(t, svc, "prices.csv", lines(oh,
			"2026-11-18,ON-LOB-001,loblaws,B,2.99",
			"2026-11-17,ON-LOB-001,loblaws,A,1.99",
			"2026-11-16,ON-LOB-001,loblaws,A,1.89",
			"2026-11-18,ON-LOB-001,loblaws,B,3.49", // conflicts with line 2
			"2026-11-15,ON-LOB-001,loblaws,A,0",
			"2026-11-17,ON-LOB-001,loblaws,A,1.89", // conflicts with line 3
			"2026-11-18,ON-LOB-001,loblaws,B,3.49", // conflicts with line 2, not 5
		), &ImportOptions{SkipInvalid: true})
		if want := (counts{Kind: "observations", Format: "csv", Rows: 7, New: 3, Skipped: 4, Notes: 4}); countsOf(rep) != want {
			t.Errorf("got %+v, want %+v", countsOf(rep), want)
		}
		want := []string{
			"prices.csv:5: price: 3.49 conflicts with line 2, which gives 2.99 for the same date, store_id and external_sku",
			"prices.csv:6: price: 0.00 is not more than zero",
			"prices.csv:7: price: 1.89 conflicts with line 3, which gives 1.99 for the same date, store_id and external_sku",
			"prices.csv:8: price: 3.49 conflicts with line 2, which gives 2.99 for the same date, store_id and external_sku",
		}
		if diff := cmp.Diff(want, rep.Problems); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
	})
}

// TestImport_Chunks: an import written to its transaction in many
// chunks, a series' days cut between two of them, leaves the aggregates
// of the same file written in one, and they equal a recomputation from
// the observations (Verify). A second file changes prices already stored
// (the days' observations taken out and put back) and adds days, across
// banners.
func TestImport_Chunks(t *testing.T) {
	ctx := context.Background()
	type product struct{ sku, upc, name, size, category string }
	products := []product{
		{"A", "06038300001", "Corn Flakes", "340 g", "Pantry"},
		{"B", "06680000015", "2% Milk", "2 L", "Dairy & Eggs"},
		{"C", "06238000031", "Butter", "454 g", "Dairy & Eggs"},
	}
	stores := []struct{ id, banner string }{
		{"ON-LOB-001", "loblaws"}, {"ON-LOB-002", "loblaws"}, {"ON-NOF-001", "no-frills"}, {"QC-IGA-001", "iga"},
	}
	// file has each store's price of each product on days first..last
	// (days from 2026-11-01), some on promotion; shift moves the prices.
	file := func(first, last, shift int) string {
		rows := []string{obsHeader}
		for d := first; d <= last; d++ {
			for si, st := range stores {
				for pi, p := range products {
					regular := 300 + 50*pi + 10*si + shift*((d+pi)%3)
					price, ends := regular, ""
					if (d+pi+si)%5 == 0 { // a promotion to the week's end
						price, ends = regular-40, fmt.Sprintf("2026-11-%02d", min(d+3, 30))
					}
					rows = append(rows, fmt.Sprintf("2026-11-%02d,%s,%s,%s-%s,%d.%02d,%d.%02d,%s,%s%c,%s,Brand,%s,%s",
						d, st.id, st.banner, st.banner, p.sku, price/100, price%100, regular/100, regular%100, ends,
						p.upc, gs1.CheckDigit(p.upc), p.name, p.size, p.category))
				}
			}
		}
		return lines(rows...)
	}
	dump := func(svc *Service) map[string]string {
		t.Helper()
		m := map[string]string{}
		if err := svc.db.View(func(tx *storage.Tx) error {
			return tx.ForEachAnalytics(func(bucket string, k, v []byte) error {
				m[bucket+"\x00"+string(k)] = string(v)
				return nil
			})
		}); err != nil {
			t.Fatal(err)
		}
		return m
	}
	chunked, whole := openImportService(t), openImportService(t)
	for _, svc := range []*Service{chunked, whole} {
		if _, err := importString(t, svc, "stores.csv", testStoresCSV, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct {
		name string
		csv  string
	}{{"first.csv", file(1, 12, 0)}, {"second.csv", file(8, 18, 7)}} {
		// 7 rows a chunk: a series' days are cut between chunks.
		if _, err := chunked.importRuns(ctx, f.name, strings.NewReader(f.csv), nil, 7); err != nil {
			t.Fatalf("%s in chunks: %v", f.name, err)
		}
		if _, err := importString(t, whole, f.name, f.csv, nil); err != nil {
			t.Fatalf("%s whole: %v", f.name, err)
		}
		got, want := dump(chunked), dump(whole)
		if len(want) == 0 {
			t.Fatalf("%s: no aggregates written", f.name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the aggregates written in chunks differ from those written whole (-whole +chunks):\n%s", f.name, diff)
		}
		if err := chunked.Verify(ctx); err != nil {
			t.Errorf("%s: Verify after the import in chunks: %v", f.name, err)
		}
	}
}
