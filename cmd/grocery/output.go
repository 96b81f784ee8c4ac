package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// output is a file -o names, written whole or not at all: into a new
// temporary file beside it, renamed over it by commit. A path naming a
// device, FIFO or socket (/dev/null, a pipe) is written in place instead,
// and a symlink's target is the file replaced: neither is ever replaced
// by a regular file.
type output struct {
	*os.File
	path string // what commit renames the temporary file to; "" in place
}

// createOutput opens the output for path.
func createOutput(path string) (*output, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		return &output{File: f}, err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	return &output{File: f, path: path}, err
}

// commit closes the output and puts it in place, an ordinary file
// (CreateTemp's is private).
func (o *output) commit() error {
	if o.path == "" {
		return o.Close()
	}
	if err := o.Chmod(0o644); err != nil {
		o.abort()
		return err
	}
	if err := o.Close(); err != nil {
		os.Remove(o.Name())
		return err
	}
	if err := os.Rename(o.Name(), o.path); err != nil {
		os.Remove(o.Name())
		return err
	}
	return nil
}

// abort closes the output and removes what was written of it, unless it
// was written in place.
func (o *output) abort() {
	o.Close()
	if o.path != "" {
		os.Remove(o.Name())
	}
}
