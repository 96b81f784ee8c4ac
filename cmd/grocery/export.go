package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

func (a *app) exportCmd() *cobra.Command {
	var in grocery.ExportInput
	var out, cursorFile string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write observations, offers or stores as JSON, JSON Lines, CSV, XLSX or Parquet",
		Long: `export writes a data set to a file (-o FILE) or to stdout (no -o, or -o -).

Datasets (--dataset):
  observations  date, store_id, banner, province, external_sku, upc, name,
                name_fr, brand, size, category, product_type, price, regular_price,
                on_promo, promo_ends, currency (the default)
  offers        the current offers: province, product (with name and
                name_fr), banner, prices in force, promotion (and
                promo_ended), unit price, store_count, observed_at
  stores        every store, with its active flag (false: it left the
                reference panel; the observations still name it)

The format is --format (json, jsonl, csv, xlsx or parquet), else the
extension of -o FILE, else json. Filters: --province, --banner, --category
and --upc (not for stores), and for observations --from and --to (YYYY-MM-DD; by
default the 30 days up to the latest observation; any span streams).

Incremental exports: --cursor-file FILE writes the export's cursor (the
data it read) to FILE once the export is complete; --changed-since
CURSOR exports only the observations added or changed since that cursor,
each once, as it is now (observations only). A cursor of a data file
that was replaced since, or of later data, is refused: export again in
full.

Rows are written as they are read, so an export of any size takes little
memory; an XLSX file holds at most 1,048,575 rows (an export over it is
refused before anything is written). A Parquet file has the
CSV's rows and columns, typed: dates DATE, prices DECIMAL(18,2), on_promo
and active BOOLEAN, counts INT64, coordinates DOUBLE, text STRING (dictionary-encoded),
an empty cell null; it is written in snappy-compressed row groups of 65,536
rows. A file is written under a temporary name and renamed when complete
(over a symlink's target); a device or FIFO, such as /dev/null, is
written in place.
While a server holds the data file, the export goes through it.

Exports of stores and observations, in every format, import back as they
come (grocery import stores.csv observations.csv) and export again the same.`,
		Example: "  grocery export --dataset observations --province ON -o observations-ON.csv\n" +
			"  grocery export --dataset offers --banner no-frills --format xlsx -o offers.xlsx\n" +
			"  grocery export --dataset stores --province QC --format jsonl\n" +
			"  grocery export --dataset observations --from 2026-10-01 -o observations.parquet",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.runExport(cmd, in, out, cursorFile)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&in.Dataset, "dataset", "observations", "observations, offers or stores")
	f.StringVar(&in.Format, "format", "", "json, jsonl, csv, xlsx or parquet (default: from -o's extension, else json)")
	f.StringVarP(&out, "output", "o", "-", "write to `FILE` (- for stdout)")
	f.StringVar(&in.Province, "province", "", "only this province or territory, e.g. ON")
	f.StringVar(&in.Banner, "banner", "", "only this banner, e.g. no-frills")
	f.StringVar(&in.Category, "category", "", "only products of this category, e.g. \"Dairy & Eggs\"")
	f.StringVar(&in.UPC, "upc", "", "only this product")
	f.StringVar(&in.From, "from", "", "first observation date, YYYY-MM-DD")
	f.StringVar(&in.To, "to", "", "last observation date, YYYY-MM-DD")
	f.StringVar(&in.ChangedSince, "changed-since", "", "only the observations added or changed since this `CURSOR` (an earlier export's)")
	f.StringVar(&cursorFile, "cursor-file", "", "write the export's cursor to `FILE` once it is complete")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.RegisterFlagCompletionFunc("dataset", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{"observations", "offers", "stores"}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{"json", "jsonl", "csv", "xlsx", "parquet"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// exporter writes an export: a *grocery.Service that holds the data file
// or an *admin.Client of the server that does.
type exporter interface {
	Export(ctx context.Context, in grocery.ExportInput, w io.Writer) (*grocery.ExportSummary, error)
}

func (a *app) runExport(cmd *cobra.Command, in grocery.ExportInput, out, cursorFile string) error {
	toFile := out != "" && out != "-"
	if in.Format == "" && toFile {
		switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), ".")); ext {
		case "json", "jsonl", "csv", "xlsx", "parquet":
			in.Format = ext
		case "ndjson":
			in.Format = "jsonl"
		default:
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "cannot tell the format of %s from its extension: give --format json, jsonl, csv, xlsx or parquet", out)
		}
	}
	stderr := cmd.ErrOrStderr()
	var w io.Writer = cmd.OutOrStdout()
	var file *output
	if toFile {
		var err error
		if file, err = createOutput(out); err != nil {
			return err
		}
		defer func() {
			if file != nil {
				file.abort()
			}
		}()
		w = file
	}
	var bar *progressBar
	if isTerminal(stderr) && (toFile || !isTerminal(cmd.OutOrStdout())) {
		bar = &progressBar{w: stderr, label: "export", unit: func(n int64) string { return count(int(n)) + " rows" }}
		in.Progress = bar.update
		defer bar.clear()
	}
	ctx := cmd.Context()
	var src exporter = admin.Dial(admin.SocketPath(a.dbPath(cmd)))
	defer src.(*admin.Client).Close()
	sum, err := src.Export(ctx, in, w)
	if errors.Is(err, admin.ErrNoAdmin) {
		svc, openErr := a.openRead(cmd)
		if openErr != nil {
			return openErr
		}
		defer svc.Close()
		sum, err = svc.Export(ctx, in, w)
	}
	if err != nil {
		return err
	}
	if file != nil {
		err := file.commit()
		file = nil
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: %s %s\n", out, count(int(sum.Rows)), words.Plural(int(sum.Rows), "row"))
	}
	if cursorFile != "" {
		return os.WriteFile(cursorFile, []byte(sum.Cursor+"\n"), 0o644)
	}
	return nil
}
