package grocery_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoTransport holds the domain package to its layout rule: grocery
// and the packages of this module under it import no net/http. Transports
// (the MCP handler, the admin socket) live outside it. It reads our own
// imports, not 'go list -deps': excelize, an allowed dependency, imports
// net/http itself.
func TestNoTransport(t *testing.T) {
	const module = "github.com/grocerydata/grocery/"
	seen := map[string]bool{}
	var walk func(pkg, dir string)
	walk = func(pkg, dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no Go files in %s", pkg, dir)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				switch {
				case path == "net/http" || strings.HasPrefix(path, "net/http/"):
					t.Errorf("%s imports %s: a transport belongs outside the domain package", name, path)
				case strings.HasPrefix(path, module):
					walk(path, filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(path, module))))
				}
			}
		}
	}
	walk(module+"grocery", ".")
	if !seen[filepath.Join("..", "storage")] {
		t.Errorf("walked %v; want storage among them", seen)
	}
}
