package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestListPages: stores, search and lookup take --limit up to 500 and
// --offset; the footer names the next page's offset, and the pages, read
// one after the other, are the whole list.
func TestListPages(t *testing.T) {
	t.Parallel()
	s := demoSummary.Samples

	all := cli(t, nil, "stores", "--limit", "500")
	ok(t, all)
	rows := tableRows(all.stdout)
	if len(rows) <= 50 || len(rows) > 70 {
		t.Fatalf("stores --limit 500 printed %d stores; the demo has 51 to 70", len(rows))
	}
	seventy := cli(t, nil, "stores", "--limit", "70")
	ok(t, seventy)
	if seventy.stdout != all.stdout {
		t.Fatalf("stores --limit 70 printed:\n%s\nwant all %d stores:\n%s", seventy.stdout, len(rows), all.stdout)
	}
	some := cli(t, nil, "stores", "--limit", "51")
	ok(t, some)
	if got := tableRows(some.stdout); strings.Join(got, "\n") != strings.Join(rows[:51], "\n") {
		t.Fatalf("stores --limit 51 printed %d stores, not the first 51 of the list", len(got))
	}
	want := "51 of " + count(len(rows)) + " reference stores (--limit " + strconv.Itoa(len(rows)) + " for all, or --offset 51 for the next page)"
	if !strings.Contains(some.stdout, want) {
		t.Fatalf("stores --limit 51 footer:\n%s\nwant %q", some.stdout, want)
	}
	var paged []string
	for off := 0; off < len(rows); off += 25 {
		r := cli(t, nil, "stores", "--limit", "25", "--offset", strconv.Itoa(off))
		ok(t, r)
		paged = append(paged, tableRows(r.stdout)...)
		if off+25 < len(rows) && !strings.Contains(r.stdout, "--offset "+strconv.Itoa(off+25)+" for the next page)") {
			t.Fatalf("stores --offset %d footer does not name --offset %d:\n%s", off, off+25, r.stdout)
		}
	}
	if strings.Join(paged, "\n") != strings.Join(rows, "\n") {
		t.Fatalf("the pages of 25 are not the whole list")
	}
	past := cli(t, nil, "stores", "--offset", strconv.Itoa(len(rows)))
	ok(t, past)
	if want := "No reference stores past --offset " + strconv.Itoa(len(rows)) + ": there are " + count(len(rows)) + ".\n"; past.stdout != want {
		t.Fatalf("past the end: %q, want %q", past.stdout, want)
	}

	lookup := cli(t, nil, "lookup", s.CarriedUPC, "--province", s.Province, "--limit", "2", "--offset", "1")
	ok(t, lookup)
	if !strings.Contains(lookup.stdout, "2 to 3 of ") {
		t.Fatalf("lookup --limit 2 --offset 1:\n%s\nwant a footer \"2 to 3 of ...\"", lookup.stdout)
	}
	search := cli(t, nil, append([]string{"search", "--province", s.Province, "--limit", "1", "--offset", "1"}, strings.Fields(s.Query)...)...)
	ok(t, search)
	if !strings.Contains(search.stdout, "2 to 2 of ") || !strings.Contains(search.stdout, "(--offset 2 for the next page)") {
		t.Fatalf("search --limit 1 --offset 1:\n%s\nwant a footer \"2 to 2 of ... (--offset 2 for the next page)\"", search.stdout)
	}
}

// tableRows returns the first column of the first table a command
// printed, without its header (the padding of a table depends on its rows).
func tableRows(out string) []string {
	table, _, _ := strings.Cut(out, "\n\n")
	lines := strings.Split(table, "\n")[1:]
	for i, l := range lines {
		lines[i], _, _ = strings.Cut(l, " ")
	}
	return lines
}
