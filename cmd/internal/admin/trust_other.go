//go:build !unix

package admin

import "os"

// fileOwner is not known on this system.
func fileOwner(os.FileInfo) (uint32, bool) { return 0, false }
