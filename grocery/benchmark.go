package grocery

import (
	"context"
	"fmt"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/market"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/ranking"
	"github.com/grocerydata/grocery/storage"
)

// BenchmarkInput holds the arguments of CompetitiveBenchmark.
type BenchmarkInput struct {
	Banner   string `json:"banner"`
	Province string `json:"province"`
}

// BenchmarkRow is one banner's standing against the market in a
// BenchmarkResult's ranking, or the benchmarked banner's in one category.
// The OpenAPI document (GET /openapi.json, schema BenchmarkRow) defines
// each figure in words and as a formula.
type BenchmarkRow struct {
	Banner       string  `json:"banner,omitempty"`
	BannerName   string  `json:"banner_name,omitempty"`
	Category     string  `json:"category,omitempty"`
	Index        float64 `json:"index"`            // 100 × geomean of price ÷ market price (shelf), over the items
	RegularIndex float64 `json:"regular_index"`    // the same on regular prices
	Items        int     `json:"items"`            // barcodes compared: priced by the banner and by at least MarketMinOthers other banners
	Rank         int     `json:"rank"`             // 1 = cheapest by written index, equal ones sharing; 0 when not ranked (items < BenchmarkMinItems)
	Ranked       int     `json:"ranked,omitempty"` // in a category row: the banners ranked in that category
	Total        Cents   `json:"total"`            // Σ the banner's prices of the items (one of each)
	MarketCost   Cents   `json:"market_cost"`      // Σ the market prices of the same items
}

// BenchmarkResult is the answer of CompetitiveBenchmark. The OpenAPI
// document (schema BenchmarkResult) defines each figure.
type BenchmarkResult struct {
	Banner     string `json:"banner"`
	BannerName string `json:"banner_name"`
	Province   string `json:"province"`
	// WeekFrom and WeekTo are the flyer week compared (Thursday to
	// Wednesday; compare.go says which): every banner at its weekly
	// prices of the same week.
	WeekFrom Date `json:"week_from"`
	WeekTo   Date `json:"week_to"`
	// Basket names the items compared: BasketOwnItems, each banner on
	// the barcodes it prices that MarketMinOthers other banners price
	// (the executive brief ranks the banners on a BasketShared basket).
	Basket       string         `json:"basket"`
	Index        *float64       `json:"index"`         // the banner's index; nil (null) when it has no item: nothing to compare, never 0
	RegularIndex *float64       `json:"regular_index"` // its index on regular prices; nil when it has no item
	Items        int            `json:"items"`         // the barcodes its index rests on
	Rank         int            `json:"rank"`          // its rank in Ranking, 0 when not ranked
	Ranked       int            `json:"ranked"`        // banners ranked in the province (items >= BenchmarkMinItems)
	Total        Cents          `json:"total"`         // its items at its prices
	MarketCost   Cents          `json:"market_cost"`   // its items at market prices
	Categories   []BenchmarkRow `json:"categories"`    // the banner per category, by category
	Ranking      []BenchmarkRow `json:"ranking"`       // every banner with an item: ranked ones cheapest first, then the others
	Currency     string         `json:"currency"`
	Basis        Basis          `json:"basis"`
}

// benchmarkRow writes a ranking row's figures.
func benchmarkRow(r *ranking.Row) BenchmarkRow {
	out := BenchmarkRow{Category: r.Category, Items: r.Items, Rank: r.Rank,
		Index: pricestat.Round1(r.Shelf.Index()), RegularIndex: pricestat.Round1(r.Regular.Index()),
		Total: Cents(pricestat.Cents(r.Own)), MarketCost: Cents(pricestat.Cents(r.Market))}
	if r.Category == "" {
		out.Banner, out.BannerName = r.Banner, bannerName(r.Banner)
	}
	return out
}

// CompetitiveBenchmark compares a banner's prices in a province with the
// market's, on the same items and in the same flyer week, as the OpenAPI
// document defines (GET /openapi.json, path /b2b/competitive_benchmark).
// In short: the week is one flyer week (Thursday to Wednesday, WeekFrom
// to WeekTo), the same for every banner: the latest day's once every
// banner priced in the week before has prices in it, else the week
// before; a banner's
// price of a barcode is its weekly price (compare.go: the lowest over
// its SKUs of the barcode of their daily price on their last day with
// data in the week); the market price, for that banner, is the
// median of the OTHER banners' prices of the barcode; the items are the
// barcodes the banner prices and at least MarketMinOthers other banners
// price; the index is 100 × the geometric mean of price ÷ market price
// over the items, on shelf prices (Index) and on regular prices
// (RegularIndex). Every banner of the province is indexed the same way;
// those with at least BenchmarkMinItems items are ranked by written index,
// cheapest first, equal ones sharing a rank; the others are listed with
// rank 0. Categories give the banner's index within each category, with
// its rank among the banners with at least BenchmarkMinItems items there.
//
// It returns EINVALIDARGUMENT for an unknown banner or province, and ENOTFOUND
// when the banner is not in the province's panel (no reference store
// there, or no price in the week), saying which. A banner in the panel that
// prices no barcode MarketMinOthers other banners price has no item: its
// Index and RegularIndex are nil (null in JSON, never 0, which would read
// as "100% cheaper") and Basis.Note says why. A banner with fewer than
// BenchmarkMinItems items is indexed, not ranked, and Basis.Note says so.
func (s *Service) CompetitiveBenchmark(ctx context.Context, in BenchmarkInput) (*BenchmarkResult, error) {
	banner, err := ParseBanner(in.Banner)
	if err != nil {
		return nil, err
	}
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	res := &BenchmarkResult{Banner: banner.Slug, BannerName: banner.Name, Province: province, Basket: BasketOwnItems,
		Categories: []BenchmarkRow{}, Ranking: []BenchmarkRow{}, Currency: Currency}
	// One read transaction: the week's prices go through the ranking as
	// they are read; then the answer is assembled from it.
	var (
		week   *weekPrices
		rk     ranking.Ranking
		stores int
	)
	err = s.db.View(func(tx *storage.Tx) error {
		if week, err = readFlyerWeek(tx, province, tx.AsOf()); err != nil {
			return err
		}
		if rk, err = rankWeek(tx, week); err != nil {
			return err
		}
		if stores, err = tx.CountActiveStores(province, banner.Slug); err != nil {
			return err
		}
		res.Basis, err = week.basis(tx, CompareSameBarcode)
		return err
	})
	if err != nil {
		return nil, err
	}
	if week.to > 0 {
		res.WeekFrom, res.WeekTo = Date(week.from), Date(week.to)
	}
	unranked := res.rank(&rk, banner.Slug)
	res.rankCategories(&rk, banner.Slug)
	// A banner not in the province's panel has nothing to index.
	if res.Items == 0 && stores == 0 {
		return nil, Errorf(ENOTFOUND, "%s has no reference stores in %s: nothing to benchmark", banner.Slug, province)
	}
	if res.Items == 0 && !week.banners[banner.Slug] {
		return nil, Errorf(ENOTFOUND, "no price of %s was observed in the panel in %s in the flyer week %s to %s: nothing to benchmark",
			banner.Name, province, res.WeekFrom, res.WeekTo)
	}
	res.Basis.Note = res.note(unranked)
	return res, nil
}

// rankWeek ranks the banners of week (ranking.Ranker) on the barcodes
// that MarketMinOthers other banners price beside one, each with its
// category.
func rankWeek(tx *storage.Tx, week *weekPrices) (ranking.Ranking, error) {
	rk := ranking.New(MarketMinOthers, BenchmarkMinItems)
	var p storage.Product
	err := week.scan(tx, func(g string, prices []market.Price) error {
		if len(prices) < MarketMinOthers+1 {
			return nil
		}
		category := ""
		if found, err := tx.Product(g, &p); err != nil {
			return err
		} else if found {
			category = p.Category
		}
		rk.Add(ranking.Item{Category: category, Prices: prices})
		return nil
	})
	return rk.Ranking(), err
}

// rank writes the ranking of the banners into res.Ranking and sets
// banner's figures, returning how many banners are not ranked.
func (res *BenchmarkResult) rank(rk *ranking.Ranking, banner string) (unranked int) {
	res.Ranked = rk.Ranked
	for i := range rk.Banners {
		r := &rk.Banners[i]
		w := benchmarkRow(r)
		res.Ranking = append(res.Ranking, w)
		if r.Rank == 0 {
			unranked++
		}
		if r.Banner == banner {
			res.Index, res.RegularIndex, res.Items, res.Rank = &w.Index, &w.RegularIndex, w.Items, w.Rank
			res.Total, res.MarketCost = w.Total, w.MarketCost
		}
	}
	return unranked
}

// rankCategories sets banner's standing in each category, ranked among
// the category's banners.
func (res *BenchmarkResult) rankCategories(rk *ranking.Ranking, banner string) {
	for _, c := range rk.Categories {
		for i := range c.Rows {
			if c.Rows[i].Banner == banner {
				w := benchmarkRow(&c.Rows[i])
				w.Ranked = c.Ranked
				res.Categories = append(res.Categories, w)
			}
		}
	}
}

// note says what the benchmark could not index or rank.
func (res *BenchmarkResult) note(unranked int) string {
	var notes []string
	switch {
	case res.Items == 0:
		notes = append(notes, fmt.Sprintf("%s prices no barcode that %d other banners price in %s: nothing to compare, no index", res.BannerName, MarketMinOthers, res.Province))
	case res.Rank == 0:
		notes = append(notes, fmt.Sprintf("%s is compared on %d items, fewer than %d: its index is given but not ranked", res.BannerName, res.Items, BenchmarkMinItems))
	}
	if unranked > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d banners have fewer than %d items and are listed with rank 0 (not ranked)", unranked, len(res.Ranking), BenchmarkMinItems))
	}
	if len(res.Categories) > 0 {
		notes = append(notes, fmt.Sprintf("a category's rank places the banner among the banners with at least %d items in that category (0: not ranked)", BenchmarkMinItems))
	}
	return strings.Join(notes, "; ")
}
