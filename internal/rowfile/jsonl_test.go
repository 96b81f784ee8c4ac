package rowfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func columns(names ...string) func(string) (int, bool) {
	return func(n string) (int, bool) {
		for i, c := range names {
			if c == n {
				return i, true
			}
		}
		return 0, false
	}
}

// The first object is the header and the first record; later objects may
// leave fields out or spell them in another case; values keep their text.
func TestJSONLRecords(t *testing.T) {
	in := "\n{\"sku\":\"1\",\"price\":4.990,\"on\":true}\n\n{\" SKU \":\"2\",\"price\":null}\n"
	j, err := OpenJSONL(bufio.NewReader(strings.NewReader(in)), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := j.Header(), []string{"on", "price", "sku"}; !cmp.Equal(got, want) || j.HeaderPos() != 2 {
		t.Fatalf("header %v at %d, want %v at 2", got, j.HeaderPos(), want)
	}
	col := columns("sku", "price", "on")
	rec := make([]string, 3)
	var got [][]string
	var lines []int
	for {
		n, err := j.Next(rec, col)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got, lines = append(got, append([]string(nil), rec...)), append(lines, n)
	}
	if want := [][]string{{"1", "4.99", "true"}, {"2", "", ""}}; !cmp.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
	if want := []int{2, 4}; !cmp.Equal(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
}

// A bad object is reported with its line and the next call goes on; an
// over-long line stops the file.
func TestJSONLErrors(t *testing.T) {
	in := `{"a":"1"}` + "\n" + `[1]` + "\n" + `{"a":[1]}` + "\n" + `{"b":"x","c":"y"}` + "\n" + `{"a":"` + strings.Repeat("x", 100) + `"}` + "\n"
	j, err := OpenJSONL(bufio.NewReader(strings.NewReader(in)), 64)
	if err != nil {
		t.Fatal(err)
	}
	col, rec := columns("a"), make([]string, 1)
	if _, err := j.Next(rec, col); err != nil {
		t.Fatal(err)
	}
	var re *RecordError
	if n, err := j.Next(rec, col); !errors.As(err, &re) || n != 2 {
		t.Errorf("line 2: got %v at %d, want a RecordError", err, n)
	}
	var fe *FieldError
	if _, err := j.Next(rec, col); !errors.As(err, &fe) || fe.Field != "a" || fe.Reason != "is a JSON array: want a string or a number" {
		t.Errorf("line 3: got %v", err)
	}
	var ue *UnknownFieldError
	if _, err := j.Next(rec, col); !errors.As(err, &ue) || ue.Field != "b" {
		t.Errorf("line 4: got %v, want unknown field b", err)
	}
	var tl *TooLongError
	if _, err := j.Next(rec, col); !errors.As(err, &tl) || tl.Pos != 5 {
		t.Errorf("line 5: got %v, want too long at 5", err)
	}
	if _, err := OpenJSONL(bufio.NewReader(strings.NewReader("\n  \n")), 64); err != io.EOF {
		t.Errorf("no object: got %v, want io.EOF", err)
	}
	if _, err := OpenJSONL(bufio.NewReader(strings.NewReader("\nnull\n")), 64); !errors.As(err, &re) || re.Pos != 2 {
		t.Errorf("null first: got %v, want a RecordError at 2", err)
	}
}

// A JSON array, one object per line, reads as JSON Lines do, with its
// lines' numbers; the brackets may share a line with an object. A file
// that does not close the array says so once, then ends.
func TestJSONArray(t *testing.T) {
	col := columns("a")
	read := func(in string) (got []string, lines []int, errs []string) {
		j, err := OpenJSON(bufio.NewReader(strings.NewReader(in)), 1<<10)
		if err != nil {
			return nil, nil, []string{err.Error()}
		}
		rec := make([]string, 1)
		for n := 0; n < 10; n++ {
			line, err := j.Next(rec, col)
			if err == io.EOF {
				return got, lines, errs
			}
			var re *RecordError
			if errors.As(err, &re) {
				errs = append(errs, fmt.Sprintf("line %d: %s", re.Pos, re.Reason))
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got, lines = append(got, rec[0]), append(lines, line)
		}
		t.Fatalf("%q: no end after 10 calls", in)
		return nil, nil, nil
	}
	for _, tc := range []struct {
		name, in string
		got      []string
		lines    []int
		errs     []string
	}{
		{"Export", "[\n{\"a\":\"1\"},\n{\"a\":\"2\"}\n]\n", []string{"1", "2"}, []int{2, 3}, nil},
		{"SharedLines", "[{\"a\":\"1\"},\n\n{\"a\":\"2\"}]", []string{"1", "2"}, []int{1, 3}, nil},
		{"CutShort", "[\n{\"a\":\"1\"},\n{\"a\":\"2\"},\n", []string{"1", "2"}, []int{2, 3}, []string{"line 3: the JSON array does not end with ]: the file is cut short"}},
		{"AfterEnd", "[\n{\"a\":\"1\"}\n]\n{\"a\":\"2\"}\n", []string{"1"}, []int{2}, []string{"line 4: text after the end of the JSON array"}},
		{"ObjectOverLines", "[\n{\"a\":\"1\"},\n{\"a\":\n\"2\"}\n]\n", []string{"1"}, []int{2}, []string{
			"line 3: not a JSON object on one line: a JSON array is read with one object per line, as the export writes it",
			"line 4: not a JSON object on one line: a JSON array is read with one object per line, as the export writes it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, lines, errs := read(tc.in)
			if !cmp.Equal(got, tc.got) || !cmp.Equal(lines, tc.lines) || !cmp.Equal(errs, tc.errs) {
				t.Errorf("got %q at %v, errors %q; want %q at %v, errors %q", got, lines, errs, tc.got, tc.lines, tc.errs)
			}
		})
	}
}
