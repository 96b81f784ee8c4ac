//go:build linux

package analyticscheck

import "syscall"

// serverProcAttr runs initdb and postgres as cred (nil: as the test's
// user); Pdeathsig makes a test binary killed before its cleanup (an
// interrupted go test) take the server with it.
func serverProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
}
