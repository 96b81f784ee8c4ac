//go:build !unix

package servetest

import "time"

// CPUTime returns 0 where the process's CPU time is not read.
func CPUTime() time.Duration { return 0 }
