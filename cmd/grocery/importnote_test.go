package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
)

// TestImportNote: what the CLI adds to a failed import's error says what
// is imported: nothing, the days the error names, perhaps the first days
// (a server's import interrupted), or not known (the server stopped).
func TestImportNote(t *testing.T) {
	const written = "the file's observations up to 2026-03-14 are written, the later ones are not: import the file again to write them (the rows written count as unchanged)"
	bad := grocery.Errorf(grocery.EINVALIDARGUMENT, "p.csv:3: price: not a number")
	full := grocery.Errorf(grocery.EINTERNAL, "p.csv: the data file could not be written: the disk is full; "+written)
	stopped := fmt.Errorf("p.csv: %w; %s", context.Canceled, written)
	for _, tc := range []struct {
		name      string
		err       error
		done      []string
		viaServer bool
		want      string
	}{
		{"a bad row", bad, nil, false, "nothing of p.csv was imported"},
		{"a bad row after a file", bad, []string{"stores.csv"}, true, "nothing of p.csv was imported; stores.csv stays imported"},
		{"the disk full after some days", full, nil, false, ""},
		{"the disk full after some days, after files", full, []string{"a.csv", "b.csv"}, false, "a.csv, b.csv stay imported"},
		{"interrupted after some days", stopped, nil, false, "p.csv's observations up to 2026-03-14 are imported, the later ones are not: run the same import again to write them (the rows imported count as unchanged)"},
		{"interrupted here before any", context.Canceled, nil, false, "nothing of p.csv was imported"},
		{"interrupted through a server", context.Canceled, nil, true, "the server may have imported the first days of p.csv (a file of more than about a million rows is written by whole days): running the same import again is safe (rows already imported count as unchanged) and reports what it finds"},
		{"the server stopped", fmt.Errorf("import: %w", admin.ErrStopped), nil, true, "whether p.csv was imported is not known: a file is imported whole or not at all (a file of more than about a million rows, by whole days), and running the same import again is safe (rows already imported count as unchanged) and reports what it finds"},
	} {
		if got := importNote(tc.err, "p.csv", tc.done, tc.viaServer); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
