package servetest

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// LogBuffer is a log destination safe for a server's goroutines (or a
// child process's output) and a test's reads at once. WaitFor waits for
// what the test expects by being woken at each write, never by sleeping.
type LogBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // closed at the next write, for WaitFor
}

// Write appends p and wakes the waiters.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// WaitFor returns what was written once ok holds of it, checking after
// each write; it fails tb, saying what it waited for, when that takes
// longer than timeout.
func (l *LogBuffer) WaitFor(tb testing.TB, timeout time.Duration, what string, ok func(text string) bool) string {
	tb.Helper()
	text, done := l.Until(timeout, ok)
	if !done {
		tb.Fatalf("no %s within %v; the log: %q", what, timeout, text)
	}
	return text
}

// Until returns what was written once ok holds of it, checking after each
// write, and true; or what was written after timeout, and false.
func (l *LogBuffer) Until(timeout time.Duration, ok func(text string) bool) (string, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		text := l.b.String()
		if l.wrote == nil {
			l.wrote = make(chan struct{})
		}
		wrote := l.wrote
		l.mu.Unlock()
		if ok(text) {
			return text, true
		}
		select {
		case <-wrote:
		case <-deadline.C:
			return l.String(), false
		}
	}
}
