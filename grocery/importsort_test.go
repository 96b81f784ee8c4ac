package grocery

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// chunkFile is an observations file with each of four stores' prices of
// each of three products on the days first..last of November 2026, some
// on promotion: 12 rows a day, in date order. shift moves the prices.
func chunkFile(first, last, shift int) string {
	type product struct{ sku, upc, name, size, category string }
	products := []product{
		{"A", "06038300001", "Corn Flakes", "340 g", "Pantry"},
		{"B", "06680000015", "2% Milk", "2 L", "Dairy & Eggs"},
		{"C", "06238000031", "Butter", "454 g", "Dairy & Eggs"},
	}
	stores := []struct{ id, banner string }{
		{"ON-LOB-001", "loblaws"}, {"ON-LOB-002", "loblaws"}, {"ON-NOF-001", "no-frills"}, {"QC-IGA-001", "iga"},
	}
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

// analyticsDump is every analytics record of svc's data file.
func analyticsDump(t *testing.T, svc *Service) map[string]string {
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

// TestImport_Chunks: an import written in batches of whole days, each
// its own transaction, and each written in many chunks, a series' days cut
// between two of them, leaves the observations and aggregates of the same
// file written in one, and they equal a recomputation from the
// observations (Verify). A second file changes prices already stored (the
// days' observations taken out and put back) and adds days, across
// banners.
func TestImport_Chunks(t *testing.T) {
	ctx := context.Background()
	chunked, whole := openImportService(t), openImportService(t)
	for _, svc := range []*Service{chunked, whole} {
		if _, err := importString(t, svc, "stores.csv", testStoresCSV, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct {
		name string
		csv  string
	}{{"first.csv", chunkFile(1, 12, 0)}, {"second.csv", chunkFile(8, 18, 7)}} {
		// 7 rows a chunk: a series' days are cut between chunks; 28 a
		// batch: three days of 12 rows each.
		if _, err := chunked.importRuns(ctx, f.name, strings.NewReader(f.csv), nil, 7); err != nil {
			t.Fatalf("%s in chunks: %v", f.name, err)
		}
		if _, err := importString(t, whole, f.name, f.csv, nil); err != nil {
			t.Fatalf("%s whole: %v", f.name, err)
		}
		got, want := analyticsDump(t, chunked), analyticsDump(t, whole)
		if len(want) == 0 {
			t.Fatalf("%s: no aggregates written", f.name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the aggregates written in chunks differ from those written whole (-whole +chunks):\n%s", f.name, diff)
		}
		if diff := cmp.Diff(exportDays(t, whole), exportDays(t, chunked)); diff != "" {
			t.Errorf("%s: the observations written in batches differ from those written whole (-whole +batches):\n%s", f.name, diff)
		}
		if err := chunked.Verify(ctx); err != nil {
			t.Errorf("%s: Verify after the import in chunks: %v", f.name, err)
		}
	}
}

// exportDays is every observation of svc's data file, as CSV lines
// (without the header) by date.
func exportDays(t *testing.T, svc *Service) map[string][]string {
	t.Helper()
	var out strings.Builder
	if _, err := svc.Export(context.Background(), ExportInput{Format: "csv", From: "2026-11-01", To: "2026-11-30"}, &out); err != nil {
		t.Fatal(err)
	}
	days := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		l = strings.TrimSuffix(l, "\r")
		date, _, _ := strings.Cut(l, ",")
		days[date] = append(days[date], l)
	}
	return days
}

// TestImport_BatchesWholeDays: an import stopped between two of its
// batches (cancelled as its second commits) leaves whole days written, no
// part of a later one, and says through which day; importing the file
// again writes the rest, the rows written counting as unchanged, and
// leaves what one import of the file does.
func TestImport_BatchesWholeDays(t *testing.T) {
	batched, whole := openImportService(t), openImportService(t)
	for _, svc := range []*Service{batched, whole} {
		mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	}
	file := chunkFile(1, 12, 0)
	mustImport(t, whole, "prices.csv", file, nil)

	// 7 rows a run, 28 a batch: days 1-3, 4-6, 7-9, 10-12 (12 rows a day).
	ctx, cancel := context.WithCancel(context.Background())
	var batches []Date
	batched.batchWritten = func(through Date) {
		if batches = append(batches, through); len(batches) == 2 {
			cancel()
		}
	}
	_, err := batched.importRuns(ctx, "prices.csv", strings.NewReader(file), nil, 7)
	cancel()
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "prices.csv: context canceled; the file's observations up to 2026-11-06 are written, the later ones are not") {
		t.Fatalf("import cancelled after its second batch: got %v, want it cancelled with the days up to 2026-11-06 written", err)
	}
	if d, ok := PartlyImported(err); !ok || d != day("2026-11-06") {
		t.Errorf("PartlyImported: got %s %v, want 2026-11-06 true", d, ok)
	}
	if want := []Date{day("2026-11-03"), day("2026-11-06")}; !slices.Equal(batches, want) {
		t.Errorf("batches written through %v, want %v", batches, want)
	}
	got, all := exportDays(t, batched), exportDays(t, whole)
	for d := 1; d <= 12; d++ {
		date := fmt.Sprintf("2026-11-%02d", d)
		want := 12
		if d > 6 {
			want = 0
		}
		if len(got[date]) != want {
			t.Errorf("%s: %d observations written, want %d", date, len(got[date]), want)
		}
		if want > 0 && !slices.Equal(got[date], all[date]) {
			t.Errorf("%s: got %q, want %q", date, got[date], all[date])
		}
	}

	resume := func(svc *Service) (storage.ImportResume, bool) {
		var r storage.ImportResume
		var ok bool
		if err := svc.db.View(func(tx *storage.Tx) error { r, ok = tx.ImportResume(); return nil }); err != nil {
			t.Fatal(err)
		}
		return r, ok
	}
	if r, ok := resume(batched); !ok || r.Through != int32(day("2026-11-06")) {
		t.Errorf("the record of the stopped import: %+v %v, want it through 2026-11-06", r, ok)
	}

	batched.batchWritten = nil
	rep, err := batched.importRuns(context.Background(), "prices.csv", strings.NewReader(file), nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if rep.New != 72 || rep.Unchanged != 72 || rep.Resumed != "2026-11-06" {
		t.Errorf("the import again: %d new, %d unchanged, resumed after %q, want 72 and 72 (days 7-12 and 1-6), after 2026-11-06", rep.New, rep.Unchanged, rep.Resumed)
	}
	if r, ok := resume(batched); ok {
		t.Errorf("the import done, its record stays: %+v", r)
	}
	if diff := cmp.Diff(all, exportDays(t, batched)); diff != "" {
		t.Errorf("observations after the import again (-one import +two):\n%s", diff)
	}
	if diff := cmp.Diff(analyticsDump(t, whole), analyticsDump(t, batched)); diff != "" {
		t.Errorf("aggregates after the import again (-one import +two):\n%s", diff)
	}
	if err := batched.Verify(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestImport_BatchConflict: a file of several batches whose last day
// conflicts with an earlier row is refused before any batch is written;
// with SkipInvalid the conflicting row is skipped and the rest written.
func TestImport_BatchConflict(t *testing.T) {
	svc := openImportService(t)
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	file := chunkFile(1, 12, 0)
	// Line 146 repeats line 134 (the last day's first row) at another price.
	first := strings.Split(file, "\n")[133]
	bad := file + strings.Replace(first, ",3.00,3.00,", ",3.10,3.10,", 1) + "\n"
	if !strings.Contains(bad, ",3.10,3.10,") {
		t.Fatalf("the row changed is not the one meant: %q", first)
	}
	_, err := svc.importRuns(context.Background(), "prices.csv", strings.NewReader(bad), nil, 7)
	if ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(err.Error(), "prices.csv:146: price: 3.10 conflicts with line 134") {
		t.Fatalf("got %v, want line 146's conflict with line 134", err)
	}
	if _, ok := PartlyImported(err); ok {
		t.Errorf("PartlyImported(%v) is true, want false", err)
	}
	if got := exportDays(t, svc); len(got) != 0 {
		t.Errorf("the refused file wrote the observations of %d days", len(got))
	}
	rep, err := svc.importRuns(context.Background(), "prices.csv", strings.NewReader(bad), &ImportOptions{SkipInvalid: true}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if rep.New != 144 || rep.Skipped != 1 {
		t.Errorf("with SkipInvalid: %d new, %d skipped, want 144 and 1", rep.New, rep.Skipped)
	}
}

// TestSeriesSort: a batch's rows, by date, then series in key order, then
// store, come out by series in key order, then date, then store.
func TestSeriesSort(t *testing.T) {
	// Series 0 ranks second, series 1 third, series 2 first.
	s := seriesSort{rank: []int32{1, 2, 0}}
	rows := []obsRec{
		{Date: 1, Series: 2, Store: 0}, {Date: 1, Series: 0, Store: 0}, {Date: 1, Series: 0, Store: 1}, {Date: 1, Series: 1, Store: 0},
		{Date: 2, Series: 2, Store: 1}, {Date: 2, Series: 0, Store: 0},
		{Date: 3, Series: 1, Store: 0}, {Date: 3, Series: 1, Store: 1},
	}
	want := []obsRec{
		{Date: 1, Series: 2, Store: 0}, {Date: 2, Series: 2, Store: 1},
		{Date: 1, Series: 0, Store: 0}, {Date: 1, Series: 0, Store: 1}, {Date: 2, Series: 0, Store: 0},
		{Date: 1, Series: 1, Store: 0}, {Date: 3, Series: 1, Store: 0}, {Date: 3, Series: 1, Store: 1},
	}
	for round := range 2 { // the second reuses the buffers
		if diff := cmp.Diff(want, s.sort(slices.Clone(rows))); diff != "" {
			t.Errorf("round %d (-want +got):\n%s", round, diff)
		}
	}
	if got := s.sort(rows[3:5]); !slices.Equal(got, []obsRec{rows[4], rows[3]}) {
		t.Errorf("rows 3 and 4: got %v, want them swapped", got)
	}
}

// TestImport_ResumeAfterOtherWrite: an import stopped between its
// batches is not resumed once another write changed the data: importing
// its file again writes every row, so a price another file corrected in
// the days already written is set back to the file's, as one import of
// the file after that correction would. A stores file written in between
// stops the resume too.
func TestImport_ResumeAfterOtherWrite(t *testing.T) {
	svc, want := openImportService(t), openImportService(t)
	file := chunkFile(1, 12, 0)
	// Day 3's first row at another price.
	third := strings.Split(file, "\n")[25]
	fix := lines(obsHeader, strings.Replace(third, ",3.00,3.00,", ",2.50,2.50,", 1))
	if !strings.HasPrefix(third, "2026-11-03,") || !strings.Contains(fix, ",2.50,2.50,") {
		t.Fatalf("not the row meant: %q", third)
	}
	for _, s := range []*Service{svc, want} {
		mustImport(t, s, "stores.csv", testStoresCSV, nil)
	}
	mustImport(t, want, "fix.csv", fix, nil)
	mustImport(t, want, "prices.csv", file, nil)

	ctx, cancel := context.WithCancel(context.Background())
	svc.batchWritten = func(Date) { cancel() }
	if _, err := svc.importRuns(ctx, "prices.csv", strings.NewReader(file), nil, 7); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the import cancelled after its first batch", err)
	}
	svc.batchWritten = nil
	mustImport(t, svc, "fix.csv", fix, nil)
	rep, err := svc.importRuns(context.Background(), "prices.csv", strings.NewReader(file), nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != "" {
		t.Errorf("resumed after %s, though fix.csv was written since", rep.Resumed)
	}
	if diff := cmp.Diff(exportDays(t, want), exportDays(t, svc)); diff != "" {
		t.Errorf("observations (-fix.csv then prices.csv, +prices.csv stopped, fix.csv, prices.csv again):\n%s", diff)
	}

	// A stores file written in between (its write leaves the record) also
	// stops the resume.
	other := openImportService(t)
	mustImport(t, other, "stores.csv", testStoresCSV, nil)
	ctx, cancel = context.WithCancel(context.Background())
	other.batchWritten = func(Date) { cancel() }
	if _, err := other.importRuns(ctx, "prices.csv", strings.NewReader(file), nil, 7); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the import cancelled after its first batch", err)
	}
	other.batchWritten = nil
	mustImport(t, other, "stores.csv", strings.Replace(testStoresCSV, "Loblaws Ottawa", "Loblaws Rideau", 1), nil)
	if rep := mustImport(t, other, "prices.csv", file, nil); rep.Resumed != "" {
		t.Errorf("resumed after %s, though a stores file was written since", rep.Resumed)
	}
}

// TestPartlyImported: the error of an import stopped between its batches
// keeps its cause (code, cancellation, an internal reason) and says
// through which day, which PartlyImported reads back whatever the file's
// name holds; other errors are not taken for it.
func TestPartlyImported(t *testing.T) {
	svc := openImportService(t)
	d := day("2026-03-14")
	changed := Errorf(EINTERNAL, "store ON-LOB-001 changed during the import: import the file again")
	for _, tc := range []struct {
		name     string
		err      error
		through  Date
		ok       bool
		code     string // of the error, "" for none checked
		canceled bool
		contains string
	}{
		{name: "nil"},
		{name: "a bad row of a file named as the sentence", err: Errorf(EINVALIDARGUMENT, "the file's observations up to 2026-01-01 are written, the later ones are not.csv:3: price: not a number"), code: EINVALIDARGUMENT},
		{name: "nothing written", err: svc.writeFailed("p.csv", Errorf(EINVALIDARGUMENT, "p.csv:3: price: not a number"), -1), code: EINVALIDARGUMENT},
		{name: "cancelled, a name holding the sentence's start", err: svc.writeFailed("the file's observations up to now.csv", context.Canceled, d),
			through: d, ok: true, canceled: true, contains: "the file's observations up to now.csv: context canceled; the file's observations up to 2026-03-14 are written"},
		{name: "a caller's error", err: svc.writeFailed("p.csv", Errorf(EUNAVAILABLE, "the shared store does not answer"), d),
			through: d, ok: true, code: EUNAVAILABLE, contains: "the shared store does not answer; the file's observations up to 2026-03-14 are written"},
		{name: "internal", err: svc.writeFailed("p.csv", changed, d), through: d, ok: true, code: EINTERNAL,
			contains: "p.csv: the data file could not be written: store ON-LOB-001 changed during the import: import the file again; the file's observations up to 2026-03-14 are written"},
	} {
		through, ok := PartlyImported(tc.err)
		if through != tc.through || ok != tc.ok {
			t.Errorf("%s: PartlyImported(%v) = %s %v, want %s %v", tc.name, tc.err, through, ok, tc.through, tc.ok)
		}
		if tc.code != "" && ErrorCode(tc.err) != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, ErrorCode(tc.err), tc.code)
		}
		if errors.Is(tc.err, context.Canceled) != tc.canceled {
			t.Errorf("%s: errors.Is(%v, context.Canceled) = %v", tc.name, tc.err, !tc.canceled)
		}
		if tc.contains != "" && !strings.Contains(tc.err.Error(), tc.contains) {
			t.Errorf("%s: %q, want it to hold %q", tc.name, tc.err, tc.contains)
		}
	}
}
