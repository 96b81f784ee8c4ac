package grocery

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The demo file of 2026-11-19, built once per test binary (the build is
// the slow part of the tests that start from it) and copied for each
// test, which may then change its copy freely.
var demoFile struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// DemoCopy returns the path of a copy, in a temporary directory of tb's,
// of the demo file BuildDemo makes as of 2026-11-19. Tests of the
// grocery_test package call it too.
func DemoCopy(tb testing.TB) string {
	tb.Helper()
	demoFile.once.Do(func() {
		if demoFile.dir, demoFile.err = os.MkdirTemp("", "grocery-demo"); demoFile.err != nil {
			return
		}
		demoFile.path = filepath.Join(demoFile.dir, "demo.db")
		asOf, _ := ParseDate("2026-11-19")
		_, demoFile.err = BuildDemo(context.Background(), demoFile.path, &DemoOptions{AsOf: asOf})
	})
	if demoFile.err != nil {
		tb.Fatalf("build the demo file: %v", demoFile.err)
	}
	path := filepath.Join(tb.TempDir(), "demo.db")
	if err := copyDemoFile(demoFile.path, path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// RemoveDemoFile removes the demo file DemoCopy built, if it did: for
// TestMain, after the tests.
func RemoveDemoFile() {
	if demoFile.dir != "" {
		os.RemoveAll(demoFile.dir)
	}
}

func copyDemoFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
