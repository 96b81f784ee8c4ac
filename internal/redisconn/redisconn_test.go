package redisconn

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/redistest"
)

func TestMain(m *testing.M) {
	if os.Getenv(unreachableChild) != "" {
		// TestUnreachableSaysNothing's child: one call to a Redis that
		// does not answer, its error as Fail maps it on stdout.
		c, err := Dial("redis://127.0.0.1:1", "", nil)
		if err == nil {
			fmt.Println(c.Fail("key store", c.Client.Ping(context.Background()).Err()))
		}
		os.Exit(0)
	}
	os.Exit(redistest.Run(m))
}

const unreachableChild = "REDISCONN_UNREACHABLE_CHILD"

// A Redis that does not answer is reported once, by the caller, from
// Fail's message: the client library writes nothing of its own to stderr
// (it used to print its pool's dial failure before grocery's message).
// The child process is this test binary, before the library's logger is
// set by anything else.
func TestUnreachableSaysNothing(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), unreachableChild+"=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v (stderr %q)", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: got %q, want nothing", stderr.String())
	}
	if want := "the key store (Redis at 127.0.0.1:1) does not answer" + Refused; strings.TrimSpace(stdout.String()) != want {
		t.Errorf("the call's error: got %q, want %q", strings.TrimSpace(stdout.String()), want)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"redis://user:secret@host:6379/0": "redis://...@host:6379/0",
		"redis://:p@ss@host:6379/0":       "redis://...@host:6379/0",
		"redis://host:6379/0":             "redis://host:6379/0",
		"not a url":                       "not a url",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// A malformed URL is the operator's to fix: fault.Invalid, its password
// not repeated.
func TestDialMalformed(t *testing.T) {
	t.Parallel()
	_, err := Dial("http://user:secret@host:1/0", "", nil)
	if k, ok := fault.KindOf(err); !ok || k != fault.Invalid {
		t.Fatalf("Dial of an http URL: %v, want fault.Invalid", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the message repeats the password: %v", err)
	}
}

// Keys start with the prefix given, grocery: by default, and nothing else
// of a test's prefix is seen under another.
func TestPrefix(t *testing.T) {
	t.Parallel()
	c, err := Dial("redis://127.0.0.1:1/0", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if c.Prefix != DefaultPrefix || DefaultPrefix != "grocery:" {
		t.Errorf("default prefix %q, want grocery:", c.Prefix)
	}
	rs := redistest.Shared(t)
	c, err = Dial(rs.URL(), rs.Prefix(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Prefix != rs.Prefix() {
		t.Errorf("prefix %q, want %q", c.Prefix, rs.Prefix())
	}
}

// A Redis that does not answer is fault.Unavailable, saying the call is
// refused; one that replies an error is an internal error, not
// unavailable; a cancelled call is returned as it is.
func TestFail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	down, err := Dial("redis://127.0.0.1:1/0", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	err = down.Fail("key store", down.Client.Ping(ctx).Err())
	if k, _ := fault.KindOf(err); k != fault.Unavailable || !strings.HasSuffix(err.Error(), Refused) || !strings.Contains(err.Error(), "key store") {
		t.Errorf("Redis down: %v, want fault.Unavailable naming the key store", err)
	}
	rs := redistest.Shared(t)
	up, err := Dial(rs.URL(), rs.Prefix(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	err = up.Fail("alert store", up.Client.Do(ctx, "NOSUCHCOMMAND").Err())
	if _, ok := fault.KindOf(err); ok || !strings.HasPrefix(err.Error(), "redis: ") {
		t.Errorf("a reply error: %v, want an internal error", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err = up.Fail("alert store", up.Client.Ping(cctx).Err())
	if err != context.Canceled {
		t.Errorf("a cancelled call: %v, want context.Canceled", err)
	}
	if err := up.CheckPolicy(ctx); err != nil {
		t.Errorf("CheckPolicy on a noeviction Redis: %v", err)
	}
}
