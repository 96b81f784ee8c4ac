package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

// The period analytics: 'grocery report category', 'promos' and 'new',
// the CLI's side of GET /b2b/category_report, /b2b/promo_calendar and
// /b2b/new_on_shelf.

// reportFlags are the flags the period reports share.
type reportFlags struct {
	q        queryFlags // --province, --json
	banner   string
	category string
	limit    grocery.Opt[int]
	offset   int
}

// add registers the shared flags, and --limit and --offset when paged.
func (f *reportFlags) add(cmd *cobra.Command, paged bool) {
	f.q.add(cmd, true, false)
	cmd.Flags().Lookup("json").Usage = "print the REST answer's JSON"
	cmd.Flags().StringVar(&f.banner, "banner", "", "only this banner's observations, e.g. metro")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&f.category, "category", "", `only this category, e.g. "Dairy & Eggs"`)
	if paged {
		limitFlag(cmd, &f.limit, "results")
		cmd.Flags().IntVar(&f.offset, "offset", 0, "skip this many results (the next page)")
	}
}

// runPeriodReport runs one report and prints its result: the REST answer's
// JSON with --json, else with print.
func runPeriodReport[R any](a *app, cmd *cobra.Command, f *reportFlags, call func(context.Context, querier, string) (R, error), print func(io.Writer, R) error) error {
	prov, err := a.provinceOf(cmd, &f.q, true)
	if err != nil {
		return err
	}
	res, err := ask(a, cmd, func(ctx context.Context, src querier) (R, error) { return call(ctx, src, prov) })
	if err != nil {
		return err
	}
	if f.q.json {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	return print(cmd.OutOrStdout(), res)
}

func (a *app) reportCategoryCmd() *cobra.Command {
	var (
		f      reportFlags
		period string
	)
	cmd := &cobra.Command{
		Use:   "category --province P",
		Short: "Prices per category: average, median, range, promotion share, like-for-like change",
		Long: `category prints, per category of one province's reference-store panel (of
one banner and one category when given), the average, lowest, median and
highest shelf price of the period's store observations, the median unit
price in the category's most common basis, the products and stores
observed, the share of observations on promotion, and the like-for-like
change of the shelf and the regular price against the previous period of
the same length: the geometric mean of the price relatives of the banner
SKUs with a daily price in both periods (MATCHED of them), each SKU's
relative the ratio of its mean index in the two periods, an index chained
from its stores' own moves (a store's price compared only with the same
store's, so a change of which stores were visited moves nothing). A
note says when the previous period has data on fewer days. The period
ends on the data set's latest day; the REST API's OpenAPI document
defines every figure.`,
		Example: "  grocery report category --province ON\n" +
			"  grocery report category --province QC --banner maxi --period 90d\n" +
			"  grocery report category --province ON --category \"Dairy & Eggs\" --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return runPeriodReport(a, cmd, &f, func(ctx context.Context, src querier, prov string) (*grocery.CategoryReport, error) {
				return src.CategoryReport(ctx, grocery.CategoryReportInput{Province: prov, Banner: f.banner, Category: f.category, Period: period})
			}, printCategoryReport)
		}),
	}
	f.add(cmd, false)
	cmd.Flags().StringVar(&period, "period", "30d", "the period: 7d to 365d, ending on the latest day")
	cmd.RegisterFlagCompletionFunc("period", completePeriod)
	return cmd
}

func (a *app) reportPromosCmd() *cobra.Command {
	var (
		f        reportFlags
		from, to string
	)
	cmd := &cobra.Command{
		Use:   "promos --province P",
		Short: "Promotion calendar: the promotions observed, by start",
		Long: `promos prints the promotions observed in one province's reference-store panel
(of one banner and one category when given) that overlap --from..--to
(default: the 30 days up to the data set's latest day), by start: one line
per banner SKU and run of days on promotion, with its regular and promotional
price, discount, stores and observation days.`,
		Example: "  grocery report promos --province ON --category \"Dairy & Eggs\"\n" +
			"  grocery report promos --province ON --banner metro --limit 20 --offset 20\n" +
			"  grocery report promos --province QC --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return runPeriodReport(a, cmd, &f, func(ctx context.Context, src querier, prov string) (*grocery.PromoCalendar, error) {
				return src.PromoCalendar(ctx, grocery.PromoCalendarInput{Province: prov, Banner: f.banner, Category: f.category,
					From: from, To: to, Limit: f.limit, Offset: f.offset})
			}, printPromoCalendar)
		}),
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&from, "from", "", "first day, YYYY-MM-DD (default 29 days before --to)")
	cmd.Flags().StringVar(&to, "to", "", "last day, YYYY-MM-DD (default the data set's latest day)")
	return cmd
}

func (a *app) reportNewCmd() *cobra.Command {
	var (
		f    reportFlags
		days grocery.Opt[int] // --days: the library's window unless given
	)
	cmd := &cobra.Command{
		Use:   "new --province P",
		Short: "New on shelf: products first observed in the last days",
		Long: `new prints the banner SKUs of one province's reference-store panel (of one
banner and one category when given) first observed within the last --days
days up to the data set's latest day, newest first, with their first and
latest price. First observed in the panel: a product may have been on
shelf elsewhere before.`,
		Example: "  grocery report new --province ON\n" +
			"  grocery report new --province ON --banner metro --days 30 --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return runPeriodReport(a, cmd, &f, func(ctx context.Context, src querier, prov string) (*grocery.NewOnShelf, error) {
				return src.NewOnShelf(ctx, grocery.NewOnShelfInput{Province: prov, Banner: f.banner, Category: f.category,
					Days: days, Limit: f.limit, Offset: f.offset})
			}, printNewOnShelf)
		}),
	}
	f.add(cmd, true)
	cmd.Flags().Var(optInt{&days, grocery.DefaultNewDays}, "days",
		fmt.Sprintf("the window: products first observed in the last this many days, 1 to %d", grocery.MaxNewDays))
	return cmd
}

// scopeLine names a report's scope: "Ontario", "Metro in Ontario, Dairy & Eggs".
func scopeLine(province, banner, category string) string {
	s := provinceName(province)
	if banner != "" {
		s = bannerName(banner) + " in " + s
	}
	if category != "" {
		s += ", " + category
	}
	return s
}

// basisLine says what a result rests on.
func basisLine(b grocery.Basis) string {
	s := fmt.Sprintf("Basis: %s reference %s, %s %s", count(b.Stores), words.Plural(b.Stores, "store"), count(b.Observations), words.Plural(b.Observations, "observation"))
	if len(b.Banners) > 0 {
		s += " (" + strings.Join(b.Banners, ", ") + ")"
	}
	if b.Note != "" {
		s += ".\nNote: " + b.Note
	}
	return s + "."
}

// pageLine says which results a page shows when it is not all of them.
func pageLine(shown, offset, total int, items string) string {
	switch {
	case shown == 0 && total > 0:
		return fmt.Sprintf("No %s past --offset %d: there are %s.", items, offset, count(total))
	case offset == 0 && shown >= total:
		return ""
	case offset+shown < total:
		return fmt.Sprintf("%s to %s of %s %s (--offset %d for the next page)", count(offset+1), count(offset+shown), count(total), items, offset+shown)
	}
	return fmt.Sprintf("%s to %s of %s %s", count(offset+1), count(offset+shown), count(total), items)
}

func printCategoryReport(w io.Writer, res *grocery.CategoryReport) error {
	fmt.Fprintf(w, "Category prices in %s, %s from %s to %s, in %s (change against %s to %s)\n\n",
		scopeLine(res.Province, res.Banner, res.Category), res.Period, res.From, res.To, res.Currency, res.PreviousFrom, res.PreviousTo)
	if len(res.Categories) == 0 {
		fmt.Fprintln(w, basisLine(res.Basis))
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "CATEGORY\tAVERAGE\tMIN\tMEDIAN\tMAX\tMEDIAN UNIT PRICE\tPRODUCTS\tSTORES\tOBSERVATIONS\tON PROMO\tCHANGE\tREGULAR\tMATCHED")
	var notes []string
	for _, c := range res.Categories {
		unit := ""
		if u := c.UnitPrice; u != nil {
			unit = money(u.Median) + " " + u.Basis
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%.1f%%\t%s\t%s\t%s\n", c.Category, money(c.AveragePrice), money(c.MinPrice),
			money(c.MedianPrice), money(c.MaxPrice), unit, c.Products, c.Stores, count(c.Observations), c.PromoSharePct,
			signedPct(c.ChangePct), signedPct(c.RegularChangePct), sampleText(c.Matched, false, c.LowSample))
		// The report's own days are in the basis note: a category's
		// note is printed when its days differ.
		if c.Note != "" && (c.DaysWithData != res.DaysWithData || c.PreviousDaysWithData != res.PreviousDaysWithData) {
			notes = append(notes, c.Category+": "+c.Note)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(notes) > 0 {
		fmt.Fprintln(w, "\n"+strings.Join(notes, ".\n")+".")
	}
	fmt.Fprintln(w, "\n"+basisLine(res.Basis))
	return nil
}

func printPromoCalendar(w io.Writer, res *grocery.PromoCalendar) error {
	fmt.Fprintf(w, "Promotions in %s from %s to %s, prices in %s\n\n", provinceName(res.Province), res.From, res.To, res.Currency)
	if len(res.Results) > 0 {
		tw := newTable(w)
		fmt.Fprintln(tw, "START\tEND\tBANNER\tSKU\tPRODUCT\tREGULAR\tPROMO\tDISCOUNT\tSTORES\tDAYS")
		for _, e := range res.Results {
			end := e.End.String()
			if e.Ongoing {
				end += " (ongoing)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f%%\t%d\t%d\n", e.Start, end, e.BannerName, e.ExternalSKU,
				productLine(e.Name, e.Brand, ""), money(e.RegularPrice), money(e.PromoPrice), e.DiscountPct, e.Stores, e.Days)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if line := pageLine(len(res.Results), res.Offset, res.Total, "promotions"); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, basisLine(res.Basis))
	return nil
}

func printNewOnShelf(w io.Writer, res *grocery.NewOnShelf) error {
	fmt.Fprintf(w, "New on shelf in %s: first observed from %s to %s (the last %d %s), prices in %s\n\n",
		provinceName(res.Province), res.From, res.To, res.Days, words.Plural(res.Days, "day"), res.Currency)
	if len(res.Results) > 0 {
		tw := newTable(w)
		fmt.Fprintln(tw, "FIRST SEEN\tBANNER\tSKU\tUPC\tPRODUCT\tCATEGORY\tFIRST PRICE\tSTORES\tLATEST\tLAST SEEN")
		for _, p := range res.Results {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", p.FirstSeen, p.BannerName, p.ExternalSKU, p.UPC,
				productLine(p.Name, p.Brand, p.Size), p.Category, money(p.FirstPrice), p.FirstStores, money(p.LatestPrice), p.LastSeen)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if line := pageLine(len(res.Results), res.Offset, res.Total, "new products"); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, basisLine(res.Basis))
	return nil
}

// signedPct writes a percent change with its sign, or "" for null.
func signedPct(p *float64) string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%+.1f%%", *p)
}
