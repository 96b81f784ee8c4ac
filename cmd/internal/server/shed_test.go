package server

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestShedStuckHeaders: when every connection is taken, the listener
// closes those that have been in their request's header for HeaderGrace
// or more (a slowloris), so that the next client is accepted; one still
// within the grace is kept. The clock is the listener's, moved by hand.
func TestShedStuckHeaders(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	l := newLimitListener(inner, 2)
	var mu sync.Mutex
	now := time.Unix(1795000000, 0)
	l.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }

	dial := func() net.Conn {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.Write([]byte("GET / HTTP/1.1\r\n")) // a header not yet ended
		return c
	}
	accept := func() chan net.Conn {
		got := make(chan net.Conn, 1)
		go func() {
			c, err := l.Accept()
			if err != nil {
				t.Error(err)
				close(got)
				return
			}
			l.ConnState(c, http.StateNew) // as the server reports it
			got <- c
		}()
		return got
	}
	wait := func(ch chan net.Conn, what string) net.Conn {
		t.Helper()
		select {
		case c := <-ch:
			return c
		case <-time.After(10 * time.Second): // a bound on a hang, not a speed check
			t.Fatalf("%s was not accepted", what)
			return nil
		}
	}
	stuck := dial()
	wait(accept(), "the first connection")
	advance(HeaderGrace) // the first is now past its grace
	dial()
	second := wait(accept(), "the second connection")
	dial()
	third := accept() // both taken: the one past its grace is shed for it
	wait(third, "a connection while one was stuck in its header past the grace")
	stuck.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ne net.Error
	if _, err := stuck.Read(make([]byte, 1)); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the stuck connection: read got %v, want it closed by the server (EOF or a reset)", err)
	}
	l.mu.Lock()
	_, kept := l.fresh[second]
	l.mu.Unlock()
	if !kept {
		t.Errorf("the connection within its grace was shed")
	}
}
