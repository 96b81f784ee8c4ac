package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

func (a *app) demoCmd() *cobra.Command {
	var (
		scale, asOf string
		seed        int64
		force       bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Build a realistic demo data set",
		Long: `demo builds a realistic, deterministic Canadian data set in the data file:
real banners in the provinces where they operate, reference stores near real
cities, GS1-valid barcodes, weekly flyer promotions and regional price
levels, dated up to today (or --as-of). The same scale, date and seed always
give the same data.

Scales: small (the default) builds in seconds; medium; large holds about ten
million observations and is the benchmark data set; national is a panel of
20,000 products read every day in 320 stores, 115 million observations
(1.6 GB, about 4 minutes).

It prints identifiers to try: a carried barcode, a known but not carried
one, and an external_sku with its banner.`,
		Example:           "  grocery demo\n  grocery demo --scale medium --as-of 2026-11-19 --db medium.db --force",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts := &grocery.DemoOptions{Scale: scale, Seed: seed, Force: force}
			if asOf != "" {
				d, err := grocery.ParseDate(asOf)
				if err != nil {
					return grocery.Errorf(grocery.EINVALIDARGUMENT, "--as-of %q is not a date: want YYYY-MM-DD", asOf)
				}
				opts.AsOf = d
			}
			stderr := cmd.ErrOrStderr()
			if isTerminal(stderr) {
				p := &progressBar{w: stderr, label: "building " + scaleName(scale), unit: func(n int64) string { return count(int(n)) + " observations" }}
				opts.Progress = func(done, total int) {
					p.total = int64(total)
					p.update(int64(done))
				}
				defer p.clear()
			}
			path := a.dbPath(cmd)
			sum, err := grocery.BuildDemo(cmd.Context(), path, opts)
			if err != nil {
				return err
			}
			printDemo(cmd.OutOrStdout(), sum, a.dbFlagFor(cmd, path))
			return nil
		}),
	}
	cmd.Flags().StringVar(&scale, "scale", "small", "size of the data set: small, medium, large or national")
	cmd.RegisterFlagCompletionFunc("scale", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{
			cobra.CompletionWithDesc("small", "builds in seconds"),
			cobra.CompletionWithDesc("medium", "a larger panel and catalogue"),
			cobra.CompletionWithDesc("large", "about ten million observations"),
			cobra.CompletionWithDesc("national", "20,000 products read daily: 115 million observations"),
		}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.Flags().StringVar(&asOf, "as-of", "", "last day of data, YYYY-MM-DD (default today, UTC)")
	cmd.RegisterFlagCompletionFunc("as-of", noFiles)
	cmd.Flags().Int64Var(&seed, "seed", 1, "random seed: the same seed gives the same data")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing data file")
	return cmd
}

func scaleName(s string) string {
	if s == "" {
		return "small"
	}
	return s
}

// dbFlagFor returns " --db PATH" when the sample commands need it to find
// the file, or "".
func (a *app) dbFlagFor(cmd *cobra.Command, path string) string {
	if path == defaultDB || path == strings.TrimPrefix(defaultDB, "./") {
		return ""
	}
	if !cmd.Flags().Changed("db") && a.getenv("GROCERY_DB") == path {
		return "" // the environment will find it again
	}
	return " --db " + shellQuote(path)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func printDemo(w io.Writer, sum *grocery.DemoSummary, db string) {
	fmt.Fprintf(w, "Built the %s demo data set in %s, as of %s: %s stores, %s products, %s observations (%.1f MB) in %s.\n",
		sum.Scale, sum.Path, sum.AsOf, count(sum.Stores), count(sum.Products), count(sum.Observations),
		float64(sum.Bytes)/1e6, sum.Elapsed.Round(100*time.Millisecond))
	s := sum.Samples
	p := " --province " + s.Province
	fmt.Fprintln(w, "\nTry:")
	tw := newTable(w)
	if s.CarriedUPC != "" {
		fmt.Fprintf(tw, "  grocery lookup %s%s%s\t# a barcode carried in %s\n", s.CarriedUPC, p, db, s.Province)
	}
	if s.NotCarriedUPC != "" {
		fmt.Fprintf(tw, "  grocery lookup %s%s%s\t# known, but not carried in %s now: no offers\n", s.NotCarriedUPC, p, db, s.Province)
	}
	if s.UnknownUPC != "" {
		fmt.Fprintf(tw, "  grocery lookup %s%s%s\t# a valid barcode the catalogue does not know\n", s.UnknownUPC, p, db)
	}
	if s.Query != "" {
		fmt.Fprintf(tw, "  grocery search %s%s%s\t# products by name or brand\n", shellQuote(s.Query), p, db)
	}
	if s.SKU != "" {
		fmt.Fprintf(tw, "  grocery history %s --banner %s%s --period 90d%s\t# a %s SKU's price over 90 days\n", shellQuote(s.SKU), s.Banner, p, db, bannerName(s.Banner))
	}
	fmt.Fprintf(tw, "  grocery stores%s%s\t# the reference stores of %s\n", p, db, s.Province)
	tw.Flush()
}
