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
// idle timeout each) cannot keep new clients out; failing that, it
// closes the connections that have spent HeaderGrace or more in their
// first request's header (a slowloris: otherwise up to the server's
// ReadHeaderTimeout each). Only connections with a request under way
// make the next one wait in the kernel's backlog, for at most the
// server's read timeouts. The server reports each connection's state
// through ConnState.
type limitListener struct {
	net.Listener
	sem   chan struct{}
	now   func() time.Time
	mu    sync.Mutex
	idle  map[net.Conn]struct{}  // connections between two requests
	fresh map[net.Conn]time.Time // connections in their first request's header, since
}

// HeaderGrace is how long a connection may take over its first request's
// header before a full listener closes it to make room.
const HeaderGrace = time.Second

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), now: time.Now, idle: map[net.Conn]struct{}{}, fresh: map[net.Conn]time.Time{}}
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
			if !l.closeIdle() {
				l.shedStuck()
			}
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
	lc := &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}
	l.mu.Lock()
	l.fresh[lc] = l.now()
	l.mu.Unlock()
	return lc, nil
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
	if state != http.StateNew { // its first request's header is read, or it is gone
		delete(l.fresh, c)
	}
}

// closeIdle closes one idle connection, if there is one, and reports
// whether it did: its client sees the server close a keep-alive
// connection, which HTTP allows at any time between requests.
func (l *limitListener) closeIdle() bool {
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
	return victim != nil
}

// shedStuck closes the connections that have spent HeaderGrace or more
// in their first request's header (http.StateNew): under pressure, a
// client that sends its header a few bytes at a time (a slowloris) gets
// a second, not the server's whole header timeout, so that it cannot
// keep complete requests waiting in the backlog.
func (l *limitListener) shedStuck() {
	before := l.now().Add(-HeaderGrace)
	var victims []net.Conn
	l.mu.Lock()
	for c, since := range l.fresh {
		if !since.After(before) {
			victims = append(victims, c)
			delete(l.fresh, c)
		}
	}
	l.mu.Unlock()
	for _, c := range victims {
		c.Close()
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
