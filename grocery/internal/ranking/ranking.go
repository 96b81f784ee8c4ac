// Package ranking ranks the banners of a province against the market on
// the barcodes of one flyer week, overall and within each category: the
// arithmetic of grocery's CompetitiveBenchmark over plain data, the
// week's prices that grocery reads in one read transaction. It imports
// nothing from grocery; the thresholds are grocery's, passed in.
package ranking

import (
	"maps"
	"slices"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
)

// Item is one barcode of the week: its category and its banners' weekly
// prices, one market.Price per banner (cents).
type Item struct {
	Category string
	Prices   []market.Price
}

// Row is one banner's standing against the market, overall (Category "")
// or within one category, and its rank among the rows it was ranked with.
type Row struct {
	Banner, Category string
	market.Standing
	Rank int // 1 = cheapest by written shelf index, equal ones sharing; 0 = not ranked
}

// Category is one category's rows and how many of them are ranked.
type Category struct {
	Name   string
	Rows   []Row
	Ranked int
}

// Ranking is the banners of a week ranked, overall and per category.
type Ranking struct {
	Banners    []Row // every banner with an item: the ranked ones cheapest first, then the others
	Ranked     int   // banners ranked
	Categories []Category
}

// Ranker ranks the banners of a week: Add each item, then Ranking. It
// compares each banner's price of each item with the market's, the median
// of the other banners' prices (market.Compare: an item that fewer than
// minOthers other banners price is not compared), and ranks the banners
// with at least minItems items by their shelf index as written
// (pricestat.Rank), overall and within each category (by name).
type Ranker struct {
	minOthers, minItems int
	banners             map[string]*Row
	cats                map[[2]string]*Row // (category, banner)
	buf                 []float64          // market.Compare's scratch space
}

// New returns a Ranker with its thresholds.
func New(minOthers, minItems int) *Ranker {
	return &Ranker{minOthers: minOthers, minItems: minItems, banners: map[string]*Row{}, cats: map[[2]string]*Row{},
		buf: make([]float64, 0, 64)}
}

// Add compares an item; it keeps nothing of it.Prices.
func (rk *Ranker) Add(it Item) {
	market.Compare(it.Prices, rk.minOthers, &rk.buf, func(own *market.Price, m, mr float64) {
		add(rk.banners, own.Banner, "", own, m, mr)
		add(rk.cats, [2]string{it.Category, own.Banner}, it.Category, own, m, mr)
	})
}

// Ranking returns the banners ranked, overall and per category.
func (rk *Ranker) Ranking() Ranking {
	var out Ranking
	out.Banners, out.Ranked = rank(rk.banners, rk.minItems)
	byCat := map[string]map[[2]string]*Row{}
	for k, r := range rk.cats {
		if byCat[k[0]] == nil {
			byCat[k[0]] = map[[2]string]*Row{}
		}
		byCat[k[0]][k] = r
	}
	for _, name := range slices.Sorted(maps.Keys(byCat)) {
		rows, n := rank(byCat[name], rk.minItems)
		out.Categories = append(out.Categories, Category{Name: name, Rows: rows, Ranked: n})
	}
	return out
}

// add counts a compared barcode into the row of key, making it.
func add[K comparable](rows map[K]*Row, key K, category string, own *market.Price, m, mr float64) {
	r := rows[key]
	if r == nil {
		r = &Row{Banner: own.Banner, Category: category}
		rows[key] = r
	}
	r.Add(own, m, mr)
}

// rank returns rows ranked (pricestat.Rank's order: the ranked rows,
// then the others, each by written index, then banner) and how many are
// ranked.
func rank[K comparable](rows map[K]*Row, minItems int) ([]Row, int) {
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	pricestat.Rank(out, func(r *Row) bool { return r.Items >= minItems }, func(r *Row) float64 { return r.Shelf.Index() },
		func(r *Row) string { return r.Banner }, func(r *Row, k int) { r.Rank = k })
	n := 0
	for i := range out {
		if out[i].Rank > 0 {
			n++
		}
	}
	return out, n
}
