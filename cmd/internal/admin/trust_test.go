package admin_test

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
)

// fakeSocket listens at path as another user's fake server would, and
// reports the bytes each connection sent before it was closed.
func fakeSocket(t *testing.T, path string) <-chan int {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	sent := make(chan int, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n, _ := io.Copy(io.Discard, c)
			c.Close()
			sent <- int(n)
		}
	}()
	return sent
}

// TestAdminUntrustedSocket: the client refuses a socket that another user
// could have put beside the data file, in one clear line, before it sends
// anything.
func TestAdminUntrustedSocket(t *testing.T) {
	ctx := context.Background()
	sock := filepath.Join(adminTempDir(t), "g.db.sock")
	sent := fakeSocket(t, sock)
	me := uint32(os.Getuid())

	refused := func(t *testing.T, c *admin.Client, want string) {
		t.Helper()
		_, err := c.RevokeKey(ctx, "Ab12Cd34")
		if grocery.ErrorCode(err) != grocery.EPLANREQUIRED || !strings.Contains(grocery.ErrorMessage(err), want) || strings.Contains(grocery.ErrorMessage(err), "\n") {
			t.Fatalf("got %v, want one line of code forbidden saying %q", err, want)
		}
		c.Close()
		select { // the client connected, checked, and closed
		case n := <-sent:
			if n != 0 {
				t.Fatalf("the client sent %d bytes to an untrusted socket", n)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the client left its connection to an untrusted socket open")
		}
	}
	t.Run("ErrMode", func(t *testing.T) {
		if err := os.Chmod(sock, 0o666); err != nil {
			t.Fatal(err)
		}
		refused(t, admin.Dial(sock), "its mode is 0666, want 0600")
	})
	if err := os.Chmod(sock, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrOwner", func(t *testing.T) {
		if os.Getuid() == 0 {
			// As root, hand the socket to another user, as a fake would be.
			if err := os.Chown(sock, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			defer os.Chown(sock, 0, 0)
			refused(t, admin.Dial(sock), "owned by uid 4242")
			return
		}
		refused(t, admin.DialTrusting(sock, []uint32{4242}, []uint32{me}), "owned by uid")
	})
	t.Run("ErrLink", func(t *testing.T) {
		// A link at the socket's path, to a socket that passes every
		// check of its own: off Linux no peer check would catch it.
		link := filepath.Join(filepath.Dir(sock), "link.db.sock")
		if err := os.Symlink(sock, link); err != nil {
			t.Fatal(err)
		}
		refused(t, admin.Dial(link), "it is not a socket")
	})
	t.Run("ErrPeer", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("SO_PEERCRED is Linux's")
		}
		refused(t, admin.DialTrusting(sock, []uint32{me}, []uint32{4242}), "runs as uid")
	})
}
