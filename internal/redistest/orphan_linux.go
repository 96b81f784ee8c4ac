package redistest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill redis-server when the test binary
// dies without stopping it (a panic, a timeout).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
