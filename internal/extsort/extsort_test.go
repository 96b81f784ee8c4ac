package extsort

import (
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// byKey orders rows by series key, date and line, the keys of the series
// taken from keys as they are when the order is asked for (as an importer
// numbers series in the order it meets them).
func byKey(keys *[]string) func() func(a, b Rec) int {
	return func() func(a, b Rec) int {
		ks := slices.Clone(*keys)
		return func(a, b Rec) int {
			return cmp.Or(cmp.Compare(ks[a.Series], ks[b.Series]), cmp.Compare(a.Date, b.Date), cmp.Compare(a.Line, b.Line))
		}
	}
}

func TestMergeSpilledRuns(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var keys []string
	seriesOf := map[string]int32{}
	o := New(3, byKey(&keys))
	defer o.Close()
	r := rand.New(rand.NewPCG(1, 2))
	var added []Rec
	for line := range int32(20) {
		// Series appear in no particular key order.
		k := string(rune('a' + r.IntN(8)))
		si, ok := seriesOf[k]
		if !ok {
			si = int32(len(keys))
			seriesOf[k] = si
			keys = append(keys, k)
		}
		rec := Rec{Series: si, Store: r.Int32N(4), Date: r.Int32N(5), Price: r.Uint32N(999), Regular: r.Uint32N(999), PromoEnd: r.Int32N(3), Line: line}
		if err := o.Add(rec); err != nil {
			t.Fatal(err)
		}
		added = append(added, rec)
	}
	if o.Len() != 20 || o.Spilled() != 6 {
		t.Fatalf("got %d rows in %d spilled runs, want 20 in 6 (3 rows a run, 2 left in memory)", o.Len(), o.Spilled())
	}
	want := slices.Clone(added)
	order := byKey(&keys)()
	slices.SortFunc(want, order)
	for pass := range 2 {
		if got := merged(t, o); !slices.Equal(got, want) {
			t.Errorf("pass %d: got %v, want %v", pass, got, want)
		}
	}
}

// TestMergeManyRuns: rows spread over 143 runs, some of one row, merge
// into one sorted stream (the merge's heap several levels deep).
func TestMergeManyRuns(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	keys := []string{"a", "b", "c", "d", "e"}
	o := New(7, byKey(&keys))
	defer o.Close()
	r := rand.New(rand.NewPCG(3, 4))
	var want []Rec
	for line := range int32(1000) {
		rec := Rec{Series: r.Int32N(5), Store: r.Int32N(3), Date: r.Int32N(40), Price: r.Uint32N(999), Line: line}
		if err := o.Add(rec); err != nil {
			t.Fatal(err)
		}
		want = append(want, rec)
	}
	if o.Spilled() != 142 {
		t.Fatalf("%d runs spilled, want 142 (7 rows a run, 6 left in memory)", o.Spilled())
	}
	slices.SortFunc(want, byKey(&keys)())
	if got := merged(t, o); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestCloseLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	o := New(1, func() func(a, b Rec) int { return func(a, b Rec) int { return cmp.Compare(a.Line, b.Line) } })
	for line := range int32(3) {
		if err := o.Add(Rec{Line: line}); err != nil {
			t.Fatal(err)
		}
	}
	if o.Spilled() == 0 {
		t.Fatal("got no spilled run, want some")
	}
	o.Close()
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("after Close: got %v, %v in the temporary directory, want nothing", entries, err)
	}
}

// TestTempFileNamedForRemoveStale: a temporary file of an import carries
// the process id RemoveStale reads, and a running process's file stays.
func TestTempFileNamedForRemoveStale(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	f, err := TempFile()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := filepath.Base(f.Name())
	if want := spillPrefix + strconv.Itoa(os.Getpid()) + "-"; !strings.HasPrefix(name, want) || !strings.HasSuffix(name, ".tmp") {
		t.Fatalf("temporary file %q: want %s...tmp", name, want)
	}
	removed, err := RemoveStale()
	if err != nil || len(removed) != 0 {
		t.Fatalf("RemoveStale while its process runs: removed %v, %v; want nothing", removed, err)
	}
	if _, err := os.Stat(f.Name()); err != nil {
		t.Fatalf("the running import's file: %v", err)
	}
}

// TestRunMemory: a run's memory starts at firstRun rows, then holds
// runRows, never more, and the rows all come back.
func TestRunMemory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	keys := []string{"a"}
	const runRows, rows = 2 * firstRun, 5 * firstRun
	o := New(runRows, byKey(&keys))
	defer o.Close()
	if err := o.Add(Rec{Date: rows}); err != nil {
		t.Fatal(err)
	}
	if cap(o.cur) != firstRun {
		t.Fatalf("after one row: room for %d rows, want %d", cap(o.cur), firstRun)
	}
	most := 0
	for line := int32(1); line < rows; line++ {
		if err := o.Add(Rec{Date: rows - line, Line: line}); err != nil {
			t.Fatal(err)
		}
		most = max(most, cap(o.cur))
	}
	if most != runRows || o.Spilled() != 2 {
		t.Errorf("room for %d rows at most, %d runs spilled; want %d rows, 2 runs", most, o.Spilled(), runRows)
	}
	got := merged(t, o)
	if len(got) != rows {
		t.Errorf("merged %d rows, want %d", len(got), rows)
	}
	if !slices.IsSortedFunc(got, func(a, b Rec) int { return cmp.Compare(a.Date, b.Date) }) {
		t.Error("the merged rows are not in date order")
	}
}

// merged returns the rows of o's Merge.
func merged(t *testing.T, o *Runs) []Rec {
	t.Helper()
	m, err := o.Merge()
	if err != nil {
		t.Fatal(err)
	}
	var got []Rec
	for {
		rec, ok, err := m.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return got
		}
		got = append(got, rec)
	}
}

// BenchmarkMerge merges 2 million rows spilled in 31 runs (an import of
// 8 million rows has as many of its 262,144-row runs) and reports the
// time a row.
func BenchmarkMerge(b *testing.B) {
	b.Setenv("TMPDIR", b.TempDir())
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	o := New(1<<16, byKey(&keys))
	defer o.Close()
	r := rand.New(rand.NewPCG(5, 6))
	const rows = 31 << 16
	for line := range int32(rows) {
		if err := o.Add(Rec{Series: r.Int32N(8), Date: r.Int32N(365), Line: line}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		m, err := o.Merge()
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, ok, err := m.Next()
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
			n++
		}
		if n != rows {
			b.Fatalf("merged %d rows, want %d", n, rows)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
}
