package rowfile

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Counter reports after every Every bytes, not at the first read.
func TestCounter(t *testing.T) {
	var got []int64
	c := &Counter{R: strings.NewReader(strings.Repeat("x", 25)), Progress: func(n int64) { got = append(got, n) }, Every: 10}
	buf := make([]byte, 4)
	for {
		if _, err := c.Read(buf); err == io.EOF {
			break
		}
	}
	if want := []int64{12, 24}; !cmp.Equal(got, want) || c.N() != 25 {
		t.Errorf("reports %v, count %d: want %v and 25", got, c.N(), want)
	}
}
