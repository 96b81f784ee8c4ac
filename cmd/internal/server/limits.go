package server

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/grocerydata/grocery/mcpserver"
)

// MaxHeaderBytes bounds a request's header (its lines and the request
// line): a larger one is answered 431. With DefaultMaxConns connections
// this keeps what headers can hold in memory near 40 MiB.
const MaxHeaderBytes = 64 << 10

// DefaultMaxConns is how many connections a server holds open at once
// when Config.MaxConns is 0 (--max-conns).
const DefaultMaxConns = 512

// limitListener accepts at most n connections at once. When all n are
// taken, it closes a keep-alive connection that sits idle between
// requests to make room, so that idle connections (up to the server's
// idle timeout each) cannot keep new clients out; only connections in the
// middle of a request make the next one wait in the kernel's backlog,
// for at most the server's read timeouts. The server reports each
// connection's state through ConnState.
type limitListener struct {
	net.Listener
	sem  chan struct{}
	mu   sync.Mutex
	idle map[net.Conn]struct{} // connections between two requests
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), idle: map[net.Conn]struct{}{}}
}

// reclaimEvery is how often a full listener looks again for an idle
// connection to close while it waits for a free one.
const reclaimEvery = 50 * time.Millisecond

func (l *limitListener) Accept() (net.Conn, error) {
	for taken := false; !taken; {
		select {
		case l.sem <- struct{}{}:
			taken = true
		default:
			l.closeIdle()
			select {
			case l.sem <- struct{}{}:
				taken = true
			case <-time.After(reclaimEvery):
			}
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}, nil
}

// ConnState is the server's http.Server.ConnState: it keeps the set of
// idle connections.
func (l *limitListener) ConnState(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if state == http.StateIdle {
		l.idle[c] = struct{}{}
	} else {
		delete(l.idle, c)
	}
}

// closeIdle closes one idle connection, if there is one: its client
// sees the server close a keep-alive connection, which HTTP allows at
// any time between requests.
func (l *limitListener) closeIdle() {
	l.mu.Lock()
	var victim net.Conn
	for c := range l.idle {
		victim = c
		delete(l.idle, c)
		break
	}
	l.mu.Unlock()
	if victim != nil {
		victim.Close()
	}
}

type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// listensOnLoopback reports whether addr (host:port) listens on loopback
// only: then browser pages on loopback origins may call the server.
func listensOnLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && host != "" && mcpserver.IsLoopbackHost(host)
}
