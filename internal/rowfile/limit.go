package rowfile

import (
	"errors"
	"io"
)

// LimitReader reads at most Left bytes of R and notes in Over whether
// there was more; it keeps R's own error in Err, apart from what a reader
// of it (a ZIP or Parquet reader) makes of it. The XLSX and Parquet
// readers read their files whole through one.
type LimitReader struct {
	R    io.Reader
	Left int64
	Over bool
	Err  error
}

// ErrTooLarge is LimitReader's error once R holds more than Left bytes.
var ErrTooLarge = errors.New("too large")

func (l *LimitReader) Read(p []byte) (int, error) {
	if l.Left <= 0 {
		// One more byte tells a file of exactly the limit from a larger one.
		var b [1]byte
		n, err := l.R.Read(b[:])
		if n > 0 {
			l.Over = true
			return 0, ErrTooLarge
		}
		if err != nil && err != io.EOF {
			l.Err = err
		}
		return 0, err
	}
	if int64(len(p)) > l.Left {
		p = p[:l.Left]
	}
	n, err := l.R.Read(p)
	l.Left -= int64(n)
	if err != nil && err != io.EOF {
		l.Err = err
	}
	return n, err
}
