//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package snapshot

import (
	"errors"
	"os"
	"syscall"
)

// lockDir opens dir and takes an exclusive lock on it, held until the
// file is closed (or the process ends).
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "lock", Path: dir, Err: err}
	}
	return f, nil
}

// abandoned reports whether process pid no longer runs (kill(pid, 0)
// says ESRCH: EPERM is a live process of another user) and nothing holds
// dir's lock.
func abandoned(pid int, dir string) bool {
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		return false
	}
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close() // lets go of the lock once dir is removed
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
