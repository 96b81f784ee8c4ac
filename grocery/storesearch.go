package grocery

import (
	"context"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/search"
	"github.com/grocerydata/grocery/storage"
)

// PostalCode is a validated Canadian postal code.
type PostalCode struct {
	Code     string // normalised: upper case with one space, "M5V 2T6"
	FSA      string // forward sortation area: the first three characters
	Province string // the province its first letter gives
}

// postalProvince maps a postal code's first letter to its province; X is
// NT or NU, told apart by the FSA.
var postalProvince = map[byte]string{
	'A': "NL", 'B': "NS", 'C': "PE", 'E': "NB", 'G': "QC", 'H': "QC", 'J': "QC",
	'K': "ON", 'L': "ON", 'M': "ON", 'N': "ON", 'P': "ON", 'R': "MB", 'S': "SK",
	'T': "AB", 'V': "BC", 'X': "NT", 'Y': "YT",
}

// ParsePostalCode validates a Canadian postal code of the form A1A 1A1
// (the space optional, any case) and returns it with its FSA and province.
// It returns EINVALIDARGUMENT saying what is wrong: the form, a letter never used
// in postal codes (D F I O Q U), or a first letter no province uses (W Z).
func ParsePostalCode(s string) (PostalCode, error) {
	return postalCodeArg("postal_code", s)
}

// postalCodeArg is ParsePostalCode for the argument named arg, which its
// errors name.
func postalCodeArg(arg, s string) (PostalCode, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if len(t) == 7 && t[3] == ' ' {
		t = t[:3] + t[4:]
	}
	bad := func(format string, args ...any) (PostalCode, error) {
		return PostalCode{}, Errorf(EINVALIDARGUMENT, "%s %q: "+format, append([]any{arg, s}, args...)...)
	}
	if t == "" {
		return bad("a postal code is required, of the form A1A 1A1")
	}
	if len(t) != 6 {
		return bad("want the form A1A 1A1 (letter, digit, letter, optional space, digit, letter, digit)")
	}
	for i := 0; i < 6; i++ {
		c := t[i]
		if i%2 == 0 {
			if c < 'A' || c > 'Z' {
				return bad("character %d must be a letter: want the form A1A 1A1", position(i))
			}
			if strings.IndexByte("DFIOQU", c) >= 0 {
				return bad("the letter %c is never used in Canadian postal codes", c)
			}
		} else if c < '0' || c > '9' {
			return bad("character %d must be a digit: want the form A1A 1A1", position(i))
		}
	}
	province, ok := postalProvince[t[0]]
	if !ok {
		return bad("no Canadian postal code starts with %c", t[0])
	}
	fsa := t[:3]
	if fsa == "X0A" || fsa == "X0B" || fsa == "X0C" {
		province = "NU"
	}
	return PostalCode{Code: fsa + " " + t[3:], FSA: fsa, Province: province}, nil
}

// position is the 1-based position in the written form "A1A 1A1" of the
// i-th character without the space.
func position(i int) int {
	if i >= 3 {
		return i + 2
	}
	return i + 1
}

// StoreSearchInput holds the arguments of SearchStores: a query and
// exactly one of Province or PostalCode.
type StoreSearchInput struct {
	Query      string   `json:"q"`
	Province   string   `json:"province,omitempty"`
	PostalCode string   `json:"postal_code,omitempty"`
	Limit      Opt[int] `json:"limit,omitzero"` // 1..500; 50 when not given
	Offset     int      `json:"offset,omitempty"`
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// StoreHit is one product's latest price at one reference store.
type StoreHit struct {
	StoreID      string   `json:"store_id"`
	Banner       string   `json:"banner"`
	BannerName   string   `json:"banner_name"`
	Name         string   `json:"name"` // the store's name
	City         string   `json:"city"`
	PostalCode   string   `json:"postal_code"`
	DistanceKM   *float64 `json:"distance_km"` // from the postal code's FSA, 0.1 km; null by province, or when the panel has no store in the FSA
	UPC          string   `json:"upc"`
	ProductName  string   `json:"product_name"` // in the lang asked for
	Brand        string   `json:"brand"`
	Size         string   `json:"size"`
	ExternalSKU  string   `json:"external_sku"`
	Price        Cents    `json:"price"`
	RegularPrice Cents    `json:"regular_price"`
	OnPromo      bool     `json:"on_promo"`
	PromoEnds    *Date    `json:"promo_ends"`
	PromoEnded   *Date    `json:"promo_ended"` // the stated end of a promotion that ended before the data set's latest day, or null
	ObservedAt   Date     `json:"observed_at"`
}

// StoreSearchResult is the answer of SearchStores.
type StoreSearchResult struct {
	Query      string `json:"q"`
	Province   string `json:"province"`
	PostalCode string `json:"postal_code,omitempty"`
	Page[StoreHit]
	Currency string `json:"currency"`
}

// SearchStores finds products by name or brand (every word must match, as
// in SearchProducts) and returns their current prices store by store: one
// hit per reference store and matching SKU of its banner, observed within
// the last 14 days of the data set.
//
// With a province, stores come by store_id. With a postal code (whose
// first letter gives the province), the stores of its FSA come first, then
// the others of the province, each group nearest first, and every hit
// carries its distance in km from the FSA's centre: the mean position of
// the province's reference stores in the FSA (an approximation of the
// area's centre). When the panel has no store in the FSA, the order is
// from the centre of those sharing the code's first two characters, then
// its first letter, and at last of all the province's stores, and
// distance_km is null: a distance from a wider area would read as a
// distance from the postal code, which it is not. Within a store, products
// come best match first. Words match a product's English or French name
// or its brand; product names are in in.Lang. A query that is a barcode
// (8 to 14 digits, spaces and hyphens allowed) answers that product's
// prices store by store.
//
// It returns EINVALIDARGUMENT for an empty query or one of more than 8 words, a
// barcode with a wrong check digit, neither or both of Province and
// PostalCode, an unknown province, a malformed postal code, a limit
// outside 1..500, a negative offset or a lang other than en or fr, and
// ENOTFOUND for a barcode the catalogue does not know.
func (s *Service) SearchStores(ctx context.Context, in StoreSearchInput) (*StoreSearchResult, error) {
	a, err := parseStoreSearch(in)
	if err != nil {
		return nil, err
	}
	res := &StoreSearchResult{Query: in.Query, Province: a.province, PostalCode: a.pc.Code, Page: newPage[StoreHit](a.limit, a.offset), Currency: Currency}
	version := s.DataVersion() // read before the transaction: never newer than its data
	err = s.db.View(func(tx *storage.Tx) error {
		hits, refs, err := storeSearchHits(tx, a.province, a.words, a.barcode)
		if err != nil || len(hits) == 0 {
			return err
		}
		ss := &storeSearch{tx: tx, a: a, res: res, hits: hits, refs: refs, asOf: tx.AsOf(), current: tx.AsOf() - freshDays,
			products: make([]*storage.Product, len(hits))}
		// The province's index of the data version gives the exact total
		// and the current SKUs, so that only the page's stores and SKUs
		// are read.
		ix, err := s.searchIndex.Get(version, a.province, func() (*search.Index, error) {
			return search.BuildIndex(tx, a.province, ss.current)
		})
		if err != nil {
			return err
		}
		byBanner, err := ss.byBanner(ix)
		if err != nil || len(byBanner) == 0 {
			return err
		}
		stores, measured := ix.Stores(), false
		if a.pc.Code != "" {
			if stores, measured, err = search.Nearest(tx, a.province, a.pc.Code, a.pc.FSA, byBanner); err != nil {
				return err
			}
		}
		return ss.page(stores, measured, byBanner)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// storeSearchArgs are SearchStores' arguments, checked.
type storeSearchArgs struct {
	barcode       GTIN // set when the query is a barcode: its product's hits
	words         []string
	province      string
	pc            PostalCode
	limit, offset int
	lang          string
}

// parseStoreSearch checks SearchStores' arguments.
func parseStoreSearch(in StoreSearchInput) (storeSearchArgs, error) {
	var a storeSearchArgs
	if looksLikeBarcode(in.Query) {
		g, err := ParseGTIN(in.Query)
		if err != nil {
			return a, err
		}
		a.barcode = g
	}
	a.words = tokens(in.Query)
	if len(a.words) == 0 {
		return a, Errorf(EINVALIDARGUMENT, "q is required: one or more words of a product name or brand")
	}
	if len(a.words) > 8 {
		return a, Errorf(EINVALIDARGUMENT, "q has %d words: want at most 8", len(a.words))
	}
	hasProv, hasPostal := strings.TrimSpace(in.Province) != "", strings.TrimSpace(in.PostalCode) != ""
	if hasProv == hasPostal {
		return a, Errorf(EINVALIDARGUMENT, "give exactly one of province or postal_code")
	}
	var err error
	if hasProv {
		if a.province, err = ParseProvince(in.Province); err != nil {
			return a, err
		}
	} else {
		if a.pc, err = ParsePostalCode(in.PostalCode); err != nil {
			return a, err
		}
		a.province = a.pc.Province
	}
	if a.limit, a.offset, err = checkPage(in.Limit, in.Offset); err != nil {
		return a, err
	}
	a.lang, err = ParseLang(in.Lang)
	return a, err
}

// skuRef is a banner SKU a store search matched: the hit of its product.
type skuRef struct {
	hit int
	sku string
}

// storeSearch pages the store SKUs a search matched.
type storeSearch struct {
	tx            *storage.Tx
	a             storeSearchArgs
	res           *StoreSearchResult
	hits          []search.Hit
	refs          []string
	asOf, current int32              // the data's latest day, and the day before the current window
	products      []*storage.Product // by hit, read when first shown
}

// byBanner returns the matching SKUs of each banner, best match first,
// counting their current store SKUs in the result's total.
func (ss *storeSearch) byBanner(ix *search.Index) (map[string][]skuRef, error) {
	byBanner := map[string][]skuRef{}
	for i := range ss.hits {
		if banner, sku, ok := ss.hits[i].BannerSKU(ss.refs); ok {
			n, err := unlinkedStores(ss.tx, ix.Stores(), banner, sku, ss.current)
			if err != nil {
				return nil, err
			}
			if n > 0 {
				ss.res.Total += n
				byBanner[banner] = append(byBanner[banner], skuRef{i, sku})
			}
			continue
		}
		for _, r := range ix.Refs(ss.hits[i].GTIN) {
			ss.res.Total += int(r.Stores)
			byBanner[r.Banner] = append(byBanner[r.Banner], skuRef{i, r.SKU})
		}
	}
	return byBanner, nil
}

// page adds the page's store SKUs with a current price, store by store
// (nearest first when measured).
func (ss *storeSearch) page(stores []search.Store, measured bool, byBanner map[string][]skuRef) error {
	var l storage.Latest
	seen := 0 // current store SKUs up to here
	for si := range stores {
		st := &stores[si]
		for _, ref := range byBanner[st.Banner] {
			if len(ss.res.Results) >= ss.a.limit {
				return nil
			}
			found, err := ss.tx.Latest(st.ID, ref.sku, &l)
			if err != nil {
				return err
			}
			if !found || l.Date <= ss.current {
				continue
			}
			if seen++; seen <= ss.a.offset {
				continue
			}
			p, err := ss.product(ref.hit)
			if err != nil {
				return err
			}
			ss.res.Results = append(ss.res.Results, ss.storeHit(st, measured, ref.sku, &l, p))
		}
	}
	return nil
}

// product returns the product of a hit: its catalogue's, or a banner
// SKU's own.
func (ss *storeSearch) product(hit int) (*storage.Product, error) {
	if p := ss.products[hit]; p != nil {
		return p, nil
	}
	p := new(storage.Product)
	if banner, sku, ok := ss.hits[hit].BannerSKU(ss.refs); ok {
		if err := unlinkedProduct(ss.tx, banner, sku, p); err != nil {
			return nil, err
		}
	} else if _, err := ss.tx.Product(string(ss.hits[hit].GTIN[:]), p); err != nil {
		return nil, err
	}
	ss.products[hit] = p
	return p, nil
}

// storeHit is one store's price of product p (its banner's sku) from its
// latest observation l.
func (ss *storeSearch) storeHit(st *search.Store, measured bool, sku string, l *storage.Latest, p *storage.Product) StoreHit {
	price, regular, ended := pricestat.AtDay(l.Price, l.Regular, l.PromoEnd, ss.asOf)
	h := StoreHit{
		StoreID: st.ID, Banner: st.Banner, BannerName: bannerName(st.Banner), Name: st.Name, City: st.City,
		PostalCode: st.PostalCode, UPC: GTIN(p.GTIN).UPC(), ProductName: nameIn(p.Name, p.NameFr, ss.a.lang), Brand: p.Brand, Size: p.Size,
		ExternalSKU: sku, Price: Cents(price), RegularPrice: Cents(regular), OnPromo: price < regular,
		ObservedAt: Date(l.Date),
	}
	h.PromoEnds, h.PromoEnded = promoDates(price < regular, l.PromoEnd, ended)
	if measured {
		d := st.KM
		h.DistanceKM = &d
	}
	return h
}

// storeSearchHits are the products a store search answers: the product
// of barcode when the query is one (ENOTFOUND when the catalogue does not
// know it), else those matching every word, with the references of the
// banner SKUs among them (search.MatchAll).
func storeSearchHits(tx *storage.Tx, province string, words []string, barcode GTIN) ([]search.Hit, []string, error) {
	if barcode == "" {
		return search.MatchAll(tx, province, words)
	}
	var p storage.Product
	found, err := tx.Product(string(barcode), &p)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, Errorf(ENOTFOUND, "q %s is a valid barcode but not in the catalogue", barcode.UPC())
	}
	h := search.Hit{}
	copy(h.GTIN[:], barcode)
	return []search.Hit{h}, nil, nil
}
