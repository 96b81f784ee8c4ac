package restserver_test

// The XLSX and Parquet formats, registered for the tests' exports and
// imports as the binaries register them.
import (
	_ "github.com/grocerydata/grocery/format/parquet"
	_ "github.com/grocerydata/grocery/format/xlsx"
)
