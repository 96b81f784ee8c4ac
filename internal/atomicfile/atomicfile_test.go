package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("write failed")
	if err := Write(path, func(w io.Writer) error { w.Write([]byte("half")); return failed }); !errors.Is(err, failed) {
		t.Fatalf("failing write: got %v, want %v", err, failed)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("after a failed write: %q, want the old content", b)
	}
	if err := Write(path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("after a write: %q, want new", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left in the directory: %v, want only f", entries)
	}
}
