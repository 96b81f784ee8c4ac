package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// ErrInconsistent means the file's records disagree with each other or
// with the file: an index entry naming a missing record, an offer without
// observations, analytics that differ from a recomputation (found by a
// check), or a file shorter than the pages its meta page claims (found by
// Options.Preload).
var ErrInconsistent = errors.New("storage: inconsistent data file")

func inconsistent(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInconsistent}, args...)...)
}

// CheckIndexes checks that every index entry names a record that exists:
// storeloc and latest their store, gtinskus its SKU and product (and the
// SKU links back to the product), offers their product, SKU and at least
// one stored block of the series (an offer is backed by observations),
// tokens their product or banner SKU, shelf records a stored series, every promotion
// its promodates copy and back, alertwatch entries their rule, kinds
// entries their product under its category and type, every product
// its kinds entry, each province's offer prices its offers', and the
// category blocks their days' merges (each series' complete blocks that
// hold a day, and no other); and that no block of days is in both dayheads
// and dayblocks. It returns
// an error wrapping ErrInconsistent naming the first entry that fails,
// errCorrupt for a malformed key.
func (t *Tx) CheckIndexes() error {
	for _, check := range []func() error{t.checkStoreLoc, t.checkGTINSKUs, t.checkOffers, t.checkTokens,
		t.checkLatest, t.checkShelf, t.checkPromoDates, t.checkAlertWatch, t.checkKinds, t.checkOfferPrices, t.checkCatBlocks, t.checkHeads} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// hasSeries reports whether the banner SKU has a stored series in province.
func (t *Tx) hasSeries(banner, sku, province []byte) bool {
	p := append(appendStr0(appendStr0(nil, string(banner)), string(sku)), province...)
	k, _ := t.blockCursor().Seek(p)
	return hasPrefix(k, p) && len(k) == len(p)+4
}

// checkStoreLoc checks that storeloc entries name a store.
func (t *Tx) checkStoreLoc() error {
	stores := t.stores()
	c := t.storeLoc().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		_, id, ok := bytes.Cut(k[min(2, len(k)):], []byte{0})
		if !ok || stores.Get(id) == nil {
			return inconsistent("storeloc %q names no store", k)
		}
	}
	return nil
}

// checkGTINSKUs checks that gtinskus entries name their product and a SKU
// linked back to it.
func (t *Tx) checkGTINSKUs() error {
	products := t.products()
	c := t.gtinSKUs().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 15 {
			return errCorrupt
		}
		gtin, bs := k[:14], k[14:]
		if products.Get(gtin) == nil {
			return inconsistent("gtinskus %q names no product", k)
		}
		banner, sku, _ := bytes.Cut(bs, []byte{0})
		var s SKU
		if found, err := t.SKU(string(banner), string(sku), &s); err != nil {
			return err
		} else if !found || s.GTIN != string(gtin) {
			return inconsistent("gtinskus %q names no SKU linked to its product", k)
		}
	}
	return nil
}

// checkOffers checks that offers name their product and SKU, and have
// a stored series.
func (t *Tx) checkOffers() error {
	skus, products := t.skus(), t.products()
	c := t.offers().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 17 {
			return errCorrupt
		}
		province, gtin, bs := k[:2], k[2:16], k[16:]
		banner, sku, _ := bytes.Cut(bs, []byte{0})
		if products.Get(gtin) == nil || skus.Get(bs) == nil {
			return inconsistent("offer %q names no product or SKU", k)
		}
		if !t.hasSeries(banner, sku, province) {
			return inconsistent("offer %q has no observations", k)
		}
	}
	return nil
}

// checkKinds checks that each kinds entry names a product of its category
// and type, and that there is one for every product.
func (t *Tx) checkKinds() error {
	products := t.products()
	n := 0
	c := t.kinds().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 16 {
			return errCorrupt
		}
		gtin := k[len(k)-14:]
		v := products.Get(gtin)
		if v == nil {
			return inconsistent("kinds %q names no product", k)
		}
		category, typ, err := productKind(v)
		if err != nil {
			return err
		}
		if !bytes.Equal(k, kindKey(string(category), string(typ), string(gtin))) {
			return inconsistent("kinds %q: product %s is of category %q, type %q", k, gtin, category, typ)
		}
		n++
	}
	m := 0
	pc := products.Cursor()
	for k, _ := pc.First(); k != nil; k, _ = pc.Next() {
		m++
	}
	if n != m {
		return inconsistent("kinds holds %d products, the catalogue %d", n, m)
	}
	return nil
}

// checkTokens checks that tokens name their product or banner SKU.
func (t *Tx) checkTokens() error {
	skus, products := t.skus(), t.products()
	c := t.tokens().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < 4 {
			return inconsistent("token %q names no product", k)
		}
		_, ref, _ := bytes.Cut(k[2:], []byte{0})
		if _, _, isSKU := ParseSKURef(ref); isSKU {
			if skus.Get(ref) == nil {
				return inconsistent("token %q names no SKU", k)
			}
		} else if len(ref) != 14 || products.Get(ref) == nil {
			return inconsistent("token %q names no product", k)
		}
	}
	return nil
}

// checkLatest checks that latest entries name a store.
func (t *Tx) checkLatest() error {
	stores := t.stores()
	c := t.latest().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		id, _, ok := bytes.Cut(k, []byte{0})
		if !ok || stores.Get(id) == nil {
			return inconsistent("latest %q names no store", k)
		}
	}
	return nil
}

// checkShelf checks that shelf records have a stored series and, those
// with a barcode, the province's offer of the banner SKU under it (what
// lets a reader of the offer prices pass over a barcode the province has
// no offer of: it has no shelf record there either).
func (t *Tx) checkShelf() error {
	offers := t.offers()
	c := t.shelf().Cursor()
	var first, last int32
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) < 3 {
			return errCorrupt
		}
		banner, sku, _ := bytes.Cut(k[2:], []byte{0})
		if !t.hasSeries(banner, sku, k[:2]) {
			return inconsistent("shelf %q has no observations", k)
		}
		d := dec{b: v, tx: t}
		gtin, _ := decodeShelfHead(&d, &first, &last)
		if d.err != nil {
			return d.err
		}
		if len(gtin) > 0 && offers.Get(offerKey(string(k[:2]), string(gtin), string(banner), string(sku))) == nil {
			return inconsistent("shelf %q names barcode %s, which has no offer of the banner SKU in the province", k, gtin)
		}
	}
	return nil
}

// checkPromoDates checks that every promotion has its promodates copy
// and promodates no other entry.
func (t *Tx) checkPromoDates() error {
	var p Promo
	c := t.promos().Cursor()
	n := 0
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := decodePromoKey(k, v, &p); err != nil {
			return err
		}
		if !bytes.Equal(t.promoDates().Get(promoDateKey(&p)), v) {
			return inconsistent("promotion %q has no promodates copy", k)
		}
		n++
	}
	if m := t.promoDates().Stats().KeyN; m != n {
		return inconsistent("%d promotions, %d promodates entries", n, m)
	}
	return nil
}

// checkAlertWatch checks that alertwatch entries name their rule.
func (t *Tx) checkAlertWatch() error {
	c := t.alertWatch().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		rest, ok := []byte(nil), false
		switch {
		case len(k) > 3 && k[2] == 'g' && len(k) >= 17:
			rest, ok = k[17:], true
		case len(k) > 3 && k[2] == 's':
			if _, r, found := bytes.Cut(k[3:], []byte{0}); found {
				_, rest, ok = bytes.Cut(r, []byte{0})
			}
		}
		if !ok || len(rest) < 9 || t.alertRules().Get(rest) == nil {
			return inconsistent("alertwatch %q names no rule", k)
		}
	}
	return nil
}

// decodePromoKey decodes a promos entry into p, for its promodates key.
func decodePromoKey(k, v []byte, p *Promo) error {
	// banner 0x00 sku 0x00 province(2) start(4)
	banner, rest, ok := bytes.Cut(k, []byte{0})
	if !ok || len(rest) < 7 {
		return errCorrupt
	}
	sku, tail, ok := bytes.Cut(rest, []byte{0})
	if !ok || len(tail) != 6 {
		return errCorrupt
	}
	p.Banner, p.SKU, p.Province = string(banner), string(sku), string(tail[:2])
	p.Start = int32(binary.BigEndian.Uint32(tail[2:]))
	return decodePromo(v, p)
}

var analyticsIDs = [...]int{idCatDays, idShelf, idPromos, idPromoDates, idCatSKUs}

// ForEachAnalytics calls fn with every entry of the analytics aggregates
// (catdays, shelf, promos, promodates), bucket by bucket in key order, in
// their stored bytes, but for a category day, given as version 4 encoded
// it, with its SKUs named in full (the numbers of its category's list
// depend on the order they were first written in), then, under the
// bucket name "catdays.lookback" and the same key, its SKUs' Lookback in
// order when one is set: for comparing them with a recomputation. fn may
// keep k and v only until it returns.
func (t *Tx) ForEachAnalytics(fn func(bucket string, k, v []byte) error) error {
	var c CatDay
	for _, id := range analyticsIDs {
		name := string(allBuckets[id])
		each := func(k, v []byte) error { return fn(name, k, v) }
		switch id {
		case idCatSKUs:
			continue // in the category days
		case idCatDays:
			each = func(k, v []byte) error {
				if len(k) < 8 {
					return errCorrupt
				}
				if err := t.decodeCatDay(k[:len(k)-4], v, &c, CatAll, nil, nil); err != nil {
					return err
				}
				if err := fn(name, k, encodeCatDayNamed(&c)); err != nil {
					return err
				}
				if slices.ContainsFunc(c.SKUs, func(sd SKUDay) bool { return sd.Lookback != Lookback{} }) {
					var e enc
					for _, sd := range c.SKUs {
						e = e.lookback(sd.Lookback)
					}
					return fn(name+".lookback", k, e)
				}
				return nil
			}
		}
		if err := t.b(id).ForEach(each); err != nil {
			return err
		}
	}
	return nil
}

// ClearAnalytics deletes every analytics aggregate, for a recomputation
// from the observations (in a transaction rolled back after the check, or
// to rebuild them).
func (t *Tx) ClearAnalytics() error {
	t.dicts, t.lastDict = nil, nil
	return t.clear(append(analyticsIDs[:], idCatBlocks)...)
}

// ClearOffers empties the offers bucket and their offer prices, without
// reading them: the upgrade of a version 3 file rebuilds every offer.
func (t *Tx) ClearOffers() error {
	t.legacy = false // the offers written from here on are this version's
	return t.clear(idOffers, idOfferPrices)
}

func (t *Tx) clear(ids ...int) error {
	for _, id := range ids {
		if err := t.tx.DeleteBucket(allBuckets[id]); err != nil {
			return err
		}
		b, err := t.tx.CreateBucket(allBuckets[id])
		if err != nil {
			return err
		}
		t.bkts[id] = b
	}
	return nil
}
