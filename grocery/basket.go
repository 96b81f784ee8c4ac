package grocery

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/basketpick"
	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/search"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/storage"
)

// MaxBasketItems bounds the items of a basket.
const MaxBasketItems = 100

// BasketItemInput is one line of a basket: a barcode or a product name,
// and how many.
type BasketItemInput struct {
	UPC      string `json:"upc,omitempty"`
	Name     string `json:"name,omitempty"` // words of a product name or brand, resolved as search_products ranks them
	Quantity int    `json:"quantity"`       // 1..99; 0 (or absent from JSON) means 1
}

// BasketInput holds the arguments of CompareBasket.
type BasketInput struct {
	Province string            `json:"province"`
	Items    []BasketItemInput `json:"items"` // 1..100
}

// BasketMatch says how a name was resolved: the product chosen, its
// score, and the runner-up.
type BasketMatch struct {
	Score      int           `json:"score"`      // of the best match: per word of the name, 4 exact in the name, 3 exact in the brand, 2 prefix in the name, 1 prefix in the brand
	MaxScore   int           `json:"max_score"`  // 4 × words: every word exact in the name
	Confidence float64       `json:"confidence"` // Score ÷ MaxScore ÷ Tied, 0..1: below 1 whenever the runner-up ties
	Candidates int           `json:"candidates"` // products matching every word
	Tied       int           `json:"tied"`       // candidates sharing the best score (1: the best match is alone), ordered by Carried, then price spread
	Carried    int           `json:"carried"`    // banners of the province with a current offer of the product chosen
	RunnerUp   *BasketRunner `json:"runner_up"`  // the second best match, or null when it was the only one
}

// BasketRunner is the second best match of a name.
type BasketRunner struct {
	UPC     string `json:"upc"`
	Name    string `json:"name"`
	Brand   string `json:"brand"`
	Size    string `json:"size"`
	Score   int    `json:"score"`
	Carried int    `json:"carried"` // banners of the province with a current offer of it
}

// BasketItem is one resolved line of a BasketResult.
type BasketItem struct {
	Item     int          `json:"item"`  // its position in the request, from 0
	Query    string       `json:"query"` // the upc or name asked for
	Found    bool         `json:"found"` // false: no product of the catalogue matched; the item is left out of every total
	UPC      string       `json:"upc,omitempty"`
	Name     string       `json:"name,omitempty"`
	Brand    string       `json:"brand,omitempty"`
	Size     string       `json:"size,omitempty"`
	Category string       `json:"category,omitempty"`
	Type     string       `json:"product_type,omitempty"` // the product type a substitute must share; without one the item has no substitute
	Quantity int          `json:"quantity"`
	Match    *BasketMatch `json:"match,omitempty"` // for an item given by name
}

// BasketLine is one item's price at one banner.
type BasketLine struct {
	Item           int     `json:"item"`
	ExternalSKU    string  `json:"external_sku"`
	Price          Cents   `json:"price"`      // the shelf price of one pack of the product priced
	Packs          int     `json:"packs"`      // packs bought: the item's quantity, or for a substitute as many packs as cover the amount asked for
	LineTotal      Cents   `json:"line_total"` // Price × Packs
	OnPromo        bool    `json:"on_promo"`
	Substitute     bool    `json:"substitute"`
	UPC            string  `json:"upc"` // the product priced: the item's, or its substitute's
	Name           string  `json:"name"`
	Size           string  `json:"size"`
	ShelfPrice     Cents   `json:"shelf_price"` // the product's own shelf price (= Price)
	StoreCount     int     `json:"store_count"` // stores that observed the price
	UnitPrice      *Cents  `json:"unit_price,omitempty"`
	UnitPriceBasis string  `json:"unit_price_basis,omitempty"`
	Wanted         float64 `json:"wanted,omitempty"`  // for a substitute: the amount asked for (quantity × the item's size), in CoveredUnit
	Covered        float64 `json:"covered,omitempty"` // for a substitute: the amount bought (Packs × its size), in CoveredUnit
	CoveredUnit    string  `json:"covered_unit,omitempty"`
}

// BasketBanner is the basket at one banner.
type BasketBanner struct {
	Banner                  string       `json:"banner"`
	BannerName              string       `json:"banner_name"`
	Total                   Cents        `json:"total"`                     // the items it prices
	Complete                bool         `json:"complete"`                  // every found item priced exactly (the item itself): a like-for-like basket
	CompleteWithSubstitutes bool         `json:"complete_with_substitutes"` // every found item priced, exactly or by a substitute
	Priced                  int          `json:"priced"`                    // items priced: Exact + Substitutes
	Exact                   int          `json:"exact"`                     // items priced exactly
	Substitutes             int          `json:"substitutes"`               // items priced through a substitute
	LackingCount            int          `json:"lacking_count"`             // items lacking: len(Lacking)
	Lacking                 []int        `json:"lacking"`                   // items not observed in the panel at this banner, no substitute either
	Lines                   []BasketLine `json:"lines"`
}

// Bases of a BasketChoice.
const (
	BasketExact           = "exact"            // every line the item itself
	BasketWithSubstitutes = "with_substitutes" // lines may be substitutes of the same product type
)

// BasketChoice is the cheapest or dearest complete basket.
type BasketChoice struct {
	Banners     []string `json:"banners"` // one banner, or two for a split
	Total       Cents    `json:"total"`
	Basis       string   `json:"basis"`           // BasketExact (like for like) or BasketWithSubstitutes
	Substitutes int      `json:"substitutes"`     // lines priced through a substitute (0 for BasketExact)
	Items       []string `json:"items,omitempty"` // for a split: the banner of each found item, by item
}

// BasketResult is the answer of CompareBasket.
type BasketResult struct {
	Province      string         `json:"province"`
	Items         []BasketItem   `json:"items"`
	Banners       []BasketBanner `json:"banners"`        // complete baskets first, then complete with substitutes, cheapest first
	Cheapest      *BasketChoice  `json:"cheapest"`       // cheapest basket at one banner pricing every item exactly, or null
	CheapestSplit *BasketChoice  `json:"cheapest_split"` // cheapest basket across two banners, every item priced exactly, or null
	Dearest       *BasketChoice  `json:"dearest"`        // dearest basket at one banner pricing every item exactly, or null
	// CheapestWithSubstitutes is the cheapest basket at one banner pricing
	// every item, exactly or by a substitute of the same product type: a
	// separate figure, not a like-for-like one; null when none.
	CheapestWithSubstitutes *BasketChoice `json:"cheapest_with_substitutes"`
	Savings                 Cents         `json:"savings"`       // Dearest - Cheapest (0 without both)
	SavingsPct              float64       `json:"savings_pct"`   // Savings ÷ Dearest, in percent
	SplitSavings            Cents         `json:"split_savings"` // Dearest - CheapestSplit (0 without both)
	Currency                string        `json:"currency"`
	Basis                   Basis         `json:"basis"`
}

// CompareBasket prices a basket at every banner of a province from the
// current offers. Each item is a barcode or a name; a name resolves as
// SearchProducts scores it (every word must match; exact words beat
// prefixes, name words beat brand words). Candidates sharing the best
// score tie: the one carried by the most banners of the province wins,
// then the one whose banner prices spread least ((max - min) ÷ min), then
// the one with fewer words; the answer gives the product chosen, its
// score, how many tied (Confidence is Score ÷ MaxScore ÷ Tied, so never 1
// on a tie) and the runner-up with its brand. An item whose barcode or
// name matches no product is reported (Found false) and left out of every
// total.
//
// A banner's price of a barcode is its cheapest current offer in the
// province: the offer's price, the most common price among its stores,
// which is what a shopper pays at the till. A banner with no current
// offer of an item gets a substitute when the panel has one of the same
// product type (see basketpick.Substitute; an item without a type has none):
// it is bought in whole packs at its shelf price, as many as cover the
// amount asked for, and the line says the packs, the amount asked for and
// covered, and the unit price; Basis.Comparison is then "unit_price".
// Otherwise the item is lacking at the banner: not observed in the panel
// there. Each banner says how many items it prices exactly, through a
// substitute, and lacks.
//
// Cheapest and Dearest compare like for like: banners that price every
// item exactly (Complete); CheapestSplit takes each item at the cheaper
// of two banners, exact lines only. CheapestWithSubstitutes, a separate
// figure, is the cheapest banner pricing every item exactly or by a
// substitute.
//
// It returns EINVALIDARGUMENT for an unknown province, no items or more than
// 100, an item with neither or both of upc and name, a malformed barcode,
// a name without words or of more than 8 words, or a quantity outside
// 1..99, naming the item (items[2].quantity). An item without a quantity
// (0) counts once.
func (s *Service) CompareBasket(ctx context.Context, in BasketInput) (*BasketResult, error) {
	province, args, err := parseBasket(&in)
	if err != nil {
		return nil, err
	}
	res := &BasketResult{Province: province, Items: make([]BasketItem, len(in.Items)), Banners: []BasketBanner{}, Currency: Currency}
	err = s.db.View(func(tx *storage.Tx) error {
		r := &basketReader{tx: tx, sn: newSnapshot(tx.AsOf()), province: province,
			prods: map[string]*storage.Product{}, offersOf: map[string]map[string]basketPrice{}}
		// Resolve the items; gtins holds each found item's barcode.
		gtins := make([]string, len(args))
		bannerSet := map[string]bool{}
		found := 0
		for i, arg := range args {
			g, err := r.resolve(&res.Items[i], i, in.Items[i], arg)
			if err != nil {
				return err
			}
			if g == "" {
				continue
			}
			gtins[i] = g
			found++
			m, err := r.offers(g)
			if err != nil {
				return err
			}
			for b := range m {
				bannerSet[b] = true
			}
		}
		usedSub := false
		for _, b := range sortedKeys(bannerSet) {
			bb, err := r.bannerBasket(b, res.Items, gtins)
			if err != nil {
				return err
			}
			bb.Complete = found > 0 && bb.Exact == found
			bb.CompleteWithSubstitutes = found > 0 && bb.Priced == found
			usedSub = usedSub || bb.Substitutes > 0
			res.Banners = append(res.Banners, bb)
		}
		chooseBaskets(res)
		comparison := CompareSameBarcode
		if usedSub {
			comparison = CompareUnitPrice
		}
		res.Basis, err = r.sn.basis(tx, comparison)
		if err != nil {
			return err
		}
		res.Basis.Note = basketNote(res, found, usedSub)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// basketArg is one item of a basket as parsed: a barcode, or the words
// of a name.
type basketArg struct {
	gtin  GTIN
	words []string
}

// parseBasket checks a basket's arguments, returning its province and
// items; in's items become a copy, their quantities defaulted.
func parseBasket(in *BasketInput) (string, []basketArg, error) {
	province, err := ParseProvince(in.Province)
	if err != nil {
		return "", nil, err
	}
	switch {
	case len(in.Items) == 0:
		return "", nil, Errorf(EINVALIDARGUMENT, "items is required: 1 to %d items, each {upc or name, quantity}", MaxBasketItems)
	case len(in.Items) > MaxBasketItems:
		return "", nil, Errorf(EINVALIDARGUMENT, "items has %d items: want at most %d", len(in.Items), MaxBasketItems)
	}
	args := make([]basketArg, len(in.Items))
	in.Items = slices.Clone(in.Items) // the quantities defaulted below are this call's
	for i := range in.Items {
		it := &in.Items[i]
		if it.Quantity == 0 {
			it.Quantity = 1
		}
		upc, name := strings.TrimSpace(it.UPC), strings.TrimSpace(it.Name)
		switch {
		case upc == "" && name == "":
			return "", nil, Errorf(EINVALIDARGUMENT, "items[%d]: upc or name is required", i)
		case upc != "" && name != "":
			return "", nil, Errorf(EINVALIDARGUMENT, "items[%d]: give upc or name, not both", i)
		case it.Quantity < 1 || it.Quantity > 99:
			return "", nil, Errorf(EINVALIDARGUMENT, "items[%d].quantity %d is out of range: want 1 to 99", i, it.Quantity)
		case upc != "":
			g, err := ParseGTIN(upc)
			if err != nil {
				return "", nil, Errorf(EINVALIDARGUMENT, "items[%d].upc: %s", i, ErrorMessage(err))
			}
			args[i].gtin = g
		default:
			w := tokens(name)
			if len(w) == 0 || len(w) > 8 {
				return "", nil, Errorf(EINVALIDARGUMENT, "items[%d].name %q: want 1 to 8 words of a product name or brand", i, name)
			}
			args[i].words = w
		}
	}
	return province, args, nil
}

// basketPrice is a banner's cheapest current offer of a barcode.
type basketPrice struct {
	o    storage.Offer
	gtin string
}

// sizedProduct is a product that may be a substitute: its size in units
// of its price basis.
type sizedProduct struct {
	gtin  string
	qty   float64
	basis string
}

// basketReader reads what a basket needs in one read transaction: each
// product and the offers of each item and picked substitute once, and the
// banners' prices of the other products it weighs (tied name matches,
// substitute candidates) from the province's offer prices.
type basketReader struct {
	tx       *storage.Tx
	sn       *snapshot
	province string
	prods    map[string]*storage.Product
	offersOf map[string]map[string]basketPrice // gtin -> banner -> cheapest
	// byType holds the products of the items' product types (category
	// 0x00 folded type) that the province has an offer of, read when a
	// first substitute is sought.
	byType map[string][]sizedProduct
	// prices are the province's offer prices, once pricesRead.
	prices     storage.OfferPrices
	pricesRead bool
}

// product returns the product of barcode g, nil when the catalogue has
// none.
func (r *basketReader) product(g string) (*storage.Product, error) {
	if p := r.prods[g]; p != nil {
		return p, nil
	}
	p := &storage.Product{}
	found, err := r.tx.Product(g, p)
	if err != nil || !found {
		return nil, err
	}
	r.prods[g] = p
	return p, nil
}

// offers returns each banner's cheapest current offer of barcode g in
// the province.
func (r *basketReader) offers(g string) (map[string]basketPrice, error) {
	if m, ok := r.offersOf[g]; ok {
		return m, nil
	}
	m := map[string]basketPrice{}
	err := r.tx.Offers(r.province, g, func(o *storage.Offer) error {
		r.addOffer(m, g, o)
		return nil
	})
	r.offersOf[g] = m
	return m, err
}

// addOffer keeps o in m when it is a current offer of g, and its banner's
// cheapest.
func (r *basketReader) addOffer(m map[string]basketPrice, g string, o *storage.Offer) {
	if !r.sn.current(o) {
		return
	}
	if cur, ok := m[o.Banner]; !ok || o.Price < cur.o.Price {
		m[o.Banner] = basketPrice{*o, g}
	}
}

// readPrices reads the province's offer prices, once.
func (r *basketReader) readPrices() error {
	if r.pricesRead {
		return nil
	}
	p, err := r.tx.OfferPrices(r.province)
	r.prices, r.pricesRead = p, err == nil
	return err
}

// current calls fn with the banner and price of each current offer of
// barcode g in the province, read from its offer prices (the fields of
// every offer that a comparison reads, in one record a province), in the
// offers' order.
func (r *basketReader) current(g string, fn func(banner string, price uint32)) error {
	if err := r.readPrices(); err != nil {
		return err
	}
	i, ok := r.prices.Find([]byte(g))
	if !ok {
		return nil
	}
	first, end, err := r.prices.Offers(i)
	if err != nil {
		return err
	}
	var e storage.PriceEntry
	for j := first; j < end; j++ {
		b, err := r.prices.Entry(j, &e)
		if err != nil {
			return err
		}
		if r.sn.currentAt(e.ObservedAt, e.StoreCount) {
			fn(b, e.Price)
		}
	}
	return nil
}

// carried returns how many banners have a current offer of g and the
// spread of their cheapest prices, (max - min) ÷ min.
func (r *basketReader) carried(g string) (int, float64, error) {
	var banners []string
	var cheapest []uint32
	err := r.current(g, func(banner string, price uint32) {
		if i := slices.Index(banners, banner); i >= 0 {
			cheapest[i] = min(cheapest[i], price)
			return
		}
		banners, cheapest = append(banners, banner), append(cheapest, price)
	})
	if err != nil || len(cheapest) == 0 {
		return 0, 0, err
	}
	lo, hi := slices.Min(cheapest), slices.Max(cheapest)
	if lo == 0 {
		return len(cheapest), 0, nil
	}
	return len(cheapest), float64(hi-lo) / float64(lo), nil
}

// cheapestAt returns the cheapest current price of g at banner, false
// when banner has no current offer of it.
func (r *basketReader) cheapestAt(g, banner string) (uint32, bool, error) {
	lo, ok := uint32(0), false
	err := r.current(g, func(b string, price uint32) {
		if b == banner && (!ok || price < lo) {
			lo, ok = price, true
		}
	})
	return lo, ok, err
}

// resolve fills bi, item i of the request, from arg: its barcode's
// product, or the best match of its name. It returns the barcode, "" when
// no product matched.
func (r *basketReader) resolve(bi *BasketItem, i int, in BasketItemInput, arg basketArg) (string, error) {
	bi.Item, bi.Quantity = i, in.Quantity
	bi.Query = strings.TrimSpace(in.UPC)
	g := string(arg.gtin)
	if arg.words != nil {
		bi.Query = strings.TrimSpace(in.Name)
		m, best, err := r.match(arg.words)
		if err != nil || m == nil {
			return "", err
		}
		g, bi.Match = best, m
	}
	p, err := r.product(g)
	if err != nil || p == nil {
		return "", err
	}
	bi.Found = true
	bi.UPC, bi.Name, bi.Brand, bi.Size, bi.Category, bi.Type = GTIN(g).UPC(), p.Name, p.Brand, p.Size, p.Category, p.Type
	return g, nil
}

// match resolves a name's words as SearchProducts scores them. The
// candidates sharing the best score tie: the most widely carried in the
// province first, then the narrowest spread of banner prices, then
// search's order. It returns the match and its barcode, nil when no
// product matches.
func (r *basketReader) match(words []string) (*BasketMatch, string, error) {
	hits, err := search.Match(r.tx, r.province, words)
	if err != nil || len(hits) == 0 {
		return nil, "", err
	}
	tied := 1
	for tied < len(hits) && hits[tied].Score() == hits[0].Score() {
		tied++
	}
	type ranked struct {
		carried int
		spread  float64
	}
	ranks := make([]ranked, min(len(hits), max(tied, 2)))
	for j := range ranks {
		n, sp, err := r.carried(string(hits[j].GTIN[:]))
		if err != nil {
			return nil, "", err
		}
		ranks[j] = ranked{n, sp}
	}
	if tied > 1 {
		order := make([]int, tied)
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(ranks[b].carried, ranks[a].carried), cmp.Compare(ranks[a].spread, ranks[b].spread))
		})
		h, rk := slices.Clone(hits[:tied]), slices.Clone(ranks[:tied])
		for j, o := range order {
			hits[j], ranks[j] = h[o], rk[o]
		}
	}
	m := &BasketMatch{Score: hits[0].Score(), MaxScore: 4 * len(words), Candidates: len(hits), Tied: tied, Carried: ranks[0].carried}
	m.Confidence = math.Round(100*float64(m.Score)/float64(m.MaxScore)/float64(tied)) / 100
	if len(hits) > 1 {
		rg := string(hits[1].GTIN[:])
		rp, err := r.product(rg)
		if err != nil {
			return nil, "", err
		}
		m.RunnerUp = &BasketRunner{UPC: GTIN(rg).UPC(), Score: hits[1].Score(), Carried: ranks[1].carried}
		if rp != nil {
			m.RunnerUp.Name, m.RunnerUp.Brand, m.RunnerUp.Size = rp.Name, rp.Brand, rp.Size
		}
	}
	return m, string(hits[0].GTIN[:]), nil
}

// typeKey is the key of a product type in byType.
func typeKey(category, typ string) string { return category + "\x00" + foldKey(typ) }

// readTypes reads the products of the found items' product types (the
// same category too), each with its size in units of its price basis:
// of the items' categories, the types (from the kinds index) that fold
// to an item's, and their products that the province has an offer of
// (the others are no substitute there).
func (r *basketReader) readTypes(items []BasketItem) error {
	r.byType = map[string][]sizedProduct{}
	wanted := map[string]map[string]bool{} // category -> folded types
	for _, it := range items {
		if it.Found && strings.TrimSpace(it.Type) != "" {
			if wanted[it.Category] == nil {
				wanted[it.Category] = map[string]bool{}
			}
			wanted[it.Category][foldKey(it.Type)] = true
		}
	}
	if err := r.readPrices(); err != nil {
		return err
	}
	var p storage.Product
	for _, category := range sortedKeys(wanted) {
		keep := func(typ []byte) bool { return len(typ) > 0 && wanted[category][foldKey(string(typ))] }
		var typ, key string // the last type read, and its key
		err := r.tx.ProductsOfCategory(category, keep, func(t, gtin []byte) error {
			// A product the province has no offer of is no substitute.
			if _, ok := r.prices.Find(gtin); !ok {
				return nil
			}
			if found, err := r.tx.Product(string(gtin), &p); err != nil || !found {
				return err
			}
			if string(t) != typ {
				typ, key = string(t), typeKey(category, string(t))
			}
			q, b := unitprice.Of(p.Size)
			r.byType[key] = append(r.byType[key], sizedProduct{p.GTIN, q, b})
			cp := p
			r.prods[p.GTIN] = &cp
			return nil
		})
		if err != nil {
			return err
		}
	}
	// Types that fold alike were read one after the other: by GTIN, as
	// one type.
	for _, ps := range r.byType {
		slices.SortFunc(ps, func(a, b sizedProduct) int { return strings.Compare(a.gtin, b.gtin) })
	}
	return nil
}

// substitute returns the substitute of item (barcode own) at banner: its
// offer, its product and the packs that cover the amount asked for; nil
// when it has none (an item without a type has none).
func (r *basketReader) substitute(items []BasketItem, item *BasketItem, own, banner string) (*basketPrice, *storage.Product, int, error) {
	qty, basis := unitprice.Of(item.Size)
	if qty == 0 || strings.TrimSpace(item.Type) == "" {
		return nil, nil, 0, nil
	}
	if r.byType == nil {
		if err := r.readTypes(items); err != nil {
			return nil, nil, 0, err
		}
	}
	var cands []basketpick.Candidate
	var gtins []string
	for _, c := range r.byType[typeKey(item.Category, item.Type)] {
		if c.gtin == own || c.basis != basis || !basketpick.Fits(qty, c.qty) {
			continue
		}
		price, ok, err := r.cheapestAt(c.gtin, banner)
		if err != nil {
			return nil, nil, 0, err
		}
		if ok {
			cands = append(cands, basketpick.Candidate{Size: c.qty, Price: int64(price)})
			gtins = append(gtins, c.gtin)
		}
	}
	i, packs := basketpick.Substitute(qty, item.Quantity, cands)
	if i < 0 {
		return nil, nil, 0, nil
	}
	// The substitute's offer itself (its SKU, regular price, stores).
	m, err := r.offers(gtins[i])
	if err != nil {
		return nil, nil, 0, err
	}
	pr, ok := m[banner]
	if !ok || int64(pr.o.Price) != cands[i].Price {
		return nil, nil, 0, fmt.Errorf("%w: the offer prices of %s at %s in %s differ from its offers", storage.ErrInconsistent, gtins[i], banner, r.province)
	}
	return &pr, r.prods[gtins[i]], packs, nil
}

// bannerBasket prices the found items (gtins by item) at banner b: each
// at the banner's cheapest current offer, or a substitute's, or lacking.
func (r *basketReader) bannerBasket(b string, items []BasketItem, gtins []string) (BasketBanner, error) {
	bb := BasketBanner{Banner: b, BannerName: bannerName(b), Lacking: []int{}, Lines: []BasketLine{}}
	for i := range items {
		it := &items[i]
		if !it.Found {
			continue
		}
		pr, ok := r.offersOf[gtins[i]][b]
		line := BasketLine{Item: i, Packs: it.Quantity}
		size := it.Size
		if ok {
			line.UPC, line.Name, line.Size = it.UPC, it.Name, it.Size
			bb.Exact++
		} else {
			sp, p, packs, err := r.substitute(items, it, gtins[i], b)
			if err != nil {
				return bb, err
			}
			if sp == nil {
				bb.Lacking = append(bb.Lacking, i)
				continue
			}
			pr, size = *sp, p.Size
			substituteLine(&line, it, sp, p, packs)
			bb.Substitutes++
		}
		line.Price = Cents(pr.o.Price)
		line.ExternalSKU, line.OnPromo, line.ShelfPrice = pr.o.SKU, pr.o.Price < pr.o.Regular, Cents(pr.o.Price)
		if q, basis := unitprice.Of(size); q > 0 {
			u := Cents(pricestat.Cents(float64(pr.o.Price) / q))
			line.UnitPrice, line.UnitPriceBasis = &u, basis
		}
		line.StoreCount = int(pr.o.StoreCount)
		line.LineTotal = line.Price * Cents(line.Packs)
		bb.Total += line.LineTotal
		bb.Priced++
		bb.Lines = append(bb.Lines, line)
		r.sn.add(r.province, pr.gtin, &pr.o)
	}
	bb.LackingCount = len(bb.Lacking)
	return bb, nil
}

// substituteLine makes line item's substitute sp (product p, packs of
// it): what it is, and the amounts asked for and covered.
func substituteLine(line *BasketLine, it *BasketItem, sp *basketPrice, p *storage.Product, packs int) {
	line.Substitute, line.Packs = true, packs
	line.UPC, line.Name, line.Size = GTIN(sp.gtin).UPC(), p.Name, p.Size
	itemQty, basis := unitprice.Of(it.Size)
	subQty, _ := unitprice.Of(p.Size)
	scale, unit := amountUnit(basis)
	line.Wanted = float64(it.Quantity) * itemQty * scale
	line.Covered = float64(packs) * subQty * scale
	line.CoveredUnit = unit
}

// chooseBaskets orders res's banners (complete baskets first, then
// complete with substitutes, cheapest first) and picks the cheapest,
// dearest and split baskets and the savings.
func chooseBaskets(res *BasketResult) {
	slices.SortStableFunc(res.Banners, func(a, b BasketBanner) int {
		return cmp.Or(compareFirst(a.Complete, b.Complete), compareFirst(a.CompleteWithSubstitutes, b.CompleteWithSubstitutes),
			cmp.Compare(b.Priced, a.Priced), cmp.Compare(b.Exact, a.Exact), cmp.Compare(a.Total, b.Total), cmp.Compare(a.Banner, b.Banner))
	})
	for _, bb := range res.Banners {
		if bb.CompleteWithSubstitutes && (res.CheapestWithSubstitutes == nil || bb.Total < res.CheapestWithSubstitutes.Total) {
			res.CheapestWithSubstitutes = &BasketChoice{Banners: []string{bb.Banner}, Total: bb.Total, Basis: BasketWithSubstitutes, Substitutes: bb.Substitutes}
		}
		if !bb.Complete {
			continue
		}
		if res.Cheapest == nil {
			res.Cheapest = &BasketChoice{Banners: []string{bb.Banner}, Total: bb.Total, Basis: BasketExact}
		}
		res.Dearest = &BasketChoice{Banners: []string{bb.Banner}, Total: bb.Total, Basis: BasketExact}
	}
	res.CheapestSplit = cheapestSplit(res.Items, res.Banners)
	if res.Dearest != nil && res.Dearest.Total > 0 {
		res.Savings = res.Dearest.Total - res.Cheapest.Total
		res.SavingsPct = pricestat.Round1(100 * float64(res.Savings) / float64(res.Dearest.Total))
		if res.CheapestSplit != nil {
			res.SplitSavings = res.Dearest.Total - res.CheapestSplit.Total
		}
	}
}

// basketNote says what a basket left out and how it compared, found of
// its items matched and usedSub when a line is a substitute.
func basketNote(res *BasketResult, found int, usedSub bool) string {
	var notes []string
	if n := len(res.Items) - found; n > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d items matched no product of the catalogue and are left out", n, len(res.Items)))
	}
	switch {
	case found > 0 && len(res.Banners) == 0:
		notes = append(notes, "no item was observed in the panel in "+res.Province+" at any banner")
	case found > 0 && res.Cheapest == nil:
		notes = append(notes, "no banner has every item in the panel (lacking items are not observed in the panel there, which is no proof they are not sold)")
	}
	if usedSub {
		notes = append(notes, "cheapest, dearest and cheapest_split compare banners pricing every item exactly; cheapest_with_substitutes lets a line be a product of the same type, bought in whole packs: as many as cover the amount asked for")
	}
	return strings.Join(notes, "; ")
}

// compareFirst orders true before false.
func compareFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// amountUnit returns the factor from units of a price basis to the
// natural unit it counts (g, mL or unit), and that unit's name.
func amountUnit(basis string) (float64, string) {
	switch basis {
	case "per 100 g":
		return 100, "g"
	case "per 100 mL":
		return 100, "mL"
	}
	return 1, "unit"
}

// cheapestSplit returns the cheapest complete basket taking each found
// item at the cheaper of two banners (basketpick.CheapestSplit), or nil
// when no pair of banners covers every item.
func cheapestSplit(items []BasketItem, banners []BasketBanner) *BasketChoice {
	found := make([]int, 0, len(items))
	for _, it := range items {
		if it.Found {
			found = append(found, it.Item)
		}
	}
	exact := make([]basketpick.Banner, len(banners))
	for i, bb := range banners {
		exact[i] = basketpick.Banner{Name: bb.Banner, Lines: map[int]int64{}}
		for _, l := range bb.Lines {
			if !l.Substitute {
				exact[i].Lines[l.Item] = int64(l.LineTotal)
			}
		}
	}
	best, ok := basketpick.CheapestSplit(found, exact)
	if !ok {
		return nil
	}
	return &BasketChoice{Banners: best.Banners[:], Total: Cents(best.Total), Basis: BasketExact, Items: best.Items}
}
