package rowfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCheckRows: the bounds on rows, whatever a format declares or holds.
func TestCheckRows(t *testing.T) {
	for _, tc := range []struct {
		rows, size int64
		want       string
	}{
		{1000, 100, ""},
		{MaxRowsPerByte * 1000, 1000, ""},
		{MaxRowsPerByte*1000 + 1, 1000, fmt.Sprintf("more than %d rows per byte", MaxRowsPerByte)},
		{MaxRows, 1 << 30, ""},
		{MaxRows + 1, 1 << 30, fmt.Sprintf("more than %d rows", MaxRows)},
	} {
		err := CheckRows(Parquet, tc.rows, tc.size)
		var fe *FormatError
		if (tc.want == "") != (err == nil) || err != nil && (!errors.As(err, &fe) || !strings.Contains(fe.Reason, tc.want)) {
			t.Errorf("CheckRows(%d rows, %d bytes): got %v, want %q", tc.rows, tc.size, err, tc.want)
		}
	}
}
