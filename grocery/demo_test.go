package grocery_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/storage"
)

// TestBuildDemoRefusesFileInUse: replacing a data file that another
// process holds would leave that process (a server) writing its keys and
// counts to a deleted file, so BuildDemo refuses even with Force, and the
// held file keeps what it had.
func TestBuildDemoRefusesFileInUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	asOf, _ := grocery.ParseDate("2026-11-19")
	for _, tc := range []struct {
		name string
		opts *grocery.Options
	}{
		{"ErrWriter", &grocery.Options{}},
		{"ErrReader", &grocery.Options{ReadOnly: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := grocery.DemoCopy(t) // a demo file as BuildDemo makes it
			w, err := grocery.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			key, err := w.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
			if err != nil {
				t.Fatal(err)
			}
			holder := w
			if tc.opts.ReadOnly {
				w.Close()
				if holder, err = grocery.Open(path, tc.opts); err != nil {
					t.Fatal(err)
				}
			}
			_, err = grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf, Force: true})
			if got := grocery.ErrorCode(err); got != grocery.ECONFLICT {
				t.Fatalf("BuildDemo on a held file: got %v, want code %s", err, grocery.ECONFLICT)
			}
			want := "data file " + path + " is in use by another process (a running server?): stop it before replacing the file"
			if got := grocery.ErrorMessage(err); got != want {
				t.Errorf("got message %q, want %q", got, want)
			}
			holder.Close()

			// The file is the one that was held: the key still works.
			svc, err := grocery.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			if _, err := svc.Authenticate(ctx, key.Key, grocery.InterfaceMCP); err != nil {
				t.Errorf("the key made before the refused rebuild: %v", err)
			}
		})
	}

	t.Run("OKReleased", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "grocery.db")
		for range 2 { // the second build replaces the first: nothing holds it
			if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf, Force: true}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestOpenAfterReplace: a process that waits for the lock of a file that
// is being replaced (demo --force holds the old file's lock while it moves
// the new one into place) opens the new file, not the deleted old one, so
// that what it writes is not lost.
func TestOpenAfterReplace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, next := filepath.Join(dir, "grocery.db"), filepath.Join(dir, "next.db")
	for _, p := range []string{path, next} {
		s, err := grocery.Open(p, nil) // an empty data file
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	s, err := grocery.Open(next, nil)
	if err != nil {
		t.Fatal(err)
	}
	key, err := s.CreateKey(ctx, grocery.KeyInput{Account: "next", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		t.Skipf("no /proc/self/fd to tell when Open has the file open: %v", err)
	}
	unlockFile, err := storage.LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unlock := sync.OnceFunc(unlockFile)
	defer unlock() // a failed wait still lets Open go on, and end
	opened := make(chan *grocery.Service, 1)
	go func() {
		s, err := grocery.Open(path, &grocery.Options{LockTimeout: 10 * time.Second})
		if err != nil {
			t.Error(err)
		}
		opened <- s
	}()
	waitOpened(t, path, 2) // LockFile's descriptor and Open's, which waits for the lock
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	unlock()
	s = <-opened
	if s == nil {
		return
	}
	defer s.Close()
	if _, err := s.Authenticate(ctx, key.Key, grocery.InterfaceMCP); err != nil {
		t.Errorf("Open waited on a replaced file and opened the old one: the new file's key fails: %v", err)
	}
}

// waitOpened waits until n of this process's file descriptors
// (/proc/self/fd) are open on the file at path, for at most 10 s.
func waitOpened(t *testing.T, path string, n int) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; runtime.Gosched() {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		open := 0
		for _, fd := range fds {
			if f, err := os.Stat("/proc/self/fd/" + fd.Name()); err == nil && os.SameFile(f, fi) {
				open++
			}
		}
		if open >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors open on %s after 10 s, want %d", open, path, n)
		}
	}
}

// TestBuildDemoInvalid checks the edge to the generator: its option errors
// become grocery.EINVALIDARGUMENT with the generator's message, and nothing is written.
func TestBuildDemoInvalid(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts grocery.DemoOptions
		want string
	}{
		{"ErrUnknownScale", grocery.DemoOptions{Scale: "huge", AsOf: 20776}, `scale "huge" is unknown: want one of small, medium, large, national`},
		{"ErrTooEarly", grocery.DemoOptions{AsOf: 100}, "as-of date 1970-04-11 is too early: want 1971-05-02 or later"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "demo.db")
			_, err := grocery.BuildDemo(context.Background(), path, &tt.opts)
			if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || grocery.ErrorMessage(err) != tt.want {
				t.Fatalf("got %q (%v), want %s %q", grocery.ErrorCode(err), err, grocery.EINVALIDARGUMENT, tt.want)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("got %v for %s, want no file", err, path)
			}
		})
	}
}
