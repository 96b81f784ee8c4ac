package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/cmd/internal/server"
)

// TestDemoKeyPrivate: the demo key is a secret, so its file is mode 0600
// whether it is new or left by an older version with looser permissions.
func TestDemoKeyPrivate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "grocery.db")
	if err := copyFile(demoDB, db); err != nil {
		t.Fatal(err)
	}
	opts := server.Options{}
	key, err := prepareDemo(ctx, db, opts, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	keyFile := db + ".demo-key"
	checkMode := func(when string) {
		t.Helper()
		fi, err := os.Stat(keyFile)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s: got mode %o, want 600", when, got)
		}
	}
	checkMode("new key file")

	// An old, world-readable file with a key that still works.
	if err := os.Chmod(keyFile, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := prepareDemo(ctx, db, opts, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	if again != key {
		t.Errorf("the working demo key was replaced")
	}
	checkMode("kept key file")

	// A key that no longer works (the data file was rebuilt) is replaced.
	if err := os.WriteFile(keyFile, []byte("gro_pk_stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh, err := prepareDemo(ctx, db, opts, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	if fresh == key || fresh == "gro_pk_stale" {
		t.Errorf("a stale key file was not replaced with a new key")
	}
	checkMode("replaced key file")
}

// TestGitignore: after the quick start, 'git status' shows none of the
// files the service writes beside the data file (the demo key is a secret).
func TestGitignore(t *testing.T) {
	f, err := os.Open("../../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var patterns []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, line)
		}
	}
	for _, name := range []string{"grocery.db", "grocery.db.sock", "grocery.db.building", "grocery.db.demo-key"} {
		ignored := false
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, name); ok {
				ignored = true
			}
		}
		if !ignored {
			t.Errorf("%s is not ignored by .gitignore", name)
		}
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}
