package parquet

import (
	"bytes"
	"compress/gzip"
	bin "encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/grocerydata/grocery/internal/extsort"
	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// MaxSize is the largest Parquet file an import reads, in bytes. A
// Parquet file is read from its end (its footer says where the columns
// are), so one of more than parquetInMemory bytes is copied to a
// temporary file first, removed when its rows are closed.
const MaxSize = 1 << 30

// The limits on what a Parquet file declares, checked before the Parquet
// library reads it (a few bytes can declare gigabytes: a list of two
// billion row groups, a page that unpacks to 2 GiB):
//
//   - MaxFooter: the footer (the file's metadata);
//   - MaxColumns: the columns, none nested;
//   - MaxPage: what one page unpacks to, as declared and as
//     unpacked (the reader holds one page of each column at a time);
//   - MaxPageValues: the values of one page;
//   - MaxUnpacked: all the pages together.
const (
	MaxFooter     = 16 << 20
	MaxColumns    = 64
	MaxPage       = 64 << 20
	MaxPageValues = 4 << 20
	MaxUnpacked   = 4 << 30
)

// parquetInMemory is the largest Parquet file read in memory.
const parquetInMemory = 16 << 20

// parquetMetaBudget bounds what the decoded footer takes in memory: each
// list element is counted as the largest struct it may decode to.
const parquetMetaBudget = 256 << 20

const notParquet = "not a readable Parquet file: "

// open reads a Parquet file from r (to its end, at most limit
// bytes) and returns its rows, a row per record and a column per field of
// the file's flat schema, the header being the columns' names (a pandas
// index column, __index_level_0__, is left out). Values are read as text,
// as a CSV file would write them: strings as they are, integers in
// decimal, DECIMAL exactly (4.99, trailing zeros dropped), floating point
// numbers in their shortest form, booleans true or false, DATE as
// YYYY-MM-DD, a TIMESTAMP at midnight UTC as its date and any other as
// RFC 3339, null as an empty field.
//
// It returns a *FormatError for input that is not a Parquet file, one of
// more than limit bytes or past the limits above, an encrypted one, one
// with nested, repeated or other columns it does not read (TIME, INTERVAL,
// binary), and io.EOF for a file without a column. Next returns a
// *FormatError for a page that cannot be read.
func open(r io.Reader, limit int64) (rows *rowfile.Rows, err error) {
	data, file, size, err := spool(r, limit)
	if err != nil {
		return nil, err
	}
	var ra io.ReaderAt
	cleanup := func() {}
	if file != nil {
		ra = file
		cleanup = func() { file.Close(); os.Remove(file.Name()) }
	} else {
		ra = bytes.NewReader(data)
	}
	defer func() {
		if err != nil {
			cleanup()
		}
	}()
	// The library may panic on malformed input the checks below miss.
	defer func() {
		if v := recover(); v != nil {
			rows, err = nil, &rowfile.FormatError{Reason: notParquet + "its structure is damaged"}
		}
	}()
	meta, err := checkParquet(ra, size)
	if err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(64<<10))
	if err != nil {
		return nil, &rowfile.FormatError{Reason: notParquet + "its footer cannot be read"}
	}
	cols, err := parquetColumns(meta)
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, io.EOF
	}
	var (
		header []string
		ints   []string
		keep   []int // the file's column index of each header column
	)
	for i, c := range cols {
		if pandasIndex.MatchString(c.name) {
			continue
		}
		header = append(header, c.name)
		keep = append(keep, i)
		if c.integer {
			ints = append(ints, c.name)
		}
	}
	var (
		groups = f.RowGroups()
		gi     = -1
		cur    parquet.Rows
		buf    = make([]parquet.Row, 1)
		rec    = make([]string, len(keep))
		cells  = make([]string, len(cols))
		n      = 0
		text   []byte
		// The most rows read, whatever the footer and pages declared.
		maxRows = int(min(rowfile.MaxRows, size*rowfile.MaxRowsPerByte))
	)
	next := func() (_ []string, _ int, err error) {
		defer func() {
			if v := recover(); v != nil {
				err = &rowfile.FormatError{Reason: fmt.Sprintf("row %d of the Parquet file cannot be read: its structure is damaged", n+1)}
			}
		}()
		for {
			if cur == nil {
				if gi+1 >= len(groups) {
					return nil, n, io.EOF
				}
				gi++
				cur = groups[gi].Rows()
			}
			k, err := cur.ReadRows(buf)
			if k == 0 {
				cur.Close()
				cur = nil
				if err != nil && err != io.EOF {
					return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("row %d of the Parquet file cannot be read: %s", n+1, readError(err))}
				}
				continue
			}
			n++
			if n > maxRows {
				return nil, n, rowfile.CheckRows(rowfile.Parquet, int64(n), size)
			}
			for i := range cells {
				cells[i] = ""
			}
			total := 0
			for _, v := range buf[0] {
				c := v.Column()
				if c < 0 || c >= len(cols) || v.IsNull() {
					continue
				}
				text = cols[c].text(text[:0], v)
				if total += len(text); total > rowfile.MaxRecord {
					return nil, n, &rowfile.FormatError{Reason: fmt.Sprintf("row %d: a row longer than %d KiB, where no field is longer than a few hundred characters: the file is not a data file of this kind (the import stops here)", n, rowfile.MaxRecord>>10)}
				}
				cells[c] = string(text)
			}
			for i, c := range keep {
				rec[i] = cells[c]
			}
			return rec, n, nil
		}
	}
	rows = rowfile.NewRows(rowfile.Parquet, next, func() error { cleanup(); return nil })
	rows.SetHeader(header, 0)
	for _, name := range ints {
		rows.SetIntegerColumn(name)
	}
	return rows, nil
}

// readError describes an error of the Parquet library without quoting
// the file's bytes.
func readError(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the file ends inside a page"
	}
	return "a page is damaged"
}

// pandasIndex is the name pandas gives a DataFrame's index when it writes
// it as a column.
var pandasIndex = regexp.MustCompile(`^__index_level_\d+__$`)

// spool reads r whole: in memory up to parquetInMemory bytes, else into a
// temporary file.
func spool(r io.Reader, limit int64) (data []byte, file *os.File, size int64, err error) {
	tooLarge := &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file is larger than %d MiB: split it", limit>>20)}
	lr := &rowfile.LimitReader{R: r, Left: limit}
	data, err = io.ReadAll(io.LimitReader(lr, parquetInMemory+1))
	switch {
	case lr.Err != nil:
		return nil, nil, 0, lr.Err
	case lr.Over:
		return nil, nil, 0, tooLarge
	case err != nil:
		return nil, nil, 0, err
	case len(data) <= parquetInMemory:
		return data, nil, int64(len(data)), nil
	}
	file, err = extsort.TempFile() // removed at the next start if this import is killed

	if err != nil {
		return nil, nil, 0, err
	}
	fail := func(err error) ([]byte, *os.File, int64, error) {
		file.Close()
		os.Remove(file.Name())
		return nil, nil, 0, err
	}
	if _, err := file.Write(data); err != nil {
		return fail(err)
	}
	n, err := io.Copy(file, lr)
	switch {
	case lr.Err != nil:
		return fail(lr.Err)
	case lr.Over:
		return fail(tooLarge)
	case err != nil:
		return fail(err)
	}
	return nil, file, int64(len(data)) + n, nil
}

// checkParquet checks the file's magic, its footer and every page's
// declared and unpacked size, and returns the footer.
func checkParquet(ra io.ReaderAt, size int64) (*format.FileMetaData, error) {
	var head, tail [8]byte
	if size < 12 {
		return nil, &rowfile.FormatError{Reason: notParquet + "it is too short"}
	}
	if _, err := ra.ReadAt(head[:4], 0); err != nil {
		return nil, err
	}
	if _, err := ra.ReadAt(tail[:], size-8); err != nil {
		return nil, err
	}
	if string(head[:4]) == "PARE" || string(tail[4:]) == "PARE" {
		return nil, &rowfile.FormatError{Reason: "the Parquet file is encrypted: write it without encryption"}
	}
	if string(head[:4]) != "PAR1" || string(tail[4:]) != "PAR1" {
		return nil, &rowfile.FormatError{Reason: notParquet + "it does not start and end with PAR1 (the file may be cut short)"}
	}
	footer := int64(bin.LittleEndian.Uint32(tail[:4]))
	if footer > MaxFooter {
		return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file's footer is larger than %d MiB (the most read): split the file", MaxFooter>>20)}
	}
	if footer > size-12 {
		return nil, &rowfile.FormatError{Reason: notParquet + "its footer is longer than the file"}
	}
	fb := make([]byte, footer)
	if _, err := ra.ReadAt(fb, size-8-footer); err != nil {
		return nil, err
	}
	budget := parquetMetaBudget
	end, err := skipThrift(fb, 0, 0, &budget)
	if err != nil || end > len(fb) {
		return nil, &rowfile.FormatError{Reason: notParquet + "its footer is damaged"}
	}
	meta := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), fb[:end], meta); err != nil {
		return nil, &rowfile.FormatError{Reason: notParquet + "its footer is damaged"}
	}
	if len(meta.Schema) > MaxColumns+1 {
		return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file has more than %d columns (the most read)", MaxColumns)}
	}
	// The rows the footer declares, in all and by row group, then (as
	// the pages are walked) those the pages of each column hold.
	declared := meta.NumRows
	var sum int64
	for _, rg := range meta.RowGroups {
		if rg.NumRows < 0 {
			return nil, &rowfile.FormatError{Reason: notParquet + "its footer is damaged"}
		}
		sum += rg.NumRows
		declared = max(declared, sum)
	}
	if err := rowfile.CheckRows(rowfile.Parquet, declared, size); err != nil {
		return nil, err
	}
	var unpacked int64
	pc := &pageCheck{ra: ra, dataEnd: size - 8 - footer, unpacked: &unpacked, seen: map[int64]bool{}}
	values := make([]int64, len(meta.Schema))
	for _, rg := range meta.RowGroups {
		for i, ch := range rg.Columns {
			n, err := pc.chunk(&ch)
			if err != nil {
				return nil, err
			}
			if i < len(values) {
				values[i] += n
				if err := rowfile.CheckRows(rowfile.Parquet, values[i], size); err != nil {
					return nil, err
				}
			}
		}
	}
	return meta, nil
}

// pageCheck walks the pages of column chunks.
type pageCheck struct {
	ra       io.ReaderAt
	dataEnd  int64 // where the footer starts
	unpacked *int64
	seen     map[int64]bool // where each column chunk walked starts
	hdr      []byte
	page     []byte
	out      []byte
}

var errPageTooLarge = errors.New("page too large")

// chunk checks a column chunk's pages and returns the values its data
// pages hold: a row each, in a flat schema.
func (pc *pageCheck) chunk(ch *format.ColumnChunk) (int64, error) {
	md := &ch.MetaData
	if ch.FilePath != "" {
		return 0, &rowfile.FormatError{Reason: "the Parquet file's columns are in other files: write them into one file"}
	}
	if len(ch.EncryptedColumnMetadata) > 0 || ch.CryptoMetadata.Value != nil {
		return 0, &rowfile.FormatError{Reason: "the Parquet file is encrypted: write it without encryption"}
	}
	switch md.Codec {
	case format.Uncompressed, format.Snappy, format.Gzip, format.Zstd, format.Lz4Raw:
	default:
		name := "a column"
		if p := strings.Join(md.PathInSchema, "."); safeName(p) {
			name = "column " + p
		}
		return 0, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file's %s is compressed with %s: write it with snappy, zstd, gzip, lz4_raw or no compression", name, md.Codec)}
	}
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > pc.dataEnd || end < start {
		return 0, &rowfile.FormatError{Reason: notParquet + "a column's pages lie outside the file"}
	}
	if pc.seen[start] {
		return 0, &rowfile.FormatError{Reason: notParquet + "a column's pages are listed more than once (the footer repeats a row group)"}
	}
	pc.seen[start] = true
	damaged := &rowfile.FormatError{Reason: notParquet + "a page header is damaged"}
	var total int64
	for pos := start; pos < end; {
		// A page header is a few dozen bytes, more with statistics.
		w := min(end-pos, 64<<10)
		if int64(cap(pc.hdr)) < w {
			pc.hdr = make([]byte, w)
		}
		hb := pc.hdr[:w]
		if _, err := pc.ra.ReadAt(hb, pos); err != nil {
			return 0, damaged
		}
		budget := 1 << 20
		n, err := skipThrift(hb, 0, 0, &budget)
		if err != nil {
			return 0, damaged
		}
		var h format.PageHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), hb[:n], &h); err != nil {
			return 0, damaged
		}
		pos += int64(n)
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 || int64(h.CompressedPageSize) > end-pos {
			return 0, &rowfile.FormatError{Reason: notParquet + "a page is larger than its column"}
		}
		if h.UncompressedPageSize > MaxPage {
			return 0, &rowfile.FormatError{Reason: fmt.Sprintf("a page of the Parquet file unpacks to more than %d MiB (the most read): write it with smaller pages", MaxPage>>20)}
		}
		if *pc.unpacked += int64(h.UncompressedPageSize); *pc.unpacked > MaxUnpacked {
			return 0, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file unpacks to more than %d GiB (the most read): split it", MaxUnpacked>>30)}
		}
		var values int32
		skip, compressed := int32(0), true
		switch {
		case h.DataPageHeader.Valid:
			values = h.DataPageHeader.V.NumValues
		case h.DataPageHeaderV2.Valid:
			v2 := &h.DataPageHeaderV2.V
			values = v2.NumValues
			skip = v2.RepetitionLevelsByteLength + v2.DefinitionLevelsByteLength
			if v2.RepetitionLevelsByteLength < 0 || v2.DefinitionLevelsByteLength < 0 || skip > h.CompressedPageSize || skip > h.UncompressedPageSize {
				return 0, damaged
			}
			if v, ok := v2.IsCompressed.Get(); ok && !v {
				compressed = false
			}
		case h.DictionaryPageHeader.Valid:
			values = h.DictionaryPageHeader.V.NumValues
		}
		if values < 0 || values > MaxPageValues {
			return 0, &rowfile.FormatError{Reason: fmt.Sprintf("a page of the Parquet file holds more than %d values (the most read): write it with smaller pages", MaxPageValues)}
		}
		if compressed && md.Codec != format.Uncompressed && (h.DataPageHeader.Valid || h.DataPageHeaderV2.Valid || h.DictionaryPageHeader.Valid) {
			if int(h.CompressedPageSize) > cap(pc.page) {
				pc.page = make([]byte, h.CompressedPageSize)
			}
			pb := pc.page[:h.CompressedPageSize]
			if _, err := pc.ra.ReadAt(pb, pos); err != nil {
				return 0, damaged
			}
			want := int(h.UncompressedPageSize - skip)
			err := pc.unpack(md.Codec, pb[skip:], want)
			if err == errPageTooLarge {
				return 0, &rowfile.FormatError{Reason: notParquet + "a page unpacks to more than its header says"}
			}
			if err != nil {
				return 0, &rowfile.FormatError{Reason: notParquet + "a page cannot be unpacked"}
			}
		}
		if h.DataPageHeader.Valid || h.DataPageHeaderV2.Valid {
			total += int64(values)
		}
		pos += int64(h.CompressedPageSize)
	}
	return total, nil
}

// unpack unpacks one page's compressed bytes, at most want bytes, and
// fails with errPageTooLarge when they unpack to more.
func (pc *pageCheck) unpack(codec format.CompressionCodec, src []byte, want int) error {
	var r io.Reader
	switch codec {
	case format.Snappy:
		n, err := snappy.DecodedLen(src)
		if err != nil {
			return err
		}
		if n > want {
			return errPageTooLarge
		}
		if cap(pc.out) < n {
			pc.out = make([]byte, n)
		}
		_, err = snappy.Decode(pc.out[:n], src)
		return err
	case format.Lz4Raw:
		// The library's LZ4 decoder retries with ever larger buffers on
		// any error: a damaged block must not reach it.
		if cap(pc.out) < want {
			pc.out = make([]byte, want)
		}
		_, err := lz4.UncompressBlock(src, pc.out[:want])
		return err
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return err
		}
		r = zr
	case format.Zstd:
		// The output is bounded by the limit below; the decoder's own
		// window by MaxPage (a page's frame declares at most its
		// size, but a streaming writer may declare a larger window).
		zr, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(MaxPage+1<<20), zstd.WithDecoderMaxWindow(MaxPage))
		if err != nil {
			return err
		}
		defer zr.Close()
		r = zr
	default:
		return nil
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, int64(want)+1))
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrFrameSizeExceeded) {
		return errPageTooLarge
	}
	if err != nil {
		return err
	}
	if n > int64(want) {
		return errPageTooLarge
	}
	return nil
}

// Thrift compact protocol types.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

var errThrift = errors.New("malformed thrift")

// skipElem skips one element of a list or map, of compact type et: a
// collection's booleans take a byte each (not the type's nibble), and a
// struct is read to its stop field.
func skipElem(b []byte, pos, et, depth int, budget *int) (int, error) {
	switch et {
	case tTrue, tFalse:
		return skipValue(b, pos, tByte, depth+1, budget)
	case tStruct:
		return skipThrift(b, pos, depth+1, budget)
	}
	return skipValue(b, pos, et, depth+1, budget)
}

// skipThrift walks the Thrift compact struct at b[pos:] and returns where
// it ends. It refuses what would make a decoder allocate past budget
// bytes or recurse deeper than 32 structs: a list or binary longer than
// the bytes left, and list elements beyond the budget, each counted as
// the largest struct of the Parquet format (about 600 bytes).
func skipThrift(b []byte, pos, depth int, budget *int) (int, error) {
	if depth > 32 {
		return 0, errThrift
	}
	for {
		if pos >= len(b) {
			return 0, errThrift
		}
		h := b[pos]
		pos++
		t := int(h & 0x0f)
		if t == tStop {
			return pos, nil
		}
		if h>>4 == 0 { // the field id follows
			var err error
			if _, pos, err = uvarint(b, pos); err != nil {
				return 0, err
			}
		}
		var err error
		if pos, err = skipValue(b, pos, t, depth, budget); err != nil {
			return 0, err
		}
	}
}

func skipValue(b []byte, pos, t, depth int, budget *int) (int, error) {
	switch t {
	case tTrue, tFalse:
		return pos, nil
	case tByte:
		if pos >= len(b) {
			return 0, errThrift
		}
		return pos + 1, nil
	case tI16, tI32, tI64:
		_, pos, err := uvarint(b, pos)
		return pos, err
	case tDouble:
		if pos+8 > len(b) {
			return 0, errThrift
		}
		return pos + 8, nil
	case tUUID:
		if pos+16 > len(b) {
			return 0, errThrift
		}
		return pos + 16, nil
	case tBinary:
		n, pos, err := uvarint(b, pos)
		if err != nil || n > uint64(len(b)-pos) {
			return 0, errThrift
		}
		return pos + int(n), nil
	case tList, tSet:
		if pos >= len(b) {
			return 0, errThrift
		}
		h := b[pos]
		pos++
		n, et := uint64(h>>4), int(h&0x0f)
		if n == 15 {
			var err error
			if n, pos, err = uvarint(b, pos); err != nil {
				return 0, err
			}
		}
		if n > uint64(len(b)-pos) {
			return 0, errThrift
		}
		if *budget -= int(n) * 1024; *budget < 0 {
			return 0, errThrift
		}
		for range n {
			var err error
			if pos, err = skipElem(b, pos, et, depth, budget); err != nil {
				return 0, err
			}
		}
		return pos, nil
	case tMap:
		n, pos, err := uvarint(b, pos)
		if err != nil || n > uint64(len(b)-pos)/2 {
			return 0, errThrift
		}
		if n == 0 {
			return pos, nil
		}
		if pos >= len(b) {
			return 0, errThrift
		}
		kt, vt := int(b[pos]>>4), int(b[pos]&0x0f)
		pos++
		if *budget -= int(n) * 1024; *budget < 0 {
			return 0, errThrift
		}
		for range n {
			for _, et := range [2]int{kt, vt} {
				if pos, err = skipElem(b, pos, et, depth, budget); err != nil {
					return 0, err
				}
			}
		}
		return pos, nil
	case tStruct:
		return skipThrift(b, pos, depth+1, budget)
	}
	return 0, errThrift
}

func uvarint(b []byte, pos int) (uint64, int, error) {
	if pos >= len(b) {
		return 0, 0, errThrift
	}
	v, n := bin.Uvarint(b[pos:])
	if n <= 0 {
		return 0, 0, errThrift
	}
	return v, pos + n, nil
}

// parquetColumn is one column of a flat Parquet schema and how its values
// read as text.
type parquetColumn struct {
	name    string
	text    func(b []byte, v parquet.Value) []byte
	integer bool // a plain INT32 or INT64
}

// parquetColumns returns the columns of a flat schema: a root group of
// leaves, none repeated.
func parquetColumns(meta *format.FileMetaData) ([]parquetColumn, error) {
	if len(meta.Schema) == 0 {
		return nil, &rowfile.FormatError{Reason: notParquet + "it has no schema"}
	}
	root := meta.Schema[0]
	if n, _ := root.NumChildren.Get(); int(n) != len(meta.Schema)-1 {
		return nil, &rowfile.FormatError{Reason: "the Parquet file has nested columns (groups, lists or maps): want a flat table of text, numbers, dates and booleans"}
	}
	var cols []parquetColumn
	for _, el := range meta.Schema[1:] {
		name := el.Name
		if !safeName(name) {
			return nil, &rowfile.FormatError{Reason: "the Parquet file has a column whose name is not printable text"}
		}
		if n, ok := el.NumChildren.Get(); ok && n > 0 || !el.Type.Valid {
			return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file's column %s is nested (a group, list or map): want a flat table of text, numbers, dates and booleans", name)}
		}
		if rt, _ := el.RepetitionType.Get(); rt == format.Repeated {
			return nil, &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file's column %s is repeated (a list): want one value per row", name)}
		}
		fn, err := textOf(&el)
		if err != nil {
			return nil, err
		}
		integer := false
		if t := el.Type.V; (t == format.Int32 || t == format.Int64) && el.LogicalType.Value == nil && !el.ConvertedType.Valid {
			integer = true
		} else if it, ok := el.LogicalType.Value.(*format.IntType); ok && it != nil {
			integer = true
		}
		cols = append(cols, parquetColumn{name: name, text: fn, integer: integer})
	}
	return cols, nil
}

// safeName reports whether a column name is printable UTF-8 text of at
// most 256 bytes, fit to quote in a message.
func safeName(s string) bool {
	if len(s) > 256 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// textOf returns how a column's values read as text.
func textOf(el *format.SchemaElement) (func([]byte, parquet.Value) []byte, error) {
	name := el.Name
	typ := el.Type.V
	lt := el.LogicalType.Value
	ct, hasCT := el.ConvertedType.Get()
	unsupported := func(what string) error {
		return &rowfile.FormatError{Reason: fmt.Sprintf("the Parquet file's column %s is %s: want text, numbers, dates, timestamps or booleans", name, what)}
	}
	// DECIMAL, on any physical type.
	scale := -1
	if d, ok := lt.(*format.DecimalType); ok {
		scale = int(d.Scale)
	} else if hasCT && ct == deprecated.Decimal {
		s, _ := el.Scale.Get()
		scale = int(s)
	}
	if scale > 38 {
		return nil, unsupported("a DECIMAL of scale over 38")
	}
	if scale >= 0 {
		switch typ {
		case format.Int32:
			return func(b []byte, v parquet.Value) []byte { return appendDecimal(b, big.NewInt(int64(v.Int32())), scale) }, nil
		case format.Int64:
			return func(b []byte, v parquet.Value) []byte { return appendDecimal(b, big.NewInt(v.Int64()), scale) }, nil
		case format.ByteArray, format.FixedLenByteArray:
			return func(b []byte, v parquet.Value) []byte {
				raw := v.ByteArray()
				if len(raw) > 64 {
					return append(b, "(a DECIMAL too long)"...)
				}
				n := new(big.Int).SetBytes(raw)
				if len(raw) > 0 && raw[0]&0x80 != 0 { // two's complement
					n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(raw))))
				}
				return appendDecimal(b, n, scale)
			}, nil
		}
		return nil, unsupported("a DECIMAL of an unknown type")
	}
	switch typ {
	case format.Boolean:
		return func(b []byte, v parquet.Value) []byte { return strconv.AppendBool(b, v.Boolean()) }, nil
	case format.Int32:
		switch l := lt.(type) {
		case *format.DateType:
			return appendParquetDate, nil
		case *format.IntType:
			if !l.IsSigned {
				return func(b []byte, v parquet.Value) []byte { return strconv.AppendUint(b, uint64(uint32(v.Int32())), 10) }, nil
			}
		case *format.TimeType:
			return nil, unsupported("a TIME of day")
		case nil:
			if hasCT {
				switch ct {
				case deprecated.Date:
					return appendParquetDate, nil
				case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32:
					return func(b []byte, v parquet.Value) []byte { return strconv.AppendUint(b, uint64(uint32(v.Int32())), 10) }, nil
				case deprecated.TimeMillis:
					return nil, unsupported("a TIME of day")
				}
			}
		}
		return func(b []byte, v parquet.Value) []byte { return strconv.AppendInt(b, int64(v.Int32()), 10) }, nil
	case format.Int64:
		unit := time.Duration(0)
		switch l := lt.(type) {
		case *format.TimestampType:
			if l.Unit.Value != nil {
				unit = l.Unit.Value.Duration()
			}
		case *format.IntType:
			if !l.IsSigned {
				return func(b []byte, v parquet.Value) []byte { return strconv.AppendUint(b, uint64(v.Int64()), 10) }, nil
			}
		case *format.TimeType:
			return nil, unsupported("a TIME of day")
		case nil:
			switch {
			case hasCT && ct == deprecated.TimestampMillis:
				unit = time.Millisecond
			case hasCT && ct == deprecated.TimestampMicros:
				unit = time.Microsecond
			case hasCT && ct == deprecated.Uint64:
				return func(b []byte, v parquet.Value) []byte { return strconv.AppendUint(b, uint64(v.Int64()), 10) }, nil
			case hasCT && ct == deprecated.TimeMicros:
				return nil, unsupported("a TIME of day")
			}
		}
		if unit > 0 {
			return func(b []byte, v parquet.Value) []byte {
				n := v.Int64()
				per := int64(time.Second / unit)
				return appendTimestamp(b, floorDiv(n, per), floorMod(n, per)*int64(unit))
			}, nil
		}
		return func(b []byte, v parquet.Value) []byte { return strconv.AppendInt(b, v.Int64(), 10) }, nil
	case format.Int96:
		// The legacy timestamp of Spark and Impala: nanoseconds of the day,
		// then the Julian day.
		return func(b []byte, v parquet.Value) []byte {
			i := v.Int96()
			nanos := int64(i[1])<<32 | int64(i[0])
			days := int64(int32(i[2])) - 2440588 // the Julian day of 1970-01-01
			return appendTimestamp(b, days*86400+floorDiv(nanos, 1e9), floorMod(nanos, 1e9))
		}, nil
	case format.Float:
		return func(b []byte, v parquet.Value) []byte { return strconv.AppendFloat(b, float64(v.Float()), 'f', -1, 32) }, nil
	case format.Double:
		return func(b []byte, v parquet.Value) []byte { return strconv.AppendFloat(b, v.Double(), 'f', -1, 64) }, nil
	case format.ByteArray:
		switch lt.(type) {
		case nil, *format.StringType, *format.EnumType, *format.JsonType:
			return func(b []byte, v parquet.Value) []byte { return append(b, v.ByteArray()...) }, nil
		}
		return nil, unsupported("binary (" + lt.String() + ")")
	case format.FixedLenByteArray:
		return nil, unsupported("fixed-length binary")
	}
	return nil, unsupported("of an unknown type")
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// appendParquetDate appends a DATE (days since 1970-01-01) as YYYY-MM-DD.
func appendParquetDate(b []byte, v parquet.Value) []byte {
	return time.Unix(int64(v.Int32())*86400, 0).UTC().AppendFormat(b, time.DateOnly)
}

// appendTimestamp appends a time as its date when it is midnight UTC,
// else in RFC 3339.
func appendTimestamp(b []byte, sec, nsec int64) []byte {
	t := time.Unix(sec, nsec).UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.AppendFormat(b, time.DateOnly)
	}
	return t.AppendFormat(b, time.RFC3339Nano)
}

// appendDecimal appends n scaled down by 10^scale, exactly, without
// trailing zeros after the point: 499, 2 -> 4.99; 500, 2 -> 5.
func appendDecimal(b []byte, n *big.Int, scale int) []byte {
	s := n.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if neg {
		b = append(b, '-')
	}
	if scale == 0 {
		return append(b, s...)
	}
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	whole, frac := s[:len(s)-scale], strings.TrimRight(s[len(s)-scale:], "0")
	b = append(b, whole...)
	if frac != "" {
		b = append(append(b, '.'), frac...)
	}
	return b
}
