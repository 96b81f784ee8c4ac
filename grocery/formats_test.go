package grocery_test

// The XLSX and Parquet formats, registered for every test of the package:
// the internal tests (package grocery) run in the same test binary, after
// these packages' init functions, so they read and write both formats too.
import (
	_ "github.com/grocerydata/grocery/format/parquet"
	_ "github.com/grocerydata/grocery/format/xlsx"
)
