// Command hammersample writes a synthetic Project Hammer data set
// (publicdata.WriteHammerSample) in the published files' columns, for
// measuring grocery import --source hammer at the real data's scale
// without committing data:
//
//	go run ./publicdata/internal/hammersample -dir /tmp/hammer -products 187000 -days 54
//	/usr/bin/time -v grocery import --db /tmp/hammer.db --source hammer /tmp/hammer/hammer-4-product.csv /tmp/hammer/hammer-4-raw.csv
//
// The same rows as Project Hammer's SQLite file (Debian's sqlite3 CLI):
//
//	bash publicdata/testdata/make-hammer-sqlite.sh /tmp/hammer
//	/usr/bin/time -v grocery import --db /tmp/hammer2.db --source hammer /tmp/hammer/hammer.sqlite
//
// It writes hammer-4-product.csv and hammer-4-raw.csv into -dir, one
// price row per product and day (products × days rows), and prints the
// rows and bytes written.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/grocerydata/grocery/publicdata"
)

func main() {
	dir := flag.String("dir", ".", "directory to write hammer-4-product.csv and hammer-4-raw.csv into")
	products := flag.Int("products", 187_000, "products, spread over the eight vendors (the real files: about 187,000)")
	days := flag.Int("days", 54, "days of prices from 2024-02-28")
	seed := flag.Uint64("seed", 35, "the same seed writes the same files")
	flag.Parse()
	if *products <= 0 || *days <= 0 {
		log.Fatal("hammersample: -products and -days must be more than 0")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	rows, err := publicdata.WriteHammerSampleFiles(*dir, publicdata.HammerSample{Products: *products, Days: *days, Seed: *seed})
	if err != nil {
		log.Fatal(err)
	}
	raw := filepath.Join(*dir, "hammer-4-raw.csv")
	st, err := os.Stat(raw)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rows of %d products over %d days; %s: %d bytes\n", rows, *products, *days, raw, st.Size())
}
