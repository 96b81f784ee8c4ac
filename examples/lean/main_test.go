package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// maxLeanSize is the most the lean program may weigh: what an embedder
// pays for Open and LookupProduct.
const maxLeanSize = 15 << 20

// TestLeanSize builds this program, which imports grocery alone, and
// checks its size against maxLeanSize: a dependency that package grocery
// starts to link shows here.
func TestLeanSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program: not in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "lean")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("examples/lean: %d bytes (%.1f MB), the limit %d MB", fi.Size(), float64(fi.Size())/(1<<20), maxLeanSize>>20)
	if fi.Size() > maxLeanSize {
		t.Errorf("examples/lean is %d bytes: want at most %d (15 MB); go list -deps ./examples/lean shows what it links", fi.Size(), maxLeanSize)
	}
}

// TestFormatsNotRegistered: in a program that imports no format package,
// an XLSX or Parquet export or import is an invalid-argument error naming
// the package to import, and the import stores nothing.
func TestFormatsNotRegistered(t *testing.T) {
	ctx := context.Background()
	svc, err := grocery.Open(filepath.Join(t.TempDir(), "lean.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if got, want := grocery.Formats(), []string{"json", "jsonl", "csv"}; !slices.Equal(got, want) {
		t.Errorf("Formats() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		format, file string
		data         []byte
	}{
		{"xlsx", "prices.xlsx", []byte("PK\x03\x04 a workbook would follow")},
		{"parquet", "prices.parquet", []byte("PAR1 a Parquet file would follow")},
	} {
		t.Run(tc.format, func(t *testing.T) {
			pkg := `import _ "github.com/grocerydata/grocery/format/` + tc.format + `"`
			var buf bytes.Buffer
			_, err := svc.Export(ctx, grocery.ExportInput{Format: tc.format, Dataset: "stores"}, &buf)
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), pkg) {
				t.Errorf("Export %s: got %v, want %s naming %s", tc.format, err, grocery.EINVALIDARGUMENT, pkg)
			}
			if buf.Len() != 0 {
				t.Errorf("Export %s wrote %d bytes, want none", tc.format, buf.Len())
			}
			_, err = svc.Import(ctx, tc.file, bytes.NewReader(tc.data), nil)
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(err.Error(), pkg) || !strings.Contains(err.Error(), tc.file) {
				t.Errorf("Import %s: got %v, want %s naming the file and %s", tc.file, err, grocery.EINVALIDARGUMENT, pkg)
			}
		})
	}
	// Nothing was stored: the stores export is its header alone.
	var buf bytes.Buffer
	sum, err := svc.Export(ctx, grocery.ExportInput{Format: "csv", Dataset: "stores"}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 0 {
		t.Errorf("after the refused imports the stores export holds %d rows, want 0", sum.Rows)
	}
	// A format no package provides lists the ones this program writes.
	_, err = svc.Export(ctx, grocery.ExportInput{Format: "ods", Dataset: "stores"}, &buf)
	if want := `format "ods" is not supported: want json (default), jsonl or csv`; grocery.ErrorMessage(err) != want {
		t.Errorf("Export ods: got %v, want %q", err, want)
	}
}
