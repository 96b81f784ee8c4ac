package fault

import (
	"errors"
	"io/fs"
	"syscall"
)

// SystemCause names, in words for an operator, the cause of a file
// system error that the operator can act on: a full disk, a quota, a
// read-only file system, a permission. It returns "" for any other error.
// These words go to the operator (the CLI, the log), never to a client.
func SystemCause(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return "the disk is full (no space left on device)"
	case errors.Is(err, syscall.EDQUOT):
		return "the disk quota is used up"
	case errors.Is(err, syscall.EROFS):
		return "the file system is read-only"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return ""
}
