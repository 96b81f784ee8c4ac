//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package extsort

import (
	"errors"
	"os"
	"syscall"
)

// processGone reports whether process pid no longer runs: kill(pid, 0)
// says ESRCH (EPERM is a live process of another user).
func processGone(pid int) bool {
	return pid != os.Getpid() && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// unlinkOpen removes the name of a temporary file this process keeps open
// and reads through its descriptor, so that nothing is left behind
// however the process ends. It reports whether the name is gone.
func unlinkOpen(f *os.File) bool { return os.Remove(f.Name()) == nil }
