// Package atomicfile replaces files so that a crash leaves the old
// content or the new, never part of either.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write replaces the file at path with what write writes: into a new
// temporary file of its own in the same directory (created with O_EXCL,
// so a link planted there is never followed), synced, renamed over path,
// and the directory synced. When write or any step fails, the temporary
// file is removed and path is left as it was.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // not every file system syncs a directory; the rename is done
		d.Close()
	}
	return nil
}
