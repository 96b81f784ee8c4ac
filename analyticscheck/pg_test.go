//go:build unix

package analyticscheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pgServer is a PostgreSQL server the test started: its own data
// directory, listening only on a Unix socket in a temporary directory.
type pgServer struct {
	bin  string // the directory of initdb, postgres and psql
	sock string // the socket directory
	log  string // the server's log file
}

// pgBinDir finds the directory of PostgreSQL's server binaries: $PGBIN,
// then the directory initdb on $PATH links to, then Debian's
// /usr/lib/postgresql/<version>/bin (the newest version), where Debian's
// packages put them (not on $PATH).
func pgBinDir() (string, error) {
	has := func(dir string) bool {
		for _, name := range []string{"initdb", "postgres", "psql"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				return false
			}
		}
		return true
	}
	if dir := os.Getenv("PGBIN"); dir != "" {
		if !has(dir) {
			return "", fmt.Errorf("$PGBIN %s lacks initdb, postgres or psql", dir)
		}
		return dir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && has(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgVersion(dirs[i]) > pgVersion(dirs[j]) })
	for _, dir := range dirs {
		if has(dir) {
			return dir, nil
		}
	}
	return "", errors.New("PostgreSQL's initdb, postgres and psql were not found (on $PATH, in /usr/lib/postgresql/*/bin or in $PGBIN): apt-get install postgresql (.ci/run does)")
}

// pgVersion reads the version out of /usr/lib/postgresql/<version>/bin.
func pgVersion(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

// startPostgres starts a PostgreSQL server for the test and stops it in
// t.Cleanup. It skips the test when PostgreSQL is not installed, unless
// $GROCERY_REQUIRE_POSTGRES is 1 (as in CI), when it fails. As
// root, initdb and postgres (which refuse to run as root) run as the
// postgres user Debian's package creates, or else as nobody.
func startPostgres(t testing.TB) *pgServer {
	t.Helper()
	bin, err := pgBinDir()
	if err != nil {
		if os.Getenv("GROCERY_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("GROCERY_REQUIRE_POSTGRES=1: %v", err)
		}
		t.Skipf("skipping the SQL check of the analytics: %v", err)
	}
	base, err := os.MkdirTemp("", "analyticscheck-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	// The server's user must reach its directories.
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	data, sock := filepath.Join(base, "data"), filepath.Join(base, "sock")
	for _, dir := range []string{data, sock} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred, err = unprivileged()
		if err != nil {
			t.Fatalf("running as root, PostgreSQL needs another user: %v", err)
		}
		for _, dir := range []string{data, sock} {
			if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(sock, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.SysProcAttr = serverProcAttr(cred)
		cmd.Dir = base
		cmd.Env = append(os.Environ(), "HOME="+base, "LC_ALL=C", "LANG=C")
		return cmd
	}
	initdb := run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	srv := &pgServer{bin: bin, sock: sock, log: filepath.Join(base, "postgres.log")}
	logf, err := os.Create(srv.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	// Only a Unix socket; durability is of no use to a throwaway server;
	// no parallel workers on a shared machine; no JIT (compiling the
	// queries' expressions cost twenty times their execution here).
	postgres := run("postgres", "-D", data, "-k", sock,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "dynamic_shared_memory_type=mmap",
		"-c", "max_parallel_workers_per_gather=0", "-c", "jit=off", "-c", "work_mem=64MB",
		"-c", "shared_buffers=32MB", "-c", "max_connections=20")
	postgres.Stdout, postgres.Stderr = logf, logf
	if err := postgres.Start(); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- postgres.Wait() }()
	t.Cleanup(func() {
		// SIGINT is PostgreSQL's fast shutdown.
		_ = postgres.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = postgres.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("postgres exited: %v\n%s", err, srv.logTail())
		default:
		}
		if _, err := srv.psql(context.Background(), nil, "-c", "SELECT 1"); err == nil {
			return srv
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres did not accept connections within 60 s\n%s", srv.logTail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// unprivileged returns the credentials of the postgres user, or of nobody.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
	}
	return nil, errors.New("neither a postgres nor a nobody user exists")
}

func (s *pgServer) logTail() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// psql runs the server's psql with psql variables vars (name=value, read
// in SQL as :'name') and args, and returns its standard output: unaligned,
// tuples only, stopping at the first error.
func (s *pgServer) psql(ctx context.Context, vars map[string]string, args ...string) ([]byte, error) {
	full := []string{"-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", s.sock, "-U", "postgres", "-d", "postgres"}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		full = append(full, "-v", k+"="+vars[k])
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, "psql"), full...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC", "PGCLIENTENCODING=UTF8")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("psql %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
