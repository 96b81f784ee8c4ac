package server

import (
	"runtime/debug"
	"testing"
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
