package sqlitefile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture returns the bytes of testdata/name (made by testdata/make.sh),
// unzipping name.gz where the file is kept gzipped.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	path := filepath.Join("testdata", name)
	if b, err := os.ReadFile(path); err == nil {
		return b
	}
	f, err := os.Open(path + ".gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func open(t testing.TB, b []byte) *DB {
	t.Helper()
	db, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func table(t testing.TB, db *DB, name string) *Table {
	t.Helper()
	tb, err := db.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// row is a row as a test writes it: the rowid and each value as
// "kind:text".
type row struct {
	rowid int64
	vals  []string
}

func (r row) String() string { return fmt.Sprintf("%d %q", r.rowid, r.vals) }

func show(v Value) string { return v.Kind.String() + ":" + v.String() }

// readAll reads every row of table name.
func readAll(t testing.TB, db *DB, name string) ([]row, error) {
	t.Helper()
	rows := db.Rows(table(t, db, name))
	var out []row
	for rows.Next() {
		r := row{rowid: rows.RowID()}
		for _, v := range rows.Values() {
			r.vals = append(r.vals, show(v))
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func checkRows(t *testing.T, db *DB, name string, want []row) {
	t.Helper()
	got, err := readAll(t, db, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("table %s: %d rows, want %d", name, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i].String() != want[i].String() {
			t.Errorf("table %s row %d:\n got %s\nwant %s", name, i, got[i], want[i])
		}
	}
}

// TestTypes reads every storage class and integer size, a text and a
// blob spilling to overflow pages, and the columns' types as SQLite
// stores them in a table with an INTEGER PRIMARY KEY on 512-byte pages.
func TestTypes(t *testing.T) {
	db := open(t, fixture(t, "types.sqlite"))
	if db.PageSize() != 512 {
		t.Errorf("page size %d, want 512", db.PageSize())
	}
	n := func(id int64, i string) row {
		return row{id, []string{fmt.Sprintf("integer:%d", id), "integer:" + i, "null:", "null:", "null:"}}
	}
	want := []row{
		{1, []string{"integer:1", "null:", "null:", "null:", "null:"}},
		{2, []string{"integer:2", "integer:0", "real:0", "text:", "blob:"}},
		{3, []string{"integer:3", "integer:1", "real:4.99", `text:héllo, "world"`, "blob:\x00\xff"}},
		{4, []string{"integer:4", "integer:-1", "real:-0.5", "text:4.99", "blob:\x01"}},
		{5, []string{"integer:5", "integer:127", "real:1000000000000000000000", "text:a\nb", "null:"}},
		{6, []string{"integer:6", "integer:-128", "real:6", "null:", "null:"}},
		{7, []string{"integer:7", "integer:32767", "real:0.00000015", "null:", "null:"}},
		n(8, "-32768"), n(9, "8388607"), n(10, "-8388608"), n(11, "2147483647"), n(12, "-2147483648"),
		n(13, "140737488355327"), n(14, "-140737488355328"), n(15, "9223372036854775807"), n(16, "-9223372036854775808"),
		{17, []string{"integer:17", "real:2.5", "text:text in a REAL column", "text:42", "text:text in a BLOB column"}},
		{18, []string{"integer:18", "null:", "null:", "text:" + strings.Repeat("a", 470), "null:"}},
		{19, []string{"integer:19", "null:", "null:", "text:" + strings.Repeat("b", 471), "null:"}},
		{20, []string{"integer:20", "null:", "null:", "text:" + strings.Repeat("c", 640), "null:"}},
		{21, []string{"integer:21", "null:", "null:", "text:" + strings.Repeat("d", 978), "null:"}},
		{9000000000, []string{"integer:9000000000", "text:long", "null:", "text:" + strings.Repeat("x", 2000) + "end", "blob:" + strings.Repeat("\x00", 700)}},
	}
	checkRows(t, db, "t", want)
	// The part of each payload on the page: all of it up to U-35 (477
	// bytes), then K = M+(P-M)%(U-4) when that is at most U-35, else M
	// (M = (U-12)*32/255-23 = 39).
	for _, tc := range []struct {
		rowid       int64
		size, local int
	}{{18, 477, 477}, {19, 478, 39}, {20, 647, 39 + (647-39)%508}, {21, 985, 477}, {9000000000, 2715, 39 + (2715-39)%508}} {
		cell, rec, overflow, _ := cellAt(t, fixture(t, "types.sqlite"), "t", tc.rowid)
		size, _ := uvarint(fixture(t, "types.sqlite")[cell:])
		local := overflow - rec
		if overflow < 0 {
			local = int(size)
		}
		if int(size) != tc.size || local != tc.local {
			t.Errorf("rowid %d: a payload of %d bytes, %d on the page, want %d, %d", tc.rowid, size, local, tc.size, tc.local)
		}
	}
}

// TestSchema lists the tables (not the index, nor the view), parses their
// columns from quoted names and types, and reads generated columns, an
// INTEGER PRIMARY KEY declared as a table constraint, one declared DESC
// (not the rowid, by SQLite's quirk) and a column added by ALTER TABLE.
func TestSchema(t *testing.T) {
	db := open(t, fixture(t, "types.sqlite"))
	tables, err := db.Tables()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	if got, want := strings.Join(names, "|"), `t|Odd "Name"|desc_pk|alt|wr`; got != want {
		t.Errorf("tables %s, want %s", got, want)
	}
	odd := table(t, db, `odd "name"`)
	want := []Column{
		{Name: "first col", Type: "VARCHAR(10)"}, {Name: "second", Type: "INTEGER"}, {Name: "third"},
		{Name: "Key", Type: "INTEGER", RowID: true}, {Name: "fourth", Type: "INT", Virtual: true}, {Name: "fifth", Type: "TEXT"},
	}
	if got := fmt.Sprintf("%+v", odd.Columns); got != fmt.Sprintf("%+v", want) {
		t.Errorf("columns:\n got %s\nwant %+v", got, want)
	}
	checkRows(t, db, `Odd "Name"`, []row{
		{-5, []string{"text:a", "integer:1", "text:z", "integer:-5", "null:", "text:A"}},
		{7, []string{"text:b", "integer:2", "null:", "integer:7", "null:", "text:B"}},
	})
	checkRows(t, db, "desc_pk", []row{{1, []string{"integer:3", "text:three"}}})
	// The DEFAULT of a column added later is not applied (see the doc).
	checkRows(t, db, "alt", []row{{1, []string{"integer:1", "null:"}}, {2, []string{"integer:2", "integer:3"}}})
	if _, err := readAll(t, db, "wr"); err == nil || !strings.Contains(err.Error(), "table wr is WITHOUT ROWID") {
		t.Errorf("WITHOUT ROWID table: got %v, want it refused by name", err)
	}
	if _, err := db.Table("nope"); err == nil || !strings.Contains(err.Error(), `no table nope: the database has t, Odd "Name", desc_pk, alt, wr`) {
		t.Errorf("got %v, want the tables listed", err)
	}
}

// The rows of big (testdata/make.sh): k INTEGER PRIMARY KEY, v, s.
const bigN = 8000

func bigKey(i int64) int64   { return i * 1000000007 }
func bigValue(i int64) int64 { return (i*7919)%100003 - 50000 }
func bigText(i int64) string { return fmt.Sprintf("%0*d", 100+i%50, i) }

// depth returns the levels of the b-tree rooted at root, down its
// left-most path.
func depth(t *testing.T, db *DB, root uint32) int {
	levels := 1
	for no := root; ; levels++ {
		p, err := db.loadTablePage(no, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.leaf {
			return levels
		}
		if no, err = p.child(0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBig reads a table of 8000 rows in a b-tree of four levels, every
// row as the formula that wrote it.
func TestBig(t *testing.T) {
	db := open(t, fixture(t, "big.sqlite"))
	tb := table(t, db, "big")
	if d := depth(t, db, tb.RootPage); d != 4 {
		t.Errorf("the fixture's b-tree has %d levels, want 4", d)
	}
	rows := db.Rows(tb)
	var i int64
	for rows.Next() {
		i++
		v := rows.Values()
		if rows.RowID() != bigKey(i) || v[0].Int != bigKey(i) || v[1].Int != bigValue(i) || string(v[2].Bytes) != bigText(i) {
			t.Fatalf("row %d: rowid %d, values %v %v %q, want %d %d %q", i, rows.RowID(), v[0].Int, v[1].Int, v[2].Bytes, bigKey(i), bigValue(i), bigText(i))
		}
	}
	if err := rows.Err(); err != nil || i != bigN {
		t.Errorf("%d rows (%v), want %d", i, err, bigN)
	}
}

// TestPageSizes reads 65536-byte pages (the header's 1) with a text over
// overflow pages, and 1024-byte pages with 32 reserved bytes each, whose
// usable size sets where a payload spills.
func TestPageSizes(t *testing.T) {
	db := open(t, fixture(t, "page64k.sqlite"))
	if db.PageSize() != 65536 {
		t.Errorf("page size %d, want 65536", db.PageSize())
	}
	checkRows(t, db, "t", []row{{1, []string{"integer:1", "text:" + strings.Repeat("y", 150000)}}, {2, []string{"integer:2", "text:short"}}})

	db = open(t, fixture(t, "reserved.sqlite"))
	if db.PageSize() != 1024 || db.usable != 992 {
		t.Errorf("page size %d, usable %d, want 1024, 992", db.PageSize(), db.usable)
	}
	var want []row
	for i := 1; i <= 300; i++ {
		want = append(want, row{int64(i), []string{fmt.Sprintf("integer:%d", i), fmt.Sprintf("text:row %d", i)}})
	}
	want = append(want, row{301, []string{"integer:301", "text:" + strings.Repeat("z", 3000)}})
	checkRows(t, db, "r", want)
}

// TestTiny reads the fuzzer's smallest seed.
func TestTiny(t *testing.T) {
	db := open(t, fixture(t, "tiny.sqlite"))
	checkRows(t, db, "t", []row{
		{1, []string{"integer:1", "null:"}}, {2, []string{"integer:2", "integer:-300"}}, {3, []string{"integer:3", "real:2.5"}},
		{4, []string{"integer:4", "text:text"}}, {5, []string{"integer:5", "blob:\xbe\xef"}},
	})
}

// TestEncodingsAndWAL reads a UTF-16le database's names and text as UTF-8
// and a WAL-mode database's main file.
func TestEncodingsAndWAL(t *testing.T) {
	db := open(t, fixture(t, "utf16.sqlite"))
	checkRows(t, db, "TËXT", []row{ // names match as EqualFold does
		{1, []string{"text:héllo wörld", "integer:1"}}, {2, []string{"text:日本語", "integer:2"}}, {3, []string{"text:𝄞 clef", "integer:3"}},
	})
	db = open(t, fixture(t, "wal.sqlite"))
	checkRows(t, db, "w", []row{{1, []string{"text:in the main file"}}})
}

func TestValueText(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{Value{}, ""}, {Value{Kind: Integer, Int: -42}, "-42"}, {Value{Kind: Real, Float: 4.99}, "4.99"},
		{Value{Kind: Real, Float: 1e21}, "1000000000000000000000"}, {Value{Kind: Real, Float: 2}, "2"},
		{Value{Kind: Text, Bytes: []byte("a,b")}, "a,b"}, {Value{Kind: Blob, Bytes: []byte{0, 1}}, "\x00\x01"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestUvarint(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		v    uint64
		n    int
		name string
	}{
		{[]byte{0x05}, 5, 1, "one byte"},
		{[]byte{0x81, 0x00}, 128, 2, "two bytes"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, 9, "nine bytes, the last of 8 bits"},
		{[]byte{0x81}, 0, 0, "truncated"},
		{nil, 0, 0, "empty"},
	} {
		if v, n := uvarint(tc.b); v != tc.v || n != tc.n {
			t.Errorf("%s: got %d, %d, want %d, %d", tc.name, v, n, tc.v, tc.n)
		}
	}
}

// cellAt returns the absolute offsets in b of the cell of rowid in
// table name, of its payload's record, and of its first overflow page's
// number (-1 when none), with the page size.
func cellAt(t *testing.T, b []byte, name string, rowid int64) (cell, record, overflow int, pageSize int) {
	t.Helper()
	db := open(t, b)
	rows := db.Rows(table(t, db, name))
	for rows.Next() {
		if rows.RowID() != rowid {
			continue
		}
		f := rows.stack[len(rows.stack)-1]
		off, err := f.p.cell(f.i - 1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := db.leafCell(&f.p, f.i-1)
		if err != nil {
			t.Fatal(err)
		}
		base := int(f.p.no-1) * db.pageSize
		_, n := uvarint(f.p.data[off:])
		_, m := uvarint(f.p.data[off+n:])
		overflow = -1
		if c.overflow != 0 {
			overflow = base + off + n + m + len(c.local)
		}
		return base + off, base + off + n + m, overflow, db.pageSize
	}
	t.Fatalf("no rowid %d in %s (%v)", rowid, name, rows.Err())
	return 0, 0, 0, 0
}

// interior returns the absolute offset in b of the page number of child i
// of page no (an interior page; i == its cells for the right-most child),
// and the page number there.
func interior(t *testing.T, b []byte, no uint32, i int) (int, uint32) {
	t.Helper()
	db := open(t, b)
	p, err := db.loadTablePage(no, nil)
	if err != nil || p.leaf {
		t.Fatalf("page %d: %v, leaf %v: want an interior page", no, err, p.leaf)
	}
	child, err := p.child(i)
	if err != nil {
		t.Fatal(err)
	}
	off := p.ptrs - 4 // the right-most child, in the page's header
	if i < p.cells {
		off, _ = p.cell(i)
	}
	return int(no-1)*db.pageSize + off, child
}

func be16(b []byte, v uint16) { b[0], b[1] = byte(v>>8), byte(v) }
func be32(b []byte, v uint32) { b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v) }

// readEverything opens b and reads every table, returning the first error.
func readEverything(b []byte) error {
	db, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	tables, err := db.Tables()
	if err != nil {
		return err
	}
	for _, tb := range tables {
		if tb.WithoutRowID {
			continue
		}
		rows := db.Rows(tb)
		for rows.Next() {
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// TestCorrupt reads files broken one way each and wants each refused with
// the error naming what is wrong, never a panic.
func TestCorrupt(t *testing.T) {
	types := fixture(t, "types.sqlite")
	cell, _, ovf, ps := cellAt(t, types, "t", 9000000000)
	_, rec3, _, _ := cellAt(t, types, "t", 3)
	leaf := cell / ps * ps // the page of rowid 9000000000, a leaf
	firstOverflow := func(b []byte) int {
		return (int(b[ovf])<<24 | int(b[ovf+1])<<16 | int(b[ovf+2])<<8 | int(b[ovf+3]) - 1) * ps
	}
	big := fixture(t, "big.sqlite")
	root := table(t, open(t, big), "big").RootPage
	root0, level2 := interior(t, big, root, 0)
	rootRight, _ := interior(t, big, root, 1)
	level2cell0, _ := interior(t, big, level2, 0)
	// The record of rowid 3: header size 6, then the serial types of id
	// (0, the rowid), i (9: the constant 1), r (7: a real), s (43: 15
	// bytes of text) and b (16: 2 bytes of blob).
	if got := types[rec3 : rec3+6]; !bytes.Equal(got, []byte{6, 0, 9, 7, 43, 16}) {
		t.Fatalf("rowid 3's record header is % x: the fixture changed", got)
	}
	for _, tc := range []struct {
		name   string
		file   []byte
		break_ func(b []byte) []byte
		is     error
		want   string
	}{
		{"magic", types, func(b []byte) []byte { b[0] = 'X'; return b }, ErrNotSQLite, "does not start with"},
		{"short", types, func(b []byte) []byte { return b[:60] }, ErrNotSQLite, "shorter than the 100-byte header"},
		{"page size not a power of two", types, func(b []byte) []byte { be16(b[16:], 1000); return b }, ErrCorrupt, "page size 1000"},
		{"page size too small", types, func(b []byte) []byte { be16(b[16:], 256); return b }, ErrCorrupt, "page size 256"},
		{"reserved bytes", types, func(b []byte) []byte { b[20] = 40; return b }, ErrCorrupt, "leave 472 usable"},
		{"read version", types, func(b []byte) []byte { b[19] = 3; return b }, ErrCorrupt, "read version 3"},
		{"payload fraction", types, func(b []byte) []byte { b[21] = 65; return b }, ErrCorrupt, "payload fractions 65"},
		{"text encoding", types, func(b []byte) []byte { be32(b[56:], 4); return b }, ErrCorrupt, "text encoding 4"},
		{"truncated", types, func(b []byte) []byte { return b[:len(b)-ps] }, ErrCorrupt, "truncated"},
		{"overflow page beyond the file", types, func(b []byte) []byte { be32(b[ovf:], 0xffff); return b }, ErrCorrupt, "page 65535 is beyond the database's"},
		{"overflow cycle", types, func(b []byte) []byte {
			o := firstOverflow(b)
			be32(b[o:], uint32(o/ps+1))
			return b
		}, ErrCorrupt, "past the payload's 2715 bytes (5 pages)"},
		{"overflow chain short", types, func(b []byte) []byte { be32(b[firstOverflow(b):], 0); return b }, ErrCorrupt, "ends after"},
		{"record header longer than its payload", types, func(b []byte) []byte { b[rec3+4] = 45; return b }, ErrCorrupt, "describes values past its payload"},
		{"record header shorter than its payload", types, func(b []byte) []byte { b[rec3+4] = 41; return b }, ErrCorrupt, "a record header describes 24 bytes of values, its payload holds 25"},
		{"reserved serial type", types, func(b []byte) []byte { b[rec3+4] = 10; return b }, ErrCorrupt, "serial type 10 is reserved"},
		{"record header size", types, func(b []byte) []byte { b[rec3] = 100; return b }, ErrCorrupt, "a record header of 100 bytes"},
		{"cell pointer", types, func(b []byte) []byte { be16(b[leaf+8:], 3); return b }, ErrCorrupt, "cell 0 at offset 3"},
		{"cell count", types, func(b []byte) []byte { be16(b[leaf+3:], 0xffff); return b }, ErrCorrupt, "65535 cell pointers do not fit"},
		{"index page in a table", types, func(b []byte) []byte { b[leaf] = 0x0a; return b }, ErrCorrupt, "is an index b-tree page"},
		{"not a b-tree page", types, func(b []byte) []byte { b[leaf] = 0x07; return b }, ErrCorrupt, "has type 0x07"},
		{"b-tree cycle", big, func(b []byte) []byte { be32(b[level2cell0:], root); return b }, ErrCorrupt, "a cycle in the b-tree"},
		{"page in two places", big, func(b []byte) []byte { be32(b[rootRight:], level2); return b }, ErrCorrupt, "want rowids in increasing order"},
		{"child beyond the file", big, func(b []byte) []byte { be32(b[root0:], 0x7fffffff); return b }, ErrCorrupt, "page 2147483647 is beyond"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readEverything(tc.break_(bytes.Clone(tc.file)))
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %v: ...%s...", err, tc.is, tc.want)
			}
		})
	}
}

// TestHugePayloadSize: a cell whose payload size is 2^64-1 (a varint of
// nine 0xff bytes) and whose overflow page links to itself is refused,
// not followed: the pages it needs are counted without wrapping.
func TestHugePayloadSize(t *testing.T) {
	const ps = 512
	b := make([]byte, 3*ps)
	copy(b, "SQLite format 3\x00")
	be16(b[16:], ps)
	b[18], b[19], b[21], b[22], b[23] = 1, 1, 64, 32, 32
	be32(b[24:], 1) // change counter
	be32(b[28:], 3) // pages, valid: version-valid-for equals the counter
	be32(b[44:], 4) // schema format
	be32(b[56:], 1) // UTF-8
	be32(b[92:], 1)
	// Page 1: sqlite_schema, one row: table t, root page 2.
	sql := "CREATE TABLE t(x)"
	rec := append([]byte{6, 23, 15, 15, 1, byte(13 + 2*len(sql))}, "table"+"t"+"t"+"\x02"+sql...)
	cell := append([]byte{byte(len(rec)), 1}, rec...)
	at := ps - len(cell)
	copy(b[at:], cell)
	b[100] = 0x0D
	be16(b[103:], 1)
	be16(b[105:], uint16(at))
	be16(b[108:], uint16(at))
	// Page 2: a leaf of one cell: size 2^64-1, rowid 1, the 255 bytes
	// such a size keeps on a 512-byte page, then overflow page 3.
	p2 := b[ps:]
	p2[0] = 0x0D
	be16(p2[3:], 1)
	be16(p2[5:], 10)
	be16(p2[8:], 10)
	c := p2[10:]
	for i := range 9 {
		c[i] = 0xff
	}
	c[9] = 1
	be32(c[10+255:], 3)
	// Page 3 links to itself.
	be32(b[2*ps:], 3)

	_, err := readAll(t, open(t, b), "t")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "overflow pages, more than the database's 3") {
		t.Fatalf("got %v, want the payload's size refused", err)
	}
}
