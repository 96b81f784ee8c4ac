package extsort

import "context"

// Groups merges the runs and passes the rows, in order, grouped by
// series, date and store (rows the order brings together): first gets
// the first row of each group, later each later row of it with that first
// row. It checks ctx every 65,536 rows, and stops at the first error of
// ctx, first or later.
func (o *Runs) Groups(ctx context.Context, first func(r *Rec) error, later func(r, first *Rec) error) error {
	m, err := o.Merge()
	if err != nil {
		return err
	}
	var (
		head Rec
		have bool
		seen int
	)
	for {
		r, ok, err := m.Next()
		if err != nil || !ok {
			return err
		}
		if seen++; seen%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if have && r.Series == head.Series && r.Date == head.Date && r.Store == head.Store {
			if err := later(&r, &head); err != nil {
				return err
			}
			continue
		}
		head, have = r, true
		if err := first(&head); err != nil {
			return err
		}
	}
}
