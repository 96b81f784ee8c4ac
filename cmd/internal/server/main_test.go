package server

import (
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestRunMainFlags: grocery-mcp and grocery-rest check --role,
// --snapshots and --redis as grocery serve does, before opening anything.
func TestRunMainFlags(t *testing.T) {
	t.Setenv("GROCERY_REDIS_URL", "")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ErrSnapshotsWithoutRole", []string{"--snapshots", "x"}, "--snapshots needs --role"},
		{"ErrUnknownRole", []string{"--role", "leader", "--snapshots", "x"}, `--role "leader": want ingest or replica`},
		{"ErrIngestWithoutSnapshots", []string{"--role", "ingest"}, "--role ingest needs --snapshots"},
		{"ErrReplicaWithoutSnapshots", []string{"--role", "replica", "--redis", "redis://127.0.0.1:1/0"}, "--role replica needs --snapshots"},
		{"ErrReplicaWithoutRedis", []string{"--role", "replica", "--snapshots", "x"}, "--role replica needs --redis"},
		{"ErrIngestWithoutRedis", []string{"--role", "ingest", "--snapshots", "x"}, "--role ingest needs --redis"},
		{"ErrArgument", []string{"serve"}, `unexpected argument "serve"`},
	}
	for _, serve := range []Interfaces{ServeMCP, ServeREST} {
		for _, tt := range tests {
			t.Run(serve.String()+"/"+tt.name, func(t *testing.T) {
				var stderr strings.Builder
				err := runMain(context.Background(), "grocery-x", serve, tt.args, io.Discard, &stderr)
				var usage *usageError
				if !errors.As(err, &usage) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%v: got %v, want a usage error saying %q", tt.args, err, tt.want)
				}
			})
		}
	}

	t.Run("Help", func(t *testing.T) {
		var stderr strings.Builder
		err := runMain(context.Background(), "grocery-mcp", ServeMCP, []string{"--help"}, io.Discard, &stderr)
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("--help: got %v, want flag.ErrHelp", err)
		}
		for _, want := range []string{"-role", "'ingest' holds the data file", "'replica' serves the newest snapshot", "-snapshots dir", "-redis"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("--help does not say %q:\n%s", want, stderr.String())
			}
		}
	})
	t.Run("ErrUnknownFlag", func(t *testing.T) {
		var stderr strings.Builder
		err := runMain(context.Background(), "grocery-rest", ServeREST, []string{"--rol", "ingest"}, io.Discard, &stderr)
		var usage *usageError
		if !errors.As(err, &usage) || !strings.Contains(stderr.String(), "-rol") {
			t.Errorf("--rol: got %v, stderr %q; want a usage error naming -rol", err, stderr.String())
		}
	})
}

// TestRunMainVersion: grocery-mcp --version and grocery-rest --version
// print "NAME version V", V the build's version, and serve nothing.
func TestRunMainVersion(t *testing.T) {
	for _, name := range []string{"grocery-mcp", "grocery-rest"} {
		var stdout, stderr strings.Builder
		// No data file at --db: --version must not need one.
		err := runMain(context.Background(), name, ServeMCP, []string{"--version", "--db", t.TempDir() + "/none.db"}, &stdout, &stderr)
		if want := name + " version " + grocery.Version() + "\n"; err != nil || stdout.String() != want || stderr.String() != "" {
			t.Errorf("%s --version: err %v, stdout %q, stderr %q; want %q", name, err, stdout.String(), stderr.String(), want)
		}
	}
}
