package sqlitefile

import (
	"bytes"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstSQLite writes random databases with the sqlite3 CLI (Debian's
// package sqlite3; skipped without it): page sizes from 512 to 65536,
// reserved bytes, UTF-16, random tables of random values of every storage
// class, some spilling to overflow pages, an INTEGER PRIMARY KEY or not,
// rows deleted; then compares every row this reader returns with what
// sqlite3 -csv prints for it: the rowid, each value's storage class
// (typeof) and the value (a real parsed from quote(), a blob as hex).
func TestAgainstSQLite(t *testing.T) {
	bin, err := exec.LookPath("sqlite3")
	if err != nil {
		if os.Getenv("GROCERY_REQUIRE_SQLITE3") != "" {
			t.Fatal("no sqlite3 on PATH (Debian's package sqlite3), and GROCERY_REQUIRE_SQLITE3 is set")
		}
		t.Skip("no sqlite3 on PATH (Debian's package sqlite3): the cross-check needs it")
	}
	for i, c := range []struct {
		pageSize, reserve int
		encoding          string
	}{
		{512, 0, "UTF-8"}, {1024, 8, "UTF-8"}, {4096, 0, "UTF-16le"}, {8192, 33, "UTF-16be"}, {65536, 0, "UTF-8"},
	} {
		t.Run(fmt.Sprintf("page%d_reserve%d_%s", c.pageSize, c.reserve, c.encoding), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 35))
			path := filepath.Join(t.TempDir(), "random.sqlite")
			g := &gen{rng: rng, pageSize: c.pageSize}
			script := fmt.Sprintf(".filectrl reserve_bytes %d\nPRAGMA page_size=%d;\nPRAGMA encoding='%s';\n", c.reserve, c.pageSize, c.encoding) + g.script()
			cmd := exec.Command(bin, path)
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("sqlite3: %v\n%s", err, out)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, b)
			if db.PageSize() != c.pageSize || db.pageSize-db.usable != c.reserve {
				t.Fatalf("page size %d, reserved %d: want %d, %d", db.PageSize(), db.pageSize-db.usable, c.pageSize, c.reserve)
			}
			for _, tb := range g.tables {
				compareTable(t, bin, path, db, tb)
			}
		})
	}
}

// compareTable compares the rows of table tb read by db and by sqlite3.
func compareTable(t *testing.T, bin, path string, db *DB, tb genTable) {
	t.Helper()
	sel := []string{"rowid"}
	for _, c := range tb.cols {
		q := quoteName(c.name)
		sel = append(sel, "typeof("+q+")", fmt.Sprintf("CASE typeof(%s) WHEN 'blob' THEN hex(%[1]s) WHEN 'real' THEN quote(%[1]s) ELSE %[1]s END", q))
	}
	query := fmt.Sprintf("SELECT %s FROM %s ORDER BY rowid", strings.Join(sel, ", "), quoteName(tb.name))
	out, err := exec.Command(bin, "-csv", "-noheader", path, query).Output()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v", query, err)
	}
	cr := csv.NewReader(bytes.NewReader(out))
	want, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := db.Rows(table(t, db, tb.name))
	n := 0
	for ; rows.Next(); n++ {
		if n >= len(want) {
			t.Fatalf("table %s: more than sqlite3's %d rows", tb.name, len(want))
		}
		if msg := compareRow(rows.RowID(), rows.Values(), want[n]); msg != "" {
			t.Fatalf("table %s row %d: %s", tb.name, n, msg)
		}
	}
	if err := rows.Err(); err != nil || n != len(want) {
		t.Fatalf("table %s: %d rows (%v), sqlite3 has %d", tb.name, n, err, len(want))
	}
	if n < 100 {
		t.Errorf("table %s: only %d rows", tb.name, n)
	}
}

// compareRow compares a row with sqlite3's: rowid, then each value's
// storage class and value.
func compareRow(rowid int64, vals []Value, want []string) string {
	if strconv.FormatInt(rowid, 10) != want[0] || len(want) != 1+2*len(vals) {
		return fmt.Sprintf("rowid %d of %d values, sqlite3 has %q", rowid, len(vals), want)
	}
	for i, v := range vals {
		typ, text := want[1+2*i], want[2+2*i]
		got := string(v.AppendText(nil))
		switch {
		case v.Kind.String() != typ:
			return fmt.Sprintf("rowid %d column %d: %s %q, sqlite3 has %s %q", rowid, i, v.Kind, got, typ, text)
		case v.Kind == Real:
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || f != v.Float {
				return fmt.Sprintf("rowid %d column %d: real %v, sqlite3 has %q", rowid, i, v.Float, text)
			}
		case v.Kind == Blob:
			if strings.ToUpper(hex.EncodeToString(v.Bytes)) != text {
				return fmt.Sprintf("rowid %d column %d: blob %x, sqlite3 has %s", rowid, i, v.Bytes, text)
			}
		case got != text:
			return fmt.Sprintf("rowid %d column %d: %s %q, sqlite3 has %q", rowid, i, v.Kind, got, text)
		}
	}
	return ""
}

func quoteName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// gen writes a random database's SQL.
type gen struct {
	rng      *rand.Rand
	pageSize int
	tables   []genTable
}

type genTable struct {
	name string
	cols []genCol
}

type genCol struct{ name, def string }

var genTypes = []string{"", "INTEGER", "INT", "TEXT", "REAL", "BLOB", "NUMERIC", "VARCHAR(20)", `"DOUBLE PRECISION"`, "floating point"}

// script returns the SQL of 3 random tables of 300 to 1500 rows each, a
// seventh of them deleted.
func (g *gen) script() string {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for ti := range 3 {
		tb := genTable{name: fmt.Sprintf("table %d", ti)}
		var defs []string
		if g.rng.IntN(2) == 0 {
			tb.cols = append(tb.cols, genCol{"id", "INTEGER PRIMARY KEY"})
		}
		for ci := range 2 + g.rng.IntN(5) {
			tb.cols = append(tb.cols, genCol{fmt.Sprintf("col %d", ci), genTypes[g.rng.IntN(len(genTypes))]})
		}
		for _, c := range tb.cols {
			defs = append(defs, quoteName(c.name)+" "+c.def)
		}
		fmt.Fprintf(&b, "CREATE TABLE %s(%s);\n", quoteName(tb.name), strings.Join(defs, ", "))
		ids := map[int64]bool{}
		for range 300 + g.rng.IntN(1200) {
			var vals []string
			for _, c := range tb.cols {
				if c.def == "INTEGER PRIMARY KEY" {
					id := g.rowid(ids)
					vals = append(vals, strconv.FormatInt(id, 10))
					continue
				}
				vals = append(vals, g.value())
			}
			fmt.Fprintf(&b, "INSERT INTO %s VALUES(%s);\n", quoteName(tb.name), strings.Join(vals, ", "))
		}
		fmt.Fprintf(&b, "DELETE FROM %s WHERE rowid %% 7 = 3;\n", quoteName(tb.name))
		g.tables = append(g.tables, tb)
	}
	b.WriteString("COMMIT;\n")
	return b.String()
}

// rowid returns a new random rowid: small, negative or large.
func (g *gen) rowid(used map[int64]bool) int64 {
	for {
		var id int64
		switch g.rng.IntN(3) {
		case 0:
			id = g.rng.Int64N(100000)
		case 1:
			id = -g.rng.Int64N(1 << 40)
		default:
			id = int64(g.rng.Uint64())
		}
		if !used[id] {
			used[id] = true
			return id
		}
	}
}

// value returns a random SQL literal of any storage class.
func (g *gen) value() string {
	switch g.rng.IntN(7) {
	case 0:
		return "NULL"
	case 1:
		return strconv.FormatInt(g.rng.Int64N(300)-150, 10)
	case 2:
		return strconv.FormatInt(int64(g.rng.Uint64()), 10)
	case 3:
		return g.real()
	case 4:
		return "x'" + hex.EncodeToString(g.bytes()) + "'"
	}
	return "'" + strings.ReplaceAll(g.text(), "'", "''") + "'"
}

func (g *gen) real() string {
	f := g.rng.NormFloat64() * math.Pow(10, float64(g.rng.IntN(40)-20))
	switch g.rng.IntN(20) {
	case 0:
		return "9e999" // +Inf
	case 1:
		f = math.Trunc(f) // stored as an integer in a REAL column
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// size returns a random length, now and then over a page.
func (g *gen) size() int {
	if g.rng.IntN(40) == 0 {
		return g.rng.IntN(3 * g.pageSize)
	}
	return g.rng.IntN(24)
}

func (g *gen) bytes() []byte {
	b := make([]byte, g.size())
	for i := range b {
		b[i] = byte(g.rng.Uint32())
	}
	return b
}

// text returns random text: ASCII (digits now and then, which a numeric
// column takes as a number), accents, CJK, emoji, commas, quotes and
// newlines; no NUL or carriage return, which the CLI's CSV cannot carry.
func (g *gen) text() string {
	if g.rng.IntN(10) == 0 {
		return strconv.Itoa(g.rng.IntN(1000))
	}
	alphabet := []rune("abcXYZ 019,\"'\né日本😀")
	r := make([]rune, g.size())
	for i := range r {
		r[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(r)
}
