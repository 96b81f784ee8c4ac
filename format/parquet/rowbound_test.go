package parquet

import (
	"bytes"
	bin "encoding/binary"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// repeatedRun is a Parquet file of one dictionary-encoded column whose
// n rows hold one value: its data pages are a single repeated run, a few
// bytes for any n.
func repeatedRun(t *testing.T, n int) []byte {
	t.Helper()
	type row struct {
		Store string `parquet:"store_id,dict"`
	}
	in := make([]row, n)
	for i := range in {
		in[i].Store = "costco-on-5524"
	}
	return writeParquet(t, in, parquet.MaxRowsPerRowGroup(int64(n)))
}

// editFooter rewrites a Parquet file's footer with edit.
func editFooter(t *testing.T, data []byte, edit func(*format.FileMetaData)) []byte {
	t.Helper()
	n := int(bin.LittleEndian.Uint32(data[len(data)-8:]))
	start := len(data) - 8 - n
	meta := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:len(data)-8], meta); err != nil {
		t.Fatal(err)
	}
	edit(meta)
	fb, err := thrift.Marshal(new(thrift.CompactProtocol), meta)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:start]...)
	out = append(out, fb...)
	out = bin.LittleEndian.AppendUint32(out, uint32(len(fb)))
	return append(out, "PAR1"...)
}

// TestOpenParquetRowBound: a file whose rows cost nothing to declare (a
// repeated run, the same row group listed many times, a footer that
// understates its rows) is refused before any row is read, naming the
// bound; a file within the bound is read whole.
func TestOpenParquetRowBound(t *testing.T) {
	run := repeatedRun(t, 1<<20)
	for _, tc := range []struct {
		name string
		data []byte
		want string // "" for a file read whole
	}{
		{"OK", repeatedRun(t, 20000), ""},
		{"ErrRepeatedRun", run, "rows per byte"},
		{"ErrRowGroupListedTwice", editFooter(t, repeatedRun(t, 10000), func(m *format.FileMetaData) {
			m.RowGroups = append(m.RowGroups, m.RowGroups[0])
			m.NumRows *= 2
		}), "listed more than once"},
		{"ErrRowGroupListedOften", editFooter(t, run, func(m *format.FileMetaData) {
			for range 3 {
				m.RowGroups = append(m.RowGroups, m.RowGroups[0])
			}
			m.NumRows *= 4
		}), "rows per byte"},
		{"ErrFooterUnderstates", editFooter(t, run, func(m *format.FileMetaData) {
			m.NumRows, m.RowGroups[0].NumRows = 10, 10
		}), "rows per byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := open(bytes.NewReader(tc.data), MaxSize)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want the file read", err)
				}
				defer rows.Close()
				if got := len(readAll(t, rows)); got != 20000 {
					t.Fatalf("got %d rows, want 20000", got)
				}
				return
			}
			if err == nil {
				rows.Close()
			}
			if !isFormat(err, tc.want) {
				t.Fatalf("%d-byte file: got %v, want a FormatError saying %q", len(tc.data), err, tc.want)
			}
		})
	}
}
