package admin

import (
	"net"
	"os"
	"slices"

	"github.com/grocerydata/grocery/grocery"
)

// trust says whose admin socket a client talks to: a socket is trusted
// when its file is owned by one of owners with no access for group or
// others (mode 0600), and, where the system tells (SO_PEERCRED on Linux),
// the process listening on it runs as one of peers. Anyone who can write
// to the data file's directory can put a socket at <db>.sock: without
// these checks the CLI would send keys and imports to it and believe its
// answers.
type trust struct {
	owners, peers []uint32
}

// selfOrRoot trusts the calling user and root.
func selfOrRoot() trust {
	ids := []uint32{uint32(os.Getuid()), 0}
	return trust{owners: ids, peers: ids}
}

// checkFile checks the socket file at path before anything is sent. A
// missing file is left to the dial, which reports ErrNoAdmin.
func (t trust) checkFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	if fi.Mode().Type() != os.ModeSocket {
		// A link (perhaps to another user's socket) or anything else
		// that is not our socket is not dialed.
		return grocery.Errorf(grocery.EPLANREQUIRED, "refusing the admin socket %s: it is not a socket (%s): remove it if no server of yours runs", path, fi.Mode().Type())
	}
	if uid, ok := fileOwner(fi); ok && !slices.Contains(t.owners, uid) {
		return grocery.Errorf(grocery.EPLANREQUIRED, "refusing the admin socket %s: it is owned by uid %d, not by you (uid %d) or root; another user may have put it there: remove it if no server of yours runs", path, uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return grocery.Errorf(grocery.EPLANREQUIRED, "refusing the admin socket %s: its mode is %04o, want 0600 (its server's user only): remove it if no server of yours runs", path, perm)
	}
	return nil
}

// checkPeer checks the process at the other end of c, where the system
// tells who it runs as.
func (t trust) checkPeer(c net.Conn, path string) error {
	uid, ok, err := peerUID(c)
	if err != nil {
		return grocery.Errorf(grocery.EPLANREQUIRED, "refusing the admin socket %s: cannot tell who listens on it: %v", path, err)
	}
	if ok && !slices.Contains(t.peers, uid) {
		return grocery.Errorf(grocery.EPLANREQUIRED, "refusing the admin socket %s: the process listening on it runs as uid %d, not as you (uid %d) or root", path, uid, os.Getuid())
	}
	return nil
}
