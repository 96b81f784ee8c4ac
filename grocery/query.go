package grocery

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/grocery/internal/search"
	"github.com/grocerydata/grocery/grocery/internal/unitprice"
	"github.com/grocerydata/grocery/storage"
)

// LookupProduct resolves a barcode to its product and returns the current
// offers for it across the banners of one province, cheapest first, at
// most in.Limit of them (DefaultLimit when not given) after the first in.Offset. Total
// counts every current offer in the province, so len(Offers) < Total says
// the list was cut. A product
// the catalogue knows but no banner currently carries in the province
// gives an empty Offers list and a Total of 0, not an error.
//
// It returns EINVALIDARGUMENT for a malformed barcode (naming the expected check
// digit), a restricted-circulation barcode, an unknown province, a limit
// outside 1..500 or an offset outside 0..1,000,000, and ENOTFOUND for a
// valid barcode the catalogue does not know. The product's name is in
// in.Lang (EINVALIDARGUMENT for a lang other than en or fr).
func (s *Service) LookupProduct(ctx context.Context, in LookupInput) (*LookupResult, error) {
	gtin, err := ParseGTIN(in.UPC)
	if err != nil {
		return nil, err
	}
	lang, err := ParseLang(in.Lang)
	if err != nil {
		return nil, err
	}
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	if gtin.Restricted() {
		return nil, &Error{Code: EINVALIDARGUMENT, Next: NextSearch, Message: fmt.Sprintf("upc %s is a restricted-circulation (in-store or random-weight) code: it names different items at different retailers, so it cannot be looked up across banners", in.UPC)}
	}
	res := &LookupResult{Province: province, Currency: Currency}
	err = s.db.View(func(tx *storage.Tx) error {
		var p storage.Product
		found, err := tx.Product(string(gtin), &p)
		if err != nil {
			return err
		}
		if !found {
			return Errorf(ENOTFOUND, "upc %s is a valid barcode but not in the catalogue", gtin.UPC())
		}
		res.Product = product(&p, lang)
		// Sort the current offers by index (an offer is 72 bytes, too
		// many to move in every swap), and convert only those returned.
		var buf [32]storage.Offer
		current, stored := tx.AsOf()-freshDays, buf[:0]
		err = tx.Offers(province, string(gtin), func(o *storage.Offer) error {
			if o.ObservedAt > current {
				stored = append(stored, *o)
			}
			return nil
		})
		if err != nil {
			return err
		}
		var ibuf [32]int
		sorted := ibuf[:0]
		for i := range stored {
			sorted = append(sorted, i)
		}
		slices.SortFunc(sorted, func(i, j int) int { return byPrice(&stored[i], &stored[j]) })
		res.Total = len(sorted)
		sorted = sorted[min(len(sorted), offset):]
		sorted = sorted[:min(len(sorted), limit)]
		qty, basis := unitprice.Of(p.Size)
		vals := offerValues{vals: make([]offerValue, 0, len(sorted))}
		res.Offers = make([]Offer, len(sorted))
		for i, o := range sorted {
			res.Offers[i] = offer(&stored[o], qty, basis, &vals)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// byPrice orders offers by price, then banner and SKU. The strings are
// compared only between equal prices (cmp.Or would compare them always).
func byPrice(a, b *storage.Offer) int {
	if a.Price != b.Price {
		return cmp.Compare(a.Price, b.Price)
	}
	return cmp.Or(strings.Compare(a.Banner, b.Banner), strings.Compare(a.SKU, b.SKU))
}

// product converts a stored product, naming it in lang.
func product(p *storage.Product, lang string) Product {
	g := GTIN(p.GTIN)
	return Product{UPC: g.UPC(), GTIN: p.GTIN, Name: nameIn(p.Name, p.NameFr, lang), Brand: p.Brand, Size: p.Size, Category: p.Category, Type: p.Type}
}

// offer converts a stored offer; its optional fields point into vals,
// the caller's backing store, so a lookup allocates them once, not per
// offer.
func offer(o *storage.Offer, qty float64, basis string, vals *offerValues) Offer {
	r := Offer{
		Banner: o.Banner, BannerName: bannerName(o.Banner), ExternalSKU: o.SKU,
		Price: Cents(o.Price), RegularPrice: Cents(o.Regular), OnPromo: o.Price < o.Regular,
		MinPrice: Cents(o.Min), MaxPrice: Cents(o.Max), StoreCount: int(o.StoreCount), ObservedAt: Date(o.ObservedAt),
	}
	v := vals.next()
	if r.OnPromo && o.PromoEnd != 0 {
		v.promoEnds = Date(o.PromoEnd)
		r.PromoEnds = &v.promoEnds
	}
	if !r.OnPromo && o.PromoEnded != 0 {
		v.promoEnded = Date(o.PromoEnded)
		r.PromoEnded = &v.promoEnded
	}
	if qty > 0 {
		v.unitPrice = Cents(pricestat.Cents(float64(o.Price) / qty))
		r.UnitPrice, r.UnitPriceBasis = &v.unitPrice, basis
	}
	if o.Low30 != 0 {
		v.low30 = Cents(o.Low30)
		r.Low30d = &v.low30
	}
	r.TypicalPrice, r.Verdict = Cents(o.Typical), pricestat.Verdict(o.Price, o.Regular, o.Low30, o.Typical)
	return r
}

// offerValues backs the pointer fields of a lookup's offers.
type offerValues struct{ vals []offerValue }

type offerValue struct {
	promoEnds, promoEnded Date
	unitPrice, low30      Cents
}

func (v *offerValues) next() *offerValue {
	if len(v.vals) == cap(v.vals) {
		// A new block: offers already made keep pointing into the old one.
		v.vals = make([]offerValue, 0, max(16, 2*cap(v.vals)))
	}
	v.vals = v.vals[:len(v.vals)+1]
	return &v.vals[len(v.vals)-1]
}

// SearchProducts finds products by name or brand in one province and
// returns them with current prices: each product once, best match first,
// with its cheapest banner SKUs (at most MaxSearchOffers, OfferCount
// counting all). in.Limit (DefaultLimit when not given) counts products and in.Offset
// skips that many matching products before the page; Total is the exact
// number of matching products with a current price in the province, and
// NextOffset, when set, is the offset of the next page. Words match
// case- and accent-insensitively, in a product's English or French name
// or its brand, a word matches any word it begins ("yog" finds "Yogurt"),
// and every word of the query must match. A size in the query ("4L",
// "4 L", "400 g", "12 x 355 mL", "dozen") is matched against the
// product's size after unit normalisation, and stop words
// (search.StopWords: "cheapest", "the", ...) are left out. When nothing
// matches a query of several words or with a size, Hint says why. Names
// are in in.Lang. It never returns a price history, and it never mixes
// provinces.
//
// It returns EINVALIDARGUMENT for an empty query (or one naming only a size), an
// unknown province, a limit
// outside 1..500, an offset outside 0..1,000,000 or a lang other than en
// or fr.
func (s *Service) SearchProducts(ctx context.Context, in SearchInput) (*SearchResult, error) {
	q := search.ParseQuery(in.Query)
	if len(q.Words) == 0 {
		if q.Size != "" {
			return nil, Errorf(EINVALIDARGUMENT, "query %q names a size only: add a word of a product name or brand", in.Query)
		}
		return nil, Errorf(EINVALIDARGUMENT, "query is required: one or more words of a product name or brand")
	}
	if len(q.Words) > 8 {
		return nil, Errorf(EINVALIDARGUMENT, "query has %d words: want at most 8", len(q.Words))
	}
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	lang, err := ParseLang(in.Lang)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Query: in.Query, Province: province, Results: []SearchProduct{}, Currency: Currency}
	buf := searchBuffers.Get().(*search.Buffer)
	defer searchBuffers.Put(buf)
	err = s.db.View(func(tx *storage.Tx) error {
		hits, refs, err := search.Candidates(tx, province, q.Words, buf)
		if err != nil {
			return err
		}
		ps := &productSearch{tx: tx, province: province, q: &q, lang: lang, offset: offset, limit: limit, res: res,
			asOf: tx.AsOf(), current: tx.AsOf() - freshDays}
		// The province's offer prices tell which products have a current
		// price, so that only the page's offers are read.
		if ps.days, err = tx.OfferPrices(province); err != nil {
			return err
		}
		if hits, err = ps.keep(hits, refs); err != nil {
			return err
		}
		res.Total = len(hits)
		if offset < len(hits) {
			search.Rank(hits, offset+limit)
		}
		for i := offset; i < min(len(hits), offset+limit); i++ {
			if err := ps.add(&hits[i], refs); err != nil {
				return err
			}
		}
		if res.Total == 0 && (len(q.Words) > 1 || q.HasSize()) {
			res.Hint, err = ps.hint()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if next := offset + len(res.Results); next < res.Total {
		res.NextOffset = next
	}
	return res, nil
}

// searchBuffers are the memory of the searches' matches (search.Buffer),
// reused from one search to the next.
var searchBuffers = sync.Pool{New: func() any { return new(search.Buffer) }}

// productSearch counts and pages the products a search matched, in the
// order matched.
type productSearch struct {
	tx            *storage.Tx
	province      string
	q             *search.Query
	lang          string
	offset, limit int
	res           *SearchResult
	asOf, current int32               // the data's latest day, and the day before the current window
	days          storage.OfferPrices // the province's offer prices, for each product's newest day
	p             storage.Product     // the product read last
	offers        []searchOffer       // one product's current offers, before the cut
	un            unlinked
}

// keep returns, in place, the hits a search counts: those with a
// current price in the province, of the size asked for.
func (ps *productSearch) keep(hits []search.Hit, refs []string) ([]search.Hit, error) {
	kept := hits[:0]
	for i := range hits {
		ok, err := ps.counts(&hits[i], refs)
		if err != nil {
			return nil, err
		}
		if ok {
			kept = append(kept, hits[i])
		}
	}
	return kept, nil
}

// counts reports whether a search counts hit h: one with a current
// price (priced) of the size asked for.
func (ps *productSearch) counts(h *search.Hit, refs []string) (bool, error) {
	if _, _, isSKU := h.BannerSKU(refs); isSKU || !ps.q.HasSize() {
		return ps.priced(h, refs, ps.q)
	}
	if !ps.hasCurrent(h.GTIN) {
		return false, nil
	}
	if _, err := ps.tx.Product(string(h.GTIN[:]), &ps.p); err != nil {
		return false, err
	}
	return ps.q.SizeMatches(ps.p.Size), nil
}

// priced reports whether hit h has a current price in the province: a
// banner SKU sold under no barcode (of q's size, when q is not nil), or a
// product a banner has a current price of (the offer prices tell, reading
// nothing).
func (ps *productSearch) priced(h *search.Hit, refs []string, q *search.Query) (bool, error) {
	if banner, sku, ok := h.BannerSKU(refs); ok {
		_, found, err := ps.un.entry(ps.tx, ps.province, banner, sku, q, ps.asOf, false)
		return found, err
	}
	return ps.hasCurrent(h.GTIN), nil
}

// hasCurrent reports whether a banner has a current price of gtin in
// the province: an offer observed after the day before the current window.
func (ps *productSearch) hasCurrent(gtin [14]byte) bool {
	day, ok := ps.days.Newest(gtin[:])
	return ok && day > ps.current
}

// add adds counted hit h to the page: a product with its cheapest
// current offers, or a banner SKU sold under no barcode.
func (ps *productSearch) add(h *search.Hit, refs []string) error {
	if banner, sku, ok := h.BannerSKU(refs); ok {
		e, found, err := ps.un.entry(ps.tx, ps.province, banner, sku, ps.q, ps.asOf, true)
		if err == nil && found {
			ps.res.Results = append(ps.res.Results, e)
		}
		return err
	}
	gtin := string(h.GTIN[:])
	ps.offers = ps.offers[:0]
	err := ps.tx.Offers(ps.province, gtin, func(o *storage.Offer) error {
		if o.ObservedAt > ps.current {
			so := searchOffer{SearchOffer{Banner: o.Banner, ExternalSKU: o.SKU, Price: Cents(o.Price)}, Date(o.ObservedAt)}
			if o.Price < o.Regular {
				so.RegularPrice, so.OnPromo = Cents(o.Regular), true
			}
			ps.offers = append(ps.offers, so)
		}
		return nil
	})
	if err != nil || len(ps.offers) == 0 {
		return err // none only in a corrupt file: the offer prices are written with the offers
	}
	if _, err := ps.tx.Product(gtin, &ps.p); err != nil {
		return err
	}
	ps.res.Results = append(ps.res.Results, ps.entry(gtin))
	return nil
}

// entry is the search result of product p (gtin) from its current
// offers: the cheapest, and the next up to MaxSearchOffers.
func (ps *productSearch) entry(gtin string) SearchProduct {
	offers, p := ps.offers, &ps.p
	slices.SortFunc(offers, func(a, b searchOffer) int {
		return cmp.Or(cmp.Compare(a.Price, b.Price), cmp.Compare(a.Banner, b.Banner), cmp.Compare(a.ExternalSKU, b.ExternalSKU))
	})
	first := offers[0]
	regular := first.Price
	if first.OnPromo {
		regular = first.RegularPrice
	}
	e := SearchProduct{
		UPC: GTIN(gtin).UPC(), Name: nameIn(p.Name, p.NameFr, ps.lang), Brand: p.Brand, Size: p.Size,
		Banner: first.Banner, BannerName: bannerName(first.Banner), ExternalSKU: first.ExternalSKU,
		Price: first.Price, RegularPrice: regular, OnPromo: first.OnPromo, ObservedAt: first.observed,
		OfferCount: len(offers), Offers: make([]SearchOffer, 0, min(len(offers), MaxSearchOffers)-1),
	}
	for _, o := range offers[1:min(len(offers), MaxSearchOffers)] {
		e.Offers = append(e.Offers, o.SearchOffer)
	}
	return e
}

// searchOffer is an offer of a product a search found, with its latest
// observation day, which the product's entry shows for its cheapest.
type searchOffer struct {
	SearchOffer
	observed Date
}

// products writes a count of products ("1 product", "0 products").
func products(n int) string {
	if n == 1 {
		return "1 product"
	}
	return fmt.Sprintf("%d products", n)
}

// hint says why the search found nothing: the size, when the words
// alone find products; otherwise how many products each word finds alone.
func (ps *productSearch) hint() (string, error) {
	q := ps.q
	count := func(words []string) (int, error) {
		hits, refs, err := search.Candidates(ps.tx, ps.province, words, nil)
		if err != nil {
			return 0, err
		}
		n := 0
		for i := range hits {
			ok, err := ps.priced(&hits[i], refs, nil)
			if err != nil {
				return 0, err
			}
			if ok {
				n++
			}
		}
		return n, nil
	}
	if q.HasSize() {
		n, err := count(q.Words)
		if err != nil || n > 0 {
			return fmt.Sprintf("%s match %q, none of them of size %s: leave the size out to see their sizes", products(n), strings.Join(q.Words, " "), q.Size), err
		}
	}
	if len(q.Words) == 1 {
		return fmt.Sprintf("%q finds no product with a current price in %s", q.Words[0], ps.province), nil
	}
	parts := make([]string, len(q.Words))
	for i, w := range q.Words {
		n, err := count([]string{w})
		if err != nil {
			return "", err
		}
		parts[i] = fmt.Sprintf("%q finds %s", w, products(n))
	}
	return "no product matches every word; alone, " + strings.Join(parts, ", ") + ": leave out a word", nil
}

// PriceHistory returns the observed price series of one banner SKU in one
// province over a lookback window ending at the data set's latest date:
// per day, the minimum, median and maximum shelf price across the
// province's reference stores observed that day, and stats over the
// daily medians with the store-level extremes apart (PriceStats); and
// the banner's price in force on every day of the window (DayInForce),
// so that a chart has no holes and no steps where only the stores
// visited changed. Its last day is the offer's price. The
// SKU is the banner's external_sku from LookupProduct or SearchProducts,
// never a barcode.
//
// The product's name is in in.Lang.
//
// It returns EINVALIDARGUMENT for a missing SKU, an unknown banner or province, an
// unsupported period or a lang other than en or fr, and ENOTFOUND for a
// SKU the banner does not have (saying so when it is a barcode).
func (s *Service) PriceHistory(ctx context.Context, in HistoryInput) (*HistoryResult, error) {
	sku := strings.TrimSpace(in.SKU)
	if sku == "" {
		return nil, &Error{Code: EINVALIDARGUMENT, Next: NextSKU, Message: "sku is required"}
	}
	banner, err := ParseBanner(in.Banner)
	if err != nil {
		return nil, err
	}
	province, err := ParseProvince(in.Province)
	if err != nil {
		return nil, err
	}
	period, err := ParsePeriod(in.Period)
	if err != nil {
		return nil, err
	}
	lang, err := ParseLang(in.Lang)
	if err != nil {
		return nil, err
	}
	res := &HistoryResult{SKU: sku, Banner: banner.Slug, Province: province, Period: period, Points: []PricePoint{},
		InForce: make([]DayInForce, 0, int(period)), Currency: Currency}
	var medians []uint32 // each point's median, in half-cents
	err = s.db.View(func(tx *storage.Tx) error {
		var rec storage.SKU
		found, err := tx.SKU(banner.Slug, sku, &rec)
		if err != nil {
			return err
		}
		if !found {
			if _, err := ParseGTIN(sku); err == nil {
				return &Error{Code: ENOTFOUND, Next: NextSKU, Message: fmt.Sprintf("sku %q is a barcode, not an external_sku: price history is keyed by the banner's own SKU", sku)}
			}
			return &Error{Code: ENOTFOUND, Next: NextSKU, Message: fmt.Sprintf("no external_sku %q at banner %s", sku, banner.Slug)}
		}
		if rec.GTIN != "" {
			var p storage.Product
			if ok, err := tx.Product(rec.GTIN, &p); err != nil {
				return err
			} else if ok {
				res.UPC, res.Name = GTIN(rec.GTIN).UPC(), nameIn(p.Name, p.NameFr, lang)
			}
		}
		res.To = Date(tx.AsOf())
		res.From = res.To - Date(period) + 1
		// Each day's median kept exact, in half-cents, for the stats; the
		// prices in force from the observations of the window and the
		// visit window before it.
		var buf []uint32
		var inForce inForceDays
		inForce.start(res)
		err = tx.Series(banner.Slug, sku, province, storage.SeriesScan{From: inForce.next - freshDays + 1, To: int32(res.To)}, func(d *storage.Day) error {
			inForce.observe(d, res)
			if d.Date < int32(res.From) {
				return nil
			}
			buf = buf[:0]
			for _, e := range d.Entries {
				buf = append(buf, e.Price)
			}
			if len(buf) == 0 {
				return nil
			}
			slices.Sort(buf)
			med2 := pricestat.Median2(buf)
			res.Points = append(res.Points, PricePoint{Date: Date(d.Date), Min: Cents(d.Min), Median: Cents(pricestat.HalfCents(med2)), Max: Cents(d.Max), StoreCount: int(d.Count)})
			medians = append(medians, med2)
			return nil
		})
		inForce.through(int32(res.To), res)
		res.Verdict = inForce.verdict()
		return err
	})
	if err != nil {
		return nil, err
	}
	res.Stats = historyStats(res.Points, medians)
	return res, nil
}

// inForceDays follows a series day by day to give its banner's price in
// force on each day (DayInForce) from res.From, and on each of the
// verdict's window (pricestat.Window) ending on res.To.
type inForceDays struct {
	next   int32 // the first day not yet written
	first  int32 // the first day of the verdict's window
	follow pricestat.Follow
	window pricestat.Window
	last   pricestat.BannerPrice // the price in force on the last day written
	lastOK bool
}

// start begins on the first day either needs.
func (f *inForceDays) start(res *HistoryResult) {
	f.first = int32(res.To) - pricestat.TypicalDays + 1
	f.next = min(int32(res.From), f.first)
}

// observe writes the days before d, then takes d's observations.
func (f *inForceDays) observe(d *storage.Day, res *HistoryResult) {
	f.through(d.Date-1, res)
	for _, e := range d.Entries {
		f.follow.Observe(e.Store, pricestat.StoreObs{Date: d.Date, Price: e.Price, Regular: e.Regular, PromoEnd: e.PromoEnd})
	}
}

// through writes each day up to last on which a price is in force.
func (f *inForceDays) through(last int32, res *HistoryResult) {
	for ; f.next <= last; f.next++ {
		bp, ok := f.follow.On(f.next, freshDays)
		f.last, f.lastOK = bp, ok
		if !ok {
			continue
		}
		if f.next >= f.first {
			f.window.Set(int(f.next-f.first), bp.Price, bp.Regular)
		}
		if f.next >= int32(res.From) {
			res.InForce = append(res.InForce, DayInForce{Date: Date(f.next), Price: Cents(bp.Price), RegularPrice: Cents(bp.Regular),
				OnPromo: bp.Price < bp.Regular, StoreCount: bp.Stores})
		}
	}
}

// verdict returns the verdict of the price in force on the last day
// written, nil when none is.
func (f *inForceDays) verdict() *PriceVerdict {
	if !f.lastOK {
		return nil
	}
	low, typical := f.window.Figures()
	v := &PriceVerdict{Price: Cents(f.last.Price), TypicalPrice: Cents(typical), Verdict: pricestat.Verdict(f.last.Price, f.last.Regular, low, typical)}
	if low != 0 {
		l := Cents(low)
		v.Low30d = &l
	}
	return v
}

// historyStats summarises a price history from its points and their
// daily medians in half-cents (pricestat.Median2); nil with no point.
func historyStats(points []PricePoint, medians []uint32) *PriceStats {
	n := len(points)
	if n == 0 {
		return nil
	}
	lo, hi := medians[0], medians[0]
	st := &PriceStats{StoreMin: points[0].Min, StoreMax: points[0].Max}
	for i, p := range points {
		lo, hi = min(lo, medians[i]), max(hi, medians[i])
		st.StoreMin, st.StoreMax = min(st.StoreMin, p.Min), max(st.StoreMax, p.Max)
	}
	st.Min, st.Max, st.Latest = Cents(pricestat.HalfCents(lo)), Cents(pricestat.HalfCents(hi)), Cents(pricestat.HalfCents(medians[n-1]))
	st.ChangePct = pricestat.Round1((float64(medians[n-1])/float64(medians[0]) - 1) * 100)
	return st
}

// ListReferenceStores returns the active reference stores, optionally of
// one province and one banner, ordered by province, banner and store id,
// with Total counting all that match before the offset and limit, and
// NextOffset the offset of the next page when there is one. The stores are the
// panel prices are collected from, not a directory of all grocery stores.
//
// With Near (a postal code) the stores are those of its province, in
// SearchStores' order from it: its FSA's stores first, then nearest first.
//
// It returns EINVALIDARGUMENT for an unknown province or banner, a malformed
// postal code or one of another province than Province, a limit outside
// 1..500 or an offset outside 0..1,000,000.
func (s *Service) ListReferenceStores(ctx context.Context, in StoresInput) (*StoresResult, error) {
	var province, banner string
	if strings.TrimSpace(in.Province) != "" {
		p, err := ParseProvince(in.Province)
		if err != nil {
			return nil, err
		}
		province = p
	}
	if strings.TrimSpace(in.Banner) != "" {
		b, err := ParseBanner(in.Banner)
		if err != nil {
			return nil, err
		}
		banner = b.Slug
	}
	var near PostalCode
	if strings.TrimSpace(in.Near) != "" {
		pc, err := postalCodeArg("near", in.Near)
		if err != nil {
			return nil, err
		}
		if province != "" && province != pc.Province {
			return nil, Errorf(EINVALIDARGUMENT, "near %s is in %s, not %s: give one or the other", pc.Code, pc.Province, province)
		}
		near, province = pc, pc.Province
	}
	limit, offset, err := checkPage(in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	res := &StoresResult{Stores: make([]Store, 0, min(limit, 64))}
	err = s.db.View(func(tx *storage.Tx) error {
		if near.Code != "" {
			return nearestStores(tx, near, banner, offset, limit, res)
		}
		// Decode the stores shown; count the rest from their keys alone.
		skip := offset
		err := tx.ActiveStores(province, banner, func(st *storage.Store) error {
			if skip > 0 {
				skip--
				return nil
			}
			if res.Stores = append(res.Stores, store(st)); len(res.Stores) >= limit {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil {
			return err
		}
		res.Total, err = tx.CountActiveStores(province, banner)
		return err
	})
	if err != nil {
		return nil, err
	}
	if next := offset + len(res.Stores); len(res.Stores) > 0 && next < res.Total {
		res.NextOffset = next
	}
	return res, nil
}

// nearestStores fills res with a page of the active stores of near's
// province (of banner, when not ""), in a store search's order from near.
func nearestStores(tx *storage.Tx, near PostalCode, banner string, offset, limit int, res *StoresResult) error {
	banners := map[string]bool{banner: true}
	if banner == "" {
		err := tx.ActiveStores(near.Province, "", func(st *storage.Store) error {
			banners[st.Banner] = true
			return nil
		})
		if err != nil {
			return err
		}
	}
	stores, _, err := search.Nearest(tx, near.Province, near.Code, near.FSA, banners)
	if err != nil {
		return err
	}
	res.Total = len(stores)
	for i := offset; i < len(stores) && len(res.Stores) < limit; i++ {
		res.Stores = append(res.Stores, store(&stores[i].Store))
	}
	return nil
}

func store(st *storage.Store) Store {
	return Store{
		ID: st.ID, Banner: st.Banner, BannerName: bannerName(st.Banner), Province: st.Province, Name: st.Name,
		City: st.City, PostalCode: st.PostalCode, Latitude: st.Latitude, Longitude: st.Longitude,
		Active: st.Active, Observations30d: int(st.Observations30d),
	}
}
