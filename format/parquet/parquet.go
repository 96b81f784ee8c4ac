// Package parquet registers the Apache Parquet format with package
// grocery: importing it, usually for its side effect alone, lets
// grocery.Service.Import (and the Open Prices source of
// grocery.ConvertSource) read Parquet files and Export write them.
//
//	import _ "github.com/grocerydata/grocery/format/parquet"
//
// It links parquet-go (and through it protobuf and go-geom); a program
// that does not import it does not.
//
// An import reads a file of at most MaxSize bytes, a row per record and
// a column per field of its flat schema, values as text (DECIMAL exactly,
// DATE as YYYY-MM-DD); a file whose footer or pages declare more than
// MaxFooter, MaxColumns, MaxPage, MaxPageValues or MaxUnpacked is refused
// before the Parquet library reads it. An export writes typed, optional
// columns (money as DECIMAL(18,2), dates as DATE), one row group per
// RowGroup rows, pages compressed with snappy.
package parquet

import (
	"io"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/grocerydata/grocery/internal/rowwrite"
)

func init() {
	grocery.RegisterFormat("parquet", grocery.Format{
		Ext:         "parquet",
		ContentType: "application/vnd.apache.parquet",
		Open:        func(r io.Reader) (*rowfile.Rows, error) { return open(r, MaxSize) },
		Create: func(w io.Writer, _ string, cols []rowwrite.Column) (rowwrite.Writer, error) {
			return newWriter(w, cols)
		},
	})
}
