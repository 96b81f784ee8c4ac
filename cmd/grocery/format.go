package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
)

// writeJSON prints v as indented JSON: for a query result, the same JSON as
// the MCP tool of the same name returns, and for a report, the library's
// result.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// money formats cents as "$4.99".
func money(c grocery.Cents) string { return "$" + c.String() }

// count formats n with thousands separators: 1,234,567.
func count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// productLine describes a product: "2% Partly Skimmed Milk, Natrel, 2 L".
func productLine(name, brand, size string) string {
	var parts []string
	for _, p := range []string{name, brand, size} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// promo describes a promotion: "until 2026-11-25", "yes" or "".
func promo(on bool, ends *grocery.Date) string {
	switch {
	case !on:
		return ""
	case ends != nil:
		return "until " + ends.String()
	}
	return "yes"
}

func provinceName(code string) string {
	if p, ok := grocery.ProvinceByCode(code); ok {
		return p.Name
	}
	return code
}

// printLookup prints a lookup's offers; offset is the --offset the page
// was asked with.
func printLookup(w io.Writer, res *grocery.LookupResult, offset int) error {
	p := res.Product
	line := productLine(p.Name, p.Brand, p.Size)
	if p.Category != "" {
		line += " (" + p.Category + ")"
	}
	fmt.Fprintln(w, line)
	fmt.Fprintf(w, "UPC %s, GTIN %s\n\n", p.UPC, p.GTIN)
	if len(res.Offers) == 0 && res.Total > 0 {
		fmt.Fprintln(w, listLine(0, offset, res.Total, "offers"))
		return nil
	}
	if len(res.Offers) == 0 {
		fmt.Fprintf(w, "No current offers in %s: no reference store there observed it in the last 14 days.\n", provinceName(res.Province))
		fmt.Fprintln(w, "That does not prove it is unavailable.")
		return nil
	}
	fmt.Fprintf(w, "Offers in %s, prices in %s:\n", provinceName(res.Province), res.Currency)
	tw := newTable(w)
	fmt.Fprintln(tw, "BANNER\tSKU\tPRICE\tREGULAR\tPROMO\tRANGE\tUNIT PRICE\tSTORES\tOBSERVED\t30-DAY LOW\tTYPICAL\tVERDICT")
	for _, o := range res.Offers {
		rng := ""
		if o.MinPrice != o.MaxPrice {
			rng = money(o.MinPrice) + "-" + money(o.MaxPrice)
		}
		unit := ""
		if o.UnitPrice != nil {
			unit = money(*o.UnitPrice) + " " + o.UnitPriceBasis
		}
		low := ""
		if o.Low30d != nil {
			low = money(*o.Low30d)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", o.BannerName, o.ExternalSKU, money(o.Price), money(o.RegularPrice),
			promo(o.OnPromo, o.PromoEnds), rng, unit, o.StoreCount, o.ObservedAt, low, money(o.TypicalPrice), strings.ReplaceAll(o.Verdict, "_", " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if line := listLine(len(res.Offers), offset, res.Total, "offers"); line != "" {
		fmt.Fprintln(w, "\n"+line)
	}
	fmt.Fprintln(w, "\nPrice history of an offer: grocery history SKU --banner BANNER --province "+res.Province)
	return nil
}

// listLine says which items of a list a page of shown, after offset, holds
// when it is not all of them, and how to see the rest: "10 of 18 offers
// (--limit 18 for all, or --offset 10 for the next page)", "11 to 20 of
// 58 reference stores (--offset 20 for the next page)". It is "" for a
// whole list.
func listLine(shown, offset, total int, items string) string {
	switch {
	case shown == 0 && total > 0:
		return fmt.Sprintf("No %s past --offset %d: there are %s.", items, offset, count(total))
	case offset == 0 && shown >= total:
		return ""
	case offset == 0 && total <= grocery.MaxLimit:
		return fmt.Sprintf("%d of %s %s (--limit %d for all, or --offset %d for the next page)", shown, count(total), items, total, shown)
	case offset+shown < total:
		return fmt.Sprintf("%s to %s of %s %s (--offset %d for the next page)", count(offset+1), count(offset+shown), count(total), items, offset+shown)
	}
	return fmt.Sprintf("%s to %s of %s %s", count(offset+1), count(offset+shown), count(total), items)
}

// printSearch prints a search's products; offset is the --offset the page
// was asked with.
func printSearch(w io.Writer, res *grocery.SearchResult, offset int) error {
	if len(res.Results) == 0 && res.Total > 0 {
		fmt.Fprintln(w, listLine(0, offset, res.Total, "products"))
		return nil
	}
	if len(res.Results) == 0 {
		fmt.Fprintf(w, "No products match %q in %s. That does not prove none are sold there.\n", res.Query, provinceName(res.Province))
		if res.Hint != "" {
			fmt.Fprintf(w, "Hint: %s.\n", res.Hint)
		}
		return nil
	}
	fmt.Fprintf(w, "Products matching %q in %s, prices in %s:\n", res.Query, provinceName(res.Province), res.Currency)
	tw := newTable(w)
	fmt.Fprintln(tw, "UPC\tPRODUCT\tBANNER\tSKU\tPRICE\tREGULAR\tPROMO")
	for _, p := range res.Results {
		for i, o := range p.Shown() {
			upc, name := p.UPC, productLine(p.Name, p.Brand, p.Size)
			if i > 0 {
				upc, name = "", ""
			}
			regular, promoMark := o.Price, ""
			if o.OnPromo {
				regular, promoMark = o.RegularPrice, "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", upc, name, bannerName(o.Banner), o.ExternalSKU,
				money(o.Price), money(regular), promoMark)
		}
		if more := p.OfferCount - 1 - len(p.Offers); more > 0 {
			fmt.Fprintf(tw, "\t\t%d more (grocery lookup %s)\t\t\t\t\n", more, p.UPC)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	products := len(res.Results)
	if line := listLine(products, offset, res.Total, "products"); line != "" {
		fmt.Fprintln(w, "\n"+line)
	}
	return nil
}

func printHistory(w io.Writer, res *grocery.HistoryResult) error {
	title := fmt.Sprintf("%s SKU %s in %s", bannerName(res.Banner), res.SKU, provinceName(res.Province))
	if res.Name != "" {
		title += ": " + res.Name
	}
	if res.UPC != "" {
		title += " (UPC " + res.UPC + ")"
	}
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "%s from %s to %s, prices in %s, across the province's reference stores\n\n", res.Period, res.From, res.To, res.Currency)
	if len(res.Points) == 0 {
		fmt.Fprintln(w, "No observations in this window. Try a longer --period.")
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "DATE\tMIN\tMEDIAN\tMAX\tSTORES")
	for _, p := range res.Points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", p.Date, money(p.Min), money(p.Median), money(p.Max), p.StoreCount)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if st := res.Stats; st != nil {
		fmt.Fprintf(w, "\nLowest %s, highest %s, latest %s (median), %+.1f%% since %s\n", money(st.Min), money(st.Max), money(st.Latest), st.ChangePct, res.Points[0].Date)
	}
	return nil
}

// printStores prints a page of reference stores; offset is the --offset
// the page was asked with.
func printStores(w io.Writer, res *grocery.StoresResult, offset int) error {
	if len(res.Stores) == 0 && res.Total > 0 {
		fmt.Fprintln(w, listLine(0, offset, res.Total, "reference stores"))
		return nil
	}
	if len(res.Stores) == 0 {
		fmt.Fprintln(w, "No active reference stores match.")
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "STORE\tBANNER\tPROVINCE\tNAME\tCITY\tPOSTAL CODE\tLATITUDE\tLONGITUDE\tOBS 30D")
	for _, s := range res.Stores {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.4f\t%.4f\t%s\n", s.ID, s.BannerName, s.Province, s.Name, s.City, s.PostalCode,
			s.Latitude, s.Longitude, count(s.Observations30d))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if line := listLine(len(res.Stores), offset, res.Total, "reference stores"); line != "" {
		fmt.Fprintln(w, "\n"+line)
	} else {
		fmt.Fprintf(w, "\n%s reference %s.\n", count(res.Total), words.Plural(res.Total, "store"))
	}
	return nil
}

func bannerName(slug string) string {
	if b, err := grocery.ParseBanner(slug); err == nil {
		return b.Name
	}
	return slug
}
