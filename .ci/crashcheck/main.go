// Command crashcheck kills imports at random points and checks what is
// left: run by .ci/run.
//
//	go run ./.ci/crashcheck -grocery BIN -bbolt BIN [-n 20] [-dir DIR]
//
// It builds the demo data set, exports it and splits its observations
// into a base file and a second file that overlaps it with corrected
// prices. Then, n times each way, it imports the second file into a copy
// of the base and sends SIGKILL at a random moment: directly (the
// grocery import process) and through a server (grocery serve holds the
// file, grocery import goes through its socket, the server is killed).
// After each kill the file must pass bbolt check and grocery verify
// (indexes, offers backed by observations, analytics aggregates equal to
// a recomputation), and once the second file is imported again its
// exports (observations, offers, stores) must equal a clean import's.
package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var (
	groceryBin = flag.String("grocery", "", "the grocery binary")
	bboltBin   = flag.String("bbolt", "", "the bbolt binary (go.etcd.io/bbolt/cmd/bbolt)")
	n          = flag.Int("n", 20, "kills each way")
	dir        = flag.String("dir", "", "work directory (default: a new temporary one, removed at the end)")
	seed       = flag.Uint64("seed", 0, "random seed (0: from the clock)")
)

func main() {
	flag.Parse()
	if *groceryBin == "" || *bboltBin == "" {
		fail("want -grocery and -bbolt")
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "crashcheck")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(*seed, 1))
	fmt.Printf("seed %d, dir %s\n", *seed, *dir)
	start := time.Now()

	p := func(name string) string { return filepath.Join(*dir, name) }
	run("demo", "--db", p("demo.db"), "--as-of", "2026-11-19")
	run("export", "--db", p("demo.db"), "--dataset", "stores", "--format", "csv", "-o", p("stores-export.csv"))
	run("export", "--db", p("demo.db"), "--dataset", "observations", "--from", "2025-11-20", "--to", "2026-11-19",
		"--format", "csv", "-o", p("obs-export.csv"))
	rowsA, rowsB := split(p("stores-export.csv"), p("obs-export.csv"), p("stores.csv"), p("a.csv"), p("b.csv"))
	fmt.Printf("base: %d observation rows; crash file: %d rows (overlapping, some corrected)\n", rowsA, rowsB)

	run("import", "--db", p("base.db"), p("stores.csv"), p("a.csv"))
	copyFile(p("base.db"), p("clean.db"))
	t0 := time.Now()
	run("import", "--db", p("clean.db"), p("b.csv"))
	took := time.Since(t0)
	run("verify", "--db", p("clean.db"))
	want := answers(p("clean.db"))
	fmt.Printf("clean import of the crash file: %v\n", took.Round(time.Millisecond))

	for _, via := range []string{"direct", "socket"} {
		done, killed := 0, 0
		for i := 0; i < *n; i++ {
			db := p(fmt.Sprintf("crash-%s-%d.db", via, i))
			copyFile(p("base.db"), db)
			// Kill anywhere from the start to a little after a clean
			// import's end (the server's start adds to it).
			after := time.Duration(rng.Int64N(int64(took)*13/10 + 1))
			var finished bool
			if via == "direct" {
				finished = killDirect(db, p("b.csv"), after)
			} else {
				finished = killServer(db, p("b.csv"), after)
			}
			if finished {
				done++
			} else {
				killed++
			}
			if out, err := exec.Command(*bboltBin, "check", db).CombinedOutput(); err != nil {
				fail("%s kill %d after %v: bbolt check: %v\n%s", via, i, after, err, out)
			}
			run("verify", "--db", db)
			run("import", "--db", db, p("b.csv"))
			run("verify", "--db", db)
			if got := answers(db); !bytes.Equal(got, want) {
				fail("%s kill %d after %v: after the import again, the exports differ from a clean import's", via, i, after)
			}
			os.Remove(db)
			fmt.Printf("  %s kill %2d at %6v: %s; bbolt check, verify, import again, exports equal\n", via, i,
				after.Round(time.Millisecond), map[bool]string{true: "import had finished", false: "killed mid-import"}[finished])
		}
		fmt.Printf("%s: %d kills (%d mid-import, %d after the import finished): all files intact\n", via, *n, killed, done)
	}
	fmt.Printf("crash check passed in %v\n", time.Since(start).Round(time.Second))
}

// killDirect runs grocery import on db and kills it after d; it reports
// whether the import had already finished.
func killDirect(db, file string, d time.Duration) bool {
	cmd := exec.Command(*groceryBin, "import", "--db", db, file)
	check(cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			fail("import of %s failed: %v", db, err)
		}
		return true
	case <-time.After(d):
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		return false
	}
}

// killServer starts grocery serve on db, runs grocery import through its
// socket and kills the server d after the import started; it reports
// whether the import had already finished.
func killServer(db, file string, d time.Duration) bool {
	srv := exec.Command(*groceryBin, "serve", "--db", db, "--addr", "127.0.0.1:0")
	var serr bytes.Buffer
	srv.Stdout, srv.Stderr = io.Discard, &serr
	check(srv.Start())
	srvExited := make(chan error, 1)
	go func() { srvExited <- srv.Wait() }()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(db + ".sock"); err == nil {
			break
		}
		select {
		case err := <-srvExited:
			fail("grocery serve --db %s exited: %v\n%s", db, err, serr.Bytes())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			fail("grocery serve --db %s: no socket after 10 s", db)
		}
	}
	imp := exec.Command(*groceryBin, "import", "--db", db, file)
	var iout bytes.Buffer
	imp.Stdout, imp.Stderr = &iout, &iout
	check(imp.Start())
	impExited := make(chan error, 1)
	go func() { impExited <- imp.Wait() }()
	finished := false
	select {
	case err := <-impExited:
		if err != nil {
			fail("import through the socket of %s failed: %v\n%s", db, err, iout.Bytes())
		}
		finished = true
	case <-time.After(d):
	}
	srv.Process.Signal(syscall.SIGKILL)
	<-srvExited
	if !finished {
		<-impExited // the client sees the socket close and exits
	}
	os.Remove(db + ".sock")
	return finished
}

// answers returns what the file answers: its exports of observations,
// offers and stores.
func answers(db string) []byte {
	var b bytes.Buffer
	for _, args := range [][]string{
		{"--dataset", "observations", "--from", "2025-11-20", "--to", "2026-11-19"},
		{"--dataset", "offers"},
		{"--dataset", "stores"},
	} {
		cmd := exec.Command(*groceryBin, append([]string{"export", "--db", db, "--format", "csv"}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			fail("export %v of %s: %v", args, db, err)
		}
		b.Write(out)
	}
	return b.Bytes()
}

// split writes the stores and two observation files in the import's
// columns: a (before 2026-10-01) and b (from 2026-09-15), b's rows before
// 2026-10-01 with every third price corrected by 11 cents.
func split(storesIn, obsIn, storesOut, aOut, bOut string) (na, nb int) {
	// The stores export holds the active stores only: observations of
	// the others are left out.
	known := map[string]bool{}
	rewrite(storesIn, []string{"store_id", "banner", "province", "name", "city", "postal_code", "latitude", "longitude"},
		map[string]func(row []string) bool{storesOut: func(r []string) bool { known[r[0]] = true; return true }}, nil)
	cols := []string{"date", "store_id", "banner", "external_sku", "price", "regular_price", "promo_ends", "upc", "name", "brand", "size", "category"}
	i := 0
	counts := rewrite(obsIn, cols, map[string]func(row []string) bool{
		aOut: func(r []string) bool { return known[r[1]] && r[0] < "2026-10-01" },
		bOut: func(r []string) bool { return known[r[1]] && r[0] >= "2026-09-15" },
	}, func(out string, r []string) {
		if out != bOut || r[0] >= "2026-10-01" {
			return
		}
		if i++; i%3 == 0 {
			for _, c := range []int{4, 5} { // price, regular_price: both, so that price <= regular stays
				if f, err := strconv.ParseFloat(r[c], 64); err == nil {
					r[c] = strconv.FormatFloat(f+0.11, 'f', 2, 64)
				}
			}
		}
	})
	return counts[aOut], counts[bOut]
}

// rewrite copies the columns cols of CSV file in to each output whose
// filter takes the row, after edit (if any) changed it for that output.
func rewrite(in string, cols []string, outs map[string]func(row []string) bool, edit func(out string, row []string)) map[string]int {
	f, err := os.Open(in)
	check(err)
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	check(err)
	idx := make([]int, len(cols))
	for i, c := range cols {
		idx[i] = -1
		for j, h := range head {
			if h == c {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			fail("%s has no column %q", in, c)
		}
	}
	writers := map[string]*csv.Writer{}
	counts := map[string]int{}
	for name := range outs {
		o, err := os.Create(name)
		check(err)
		defer o.Close()
		w := csv.NewWriter(o)
		check(w.Write(cols))
		writers[name] = w
	}
	row := make([]string, len(cols))
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		check(err)
		for name, keep := range outs {
			for i, j := range idx {
				row[i] = rec[j]
			}
			if !keep(row) {
				continue
			}
			if edit != nil {
				edit(name, row)
			}
			check(writers[name].Write(row))
			counts[name]++
		}
	}
	for _, w := range writers {
		w.Flush()
		check(w.Error())
	}
	return counts
}

func run(args ...string) {
	out, err := exec.Command(*groceryBin, args...).CombinedOutput()
	if err != nil {
		fail("grocery %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func copyFile(from, to string) {
	b, err := os.ReadFile(from)
	check(err)
	check(os.WriteFile(to, b, 0o600))
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crashcheck: "+format+"\n", args...)
	os.Exit(1)
}
