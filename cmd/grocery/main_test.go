package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// The demo data file every query test reads, built once per test binary.
var (
	demoDB      string
	demoSummary *grocery.DemoSummary
)

const demoAsOf = "2026-11-19"

// asGrocery, set to 1 in a process's environment, makes the test binary
// the grocery command: TestExamples runs it under that name instead of
// building the command again (the same main, the same packages).
const asGrocery = "GROCERY_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asGrocery) == "1" {
		main() // exits
	}
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "grocery-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	demoDB = filepath.Join(dir, "demo.db")
	asOf, err := grocery.ParseDate(demoAsOf)
	if err != nil {
		panic(err)
	}
	demoSummary, err = grocery.BuildDemo(context.Background(), demoDB, &grocery.DemoOptions{Scale: "small", AsOf: asOf})
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the demo data file:", err)
		return 1
	}
	return m.Run()
}

// result is what one command line did.
type result struct {
	code           int
	stdout, stderr string
}

// env is a fake environment for the commands.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// cli runs a command line through the cobra root with the given
// environment, on the demo data file unless args or env name another.
func cli(t *testing.T, e env, args ...string) result {
	t.Helper()
	if e == nil {
		e = env{}
	}
	if _, ok := e["GROCERY_DB"]; !ok && !hasFlag(args, "--db") {
		args = append(args, "--db", demoDB)
	}
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(""), nil, nil, e.get)
	root.SetOut(&out)
	root.SetErr(&errb)
	code := execute(context.Background(), root, args, e.get)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// openDemo opens the demo data file read-only, as the commands do, to
// compare their output with the library's results.
func openDemo(t *testing.T) *grocery.Service {
	t.Helper()
	svc, err := grocery.Open(demoDB, &grocery.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

// ok fails the test unless the command succeeded with nothing on stderr.
func ok(t *testing.T, r result) {
	t.Helper()
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("got exit %d, stderr %q; want success", r.code, r.stderr)
	}
}
