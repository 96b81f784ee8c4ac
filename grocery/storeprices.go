package grocery

import (
	"context"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/search"
	"github.com/grocerydata/grocery/storage"
)

// StorePricesInput holds the arguments of StorePrices.
type StorePricesInput struct {
	Banner string   `json:"banner"`         // the store's banner
	Store  string   `json:"store"`          // a reference store's store_id
	Query  string   `json:"q,omitempty"`    // optional: words of a product name or brand
	Limit  Opt[int] `json:"limit,omitzero"` // 1..500; 50 when not given
	Offset int      `json:"offset,omitempty"`
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// StorePriceInput holds the arguments of StorePrice: a store and exactly
// one of SKU (the banner's external_sku) or UPC.
type StorePriceInput struct {
	Banner string `json:"banner"`
	Store  string `json:"store"`
	SKU    string `json:"sku,omitempty"`
	UPC    string `json:"upc,omitempty"`
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// StorePrice is a store's latest observed price of one banner SKU, as it
// stands on the data set's latest day: a promotion past its stated end
// gives way to the regular price.
type StorePrice struct {
	Banner       string `json:"banner"`
	StoreID      string `json:"store_id"`
	ExternalSKU  string `json:"external_sku"`
	UPC          string `json:"upc"`          // "" when the SKU is not linked to a barcode
	ProductName  string `json:"product_name"` // the product's name in the lang asked for, "" when the SKU is not linked: named as SearchStores names it
	Name         string `json:"name"`         // the same as ProductName
	Price        Cents  `json:"price"`
	RegularPrice Cents  `json:"regular_price"`
	OnPromo      bool   `json:"on_promo"`
	PromoEnds    *Date  `json:"promo_ends"`  // last day of the promotion, or null
	PromoEnded   *Date  `json:"promo_ended"` // the stated end of the promotion observed, when it ended before the data set's latest day; or null
	ObservedAt   Date   `json:"observed_at"`
	Currency     string `json:"currency"`
}

// StorePricesResult is the answer of StorePrices: one page of a store's
// latest prices.
type StorePricesResult struct {
	Page[StorePrice] // Total: the prices matching before the page was cut
}

// MaxOffset bounds the offset of a paginated list.
const MaxOffset = 1_000_000

// referenceStore reads the store id names and checks that it belongs to
// banner. An unknown store is ENOTFOUND; a store of another banner is
// EINVALIDARGUMENT saying whose it is.
func referenceStore(tx *storage.Tx, banner Banner, id string, st *storage.Store) error {
	found, err := tx.Store(id, st)
	if err != nil {
		return err
	}
	if !found {
		return Errorf(ENOTFOUND, "no reference store %q: store takes the store_id of a reference store", id)
	}
	if st.Banner != banner.Slug {
		return Errorf(EINVALIDARGUMENT, "store %s belongs to banner %s, not %s", id, st.Banner, banner.Slug)
	}
	return nil
}

// parseStoreArgs checks the banner and store arguments every store query
// takes.
func parseStoreArgs(banner, store string) (Banner, string, error) {
	b, err := ParseBanner(banner)
	if err != nil {
		return Banner{}, "", err
	}
	id := strings.TrimSpace(store)
	if id == "" {
		return Banner{}, "", Errorf(EINVALIDARGUMENT, "store is required: a reference store's store_id")
	}
	return b, id, nil
}

// StorePrices returns the latest observed price of each SKU at one
// reference store, by external_sku, or, with a query, the SKUs whose
// product matches every word of it (as SearchProducts matches), best match
// first. Total counts every matching price before the page. Names are
// in in.Lang.
//
// It returns EINVALIDARGUMENT for an unknown banner, a missing store, a store of
// another banner, a query of more than 8 words, a limit outside 1..500, a
// negative offset or a lang other than en or fr, and ENOTFOUND for an
// unknown store.
func (s *Service) StorePrices(ctx context.Context, in StorePricesInput) (*StorePricesResult, error) {
	banner, id, err := parseStoreArgs(in.Banner, in.Store)
	if err != nil {
		return nil, err
	}
	lang, err := ParseLang(in.Lang)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	words := tokens(in.Query)
	if len(words) > 8 {
		return nil, Errorf(EINVALIDARGUMENT, "q has %d words: want at most 8", len(words))
	}
	res := &StorePricesResult{newPage[StorePrice](limit, offset)}
	err = s.db.View(func(tx *storage.Tx) error {
		var st storage.Store
		if err := referenceStore(tx, banner, id, &st); err != nil {
			return err
		}
		pg := &latestPage{total: &res.Total, limit: limit, offset: offset}
		if len(words) == 0 {
			if err := tx.LatestAt(id, func(l *storage.Latest) error { pg.keep(l); return nil }); err != nil {
				return err
			}
		} else if err := matchLatest(tx, st.Province, banner.Slug, id, words, pg.keep); err != nil {
			return err
		}
		page := pg.page
		res.Results = make([]StorePrice, len(page))
		for i := range page {
			if err := storePrice(tx, banner.Slug, id, lang, &page[i], &res.Results[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// latestPage keeps the page of a store's latest prices and counts them
// all in total.
type latestPage struct {
	page          []storage.Latest
	total         *int
	limit, offset int
}

func (p *latestPage) keep(l *storage.Latest) {
	if *p.total >= p.offset && len(p.page) < p.limit {
		p.page = append(p.page, *l)
	}
	*p.total++
}

// matchLatest calls keep with store id's latest price of each SKU of
// banner whose product matches every word in province, best match first.
func matchLatest(tx *storage.Tx, province, banner, id string, words []string, keep func(*storage.Latest)) error {
	hits, err := search.Match(tx, province, words)
	if err != nil {
		return err
	}
	var l storage.Latest
	for _, h := range hits {
		err := tx.SKUsOf(string(h.GTIN[:]), func(b, sku string) error {
			if b != banner {
				return nil
			}
			found, err := tx.Latest(id, sku, &l)
			if found && err == nil {
				keep(&l)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// StorePrice returns one store's latest observed price of a product,
// named by the banner's external_sku or by its barcode. When several SKUs
// of the banner carry the barcode, the most recently observed one wins.
// The name is in in.Lang.
//
// It returns EINVALIDARGUMENT for an unknown banner, a missing store, a store of
// another banner, neither or both of SKU and UPC, a malformed barcode or
// a lang other than en or fr, and ENOTFOUND for an unknown store or a
// product the store has never observed.
func (s *Service) StorePrice(ctx context.Context, in StorePriceInput) (*StorePrice, error) {
	banner, id, err := parseStoreArgs(in.Banner, in.Store)
	if err != nil {
		return nil, err
	}
	lang, err := ParseLang(in.Lang)
	if err != nil {
		return nil, err
	}
	sku, upc := strings.TrimSpace(in.SKU), strings.TrimSpace(in.UPC)
	var gtin GTIN
	switch {
	case sku == "" && upc == "":
		return nil, Errorf(EINVALIDARGUMENT, "sku or upc is required: the banner's external_sku or a barcode")
	case sku != "" && upc != "":
		return nil, Errorf(EINVALIDARGUMENT, "give sku or upc, not both")
	case upc != "":
		if gtin, err = ParseGTIN(upc); err != nil {
			return nil, err
		}
	}
	res := &StorePrice{}
	err = s.db.View(func(tx *storage.Tx) error {
		found, ours, err := tx.StoreIs(id, banner.Slug)
		if err != nil {
			return err
		}
		if !found || !ours {
			var st storage.Store // for the error's words
			return referenceStore(tx, banner, id, &st)
		}
		var l storage.Latest
		found = false
		if sku != "" {
			if found, err = tx.Latest(id, sku, &l); err != nil {
				return err
			}
		} else {
			var cand storage.Latest
			err := tx.SKUsOf(string(gtin), func(b, sku string) error {
				if b != banner.Slug {
					return nil
				}
				ok, err := tx.Latest(id, sku, &cand)
				if ok && err == nil && (!found || cand.Date > l.Date) {
					l, found = cand, true
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		if !found {
			if sku == "" {
				return Errorf(ENOTFOUND, "store %s (%s) has never observed upc %s", id, banner.Slug, upc)
			}
			if _, err := ParseGTIN(sku); err == nil {
				return Errorf(ENOTFOUND, "sku %q is a barcode, not an external_sku: give it as upc, or the banner's external_sku as sku", sku)
			}
			return Errorf(ENOTFOUND, "store %s (%s) has never observed sku %q", id, banner.Slug, sku)
		}
		return storePrice(tx, banner.Slug, id, lang, &l, res)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// storePrice fills out from a store's latest observation, as it stands
// on the data set's latest day, with the product's barcode and its name
// in lang when the SKU is linked.
func storePrice(tx *storage.Tx, banner, storeID, lang string, l *storage.Latest, out *StorePrice) error {
	p, r, ended := pricestat.AtDay(l.Price, l.Regular, l.PromoEnd, tx.AsOf())
	*out = StorePrice{
		Banner: banner, StoreID: storeID, ExternalSKU: l.SKU,
		Price: Cents(p), RegularPrice: Cents(r), OnPromo: p < r,
		ObservedAt: Date(l.Date), Currency: Currency,
	}
	out.PromoEnds, out.PromoEnded = promoDates(p < r, l.PromoEnd, ended)
	var rec storage.SKU
	found, err := tx.SKU(banner, l.SKU, &rec)
	if err != nil || !found || rec.GTIN == "" {
		return err
	}
	out.UPC = GTIN(rec.GTIN).UPC()
	name, nameFr, _, err := tx.ProductNames(rec.GTIN)
	out.Name = nameIn(name, nameFr, lang)
	out.ProductName = out.Name
	return err
}

// promoDates returns the promotion dates a store price shows: the end of
// the promotion in force (onPromo), or the end of one that ended (ended,
// 0 when none); nil where there is none.
func promoDates(onPromo bool, promoEnd, ended int32) (ends, endedAt *Date) {
	switch {
	case onPromo && promoEnd != 0:
		d := Date(promoEnd)
		return &d, nil
	case ended != 0:
		d := Date(ended)
		return nil, &d
	}
	return nil, nil
}
