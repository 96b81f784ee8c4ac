//go:build unix

package storage

import (
	"errors"
	"os"
	"syscall"
)

// LockFile takes the exclusive lock that a writer of the data file at path
// holds (bbolt's flock), without waiting, so that a command about to
// replace or remove the file knows that no other process has it open. Call
// unlock once the file is replaced. It returns ErrLocked when a server, a
// writer or a reader holds the file, and fs.ErrNotExist when there is no
// file.
func LockFile(path string) (unlock func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases its lock
}
