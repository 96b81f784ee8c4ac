package server

import (
	"log/slog"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/internal/servetest"
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
	var buf servetest.LogBuffer
	stop := logRuntime(slog.New(slog.NewTextHandler(&buf, nil)), time.Millisecond)
	buf.WaitFor(t, 10*time.Second, "runtime line of a 1 ms interval", func(s string) bool {
		return strings.Contains(s, "msg=runtime goroutines=")
	})
	stop()
	stop() // twice is fine
}
