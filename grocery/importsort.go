package grocery

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/internal/extsort"
	"github.com/grocerydata/grocery/storage"
)

// An observations file's rows go to an extsort.Runs, sorted by date, then
// series in key order, store and line; once the file is read, scan merges
// the runs, which brings the rows of one date, store and SKU together: the
// first in the file is written, a later identical one counts as unchanged,
// a different one is a conflict. So the importer's memory holds one run
// whatever the file's size, plus what grows with the distinct stores, SKUs
// and series, not with rows.
//
// The merged rows are written in batches of whole days, each in its own
// transaction: a batch closes at the first day that starts once it holds
// batchRows rows. Each batch is sorted again as ingest.WriteImport needs
// (series in key order, date, store), so a series' block of days is
// written once a batch, and what a transaction holds until it commits
// grows with the batch, not with the file.

// writeChunk is how many rows of a batch go to ingest.WriteImport at a
// time.
const writeChunk = 1 << 16

// importBatchRows is how many rows a batch holds before it closes at the
// next day. A batch of the large demo's shape peaked at 240 MB of live
// heap, 173 MB of it its commit's pages (storage/README.md, Import
// memory); fewer rows a batch would not shrink those much, since every
// batch touches every series' current block, and would cost a derivation
// of offers and promotions more each.
const importBatchRows = 1 << 20

// order returns how rows are sorted: by date, then series in key order,
// store's Ord, and line, so that the rows of one date, store and SKU come
// in file order. The series' ranks are taken now: a series met later may
// rank anywhere, but the series met before keep their order, so spilled
// runs stay sorted, as extsort requires.
func (imp *importer) order() func(a, b extsort.Rec) int {
	rank := ingest.Ranks(imp.seriesKeys)
	return func(a, b extsort.Rec) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(rank[a.Series], rank[b.Series]),
			cmp.Compare(imp.storeOrds[a.Store], imp.storeOrds[b.Store]), cmp.Compare(a.Line, b.Line))
	}
}

// errConflict stops a scan at a conflict between rows; a second scan with
// no writer finds the first one in the file.
var errConflict = errors.New("conflicting rows")

// scan merges the runs and passes the rows to write, in batches of whole
// days in date order (see importBatchRows), without their repeats. A row
// that differs from an earlier one of the same date, store and SKU is
// skipped and noted with SkipInvalid; otherwise scan returns errConflict.
// With write nil it only looks for conflicts and returns the
// EINVALIDARGUMENT of the one on the earliest line, or nil.
func (imp *importer) scan(ctx context.Context, write func(rows []obsRec, last bool) error) error {
	var (
		buf     []obsRec
		worst   *rowError
		worstAt int32
		repeats int
	)
	err := imp.obs.Groups(ctx, func(r *extsort.Rec) error {
		if write == nil {
			return nil
		}
		if Date(r.Date) <= imp.resumed {
			repeats++ // written by the run of the import that stopped
			return nil
		}
		if len(buf) >= imp.batchRows && r.Date != buf[len(buf)-1].Date {
			if err := write(buf, false); err != nil {
				return err
			}
			buf = buf[:0]
		}
		buf = append(buf, obsRec{Series: r.Series, Store: r.Store, Date: r.Date, Price: r.Price, Regular: r.Regular, PromoEnd: r.PromoEnd})
		return nil
	}, func(r, first *extsort.Rec) error {
		e := imp.conflict(r, first)
		switch {
		case e == nil:
			repeats++
		case write == nil:
			if worst == nil || r.Line < worstAt {
				worst, worstAt = e, r.Line
			}
		case !imp.skip:
			return errConflict
		default:
			imp.report.Skipped++
			imp.noteConflict(int(r.Line), imp.f.Message(int(r.Line), e))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if write == nil {
		if worst != nil {
			return &Error{Code: EINVALIDARGUMENT, Message: imp.f.Message(int(worstAt), worst)}
		}
		return nil
	}
	imp.repeats += repeats
	return write(buf, true)
}

// conflict compares a row with the earlier row of the same date, store and
// SKU: nil when it repeats it.
func (imp *importer) conflict(r, p *extsort.Rec) *rowError {
	switch {
	case r.Price != p.Price:
		return badf("price", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", Cents(r.Price), imp.f.Unit(), p.Line, Cents(p.Price))
	case r.Regular != p.Regular:
		return badf("regular_price", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", Cents(r.Regular), imp.f.Unit(), p.Line, Cents(p.Regular))
	case r.PromoEnd != p.PromoEnd:
		return badf("promo_ends", "%s conflicts with %s %d, which gives %s for the same date, store_id and external_sku", dateOrNone(Date(r.PromoEnd)), imp.f.Unit(), p.Line, dateOrNone(Date(p.PromoEnd)))
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

// writeBatches writes the merged rows in batches of whole days (scan),
// each in its own transaction (writeImport), the catalogue of b with the
// first. A file of more than one batch is scanned for conflicts first
// (without SkipInvalid), so that a bad row still writes nothing. When a
// batch fails, the batches before it stay written, and the error says
// through which day (through, -1 when none). Each batch but the last
// records that in the data file (storage.ImportResume, with the digest of
// the file's bytes), and the last clears it: importing the same file
// again, while nothing else was written since, takes the rows of those
// days as written (unchanged) and writes the rest.
func (imp *importer) writeBatches(ctx context.Context, b *batch) (_ batchStats, through Date, _ error) {
	through = -1 // the last day written
	if imp.obs.Len() > imp.batchRows && !imp.skip {
		if err := imp.scan(ctx, nil); err != nil {
			return batchStats{}, through, err
		}
	}
	if err := imp.s.db.View(func(tx *storage.Tx) error {
		if r, ok := tx.ImportResume(); ok && r.Digest == imp.digest && r.Write == tx.LastWrite() {
			imp.resumed = Date(r.Through)
			imp.report.Resumed = imp.resumed.String()
		}
		return nil
	}); err != nil {
		return batchStats{}, through, err
	}
	bySeries := seriesSort{rank: ingest.Ranks(imp.seriesKeys)}
	var (
		total batchStats
		cat   = b
	)
	err := imp.scan(ctx, func(rows []obsRec, final bool) error {
		last := Date(-1)
		if len(rows) > 0 {
			last = Date(rows[len(rows)-1].Date)
		}
		record := func(tx *storage.Tx) error {
			if final {
				return tx.ClearImportResume()
			}
			return tx.PutImportResume(&storage.ImportResume{Digest: imp.digest, Through: int32(last), Write: tx.LastWrite()})
		}
		rows = bySeries.sort(rows)
		st, err := imp.s.writeImport(ctx, cat, imp.storeIDs, imp.storeOrds, imp.seriesKeys, func(write func([]obsRec) error) error {
			for i := 0; i < len(rows); i += imp.chunk {
				if err := write(rows[i:min(i+imp.chunk, len(rows))]); err != nil {
					return err
				}
			}
			return nil
		}, record)
		if err != nil {
			return err
		}
		cat = &batch{UpdateNames: b.UpdateNames}
		total.add(st)
		through = last
		if imp.s.batchWritten != nil {
			imp.s.batchWritten(through)
		}
		return nil
	})
	if errors.Is(err, errConflict) {
		// Only a file of one batch gets here, before its write.
		return batchStats{}, through, imp.scan(ctx, nil)
	}
	return total, through, err
}

// add adds the counts of a batch's write to st.
func (st *batchStats) add(b batchStats) {
	st.StoresNew += b.StoresNew
	st.StoresUpdated += b.StoresUpdated
	st.StoresUnchanged += b.StoresUnchanged
	st.ObsNew += b.ObsNew
	st.ObsUpdated += b.ObsUpdated
	st.ObsUnchanged += b.ObsUnchanged
	st.NamesKept = append(st.NamesKept, b.NamesKept...)
	if b.alertsErr != nil {
		st.alertsErr = b.alertsErr
	}
}

// seriesSort sorts a batch's rows, which come by date, then series in key
// order, then store, by series, then date, then store: a stable counting
// sort by series rank, in two passes, reusing its buffers.
type seriesSort struct {
	rank  []int32 // ingest.Ranks of the series
	start []int   // per rank, where its rows go
	out   []obsRec
}

// sort returns rows sorted, in a buffer of its own.
func (s *seriesSort) sort(rows []obsRec) []obsRec {
	if s.start == nil {
		s.start = make([]int, len(s.rank)+1)
	}
	clear(s.start)
	for i := range rows {
		s.start[s.rank[rows[i].Series]+1]++
	}
	for r := 1; r < len(s.start); r++ {
		s.start[r] += s.start[r-1]
	}
	s.out = slices.Grow(s.out[:0], len(rows))[:len(rows)]
	for i := range rows {
		r := s.rank[rows[i].Series]
		s.out[s.start[r]] = rows[i]
		s.start[r]++
	}
	return s.out
}
