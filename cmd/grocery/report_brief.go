package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

// briefCmd prints the executive brief (REST GET /b2b/executive_brief):
// as text, --json, or a printable HTML page with -o FILE.html. It is both
// `grocery brief` and `grocery report brief`.
func (a *app) briefCmd(use string) *cobra.Command {
	var (
		q       queryFlags
		banner  string
		account string
		out     string
	)
	cmd := &cobra.Command{
		Use:   use + " --province P [--banner B] [--account NAME] [-o brief.html | --json]",
		Short: "The latest week of a province in one page: basket, movers, promotions, inflation",
		Long: `brief summarises the latest week (the seven days up to the data set's
latest observation) of one province, from the reference-store panel, on
each banner SKU's weekly price (its daily price, its price in force, on
its last day with data in the week): the banners compared on a shared basket (an index
against the other banners' median prices, ranks for banners pricing at
least 20 of its items), the biggest regular-price moves each way,
promotion intensity by banner with the promotions started and ended,
like-for-like category inflation (this week against the week before, the
last four weeks against the four before), new products, and with
--account that account's alert events.

-o FILE writes a self-contained printable HTML page with its charts (or
JSON when FILE ends in .json); without it the brief is printed as text.`,
		Example: "  grocery brief --province ON\n" +
			"  grocery brief --province ON --banner no-frills -o brief.html\n" +
			"  grocery report brief --province QC --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			prov, err := a.provinceOf(cmd, &q, true)
			if err != nil {
				return err
			}
			res, err := ask(a, cmd, func(ctx context.Context, src querier) (*grocery.Brief, error) {
				if account != "" {
					ctx = grocery.NewContextWithAccount(ctx, account)
				}
				return src.ExecutiveBrief(ctx, grocery.BriefInput{Province: prov, Banner: banner})
			})
			if err != nil {
				return err
			}
			switch {
			case out != "":
				return writeBrief(out, res)
			case q.json:
				return writeJSON(cmd.OutOrStdout(), res)
			}
			return printBrief(cmd.OutOrStdout(), res)
		}),
	}
	q.add(cmd, true, false)
	cmd.Flags().StringVar(&banner, "banner", "", "your own `BANNER`, marked in every list, e.g. no-frills")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&account, "account", "", "include the alert events of the account `NAME`")
	cmd.RegisterFlagCompletionFunc("account", noFiles)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the brief to `FILE`: HTML, or JSON when FILE ends in .json")
	cmd.MarkFlagFilename("output", "html", "json")
	return cmd
}

// writeBrief writes the brief to path, whole or not at all.
func writeBrief(path string, b *grocery.Brief) error {
	var buf bytes.Buffer
	var err error
	if strings.EqualFold(filepath.Ext(path), ".json") {
		err = writeJSON(&buf, b)
	} else {
		err = b.WriteHTML(&buf)
	}
	if err != nil {
		return err
	}
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.abort()
		return err
	}
	return f.commit()
}

func printBrief(w io.Writer, b *grocery.Brief) error {
	fmt.Fprintf(w, "%s\n\n", b.Summary)
	if len(b.Basket.Banners) > 0 {
		fmt.Fprintf(w, "Basket of %d shared products, flyer week %s to %s (index 100 = the other banners' median prices on the same items; ranked at %d items):\n", b.Basket.Items, b.Basket.WeekFrom, b.Basket.WeekTo, b.Basket.MinItems)
		t := newTable(w)
		fmt.Fprintln(t, "  RANK\tBANNER\tINDEX\tREGULAR\tTOTAL\tMARKET\tITEMS\tMISSING")
		for _, c := range b.Basket.Banners {
			rank := "-"
			if c.Rank > 0 {
				rank = strconv.Itoa(c.Rank)
			}
			fmt.Fprintf(t, "  %s\t%s%s\t%.1f\t%.1f\t%s\t%s\t%d\t%d\n", rank, c.BannerName, own(c.Own), c.Index, c.RegularIndex, money(c.Total), money(c.MarketCost), c.Items, c.Missing)
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	for _, part := range []struct {
		title string
		list  []grocery.Mover
	}{{"Biggest regular-price rises", b.MoversUp}, {"Biggest regular-price cuts", b.MoversDown}} {
		if len(part.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s, week over week:\n", part.title)
		t := newTable(w)
		for _, m := range part.list {
			fmt.Fprintf(t, "  %s\t%s%s\t%s -> %s\t%+.1f%%\n", productLine(m.Name, m.Brand, m.Size), m.BannerName, own(m.Own), money(m.Before), money(m.Now), m.ChangePct)
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	if len(b.Categories) > 0 {
		fmt.Fprintln(w, "Category inflation (like for like; four weeks = the last four against the four before):")
		t := newTable(w)
		fmt.Fprintln(t, "  CATEGORY\tWEEK\tREGULAR\tSKUS\t4 WEEKS\tREGULAR\tSKUS")
		for _, c := range append(b.Categories, b.Overall) {
			fmt.Fprintf(t, "  %s\t%s\t%s\t%d\t%s\t%s\t%d\n", c.Category, pctText(c.WeekPct), pctText(c.WeekRegularPct), c.WeekSeries,
				pctText(c.FourWeekPct), pctText(c.FourWeekRegularPct), c.FourWeekSeries)
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	if len(b.Promotions) > 0 {
		fmt.Fprintln(w, "Promotion intensity:")
		t := newTable(w)
		fmt.Fprintln(t, "  BANNER\tPRODUCTS\tON PROMOTION\tSHARE\tAVG DISCOUNT\tSTARTED\tENDED")
		for _, p := range b.Promotions {
			fmt.Fprintf(t, "  %s%s\t%d\t%d\t%.1f%%\t%.1f%%\t%d\t%d\n", p.BannerName, own(p.Own), p.Products, p.OnPromotion, p.SharePct, p.AvgDiscountPct, p.Started, p.Ended)
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	for _, part := range []struct {
		title string
		list  []grocery.PromoChange
	}{{"Promotions started", b.PromotionsStarted}, {"Promotions ended", b.PromotionsEnded}} {
		if len(part.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s this week:\n", part.title)
		t := newTable(w)
		for _, p := range part.list {
			fmt.Fprintf(t, "  %s\t%s%s\t%s (regular %s)\t-%.1f%%\t%s\n", productLine(p.Name, p.Brand, p.Size), p.BannerName, own(p.Own), money(p.Price), money(p.Regular), p.DiscountPct, p.Date)
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	if b.NewProducts.Count > 0 {
		fmt.Fprintf(w, "New in the panel: %d %s", b.NewProducts.Count, words.Plural(b.NewProducts.Count, "product"))
		if b.NewProducts.Count > len(b.NewProducts.Products) {
			fmt.Fprintf(w, " (the first %d)", len(b.NewProducts.Products))
		}
		fmt.Fprintln(w, ":")
		t := newTable(w)
		for _, p := range b.NewProducts.Products {
			fmt.Fprintf(t, "  %s\t%s\t%s\t%s\n", productLine(p.Name, p.Brand, p.Size), strings.Join(p.Banners, ", "), p.FirstSeen, money(p.FirstPrice))
		}
		t.Flush()
		fmt.Fprintln(w)
	}
	for _, e := range b.AlertEvents {
		fmt.Fprintf(w, "Alert %s: %s\n", e.ObservedAt, e.Message)
	}
	fmt.Fprintf(w, "Basis: %d reference %s, %s %s, %d %s.\n", b.Basis.Stores, words.Plural(b.Basis.Stores, "store"),
		count(b.Basis.Observations), words.Plural(b.Basis.Observations, "observation"), len(b.Basis.Banners), words.Plural(len(b.Basis.Banners), "banner"))
	return nil
}

func own(ours bool) string {
	if ours {
		return " (yours)"
	}
	return ""
}

func pctText(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", *p)
}
