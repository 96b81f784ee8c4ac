package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// snapshotSource answers the snapshot reports: the data file opened
// read-only or a running server through its admin socket.
type snapshotSource interface {
	GeographicPrices(context.Context, grocery.GeoPricesInput) (*grocery.GeoPricesResult, error)
	RegionalComparison(context.Context, grocery.RegionalInput) (*grocery.RegionalResult, error)
	CompetitiveBenchmark(context.Context, grocery.BenchmarkInput) (*grocery.BenchmarkResult, error)
	BrandInsights(context.Context, grocery.BrandInput) (*grocery.BrandResult, error)
	CompareBasket(context.Context, grocery.BasketInput) (*grocery.BasketResult, error)
}

var (
	_ snapshotSource = (*grocery.Service)(nil)
	_ snapshotSource = (*admin.Client)(nil)
)

// runReport asks the source for one report and prints it: as the REST
// answer's JSON with --json, else with print.
func runReport[R any](a *app, cmd *cobra.Command, asJSON bool, call func(context.Context, snapshotSource) (R, error), print func(io.Writer, R) error) error {
	res, err := ask(a, cmd, func(ctx context.Context, q querier) (R, error) {
		src, ok := q.(snapshotSource)
		if !ok {
			var zero R
			return zero, fmt.Errorf("this source cannot compute reports")
		}
		return call(ctx, src)
	})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	return print(cmd.OutOrStdout(), res)
}

// snapshotReports are the report commands computed from the current
// offers.
func (a *app) snapshotReports() []*cobra.Command {
	return []*cobra.Command{a.reportGeoCmd(), a.reportRegionalCmd(), a.reportBenchmarkCmd(), a.reportBrandCmd(), a.reportBasketCmd()}
}

func printBasisNote(w io.Writer, b grocery.Basis) {
	fmt.Fprintf(w, "\nBasis: %d provinces, %d banners, %s reference stores, %s store prices, compared by %s",
		len(b.Provinces), len(b.Banners), count(b.Stores), count(b.Observations), strings.ReplaceAll(b.Comparison, "_", " "))
	if b.From != nil {
		fmt.Fprintf(w, ", observed %s to %s", b.From, b.To)
	}
	fmt.Fprintln(w, ".")
	if b.Note != "" {
		fmt.Fprintf(w, "Note: %s.\n", b.Note)
	}
}

func (a *app) reportGeoCmd() *cobra.Command {
	var (
		in     grocery.GeoPricesInput
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "geo --upc UPC | --category CATEGORY",
		Short: "Province-by-province prices of a product or category (GET /b2b/geographic_prices)",
		Long: `geo shows, province by province, the store-weighted average, lowest and
highest current shelf price of a barcode or a category, and an index against
the national average (100 = average), compared like for like on each barcode.`,
		Example: "  grocery report geo --upc 067000378089\n  grocery report geo --category 'Dairy & Eggs' --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.GeoPricesResult, error) {
				return src.GeographicPrices(ctx, in)
			}, printGeo)
		}),
	}
	cmd.Flags().StringVar(&in.UPC, "upc", "", "a barcode")
	cmd.Flags().StringVar(&in.Category, "category", "", "a catalogue category, e.g. 'Dairy & Eggs'")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

func printGeo(w io.Writer, r *grocery.GeoPricesResult) error {
	what := r.Category
	if r.UPC != "" {
		what = r.Name + " (" + r.UPC + ")"
	}
	fmt.Fprintf(w, "Current prices of %s by province, in CAD:\n", what)
	t := newTable(w)
	fmt.Fprintln(t, "PROVINCE\tAVERAGE\tMIN\tMAX\tSTORE PRICES\tPRODUCTS\tINDEX")
	rows := r.Provinces
	if r.National != nil {
		rows = append(rows[:len(rows):len(rows)], *r.National)
	}
	for _, p := range rows {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%d\t%d\t%.1f\n", p.Province, money(p.Average), money(p.Min), money(p.Max), p.StoreCount, p.Products, p.Index)
	}
	t.Flush()
	printBasisNote(w, r.Basis)
	return nil
}

func (a *app) reportRegionalCmd() *cobra.Command {
	var (
		in     grocery.RegionalInput
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "regional [--upc UPC | --category CATEGORY]",
		Short: "Regional price deltas versus the national average (GET /b2b/regional_comparison)",
		Long: `regional shows each province's price level against the national average, in
percent, for a barcode, a category or (with neither) every product of the panel.`,
		Example: "  grocery report regional\n  grocery report regional --category Pantry --json",
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.RegionalResult, error) {
				return src.RegionalComparison(ctx, in)
			}, printRegional)
		}),
	}
	cmd.Flags().StringVar(&in.UPC, "upc", "", "a barcode")
	cmd.Flags().StringVar(&in.Category, "category", "", "a catalogue category")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

func printRegional(w io.Writer, r *grocery.RegionalResult) error {
	t := newTable(w)
	fmt.Fprintln(t, "PROVINCE\tVS NATIONAL\tPRODUCTS\tSTORES\tSTORE PRICES")
	for _, p := range r.Provinces {
		fmt.Fprintf(t, "%s\t%+.1f%%\t%d\t%d\t%s\n", p.Province, p.DeltaPct, p.Products, p.Stores, count(p.Observations))
	}
	t.Flush()
	printBasisNote(w, r.Basis)
	return nil
}

func (a *app) reportBenchmarkCmd() *cobra.Command {
	var (
		q      queryFlags
		in     grocery.BenchmarkInput
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "benchmark --banner BANNER --province PROVINCE",
		Short: "A banner's price index versus the market (GET /b2b/competitive_benchmark)",
		Long: `benchmark compares a banner's current prices in a province with the market
average on the barcodes it shares with competitors, overall and per
category, and ranks every banner of the province.`,
		Example: "  grocery report benchmark --banner no-frills --province ON",
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			in.Province = prov
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.BenchmarkResult, error) {
				return src.CompetitiveBenchmark(ctx, in)
			}, printBenchmark)
		}),
	}
	cmd.Flags().StringVar(&in.Banner, "banner", "", "the banner to benchmark")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&q.province, "province", "", "province or territory code, e.g. ON (env GROCERY_PROVINCE)")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

func printBenchmark(w io.Writer, r *grocery.BenchmarkResult) error {
	if r.Rank > 0 {
		fmt.Fprintf(w, "%s in %s: index %.1f (100 = market average), rank %d of %d, on %d shared barcodes (%s against %s).\n\n",
			r.BannerName, r.Province, r.Index, r.Rank, len(r.Ranking), r.Shared, money(r.Total), money(r.MarketCost))
	}
	t := newTable(w)
	fmt.Fprintln(t, "RANK\tBANNER\tINDEX\tSHARED")
	for _, b := range r.Ranking {
		fmt.Fprintf(t, "%d\t%s\t%.1f\t%d\n", b.Rank, b.BannerName, b.Index, b.Shared)
	}
	t.Flush()
	if len(r.Categories) > 0 {
		fmt.Fprintf(w, "\n%s by category:\n", r.BannerName)
		t = newTable(w)
		fmt.Fprintln(t, "CATEGORY\tINDEX\tSHARED")
		for _, c := range r.Categories {
			fmt.Fprintf(t, "%s\t%.1f\t%d\n", c.Category, c.Index, c.Shared)
		}
		t.Flush()
	}
	printBasisNote(w, r.Basis)
	return nil
}

func (a *app) reportBrandCmd() *cobra.Command {
	var (
		in     grocery.BrandInput
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "brand BRAND",
		Short: "A brand's pricing across banners and provinces (GET /b2b/brand_insights)",
		Long: `brand shows a brand's price level against its categories (by unit price),
its promotions now and its assortment breadth, per banner and province.`,
		Example: "  grocery report brand Tropicana --province ON",
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			in.Brand = strings.Join(args, " ")
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.BrandResult, error) {
				return src.BrandInsights(ctx, in)
			}, printBrand)
		}),
	}
	cmd.Flags().StringVar(&in.Province, "province", "", "only this province or territory")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

func printBrand(w io.Writer, r *grocery.BrandResult) error {
	fmt.Fprintf(w, "%s: %d products in the catalogue (%s).\n\n", r.Brand, r.Catalogue, strings.Join(r.Categories, ", "))
	t := newTable(w)
	fmt.Fprintln(t, "PROVINCE\tBANNER\tPRODUCTS\tINDEX\tON PROMO\tDEPTH")
	for _, b := range r.Rows {
		idx, depth := "-", "-"
		if b.Index != nil {
			idx = strconv.FormatFloat(*b.Index, 'f', 1, 64)
		}
		if b.PromoDepth != nil {
			depth = strconv.FormatFloat(*b.PromoDepth, 'f', 1, 64) + "%"
		}
		fmt.Fprintf(t, "%s\t%s\t%d\t%s\t%d (%.0f%%)\t%s\n", b.Province, b.BannerName, b.Products, idx, b.OnPromo, b.PromoShare, depth)
	}
	t.Flush()
	printBasisNote(w, r.Basis)
	return nil
}

func (a *app) reportBasketCmd() *cobra.Command {
	var (
		q      queryFlags
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "basket ITEM... --province PROVINCE",
		Short: "Price a basket at every banner of a province (POST /b2b/basket)",
		Long: `basket prices a basket at every banner of a province. Each ITEM is a barcode
or product words, optionally followed by :QUANTITY (1 to 99, default 1):
"067000378089:2", "orange juice", "milk:3".`,
		Example: "  grocery report basket 067000378089:2 milk bread:2 --province ON",
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			in := grocery.BasketInput{Province: prov}
			for _, arg := range args {
				it, err := basketItem(arg)
				if err != nil {
					return err
				}
				in.Items = append(in.Items, it)
			}
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.BasketResult, error) {
				return src.CompareBasket(ctx, in)
			}, printBasket)
		}),
	}
	cmd.Flags().StringVar(&q.province, "province", "", "province or territory code, e.g. ON (env GROCERY_PROVINCE)")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

// basketItem reads "WORDS[:N]" or "BARCODE[:N]".
func basketItem(arg string) (grocery.BasketItemInput, error) {
	it := grocery.BasketItemInput{Quantity: 1}
	text := arg
	if i := strings.LastIndexByte(arg, ':'); i >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace(arg[i+1:]))
		if err != nil {
			return it, usagef("item %q: the quantity after ':' is not a whole number", arg)
		}
		it.Quantity, text = n, arg[:i]
	}
	digits := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, text)
	if _, err := strconv.ParseUint(digits, 10, 64); err == nil && digits != "" {
		it.UPC = text
	} else {
		it.Name = text
	}
	return it, nil
}

func printBasket(w io.Writer, r *grocery.BasketResult) error {
	fmt.Fprintf(w, "Basket in %s, prices in CAD:\n", r.Province)
	t := newTable(w)
	fmt.Fprintln(t, "ITEM\tQTY\tPRODUCT\tMATCH")
	for _, it := range r.Items {
		prod, match := "not found in the catalogue", ""
		if it.Found {
			prod = fmt.Sprintf("%s, %s, %s (%s)", it.Name, it.Brand, it.Size, it.UPC)
		}
		if it.Match != nil {
			match = fmt.Sprintf("%.0f%%", 100*it.Match.Confidence)
			if it.Match.RunnerUp != nil {
				match += fmt.Sprintf(", runner-up %s %s", it.Match.RunnerUp.Name, it.Match.RunnerUp.Size)
			}
		}
		fmt.Fprintf(t, "%d %s\t%d\t%s\t%s\n", it.Item, it.Query, it.Quantity, prod, match)
	}
	t.Flush()
	fmt.Fprintln(w)
	t = newTable(w)
	fmt.Fprintln(t, "BANNER\tTOTAL\tCOMPLETE\tLACKING\tSUBSTITUTES")
	for _, b := range r.Banners {
		lacking := make([]string, len(b.Lacking))
		for i, n := range b.Lacking {
			lacking[i] = strconv.Itoa(n)
		}
		fmt.Fprintf(t, "%s\t%s\t%t\t%s\t%d\n", b.BannerName, money(b.Total), b.Complete, strings.Join(lacking, " "), b.Substitutes)
	}
	t.Flush()
	if r.Cheapest != nil {
		fmt.Fprintf(w, "\nCheapest complete basket: %s at %s; dearest %s at %s: saves %s (%.1f%%).\n",
			money(r.Cheapest.Total), r.Cheapest.Banners[0], money(r.Dearest.Total), r.Dearest.Banners[0], money(r.Savings), r.SavingsPct)
	}
	if r.CheapestSplit != nil {
		fmt.Fprintf(w, "Cheapest split: %s across %s.\n", money(r.CheapestSplit.Total), strings.Join(r.CheapestSplit.Banners, " and "))
	}
	printBasisNote(w, r.Basis)
	return nil
}
