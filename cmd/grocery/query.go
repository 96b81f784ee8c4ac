package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// queryFlags are the flags the four lookup commands share.
type queryFlags struct {
	province string
	limit    grocery.Opt[int]
	offset   int
	json     bool
	lang     string
}

// queryLimit is the lookup commands' limit when --limit is not given: a
// screenful, as the MCP tools give.
const queryLimit = 10

// add registers --province (required says whether the command needs it),
// --limit and --offset (when withLimit) and --json.
func (q *queryFlags) add(cmd *cobra.Command, required, withLimit bool) {
	help := "province or territory code, e.g. ON (env GROCERY_PROVINCE)"
	if !required {
		help = "only stores of this province or territory, e.g. ON (env GROCERY_PROVINCE)"
	}
	cmd.Flags().StringVar(&q.province, "province", "", help)
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	if withLimit {
		q.limit = grocery.Some(queryLimit)
		limitFlag(cmd, &q.limit, "results")
		cmd.Flags().IntVar(&q.offset, "offset", 0, "skip this many results first (the footer names the next page's)")
	}
	cmd.Flags().BoolVar(&q.json, "json", false, "print the result as JSON, as the library returns it")
}

// limitFlag registers --limit, the most items of what a list shows: a
// limit given, checked by the library (1 to grocery.MaxLimit); not given,
// the one *limit holds (a command's own default), else the library's
// (grocery.DefaultLimit), which --help shows.
func limitFlag(cmd *cobra.Command, limit *grocery.Opt[int], what string) {
	cmd.Flags().Var(optInt{limit, grocery.DefaultLimit}, "limit", fmt.Sprintf("at most this many %s, 1 to %d", what, grocery.MaxLimit))
}

// optInt is the pflag.Value of an optional whole number: given when the
// flag is, its range the library's to check; not given, *o as it was,
// and def (the library's default) shown in --help.
type optInt struct {
	o   *grocery.Opt[int]
	def int
}

func (v optInt) String() string {
	if v.o == nil { // pflag's zero value, for its help
		return ""
	}
	return strconv.Itoa(v.o.Or(v.def))
}

func (v optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want a whole number")
	}
	*v.o = grocery.Some(n)
	return nil
}

func (optInt) Type() string { return "int" }

// addLang registers --lang, for the commands whose results name products.
func (q *queryFlags) addLang(cmd *cobra.Command) {
	cmd.Flags().StringVar(&q.lang, "lang", "en", "language of the product names: en or fr (a product without a French name shows its English one)")
	cmd.RegisterFlagCompletionFunc("lang", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{cobra.CompletionWithDesc("en", "English"), cobra.CompletionWithDesc("fr", "French")}, cobra.ShellCompDirectiveNoFileComp
	})
}

// provinceOf returns --province, else GROCERY_PROVINCE. A command that
// needs a province and has none gets a usage error listing the codes.
func (a *app) provinceOf(cmd *cobra.Command, q *queryFlags, required bool) (string, error) {
	p := q.province
	if !cmd.Flags().Changed("province") {
		p = a.getenv("GROCERY_PROVINCE")
	}
	if required && strings.TrimSpace(p) == "" {
		return "", usagef("--province is required (or set GROCERY_PROVINCE): one of %s", provinceCodes())
	}
	return p, nil
}

func provinceCodes() string {
	var codes []string
	for _, p := range grocery.Provinces() {
		codes = append(codes, p.Code)
	}
	return strings.Join(codes, " ")
}

// querier answers the lookup commands: the data file opened read-only (a
// *grocery.Service) or, while a server holds the file, that server through
// its admin socket (an *admin.Client). A new query is one method here.
type querier interface {
	LookupProduct(context.Context, grocery.LookupInput) (*grocery.LookupResult, error)
	SearchProducts(context.Context, grocery.SearchInput) (*grocery.SearchResult, error)
	PriceHistory(context.Context, grocery.HistoryInput) (*grocery.HistoryResult, error)
	ListReferenceStores(context.Context, grocery.StoresInput) (*grocery.StoresResult, error)
	CategoryReport(context.Context, grocery.CategoryReportInput) (*grocery.CategoryReport, error)
	PromoCalendar(context.Context, grocery.PromoCalendarInput) (*grocery.PromoCalendar, error)
	NewOnShelf(context.Context, grocery.NewOnShelfInput) (*grocery.NewOnShelf, error)
	ExecutiveBrief(context.Context, grocery.BriefInput) (*grocery.Brief, error)
	Signals(context.Context, grocery.SignalsInput) (*grocery.SignalsResult, error)
}

var (
	_ querier = (*grocery.Service)(nil)
	_ querier = (*admin.Client)(nil)
)

// runQuery runs one query and prints its result: as JSON with --json,
// else with print.
func runQuery[R any](a *app, cmd *cobra.Command, q *queryFlags, call func(context.Context, querier) (R, error), print func(io.Writer, R) error) error {
	res, err := ask(a, cmd, call)
	if err != nil {
		return err
	}
	if q.json {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	return print(cmd.OutOrStdout(), res)
}

// ask is the one place a query picks its source. A server that holds the
// data file answers through its admin socket when one answers there (a
// writer's lock keeps a read-only open out); else the file is opened
// read-only here. The server's errors are its *grocery.Error values, so
// the output and exit status are the same either way.
func ask[R any](a *app, cmd *cobra.Command, call func(context.Context, querier) (R, error)) (R, error) {
	ctx := cmd.Context()
	c := admin.Dial(admin.SocketPath(a.dbPath(cmd)))
	defer c.Close()
	res, err := call(ctx, c)
	if !errors.Is(err, admin.ErrNoAdmin) {
		return res, err
	}
	svc, err := a.openRead(cmd)
	if err != nil {
		var zero R
		return zero, err
	}
	defer svc.Close()
	return call(ctx, svc)
}

func completeProvince(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, p := range grocery.Provinces() {
		out = append(out, cobra.CompletionWithDesc(p.Code, p.Name))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func completeBanner(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, b := range grocery.Banners() {
		out = append(out, cobra.CompletionWithDesc(b.Slug, b.Name))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func completePeriod(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"7d", "14d", "30d", "90d", "180d", "365d"}, cobra.ShellCompDirectiveNoFileComp
}

func noFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

func (a *app) lookupCmd() *cobra.Command {
	var q queryFlags
	cmd := &cobra.Command{
		Use:   "lookup UPC",
		Short: "Current offers for a barcode in one province",
		Long: `lookup resolves a UPC/EAN/GTIN barcode to its product and shows the current
offers for it across the banners of one province: price, regular price,
promotion, unit price, and how many reference stores observed it.

A known product that no banner carries in the province has no offers; that
does not prove it is unavailable. Use an offer's SKU with 'grocery history'.`,
		Example:           "  grocery lookup 067000378089 --province ON\n  grocery lookup 067000378089 --province Québec --json\n  grocery lookup 067000378089 --province QC --lang fr",
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			return runQuery(a, cmd, &q, func(ctx context.Context, src querier) (*grocery.LookupResult, error) {
				return src.LookupProduct(ctx, grocery.LookupInput{UPC: args[0], Province: prov, Limit: q.limit, Offset: q.offset, Lang: q.lang})
			}, func(w io.Writer, res *grocery.LookupResult) error { return printLookup(w, res, q.offset) })
		}),
	}
	q.add(cmd, true, true)
	q.addLang(cmd)
	return cmd
}

func (a *app) searchCmd() *cobra.Command {
	var q queryFlags
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search products by name or brand in one province",
		Long: `search finds products by name or brand (the words of QUERY, accents and
case ignored, prefixes match; a product's English and French names both
count) and shows each banner's current price in one province. It never
mixes provinces.`,
		Example:           "  grocery search milk --province ON\n  grocery search crème glacée --province QC --limit 20\n  grocery search lait --province QC --lang fr",
		Args:              atLeastOne("the words to look for", "grocery search milk --province ON"),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			return runQuery(a, cmd, &q, func(ctx context.Context, src querier) (*grocery.SearchResult, error) {
				return src.SearchProducts(ctx, grocery.SearchInput{Query: strings.Join(args, " "), Province: prov, Limit: q.limit, Offset: q.offset, Lang: q.lang})
			}, func(w io.Writer, res *grocery.SearchResult) error { return printSearch(w, res, q.offset) })
		}),
	}
	q.add(cmd, true, true)
	q.addLang(cmd)
	return cmd
}

func (a *app) historyCmd() *cobra.Command {
	var (
		q              queryFlags
		banner, period string
	)
	cmd := &cobra.Command{
		Use:   "history SKU --banner BANNER",
		Short: "Observed price series of a retailer SKU in one province",
		Long: `history shows the observed prices of one banner's SKU (an external_sku from
'grocery lookup' or 'grocery search', not a barcode) across the reference
stores of one province, day by day: lowest, median and highest price.`,
		Example:           "  grocery history 20156839_EA --banner no-frills --province ON\n  grocery history 20156839_EA --banner \"No Frills\" --province ON --period 90d",
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			return runQuery(a, cmd, &q, func(ctx context.Context, src querier) (*grocery.HistoryResult, error) {
				return src.PriceHistory(ctx, grocery.HistoryInput{SKU: args[0], Banner: banner, Province: prov, Period: period, Lang: q.lang})
			}, printHistory)
		}),
	}
	q.add(cmd, true, false)
	q.addLang(cmd)
	cmd.Flags().StringVar(&banner, "banner", "", "the banner the SKU belongs to, e.g. loblaws")
	cmd.MarkFlagRequired("banner")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&period, "period", "30d", "lookback window: 7d, 14d, 30d, 90d, 180d or 365d")
	cmd.RegisterFlagCompletionFunc("period", completePeriod)
	return cmd
}

func (a *app) storesCmd() *cobra.Command {
	var (
		q      queryFlags
		banner string
	)
	cmd := &cobra.Command{
		Use:   "stores",
		Short: "The active reference stores prices are collected from",
		Long: `stores lists the active reference stores, the panel prices are collected
from, optionally of one province and one banner. It is not a directory of
all grocery stores.`,
		Example:           "  grocery stores --province ON\n  grocery stores --banner maxi --limit 50",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, false)
			if err != nil {
				return err
			}
			return runQuery(a, cmd, &q, func(ctx context.Context, src querier) (*grocery.StoresResult, error) {
				return src.ListReferenceStores(ctx, grocery.StoresInput{Province: prov, Banner: banner, Limit: q.limit, Offset: q.offset})
			}, func(w io.Writer, res *grocery.StoresResult) error { return printStores(w, res, q.offset) })
		}),
	}
	q.add(cmd, false, true)
	cmd.Flags().StringVar(&banner, "banner", "", "only stores of this banner, e.g. loblaws")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	return cmd
}
