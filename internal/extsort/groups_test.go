package extsort

import (
	"cmp"
	"context"
	"errors"
	"testing"
)

// Groups passes the first row of each series, date and store once, and
// the later rows of it with that first row, across spilled runs.
func TestGroups(t *testing.T) {
	order := func() func(a, b Rec) int {
		return func(a, b Rec) int {
			return cmp.Or(cmp.Compare(a.Series, b.Series), cmp.Compare(a.Date, b.Date), cmp.Compare(a.Store, b.Store), cmp.Compare(a.Line, b.Line))
		}
	}
	o := New(2, order)
	defer o.Close()
	for _, r := range []Rec{
		{Series: 1, Date: 5, Store: 1, Line: 1}, {Series: 0, Date: 5, Store: 1, Line: 2},
		{Series: 1, Date: 5, Store: 1, Line: 3}, {Series: 1, Date: 5, Store: 2, Line: 4},
		{Series: 1, Date: 5, Store: 1, Line: 5},
	} {
		if err := o.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	var firsts []int32
	var pairs [][2]int32
	err := o.Groups(context.Background(), func(r *Rec) error {
		firsts = append(firsts, r.Line)
		return nil
	}, func(r, first *Rec) error {
		pairs = append(pairs, [2]int32{r.Line, first.Line})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(firsts) != 3 || firsts[0] != 2 || firsts[1] != 1 || firsts[2] != 4 {
		t.Errorf("firsts %v, want [2 1 4]", firsts)
	}
	if len(pairs) != 2 || pairs[0] != [2]int32{3, 1} || pairs[1] != [2]int32{5, 1} {
		t.Errorf("later rows %v, want [[3 1] [5 1]]", pairs)
	}
	stop := errors.New("stop")
	if err := o.Groups(context.Background(), func(*Rec) error { return stop }, nil); err != stop {
		t.Errorf("an error of first: got %v, want it returned", err)
	}
}
