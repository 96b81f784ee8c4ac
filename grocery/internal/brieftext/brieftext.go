// Package brieftext says an executive brief's main figures in a short
// paragraph: the Summary of grocery's Brief, worded from plain values;
// and writes figures as the brief's page shows them (Pct, Signed, F1).
// It computes no figure and decides nothing about them (which banners
// are ranked, what a change is): grocery does, and hands it the results,
// prices and dates already written. It imports nothing from grocery.
package brieftext

import (
	"fmt"
	"math"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/internal/words"
)

// Figures are what a summary says.
type Figures struct {
	Province string // the province's name
	From, To string // the week's first and last days, YYYY-MM-DD
	// Ranked are the basket's ranked banners, cheapest first: those that
	// price at least MinItems of its Items shared products in the flyer
	// week BasketFrom to BasketTo (YYYY-MM-DD).
	Ranked               []Banner
	MinItems, Items      int
	BasketFrom, BasketTo string
	// Overall is every category together; Categories each category.
	Overall    Change
	Categories []Change
	// Up and Down are the biggest regular-price rise and cut, nil when
	// there is none.
	Up, Down *Move
	// Promotions are the banners' promotion intensity, the highest
	// share on promotion first.
	Promotions []Promotions
	// Minimums says the sample minimums a category's change must meet to
	// be the largest move ("under 5 SKUs, 3 stores or 2 banners").
	Minimums string
	// NewProducts counts the products new in the panel, AlertEvents the
	// reader's alert events of the week.
	NewProducts, AlertEvents int
}

// Banner is a ranked banner's standing on the basket.
type Banner struct {
	Name  string  // display name
	Index float64 // 100 is the market
	Total string  // its prices of the items it prices, in dollars ("41.37")
	Items int     // basket items it prices
}

// Change is a like-for-like price change in percent.
type Change struct {
	Name     string   // the category
	Week     *float64 // this week against the week before; nil when not compared
	Series   int      // banner SKUs compared week over week
	FourWeek *float64 // the last four weeks against the four before; nil when not compared
	// LowSample: the change rests on fewer SKUs, stores or banners than
	// the minimums (Figures.Minimums); a category so flagged is never
	// the largest move, and the summary names it as left out.
	LowSample bool
}

// Move is a banner SKU's regular-price change.
type Move struct {
	Brand, Name, Banner string  // Banner its display name
	Before, Now         string  // weekly regular prices, in dollars
	Pct                 float64 // the change in percent
}

// Promotions is a banner's promotion intensity this week.
type Promotions struct {
	Banner         string // display name
	Products       int    // SKUs with a weekly price this week
	OnPromotion    int    // of which on promotion
	SharePct       float64
	AvgDiscountPct float64
	Started, Ended int // SKUs whose promotion started, ended this week
}

// Summary says f in a few sentences. The basket sentence names the
// cheapest and dearest of the ranked banners, the set the page's chart
// shows.
func (f *Figures) Summary() string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s, %s to %s: ", f.Province, f.From, f.To)
	if len(f.Promotions) == 0 && len(f.Categories) == 0 {
		w.WriteString("no price was observed in the panel this week.")
		return w.String()
	}
	if ranked := f.Ranked; len(ranked) > 0 {
		lo, hi := ranked[0], ranked[len(ranked)-1]
		fmt.Fprintf(&w, "of %d %s pricing at least %d of the %d shared products in the flyer week %s to %s, %s had the cheapest basket (index %.1f against the other banners' median prices, $%s for the %d it prices)",
			len(ranked), words.Plural(len(ranked), "banner"), f.MinItems, f.Items, f.BasketFrom, f.BasketTo, lo.Name, lo.Index, lo.Total, lo.Items)
		if len(ranked) > 1 {
			fmt.Fprintf(&w, " and %s the dearest (index %.1f)", hi.Name, hi.Index)
		}
		w.WriteString(". ")
	}
	if o := f.Overall; o.Week != nil {
		var (
			top  *Change
			left []string // categories with a change under the minimums
		)
		for i := range f.Categories {
			c := &f.Categories[i]
			switch {
			case c.Week == nil:
			case c.LowSample:
				left = append(left, c.Name)
			case top == nil || math.Abs(*c.Week) > math.Abs(*top.Week):
				top = c
			}
		}
		fmt.Fprintf(&w, "Prices %s week over week across %d banner %s compared like for like", moved(*o.Week), o.Series, words.Plural(o.Series, "SKU"))
		if o.FourWeek != nil {
			fmt.Fprintf(&w, " (%s over the last four weeks against the four before)", Signed(*o.FourWeek))
		}
		if top != nil {
			fmt.Fprintf(&w, "; the largest category move was %s (%s)", top.Name, Signed(*top.Week))
		}
		if len(left) > 0 {
			fmt.Fprintf(&w, "; left out as too small a sample (%s): %s", f.Minimums, strings.Join(left, ", "))
		}
		w.WriteString(". ")
	}
	if f.Up != nil {
		m := f.Up
		fmt.Fprintf(&w, "The biggest regular-price rise was %s %s at %s ($%s to $%s, %s)", m.Brand, m.Name, m.Banner, m.Before, m.Now, Signed(m.Pct))
		if f.Down != nil {
			d := f.Down
			fmt.Fprintf(&w, "; the biggest cut %s %s at %s ($%s to $%s, %s)", d.Brand, d.Name, d.Banner, d.Before, d.Now, Signed(d.Pct))
		}
		w.WriteString(". ")
	} else if f.Down != nil {
		d := f.Down
		fmt.Fprintf(&w, "The biggest regular-price cut was %s %s at %s ($%s to $%s, %s). ", d.Brand, d.Name, d.Banner, d.Before, d.Now, Signed(d.Pct))
	}
	if len(f.Promotions) > 0 && f.Promotions[0].OnPromotion > 0 {
		p := f.Promotions[0]
		fmt.Fprintf(&w, "%s promoted the most (%.1f%% of %d %s, %.1f%% off on average)", p.Banner, p.SharePct, p.Products, words.Plural(p.Products, "product"), p.AvgDiscountPct)
		started, ended := 0, 0
		for _, p := range f.Promotions {
			started += p.Started
			ended += p.Ended
		}
		fmt.Fprintf(&w, "; %d %s started and %d ended. ", started, words.Plural(started, "promotion"), ended)
	}
	switch f.NewProducts {
	case 0:
		w.WriteString("No product was new in the panel.")
	case 1:
		w.WriteString("1 product was new in the panel.")
	default:
		fmt.Fprintf(&w, "%d products were new in the panel.", f.NewProducts)
	}
	if n := f.AlertEvents; n > 0 {
		fmt.Fprintf(&w, " Your alert rules recorded %d %s.", n, words.Plural(n, "event"))
	}
	return w.String()
}

// moved says how an average change in percent moved prices.
func moved(pct float64) string {
	switch {
	case math.Abs(pct) < 0.05:
		return "held steady (0.0%)"
	case pct < 0:
		return fmt.Sprintf("fell %.1f%%", -pct)
	}
	return fmt.Sprintf("rose %.1f%%", pct)
}

// Pct writes a percent change with its sign and one decimal ("+2.5%"),
// "n/a" when there is none.
func Pct(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return Signed(*p)
}

// Signed writes a percent with its sign and one decimal ("-0.4%"),
// rounded as every figure is written (pricestat.Round1): a change that
// rounds to zero is "+0.0%", never "-0.0%".
func Signed(x float64) string { return fmt.Sprintf("%+.1f%%", pricestat.Round1(x)) }

// F1 writes x with one decimal ("95.3").
func F1(x float64) string { return fmt.Sprintf("%.1f", x) }
