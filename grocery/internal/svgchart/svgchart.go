// Package svgchart lays out the small charts of a printed page as shapes
// in SVG user units: horizontal bars against a reference value, bars
// either side of a zero axis, and sparklines. It draws nothing itself: a
// template writes the shapes as inline SVG.
package svgchart

import (
	"fmt"
	"math"
	"strings"
)

// Chart is an SVG drawing: its size and shapes in user units.
type Chart struct {
	Width, Height float64
	Bars          []Bar
	Lines         []Line
	Labels        []Label
}

// Bar is a rectangle.
type Bar struct {
	X, Y, W, H float64
	Class      string
}

// Line is a segment.
type Line struct {
	X1, Y1, X2, Y2 float64
	Class          string
}

// Label is a text.
type Label struct {
	X, Y   float64
	Anchor string // start, middle, end
	Class  string
	Text   string
}

const (
	chartWidth = 640.0
	rowHeight  = 22.0
	labelWidth = 170.0 // the row names, left of the plot
	// The index chart is wider: its names carry a rank ("9. Your
	// Independent Grocer") and its figures a column of their own.
	indexWidth      = 720.0
	indexLabelWidth = 210.0 // "9. Your Independent Grocer" at 12px, and a margin
	valueWidth      = 210.0 // "102.3  $135.97, 25 of 25 items" at 12px, and a margin
)

// IndexRow is one row of an index chart.
type IndexRow struct {
	Name    string  // left of the bar
	Index   float64 // the bar's length; 100 is the reference
	Figures string  // in the column at the right
	Own     bool    // drawn apart (class "bar own")
}

// Index draws each row's index as a bar from the left edge, its figures
// in a column at the right (never cut at the edge, never crossed by the
// rule), and a dashed rule at 100 labelled rule, drawn under the figures.
func Index(rows []IndexRow, rule string) Chart {
	c := Chart{Width: indexWidth, Height: rowHeight*float64(len(rows)) + 24}
	if len(rows) == 0 {
		return c
	}
	labelWidth := indexLabelWidth
	hi := 100.0
	for _, r := range rows {
		hi = math.Max(hi, r.Index)
	}
	hi = math.Ceil(hi/10)*10 + 10
	plot := indexWidth - labelWidth - valueWidth
	x := func(v float64) float64 { return labelWidth + plot*v/hi }
	for i, r := range rows {
		y := float64(i)*rowHeight + 4
		class := "bar"
		if r.Own {
			class = "bar own"
		}
		c.Bars = append(c.Bars, Bar{X: labelWidth, Y: y, W: x(r.Index) - labelWidth, H: rowHeight - 6, Class: class})
		c.Labels = append(c.Labels,
			Label{X: labelWidth - 8, Y: y + 12, Anchor: "end", Text: r.Name},
			Label{X: indexWidth - 2, Y: y + 12, Anchor: "end", Class: "value", Text: r.Figures})
	}
	bottom := rowHeight*float64(len(rows)) + 2
	c.Lines = append(c.Lines, Line{X1: x(100), Y1: 0, X2: x(100), Y2: bottom, Class: "rule"})
	c.Labels = append(c.Labels, Label{X: x(100), Y: bottom + 14, Anchor: "middle", Class: "axis", Text: rule})
	return c
}

// ChangeRow is one row of a change chart: two percentages, either absent.
type ChangeRow struct {
	Name    string
	Changes [2]*float64 // drawn with classes "bar week" and "bar month"
}

// Changes draws each row's two changes as bars either side of a zero
// axis, on a scale of whole percents.
func Changes(rows []ChangeRow) Chart {
	c := Chart{Width: chartWidth, Height: rowHeight*float64(len(rows)) + 30}
	if len(rows) == 0 {
		return c
	}
	span := 1.0 // percent either side of zero
	for _, r := range rows {
		for _, p := range r.Changes {
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
		c.Labels = append(c.Labels, Label{X: labelWidth - 8, Y: y + 12, Anchor: "end", Text: r.Name})
		for j, p := range r.Changes {
			if p == nil {
				continue
			}
			x0, x1 := zero, x(*p)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			class := []string{"bar week", "bar month"}[j]
			c.Bars = append(c.Bars, Bar{X: x0, Y: y + float64(j)*8, W: math.Max(x1-x0, 0.5), H: 7, Class: class})
		}
	}
	bottom := rowHeight*float64(len(rows)) + 2
	c.Lines = append(c.Lines, Line{X1: zero, Y1: 0, X2: zero, Y2: bottom, Class: "rule"})
	c.Labels = append(c.Labels,
		Label{X: x(-span), Y: bottom + 14, Anchor: "start", Class: "axis", Text: fmt.Sprintf("%+.0f%%", -span)},
		Label{X: zero, Y: bottom + 14, Anchor: "middle", Class: "axis", Text: "0"},
		Label{X: x(span), Y: bottom + 14, Anchor: "end", Class: "axis", Text: fmt.Sprintf("%+.0f%%", span)})
	return c
}

// SparkWidth and SparkHeight are a sparkline's size.
const SparkWidth, SparkHeight = 120.0, 28.0

// Spark is a sparkline: two series as polyline points, on one scale.
type Spark struct{ Regular, Shelf string }

// Point is a day's two prices.
type Point struct {
	Day            int32
	Shelf, Regular int64
}

// Sparkline returns points, days from to to, as a Spark.
func Sparkline(points []Point, from, to int32) Spark {
	if len(points) == 0 {
		return Spark{}
	}
	lo, hi := points[0].Shelf, points[0].Regular
	for _, p := range points {
		lo, hi = min(lo, p.Shelf, p.Regular), max(hi, p.Shelf, p.Regular)
	}
	days := math.Max(float64(to-from), 1)
	line := func(price func(Point) int64) string {
		var sb strings.Builder
		for i, p := range points {
			x := 2 + (SparkWidth-4)*float64(p.Day-from)/days
			y := SparkHeight / 2
			if hi > lo {
				y = SparkHeight - 3 - (SparkHeight-6)*float64(price(p)-lo)/float64(hi-lo)
			}
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%.1f,%.1f", x, y)
		}
		return sb.String()
	}
	return Spark{Regular: line(func(p Point) int64 { return p.Regular }), Shelf: line(func(p Point) int64 { return p.Shelf })}
}
