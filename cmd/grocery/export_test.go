package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/xuri/excelize/v2"
)

// TestExportCommand writes exports to stdout and to files (the format
// from the extension), the same bytes as the library writes, and rejects
// bad arguments with exit status 3 and no file.
func TestExportCommand(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	svc := openDemo(t)
	defer svc.Close()
	in := grocery.ExportInput{Format: "csv", Province: "ON", From: "2026-11-01", To: "2026-11-19"}
	var want bytes.Buffer
	sum, err := svc.Export(context.Background(), in, &want)
	if err != nil || sum.Rows == 0 {
		t.Fatalf("library export: %d rows, %v", sum.Rows, err)
	}

	r := cli(t, nil, "export", "--format", "csv", "--province", "ON", "--from", "2026-11-01", "--to", "2026-11-19")
	if r.code != 0 || r.stdout != want.String() {
		t.Fatalf("stdout: exit %d, %d bytes, want %d bytes; stderr %s", r.code, len(r.stdout), want.Len(), r.stderr)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "grocery-observations-ON.csv")
	r = cli(t, nil, "export", "--province", "ON", "--from", "2026-11-01", "--to", "2026-11-19", "-o", path)
	got, err := os.ReadFile(path)
	if r.code != 0 || err != nil || string(got) != want.String() {
		t.Fatalf("file: exit %d, %v, %d bytes, want %d; stderr %s", r.code, err, len(got), want.Len(), r.stderr)
	}
	if !strings.Contains(r.stderr, path+": ") {
		t.Errorf("stderr: got %q, want the file and its row count", r.stderr)
	}

	xlsx := filepath.Join(dir, "offers.xlsx")
	if r = cli(t, nil, "export", "--dataset", "offers", "--banner", "no-frills", "-o", xlsx); r.code != 0 {
		t.Fatalf("xlsx: exit %d: %s", r.code, r.stderr)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.GetCellValue("offers", "I2"); v != "no-frills" {
		t.Errorf("offers.xlsx I2: got %q, want no-frills", v)
	}

	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--format", "xml"}, `format "xml" is not supported`},
		{[]string{"--from", "2026-11-19", "--to", "2026-11-01"}, "from 2026-11-19 is after to 2026-11-01"},
		{[]string{"--province", "ZZ"}, "province"},
		{[]string{"-o", filepath.Join(dir, "out.txt")}, "cannot tell the format of"},
	} {
		bad := filepath.Join(dir, "bad.csv")
		args := append([]string{"export", "-o", bad}, tc.args...)
		r := cli(t, nil, args...)
		if r.code != exitInvalid || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q: want %d and %q", tc.args, r.code, r.stderr, exitInvalid, tc.msg)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != "grocery-observations-ON.csv" && e.Name() != "offers.xlsx" {
				t.Errorf("%v: left %s behind", tc.args, e.Name())
			}
		}
	}
}

// TestExportCursor: --cursor-file keeps an export's cursor, and
// --changed-since with it exports what was written since: nothing on the
// demo file, which no one writes; a text that is no cursor is refused.
func TestExportCursor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cur := filepath.Join(dir, "cursor")
	if r := cli(t, nil, "export", "--dataset", "stores", "--province", "PE", "-o", filepath.Join(dir, "s.csv"), "--cursor-file", cur); r.code != 0 {
		t.Fatalf("export with --cursor-file: exit %d: %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(cur)
	if err != nil || len(strings.TrimSpace(string(b))) < 14 {
		t.Fatalf("cursor file: %q, %v; want a cursor", b, err)
	}
	r := cli(t, nil, "export", "--format", "csv", "--changed-since", strings.TrimSpace(string(b)))
	if r.code != 0 || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("export since the cursor: exit %d, %q; want the header alone (%s)", r.code, r.stdout, r.stderr)
	}
	if r := cli(t, nil, "export", "--changed-since", "nope"); r.code != 3 || !strings.Contains(r.stderr, "changed_since \"nope\" is not an export cursor") {
		t.Errorf("a bad cursor: exit %d, %q; want 3 naming it", r.code, r.stderr)
	}
}
