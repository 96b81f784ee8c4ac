package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// reportSignalsCmd prints the market signals of a province (REST GET
// /b2b/signals): a table of kind, type, severity and explanation, or with
// --json the REST answer.
func (a *app) reportSignalsCmd() *cobra.Command {
	var (
		q       queryFlags
		in      grocery.SignalsInput
		account string
	)
	cmd := &cobra.Command{
		Use:   "signals --province P [--banner B] [--kind K] [--category C] [--since DATE] [--account NAME] [--limit N] [--json]",
		Short: "Threats, opportunities, changes and a watchlist for a banner (GET /b2b/signals)",
		Long: `signals lists what a buyer of one banner should look at in a province now,
from the reference-store panel, each with a one-line explanation:

  threats        competitors now undercutting the banner on the same barcode,
                 one signal per barcode naming them all: a promotion in force
                 under its shelf price (competitor_promotion), or a regular
                 price cut since --since under its regular price; high when
                 a move of 10% or more takes a competitor from at or above
                 the banner's price to 5% or more under it
  opportunities  the banner's regular price 15% or more above or below the
                 median of the other banners' regular prices; barcodes 3 or
                 more other banners price that it did not in 90 days
                 (assortment_gap); barcodes it priced in 90 days but not in
                 the last 14 (delisted)
  changes        regular prices moved 10% or more since --since, smaller
                 sizes with a higher unit price (shrinkflation), promotions
                 whose regular price was not charged in the 30 days before,
                 and prices below every day of the 30 days before
  watchlist      with --account, the products of that account's alert rules

Threats and opportunities need --banner (your own). --since defaults to six
days before the latest observation day.`,
		Example: "  grocery report signals --province ON --banner loblaws\n" +
			"  grocery report signals --province ON --banner no-frills --kind threats --limit 5\n" +
			"  grocery report signals --province QC --category 'Dairy & Eggs' --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			in.Province = prov
			res, err := ask(a, cmd, func(ctx context.Context, src querier) (*grocery.SignalsResult, error) {
				if account != "" {
					ctx = grocery.NewContextWithAccount(ctx, account)
				}
				return src.Signals(ctx, in)
			})
			if err != nil {
				return err
			}
			if q.json {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			return printSignals(cmd.OutOrStdout(), res)
		}),
	}
	cmd.Flags().StringVar(&q.province, "province", "", "province or territory code, e.g. ON (env GROCERY_PROVINCE)")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().StringVar(&in.Banner, "banner", "", "your own `BANNER`, e.g. loblaws: needed for threats and opportunities")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&in.Kind, "kind", "", "only this `KIND`: threats, opportunities, changes or watchlist")
	cmd.RegisterFlagCompletionFunc("kind", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{grocery.SignalThreats, grocery.SignalOpportunities, grocery.SignalChanges, grocery.SignalWatchlist}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.Flags().StringVar(&in.Category, "category", "", "only this catalogue `CATEGORY`, e.g. 'Dairy & Eggs'")
	cmd.Flags().StringVar(&in.Since, "since", "", "changes and threats since `DATE` (YYYY-MM-DD); default six days before the latest day")
	cmd.Flags().StringVar(&account, "account", "", "add the watchlist of the account `NAME` (its alert rules)")
	cmd.RegisterFlagCompletionFunc("account", noFiles)
	limitFlag(cmd, &in.Limit, "signals")
	cmd.Flags().IntVar(&in.Offset, "offset", 0, "skip this many signals (the next page)")
	cmd.Flags().BoolVar(&q.json, "json", false, "print the REST answer's JSON")
	return cmd
}

func printSignals(w io.Writer, r *grocery.SignalsResult) error {
	who := r.Province
	if r.Banner != "" {
		who = r.Banner + " in " + r.Province
	}
	c := r.Counts
	listed := ""
	if r.Kind != "" {
		listed = fmt.Sprintf("; listing the %s", r.Kind)
	}
	fmt.Fprintf(w, "Signals for %s, %s to %s: %d threats, %d opportunities, %d changes, %d watched%s.\n",
		who, r.Since, r.To, c.Threats, c.Opportunities, c.Changes, c.Watchlist, listed)
	if len(r.Results) > 0 {
		fmt.Fprintln(w)
		t := newTable(w)
		fmt.Fprintln(t, "KIND\tTYPE\tSEVERITY\tEXPLANATION")
		for _, s := range r.Results {
			fmt.Fprintf(t, "%s\t%s\t%s\t%s\n", s.Kind, strings.ReplaceAll(s.Type, "_", " "), s.Severity, s.Explanation)
		}
		t.Flush()
	}
	switch shown := len(r.Results); {
	case shown == 0 && r.Total > 0:
		fmt.Fprintf(w, "\nNo signals from offset %d: there are %d.\n", r.Offset, r.Total)
	case r.Offset+shown < r.Total:
		fmt.Fprintf(w, "\nShowing %d to %d of %d: --offset %d for more.\n", r.Offset+1, r.Offset+shown, r.Total, r.Offset+shown)
	case r.Offset > 0:
		fmt.Fprintf(w, "\nShowing %d to %d of %d.\n", r.Offset+1, r.Offset+shown, r.Total)
	}
	printBasisNote(w, r.Basis)
	return nil
}
