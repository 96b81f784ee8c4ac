package grocery

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
