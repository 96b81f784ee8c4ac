package parquet

import (
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/grocerydata/grocery/internal/rowwrite"
	"github.com/parquet-go/parquet-go"
)

// RowGroup is how many rows a Parquet row group holds: the writer
// keeps one row group in memory (encoded and compressed, a few MB) and
// writes it to w when it is full, so memory stays flat however many
// rows come.
const RowGroup = 64 << 10

// The Parquet types of the column kinds (Types names them for
// documents). Money is DECIMAL(18,2) on INT64: the data file keeps
// prices of up to $42,949,672.95 and unit prices may be larger, past
// DECIMAL(9,2)'s $9,999,999.99.
var parquetNodes = [...]parquet.Node{
	rowwrite.Text:  parquet.Encoded(parquet.String(), &parquet.RLEDictionary),
	rowwrite.Int:   parquet.Int(64),
	rowwrite.Money: parquet.Decimal(2, 18, parquet.Int64Type),
	rowwrite.Date:  parquet.Date(),
	rowwrite.Bool:  parquet.Leaf(parquet.BooleanType),
	rowwrite.Float: parquet.Leaf(parquet.DoubleType),
}

// Types names the Parquet type of each kind of column, as a
// reader of the file (DuckDB, pandas) shows it.
var Types = [...]string{
	rowwrite.Text:  "STRING (UTF-8, dictionary-encoded)",
	rowwrite.Int:   "INT64",
	rowwrite.Money: "DECIMAL(18,2) (INT64 cents)",
	rowwrite.Date:  "DATE (INT32 days since 1970-01-01)",
	rowwrite.Bool:  "BOOLEAN",
	rowwrite.Float: "DOUBLE",
}

// errMoneyRange is a Money value past DECIMAL(18,2); it cannot happen
// with int64 cents, but a Value is only an int64.
var errMoneyRange = errors.New("rowwrite: an amount past DECIMAL(18,2)")

// orderedGroup is a Parquet group whose fields keep the columns' order
// (parquet.Group sorts them by name).
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

// field is one column of an orderedGroup.
type field struct {
	parquet.Node
	name string
}

func (f *field) Name() string { return f.name }

// Value is for writing Go structs, which this writer does not do.
func (f *field) Value(reflect.Value) reflect.Value { return reflect.Value{} }

type parquetWriter struct {
	w    *parquet.GenericWriter[any]
	cols []rowwrite.Column
	rows []parquet.Row // rows not yet handed to w, their values reused
	n    int
}

// parquetBatch is how many rows go to the Parquet writer at once.
const parquetBatch = 256

// newWriter returns a writer of a Parquet file of one row group per
// RowGroup rows: every column optional (Null is a null), typed by
// kind (Types), text dictionary-encoded, pages compressed with
// snappy (the codec every reader has; zstd's 8 MB window per encoder
// would double the memory an export holds). The header (the PAR1 magic)
// and each full row group are written to w as they are complete; Close
// writes the last row group and the footer.
func newWriter(w io.Writer, cols []rowwrite.Column) (rowwrite.Writer, error) {
	g := orderedGroup{Group: parquet.Group{}}
	for _, c := range cols {
		if int(c.Kind) >= len(parquetNodes) {
			return nil, fmt.Errorf("rowwrite: column %s has no Parquet type", c.Name)
		}
		n := parquet.Optional(parquetNodes[c.Kind])
		g.Group[c.Name] = n
		g.fields = append(g.fields, &field{Node: n, name: c.Name})
	}
	schema := parquet.NewSchema("grocery", g)
	cfg, err := parquet.NewWriterConfig(
		schema,
		parquet.Compression(&parquet.Snappy),
		parquet.MaxRowsPerRowGroup(RowGroup),
		parquet.CreatedBy("grocery", "", ""),
		parquet.WriteBufferSize(rowwrite.BufSize),
	)
	if err != nil {
		return nil, err
	}
	p := &parquetWriter{w: parquet.NewGenericWriter[any](w, cfg), cols: cols, rows: make([]parquet.Row, parquetBatch)}
	for i := range p.rows {
		p.rows[i] = make(parquet.Row, len(cols))
	}
	return p, nil
}

func (p *parquetWriter) Row(vals []rowwrite.Value) error {
	row := p.rows[p.n]
	for i, c := range p.cols {
		v := &vals[i]
		if v.Null {
			row[i] = parquet.NullValue().Level(0, 0, i)
			continue
		}
		var pv parquet.Value
		switch c.Kind {
		case rowwrite.Int:
			pv = parquet.Int64Value(v.N)
		case rowwrite.Money:
			if v.N > 999_999_999_999_999_999 || v.N < -999_999_999_999_999_999 {
				return errMoneyRange
			}
			pv = parquet.Int64Value(v.N)
		case rowwrite.Date:
			pv = parquet.Int32Value(int32(v.N))
		case rowwrite.Bool:
			pv = parquet.BooleanValue(v.N != 0)
		case rowwrite.Float:
			pv = parquet.DoubleValue(v.F)
		default:
			// The bytes are copied: the caller's strings stay its own and
			// the writer holds the value until the batch is written.
			pv = parquet.ByteArrayValue([]byte(v.S))
		}
		row[i] = pv.Level(0, 1, i)
	}
	p.n++
	if p.n == len(p.rows) {
		return p.flush()
	}
	return nil
}

// flush hands the batched rows to the Parquet writer.
func (p *parquetWriter) flush() error {
	if p.n == 0 {
		return nil
	}
	_, err := p.w.WriteRows(p.rows[:p.n])
	p.n = 0
	return err
}

func (p *parquetWriter) Close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}

func (p *parquetWriter) Abort() {}
