package svgchart

import (
	"strings"
	"testing"
)

// The rule at 100 sits where a bar of index 100 ends, and under the
// figures: the figures' column starts right of the plot.
func TestIndexRule(t *testing.T) {
	c := Index([]IndexRow{{Name: "1. A", Index: 100, Figures: "100.0"}, {Name: "2. B", Index: 125, Figures: "125.0", Own: true}}, "100 = the market")
	if len(c.Bars) != 2 || len(c.Lines) != 1 {
		t.Fatalf("got %d bars, %d lines: want 2 and 1", len(c.Bars), len(c.Lines))
	}
	if end, rule := c.Bars[0].X+c.Bars[0].W, c.Lines[0].X1; end != rule {
		t.Errorf("the bar of index 100 ends at %v, the rule is at %v", end, rule)
	}
	if c.Bars[1].Class != "bar own" {
		t.Errorf("own row's class: %q", c.Bars[1].Class)
	}
	for _, l := range c.Labels {
		if l.Class == "value" && l.X <= c.Lines[0].X1 {
			t.Errorf("figures %q at %v, left of the rule at %v", l.Text, l.X, c.Lines[0].X1)
		}
	}
}

// Changes spans whole percents either side of zero, and a missing change
// draws no bar.
func TestChangesSpan(t *testing.T) {
	up, down := 2.4, -0.5
	c := Changes([]ChangeRow{{Name: "Dairy", Changes: [2]*float64{&up, nil}}, {Name: "Bakery", Changes: [2]*float64{&down, &down}}})
	if len(c.Bars) != 3 {
		t.Fatalf("got %d bars: want 3", len(c.Bars))
	}
	var axis []string
	for _, l := range c.Labels {
		if l.Class == "axis" {
			axis = append(axis, l.Text)
		}
	}
	if got := strings.Join(axis, " "); got != "-3% 0 +3%" {
		t.Errorf("axis %q, want -3%% 0 +3%%", got)
	}
}

// A flat price draws at mid-height; the first and last days at the edges.
func TestSparkline(t *testing.T) {
	s := Sparkline([]Point{{Day: 10, Shelf: 300, Regular: 300}, {Day: 37, Shelf: 300, Regular: 300}}, 10, 37)
	if want := "2.0,14.0 118.0,14.0"; s.Regular != want || s.Shelf != want {
		t.Errorf("got %+v, want both %q", s, want)
	}
	s = Sparkline([]Point{{Day: 10, Shelf: 200, Regular: 400}}, 10, 10)
	if s.Regular != "2.0,3.0" || s.Shelf != "2.0,25.0" {
		t.Errorf("got %+v: want the regular at the top, the shelf at the bottom", s)
	}
	if (Sparkline(nil, 0, 1) != Spark{}) {
		t.Error("no points: want an empty Spark")
	}
}
