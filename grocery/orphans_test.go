package grocery

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grocerydata/grocery/storage"
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

// smallFS mounts a tmpfs of size bytes for the test (Linux, as root),
// or skips.
func smallFS(t *testing.T, size int) string {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("a small file system needs Linux and root (mount -t tmpfs)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount -t tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// TestImportDiskFull: an import that fills the disk says so (the disk is
// full, nothing of the file written) and logs it with the system's error,
// instead of a bare internal error.
func TestImportDiskFull(t *testing.T) {
	t.Parallel()
	dir := smallFS(t, 1<<20)
	var log bytes.Buffer
	svc, err := Open(filepath.Join(dir, "grocery.db"), &Options{Now: importClock, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	mustImport(t, svc, "stores.csv", testStoresCSV, nil)
	var b strings.Builder
	b.WriteString(obsHeader + "\n")
	// 8,000 new products: about four times what fills the 1 MiB.
	for i := range 8000 {
		fmt.Fprintf(&b, "2026-11-18,ON-LOB-001,loblaws,FULL-%d,4.99,,,,Product number %d with a long name,Brand,1 L,Pantry\n", i, i)
	}
	_, err = svc.Import(context.Background(), "big.csv", strings.NewReader(b.String()), nil)
	if ErrorCode(err) != EINTERNAL || !strings.Contains(ErrorMessage(err), "big.csv: the data file could not be written: the disk is full") {
		t.Fatalf("import on a full disk: got %v, want the disk named as full", err)
	}
	if !strings.Contains(log.String(), "no space left on device") {
		t.Errorf("log: %s, want the system's error", log.String())
	}
}

// TestUsageNotSaved: while an import holds the data file, counts go to
// the usage journal; when the disk is full that fails: the log says so at
// once with the cause, Health reports it (for /healthz) until a flush
// works again.
func TestUsageNotSaved(t *testing.T) {
	ctx := context.Background()
	dir := smallFS(t, 2<<20)
	var log bytes.Buffer
	svc, err := Open(filepath.Join(dir, "grocery.db"), &Options{FlushInterval: time.Hour, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	key, err := svc.CreateKey(ctx, KeyInput{Account: "acme", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	// An import holds the write transaction.
	held, release := make(chan struct{}), make(chan struct{})
	go svc.db.Update(func(*storage.Tx) error { close(held); <-release; return nil })
	<-held
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := filler.Write(make([]byte, 64<<10)); err != nil {
			break
		}
	}
	filler.Close()
	p, err := svc.AuthenticateMetered(ctx, key.Key, InterfaceMCP)
	if err == nil {
		_, err = svc.Consume(ctx, p)
	}
	if err != nil {
		t.Fatal(err)
	}
	svc.bolt.Tick()
	h := svc.Health()
	if h.UsageNotSaved != "the disk is full (no space left on device)" || h.UsageNotSavedSince.IsZero() {
		t.Errorf("Health on a full disk: %+v, want the disk named as full, and since when", h)
	}
	if !strings.Contains(log.String(), "usage counts not saved") || !strings.Contains(log.String(), "no space left on device") {
		t.Errorf("log: %s, want the failure and its cause", log.String())
	}
	close(release)
	os.Remove(filepath.Join(dir, "filler"))
	svc.bolt.Tick()
	if h := svc.Health(); h.UsageNotSaved != "" {
		t.Errorf("Health after a flush that worked: %+v, want nothing", h)
	}
}
