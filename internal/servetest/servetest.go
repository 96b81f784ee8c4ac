// Package servetest holds what the transports' tests share (as bbolt's
// internal/btesting does for bbolt's): a grocery service on a temporary
// data file, filled with the demo data or with hand-made CSV files, on a
// fixed clock; keys of an account of the test's own; one HTTP exchange
// read whole; and golden files under testdata/, rewritten with -update.
//
// Everything here is real: a bbolt file, the importer, net/http. Nothing
// stands in for the store.
package servetest

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/redisstore"
)

// AsOf is the date the demo data ends on: 2026-11-19.
const AsOf = grocery.Date(20776)

// Now is the tests' clock: noon the day after AsOf, inside AsOf's month,
// so every quota resets on 2026-12-01.
func Now() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }

// File is a hand-made file to import: its name tells the importer its
// kind (stores.csv, observations, ...).
type File struct{ Name, Data string }

// options returns opts with the tests' clock when it sets none.
func options(opts *grocery.Options) *grocery.Options {
	o := grocery.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = Now
	}
	return &o
}

// Demo builds the small demo data set, ending on AsOf, at path and opens
// it with opts (on the tests' clock unless opts sets one). It is for a
// TestMain that shares one service between tests; the caller closes it.
func Demo(path string, opts *grocery.Options) (*grocery.Service, grocery.DemoSamples, error) {
	sum, err := grocery.BuildDemo(context.Background(), path, &grocery.DemoOptions{AsOf: AsOf})
	if err != nil {
		return nil, grocery.DemoSamples{}, err
	}
	svc, err := grocery.Open(path, options(opts))
	if err != nil {
		return nil, grocery.DemoSamples{}, err
	}
	return svc, sum.Samples, nil
}

// HandMade opens a new data file at path with opts (on the tests' clock
// unless opts sets one) and imports files into it, in order. It is for a
// TestMain that shares one service between tests; the caller closes it.
func HandMade(path string, opts *grocery.Options, files ...File) (*grocery.Service, error) {
	svc, err := grocery.Open(path, options(opts))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if _, err := svc.Import(context.Background(), f.Name, strings.NewReader(f.Data), nil); err != nil {
			svc.Close()
			return nil, err
		}
	}
	return svc, nil
}

// Open is HandMade for one test: the file is in tb's temporary
// directory, and the service is closed at tb's cleanup.
func Open(tb testing.TB, opts *grocery.Options, files ...File) *grocery.Service {
	tb.Helper()
	svc, err := HandMade(filepath.Join(tb.TempDir(), "grocery.db"), opts, files...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { svc.Close() })
	return svc
}

// Key makes a key of a new account named after tb (subtests' slashes
// become dots), with plan and quota (0: the plan's), and returns its
// text. Each test has an account of its own, so quotas never mix.
func Key(tb testing.TB, svc *grocery.Service, plan string, quota int64) string {
	tb.Helper()
	return AccountKey(tb, svc, strings.ReplaceAll(tb.Name(), "/", "."), plan, quota)
}

// AccountKey is Key for a named account, new or not.
func AccountKey(tb testing.TB, svc *grocery.Service, account, plan string, quota int64) string {
	tb.Helper()
	k, err := svc.CreateKey(context.Background(), grocery.KeyInput{Account: account, Plan: plan, Quota: quota})
	if err != nil {
		tb.Fatal(err)
	}
	return k.Key
}

// Reply is an HTTP answer, read whole.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req with the default client and reads the whole answer.
func Do(tb testing.TB, req *http.Request) *Reply {
	tb.Helper()
	return DoClient(tb, http.DefaultClient, req)
}

// DoClient is Do with client c (one that leaves Content-Encoding to the
// test, say).
func DoClient(tb testing.TB, c *http.Client, req *http.Request) *Reply {
	tb.Helper()
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return &Reply{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// Request builds a request for Do, failing tb on a malformed URL; body ""
// sends none.
func Request(tb testing.TB, method, url, body string) *http.Request {
	tb.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		tb.Fatal(err)
	}
	return req
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ with what the tests produce")

// Golden compares got with the golden file testdata/name (in the test's
// package directory) and fails tb with the difference when they differ.
// With -update it writes got to the file instead: review the change with
// git diff before committing it.
func Golden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(name))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v: run 'go test -run '%s' -update' to write it", err, tb.Name())
	}
	if !bytes.Equal(want, got) {
		tb.Errorf("%s differs from its golden file (-want +got); if the change is meant, rerun with -update and review git diff:\n%s",
			path, cmp.Diff(string(want), string(got)))
	}
}

// Redis returns, for Options.Shared, the store of the Redis at url under
// redisstore's default prefix. A Service takes the store it is opened
// with: each Open needs one of its own.
func Redis(tb testing.TB, url string) grocery.SharedStore {
	tb.Helper()
	st, err := redisstore.Dial(url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}
