package storage

import (
	"encoding/binary"
	"slices"
	"testing"
)

// Runs decode when their values number at most the day's observations,
// and are errCorrupt when a damaged value claims more: one run of 2^28
// copies is refused, not expanded into a gigabyte.
func TestDecodeRunsBounded(t *testing.T) {
	t.Parallel()
	good := encodeRuns(nil, []uint32{5, 5, 5, 9})
	for _, c := range []struct {
		max  uint32
		want error
	}{{4, nil}, {10, nil}, {3, errCorrupt}} {
		d := dec{b: good}
		got := expandRuns(nil, decodeRuns(&d, nil, c.max))
		if d.err != c.want || c.want == nil && !slices.Equal(got, []uint32{5, 5, 5, 9}) {
			t.Errorf("max %d: got %v, %v, want %v", c.max, got, d.err, c.want)
		}
	}
	body := binary.AppendUvarint(binary.AppendUvarint(nil, 7), 1<<28-1) // value 7, 2^28 copies
	huge := append(binary.AppendUvarint(binary.AppendUvarint(nil, 1), uint64(len(body))), body...)
	d := dec{b: huge}
	if got := decodeRuns(&d, nil, 1000); d.err != errCorrupt || len(got) != 0 {
		t.Errorf("a run of 2^28 copies in a day of 1,000: got %d runs, %v, want errCorrupt", len(got), d.err)
	}
}
