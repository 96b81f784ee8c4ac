// Package xlsx registers the XLSX format (Office Open XML workbooks) with
// package grocery: importing it, usually for its side effect alone, lets
// grocery.Service.Import read XLSX workbooks and Export write them.
//
//	import _ "github.com/grocerydata/grocery/format/xlsx"
//
// It links excelize; a program that does not import it does not.
//
// An import reads the first sheet of a workbook of at most MaxSize bytes:
// its first row that is not empty is the header, cells are read as text
// (numbers as their digits, dates as YYYY-MM-DD, booleans as TRUE or
// FALSE), and a workbook that unpacks past MaxUnzipped, MaxPart or MaxRun,
// or whose sheet declares or holds more than MaxSheetRows rows, is
// refused before excelize reads it. An export writes one sheet named for
// its data set, with a bold header row frozen above the rows, typed cells
// (money with MoneyFormat, dates with DateFormat) and an autofilter; an
// export of more than grocery.MaxXLSXRows rows is refused before anything
// is written: an export of observations by PrepareExport (from the stored
// counts, or by reading a barcode's or changes' observations); any other
// when its writer reaches the limit, before it writes a byte.
package xlsx

import (
	"io"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/rowfile"
)

func init() {
	grocery.RegisterFormat("xlsx", grocery.Format{
		Ext:         "xlsx",
		ContentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		Open:        func(r io.Reader) (*rowfile.Rows, error) { return open(r, MaxSize) },
		Create:      newWriter,
		MaxRows:     grocery.MaxXLSXRows,
	})
}
