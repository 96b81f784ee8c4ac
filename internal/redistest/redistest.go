// Package redistest starts a real redis-server on loopback for tests: its
// own process on a free port, with its files in a temporary directory, no
// snapshots and no append-only file.
//
// Start gives a test a server of its own, which it may stop and restart.
// Shared gives it the test binary's one server (started at the first
// call) and a key prefix no other test of the binary uses: tests that
// share it keep out of each other's keys, and pay for one start. A
// package that calls Shared stops that server in its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(redistest.Run(m)) }
package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server a test started, or the shared one.
type Server struct {
	tb     testing.TB
	dir    string
	port   int
	cmd    *exec.Cmd
	done   chan struct{}
	prefix string // the test's key prefix on the shared server; "" for its own
	shared bool
}

var (
	sharedOnce sync.Once
	sharedSrv  *Server
	sharedErr  error
	sharedN    atomic.Int64
)

// Shared returns, for tb, the binary's shared redis-server (started at the
// first call) with a key prefix of tb's own, "t<n>:". Stop and Restart
// fail tb: a test that stops Redis uses Start. It skips tb, saying how to
// install it, when redis-server is not on PATH.
func Shared(tb testing.TB) *Server {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		tb.Skip("redis-server is not installed: apt-get install -y redis-server (Debian) to run the Redis tests")
	}
	sharedOnce.Do(func() {
		redis.SetLogger(quiet{})
		dir, err := os.MkdirTemp("", "redistest")
		if err != nil {
			sharedErr = err
			return
		}
		port, err := freePort()
		if err != nil {
			sharedErr = err
			return
		}
		s := &Server{dir: dir, port: port, shared: true}
		sharedErr = s.start()
		sharedSrv = s
	})
	if sharedErr != nil {
		tb.Fatalf("shared redis-server: %v", sharedErr)
	}
	return &Server{tb: tb, dir: sharedSrv.dir, port: sharedSrv.port, prefix: fmt.Sprintf("t%d:", sharedN.Add(1)), shared: true}
}

// Run runs the tests of m, then stops the shared server if one started,
// and returns m's exit code: a TestMain's body.
func Run(m *testing.M) int {
	code := m.Run()
	if sharedSrv != nil {
		sharedSrv.stop()
		os.RemoveAll(sharedSrv.dir)
	}
	return code
}

// Prefix is the key prefix of the test on the shared server; "" on a
// server of its own.
func (s *Server) Prefix() string { return s.prefix }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start starts a redis-server for tb and stops it at tb's cleanup. It
// skips tb, saying how to install it, when redis-server is not on PATH.
func Start(tb testing.TB) *Server {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		tb.Skip("redis-server is not installed: apt-get install -y redis-server (Debian) to run the Redis tests")
	}
	port, err := freePort()
	if err != nil {
		tb.Fatal(err)
	}
	// The client logs each failed dial; the tests stop Redis on purpose.
	redis.SetLogger(quiet{})
	s := &Server{tb: tb, dir: tb.TempDir(), port: port}
	s.Restart()
	tb.Cleanup(func() { s.Stop() })
	return s
}

// URL is the server's address as a redis:// URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Client returns a client of the server, closed at the test's cleanup.
func (s *Server) Client() *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(s.port)})
	s.tb.Cleanup(func() { c.Close() })
	return c
}

// Stop shuts the server down, writing its data to its directory first
// (SHUTDOWN SAVE), so that Restart finds it again; it waits for the
// process to end.
func (s *Server) Stop() {
	if s.shared {
		s.tb.Fatal("redistest: the shared redis-server cannot be stopped by one test: use Start")
	}
	s.stop()
}

func (s *Server) stop() {
	if s.cmd == nil {
		return
	}
	// No retries: the connection ends with the server, so the reply is an
	// error, and a retrying client would dial the stopped server again
	// with backoffs (about 1.4 s) before it gave up.
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(s.port), MaxRetries: -1})
	err := c.ShutdownSave(context.Background()).Err() // the connection ends with the server: an error is expected
	c.Close()
	var reply redis.Error
	if errors.As(err, &reply) {
		// Refused (a test set a password): nothing to keep, no need to wait.
		s.cmd.Process.Kill()
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Restart starts the server again on the same port and directory (or the
// first time), and waits until it answers.
func (s *Server) Restart() {
	s.tb.Helper()
	if s.shared {
		s.tb.Fatal("redistest: the shared redis-server cannot be restarted by one test: use Start")
	}
	if err := s.start(); err != nil {
		s.tb.Fatal(err)
	}
}

// start starts redis-server and waits until it answers.
func (s *Server) start() error {
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log"))
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %v", err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	// Wait for the port with plain dials: a client whose dials failed
	// backs off for a second before it dials again.
	addr := "127.0.0.1:" + strconv.Itoa(s.port)
	for i := 0; ; i++ {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			break
		} else if i == 2000 {
			return fmt.Errorf("redis-server on port %d does not answer: %v (log in %s)", s.port, err, s.dir)
		}
		select {
		case <-s.done:
			return fmt.Errorf("redis-server on port %d exited at start (log in %s)", s.port, filepath.Join(s.dir, "redis.log"))
		case <-time.After(5 * time.Millisecond):
		}
	}
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	for i := 0; ; i++ {
		err := c.Ping(context.Background()).Err()
		if err == nil {
			return nil
		} else if i == 200 {
			return fmt.Errorf("redis-server on port %d does not answer: %v (log in %s)", s.port, err, s.dir)
		}
		time.Sleep(5 * time.Millisecond) // loading its data
	}
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
