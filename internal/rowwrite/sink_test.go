package rowwrite

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// Sink counts rows and reports every 4,096th; ByteCounter counts bytes and
// stops writing once its context is done.
func TestSinkAndByteCounter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var buf bytes.Buffer
	var n, rows int64
	cw := &ByteCounter{Ctx: ctx, W: &buf, N: &n}
	w, err := NewCSV(cw, []Column{{Name: "a"}, {Name: "b", Kind: Bool}})
	if err != nil {
		t.Fatal(err)
	}
	var reports []int64
	s := &Sink{Ctx: ctx, W: w, Vals: make([]Value, 2), Rows: &rows, Progress: func(r int64) { reports = append(reports, r) }}
	for i := 0; i < 5000; i++ {
		s.Vals[0], s.Vals[1] = Str("x"), Flag(i%2 == 0)
		if err := s.Row(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if rows != 5000 || len(reports) != 1 || reports[0] != 4096 {
		t.Errorf("rows %d, reports %v: want 5000 and [4096]", rows, reports)
	}
	if n != int64(buf.Len()) || n == 0 {
		t.Errorf("counted %d bytes of %d", n, buf.Len())
	}
	cancel()
	if _, err := cw.Write([]byte("more")); !errors.Is(err, context.Canceled) {
		t.Errorf("write after cancel: %v, want context.Canceled", err)
	}
}
