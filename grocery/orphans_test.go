package grocery

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestOrphansRemoved: a writable open removes what killed processes left:
// the snapshot directory's temporary files, and the import spill files
// of processes that are gone (and nameless-pid ones untouched for an
// hour); it keeps the rest.
func TestOrphansRemoved(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process ids are not checked on Windows")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	snaps := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	alive := strconv.Itoa(os.Getppid())
	write := func(path string, age time.Duration) {
		t.Helper()
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	gone := []string{
		filepath.Join(snaps, ".snapshot-5.db.tmp123456"),
		filepath.Join(snaps, ".manifest.json.tmp42"),
		filepath.Join(tmp, "grocery-import-"+dead+"-123.tmp"),
		filepath.Join(tmp, "grocery-import-987654.tmp"), // an older build's, two hours old
	}
	kept := []string{
		filepath.Join(snaps, "snapshot-4.db"),
		filepath.Join(snaps, ".other.tmp1"),
		filepath.Join(tmp, "grocery-import-"+alive+"-7.tmp"),
		filepath.Join(tmp, "grocery-import-"+strconv.Itoa(os.Getpid())+"-8.tmp"),
		filepath.Join(tmp, "grocery-import-123456.tmp"), // an older build's, fresh
		filepath.Join(tmp, "other-"+dead+"-1.tmp"),
	}
	for _, p := range gone {
		write(p, 2*time.Hour)
	}
	for _, p := range kept {
		write(p, 0)
	}
	svc, err := Open(filepath.Join(t.TempDir(), "grocery.db"), &Options{SnapshotDir: snaps})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for _, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v, want it kept", p, err)
		}
	}
}
