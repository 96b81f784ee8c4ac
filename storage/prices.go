package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
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

// A series is stored in blocks of blockDays consecutive days, one record
// per block: with few stores observing a SKU on a day, a record per day
// would cost more in key and page overhead than its prices.
const (
	blockBits = 4
	blockDays = 1 << blockBits
)

// blockStart returns the first day of the block holding day.
func blockStart(day int32) int32 { return day &^ (blockDays - 1) }

// A block's value is its days in date order, each:
//
//	offset(1)                 day - block start
//	uvarint(count<<1 | full)  full: the summary follows; else (1 or 2
//	                          entries) it is derived from the entries
//	[uvarint(min) varint(median-min) varint(max-median)]
//	uvarint(len)              bytes of the entries, to skip them
//	entries                   by store: uvarint(store delta<<1 | promo),
//	                          varint(price - previous price, from min or 0),
//	                          [uvarint(regular-price) uvarint(promo end)]
//
// where promo end is 0 for none, else zigzag(end - date) + 1.

// compactSummary reports whether d's summary is what its entries give
// when it has one or two of them, so that it need not be stored.
func compactSummary(d *Day) bool {
	if d.Count == 0 || d.Count > 2 || int(d.Count) != len(d.Entries) {
		return false
	}
	lo, med, hi := summaryOf(d.Entries)
	return lo == d.Min && med == d.Median && hi == d.Max
}

// summaryOf returns the minimum, median and maximum price of one or two
// entries (the median of two is their mean, rounded up).
func summaryOf(es []Entry) (lo, med, hi uint32) {
	lo, hi = es[0].Price, es[0].Price
	if len(es) > 1 {
		lo, hi = min(lo, es[1].Price), max(hi, es[1].Price)
	}
	return lo, (lo + hi + 1) / 2, hi
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// encodeDay appends one day of a block whose first day is start.
func encodeDay(e enc, start int32, d *Day) enc {
	full := !compactSummary(d)
	e = append(e, byte(d.Date-start))
	if full {
		e = e.uvarint(uint64(d.Count)<<1 | 1).uvarint(uint64(d.Min)).
			varint(int64(d.Median) - int64(d.Min)).varint(int64(d.Max) - int64(d.Median))
	} else {
		e = e.uvarint(uint64(d.Count) << 1)
	}
	var buf [256]byte
	body := enc(buf[:0])
	prevStore := uint32(0)
	prevPrice := int64(0)
	if full {
		prevPrice = int64(d.Min)
	}
	for _, x := range d.Entries {
		promo := x.Regular != x.Price || x.PromoEnd != 0
		head := uint64(x.Store-prevStore) << 1
		if promo {
			head |= 1
		}
		body = body.uvarint(head).varint(int64(x.Price) - prevPrice)
		if promo {
			body = body.uvarint(uint64(x.Regular - x.Price))
			if x.PromoEnd == 0 {
				body = body.uvarint(0)
			} else {
				body = body.uvarint(zigzag(int64(x.PromoEnd)-int64(d.Date)) + 1)
			}
		}
		prevStore, prevPrice = x.Store, int64(x.Price)
	}
	return append(e.uvarint(uint64(len(body))), body...)
}

// dayParts says how much of a day decodeDay decodes.
type dayParts bool

const (
	summaryOnly dayParts = false // the summary; d.Entries is left empty (its storage used)
	withEntries dayParts = true  // the summary and the entries
)

// decodeDay decodes the day at the start of r's bytes into d, reusing
// d.Entries' storage for what parts asks.
func decodeDay(r *dec, start int32, d *Day, parts dayParts) {
	if r.err != nil {
		return
	}
	if len(r.b) == 0 {
		r.err = errCorrupt
		return
	}
	d.Date = start + int32(r.b[0])
	r.b = r.b[1:]
	head := r.uvarint()
	d.Count = uint32(head >> 1)
	full := head&1 == 1
	if full {
		d.Min = r.u32()
		d.Median = uint32(int64(d.Min) + r.varint())
		d.Max = uint32(int64(d.Median) + r.varint())
	}
	n := r.uvarint()
	if r.err != nil || uint64(len(r.b)) < n {
		r.err = errCorrupt
		return
	}
	body := dec{b: r.b[:n]}
	r.b = r.b[n:]
	d.Entries = d.Entries[:0]
	if parts == summaryOnly && full {
		return
	}
	es := d.Entries // a summary only decodes into them too, then empties them
	prevStore := uint32(0)
	prevPrice := int64(0)
	if full {
		prevPrice = int64(d.Min)
	}
	for i := uint32(0); i < d.Count && body.err == nil; i++ {
		head := body.uvarint()
		x := Entry{Store: prevStore + uint32(head>>1), Price: uint32(prevPrice + body.varint())}
		x.Regular = x.Price
		if head&1 == 1 {
			x.Regular += body.u32()
			if pe := body.uvarint(); pe != 0 {
				x.PromoEnd = int32(int64(d.Date) + unzigzag(pe-1))
			}
		}
		prevStore, prevPrice = x.Store, int64(x.Price)
		es = append(es, x)
	}
	if body.err != nil || len(body.b) != 0 || len(es) != int(d.Count) {
		r.err = errCorrupt
		return
	}
	if !full {
		if len(es) == 0 {
			r.err = errCorrupt
			return
		}
		d.Min, d.Median, d.Max = summaryOf(es)
	}
	d.Entries = es
	if parts == summaryOnly {
		d.Entries = es[:0]
	}
}

// Block is the stored days of one series in one block of days.
type Block struct {
	Start int32 // the block's first day
	Days  []Day // by date; their Entries are reused by the next read
	// stamps is the record of the writes of its observations, as read
	// (writes.go), which PutBlock writes back as it is.
	stamps []byte
}

// decodeBlock decodes v into b, reusing b.Days' storage.
func decodeBlock(start int32, v []byte, b *Block) error {
	b.Start = start
	r := dec{b: v}
	n := 0
	for len(r.b) > 0 && r.err == nil {
		if n == len(b.Days) {
			b.Days = append(b.Days, Day{})
		}
		decodeDay(&r, start, &b.Days[n], withEntries)
		n++
	}
	b.Days = b.Days[:n]
	return r.err
}

// BlockDays is the number of days a block holds.
const BlockDays = blockDays

// BlockStart returns the first day of the block that holds day.
func BlockStart(day int32) int32 { return blockStart(day) }

// ReadBlock reads the stored days of a series in the block that holds
// day into b (none when the block is not stored).
func (t *Tx) ReadBlock(banner, sku, province string, day int32, b *Block) error {
	start := blockStart(day)
	v := t.readBlockValue(appendDay(seriesPrefix(banner, sku, province), start))
	b.Start, b.stamps = start, b.stamps[:0]
	if v == nil {
		b.Days = b.Days[:0]
		return nil
	}
	stamps, days, err := splitBlock(v)
	if err != nil {
		return err
	}
	b.stamps = append(b.stamps, stamps...)
	return decodeBlock(start, days, b)
}

// PutBlock writes the days of a series in one block, replacing what the
// block held; b.Days must be in date order within the block. An empty
// block is deleted. The writes of its observations are those ReadBlock
// read into b (none for a Block it did not read): a write of the data
// calls PutWrittenBlock instead.
func (t *Tx) PutBlock(banner, sku, province string, b *Block) error {
	return t.putBlock(banner, sku, province, b, b.stamps)
}

// putBlock writes b with the stamps record stamps (none when empty).
func (t *Tx) putBlock(banner, sku, province string, b *Block, stamps []byte) error {
	p := seriesPrefix(banner, sku, province)
	k := appendDay(p[:len(p):len(p)], b.Start)
	if len(b.Days) == 0 {
		return t.deleteBlock(k)
	}
	var buf [1024]byte
	e := appendStamps(enc(buf[:0]), stamps)
	for i := range b.Days {
		d := &b.Days[i]
		if blockStart(d.Date) != b.Start || (i > 0 && d.Date <= b.Days[i-1].Date) {
			return errCorrupt
		}
		e = encodeDay(e, b.Start, d)
	}
	return t.writeBlock(p, k, e, b.Start, b.Days[len(b.Days)-1].Date)
}

// Day reads one day of a series into d (entries included).
func (t *Tx) Day(banner, sku, province string, date int32, d *Day) (bool, error) {
	var b Block
	if err := t.ReadBlock(banner, sku, province, date, &b); err != nil {
		return false, err
	}
	for _, x := range b.Days {
		if x.Date == date {
			*d = x
			return true, nil
		}
	}
	return false, nil
}

// PutDay writes one day of a series, replacing a stored day of that date.
func (t *Tx) PutDay(banner, sku, province string, d *Day) error {
	var b Block
	if err := t.ReadBlock(banner, sku, province, d.Date, &b); err != nil {
		return err
	}
	i := 0
	for i < len(b.Days) && b.Days[i].Date < d.Date {
		i++
	}
	if i < len(b.Days) && b.Days[i].Date == d.Date {
		b.Days[i] = *d
	} else {
		b.Days = slices.Insert(b.Days, i, *d)
	}
	return t.PutBlock(banner, sku, province, &b)
}

// SeriesScan says which days of a series Series visits, in which order,
// and how much of each it decodes.
type SeriesScan struct {
	From, To    int32 // days, inclusive; a negative From is the first day
	NewestFirst bool  // visit the newest day first; oldest first otherwise
	SummaryOnly bool  // decode the day's summary only: Day.Entries stays empty
}

// Series calls fn for each stored day of a series that scan selects, in
// its order. fn may keep d only until it returns; it stops the scan by
// returning ErrStop.
func (t *Tx) Series(banner, sku, province string, scan SeriesScan, fn func(d *Day) error) error {
	// Days are never negative, and keys order them as unsigned numbers:
	// a negative bound (math.MinInt32 for "from the first") would sort
	// after every day.
	from, to := max(scan.From, 0), max(scan.To, -1)
	reverse, parts := scan.NewestFirst, dayParts(!scan.SummaryOnly)
	if from > to {
		return nil
	}
	prefix := seriesPrefix(banner, sku, province)
	lo := appendDay(prefix[:len(prefix):len(prefix)], blockStart(from))
	hi := appendDay(prefix[:len(prefix):len(prefix)], blockStart(to))
	var d Day
	var offs [blockDays]int // reverse: where each day of a block starts
	c := t.blockCursor()
	var k, v []byte
	if reverse {
		k, v = c.SeekLast(hi)
	} else {
		k, v = c.Seek(lo)
	}
	for k != nil && len(k) == len(lo) && bytes.HasPrefix(k, prefix) {
		if bytes.Compare(k, lo) < 0 || bytes.Compare(k, hi) > 0 {
			break
		}
		start := int32(binary.BigEndian.Uint32(k[len(prefix):]))
		var err error
		if _, v, err = splitBlock(v); err != nil {
			return err
		}
		r := dec{b: v}
		if !reverse {
			for len(r.b) > 0 {
				decodeDay(&r, start, &d, parts)
				if r.err != nil {
					return r.err
				}
				if d.Date < from {
					continue
				}
				if d.Date > to {
					return nil
				}
				if err := fn(&d); err != nil {
					return stopped(err)
				}
			}
			k, v = c.Next()
			continue
		}
		n := 0
		for len(r.b) > 0 && n < len(offs) {
			offs[n] = len(v) - len(r.b)
			n++
			decodeDay(&r, start, &d, summaryOnly)
			if r.err != nil {
				return r.err
			}
		}
		if len(r.b) > 0 {
			return errCorrupt
		}
		for i := n - 1; i >= 0; i-- {
			r := dec{b: v[offs[i]:]}
			decodeDay(&r, start, &d, parts)
			if r.err != nil {
				return r.err
			}
			if d.Date > to {
				continue
			}
			if d.Date < from {
				return nil
			}
			if err := fn(&d); err != nil {
				return stopped(err)
			}
		}
		k, v = c.Prev()
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

// Offer is a banner SKU's offer in a province: its price in force on the
// data set's latest day (the write's rule, applied by package grocery's
// write path), summarised over the stores whose latest observation is in
// force that day.
type Offer struct {
	Banner, SKU              string
	Price, Regular, Min, Max uint32
	PromoEnd                 int32 // the promotion's stated end, when Price < Regular
	// PromoEnded is the latest stated end of the stores' promotions that
	// ended before the offer's day, when the offer is not on promotion.
	PromoEnded int32
	StoreCount uint32 // stores whose prices are in force
	ObservedAt int32  // the SKU's newest observation
	// Expires is the first day on which the offer can change without a
	// new observation (a store's observation leaves the window, a
	// promotion ends, or Low30 or Typical move as the days go by); 0 when
	// it cannot.
	Expires int32
	// Low30 is the lowest daily price in force over the 30 days before
	// the offer's day, 0 when there was none; Typical the most common
	// daily regular price in force over the 60 days up to it (the
	// writer's rule, package pricestat's verdict).
	Low30, Typical uint32
	// Daily is the banner SKU's daily price on ObservedAt, its newest day
	// (as the category days keep it: SKUDay), and WeekBefore its daily
	// price on its last day with one in the week before ObservedAt's
	// (WeekOf), zero when it has none there: its weekly prices of the two
	// latest weeks it has, which a comparison of one week reads with the
	// offers instead of the category days. Daily.Day is ObservedAt.
	Daily, WeekBefore DayPrice
}

// DayPrice is a banner SKU's daily price on one day, as SKUDay gives it.
type DayPrice struct {
	Day            int32
	Price, Regular uint32 // half-cents; Regular >= Price
}

// WeekOf returns the first day of day's week, the weeks of the offers'
// weekly prices (Offer.Daily, Offer.WeekBefore): Thursday to Wednesday,
// the grocery flyer's week (day 0, 1970-01-01, was a Thursday).
func WeekOf(day int32) int32 { return day - day%7 }

func offerKey(province, gtin, banner, sku string) []byte {
	b := make([]byte, 0, 2+len(gtin)+len(banner)+len(sku)+1)
	return append(appendStr0(append(append(b, province...), gtin...), banner), sku...)
}

// PutOffer writes a province's offer of a GTIN. A banner of more than 255
// bytes is refused: the offer prices name it by a length of one byte.
func (t *Tx) PutOffer(province, gtin string, o *Offer) error {
	if len(o.Banner) > 255 {
		return fmt.Errorf("storage: offer of %s: banner %.20q... is %d bytes, over 255", gtin, o.Banner, len(o.Banner))
	}
	t.offersPut(province)
	return t.put(t.offers(), offerKey(province, gtin, o.Banner, o.SKU), encodeOffer(o))
}

func encodeOffer(o *Offer) []byte {
	return enc(nil).uvarint(uint64(o.Price)).uvarint(uint64(o.Regular)).uvarint(uint64(o.Min)).
		uvarint(uint64(o.Max)).varint(int64(o.PromoEnd)).uvarint(uint64(o.StoreCount)).varint(int64(o.ObservedAt)).
		varint(int64(o.PromoEnded)).varint(int64(o.Expires)).uvarint(uint64(o.Low30)).uvarint(uint64(o.Typical)).
		weekly(o)
}

// weekly appends an offer's weekly prices (version 11): Daily's price and
// regular price less it, then the days from WeekBefore to ObservedAt (0:
// none) and, when there is one, WeekBefore's prices likewise.
func (e enc) weekly(o *Offer) enc {
	e = e.uvarint(uint64(o.Daily.Price)).uvarint(uint64(o.Daily.Regular - o.Daily.Price))
	if o.WeekBefore.Day == 0 {
		return e.uvarint(0)
	}
	return e.uvarint(uint64(o.ObservedAt - o.WeekBefore.Day)).uvarint(uint64(o.WeekBefore.Price)).
		uvarint(uint64(o.WeekBefore.Regular - o.WeekBefore.Price))
}

// upgradeOfferWeeks gives every offer of a version 9 or 10 file its
// weekly prices (Offer.Daily, Offer.WeekBefore) from the daily prices the
// category days keep: a banner SKU's on its newest day, the offer's
// ObservedAt, and on its last day in the week before that day's.
func (t *Tx) upgradeOfferWeeks() error {
	type entry struct {
		k []byte
		o Offer
	}
	var offers []entry
	weeks := map[string]*[2]DayPrice{} // province banner 0x00 sku -> Daily, WeekBefore
	newest := map[string]int32{}       // the same keys -> ObservedAt
	from := map[string]int32{}         // province -> the first day to read
	c := t.offers().Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) < 17 {
			return errCorrupt
		}
		var o Offer
		if err := t.decodeOffer(k[16:], v, &o); err != nil {
			return err
		}
		offers = append(offers, entry{bytes.Clone(k), o})
		key := string(k[:2]) + string(k[16:])
		if weeks[key] == nil {
			weeks[key], newest[key] = &[2]DayPrice{}, o.ObservedAt
		}
		p := string(k[:2])
		if f, ok := from[p]; !ok || WeekOf(o.ObservedAt)-7 < f {
			from[p] = WeekOf(o.ObservedAt) - 7
		}
	}
	var key []byte
	for _, province := range slices.Sorted(maps.Keys(from)) {
		err := t.CatDays(province, "", "", from[province], math.MaxInt32, CatSKUs, func(k *CatDayKey, c *CatDay) error {
			for _, sd := range c.SKUs {
				key = append(appendStr0(append(key[:0], province...), k.Banner), sd.SKU...)
				w := weeks[string(key)]
				if w == nil {
					continue
				}
				n, dp := newest[string(key)], DayPrice{k.Day, sd.Price, sd.Regular}
				switch {
				case k.Day == n:
					w[0] = dp
				case WeekOf(k.Day) == WeekOf(n)-7 && k.Day > w[1].Day:
					w[1] = dp
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, e := range offers {
		t.offersPut(string(e.k[:2]))
		w := weeks[string(e.k[:2])+string(e.k[16:])]
		e.o.Daily, e.o.WeekBefore = w[0], w[1]
		if err := t.put(t.offers(), e.k, encodeOffer(&e.o)); err != nil {
			return err
		}
	}
	return nil
}

// DeleteOffer removes a province's offer of a GTIN under a banner SKU.
func (t *Tx) DeleteOffer(province, gtin, banner, sku string) error {
	t.offersPut(province)
	return t.offers().Delete(offerKey(province, gtin, banner, sku))
}

// Offers calls fn for each offer of gtin in province, ordered by banner
// and SKU. fn may keep o only until it returns.
func (t *Tx) Offers(province, gtin string, fn func(o *Offer) error) error {
	prefix := make([]byte, 0, 16)
	prefix = append(append(prefix, province...), gtin...)
	c := t.offers().Cursor()
	var o Offer // one for every call of fn, which may keep it only until it returns
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if err := t.decodeOffer(k[len(prefix):], v, &o); err != nil {
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
	v := t.get(idLatest, latestKey(storeID, sku))
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

// The flags of a search token (PutToken): where in the product the word
// is.
const (
	TokenInName  = 1 // the product's name (English or French)
	TokenInBrand = 2 // its brand
)

// PutToken indexes ref, a GTIN-14 or a banner SKU's SKURef, under a
// search token in a province. flags (TokenInName, TokenInBrand) and
// weight are the caller's ranking data.
func (t *Tx) PutToken(province, token, ref string, flags, weight byte) error {
	k := make([]byte, 0, 2+len(token)+1+len(ref))
	k = append(appendStr0(append(k, province...), token), ref...)
	return t.put(t.tokens(), k, []byte{flags, weight})
}

// HasToken reports whether ref is indexed under token in a province.
func (t *Tx) HasToken(province, token, ref string) bool {
	k := make([]byte, 0, 2+len(token)+1+len(ref))
	k = append(appendStr0(append(k, province...), token), ref...)
	return t.tokens().Get(k) != nil
}

// Tokens calls fn for each indexed (token, ref) in province whose token
// starts with prefix, ref being a GTIN-14 or a SKURef (ParseSKURef tells
// them apart), in token order, until fn returns ErrStop. The slices are valid only until fn
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

// DeleteToken removes ref (a GTIN-14 or a SKURef) from a token's entries
// in a province's index.
func (t *Tx) DeleteToken(province, token, gtin string) error {
	k := make([]byte, 0, 2+len(token)+1+len(gtin))
	return t.tokens().Delete(append(appendStr0(append(k, province...), token), gtin...))
}

// OffersIn calls fn for each offer in province, ordered by GTIN, banner
// and SKU, until fn returns ErrStop. fn may keep o only until it returns.
func (t *Tx) OffersIn(province string, fn func(gtin string, o *Offer) error) error {
	prefix := []byte(province)
	var (
		o    Offer // one for all: fn may not keep it
		gtin string
		err  error
	)
	c := t.offers().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		if len(k) < 16 {
			return errCorrupt
		}
		if err = t.decodeOffer(k[16:], v, &o); err != nil {
			return err
		}
		if gtin != string(k[2:16]) { // a barcode's offers come together: one string for them all
			gtin = t.text(k[2:16])
		}
		if err := fn(gtin, &o); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// offerPricesIn calls fn with the GTIN, the banner and the fields
// OfferPrices keeps of each offer in province, ordered by GTIN, banner and
// SKU, until fn returns ErrStop: OffersIn reading four fields and no
// strings. gtin and banner are valid only until fn returns.
func (t *Tx) offerPricesIn(province string, fn func(gtin, banner []byte, e *PriceEntry) error) error {
	prefix := []byte(province)
	c := t.offers().Cursor()
	var e PriceEntry
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		j := bytes.IndexByte(k[min(len(k), 16):], 0)
		if len(k) < 16 || j < 0 {
			return errCorrupt
		}
		// Price, Regular, StoreCount and ObservedAt are the first, second,
		// sixth and seventh varints, ObservedAt zigzag-encoded
		// (decodeOffer).
		var f [7]uint64
		i := 0
		for n := range f {
			if f[n], i = uvarintAt(v, i); i < 0 || f[n] > math.MaxUint32 {
				return errCorrupt
			}
		}
		e = PriceEntry{Price: uint32(f[0]), Regular: uint32(f[1]), StoreCount: uint32(f[5]), ObservedAt: int32(int64(f[6]>>1) ^ -int64(f[6]&1))}
		if err := fn(k[2:16], k[16:16+j], &e); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// bannerOf returns banner b as a shared string. A scan reads a barcode's
// offers banner by banner, and often a banner's SKUs or barcodes one
// after the other: the last banner found saves those lookups.
func (t *Tx) bannerOf(b []byte) string {
	if string(b) != t.banner {
		t.banner = t.names.get(b)
	}
	return t.banner
}

// decodeOffer sets o to the offer of key tail bannerSKU (banner 0x00 sku)
// and value v.
func (t *Tx) decodeOffer(bannerSKU, v []byte, o *Offer) error {
	j := bytes.IndexByte(bannerSKU, 0)
	if j < 0 {
		return errCorrupt
	}
	b, s := bannerSKU[:j], bannerSKU[j+1:]
	// Every field is a varint (every offer read goes through here: a
	// tight loop rather than a dec), the int32 ones zigzag-encoded.
	var f [16]uint64
	n, i := 0, 0
	for ; i < len(v) && n < len(f); n++ {
		x, next := uvarintAt(v, i)
		if next < 0 || x > math.MaxUint32 {
			return errCorrupt
		}
		f[n], i = x, next
	}
	i32 := func(x uint64) int32 { return int32(int64(x>>1) ^ -int64(x&1)) }
	*o = Offer{Banner: t.bannerOf(b), SKU: t.text(s), Price: uint32(f[0]), Regular: uint32(f[1]), Min: uint32(f[2]), Max: uint32(f[3]),
		PromoEnd: i32(f[4]), StoreCount: uint32(f[5]), ObservedAt: i32(f[6])}
	switch {
	case i != len(v):
		return errCorrupt
	case t.legacyOffers():
		// Version 4 and 5: then the daily price and regular price on
		// ObservedAt.
		if n != 9 {
			return errCorrupt
		}
		return nil
	}
	o.PromoEnded, o.Expires = i32(f[7]), i32(f[8])
	switch n {
	case 9: // version 6 and 7 offers end here
	case 11: // version 8 to 10 offers end here
		o.Low30, o.Typical = uint32(f[9]), uint32(f[10])
	case 14, 16:
		o.Low30, o.Typical = uint32(f[9]), uint32(f[10])
		o.Daily = DayPrice{Day: o.ObservedAt, Price: uint32(f[11]), Regular: uint32(f[11] + f[12])}
		if gap := f[13]; gap != 0 && n == 16 {
			o.WeekBefore = DayPrice{Day: o.ObservedAt - int32(gap), Price: uint32(f[14]), Regular: uint32(f[14] + f[15])}
		} else if gap != 0 || n == 16 {
			return errCorrupt
		}
	default:
		return errCorrupt
	}
	return nil
}

// Offer reads a province's offer of a GTIN under one banner SKU.
func (t *Tx) Offer(province, gtin, banner, sku string, o *Offer) (bool, error) {
	k := offerKey(province, gtin, banner, sku)
	v := t.get(idOffers, k)
	if v == nil {
		return false, nil
	}
	return true, t.decodeOffer(k[16:], v, o)
}
