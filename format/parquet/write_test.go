package parquet

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/internal/rowwrite"
	"github.com/parquet-go/parquet-go"
)

// TestParquetRowGroups writes more rows than two row groups hold: the
// first row groups reach the writer before Close, the file reads back
// with every value, in the columns' order and types, nulls as nulls.
func TestParquetRowGroups(t *testing.T) {
	cols := []rowwrite.Column{
		{Name: "date", Kind: rowwrite.Date}, {Name: "store_id"}, {Name: "price", Kind: rowwrite.Money},
		{Name: "on_promo", Kind: rowwrite.Bool}, {Name: "count", Kind: rowwrite.Int}, {Name: "lat", Kind: rowwrite.Float},
	}
	var buf bytes.Buffer
	w, err := newWriter(&buf, cols)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*RowGroup + 100
	vals := make([]rowwrite.Value, len(cols))
	for i := range n {
		vals[0] = rowwrite.Value{N: 20776 - int64(i%30)}
		vals[1] = rowwrite.Value{S: []string{"s1", "s2", "s3"}[i%3]}
		vals[2] = rowwrite.Value{N: int64(i), Null: i%7 == 0}
		vals[3] = rowwrite.Value{N: int64(i % 2)}
		vals[4] = rowwrite.Value{N: int64(i) << 33}
		vals[5] = rowwrite.Value{F: float64(i) / 8}
		if err := w.Row(vals); err != nil {
			t.Fatal(err)
		}
		if i == RowGroup+parquetBatch && buf.Len() < 1000 {
			t.Fatalf("%d bytes written after a full row group: want it written before Close", buf.Len())
		}
	}
	streamed := buf.Len()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if streamed == 0 || streamed >= buf.Len() {
		t.Errorf("%d bytes before Close of %d", streamed, buf.Len())
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.RowGroups()); got != 3 {
		t.Errorf("%d row groups, want 3", got)
	}
	var names, types []string
	for _, c := range f.Schema().Fields() {
		names = append(names, c.Name())
		types = append(types, c.Type().String())
	}
	if diff := cmp.Diff([]string{"date", "store_id", "price", "on_promo", "count", "lat"}, names); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"DATE", "STRING", "DECIMAL(18,2)", "BOOLEAN", "INT(64,true)", "DOUBLE"}, types); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
	i := 0
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		buf := make([]parquet.Row, 100)
		for {
			k, err := rows.ReadRows(buf)
			for _, r := range buf[:k] {
				if got := r[0].Int32(); got != int32(20776-i%30) {
					t.Fatalf("row %d: date %d", i, got)
				}
				if got := string(r[1].ByteArray()); got != []string{"s1", "s2", "s3"}[i%3] {
					t.Fatalf("row %d: store_id %q", i, got)
				}
				if r[2].IsNull() != (i%7 == 0) || !r[2].IsNull() && r[2].Int64() != int64(i) {
					t.Fatalf("row %d: price %v", i, r[2])
				}
				if r[3].Boolean() != (i%2 == 1) || r[4].Int64() != int64(i)<<33 || r[5].Double() != float64(i)/8 {
					t.Fatalf("row %d: %v", i, r)
				}
				i++
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
	}
	if i != n {
		t.Errorf("read %d rows, want %d", i, n)
	}
}
