// Package snapshot publishes copies of a data file to a directory and
// fetches them back, with a manifest that names the newest copy.
//
// A directory holds snapshot-<seq>.db files and manifest.json. Every file
// is written to a temporary name, synced and renamed into place, so a
// reader sees either the old file or the whole new one; the manifest is
// renamed last, so the snapshot it names is complete. A reader copies the
// snapshot and checks its size and SHA-256 against the manifest before
// using it, which refuses a snapshot damaged on its way.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/grocerydata/grocery/internal/atomicfile"
)

// ManifestName is the manifest's file name in a snapshot directory.
const ManifestName = "manifest.json"

// Manifest describes the newest snapshot in a directory.
type Manifest struct {
	Seq     uint64    `json:"seq"`
	File    string    `json:"file"`  // snapshot-<seq>.db, in the same directory
	AsOf    string    `json:"as_of"` // the data's as-of date, YYYY-MM-DD
	SHA256  string    `json:"sha256"`
	Size    int64     `json:"size"`
	Created time.Time `json:"created"`
}

// FileName returns the name of snapshot seq.
func FileName(seq uint64) string { return "snapshot-" + strconv.FormatUint(seq, 10) + ".db" }

// ReadManifest reads dir's manifest. It returns an error wrapping
// fs.ErrNotExist when there is none.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, ManifestName), err)
	}
	if m.Seq == 0 || m.File != FileName(m.Seq) || len(m.SHA256) != 64 || m.Size <= 0 {
		return nil, fmt.Errorf("%s: want seq > 0, file %q, a 64-digit sha256 and a size", filepath.Join(dir, ManifestName), FileName(m.Seq))
	}
	return &m, nil
}

// Publish writes a new snapshot to dir with write (which returns the
// number of bytes it wrote and the data's as-of date, YYYY-MM-DD, read
// from what it wrote), then the manifest naming it, and removes the
// snapshots older than the newest keep (keep <= 0 means 3): those past
// the keep-1 newest before it writes, so that a directory short of space
// keeps publishing, and all but the one the manifest names when the disk
// fills during the write, which it then tries once more. The new
// sequence number follows both the manifest's and every snapshot file's
// in dir, so it never goes back, even after the manifest was lost.
func Publish(dir string, now time.Time, keep int, write func(io.Writer) (int64, string, error)) (*Manifest, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var seq, named uint64
	if prev, err := ReadManifest(dir); err == nil {
		seq, named = prev.Seq, prev.Seq // else missing or damaged: the files say, and it is replaced
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if s, ok := seqOf(e.Name()); ok && s > seq {
			seq = s
		}
	}
	if keep <= 0 {
		keep = 3
	}
	// Room first: the snapshots past the keep-1 newest go before the new
	// one is written (never the one the manifest names, the newest), so
	// that the directory never holds more than keep of them; and when the
	// disk fills all the same, every snapshot but the manifest's goes and
	// the write is tried once more.
	prev := seq
	prune(dir, prev, max(keep-1, 1), named)
	seq++
	m := &Manifest{Seq: seq, File: FileName(seq), Created: now.UTC()}
	h := sha256.New()
	writeSnap := func() error {
		h.Reset()
		return atomicfile.Write(filepath.Join(dir, m.File), func(w io.Writer) error {
			n, asOf, err := write(io.MultiWriter(w, h))
			m.Size, m.AsOf = n, asOf
			return err
		})
	}
	err = writeSnap()
	if errors.Is(err, syscall.ENOSPC) && prev > 0 {
		if perr := prune(dir, prev, 1, named); perr == nil {
			err = writeSnap()
		}
	}
	if err != nil {
		return nil, err
	}
	m.SHA256 = hex.EncodeToString(h.Sum(nil))
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, ManifestName), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return nil, err
	}
	return m, prune(dir, seq, keep, seq)
}

// prune removes the snapshots of dir older than the keep newest up to
// seq, except snapshot named (the one the manifest names).
func prune(dir string, seq uint64, keep int, named uint64) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if s, ok := seqOf(e.Name()); !ok || s+uint64(keep) > seq || s == named {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// seqOf returns the sequence number of a snapshot file's name.
func seqOf(name string) (uint64, bool) {
	n, ok := strings.CutPrefix(name, "snapshot-")
	if !ok {
		return 0, false
	}
	if n, ok = strings.CutSuffix(n, ".db"); !ok {
		return 0, false
	}
	s, err := strconv.ParseUint(n, 10, 64)
	return s, err == nil && s > 0
}

// MismatchError says that a snapshot's copy disagrees with its
// manifest: fetching it again gives the same copy.
type MismatchError struct{ msg string }

func (e *MismatchError) Error() string { return e.msg }

// Fetch copies the snapshot m names from dir to the file to, checking
// its size and SHA-256 against m; on a mismatch it removes to and
// returns a *MismatchError saying what differs. Its other errors (the
// file not there yet, a full or unreadable disk) are the file system's,
// wrapped so that errors.Is sees them, and may pass. Every error begins
// "snapshot <seq> (<file>): ".
func Fetch(dir string, m *Manifest, to string) error {
	src, err := os.Open(filepath.Join(dir, m.File))
	if err != nil {
		return fmt.Errorf("snapshot %d (%s): reading it in %s: %w", m.Seq, m.File, dir, unwrapPath(err))
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("snapshot %d (%s): copying it to %s: %w", m.Seq, m.File, to, unwrapPath(err))
	}
	var h hash.Hash = sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, h), src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	switch sum := hex.EncodeToString(h.Sum(nil)); {
	case err != nil:
		err = fmt.Errorf("snapshot %d (%s): copying it to %s: %w", m.Seq, m.File, to, unwrapPath(err))
	case n != m.Size:
		err = &MismatchError{fmt.Sprintf("snapshot %d (%s): %d bytes, the manifest says %d", m.Seq, m.File, n, m.Size)}
	case sum != m.SHA256:
		err = &MismatchError{fmt.Sprintf("snapshot %d (%s): sha256 %s, the manifest says %s", m.Seq, m.File, sum, m.SHA256)}
	}
	if err != nil {
		os.Remove(to)
	}
	return err
}

// unwrapPath drops a *fs.PathError's operation and path (the caller's
// message names the file) and keeps its cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// RemoveTemps removes the temporary files that a publisher killed between
// creating and renaming them left in dir (.snapshot-<seq>.db.tmp...,
// .manifest.json.tmp...), and returns their names. Only the process that
// holds the data file publishes to dir, so it calls this when it opens
// the file: no temporary file there is still being written.
func RemoveTemps(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		name := e.Name()
		base, _, ok := strings.Cut(name, ".tmp")
		if !ok || !e.Type().IsRegular() || !strings.HasPrefix(base, ".") {
			continue
		}
		if _, isSnap := seqOf(base[1:]); !isSnap && base[1:] != ManifestName {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
