package server

import (
	"net"
	"sync"

	"github.com/grocerydata/grocery/mcpserver"
)

// MaxHeaderBytes bounds a request's header (its lines and the request
// line): a larger one is answered 431. With DefaultMaxConns connections
// this keeps what headers can hold in memory near 40 MiB.
const MaxHeaderBytes = 64 << 10

// DefaultMaxConns is how many connections a server holds open at once
// when Config.MaxConns is 0 (--max-conns).
const DefaultMaxConns = 512

// limitListener accepts at most n connections at once: Accept waits for
// one to close (the others wait in the kernel's backlog), as
// golang.org/x/net/netutil.LimitListener does.
type limitListener struct {
	net.Listener
	sem chan struct{}
}

func newLimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n)}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.sem <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}, nil
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
