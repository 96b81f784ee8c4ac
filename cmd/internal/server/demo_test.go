package server_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// demo is the small demo data file, as of 2026-11-19, built once per test
// binary by the first test that asks for it; each test serves a copy.
var demo struct {
	once sync.Once
	dir  string
	path string
	sum  *grocery.DemoSummary
	err  error
}

// TestMain runs the tests and removes the shared demo file.
func TestMain(m *testing.M) {
	code := m.Run()
	if demo.dir != "" {
		os.RemoveAll(demo.dir)
	}
	os.Exit(code)
}

// demoCopy writes a copy of the demo data file at path (the demo is built
// at the first call) and returns the demo's summary.
func demoCopy(t *testing.T, path string) *grocery.DemoSummary {
	t.Helper()
	demo.once.Do(func() {
		if demo.dir, demo.err = os.MkdirTemp("", "server-demo-"); demo.err != nil {
			return
		}
		demo.path = filepath.Join(demo.dir, "demo.db")
		demo.sum, demo.err = grocery.BuildDemo(context.Background(), demo.path, &grocery.DemoOptions{AsOf: 20776})
	})
	if demo.err != nil {
		t.Fatalf("building the demo data file: %v", demo.err)
	}
	src, err := os.Open(demo.path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return demo.sum
}
