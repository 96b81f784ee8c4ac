package storage

import (
	"bytes"
	"encoding/binary"
)

// Entry is one store's observation of a SKU on one day. Prices are in cents.
type Entry struct {
	Store    uint32 // Store.Ord
	Price    uint32
	Regular  uint32 // >= Price
	PromoEnd int32  // last promotion day, 0 when none
}

// Day is one day of a SKU's observations across a province's stores,
// with a summary the reader can take without decoding the entries.
type Day struct {
	Date             int32
	Min, Median, Max uint32
	Count            uint32
	Entries          []Entry // sorted by Store; nil when read header-only
}

func (d *Day) encode(e enc) enc {
	e = e.uvarint(uint64(d.Count)).uvarint(uint64(d.Min)).uvarint(uint64(d.Median)).uvarint(uint64(d.Max))
	prev := uint32(0)
	for _, x := range d.Entries {
		e = e.uvarint(uint64(x.Store - prev)).uvarint(uint64(x.Price)).uvarint(uint64(x.Regular - x.Price))
		if x.PromoEnd == 0 {
			e = e.uvarint(0)
		} else {
			e = e.uvarint(uint64(x.PromoEnd-d.Date) + 1)
		}
		prev = x.Store
	}
	return e
}

// decodeDay decodes v into d, reusing d.Entries' storage.
func decodeDay(date int32, v []byte, d *Day, entries bool) error {
	r := dec{b: v}
	d.Date = date
	d.Count, d.Min, d.Median, d.Max = r.u32(), r.u32(), r.u32(), r.u32()
	d.Entries = d.Entries[:0]
	if !entries || r.err != nil {
		return r.err
	}
	prev := uint32(0)
	for i := uint32(0); i < d.Count && r.err == nil; i++ {
		x := Entry{Store: prev + r.u32(), Price: r.u32()}
		x.Regular = x.Price + r.u32()
		if pe := r.uvarint(); pe != 0 {
			x.PromoEnd = date + int32(pe) - 1
		}
		prev = x.Store
		d.Entries = append(d.Entries, x)
	}
	return r.err
}

// Day reads one day of a series into d (entries included).
func (t *Tx) Day(banner, sku, province string, date int32, d *Day) (bool, error) {
	v := t.series().Get(appendDay(seriesPrefix(banner, sku, province), date))
	if v == nil {
		return false, nil
	}
	return true, decodeDay(date, v, d, true)
}

// PutDay writes one day of a series.
func (t *Tx) PutDay(banner, sku, province string, d *Day) error {
	k := appendDay(seriesPrefix(banner, sku, province), d.Date)
	return t.put(t.series(), k, d.encode(nil))
}

// Series calls fn for each stored day of a series from 'from' to 'to'
// inclusive, oldest first, or newest first when reverse. With entries false
// only the summary is decoded. fn may keep d only until it returns; it
// stops the scan by returning ErrStop.
func (t *Tx) Series(banner, sku, province string, from, to int32, entries, reverse bool, fn func(d *Day) error) error {
	prefix := seriesPrefix(banner, sku, province)
	lo := appendDay(prefix[:len(prefix):len(prefix)], from)
	hi := appendDay(prefix[:len(prefix):len(prefix)], to)
	var d Day
	c := t.series().Cursor()
	var k, v []byte
	if reverse {
		switch k, v = c.Seek(hi); {
		case k == nil:
			k, v = c.Last()
		case bytes.Compare(k, hi) > 0:
			k, v = c.Prev()
		}
	} else {
		k, v = c.Seek(lo)
	}
	for k != nil && len(k) == len(lo) && bytes.HasPrefix(k, prefix) {
		if bytes.Compare(k, lo) < 0 || bytes.Compare(k, hi) > 0 {
			break
		}
		if err := decodeDay(int32(binary.BigEndian.Uint32(k[len(prefix):])), v, &d, entries); err != nil {
			return err
		}
		if err := fn(&d); err != nil {
			return stopped(err)
		}
		if reverse {
			k, v = c.Prev()
		} else {
			k, v = c.Next()
		}
	}
	return nil
}

// ErrStop ends a scan early without an error.
var ErrStop = stopError{}

type stopError struct{}

// stopped turns ErrStop into nil.
func stopped(err error) error {
	if err == ErrStop {
		return nil
	}
	return err
}

func (stopError) Error() string { return "stop" }

// Offer is a materialised current offer of a banner SKU in a province.
type Offer struct {
	Banner, SKU              string
	Price, Regular, Min, Max uint32
	PromoEnd                 int32
	StoreCount               uint32
	ObservedAt               int32
}

func offerKey(province, gtin, banner, sku string) []byte {
	b := make([]byte, 0, 2+len(gtin)+len(banner)+len(sku)+1)
	return append(appendStr0(append(append(b, province...), gtin...), banner), sku...)
}

// PutOffer writes a province's offer of a GTIN.
func (t *Tx) PutOffer(province, gtin string, o *Offer) error {
	v := enc(nil).uvarint(uint64(o.Price)).uvarint(uint64(o.Regular)).uvarint(uint64(o.Min)).
		uvarint(uint64(o.Max)).varint(int64(o.PromoEnd)).uvarint(uint64(o.StoreCount)).varint(int64(o.ObservedAt))
	return t.put(t.offers(), offerKey(province, gtin, o.Banner, o.SKU), v)
}

// DeleteOffer removes a province's offer of a GTIN under a banner SKU.
func (t *Tx) DeleteOffer(province, gtin, banner, sku string) error {
	return t.offers().Delete(offerKey(province, gtin, banner, sku))
}

// Offers calls fn for each offer of gtin in province, ordered by banner
// and SKU. fn may keep o only until it returns.
func (t *Tx) Offers(province, gtin string, fn func(o *Offer) error) error {
	prefix := make([]byte, 0, 16)
	prefix = append(append(prefix, province...), gtin...)
	c := t.offers().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		o, err := t.decodeOffer(k[len(prefix):], v)
		if err != nil {
			return err
		}
		if err := fn(&o); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// Latest is a store's latest observation of a SKU.
type Latest struct {
	SKU            string
	Date           int32
	Price, Regular uint32
	PromoEnd       int32
}

func latestKey(storeID, sku string) []byte {
	return append(appendStr0(make([]byte, 0, len(storeID)+len(sku)+1), storeID), sku...)
}

// Latest reads a store's latest observation of a SKU.
func (t *Tx) Latest(storeID, sku string, l *Latest) (bool, error) {
	v := t.latest().Get(latestKey(storeID, sku))
	if v == nil {
		return false, nil
	}
	return true, decodeLatest(sku, v, l)
}

func decodeLatest(sku string, v []byte, l *Latest) error {
	d := dec{b: v}
	*l = Latest{SKU: sku, Date: int32(d.varint()), Price: d.u32(), Regular: d.u32(), PromoEnd: int32(d.varint())}
	return d.err
}

// PutLatest writes a store's latest observation of a SKU.
func (t *Tx) PutLatest(storeID string, l *Latest) error {
	v := enc(nil).varint(int64(l.Date)).uvarint(uint64(l.Price)).uvarint(uint64(l.Regular)).varint(int64(l.PromoEnd))
	return t.put(t.latest(), latestKey(storeID, l.SKU), v)
}

// LatestAt calls fn for each SKU's latest observation at a store, by SKU.
func (t *Tx) LatestAt(storeID string, fn func(l *Latest) error) error {
	prefix := appendStr0(nil, storeID)
	var l Latest
	c := t.latest().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if err := decodeLatest(string(k[len(prefix):]), v, &l); err != nil {
			return err
		}
		if err := fn(&l); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// AddStoreDay adds n to a store's observation count for a day.
func (t *Tx) AddStoreDay(storeID string, day int32, n int) error {
	k := appendDay(appendStr0(make([]byte, 0, len(storeID)+5), storeID), day)
	cur := uint64(0)
	if v := t.storeDays().Get(k); v != nil {
		d := dec{b: v}
		if cur = d.uvarint(); d.err != nil {
			return d.err
		}
	}
	return t.put(t.storeDays(), k, enc(nil).uvarint(cur+uint64(n)))
}

// StoreObservations returns a store's observation count from 'from' to
// 'to' inclusive.
func (t *Tx) StoreObservations(storeID string, from, to int32) (int, error) {
	prefix := appendStr0(nil, storeID)
	lo := appendDay(prefix[:len(prefix):len(prefix)], from)
	hi := appendDay(prefix[:len(prefix):len(prefix)], to)
	n := 0
	c := t.storeDays().Cursor()
	for k, v := c.Seek(lo); k != nil && bytes.Compare(k, hi) <= 0 && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		d := dec{b: v}
		n += int(d.uvarint())
		if d.err != nil {
			return 0, d.err
		}
	}
	return n, nil
}

// PutToken indexes gtin under a search token in a province. flags and
// weight are the caller's ranking data.
func (t *Tx) PutToken(province, token, gtin string, flags, weight byte) error {
	k := make([]byte, 0, 2+len(token)+1+len(gtin))
	k = append(appendStr0(append(k, province...), token), gtin...)
	return t.put(t.tokens(), k, []byte{flags, weight})
}

// Tokens calls fn for each indexed (token, gtin) in province whose token
// starts with prefix, in token order, until fn returns ErrStop. The slices are valid only until fn
// returns.
func (t *Tx) Tokens(province, prefix string, fn func(token, gtin []byte, flags, weight byte) error) error {
	p := make([]byte, 0, 2+len(prefix))
	p = append(append(p, province...), prefix...)
	c := t.tokens().Cursor()
	for k, v := c.Seek(p); hasPrefix(k, p); k, v = c.Next() {
		tok, g, ok := bytes.Cut(k[2:], []byte{0})
		if !ok || len(v) != 2 {
			return errCorrupt
		}
		if err := fn(tok, g, v[0], v[1]); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// DeleteToken removes gtin from a token's entries in a province's index.
func (t *Tx) DeleteToken(province, token, gtin string) error {
	k := make([]byte, 0, 2+len(token)+1+len(gtin))
	return t.tokens().Delete(append(appendStr0(append(k, province...), token), gtin...))
}

// OffersIn calls fn for each offer in province, ordered by GTIN, banner
// and SKU, until fn returns ErrStop. fn may keep o only until it returns.
func (t *Tx) OffersIn(province string, fn func(gtin string, o *Offer) error) error {
	prefix := []byte(province)
	c := t.offers().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if len(k) < 16 {
			return errCorrupt
		}
		o, err := t.decodeOffer(k[16:], v)
		if err != nil {
			return err
		}
		if err := fn(string(k[2:16]), &o); err != nil {
			return stopped(err)
		}
	}
	return nil
}

func (t *Tx) decodeOffer(bannerSKU, v []byte) (Offer, error) {
	b, s, ok := bytes.Cut(bannerSKU, []byte{0})
	if !ok {
		return Offer{}, errCorrupt
	}
	d := dec{b: v}
	o := Offer{Banner: t.names.get(b), SKU: string(s), Price: d.u32(), Regular: d.u32(), Min: d.u32(), Max: d.u32(),
		PromoEnd: int32(d.varint()), StoreCount: d.u32(), ObservedAt: int32(d.varint())}
	return o, d.err
}

// Offer reads a province's offer of a GTIN under one banner SKU.
func (t *Tx) Offer(province, gtin, banner, sku string, o *Offer) (bool, error) {
	k := offerKey(province, gtin, banner, sku)
	v := t.offers().Get(k)
	if v == nil {
		return false, nil
	}
	var err error
	*o, err = t.decodeOffer(k[16:], v)
	return true, err
}
