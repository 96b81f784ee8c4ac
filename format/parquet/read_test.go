package parquet

import (
	"bufio"
	"bytes"
	bin "encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// typedObs is an observations extract as a data team's pipeline writes
// it: typed columns, a pandas index, the barcode as an integer.
type typedObs struct {
	Index    int64     `parquet:"__index_level_0__"`
	Date     int32     `parquet:"date,date"`
	Store    string    `parquet:"store_id,dict"`
	Banner   string    `parquet:"banner,enum"`
	SKU      string    `parquet:"external_sku"`
	Price    int64     `parquet:"price,decimal(2:10)"`
	Regular  *int32    `parquet:"regular_price,optional,decimal(2:9)"`
	UPC      int64     `parquet:"upc"`
	Promo    bool      `parquet:"on_promo"`
	Seen     time.Time `parquet:"seen,timestamp(microsecond)"`
	Weight   float64   `parquet:"weight"`
	Count    uint32    `parquet:"count,uint(32)"`
	Ends     *int32    `parquet:"promo_ends,optional,date"`
	Fraction [16]byte  `parquet:"fraction,decimal(4:38)"`
}

func writeParquet[T any](t testing.TB, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readAll(t *testing.T, rows *rowfile.Rows) [][]string {
	t.Helper()
	var got [][]string
	for {
		rec, _, err := rows.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, append([]string(nil), rec...))
	}
}

// TestOpenParquetTyped reads typed columns as the text a CSV file would
// carry, and leaves out a pandas index.
func TestOpenParquetTyped(t *testing.T) {
	day := time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC)
	reg, ends := int32(599), int32(day.Unix()/86400+3)
	// 1.5 at scale 4, as a big-endian two's complement; -0.25 likewise.
	var plus, minus [16]byte
	plus[14], plus[15] = 0x3a, 0x98
	for i := range minus {
		minus[i] = 0xff
	}
	minus[14], minus[15] = 0xf6, 0x3c
	in := []typedObs{
		{0, int32(day.Unix() / 86400), "s1", "costco", "A1", 499, &reg, 67000378089, true, day, 1.25, 7, &ends, plus},
		{1, int32(day.Unix()/86400) - 1, "s2", "no-frills", "B2", 1200, nil, 5000, false, day.Add(90 * time.Minute), 0.1, 4294967295, nil, minus},
	}
	data := writeParquet(t, in, parquet.Compression(&zstd.Codec{}))
	br := bufio.NewReader(bytes.NewReader(data))
	f, empty, err := rowfile.Sniff(br)
	if err != nil || empty || f != rowfile.Parquet {
		t.Fatalf("Sniff: %v %v %v, want parquet", f, empty, err)
	}
	rows, err := open(br, MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	wantHeader := []string{"date", "store_id", "banner", "external_sku", "price", "regular_price", "upc", "on_promo", "seen", "weight", "count", "promo_ends", "fraction"}
	if diff := cmp.Diff(wantHeader, rows.Header()); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	want := [][]string{
		{"2026-11-19", "s1", "costco", "A1", "4.99", "5.99", "67000378089", "true", "2026-11-19", "1.25", "7", "2026-11-22", "1.5"},
		{"2026-11-18", "s2", "no-frills", "B2", "12", "", "5000", "false", "2026-11-19T01:30:00Z", "0.1", "4294967295", "", "-0.25"},
	}
	if diff := cmp.Diff(want, readAll(t, rows)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if got := rows.Where(2); got != "row 2" {
		t.Errorf("Where(2) = %q", got)
	}
}

// TestOpenParquetLarge reads a file past the in-memory size through a
// temporary file, across row groups, and removes the file on Close.
func TestOpenParquetLarge(t *testing.T) {
	type row struct {
		N    int64  `parquet:"n"`
		Text string `parquet:"text"`
	}
	noise := strings.Repeat("x", 300)
	var in []row
	for i := range 60000 {
		in = append(in, row{int64(i), noise + string(rune('a'+i%26)) + time.Duration(i).String()})
	}
	data := writeParquet(t, in, parquet.MaxRowsPerRowGroup(7000), parquet.Compression(&parquet.Uncompressed))
	if len(data) <= parquetInMemory {
		t.Fatalf("the file is %d bytes: want more than %d", len(data), parquetInMemory)
	}
	t.Setenv("TMPDIR", t.TempDir())
	rows, err := open(bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, rows)
	if len(got) != len(in) || got[59999][0] != "59999" || got[123][1] != in[123].Text {
		t.Fatalf("read %d rows, last %q", len(got), got[len(got)-1][0])
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "grocery-import-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := open(bytes.NewReader(data), parquetInMemory+1000); !isFormat(err, "larger than 16 MiB") {
		t.Errorf("over the limit: %v", err)
	}
}

func isFormat(err error, has string) bool {
	var fe *rowfile.FormatError
	return errors.As(err, &fe) && strings.Contains(fe.Reason, has)
}

// patchPage rewrites the first page header of the first column with
// edit, keeping the rest of the file.
func patchPage(t *testing.T, data []byte, edit func(*format.PageHeader)) []byte {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata().RowGroups[0].Columns[0].MetaData
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	budget := 1 << 20
	n, err := skipThrift(data[start:], 0, 0, &budget)
	if err != nil {
		t.Fatal(err)
	}
	var h format.PageHeader
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[start:start+int64(n)], &h); err != nil {
		t.Fatal(err)
	}
	edit(&h)
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:start]...)
	out = append(out, hb...)
	return append(out, data[start+int64(n):]...)
}

// TestOpenParquetBad: files that are not Parquet, damaged ones and ones
// that declare or unpack to more than the limits get a FormatError that
// quotes none of their bytes, before the library allocates what they
// declare.
func TestOpenParquetBad(t *testing.T) {
	type row struct {
		Name string `parquet:"name"`
	}
	var in []row
	for range 5000 {
		in = append(in, row{strings.Repeat("\x01zzzz", 40)})
	}
	good := writeParquet(t, in, parquet.Compression(&zstd.Codec{}))
	footer := func(meta []byte) []byte {
		b := append([]byte("PAR1"), meta...)
		b = bin.LittleEndian.AppendUint32(b, uint32(len(meta)))
		return append(b, "PAR1"...)
	}
	type nested struct {
		Tags []string `parquet:"tags,list"`
	}
	type deep struct {
		Inner struct {
			A string `parquet:"a"`
		} `parquet:"inner"`
	}
	type clock struct {
		T time.Duration `parquet:"t,time(microsecond)"`
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"Short", []byte("PAR1\x00"), "too short"},
		{"NoEnd", append(append([]byte(nil), good[:len(good)-2]...), "\x00\x00"...), "does not start and end with PAR1"},
		{"Encrypted", append([]byte("PAR1"), append(make([]byte, 20), "PARE"...)...), "encrypted"},
		{"FooterTooLong", append(bin.LittleEndian.AppendUint32([]byte("PAR1\x00\x00\x00\x00"), 1<<30), "PAR1"...), "footer is larger than 16 MiB"},
		// FileMetaData whose field 4 (row_groups) declares 2^30 structs.
		{"ListBomb", footer([]byte{0x15, 0x02, 0x19, 0x1c, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x04, 0x00}), "footer is damaged"},
		// A struct nested 100 deep.
		{"DeepFooter", footer(append(bytes.Repeat([]byte{0x1c}, 100), bytes.Repeat([]byte{0x00}, 101)...)), "footer is damaged"},
		{"PageDeclaresTooMuch", patchPage(t, good, func(h *format.PageHeader) { h.UncompressedPageSize = MaxPage + 1 }), "unpacks to more than 64 MiB"},
		{"PageUnpacksToMore", patchPage(t, good, func(h *format.PageHeader) { h.UncompressedPageSize /= 4 }), "unpacks to more than its header says"},
		{"PagePastColumn", patchPage(t, good, func(h *format.PageHeader) { h.CompressedPageSize = 1 << 30 }), "larger than its column"},
		{"TooManyValues", patchPage(t, good, func(h *format.PageHeader) {
			if h.DataPageHeaderV2.Valid {
				h.DataPageHeaderV2.V.NumValues = MaxPageValues + 1
			} else {
				h.DictionaryPageHeader.V.NumValues = MaxPageValues + 1
			}
		}), "more than 4194304 values"},
		{"Nested", writeParquet(t, []nested{{[]string{"a"}}}), "nested"},
		{"Group", writeParquet(t, []deep{{}}), "nested"},
		{"Time", writeParquet(t, []clock{{time.Second}}), "column t is a TIME of day"},
		{"Brotli", writeParquet(t, in[:10], parquet.Compression(&parquet.Brotli)), "column name is compressed with BROTLI"},
		{"BinaryName", binaryNamed(t), "a column whose name is not printable text"},
		{"BinaryNameBrotli", binaryNamed(t, parquet.Compression(&parquet.Brotli)), "file's a column is compressed with BROTLI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := open(bytes.NewReader(tc.data), MaxSize)
			if err == nil {
				_, _, err = rows.Next()
				rows.Close()
			}
			if !isFormat(err, tc.want) {
				t.Fatalf("got %v, want a FormatError saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "zzzz") || strings.ContainsAny(err.Error(), "\x00\x01") {
				t.Errorf("the message quotes the file: %q", err)
			}
		})
	}
}

// binaryNamed is a Parquet file of one column named with control bytes.
func binaryNamed(t *testing.T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	schema := parquet.NewSchema("x", parquet.Group{"\x01zzzz\x00": parquet.String()})
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, append(opts, schema)...)
	if _, err := w.WriteRows([]parquet.Row{{parquet.ByteArrayValue([]byte("v")).Level(0, 0, 0)}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestOpenParquetStrings reads a file of string columns only, nulls as
// empty fields.
func TestOpenParquetStrings(t *testing.T) {
	type row struct {
		Date  string  `parquet:"date"`
		Price *string `parquet:"price,optional"`
	}
	p := "4,99"
	data := writeParquet(t, []row{{"2026-11-19", &p}, {"2026-11-18", nil}})
	rows, err := open(bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := [][]string{{"2026-11-19", "4,99"}, {"2026-11-18", ""}}
	if diff := cmp.Diff(want, readAll(t, rows)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
