package server

import (
	"bytes"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTuneGC: a server collects at ServeGOGC unless GOGC says otherwise.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tuneGC("")
	if got := debug.SetGCPercent(100); got != ServeGOGC {
		t.Errorf("without GOGC: GC percent %d, want %d", got, ServeGOGC)
	}
	tuneGC("150") // the runtime read GOGC=150 at start: leave it
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent changed to %d", got)
	}
}

// TestLogRuntime: the runtime line names the goroutines, and stops.
func TestLogRuntime(t *testing.T) {
	var buf syncBuffer
	stop := logRuntime(slog.New(slog.NewTextHandler(&buf, nil)), time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), "msg=runtime goroutines=") {
		if time.Now().After(deadline) {
			t.Fatalf("no runtime line in 10 s of a 1 ms interval: %q", buf.String())
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	stop() // twice is fine
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
