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
				break
			}
			got = append(got, rec)
		}
		if !slices.Equal(got, want) {
			t.Errorf("pass %d: got %v, want %v", pass, got, want)
		}
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
