package grocery

import (
	"bufio"
	"cmp"
	"context"
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

// An observations file's rows are kept in memory up to runRows of them;
// then they are sorted in the order the writer needs (series in key order,
// date, store) and appended to a temporary file as one sorted run. Once
// the file is read, scan merges the runs, which brings the rows of one
// date, store and SKU together: the first in the file is written, a later
// identical one counts as unchanged, a different one is a conflict. So
// the importer's memory holds one run (runRows × 28 bytes) whatever the
// file's size, plus a read buffer per spilled run while merging, plus what
// grows with the distinct stores, SKUs and series, not with rows.
var runRows = 1 << 18 // a variable for the tests

// runBuffer is the read buffer of a spilled run while merging.
const runBuffer = 16 << 10

// writeChunk is how many merged rows go to the writer at a time.
const writeChunk = 1 << 16

// impRec is one accepted observation row.
type impRec struct {
	series   int32 // index in importer.seriesKeys
	store    int32 // the store's number in the file
	date     int32
	price    uint32
	regular  uint32
	promoEnd int32
	line     int32
}

const impRecSize = 28

func (r *impRec) put(b []byte) {
	le := binary.LittleEndian
	le.PutUint32(b[0:], uint32(r.series))
	le.PutUint32(b[4:], uint32(r.store))
	le.PutUint32(b[8:], uint32(r.date))
	le.PutUint32(b[12:], r.price)
	le.PutUint32(b[16:], r.regular)
	le.PutUint32(b[20:], uint32(r.promoEnd))
	le.PutUint32(b[24:], uint32(r.line))
}

func (r *impRec) get(b []byte) {
	le := binary.LittleEndian
	*r = impRec{series: int32(le.Uint32(b[0:])), store: int32(le.Uint32(b[4:])), date: int32(le.Uint32(b[8:])),
		price: le.Uint32(b[12:]), regular: le.Uint32(b[16:]), promoEnd: int32(le.Uint32(b[20:])), line: int32(le.Uint32(b[24:]))}
}

// obsRuns holds an import's observation rows: the current run in memory
// and the spilled runs in a temporary file.
type obsRuns struct {
	n    int      // rows in all
	cur  []impRec // the run being filled
	f    *os.File // spilled runs, nil until the first
	w    *bufio.Writer
	size int64
	runs []spilledRun
	// unlinked: f's name is removed already (Unix), it is read through
	// its descriptor.
	unlinked bool
}

type spilledRun struct{ off, n int64 } // offset in bytes, rows

// spillPrefix starts the name of an import's temporary file in the
// system's temporary directory: grocery-import-<pid>-<digits>.tmp.
const spillPrefix = "grocery-import-"

// removeStaleSpills removes the temporary files of imports whose process
// no longer runs (killed before it removed its file), and those without
// a process id in their name (older builds) untouched for an hour. It
// returns the paths removed.
func removeStaleSpills() ([]string, error) {
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

func (o *obsRuns) close() {
	if o.f != nil {
		o.f.Close()
		if !o.unlinked {
			os.Remove(o.f.Name())
		}
		o.f = nil
	}
}

// addObs adds an accepted row, spilling the current run when full.
func (imp *importer) addObs(r impRec) error {
	o := &imp.obs
	if len(o.cur) == runRows {
		if err := imp.spill(); err != nil {
			return err
		}
	}
	if o.cur == nil {
		o.cur = make([]impRec, 0, runRows)
	}
	o.cur = append(o.cur, r)
	o.n++
	return nil
}

// spill sorts the current run and appends it to the temporary file.
func (imp *importer) spill() error {
	o := &imp.obs
	if o.f == nil {
		f, err := os.CreateTemp("", spillPrefix+strconv.Itoa(os.Getpid())+"-*.tmp")
		if err != nil {
			return fmt.Errorf("import: a temporary file for sorting the rows: %w", err)
		}
		// Read back through its descriptor only: without a name (Unix), a
		// killed import leaves nothing; elsewhere removeStaleSpills
		// removes it at the next start.
		o.f, o.w, o.unlinked = f, bufio.NewWriterSize(f, 64<<10), unlinkOpen(f)
	}
	imp.sortRun(o.cur, imp.ranks())
	var b [impRecSize]byte
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
	o.size += n * impRecSize
	o.cur = o.cur[:0]
	return nil
}

// ranks numbers the file's series in key order.
func (imp *importer) ranks() []int32 {
	order := make([]int32, len(imp.seriesKeys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := &imp.seriesKeys[a], &imp.seriesKeys[b]
		return cmp.Or(cmp.Compare(x.banner, y.banner), cmp.Compare(x.sku, y.sku), cmp.Compare(x.province, y.province))
	})
	rank := make([]int32, len(order))
	for r, i := range order {
		rank[i] = int32(r)
	}
	return rank
}

// less orders rows as the writer needs them, and the rows of one date,
// store and SKU in file order.
func (imp *importer) compare(rank []int32, a, b *impRec) int {
	if a.series != b.series {
		return cmp.Compare(rank[a.series], rank[b.series])
	}
	return cmp.Or(cmp.Compare(a.date, b.date), cmp.Compare(imp.storeOrds[a.store], imp.storeOrds[b.store]),
		cmp.Compare(a.line, b.line))
}

func (imp *importer) sortRun(run []impRec, rank []int32) {
	slices.SortFunc(run, func(a, b impRec) int { return imp.compare(rank, &a, &b) })
}

// runSource reads one sorted run.
type runSource struct {
	mem  []impRec
	r    *bufio.Reader
	left int64
	cur  impRec
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
	var b [impRecSize]byte
	if _, err := io.ReadFull(s.r, b[:]); err != nil {
		return false, fmt.Errorf("import: reading back the sorted rows: %w", err)
	}
	s.left--
	s.cur.get(b[:])
	return true, nil
}

// errConflict stops a scan at a conflict between rows; a second scan with
// no writer finds the first one in the file.
var errConflict = errors.New("conflicting rows")

// scan merges the runs and passes the rows to write, in chunks, without
// their repeats. A row that differs from an earlier one of the same date,
// store and SKU is skipped and noted with SkipInvalid; otherwise scan
// returns errConflict. With write nil it only looks for conflicts and
// returns the EINVALID of the one on the earliest line, or nil.
func (imp *importer) scan(ctx context.Context, write func([]obsRec) error) error {
	o := &imp.obs
	rank := imp.ranks()
	imp.sortRun(o.cur, rank)
	var srcs []*runSource
	for _, run := range o.runs {
		srcs = append(srcs, &runSource{r: bufio.NewReaderSize(io.NewSectionReader(o.f, run.off, run.n*impRecSize), runBuffer), left: run.n})
	}
	srcs = append(srcs, &runSource{mem: o.cur})
	live := srcs[:0]
	for _, s := range srcs {
		ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			live = append(live, s)
		}
	}
	var (
		first    impRec
		have     bool
		buf      []obsRec
		worst    *rowError
		worstAt  int32
		repeats  int
		rowsSeen int
	)
	if write != nil {
		buf = make([]obsRec, 0, writeChunk)
	}
	for len(live) > 0 {
		best := 0
		for i := 1; i < len(live); i++ {
			if imp.compare(rank, &live[i].cur, &live[best].cur) < 0 {
				best = i
			}
		}
		r := live[best].cur
		ok, err := live[best].next()
		if err != nil {
			return err
		}
		if !ok {
			live = slices.Delete(live, best, best+1)
		}
		if rowsSeen++; rowsSeen%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if have && r.series == first.series && r.date == first.date && r.store == first.store {
			e := imp.conflict(&r, &first)
			switch {
			case e == nil:
				repeats++
			case write == nil:
				if worst == nil || r.line < worstAt {
					worst, worstAt = e, r.line
				}
			case !imp.skip:
				return errConflict
			default:
				imp.report.Skipped++
				imp.noteConflict(int(r.line), imp.message(int(r.line), e))
			}
			continue
		}
		first, have = r, true
		if write == nil {
			continue
		}
		buf = append(buf, obsRec{series: r.series, store: r.store, date: r.date, price: r.price, regular: r.regular, promoEnd: r.promoEnd})
		if len(buf) == writeChunk {
			if err := write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if write == nil {
		if worst != nil {
			return &Error{Code: EINVALID, Message: imp.message(int(worstAt), worst)}
		}
		return nil
	}
	imp.repeats += repeats
	return write(buf)
}

// conflict compares a row with the earlier row of the same date, store and
// SKU: nil when it repeats it.
func (imp *importer) conflict(r, p *impRec) *rowError {
	switch {
	case r.price != p.price:
		return badf("price", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", Cents(r.price), imp.unit(), p.line, Cents(p.price))
	case r.regular != p.regular:
		return badf("regular_price", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", Cents(r.regular), imp.unit(), p.line, Cents(p.regular))
	case r.promoEnd != p.promoEnd:
		return badf("promo_ends", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", dateOrNone(Date(r.promoEnd)), imp.unit(), p.line, dateOrNone(Date(p.promoEnd)))
	}
	return nil
}

// noteConflict keeps the maxProblems earliest skipped conflicts.
func (imp *importer) noteConflict(line int, msg string) {
	n := lineNote{line, msg}
	i, _ := slices.BinarySearchFunc(imp.conflicts, line, func(a lineNote, l int) int { return cmp.Compare(a.line, l) })
	if i >= maxProblems {
		return
	}
	imp.conflicts = slices.Insert(imp.conflicts, i, n)
	if len(imp.conflicts) > maxProblems {
		imp.conflicts = imp.conflicts[:maxProblems]
	}
}
