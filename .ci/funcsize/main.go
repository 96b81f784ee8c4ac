// Command funcsize fails when a function of the repository's Go code
// (tests and generated files aside) is over 100 lines, or over cognitive
// complexity 40 in gocognit's report read from standard input, unless
// .ci/funcsize/allow names it with its reason. It also fails on an
// allow-list entry that no function needs any more, so the list only
// shrinks.
//
//	gocognit -over 40 DIRS | go run ./.ci/funcsize -root .
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

const (
	maxLines      = 100
	maxComplexity = 40
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	allowFile := flag.String("allow", ".ci/funcsize/allow", "the allow-list: lines of 'package function  # reason'")
	flag.Parse()
	allow, err := readAllow(*allowFile)
	if err != nil {
		fail(err)
	}
	over, err := longFuncs(*root)
	if err != nil {
		fail(err)
	}
	complex, err := readGocognit(bufio.NewScanner(os.Stdin))
	if err != nil {
		fail(err)
	}
	for k, v := range complex {
		over[k] = append(over[k], v...)
	}
	keys := make([]string, 0, len(over))
	for k := range over {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bad := 0
	for _, k := range keys {
		if _, ok := allow[k]; ok {
			fmt.Printf("allowed: %s: %s (%s)\n", k, strings.Join(over[k], ", "), allow[k])
			delete(allow, k)
			continue
		}
		fmt.Printf("TOO BIG: %s: %s\n", k, strings.Join(over[k], ", "))
		bad++
	}
	for k := range allow {
		fmt.Printf("STALE: %s is allowed but within both limits: take it off %s\n", k, *allowFile)
		bad++
	}
	if bad > 0 {
		fmt.Printf("%d to mend: split the functions over %d lines or cognitive complexity %d, and take stale entries off the list\n", bad, maxLines, maxComplexity)
		os.Exit(1)
	}
	fmt.Printf("every other function is within %d lines and cognitive complexity %d\n", maxLines, maxComplexity)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "funcsize:", err)
	os.Exit(2)
}

// readAllow returns the allow-list's entries, "package function", with
// their reasons; an entry without a reason is an error.
func readAllow(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	allow := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, "#")
		f := strings.Fields(name)
		if len(f) != 2 || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: want 'package function  # reason', got %q", path, i+1, line)
		}
		allow[f[0]+" "+f[1]] = strings.TrimSpace(reason)
	}
	return allow, nil
}

// longFuncs returns the functions over maxLines lines, keyed as
// gocognit names them ("package (*Recv).Name"), with their sizes.
func longFuncs(root string) (map[string][]string, error) {
	over := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := end.Line - start.Line + 1; n > maxLines {
				k := f.Name.Name + " " + funcName(fd)
				over[k] = append(over[k], fmt.Sprintf("%d lines at %s:%d", n, path, start.Line))
			}
		}
		return nil
	})
	return over, err
}

// funcName names fd as gocognit does: Name, or (Recv).Name, (*Recv).Name.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, _ := t.(*ast.Ident)
	if id == nil {
		return fd.Name.Name
	}
	return "(" + star + id.Name + ")." + fd.Name.Name
}

// readGocognit returns the functions of gocognit's report ("N package
// function path:line:col", one a line), tests left out.
func readGocognit(sc *bufio.Scanner) (map[string][]string, error) {
	over := map[string][]string{}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 {
			continue // gocognit's notes
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("gocognit's report: %q", sc.Text())
		}
		if n <= maxComplexity || strings.Contains(f[3], "_test.go:") {
			continue
		}
		k := f[1] + " " + f[2]
		over[k] = append(over[k], fmt.Sprintf("cognitive complexity %d at %s", n, f[3]))
	}
	return over, sc.Err()
}
