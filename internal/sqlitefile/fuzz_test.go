package sqlitefile

import (
	"bytes"
	"runtime"
	"testing"
)

// FuzzOpen opens any bytes as a database and reads every table: it must
// return (an error or the rows), never panic or loop, and allocate no
// more per read than the bound the package doc gives: a page a level of
// the b-tree and the record read, a few times over for the UTF-16 text
// converted and the schema's names parsed; never what a corrupt size
// claims. Seeded with the fixtures of testdata/make.sh.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"tiny.sqlite", "types.sqlite", "reserved.sqlite", "utf16.sqlite", "wal.sqlite"} {
		f.Add(fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := Open(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		// The bound of one read: the page buffers (one a level), the
		// record (at most the file) converted from UTF-16 and parsed.
		bound := uint64((maxDepth+2)*db.pageSize + 64*len(b) + 1<<20)
		var tables []*Table
		allocs(t, bound, "Tables", func() { tables, _ = db.Tables() })
		for _, tb := range tables {
			allocs(t, bound, "Rows of "+tb.Name, func() {
				rows := db.Rows(tb)
				for rows.Next() {
					for _, v := range rows.Values() {
						v.AppendText(nil)
					}
				}
				_ = rows.Err()
			})
		}
	})
}

// allocs runs read and fails t when it allocates more than bound bytes.
func allocs(t *testing.T, bound uint64, what string, read func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	read()
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > bound {
		t.Fatalf("%s allocated %d bytes, over the bound of %d", what, n, bound)
	}
}
