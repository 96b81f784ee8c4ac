//go:build unix

package analyticscheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/servetest"
)

// pgServer is the PostgreSQL server the tests started, and the database
// one fixture uses on it: its own data directory, listening only on a
// Unix socket in a temporary directory.
type pgServer struct {
	bin  string // the directory of initdb, postgres and psql
	sock string // the socket directory
	log  string // the server's log file
	db   string // the database psql connects to

	pool *psqlPool // idle sessions on db
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

// shared is the test binary's one PostgreSQL server, started by the first
// test that asks for it and stopped by TestMain; each fixture loads its data
// into a database of its own on it.
var shared struct {
	once sync.Once
	srv  *pgServer
	stop func()
	skip string // why the tests skip, when PostgreSQL is not installed
	err  error
	mu   sync.Mutex // one CREATE DATABASE at a time
	n    int        // databases created
}

// TestMain runs the tests and stops the shared PostgreSQL server if one
// started.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.stop != nil {
		shared.stop()
	}
	os.Exit(code)
}

// startPostgres returns, for t, the shared PostgreSQL server (started at
// the first call) connected to a new database of t's own. It skips t when
// PostgreSQL is not installed, unless $GROCERY_REQUIRE_POSTGRES is 1 (as
// in CI), when it fails.
func startPostgres(t testing.TB) *pgServer {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.stop, shared.skip, shared.err = launchPostgres() })
	if shared.skip != "" {
		t.Skip(shared.skip)
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.n++
	srv := *shared.srv
	srv.db = fmt.Sprintf("fixture%d", shared.n)
	srv.pool = &psqlPool{}
	t.Cleanup(srv.pool.close)
	if _, err := shared.srv.psql(nil, "CREATE DATABASE "+srv.db); err != nil {
		t.Fatalf("%v\n%s", err, srv.logTail())
	}
	return &srv
}

// launchPostgres starts a PostgreSQL server in a temporary directory and
// waits until it accepts connections; stop shuts it down and removes the
// directory. skip says why there is no server when PostgreSQL is not
// installed and $GROCERY_REQUIRE_POSTGRES is not 1. As root, initdb and
// postgres (which refuse to run as root) run as the postgres user
// Debian's package creates, or else as nobody.
func launchPostgres() (srv *pgServer, stop func(), skip string, err error) {
	bin, err := pgBinDir()
	if err != nil {
		if os.Getenv("GROCERY_REQUIRE_POSTGRES") == "1" {
			return nil, nil, "", fmt.Errorf("GROCERY_REQUIRE_POSTGRES=1: %v", err)
		}
		return nil, nil, fmt.Sprintf("skipping the SQL check of the analytics: %v", err), nil
	}
	base, err := os.MkdirTemp("", "analyticscheck-pg-")
	if err != nil {
		return nil, nil, "", err
	}
	stop = func() { os.RemoveAll(base) }
	fail := func(err error) (*pgServer, func(), string, error) {
		stop()
		return nil, nil, "", err
	}
	// The server's user must reach its directories.
	if err := os.Chmod(base, 0o755); err != nil {
		return fail(err)
	}
	data, sock := filepath.Join(base, "data"), filepath.Join(base, "sock")
	for _, dir := range []string{data, sock} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			return fail(err)
		}
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred, err = unprivileged()
		if err != nil {
			return fail(fmt.Errorf("running as root, PostgreSQL needs another user: %v", err))
		}
		for _, dir := range []string{data, sock} {
			if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
				return fail(err)
			}
		}
		if err := os.Chmod(sock, 0o755); err != nil {
			return fail(err)
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
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	srv = &pgServer{bin: bin, sock: sock, log: filepath.Join(base, "postgres.log"), db: "postgres", pool: &psqlPool{}}
	logf, err := os.Create(srv.log)
	if err != nil {
		return fail(err)
	}
	// Only a Unix socket; durability is of no use to a throwaway server;
	// no parallel workers on a shared machine; no JIT (compiling the
	// queries' expressions cost twenty times their execution here).
	postgres := run("postgres", "-D", data, "-k", sock,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "dynamic_shared_memory_type=mmap",
		"-c", "max_parallel_workers_per_gather=0", "-c", "jit=off", "-c", "work_mem=64MB",
		"-c", "shared_buffers=32MB", "-c", "max_connections=20")
	// Its log goes to the file and to out, which wakes the wait below at
	// each line: it says when it is ready, or the process ends.
	var out servetest.LogBuffer
	w := io.MultiWriter(logf, &out)
	postgres.Stdout, postgres.Stderr = w, w
	// Wait returns once the pipe closes, which a backend left behind by
	// a kill may hold: not longer than this after the server exits.
	postgres.WaitDelay = 5 * time.Second
	if err := postgres.Start(); err != nil {
		logf.Close()
		return fail(fmt.Errorf("postgres: %v", err))
	}
	exited := make(chan error, 1)
	const exitMark = "\n(postgres exited)\n"
	go func() {
		err := postgres.Wait() // its output copied to the end
		logf.Close()
		out.Write([]byte(exitMark))
		exited <- err
	}()
	stop = func() {
		srv.pool.close()
		// SIGINT is PostgreSQL's fast shutdown.
		_ = postgres.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = postgres.Process.Kill()
			<-exited
		}
		os.RemoveAll(base)
	}
	text, ready := out.Until(60*time.Second, func(text string) bool {
		return strings.Contains(text, "ready to accept connections") || strings.Contains(text, exitMark)
	})
	switch {
	case strings.Contains(text, exitMark):
		err := <-exited
		exited <- err
		return fail(fmt.Errorf("postgres exited: %v\n%s", err, srv.logTail()))
	case !ready:
		return fail(fmt.Errorf("postgres did not say it accepts connections within 60 s\n%s", srv.logTail()))
	}
	if _, err := srv.psql(nil, "SELECT 1"); err != nil {
		return fail(fmt.Errorf("postgres says it accepts connections, but: %v\n%s", err, srv.logTail()))
	}
	return srv, stop, "", nil
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

// psql runs line, one SQL statement (its semicolon optional) or one psql
// backslash command such as \i FILE, with psql variables vars (read in SQL
// as :'name'), and returns its standard output: unaligned, tuples only,
// stopping at the first error. It runs in a psql session of the pool,
// which starts one when none is idle: a check's hundreds of queries do
// not each start a psql and a server backend.
func (s *pgServer) psql(vars map[string]string, line string) ([]byte, error) {
	ses, err := s.pool.get(s)
	if err != nil {
		return nil, err
	}
	out, err := ses.run(vars, line)
	if err != nil {
		return nil, fmt.Errorf("psql %s: %v", line, err)
	}
	s.pool.put(ses)
	return out, nil
}

// psqlPool holds the idle psql sessions of one database.
type psqlPool struct {
	mu   sync.Mutex
	idle []*psqlSession
}

func (p *psqlPool) get(s *pgServer) (*psqlSession, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		ses := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return ses, nil
	}
	p.mu.Unlock()
	return startSession(s)
}

func (p *psqlPool) put(ses *psqlSession) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, ses)
}

// close ends the idle sessions.
func (p *psqlPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ses := range p.idle {
		ses.stdin.Close()
		ses.cmd.Wait()
	}
	p.idle = nil
}

// psqlSession is one psql reading its script from standard input. After
// each line it unsets the line's variables, resets the session's settings
// (a file's SET does not outlive it) and echoes sessionEnd, which ends the
// line's output.
type psqlSession struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr bytes.Buffer // read once cmd has exited
}

const sessionEnd = "== end of the output =="

func startSession(s *pgServer) (*psqlSession, error) {
	cmd := exec.Command(filepath.Join(s.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", s.sock, "-U", "postgres", "-d", s.db)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC", "PGCLIENTENCODING=UTF8")
	ses := &psqlSession{cmd: cmd}
	cmd.Stderr = &ses.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ses.stdin, ses.stdout = stdin, bufio.NewReader(stdout)
	return ses, nil
}

// run runs line in the session. On an error psql has exited (ON_ERROR_STOP):
// the error carries what it wrote to standard error.
func (ses *psqlSession) run(vars map[string]string, line string) ([]byte, error) {
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	var in strings.Builder
	for _, k := range names {
		// In a quoted argument of \set, '' is a quote and \\ a backslash.
		v := strings.NewReplacer(`\`, `\\`, "'", "''", "\n", `\n`).Replace(vars[k])
		fmt.Fprintf(&in, "\\set %s '%s'\n", k, v)
	}
	in.WriteString(line)
	if t := strings.TrimSpace(line); !strings.HasPrefix(t, `\`) && !strings.HasSuffix(t, ";") {
		in.WriteString(";")
	}
	in.WriteString("\n")
	for _, k := range names {
		fmt.Fprintf(&in, "\\unset %s\n", k)
	}
	in.WriteString("RESET ALL;\n\\echo " + sessionEnd + "\n")
	_, werr := io.WriteString(ses.stdin, in.String())
	var out []byte
	for werr == nil {
		l, err := ses.stdout.ReadBytes('\n')
		if err != nil {
			break
		}
		if string(l) == sessionEnd+"\n" {
			return out, nil
		}
		out = append(out, l...)
	}
	ses.stdin.Close()
	err := ses.cmd.Wait()
	return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(ses.stderr.String()))
}
