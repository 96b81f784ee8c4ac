package main

import (
	"bufio"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/grocerydata/grocery/internal/redistest"

	"github.com/parquet-go/parquet-go"
	"github.com/spf13/cobra"
	"github.com/xuri/excelize/v2"
)

// longRunning are the commands whose examples serve until stopped: CI runs
// README's 'grocery serve --demo' and TestBridge runs the bridge.
// exampleRedis is the Redis README's examples name: the test runs them
// against a redis-server of its own.
const exampleRedis = "redis://127.0.0.1:6379/0"

// exampleSnapshots is the snapshot directory README's examples name: the
// test gives them one in its temporary directory, so that no run writes
// outside it or meets another run's snapshots.
const exampleSnapshots = "/srv/snaps"

var longRunning = []string{"grocery serve", "grocery mcp-bridge", "grocery completion"}

// Files the import examples name, as a user would have them.
var exampleFiles = map[string]string{
	"stores.csv": "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nofrills-on-9001,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.6850,-79.3150\n",
	"prices.csv": "date,store_id,banner,external_sku,price,regular_price,upc,name,brand,size,category\n" +
		"2026-11-19,nofrills-on-9001,no-frills,20156839_EA,3.50,4.79,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages\n",
	"names.csv": "date,store_id,banner,external_sku,price,upc,name,name_fr\n" +
		"2026-11-19,nofrills-on-9001,no-frills,20156839_EA,3.50,067000378089,Orange Juice No Pulp,Jus d'orange sans pulpe\n",
	"feed-2026-11-19.jsonl": `{"date":"2026-11-19","store_id":"nofrills-on-9001","banner":"no-frills","external_sku":"20156839_EA","price":"3.49"}` + "\n" +
		`{"date":"2026-11-19","store_id":"nofrills-on-9001","banner":"no-frills","external_sku":"20156839_EA","price":"3.999"}` + "\n",
}

// TestExamples runs every example of every command's --help, and every
// command line of the sh blocks of every README in the repository, in a real shell with the grocery
// binary on PATH, in a new directory where the first example builds the
// demo data: each must succeed.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example as a command")
	}
	t.Parallel() // a directory, a data file and a Redis of its own
	dir := t.TempDir()
	// The test binary is the command (TestMain runs main when asGrocery
	// is set): on PATH as grocery, without building it a second time.
	bin := filepath.Join(dir, "bin")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "grocery")); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range exampleFiles {
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeExampleXLSX(t, filepath.Join(work, "prices.xlsx"))
	writeExampleParquet(t, filepath.Join(work, "extract.parquet"))
	// The public sources' fixtures, under the names the examples give them.
	for name, fixture := range map[string]string{"hammer-4-product.csv": "hammer-4-product.csv", "hammer-4-raw.csv": "hammer-4-raw.csv",
		"hammer-4.sqlite": "hammer.sqlite", "prices.parquet": "openprices.parquet", "18100245.csv": "18100245.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "publicdata", "testdata", fixture))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", asGrocery + "=1"}

	// The binary on PATH answers as the command, not as a test binary.
	help := exec.Command(filepath.Join(bin, "grocery"), "--help")
	help.Dir, help.Env = work, env
	if out, err := help.CombinedOutput(); err != nil || !strings.Contains(string(out), "Usage:\n  grocery [command]") {
		t.Fatalf("grocery --help: %v\n%s", err, out)
	}

	lines := append(helpExamples(newRootCmd(nil, nil, nil, func(string) string { return "" })), readmeExamples(t)...)
	if len(lines) < 20 || !strings.HasPrefix(lines[0], "grocery demo") {
		t.Fatalf("found %d examples, the first %q: want the demo first and all of them", len(lines), lines[0])
	}
	// run runs one example in dir: it must succeed and show something.
	run := func(t *testing.T, dir, line string) {
		sh := exec.Command("bash", "-c", "set -eo pipefail; "+line)
		sh.Dir, sh.Env = dir, env
		out, err := sh.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
		// An example shows something: an empty answer teaches nothing.
		for _, empty := range []string{"No current offers", "No products match", "No observations in this window", "No active reference stores match", "No API keys yet"} {
			if strings.Contains(string(out), empty) {
				t.Errorf("%s: an empty answer (%q):\n%s", line, empty, out)
			}
		}
	}
	// The demo first: every other example reads its data file. Then, at
	// the same time: the examples that change grocery.db (import, keys,
	// alerts) in order, each after those it needs, in work; those that
	// build a demo data file of their own beside them; and the read-only
	// ones side by side, on a copy of the demo's data file in a directory
	// of their own.
	run(t, work, lines[0])
	ran := 1
	reads := filepath.Join(dir, "reads")
	if err := os.Mkdir(reads, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(reads, os.DirFS(work)); err != nil {
		t.Fatal(err)
	}
	var writing, reading, building []string
	var rs *redistest.Server // started for the first example with --redis
	for _, line := range lines[1:] {
		if skip(line) {
			continue
		}
		if strings.Contains(line, exampleRedis) {
			if _, err := exec.LookPath("redis-server"); err != nil {
				t.Logf("%s: skipped, redis-server is not installed", line)
				continue
			}
			if rs == nil {
				rs = redistest.Start(t)
			}
			line = strings.ReplaceAll(line, exampleRedis, rs.URL())
		}
		line = strings.ReplaceAll(line, exampleSnapshots, filepath.Join(dir, "snaps"))
		switch {
		case readOnly(line):
			reading = append(reading, line)
		case ownFile(line):
			building = append(building, line)
		default:
			writing = append(writing, line)
		}
		ran++
	}
	t.Run("group", func(t *testing.T) {
		t.Run("changes", func(t *testing.T) {
			t.Parallel()
			for _, line := range writing {
				run(t, work, line)
			}
		})
		t.Run("builds", func(t *testing.T) {
			t.Parallel()
			for _, line := range building {
				run(t, work, line)
			}
		})
		t.Run("reads", func(t *testing.T) {
			t.Parallel()
			next := make(chan string)
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() {
					for line := range next {
						run(t, reads, line)
					}
				})
			}
			for _, line := range reading {
				next <- line
			}
			close(next)
			wg.Wait()
		})
	})
	t.Logf("ran %d examples: %d that change grocery.db, %d that build a data file of their own, %d that only read", ran, 1+len(writing), len(building), len(reading))
}

// ownFile reports whether an example builds the demo in a data file of
// its own (grocery demo --db other.db), which no other example reads.
func ownFile(line string) bool {
	f := strings.Fields(line)
	return len(f) > 2 && f[0] == "grocery" && f[1] == "demo" && slices.Contains(f, "--db") && !slices.Contains(f, "grocery.db")
}

// readOnly reports whether an example runs a command that only reads the
// data file (a query, a report, an export, the plans).
func readOnly(line string) bool {
	f := strings.Fields(line)
	for i, w := range f {
		if w == "grocery" && i+1 < len(f) {
			switch f[i+1] {
			case "lookup", "search", "history", "stores", "report", "brief", "export", "plans":
				return true
			}
			return false
		}
	}
	return false
}

// writeExampleXLSX writes prices.csv's row as a spreadsheet would hold it:
// a number cell for the price and the barcode.
func writeExampleXLSX(t *testing.T, path string) {
	f := excelize.NewFile()
	defer f.Close()
	for i, row := range [][]any{
		{"date", "store_id", "banner", "external_sku", "price", "upc"},
		{"2026-11-19", "nofrills-on-9001", "no-frills", "20156839_EA", 3.49, 67000378089},
	} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// writeExampleParquet writes a Parquet extract as a pipeline would: a
// DATE, a DECIMAL price and the barcode as an integer.
func writeExampleParquet(t *testing.T, path string) {
	type row struct {
		Date   int32  `parquet:"date,date"`
		Store  string `parquet:"store_id"`
		Banner string `parquet:"banner"`
		SKU    string `parquet:"external_sku"`
		Price  int32  `parquet:"price,decimal(2:9)"`
		UPC    int64  `parquet:"upc"`
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := parquet.NewGenericWriter[row](f)
	if _, err := w.Write([]row{{20776, "nofrills-on-9001", "no-frills", "20156839_EA", 349, 67000378089}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func skip(line string) bool {
	for _, p := range longRunning {
		if strings.Contains(line, p) {
			return true
		}
	}
	return false
}

// helpExamples returns the example lines of cmd and its subcommands, the
// demo's first so that the others find its data file.
func helpExamples(cmd *cobra.Command) []string {
	var demo, rest []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			if l = strings.TrimSpace(l); l == "" {
				continue
			}
			if c.Name() == "demo" {
				demo = append(demo, l)
			} else {
				rest = append(rest, l)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd)
	return append(demo, rest...)
}

// readmeExamples returns the lines of the sh blocks of every README.md in
// the repository that run the CLI (grocery ... or go run ./cmd/grocery ...),
// run as the binary: the top-level README first, then the others in path
// order (cmd/grocery's keys before its alert rules on their account).
func readmeExamples(t *testing.T) []string {
	var out []string
	for _, path := range readmeFiles(t) {
		lines := readmeFileExamples(t, path)
		t.Logf("%s: %d examples", path, len(lines))
		out = append(out, lines...)
	}
	return out
}

// readmeFiles returns the README.md files of the repository, the
// top-level one first (filepath.WalkDir visits in lexical order), leaving
// out hidden directories and testdata.
func readmeFiles(t *testing.T) []string {
	root := filepath.Join("..", "..")
	var paths []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "README.md" {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 || paths[0] != filepath.Join(root, "README.md") {
		t.Fatalf("README files %q: want the top-level README.md first", paths)
	}
	return paths
}

// readmeFileExamples returns the CLI lines of one README's sh blocks.
func readmeFileExamples(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
		case in:
			line = strings.Replace(line, "go run ./cmd/grocery", "grocery", 1)
			if strings.HasPrefix(line, "grocery ") || strings.Contains(line, " grocery ") && strings.Contains(line, "=") {
				out = append(out, line)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}
