//go:build !linux

package admin

import "net"

// peerUID is not known on this system: the socket file's owner and mode
// are checked instead.
func peerUID(net.Conn) (uint32, bool, error) { return 0, false, nil }
