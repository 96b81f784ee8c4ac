package grocery

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/rowwrite"
)

// limitedFormat registers, for the test, a format named name that
// writes CSV and holds at most maxRows rows; *created counts the writers
// made. Registered in a test that is not parallel, it is gone before the
// parallel tests (which list the formats) run.
func limitedFormat(t *testing.T, name string, maxRows int, created *int) {
	t.Helper()
	RegisterFormat(name, Format{Ext: "txt", ContentType: "text/plain", MaxRows: maxRows,
		Create: func(w io.Writer, table string, cols []Column) (RowWriter, error) {
			*created++
			return &limitedWriter{w: w, max: maxRows}, nil
		}})
	t.Cleanup(func() {
		formats.Lock()
		delete(formats.m, name)
		formats.Unlock()
	})
}

// limitedWriter writes a line per row and refuses the row past max
// with ErrTooManyRows, as the XLSX writer does.
type limitedWriter struct {
	w    io.Writer
	max  int
	rows int
	buf  bytes.Buffer
}

func (l *limitedWriter) Row(vals []rowwrite.Value) error {
	if l.rows >= l.max {
		return ErrTooManyRows
	}
	l.rows++
	fmt.Fprintln(&l.buf, len(vals))
	return nil
}

func (l *limitedWriter) Abort() {}

func (l *limitedWriter) Close() error {
	_, err := l.w.Write(l.buf.Bytes())
	return err
}

// TestExportRowLimit: an observations export over its format's MaxRows
// is refused by PrepareExport from the category days' counts, naming the
// rows it holds, before a writer is made; the counts are the export's
// rows exactly (one over the limit is refused, one at it is written), on
// every filter the counts cover. An export of a barcode or of changes,
// which they do not cover, is counted by reading its rows.
func TestExportRowLimit(t *testing.T) {
	svc, err := Open(DemoCopy(t), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	rows := func(in ExportInput) int64 {
		in.Format = "csv"
		sum, err := svc.Export(ctx, in, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return sum.Rows
	}
	// atLimits exports in (the i-th of its kind) in a format holding one
	// row fewer than its n rows, which PrepareExport refuses with want(n,
	// limit, FORMAT) before any writer is made, then in one holding n,
	// which writes them all.
	atLimits := func(kind string, i int, in ExportInput, want func(n, limit int64, format string) string) {
		t.Helper()
		n := rows(in)
		if n < 2 {
			t.Fatalf("%+v: %d rows, want a few to count", in, n)
		}
		for _, limit := range []int64{n - 1, n} {
			name := fmt.Sprintf("%s%dx%d", kind, i, limit) // one name a registration: two filters may hold as many rows
			created := 0
			limitedFormat(t, name, int(limit), &created)
			in := in
			in.Format = name
			p, err := svc.PrepareExport(ctx, in)
			if limit < n {
				if err == nil {
					p.Close() // else the Service's Close waits for it
				}
				if w := want(n, limit, strings.ToUpper(name)); ErrorCode(err) != EINVALIDARGUMENT || !strings.Contains(err.Error(), w) || created != 0 {
					t.Fatalf("%+v over the limit: %v (writers made: %d), want %s before any writer", in, err, created, w)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%+v at the limit: %v", in, err)
			}
			var out bytes.Buffer
			sum, err := p.Stream(ctx, &out)
			if err != nil || sum.Rows != n {
				t.Fatalf("%+v at the limit: %d rows, %v; want %d", in, sum.Rows, err, n)
			}
		}
	}
	counted := func(n, limit int64, format string) string {
		return fmt.Sprintf("the export holds %d rows, more than the %d one %s file holds", n, limit, format)
	}
	for i, in := range []ExportInput{
		{},
		{Province: "ON"},
		{Province: "qc", Banner: "maxi"},
		{Banner: "walmart", From: "2026-08-01", To: "2026-11-19"},
		{Province: "BC", Category: "dairy & eggs", From: "2026-11-01"},
		{Category: "Frozen", To: "2026-10-15"},
		{From: "2025-01-01", To: "2026-11-19"},
	} {
		atLimits("limited", i, in, counted)
	}

	// A barcode's export and an export of changes, which the category
	// days do not count, are counted by reading their rows, up to one
	// past the limit: refused as "more than" the limit.
	c1, err := svc.PrepareExport(ctx, ExportInput{Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	c1.Close()
	offers, err := SampleOffers(svc, "ON", 1)
	if err != nil || len(offers) == 0 {
		t.Fatalf("no offer to change: %v", err)
	}
	o := offers[0]
	stores, err := svc.ListReferenceStores(ctx, StoresInput{Province: "ON", Banner: o.Banner, Limit: Some(1)})
	if err != nil || len(stores.Stores) == 0 {
		t.Fatalf("a store of %s: %v", o.Banner, err)
	}
	var changes strings.Builder // three observations, new or changed
	changes.WriteString("date,store_id,banner,external_sku,price\n")
	for _, day := range []string{"2026-11-17", "2026-11-18", "2026-11-19"} {
		fmt.Fprintf(&changes, "%s,%s,%s,%s,0.97\n", day, stores.Stores[0].ID, o.Banner, o.SKU)
	}
	if _, err := importString(t, svc, "changes.csv", changes.String(), nil); err != nil {
		t.Fatal(err)
	}
	read := func(_, limit int64, format string) string {
		return fmt.Sprintf("the export holds more than the %d rows one %s file holds", limit, format)
	}
	look, err := svc.LookupProduct(ctx, LookupInput{UPC: o.UPC, Province: "ON"})
	if err != nil {
		t.Fatal(err)
	}
	category := look.Product.Category
	for i, in := range []ExportInput{
		{UPC: "067000378089"},
		{UPC: "067000378089", Province: "ON", Banner: "no-frills", From: "2026-11-01"},
		{ChangedSince: c1.Cursor},
		{ChangedSince: c1.Cursor, Province: "ON", Category: strings.ToLower(category)},
	} {
		atLimits("limitedread", i, in, read)
	}
	// Changes of another category: none to count, whatever the limit.
	other := "Frozen"
	if strings.EqualFold(category, other) {
		other = "Pantry"
	}
	created := 0
	limitedFormat(t, "limitedother", 1, &created)
	p, err := svc.PrepareExport(ctx, ExportInput{Format: "limitedother", ChangedSince: c1.Cursor, Category: other})
	if err != nil {
		t.Fatalf("changes of %s, none of which changed, in a 1-row format: %v", other, err)
	}
	if sum, err := p.Stream(ctx, io.Discard); err != nil || sum.Rows != 0 {
		t.Fatalf("changes of %s: %d rows, %v; want none", other, sum.Rows, err)
	}
}
