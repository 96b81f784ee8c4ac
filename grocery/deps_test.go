package grocery_test

import (
	"os/exec"
	"strings"
	"testing"
)

// forbiddenDeps are the module path prefixes package grocery must not
// link, whatever imports it: each belongs to a package a program imports
// when it wants it. Add an adapter's library here when it leaves grocery.
var forbiddenDeps = []string{
	// The XLSX format: github.com/grocerydata/grocery/format/xlsx.
	"github.com/xuri/excelize",
	// The Parquet format: github.com/grocerydata/grocery/format/parquet,
	// and what parquet-go brings with it.
	"github.com/parquet-go",
	"google.golang.org/protobuf",
	"github.com/twpayne/go-geom",
	// Redis: github.com/grocerydata/grocery/redisstore, given to
	// Options.Shared.
	"github.com/redis/go-redis",
}

// TestDeps lists what package grocery links (go list -deps, as
// tailscale's tstest/deptest does) and fails on a forbidden one.
func TestDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list: not in -short mode")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/grocerydata/grocery/grocery").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: want grocery's whole tree", len(deps))
	}
	for _, bad := range forbiddenDeps {
		var found []string
		for _, dep := range deps {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				found = append(found, dep)
			}
		}
		if len(found) > 0 {
			t.Errorf("package grocery links %d packages of %s, the first %s: go mod why %s shows the chain", len(found), bad, found[0], found[0])
		}
	}
}
