package rowwrite

import (
	"context"
	"io"
)

// Str, Num, Real and Null make the Value of a Text, an Int (or a Money's
// cents, a Date's day number), a Float, and an absent cell.
func Str(s string) Value   { return Value{S: s} }
func Num(n int64) Value    { return Value{N: n} }
func Real(f float64) Value { return Value{F: f} }
func Null() Value          { return Value{Null: true} }

// Flag is a Bool's Value: 1 for true, 0 for false.
func Flag(b bool) Value {
	if b {
		return Value{N: 1}
	}
	return Value{}
}

// ByteCounter counts the bytes written to W in *N, and stops writing once
// Ctx is done.
type ByteCounter struct {
	Ctx context.Context
	W   io.Writer
	N   *int64
}

func (c *ByteCounter) Write(b []byte) (int, error) {
	if err := c.Ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.W.Write(b)
	*c.N += int64(n)
	return n, err
}

// Sink writes rows of Vals to W and counts them in *Rows; every 4,096 rows
// it checks Ctx and reports the count to Progress, when set.
type Sink struct {
	Ctx      context.Context
	W        Writer
	Vals     []Value // the row Row writes: one value per column
	Rows     *int64
	Progress func(rows int64)
}

// Row writes Vals.
func (s *Sink) Row() error {
	if err := s.W.Row(s.Vals); err != nil {
		return err
	}
	*s.Rows++
	if *s.Rows%4096 == 0 {
		if err := s.Ctx.Err(); err != nil {
			return err
		}
		if s.Progress != nil {
			s.Progress(*s.Rows)
		}
	}
	return nil
}
