// Package redistest starts a real redis-server on loopback for tests: its
// own process on a free port, with its files in a test's temporary
// directory, no snapshots and no append-only file.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server a test started.
type Server struct {
	tb   testing.TB
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a redis-server for tb and stops it at tb's cleanup. It
// skips tb, saying how to install it, when redis-server is not on PATH.
func Start(tb testing.TB) *Server {
	tb.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		tb.Skip("redis-server is not installed: apt-get install -y redis-server (Debian) to run the Redis tests")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
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
	if s.cmd == nil {
		return
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(s.port)})
	c.ShutdownSave(context.Background()) // the connection ends with the server: an error is expected
	c.Close()
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
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		s.tb.Fatalf("start redis-server: %v", err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(s.port), MaxRetries: -1})
	defer c.Close()
	for i := 0; ; i++ {
		if err := c.Ping(context.Background()).Err(); err == nil {
			return
		} else if i == 200 {
			s.tb.Fatalf("redis-server on port %d does not answer: %v (log in %s)", s.port, err, s.dir)
		}
		select {
		case <-s.done:
			s.tb.Fatalf("redis-server on port %d exited at start (log in %s)", s.port, filepath.Join(s.dir, "redis.log"))
		case <-time.After(25 * time.Millisecond):
		}
	}
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
