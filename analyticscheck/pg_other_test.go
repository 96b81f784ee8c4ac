//go:build unix && !linux

package analyticscheck

import "syscall"

// serverProcAttr runs initdb and postgres as cred (nil: as the test's
// user).
func serverProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred}
}
