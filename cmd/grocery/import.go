package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

func (a *app) importCmd() *cobra.Command {
	var (
		opts   importFlags
		snaps  string
		source string
	)
	cmd := &cobra.Command{
		Use:   "import [--source hammer|openprices|statcan] FILE...",
		Short: "Load stores or observations from CSV, JSON Lines, JSON, XLSX or Parquet files",
		Long: `import loads each FILE in order into the data file (created if needed).

A file is CSV with a header row (RFC 4180; fields separated by ",", or by
";" or tab), JSON Lines with the same field names, a JSON array with one
object per line (as grocery export writes it), an XLSX workbook whose
first sheet has the header row, or a Parquet file whose columns have those
names (text or typed: numbers, DECIMAL, DATE, TIMESTAMP, BOOLEAN; a pandas
index column is ignored); it holds one kind of row:

  stores:       store_id, banner, province, name, city, postal_code,
                latitude, longitude[, active, banner_name, observations_30d,
                source]
  observations: date, store_id, banner, external_sku, price[, regular_price,
                promo_ends, upc, name, brand, size, category, name_fr,
                product_type, province, on_promo, currency, source]

A store's source names where its prices come from (demo, import, hammer,
openprices; without the column a new store's is import and a stored one
keeps its own). An export of stores or observations imports as it comes:
the columns it derives (banner_name, observations_30d, an observation's
province and source, on_promo, currency) are checked against the row (its
banner, its store's province and source, price under regular_price, CAD),
not stored. Offers are computed: import the stores
and observations exports instead.

Columns come in any order; prices are in dollars (4.99, or 4,99 in a ";" or
tab file), dates YYYY-MM-DD (or date cells in XLSX).
Import the stores before their observations. A row with a upc also records
the product and the SKU -> barcode link; an 11-digit UPC gets its check digit.

name is a product's English name, name_fr its French one; product_type is
the kind of product below the category ("skim milk"), which a basket
substitute must share. A product keeps
the first name it is given in each language: a later file (or row) naming
its barcode differently does not rename it for any province; the import
counts such names as kept and notes the first. With --update-names the
file's names replace them. An empty field never clears a product's fact.

A bad row stops the import, before anything is written, with the file, line
(sheet and row in XLSX, row in Parquet) and reason, and nothing of that file is written (files before it stay
imported). With --skip-invalid, bad rows are skipped and reported instead.
Importing the same rows again changes nothing. Over a million observations,
a checked file is written by whole days: a stopped import keeps those done.

With --snapshots DIR (when no server holds the file), a snapshot of the
data file is published to DIR after each file, for replicas (grocery serve
--role replica) to follow. A server holding the file (grocery serve --role
ingest --snapshots DIR) publishes its own after each import.

With --source, the FILEs are a public source's files as published, read,
mapped and imported in one command; a summary says what was kept and what
could not be mapped, and why (counts and examples). A bad row is never
fatal. The sources:

  hammer      Project Hammer (https://jacobfilipp.com/hammer/):
              hammer-4-product.csv and hammer-4-raw.csv. Each vendor is a
              banner priced at one pickup store (North York, ON; Save-On-Foods
              in Kamloops, BC); old_price is the regular price, current_price
              the price (on promotion when lower); "Out of stock" rows, the
              -4713-11-24 sentinel date and non-numeric prices are reported,
              not imported, as are days without data (gaps). A product
              without a valid barcode is kept by its vendor SKU: search and
              history (--banner) find it, lookup by barcode cannot.
  openprices  Open Prices (https://prices.openfoodfacts.org): the Parquet
              dump; Canadian prices in CAD with a barcode, at shops whose
              name is a known banner and whose postal code gives the
              province (ODbL: attribute Open Food Facts).
  statcan     Statistics Canada table 18-10-0245-01 (CSV download): stored
              as benchmark series by province and product, shown beside the
              panel's prices (geographic prices); not observations.`,
		Example: "  grocery import --source hammer hammer-4-product.csv hammer-4-raw.csv\n  grocery import --source openprices prices.parquet\n  grocery import --source statcan 18100245.csv\n  grocery import stores.csv prices.csv\n  grocery import prices.xlsx\n  grocery import extract.parquet\n  grocery import --skip-invalid feed-2026-11-19.jsonl\n  grocery import --update-names names.csv",
		Args:    atLeastOne("the files to import", "grocery import stores.csv prices.csv"),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return []cobra.Completion{"csv", "tsv", "txt", "jsonl", "json", "ndjson", "xlsx", "parquet"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if source != "" {
				return a.runImportSource(cmd, source, args, opts)
			}
			return a.runImport(cmd, args, opts, snaps)
		}),
	}
	cmd.Flags().BoolVar(&opts.skipInvalid, "skip-invalid", false, "skip bad rows (and report them) instead of stopping")
	cmd.Flags().BoolVar(&opts.updateNames, "update-names", false, "let the files' product names (name, name_fr) replace the stored ones")
	cmd.Flags().StringVar(&a.redisURL, "redis", "", redisAlertsHelp)
	cmd.Flags().StringVar(&source, "source", "", "read the files as a public source publishes them: hammer, openprices or statcan")
	cmd.Flags().StringVar(&snaps, "snapshots", "", "publish a snapshot to this `dir`ectory after each file, for replicas")
	return cmd
}

// importFlags are the import's options that each file's import takes.
type importFlags struct {
	skipInvalid bool
	updateNames bool
}

func (a *app) runImport(cmd *cobra.Command, files []string, flags importFlags, snaps string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	// A missing file fails before anything is imported (or created): an
	// input file that is not there is invalid input, as a bad one is.
	for _, name := range files {
		fi, err := os.Stat(name)
		if err != nil {
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "%s", pathLine(name, err))
		}
		if fi.IsDir() {
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "%s is a directory: want a CSV, JSON Lines, JSON, XLSX or Parquet file", name)
		}
	}
	// A server holding the data file imports for us through its admin
	// socket; else the file is opened here.
	var imp fileImporter = admin.Dial(admin.SocketPath(a.dbPath(cmd)))
	var done, unpublished []string
	var why string
	for i, name := range files {
		rep, err := importFile(cmd, imp, name, flags, isTerminal(stderr))
		if i == 0 && errors.Is(err, admin.ErrNoAdmin) {
			svc, openErr := a.openForImport(cmd, snaps)
			if openErr != nil {
				return openErr
			}
			defer svc.Close()
			imp = svc
			rep, err = importFile(cmd, imp, name, flags, isTerminal(stderr))
		}
		if err != nil {
			_, viaServer := imp.(*admin.Client)
			return &noted{err: err, note: importNote(err, name, done, viaServer)}
		}
		for _, p := range rep.Problems {
			fmt.Fprintln(stderr, p)
		}
		if rep.AlertsError != "" {
			fmt.Fprintf(stderr, "%s: %s\n", name, rep.AlertsError)
		}
		if rep.PublishError != "" {
			unpublished, why = append(unpublished, name), rep.PublishError
		}
		listed := 0
		for _, p := range rep.Problems {
			if !strings.Contains(p, "restricted-circulation") && !strings.Contains(p, "a product keeps its first name") {
				listed++
			}
		}
		if rep.Skipped > listed {
			fmt.Fprintf(stderr, "%s: %s more skipped %s not listed\n", name, count(rep.Skipped-listed), words.Plural(rep.Skipped-listed, "row"))
		}
		fmt.Fprintf(stdout, "%s: %s %s, %s %s read: %s new, %s updated, %s unchanged, %s skipped\n", name,
			rep.Kind, rep.Format, count(rep.Rows), words.Plural(rep.Rows, "row"),
			count(rep.New), count(rep.Updated), count(rep.Unchanged), count(rep.Skipped))
		if rep.Resumed != "" {
			fmt.Fprintf(stdout, "%s: resumed: the days up to %s were written by the import of this file that stopped; they count as unchanged\n", name, rep.Resumed)
		}
		if rep.NamesKept > 0 {
			fmt.Fprintf(stdout, "%s: names kept for %s %s the file names otherwise (a French name goes in name_fr; --update-names replaces names)\n",
				name, count(rep.NamesKept), words.Plural(rep.NamesKept, "product"))
		}
		done = append(done, name)
	}
	if len(unpublished) > 0 {
		// Every file is imported: the one thing not done is the
		// snapshot, which the next publish catches up.
		return &warningError{strings.Join(unpublished, ", ") + " " + why}
	}
	return nil
}

// fileImporter imports one file: a *grocery.Service holding the data file,
// or an *admin.Client of the server that holds it.
type fileImporter interface {
	Import(ctx context.Context, name string, r io.Reader, opts *grocery.ImportOptions) (*grocery.ImportReport, error)
}

// openForImport opens the data file for an import: with the Redis of
// --redis or GROCERY_REDIS_URL, whose alert rules the import evaluates.
// When that Redis does not answer, the data is imported all the same,
// with a warning that the rules in Redis were not evaluated.
func (a *app) openForImport(cmd *cobra.Command, snapshots string) (*grocery.Service, error) {
	opts, err := a.keyOptions(cmd)
	if err != nil {
		return nil, err
	}
	if snapshots != "" && opts.RedisURL == "" {
		return nil, &usageError{errors.New("--snapshots needs --redis (or GROCERY_REDIS_URL): the replicas' alert rules live there, and an import that publishes for them evaluates those rules")}
	}
	opts.LockTimeout, opts.SnapshotDir = 0, snapshots
	svc, err := server.Open(a.dbPath(cmd), *opts)
	if grocery.ErrorCode(err) == grocery.EUNAVAILABLE {
		fmt.Fprintf(cmd.ErrOrStderr(), "grocery: %s\ngrocery: importing without it: the alert rules in Redis are not evaluated; run 'grocery alerts evaluate' once it answers\n", grocery.ErrorMessage(err))
		opts.RedisURL = ""
		svc, err = server.Open(a.dbPath(cmd), *opts)
	}
	return svc, err
}

func importFile(cmd *cobra.Command, imp fileImporter, name string, flags importFlags, bar bool) (*grocery.ImportReport, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts := &grocery.ImportOptions{SkipInvalid: flags.skipInvalid, UpdateNames: flags.updateNames}
	if bar {
		var size int64
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		p := &progressBar{w: cmd.ErrOrStderr(), label: name, total: size, unit: megabytes}
		opts.Progress = p.update
		defer p.clear()
	}
	return imp.Import(cmd.Context(), name, f, opts)
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressBar draws a one-line progress bar on a terminal, at most ten
// times a second.
type progressBar struct {
	w     io.Writer
	label string
	total int64              // 0 when unknown
	unit  func(int64) string // formats an amount
	last  time.Time
	drawn bool
}

func (p *progressBar) update(n int64) {
	now := time.Now()
	finished := p.total > 0 && n >= p.total
	if now.Sub(p.last) < 100*time.Millisecond && !finished {
		return
	}
	p.last = now
	const width = 30
	if p.total > 0 {
		frac := min(float64(n)/float64(p.total), 1)
		fill := int(frac * width)
		fmt.Fprintf(p.w, "\r%s [%s%s] %3.0f%% %s / %s", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill),
			frac*100, p.unit(n), p.unit(p.total))
		if finished {
			fmt.Fprint(p.w, ", writing")
		}
	} else {
		fmt.Fprintf(p.w, "\r%s %s", p.label, p.unit(n))
	}
	p.drawn = true
}

// clear erases the bar.
func (p *progressBar) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// importNote is what the CLI adds to the error of name's import: what was
// imported of it and of the files before it (done). viaServer says that
// a server imported it through its admin socket.
func importNote(err error, name string, done []string, viaServer bool) string {
	var notes []string
	switch through, partly := grocery.PartlyImported(err); {
	case partly && errors.Is(err, context.Canceled):
		// "interrupted" is all the error's line says.
		notes = append(notes, fmt.Sprintf("%s's observations up to %s are imported, the later ones are not: run the same import again to write them (the rows imported count as unchanged)", name, through))
	case viaServer && errors.Is(err, context.Canceled):
		// The server's batches written before it saw the interruption stay.
		notes = append(notes, "the server may have imported the first days of "+name+" (a file of more than about a million rows is written by whole days): "+
			"running the same import again is safe (rows already imported count as unchanged) and reports what it finds")
	case errors.Is(err, admin.ErrStopped):
		// It may have committed before it stopped.
		notes = append(notes, "whether "+name+" was imported is not known: a file is imported whole or not at all (a file of more than about a million rows, by whole days), "+
			"and running the same import again is safe (rows already imported count as unchanged) and reports what it finds")
	case !partly: // else the error says which days are
		notes = append(notes, "nothing of "+name+" was imported")
	}
	switch len(done) {
	case 0:
	case 1:
		notes = append(notes, done[0]+" stays imported")
	default:
		notes = append(notes, strings.Join(done, ", ")+" stay imported")
	}
	return strings.Join(notes, "; ")
}
