package rowfile

import "io"

// Counter is a reader that counts the bytes read and reports the count
// to Progress, when set, every Every bytes.
type Counter struct {
	R        io.Reader
	Progress func(n int64)
	Every    int64

	n    int64
	next int64
}

// N returns the bytes read so far.
func (c *Counter) N() int64 { return c.n }

func (c *Counter) Read(p []byte) (int, error) {
	if c.next == 0 {
		c.next = c.Every // the first report after Every bytes
	}
	n, err := c.R.Read(p)
	c.n += int64(n)
	if c.Progress != nil && c.n >= c.next {
		c.Progress(c.n)
		c.next = c.n + c.Every
	}
	return n, err
}
