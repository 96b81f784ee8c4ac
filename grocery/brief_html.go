package grocery

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
)

// The brief as a page: one self-contained HTML document, its charts
// inline SVG drawn here, no script, nothing fetched from the network, laid
// out to print on A4 or Letter.

//go:embed brief.html
var briefPage string

var briefTemplate = template.Must(template.New("brief").Funcs(template.FuncMap{
	"pct":        func(p *float64) string { return signedPct(p) },
	"signed":     func(x float64) string { return fmt.Sprintf("%+.1f%%", x) },
	"f1":         func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"bannerName": bannerName,
}).Parse(briefPage))

// WriteHTML writes b as a printable HTML page with inline SVG charts: the
// basket index of the ranked banners, a sparkline per mover (regular and
// shelf prices), and category inflation.
func (b *Brief) WriteHTML(w io.Writer) error {
	return briefTemplate.Execute(w, briefView{Brief: b, BasketChart: basketChart(b), CategoryChart: categoryChart(b), Sparks: sparklines(b)})
}

// briefView is what the template reads: the brief and its charts' shapes.
type briefView struct {
	*Brief
	BasketChart   chart
	CategoryChart chart
	Sparks        map[string]spark // mover key -> its lines
}

// Unranked returns the basket's banners that price too few items to be
// ranked (and so are not in the chart).
func (v briefView) Unranked() []BasketCost {
	var out []BasketCost
	for _, c := range v.Basket.Banners {
		if c.Rank == 0 {
			out = append(out, c)
		}
	}
	return out
}

// chart is an SVG drawing: its size and shapes in user units.
type chart struct {
	Width, Height float64
	Bars          []bar
	Lines         []line
	Labels        []label
}

type bar struct {
	X, Y, W, H float64
	Class      string
}

type line struct {
	X1, Y1, X2, Y2 float64
	Class          string
}

type label struct {
	X, Y   float64
	Anchor string // start, middle, end
	Class  string
	Text   string
}

const (
	chartWidth = 640.0
	rowHeight  = 22.0
	labelWidth = 170.0 // the category names, left of the plot
	// The basket chart is wider: its names carry a rank ("9. Your
	// Independent Grocer") and its figures a column of their own.
	basketWidth      = 720.0
	basketLabelWidth = 210.0 // "9. Your Independent Grocer" at 12px, and a margin
	valueWidth       = 210.0 // "102.3  $135.97, 25 of 25 items" at 12px, and a margin
)

// basketChart draws each ranked banner's basket index as a bar from the
// left edge, its figures in a column at the right (never cut at the
// edge, never crossed by the rule), and a dashed rule at 100 (the
// market), drawn under the figures. Only ranked banners are drawn: the
// summary's set.
func basketChart(b *Brief) chart {
	rows := b.Basket.ranked()
	c := chart{Width: basketWidth, Height: rowHeight*float64(len(rows)) + 24}
	if len(rows) == 0 {
		return c
	}
	labelWidth := basketLabelWidth
	hi := 100.0
	for _, r := range rows {
		hi = math.Max(hi, r.Index)
	}
	hi = math.Ceil(hi/10)*10 + 10
	plot := basketWidth - labelWidth - valueWidth
	x := func(v float64) float64 { return labelWidth + plot*v/hi }
	for i, r := range rows {
		y := float64(i)*rowHeight + 4
		class := "bar"
		if r.Own {
			class = "bar own"
		}
		c.Bars = append(c.Bars, bar{X: labelWidth, Y: y, W: x(r.Index) - labelWidth, H: rowHeight - 6, Class: class})
		c.Labels = append(c.Labels,
			label{X: labelWidth - 8, Y: y + 12, Anchor: "end", Text: fmt.Sprintf("%d. %s", r.Rank, r.BannerName)},
			label{X: basketWidth - 2, Y: y + 12, Anchor: "end", Class: "value",
				Text: fmt.Sprintf("%.1f  $%s, %d of %d items", r.Index, r.Total, r.Items, b.Basket.Items)})
	}
	bottom := rowHeight*float64(len(rows)) + 2
	c.Lines = append(c.Lines, line{X1: x(100), Y1: 0, X2: x(100), Y2: bottom, Class: "rule"})
	c.Labels = append(c.Labels, label{X: x(100), Y: bottom + 14, Anchor: "middle", Class: "axis", Text: "100 = the market"})
	return c
}

// categoryChart draws each category's week-over-week and four-week
// changes as bars either side of a zero axis.
func categoryChart(b *Brief) chart {
	rows := b.Categories
	c := chart{Width: chartWidth, Height: rowHeight*float64(len(rows)) + 30}
	if len(rows) == 0 {
		return c
	}
	span := 1.0 // percent either side of zero
	for _, r := range rows {
		for _, p := range []*float64{r.WeekPct, r.FourWeekPct} {
			if p != nil {
				span = math.Max(span, math.Abs(*p))
			}
		}
	}
	span = math.Ceil(span)
	half := (chartWidth - labelWidth - 20) / 2
	zero := labelWidth + half
	x := func(v float64) float64 { return zero + half*v/span }
	for i, r := range rows {
		y := float64(i)*rowHeight + 4
		c.Labels = append(c.Labels, label{X: labelWidth - 8, Y: y + 12, Anchor: "end", Text: r.Category})
		for j, p := range []*float64{r.WeekPct, r.FourWeekPct} {
			if p == nil {
				continue
			}
			x0, x1 := zero, x(*p)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			class := []string{"bar week", "bar month"}[j]
			c.Bars = append(c.Bars, bar{X: x0, Y: y + float64(j)*8, W: math.Max(x1-x0, 0.5), H: 7, Class: class})
		}
	}
	bottom := rowHeight*float64(len(rows)) + 2
	c.Lines = append(c.Lines, line{X1: zero, Y1: 0, X2: zero, Y2: bottom, Class: "rule"})
	c.Labels = append(c.Labels,
		label{X: x(-span), Y: bottom + 14, Anchor: "start", Class: "axis", Text: fmt.Sprintf("%+.0f%%", -span)},
		label{X: zero, Y: bottom + 14, Anchor: "middle", Class: "axis", Text: "0"},
		label{X: x(span), Y: bottom + 14, Anchor: "end", Class: "axis", Text: fmt.Sprintf("%+.0f%%", span)})
	return c
}

// sparkWidth and sparkHeight are a mover's sparkline's size.
const sparkWidth, sparkHeight = 120.0, 28.0

// spark is a mover's sparkline: its regular and shelf prices as polyline
// points, on one scale.
type spark struct{ Regular, Shelf string }

// sparklines returns each mover's daily prices as polylines.
func sparklines(b *Brief) map[string]spark {
	out := map[string]spark{}
	for _, list := range [][]Mover{b.MoversUp, b.MoversDown} {
		for _, m := range list {
			out[m.key()] = sparkPoints(m.Prices, Date(int32(b.WeekTo)-briefSparkDays+1), b.WeekTo)
		}
	}
	return out
}

func (m Mover) key() string { return m.Banner + "\x00" + m.ExternalSKU }

// Spark returns a mover's sparkline.
func (v briefView) Spark(m Mover) spark { return v.Sparks[m.key()] }

func sparkPoints(prices []DayPrice, from, to Date) spark {
	if len(prices) == 0 {
		return spark{}
	}
	lo, hi := prices[0].Price, prices[0].Regular
	for _, p := range prices {
		lo, hi = min(lo, p.Price, p.Regular), max(hi, p.Price, p.Regular)
	}
	days := math.Max(float64(to-from), 1)
	points := func(price func(DayPrice) Cents) string {
		var sb strings.Builder
		for i, p := range prices {
			x := 2 + (sparkWidth-4)*float64(p.Date-from)/days
			y := sparkHeight / 2
			if hi > lo {
				y = sparkHeight - 3 - (sparkHeight-6)*float64(price(p)-lo)/float64(hi-lo)
			}
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%.1f,%.1f", x, y)
		}
		return sb.String()
	}
	return spark{Regular: points(func(p DayPrice) Cents { return p.Regular }), Shelf: points(func(p DayPrice) Cents { return p.Price })}
}

func signedPct(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", *p)
}
