// Package extsort sorts an import's observation rows in bounded memory:
// rows are kept in memory up to a run's worth, then sorted and appended to
// a temporary file as one sorted run; Merge reads the runs back merged
// into one sorted stream. Memory holds one run at most (RunRows × RecSize bytes)
// whatever the file's size, plus a read buffer per spilled run while
// merging.
//
// The order is the caller's: it may change while rows are added (an
// importer numbers series as it meets them), so it is asked for before
// each spill and each merge, and must order the rows already spilled as
// it did when they were spilled.
package extsort

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultRunRows is the rows of a run an importer keeps in memory (7 MB).
const DefaultRunRows = 1 << 18

// firstRun is the rows of the memory a run starts with.
const firstRun = 1 << 14

// runBuffer is the read buffer of a spilled run while merging.
const runBuffer = 16 << 10

// Rec is one accepted observation row.
type Rec struct {
	Series   int32 // the caller's number of the row's series
	Store    int32 // the caller's number of the row's store
	Date     int32
	Price    uint32
	Regular  uint32
	PromoEnd int32
	Line     int32 // where the row is in its file
}

// RecSize is the size of a Rec in a run file.
const RecSize = 28

func (r *Rec) put(b []byte) {
	le := binary.LittleEndian
	le.PutUint32(b[0:], uint32(r.Series))
	le.PutUint32(b[4:], uint32(r.Store))
	le.PutUint32(b[8:], uint32(r.Date))
	le.PutUint32(b[12:], r.Price)
	le.PutUint32(b[16:], r.Regular)
	le.PutUint32(b[20:], uint32(r.PromoEnd))
	le.PutUint32(b[24:], uint32(r.Line))
}

func (r *Rec) get(b []byte) {
	le := binary.LittleEndian
	*r = Rec{Series: int32(le.Uint32(b[0:])), Store: int32(le.Uint32(b[4:])), Date: int32(le.Uint32(b[8:])),
		Price: le.Uint32(b[12:]), Regular: le.Uint32(b[16:]), PromoEnd: int32(le.Uint32(b[20:])), Line: int32(le.Uint32(b[24:]))}
}

// Runs holds rows: the current run in memory and the spilled runs in a
// temporary file. Close it when done.
type Runs struct {
	runRows int
	order   func() func(a, b Rec) int
	n       int      // rows in all
	cur     []Rec    // the run being filled
	f       *os.File // spilled runs, nil until the first
	w       *bufio.Writer
	size    int64
	runs    []spilledRun
	// unlinked: f's name is removed already (Unix), it is read through
	// its descriptor.
	unlinked bool
}

type spilledRun struct{ off, n int64 } // offset in bytes, rows

// New returns empty Runs that spill every runRows rows (DefaultRunRows
// when runRows <= 0), sorted by the compare function order returns.
func New(runRows int, order func() func(a, b Rec) int) *Runs {
	if runRows <= 0 {
		runRows = DefaultRunRows
	}
	return &Runs{runRows: runRows, order: order}
}

// Len returns the number of rows added.
func (o *Runs) Len() int { return o.n }

// Spilled returns the number of runs in the temporary file.
func (o *Runs) Spilled() int { return len(o.runs) }

// Add adds a row, spilling the current run when full.
func (o *Runs) Add(r Rec) error {
	if len(o.cur) == o.runRows {
		if err := o.spill(); err != nil {
			return err
		}
	}
	if len(o.cur) == cap(o.cur) {
		// Room for firstRun rows, then for a whole run: a file of a
		// few rows takes a few rows' memory.
		room := o.runRows
		if len(o.cur) == 0 {
			room = min(firstRun, o.runRows)
		}
		grown := make([]Rec, len(o.cur), room)
		o.cur = grown[:copy(grown, o.cur)]
	}
	o.cur = append(o.cur, r)
	o.n++
	return nil
}

// Close removes the temporary file, if any.
func (o *Runs) Close() {
	if o.f != nil {
		o.f.Close()
		if !o.unlinked {
			os.Remove(o.f.Name())
		}
		o.f = nil
	}
}

// spillPrefix starts the name of an import's temporary file in the
// system's temporary directory: grocery-import-<pid>-<digits>.tmp.
const spillPrefix = "grocery-import-"

// TempFile creates a temporary file for an import in the system's
// temporary directory, named as RemoveStale knows it
// (grocery-import-<pid>-<digits>.tmp), so that the file of an import
// killed before it removed it is removed at the next start.
func TempFile() (*os.File, error) {
	return os.CreateTemp("", spillPrefix+strconv.Itoa(os.Getpid())+"-*.tmp")
}

// spill sorts the current run and appends it to the temporary file.
func (o *Runs) spill() error {
	if o.f == nil {
		f, err := TempFile()
		if err != nil {
			return fmt.Errorf("import: a temporary file for sorting the rows: %w", err)
		}
		// Read back through its descriptor only: without a name (Unix), a
		// killed import leaves nothing; elsewhere RemoveStale removes it
		// at the next start.
		o.f, o.w, o.unlinked = f, bufio.NewWriterSize(f, 64<<10), unlinkOpen(f)
	}
	sortRun(o.cur, o.order())
	var b [RecSize]byte
	for i := range o.cur {
		o.cur[i].put(b[:])
		if _, err := o.w.Write(b[:]); err != nil {
			return fmt.Errorf("import: writing %s: %w", o.f.Name(), err)
		}
	}
	if err := o.w.Flush(); err != nil {
		return fmt.Errorf("import: writing %s: %w", o.f.Name(), err)
	}
	n := int64(len(o.cur))
	o.runs = append(o.runs, spilledRun{off: o.size, n: n})
	o.size += n * RecSize
	o.cur = o.cur[:0]
	return nil
}

func sortRun(run []Rec, compare func(a, b Rec) int) {
	// compare takes values: a pointer to a row passed to an unknown
	// function would move every compared row to the heap.
	slices.SortFunc(run, compare)
}

// Merger reads the runs merged into one sorted stream. Rows the order
// holds equal come in no set order: an order that must keep them in the
// order they were added ends with a key of its own (the importer's line).
type Merger struct {
	compare func(a, b Rec) int
	heap    []*runSource // the runs with rows left, a min-heap by their current row
}

// Merge sorts the current run and returns a Merger over every row added.
// Merge may be called again, for a second pass over the rows; no row may
// be added after it.
func (o *Runs) Merge() (*Merger, error) {
	compare := o.order()
	sortRun(o.cur, compare)
	var srcs []*runSource
	for _, run := range o.runs {
		srcs = append(srcs, &runSource{r: bufio.NewReaderSize(io.NewSectionReader(o.f, run.off, run.n*RecSize), runBuffer), left: run.n})
	}
	srcs = append(srcs, &runSource{mem: o.cur})
	m := &Merger{compare: compare}
	for _, s := range srcs {
		ok, err := s.next()
		if err != nil {
			return nil, err
		}
		if ok {
			m.heap = append(m.heap, s)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return m, nil
}

// Next returns the next row in order, or ok false after the last one.
func (m *Merger) Next() (r Rec, ok bool, err error) {
	if len(m.heap) == 0 {
		return Rec{}, false, nil
	}
	top := m.heap[0]
	r = top.cur
	more, err := top.next()
	if err != nil {
		return Rec{}, false, err
	}
	if !more {
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
	}
	m.down(0)
	return r, true, nil
}

// down moves the run at i down the heap to its place: log2(runs)
// comparisons a row, where a scan of every run would take one a run.
func (m *Merger) down(i int) {
	h := m.heap
	for {
		least := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && m.compare(h[c].cur, h[least].cur) < 0 {
				least = c
			}
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// runSource reads one sorted run.
type runSource struct {
	mem  []Rec
	r    *bufio.Reader
	left int64
	cur  Rec
}

func (s *runSource) next() (bool, error) {
	if s.r == nil {
		if len(s.mem) == 0 {
			return false, nil
		}
		s.cur, s.mem = s.mem[0], s.mem[1:]
		return true, nil
	}
	if s.left == 0 {
		return false, nil
	}
	var b [RecSize]byte
	if _, err := io.ReadFull(s.r, b[:]); err != nil {
		return false, fmt.Errorf("import: reading back the sorted rows: %w", err)
	}
	s.left--
	s.cur.get(b[:])
	return true, nil
}

// RemoveStale removes the temporary files of imports whose process no
// longer runs (killed before it removed its file), and those without a
// process id in their name (older builds) untouched for an hour. It
// returns the paths removed.
func RemoveStale() ([]string, error) {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), spillPrefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if rest, ok = strings.CutSuffix(rest, ".tmp"); !ok {
			continue
		}
		if pid, _, hasPID := strings.Cut(rest, "-"); hasPID {
			n, err := strconv.Atoi(pid)
			if err != nil || !processGone(n) {
				continue
			}
		} else if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < time.Hour {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, path)
	}
	return removed, errors.Join(errs...)
}
