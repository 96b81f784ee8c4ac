package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
)

// The offer prices: per province, of every offer there (a banner SKU's
// offer of a product), the fields that the comparisons between banners
// and the search read: its banner, price, regular price, store count and
// observation day, under its product's barcode, in the offers' order (by
// GTIN, banner and SKU). Each product there comes once, with the newest
// day of its offers (the greatest ObservedAt over its banner SKUs) and
// the end of its offers. A comparison takes a province's current banner
// prices from one record rather than decoding every offer, and a search
// tells which of its matches have a current price from the products
// alone. A province's record is rebuilt from its offers when a write
// transaction that put or deleted one of them commits (DB.Update), so it
// always agrees with them.
//
//	offerprices  province(2) -> banners(2) {len(1) banner}..., products(4),
//	             then 22 bytes a product, ascending by barcode: gtin(14)
//	             newest day(4) end(4), then 18 bytes an offer, a product's
//	             from the previous product's end to its own: banner(2)
//	             price(4) regular(4) stores(4) day(4)
//
// An offer's banner is its place in the record's list of banners; every
// number is big-endian.

const (
	priceProductLen = 14 + 4 + 4
	priceOfferLen   = 2 + 4 + 4 + 4 + 4
)

// PriceEntry is what the offer prices keep of an offer beside its
// product and banner (Offer's fields of the same names).
type PriceEntry struct {
	Price, Regular uint32
	StoreCount     uint32
	ObservedAt     int32
}

// OfferPrices is one province's offer prices as its transaction reads
// them (Tx.OfferPrices). It remembers where its last lookup ended, and
// Product makes its strings in the transaction's space, so it is not
// safe for concurrent use, as the transaction is not.
type OfferPrices struct {
	products []byte   // the products: valid as long as the transaction
	offers   []byte   // the offers, likewise
	banners  []string // the record's banners, by place
	at       int      // the product the last lookup ended at
	tx       *Tx      // for Product's strings
}

// OfferPrices returns the offer prices of province: none when it has no
// offer. In a write transaction they include its own writes of offers.
// Unlike the values most reads return, they are a view of the file, valid
// only until the transaction ends.
func (t *Tx) OfferPrices(province string) (OfferPrices, error) {
	if len(t.offerProvinces) > 0 {
		if err := t.putOfferPrices(); err != nil {
			return OfferPrices{}, err
		}
	}
	p := OfferPrices{tx: t}
	v := t.offerPrices().Get([]byte(province))
	if v == nil {
		return p, nil
	}
	if len(v) < 2 {
		return OfferPrices{}, errCorrupt
	}
	n, i := int(binary.BigEndian.Uint16(v)), 2
	p.banners = make([]string, n)
	for j := range p.banners {
		if i >= len(v) || i+1+int(v[i]) > len(v) {
			return OfferPrices{}, errCorrupt
		}
		p.banners[j] = t.names.get(v[i+1 : i+1+int(v[i])])
		i += 1 + int(v[i])
	}
	if i+4 > len(v) {
		return OfferPrices{}, errCorrupt
	}
	products := uint64(binary.BigEndian.Uint32(v[i:])) * priceProductLen
	if i += 4; products > uint64(len(v)-i) || (uint64(len(v)-i)-products)%priceOfferLen != 0 {
		return OfferPrices{}, errCorrupt
	}
	p.products, p.offers = v[i:i+int(products)], v[i+int(products):]
	return p, nil
}

// Products returns the number of products with an offer in the province.
func (p *OfferPrices) Products() int { return len(p.products) / priceProductLen }

// GTIN returns product i's barcode (14 bytes), a view of the record.
func (p *OfferPrices) GTIN(i int) []byte { return p.products[i*priceProductLen : i*priceProductLen+14] }

// Product returns product i's barcode as a string.
func (p *OfferPrices) Product(i int) string { return p.tx.text(p.GTIN(i)) }

// end returns where product i's offers end.
func (p *OfferPrices) end(i int) uint64 {
	return uint64(binary.BigEndian.Uint32(p.products[(i+1)*priceProductLen-4:]))
}

// Offers returns the offers of product i: from first to end.
func (p *OfferPrices) Offers(i int) (first, end int, err error) {
	var f uint64
	if i > 0 {
		f = p.end(i - 1)
	}
	e := p.end(i)
	if f >= e || e > uint64(len(p.offers)/priceOfferLen) {
		return 0, 0, errCorrupt // every product has an offer
	}
	return int(f), int(e), nil
}

// Entry returns offer i's banner and sets e to its prices, store count
// and day.
func (p *OfferPrices) Entry(i int, e *PriceEntry) (banner string, err error) {
	b := p.offers[i*priceOfferLen : (i+1)*priceOfferLen]
	j := int(binary.BigEndian.Uint16(b))
	if j >= len(p.banners) {
		return "", errCorrupt
	}
	*e = PriceEntry{Price: binary.BigEndian.Uint32(b[2:]), Regular: binary.BigEndian.Uint32(b[6:]),
		StoreCount: binary.BigEndian.Uint32(b[10:]), ObservedAt: int32(binary.BigEndian.Uint32(b[14:]))}
	return p.banners[j], nil
}

// gtinKey returns a GTIN (14 bytes) as two numbers that order as its bytes
// do: its first 8 bytes, then its last 8 (bytes 6 and 7 counted twice).
func gtinKey(gtin []byte) (hi, lo uint64) {
	return binary.BigEndian.Uint64(gtin[:8]), binary.BigEndian.Uint64(gtin[6:14])
}

// cmp compares product i's GTIN with the one whose key is hi, lo.
func (p *OfferPrices) cmp(i int, hi, lo uint64) int {
	h, l := gtinKey(p.products[i*priceProductLen:])
	if h != hi {
		return cmp.Compare(h, hi)
	}
	return cmp.Compare(l, lo)
}

// Seek returns the first product whose barcode is not below gtin (14
// bytes), Products when there is none. Lookups in ascending GTIN order
// cost about log2 of the distance from one to the next (the products are
// galloped from the last one); any other order costs a binary search.
func (p *OfferPrices) Seek(gtin []byte) int {
	n := p.Products()
	if len(gtin) != 14 {
		return n
	}
	hi, lo := gtinKey(gtin)
	first, end := 0, n // the product sought is the first in [first, end) not below gtin, else end
	if p.at < n {
		switch c := p.cmp(p.at, hi, lo); {
		case c >= 0 && (p.at == 0 || p.cmp(p.at-1, hi, lo) < 0):
			// The same product again, or one between the product before
			// and this one (in a province with few products, most).
			return p.at
		case c < 0:
			// Past the last one: gallop from it to a product not below
			// gtin, or the end.
			below, step := p.at, 1
			for below+step < n && p.cmp(below+step, hi, lo) < 0 {
				below, step = below+step, 2*step
			}
			first, end = below+1, min(n, below+step)
		}
	}
	for first < end {
		m := int(uint(first+end) >> 1)
		if p.cmp(m, hi, lo) < 0 {
			first = m + 1
		} else {
			end = m
		}
	}
	p.at = min(first, max(n-1, 0))
	return first
}

// Find returns the product of gtin (14 bytes), false when the province
// has none; a lookup as Seek's.
func (p *OfferPrices) Find(gtin []byte) (int, bool) {
	i := p.Seek(gtin)
	return i, i < p.Products() && bytes.Equal(p.GTIN(i), gtin)
}

// Newest returns the newest observation day of the offers of gtin (14
// bytes), false when the province has none; a lookup as Seek's.
func (p *OfferPrices) Newest(gtin []byte) (int32, bool) {
	i, ok := p.Find(gtin)
	if !ok {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(p.products[i*priceProductLen+14:])), true
}

// offersPut notes that a province's offers changed, for putOfferPrices.
func (t *Tx) offersPut(province string) {
	if n := len(t.offerProvinces); n > 0 && t.offerProvinces[n-1] == province {
		return
	}
	if !slices.Contains(t.offerProvinces, province) {
		t.offerProvinces = append(t.offerProvinces, province)
	}
}

// putOfferPrices rebuilds the offer prices of every province whose offers
// the transaction changed; DB.Update calls it before committing.
func (t *Tx) putOfferPrices() error {
	slices.Sort(t.offerProvinces)
	for _, p := range t.offerProvinces {
		v, err := t.buildOfferPrices(p)
		if err != nil {
			return err
		}
		if bytes.Equal(v, t.offerPrices().Get([]byte(p))) {
			continue // unchanged: leave its pages clean
		}
		if len(v) == 0 {
			err = t.offerPrices().Delete([]byte(p))
		} else {
			err = t.offerPrices().Put([]byte(p), v)
		}
		if err != nil {
			return err
		}
	}
	t.offerProvinces = t.offerProvinces[:0]
	return nil
}

// buildOfferPrices returns province's offer prices record from its
// offers: nothing when it has none.
func (t *Tx) buildOfferPrices(province string) ([]byte, error) {
	var (
		products, offers []byte
		banners          []string // by place
		last             = -1     // the place of the banner of the offer before
	)
	err := t.offerPricesIn(province, func(gtin, banner []byte, e *PriceEntry) error {
		if last < 0 || string(banner) != banners[last] {
			if last = slices.Index(banners, string(banner)); last < 0 {
				if len(banner) > 255 || len(banners) >= 1<<16-1 {
					return fmt.Errorf("storage: the offer prices of %s: banner %q is one too many or too long", province, banner)
				}
				last, banners = len(banners), append(banners, string(banner))
			}
		}
		n := len(products)
		if n == 0 || !bytes.Equal(products[n-priceProductLen:n-8], gtin) {
			// A new product: its day this offer's, its end set below.
			products = binary.BigEndian.AppendUint32(append(products, gtin...), uint32(e.ObservedAt))
			products = append(products, 0, 0, 0, 0)
			n = len(products)
		} else if day := products[n-8 : n-4]; e.ObservedAt > int32(binary.BigEndian.Uint32(day)) {
			binary.BigEndian.PutUint32(day, uint32(e.ObservedAt))
		}
		offers = binary.BigEndian.AppendUint16(offers, uint16(last))
		for _, x := range [...]uint32{e.Price, e.Regular, e.StoreCount, uint32(e.ObservedAt)} {
			offers = binary.BigEndian.AppendUint32(offers, x)
		}
		binary.BigEndian.PutUint32(products[n-4:], uint32(len(offers)/priceOfferLen))
		return nil
	})
	if err != nil || len(offers) == 0 {
		return nil, err
	}
	v := binary.BigEndian.AppendUint16(nil, uint16(len(banners)))
	for _, b := range banners {
		v = append(append(v, byte(len(b))), b...)
	}
	v = binary.BigEndian.AppendUint32(v, uint32(len(products)/priceProductLen))
	return append(append(v, products...), offers...), nil
}

// eachOfferProvince calls fn with each province that has an offer, one
// seek a province.
func (t *Tx) eachOfferProvince(fn func(province string)) error {
	c := t.offers().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Seek(append(bytes.Clone(k[:2]), 0xff)) {
		if len(k) < 2 {
			return errCorrupt
		}
		fn(string(k[:2]))
	}
	return nil
}

// fillOfferPrices writes the offer prices anew: it empties their bucket
// and marks every province with an offer for putOfferPrices (the upgrade
// of a file older than version 16, whose version 15 records are laid out
// otherwise).
func (t *Tx) fillOfferPrices() error {
	if err := t.clear(idOfferPrices); err != nil {
		return err
	}
	return t.eachOfferProvince(t.offersPut)
}

// checkOfferPrices checks that each province's offer prices are those its
// offers give, and that no province without offers has a record. In a
// write transaction it checks what the transaction would commit.
func (t *Tx) checkOfferPrices() error {
	if len(t.offerProvinces) > 0 {
		if err := t.putOfferPrices(); err != nil {
			return err
		}
	}
	provinces := map[string]bool{}
	c := t.offerPrices().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		provinces[string(k)] = true
	}
	if err := t.eachOfferProvince(func(p string) { provinces[p] = true }); err != nil {
		return err
	}
	for _, p := range slices.Sorted(maps.Keys(provinces)) {
		want, err := t.buildOfferPrices(p)
		if err != nil {
			return err
		}
		if got := t.offerPrices().Get([]byte(p)); !bytes.Equal(got, want) {
			return inconsistent("offerprices of %q differ from its offers: %s", p, priceDiff(got, want))
		}
	}
	return nil
}

// priceDiff says where offer prices record got first differs from want,
// what a province's offers give.
func priceDiff(got, want []byte) string {
	head := func(v []byte) int { // the length of the record's banners
		i := 2
		for j := 0; len(v) >= 2 && j < int(binary.BigEndian.Uint16(v)) && i < len(v); j++ {
			i += 1 + int(v[i])
		}
		return min(i, len(v))
	}
	hg, hw := head(got), head(want)
	switch {
	case len(got) == 0:
		if n := binary.BigEndian.Uint32(want[hw:]); n != 1 {
			return fmt.Sprintf("no record, its offers give %d products", n)
		}
		return "no record, its offers give 1 product"
	case len(want) == 0:
		return "a record, and no offers"
	case !bytes.Equal(got[:hg], want[:hw]):
		return fmt.Sprintf("banners %q, its offers give %q", got[min(2, hg):hg], want[2:hw])
	}
	i := hg
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	products := int(binary.BigEndian.Uint32(want[hw:]))
	switch at := i - hw - 4; {
	case at < 0:
		return fmt.Sprintf("in the count of products (its offers give %d)", products)
	case at < products*priceProductLen:
		return fmt.Sprintf("at product %d of the %d its offers give", at/priceProductLen+1, products)
	default:
		return fmt.Sprintf("at offer %d of the %d its offers give", (at-products*priceProductLen)/priceOfferLen+1, (len(want)-hw-4-products*priceProductLen)/priceOfferLen)
	}
}
