package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestOutputInPlace: -o naming a FIFO (as /dev/null or a pipe would be)
// writes into it, and one naming a symlink replaces the file it links
// to; neither is replaced by a regular file. Both export and brief.
func TestOutputInPlace(t *testing.T) {
	t.Parallel() // reads the demo file
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string // in what is written
	}{
		{"export", []string{"export", "--format", "csv", "--dataset", "stores", "--province", "ON"}, "store_id,banner"},
		{"brief", []string{"report", "brief", "--province", "ON"}, "<html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(dir, tc.name+".fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			read := make(chan string, 1)
			go func() {
				b, _ := os.ReadFile(fifo) // until the writer closes it
				read <- string(b)
			}()
			if r := cli(t, nil, append(tc.args, "-o", fifo)...); r.code != 0 {
				t.Fatalf("-o a FIFO: exit %d: %s", r.code, r.stderr)
			}
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				// The reader waits for a writer that never came.
				t.Errorf("after the export, %s is %v (%v), want still a FIFO", fifo, st.Mode(), err)
			} else if got := <-read; !strings.Contains(got, tc.want) {
				t.Errorf("read from the FIFO: %.80q, want %q in it", got, tc.want)
			}

			target, link := filepath.Join(dir, tc.name+".target"), filepath.Join(dir, tc.name+".link")
			if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			if r := cli(t, nil, append(tc.args, "-o", link)...); r.code != 0 {
				t.Fatalf("-o a symlink: exit %d: %s", r.code, r.stderr)
			}
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("after the export, %s is %v (%v), want still a symlink", link, st.Mode(), err)
			}
			if b, _ := os.ReadFile(target); !strings.Contains(string(b), tc.want) {
				t.Errorf("the link's target holds %.80q, want %q in it", b, tc.want)
			}
		})
	}
}
