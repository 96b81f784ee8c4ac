package grocery

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"

	"github.com/grocerydata/grocery/grocery/internal/brieftext"
	"github.com/grocerydata/grocery/grocery/internal/svgchart"
)

// The brief as a page: one self-contained HTML document, its charts
// inline SVG laid out by svgchart, no script, nothing fetched from the network, laid
// out to print on A4 or Letter.

//go:embed brief.html
var briefPage string

var briefTemplate = template.Must(template.New("brief").Funcs(template.FuncMap{
	"pct":        brieftext.Pct,
	"signed":     brieftext.Signed,
	"f1":         brieftext.F1,
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
	BasketChart   svgchart.Chart
	CategoryChart svgchart.Chart
	Sparks        map[string]svgchart.Spark // mover key -> its lines
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

// basketChart draws each ranked banner's basket index (only ranked
// banners: the summary's set) against the market's 100.
func basketChart(b *Brief) svgchart.Chart {
	var rows []svgchart.IndexRow
	for _, r := range b.Basket.ranked() {
		rows = append(rows, svgchart.IndexRow{Name: fmt.Sprintf("%d. %s", r.Rank, r.BannerName), Index: r.Index, Own: r.Own,
			Figures: fmt.Sprintf("%.1f  $%s, %d of %d items", r.Index, r.Total, r.Items, b.Basket.Items)})
	}
	return svgchart.Index(rows, "100 = the market")
}

// categoryChart draws each category's week-over-week and four-week
// changes as bars either side of a zero axis.
func categoryChart(b *Brief) svgchart.Chart {
	rows := make([]svgchart.ChangeRow, len(b.Categories))
	for i, r := range b.Categories {
		rows[i] = svgchart.ChangeRow{Name: r.Category, Changes: [2]*float64{r.WeekPct, r.FourWeekPct}}
	}
	return svgchart.Changes(rows)
}

// sparklines returns each mover's daily prices (regular and shelf) as
// polylines, on one scale.
func sparklines(b *Brief) map[string]svgchart.Spark {
	out := map[string]svgchart.Spark{}
	for _, list := range [][]Mover{b.MoversUp, b.MoversDown} {
		for _, m := range list {
			points := make([]svgchart.Point, len(m.Prices))
			for i, p := range m.Prices {
				points[i] = svgchart.Point{Day: int32(p.Date), Shelf: int64(p.Price), Regular: int64(p.Regular)}
			}
			out[m.key()] = svgchart.Sparkline(points, int32(b.WeekTo)-briefSparkDays+1, int32(b.WeekTo))
		}
	}
	return out
}

func (m Mover) key() string { return m.Banner + "\x00" + m.ExternalSKU }

// Spark returns a mover's sparkline.
func (v briefView) Spark(m Mover) svgchart.Spark { return v.Sparks[m.key()] }
