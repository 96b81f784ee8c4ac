package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
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
	fmt.Fprintf(w, "\nBasis: %d %s, %d %s, %s reference %s, %s store %s, compared by %s",
		len(b.Provinces), words.Plural(len(b.Provinces), "province"), len(b.Banners), words.Plural(len(b.Banners), "banner"),
		count(b.Stores), words.Plural(b.Stores, "store"), count(b.Observations), words.Plural(b.Observations, "price"),
		strings.ReplaceAll(b.Comparison, "_", " "))
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
		Long: `geo shows, province by province, an index of a barcode's or a category's
current prices against the national prices, banner for banner (100 = national):
the geometric mean, over the (banner, barcode) pairs the province shares with
another province, of the banner's regular price there over its national regular
price (its province prices weighted by population); the shelf index likewise
with shelf prices. Each row says the pairs, banners, products and reference
stores the index rests on; rows under the minimums (5 products for a category,
3 stores, 2 banners) are marked low. The lowest and highest current banner
prices are shown, and for a barcode its median and mean banner price.`,
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
	fmt.Fprintln(t, "PROVINCE\tPRICE\tAVERAGE\tMIN\tMAX\tINDEX\tSHELF INDEX\tPAIRS\tBANNERS\tPRODUCTS\tSTORES")
	rows := r.Provinces
	if r.National != nil {
		rows = append(rows[:len(rows):len(rows)], *r.National)
	}
	for _, p := range rows {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", p.Province, moneyOrDash(p.Price), moneyOrDash(p.Average), money(p.Min), money(p.Max),
			figureOrDash(p.Index, "%.1f"), figureOrDash(p.ShelfIndex, "%.1f"), p.Pairs, p.Banners, p.Products, sampleText(p.Stores, p.Thin, p.LowSample))
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
		Long: `regional shows each province's price level against the national prices, in
percent, for a barcode, a category or (with neither) every product of the
panel, banner for banner: the geo index minus 100, on regular prices and on
shelf prices. Each row says the pairs, banners, products and reference stores
it rests on; rows under the minimums (5 products for a category or the panel,
3 stores, 2 banners) are marked low.`,
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

// figureOrDash formats f with format, or "-" when it is null: a figure
// with nothing to compare.
func figureOrDash(f *float64, format string) string {
	if f == nil {
		return "-"
	}
	return fmt.Sprintf(format, *f)
}

func printRegional(w io.Writer, r *grocery.RegionalResult) error {
	t := newTable(w)
	fmt.Fprintln(t, "PROVINCE\tVS NATIONAL\tINDEX\tSHELF\tPAIRS\tBANNERS\tPRODUCTS\tSTORES\tSTORE PRICES")
	for _, p := range r.Provinces {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", p.Province, figureOrDash(p.DeltaPct, "%+.1f%%"), figureOrDash(p.Index, "%.1f"), figureOrDash(p.ShelfDeltaPct, "%+.1f%%"), p.Pairs, p.Banners, p.Products,
			sampleText(p.Stores, p.Thin, p.LowSample), count(p.Observations))
	}
	t.Flush()
	printBasisNote(w, r.Basis)
	return nil
}

// sampleText writes a count (of stores, or of SKUs matched), marked when
// thin or under the sample minimums.
func sampleText(n int, thin, low bool) string {
	switch {
	case thin:
		return strconv.Itoa(n) + " (thin, low)"
	case low:
		return strconv.Itoa(n) + " (low)"
	}
	return strconv.Itoa(n)
}

// moneyOrDash writes an optional amount, "-" when absent.
func moneyOrDash(c *grocery.Cents) string {
	if c == nil {
		return "-"
	}
	return money(*c)
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
on the same items: per barcode, the market price is the median of the OTHER
banners' prices; the items are the barcodes the banner prices and at least 2
other banners price; the index is 100 x the geometric mean of price / market
price over the items, on shelf and on regular prices (100 = the market).
Banners with at least 20 items are ranked, cheapest first; the others are
listed unranked (-). Per category, the banner's rank among the banners with
at least 20 items in that category.`,
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
	if r.Index != nil && r.RegularIndex != nil {
		rank := "not ranked"
		if r.Rank > 0 {
			rank = fmt.Sprintf("rank %d of %d", r.Rank, r.Ranked)
		}
		fmt.Fprintf(w, "%s in %s, flyer week %s to %s: index %.1f, regular %.1f (100 = the market of the other banners), %s, on its own %d items (%s against %s).\n\n",
			r.BannerName, r.Province, r.WeekFrom, r.WeekTo, *r.Index, *r.RegularIndex, rank, r.Items, money(r.Total), money(r.MarketCost))
	} else {
		fmt.Fprintf(w, "%s in %s, flyer week %s to %s: no index, no item to compare (the note says why).\n\n", r.BannerName, r.Province, r.WeekFrom, r.WeekTo)
	}
	t := newTable(w)
	fmt.Fprintln(t, "RANK\tBANNER\tINDEX\tREGULAR\tITEMS")
	for _, b := range r.Ranking {
		fmt.Fprintf(t, "%s\t%s\t%.1f\t%.1f\t%d\n", rankText(b.Rank), b.BannerName, b.Index, b.RegularIndex, b.Items)
	}
	t.Flush()
	if len(r.Categories) > 0 {
		fmt.Fprintf(w, "\n%s by category:\n", r.BannerName)
		t = newTable(w)
		fmt.Fprintln(t, "CATEGORY\tINDEX\tREGULAR\tITEMS\tRANK")
		for _, c := range r.Categories {
			rank := rankText(c.Rank)
			if c.Rank > 0 {
				rank += fmt.Sprintf(" of %d", c.Ranked)
			}
			fmt.Fprintf(t, "%s\t%.1f\t%.1f\t%d\t%s\n", c.Category, c.Index, c.RegularIndex, c.Items, rank)
		}
		t.Flush()
	}
	printBasisNote(w, r.Basis)
	return nil
}

// rankText writes a rank, "-" when not ranked.
func rankText(rank int) string {
	if rank == 0 {
		return "-"
	}
	return strconv.Itoa(rank)
}

func (a *app) reportBrandCmd() *cobra.Command {
	var (
		in     grocery.BrandInput
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "brand BRAND",
		Short: "A brand's pricing across banners and provinces (GET /b2b/brand_insights)",
		Long: `brand shows, per banner and province, a brand's assortment breadth (barcodes
with a current price), its price index against like products of other brands
(same category, product type and unit basis, pack size within 1.5x: 100 x the geometric
mean of its unit price / the peers' median unit price, over its products
with at least 3 peers), and its promotions over the period: the share of its
SKUs' daily prices on promotion and their mean discount.`,
		Example: "  grocery report brand Tropicana --province ON",
		Args:    atLeastOne("the brand", "grocery report brand Tropicana --province ON"),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			in.Brand = strings.Join(args, " ")
			return runReport(a, cmd, asJSON, func(ctx context.Context, src snapshotSource) (*grocery.BrandResult, error) {
				return src.BrandInsights(ctx, in)
			}, printBrand)
		}),
	}
	cmd.Flags().StringVar(&in.Province, "province", "", "only this province or territory")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().StringVar(&in.Period, "period", "", "the promotion figures' period: 7d, 14d, 30d, 90d, 180d or 365d (default 30d)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the REST answer's JSON")
	return cmd
}

func printBrand(w io.Writer, r *grocery.BrandResult) error {
	fmt.Fprintf(w, "%s: %d %s in the catalogue (%s); promotions from %s to %s (%s).\n\n", r.Brand, r.Catalogue, words.Plural(r.Catalogue, "product"), strings.Join(r.Categories, ", "), r.From, r.To, r.Period)
	t := newTable(w)
	fmt.Fprintln(t, "PROVINCE\tBANNER\tPRODUCTS\tNO PEERS\tINDEX\tSKU-DAYS\tON PROMO\tDEPTH")
	opt := func(v *float64, unit string) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatFloat(*v, 'f', 1, 64) + unit
	}
	for _, b := range r.Rows {
		fmt.Fprintf(t, "%s\t%s\t%d\t%d\t%s\t%d\t%s\t%s\n", b.Province, b.BannerName, b.Products, b.ProductsWithoutPeers, opt(b.Index, ""),
			b.SKUDays, opt(b.PromoShare, "%"), opt(b.PromoDepth, "%"))
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
		Args:    atLeastOne("the items of the basket", "grocery report basket 067000378089:2 milk --province ON"),
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
			if it.Match.Tied > 1 {
				match += fmt.Sprintf(" (%d tied)", it.Match.Tied)
			}
			if it.Match.RunnerUp != nil {
				match += fmt.Sprintf(", runner-up %s, %s, %s", it.Match.RunnerUp.Name, it.Match.RunnerUp.Brand, it.Match.RunnerUp.Size)
			}
		}
		fmt.Fprintf(t, "%d %s\t%d\t%s\t%s\n", it.Item, it.Query, it.Quantity, prod, match)
	}
	t.Flush()
	fmt.Fprintln(w)
	t = newTable(w)
	fmt.Fprintln(t, "BANNER\tTOTAL\tCOMPLETE\tEXACT\tSUBSTITUTES\tLACKING")
	for _, b := range r.Banners {
		lacking := make([]string, len(b.Lacking))
		for i, n := range b.Lacking {
			lacking[i] = strconv.Itoa(n)
		}
		fmt.Fprintf(t, "%s\t%s\t%t\t%d\t%d\t%s\n", b.BannerName, money(b.Total), b.Complete, b.Exact, b.Substitutes, strings.Join(lacking, " "))
	}
	t.Flush()
	if r.Cheapest != nil {
		fmt.Fprintf(w, "\nCheapest basket, every item exact: %s at %s; dearest %s at %s: saves %s (%.1f%%).\n",
			money(r.Cheapest.Total), bannerName(r.Cheapest.Banners[0]), money(r.Dearest.Total), bannerName(r.Dearest.Banners[0]), money(r.Savings), r.SavingsPct)
	}
	if c := r.CheapestWithSubstitutes; c != nil && c.Substitutes > 0 {
		fmt.Fprintf(w, "Cheapest with substitutes of the same type (not like for like): %s at %s, %d substituted.\n",
			money(c.Total), bannerName(c.Banners[0]), c.Substitutes)
	}
	if r.CheapestSplit != nil {
		names := make([]string, len(r.CheapestSplit.Banners))
		for i, b := range r.CheapestSplit.Banners {
			names[i] = bannerName(b)
		}
		fmt.Fprintf(w, "Cheapest split: %s across %s.\n", money(r.CheapestSplit.Total), strings.Join(names, " and "))
	}
	printBasisNote(w, r.Basis)
	return nil
}
