package grocery

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/internal/redistest"
)

// TestReplicaRemovesStaleCaches: a replica killed before its Close leaves
// its snapshot copies in its cache directory; the next replica to start
// under the same parent removes them, and nothing else: not a live
// process's directory (this one's, pid 1's, one whose lock is held as a
// live replica in another PID namespace holds it), nor any name or file
// that only looks like one.
func TestReplicaRemovesStaleCaches(t *testing.T) {
	t.Parallel()
	_, dir := openIngest(t)
	parent := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no process to watch die:", err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	if err := syscall.Kill(cmd.Process.Pid, 0); err != syscall.ESRCH {
		t.Skipf("pid %s of a finished process answers %v", dead, err)
	}
	mkdir := func(name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(parent, name, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(parent, name, "snapshot-1.db"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stale := []string{"grocery-replica-" + dead + "-12345", "grocery-replica-" + dead + "-678"}
	kept := []string{
		"grocery-replica-1-12345",                               // pid 1 runs
		"grocery-replica-" + strconv.Itoa(os.Getpid()) + "-999", // this process
		"grocery-replica-" + dead + "-4242",                     // locked below
		"grocery-replica-" + dead,                               // not our names
		"grocery-replica-" + dead + "-12x",
		"grocery-replica-" + dead + "-",
		"grocery-replica--" + dead + "-1",
		"other-" + dead + "-1",
	}
	for _, name := range append(slices.Clone(stale), kept...) {
		mkdir(name)
	}
	lock, err := os.Open(filepath.Join(parent, "grocery-replica-"+dead+"-4242"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	file := "grocery-replica-" + dead + "-777" // a file, not a directory
	if err := os.WriteFile(filepath.Join(parent, file), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, file)

	open := func() *Service {
		t.Helper()
		rs := redistest.Shared(t)
		r, err := OpenReplica(dir, &Options{Now: importClock, SnapshotPoll: -1, SnapshotCache: parent, Shared: RedisStore(rs.URL(), rs.Prefix())})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	first := open()
	second := open() // the first replica's cache is this process's: kept
	mine := []string{filepath.Base(first.replica.CacheDir()), filepath.Base(second.replica.CacheDir())}
	for _, name := range mine {
		if pid, ok := cachePIDOf(name); !ok || pid != os.Getpid() {
			t.Errorf("cache %s: want grocery-replica-%d-<digits>", name, os.Getpid())
		}
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := append(slices.Clone(kept), mine...)
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cache parent after two replicas started (-want +got):\n%s", diff)
	}
}

// cachePIDOf reads the pid in a cache directory's name.
func cachePIDOf(name string) (int, bool) {
	m := regexp.MustCompile(`^grocery-replica-([0-9]+)-[0-9]+$`).FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	pid, err := strconv.Atoi(m[1])
	return pid, err == nil
}
