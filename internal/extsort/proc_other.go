//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package extsort

import "os"

// processGone cannot tell here: no process is taken for gone.
func processGone(int) bool { return false }

// unlinkOpen cannot remove an open file's name here (Windows): the file
// is removed when it is closed.
func unlinkOpen(*os.File) bool { return false }
