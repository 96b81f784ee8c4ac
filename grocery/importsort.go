package grocery

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
	"github.com/grocerydata/grocery/internal/extsort"
)

// An observations file's rows go to an extsort.Runs, sorted in the order
// ingest.WriteImport needs (series in key order, date, store); once the file is
// read, scan merges the runs, which brings the rows of one date, store and
// SKU together: the first in the file is written, a later identical one
// counts as unchanged, a different one is a conflict. So the importer's
// memory holds one run whatever the file's size, plus what grows with the
// distinct stores, SKUs and series, not with rows.

// writeChunk is how many merged rows go to ingest.WriteImport at a time.
const writeChunk = 1 << 16

// order returns how rows are sorted: as ingest.WriteImport needs them, and the
// rows of one date, store and SKU in file order. The series' ranks are
// taken now: a series met later may rank anywhere, but the series met
// before keep their order, so spilled runs stay sorted, as extsort requires.
func (imp *importer) order() func(a, b extsort.Rec) int {
	rank := ingest.Ranks(imp.seriesKeys)
	return func(a, b extsort.Rec) int {
		if a.Series != b.Series {
			return cmp.Compare(rank[a.Series], rank[b.Series])
		}
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(imp.storeOrds[a.Store], imp.storeOrds[b.Store]),
			cmp.Compare(a.Line, b.Line))
	}
}

// errConflict stops a scan at a conflict between rows; a second scan with
// no writer finds the first one in the file.
var errConflict = errors.New("conflicting rows")

// scan merges the runs and passes the rows to write, in chunks, without
// their repeats. A row that differs from an earlier one of the same date,
// store and SKU is skipped and noted with SkipInvalid; otherwise scan
// returns errConflict. With write nil it only looks for conflicts and
// returns the EINVALIDARGUMENT of the one on the earliest line, or nil.
func (imp *importer) scan(ctx context.Context, write func([]obsRec) error) error {
	var (
		buf     []obsRec
		worst   *rowError
		worstAt int32
		repeats int
	)
	if write != nil {
		buf = make([]obsRec, 0, imp.chunk)
	}
	err := imp.obs.Groups(ctx, func(r *extsort.Rec) error {
		if write == nil {
			return nil
		}
		buf = append(buf, obsRec{Series: r.Series, Store: r.Store, Date: r.Date, Price: r.Price, Regular: r.Regular, PromoEnd: r.PromoEnd})
		if len(buf) < imp.chunk {
			return nil
		}
		err := write(buf)
		buf = buf[:0]
		return err
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
	return write(buf)
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
