package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Analytics aggregates. Package grocery derives them in the import
// transaction (its writer's derive step) and reads them for the
// time-based analytics; their meaning is grocery's, their bytes are ours.
//
//	catdays    province(2) category 0x00 banner 0x00 day(4) -> CatDay: every
//	           observation of the day of the banner's SKUs of a category
//	           in the province, as multisets (so that a corrected
//	           observation can be taken out again and a median read; the
//	           prices and unit prices as runs of equal values), and each
//	           SKU's daily price that day, the SKU named by its number in
//	           the catskus list of the same key prefix (encodeSKUs: the
//	           numbers, the links, then the rest, which a read of the
//	           links passes over)
//	catskus    province(2) category 0x00 banner 0x00 -> the SKUs the
//	           category days of that prefix name, numbered from 0 in
//	           the order first written; a list that only grows, so that
//	           a scan reads each SKU's string once, not on every day
//	shelf      province(2) banner 0x00 sku -> Shelf: a banner SKU's first
//	           and last observation day in the province, its first price
//	promos     banner 0x00 sku 0x00 province(2) start(4) -> Promo
//	promodates province(2) start(4) banner 0x00 sku -> Promo (a copy, for
//	           reading a province's promotions by date)

// CatObs is one observation as the category aggregates count it.
type CatObs struct {
	Store uint32 // Store.Ord
	Price uint32 // cents
	Unit  uint32 // unit price in hundredths of a cent << 2 | basis (1..3); 0 when none
	Promo bool
}

// CatDayKey names one category aggregate.
type CatDayKey struct {
	Province, Category, Banner string
	Day                        int32
}

// StoreCount is how many observations of an aggregate a store made.
type StoreCount struct {
	Store uint32
	N     uint32
}

// SKUDay is one banner SKU's daily price on a day one of its stores
// observed it: its price in force and regular price in force that day
// (the writer's rule), in half-cents (twice the cents; a format 6 file's
// medians of two middle prices need the half).
type SKUDay struct {
	SKU string
	Lookback
	Price, Regular uint32 // half-cents; Regular >= Price
}

// Lookback is what a banner SKU's daily price looks back on, over the
// writer's lookback (the days before it, 30 in package grocery): Low, the
// lowest of its daily prices on those days; PrevGap, the days since its
// latest day with a daily price among them, and PrevRegular that day's
// regular price; Fell, whether a store whose price is in force on both
// that day and this one has a lower price in force on this one (a move a
// store made, not one of which stores are in force). All are 0 (false)
// when it has no daily price in them; prices in half-cents.
//
// Link and RegularLink are the matched stores' move since the banner
// SKU's previous day with a daily price (whether in the lookback or not):
// 10^7 × the mean, over the stores whose price is in force on both days,
// of ln(price on this day / price on that day), with the price and with
// the regular price; 0 when no store is in force on both. Chained, they
// give an index that moves only when stores move their own prices.
type Lookback struct {
	Low, PrevGap, PrevRegular uint32
	Fell                      bool
	Link, RegularLink         int32
}

// LinkScale is the scale of Lookback.Link: a link of n is ln(ratio) × 10^7.
const LinkScale = 1e7

// SKUNum is a SKUDay whose SKU is given by its number in CatDay.Names.
type SKUNum struct {
	Num uint32
	Lookback
	Price, Regular uint32 // half-cents; Regular >= Price
}

// CatDay is one day of a category's observations under a banner in a
// province. Prices, Units and Stores are sorted, SKUs by SKU; Count,
// Promo and Sum are read without decoding the lists. A read that decodes
// the lists checks them against Count and the store count: a day that
// does not agree is corrupt (an error), never expanded as it claims.
type CatDay struct {
	Count  uint32 // observations
	Promo  uint32 // of which on promotion
	Sum    uint64 // of Prices, in cents
	SKUs   []SKUDay
	Prices []uint32
	Units  []uint32 // as CatObs.Unit, only those not 0
	Stores []StoreCount
	// PriceRuns and UnitRuns are Prices and Units as runs of equal
	// values, which a read with CatRuns gives instead of them.
	PriceRuns, UnitRuns []Run
	// SKUNums and Names are SKUs as a read with CatNumbered gives them
	// instead: each SKU by its number in Names, the SKUs of the days of
	// the same province, category and banner (a list that grows as a
	// scan reads on, never renumbered).
	SKUNums []SKUNum
	Names   []string
}

// Run is a value and how many times it occurs in a multiset.
type Run struct{ Value, N uint32 }

// CatParts says how much of a CatDay a read decodes.
type CatParts int

const (
	CatCounts CatParts = iota // Count, Promo and Sum
	CatSKUs                   // and SKUs
	CatAll                    // and Prices, Units and Stores
	CatRuns                   // CatAll with PriceRuns and UnitRuns instead of Prices and Units
	// CatNumbered, added to CatSKUs, CatAll or CatRuns, reads SKUNums
	// and Names instead of SKUs (which are then to be ignored).
	CatNumbered CatParts = 8
	// CatLinks, added to CatNumbered, reads of each SKUNum only its Num
	// and its Lookback's Link and RegularLink (the other fields zero):
	// what a chained index needs, at a fraction of the decoding.
	CatLinks CatParts = 16
)

// CatDayChange is what one transaction changes in a category day: the
// observations it takes out and adds (a correction is one of each), and
// the daily prices of the SKUs it wrote, which replace theirs.
type CatDayChange struct {
	Add, Remove []CatObs
	SKUs        []SKUDay
	DropSKUs    []string // SKUs whose daily price leaves the day (their observations moved to another category)
}

func catDayKey(k *CatDayKey) []byte {
	b := make([]byte, 0, 2+len(k.Category)+len(k.Banner)+6)
	return appendDay(appendStr0(appendStr0(append(b, k.Province...), k.Category), k.Banner), k.Day)
}

func encodeSorted(e enc, v []uint32) enc {
	var buf [512]byte
	body := enc(buf[:0])
	prev := uint32(0)
	for _, x := range v {
		body = body.uvarint(uint64(x - prev))
		prev = x
	}
	return append(e.uvarint(uint64(len(v))).uvarint(uint64(len(body))), body...)
}

// encodeRuns appends sorted v to e as its runs of equal values
// (encodeRunList).
func encodeRuns(e enc, v []uint32) enc {
	var runBuf [64]Run
	return encodeRunList(e, appendRuns(runBuf[:0], v))
}

// decodeRuns appends the runs encodeRuns wrote at d to dst. Their values
// number at most max (the day's observations): a corrupt value claiming
// more is errCorrupt, not a list that fills the memory.
func decodeRuns(d *dec, dst []Run, max uint32) []Run {
	n, b := d.list()
	if d.err == nil && n > uint64(len(b)) {
		d.err = errCorrupt
	}
	if d.err != nil {
		return dst
	}
	dst = slices.Grow(dst, int(n))
	prev, i, total := uint32(0), 0, uint64(0)
	for c := uint64(0); c < n; c++ {
		var delta, more uint64
		if delta, i = uvarintAt(b, i); i < 0 {
			d.err = errCorrupt
			return dst
		}
		if more, i = uvarintAt(b, i); i < 0 {
			d.err = errCorrupt
			return dst
		}
		if total += more + 1; more >= uint64(max) || total > uint64(max) {
			d.err = errCorrupt
			return dst
		}
		prev += uint32(delta)
		dst = append(dst, Run{prev, uint32(more) + 1})
	}
	if i != len(b) {
		d.err = errCorrupt
	}
	return dst
}

// expandRuns appends the values of runs to dst, each as many times as
// it occurs.
func expandRuns(dst []uint32, runs []Run) []uint32 {
	for _, r := range runs {
		for range r.N {
			dst = append(dst, r.Value)
		}
	}
	return dst
}

// appendRuns appends the runs of equal values of sorted v to dst.
func appendRuns(dst []Run, v []uint32) []Run {
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		dst = append(dst, Run{v[i], uint32(j - i)})
		i = j
	}
	return dst
}

// list reads the count and the size in bytes that start an encoded list
// (encodeSorted's, encodeRuns') and returns the count and the list's
// bytes, d past them.
func (d *dec) list() (uint64, []byte) {
	n, size := d.uvarint(), d.uvarint()
	if d.err != nil || uint64(len(d.b)) < size {
		d.err = errCorrupt
		return 0, nil
	}
	b := d.b[:size]
	d.b = d.b[size:]
	return n, b
}

// decodeSortedRuns appends the values encodeSorted wrote at d to dst as
// runs of equal values.
func decodeSortedRuns(d *dec, dst []Run) []Run {
	n, b := d.list()
	if d.err != nil {
		return dst
	}
	prev, i, first := uint32(0), 0, len(dst)
	for c := uint64(0); c < n; c++ {
		delta, next := uvarintAt(b, i)
		if next < 0 {
			d.err = errCorrupt
			return dst
		}
		i = next
		if delta == 0 && len(dst) > first {
			dst[len(dst)-1].N++
			continue
		}
		prev += uint32(delta)
		dst = append(dst, Run{prev, 1})
	}
	if i != len(b) {
		d.err = errCorrupt
	}
	return dst
}

func decodeSorted(d *dec, dst []uint32) []uint32 {
	n, b := d.list()
	if d.err != nil {
		return dst
	}
	// A tight loop: most deltas take one byte, and a report decodes
	// hundreds of thousands of them.
	dst = slices.Grow(dst, int(min(n, uint64(len(b)))))
	prev, i := uint32(0), 0
	for c := uint64(0); c < n; c++ {
		if i < len(b) && b[i] < 0x80 {
			prev += uint32(b[i])
			i++
		} else {
			v, m := binary.Uvarint(b[i:])
			if m <= 0 {
				d.err = errCorrupt
				return dst
			}
			prev += uint32(v)
			i += m
		}
		dst = append(dst, prev)
	}
	if i != len(b) {
		d.err = errCorrupt
	}
	return dst
}

// A category day's first byte says its encoding, but for a version 4
// day, whose SKUs are strings and which starts with its Count: only the
// upgrade of a version 4 file reads one (Tx.days4).
const (
	// catDayNumbered11 starts a day of version 9 to 11, its SKUs numbered
	// in the category's list (skuDict), each with all its fields in turn
	// (decodeSKUNums11): only an upgrade reads one.
	catDayNumbered11 = 0
	// catDayParts starts a day of this version, its SKUs numbered and in
	// three parts (encodeSKUs).
	catDayParts = 1
)

// encodeCatDay encodes c, its SKUs numbered in dict (numbering those
// new to it); added reports whether dict grew.
//
// A day of this version keeps its prices and units as runs of equal
// values (encodeRuns): the stores of a banner mostly charge a SKU the
// same, so a day's prices hold about one distinct value in six.
func encodeCatDay(c *CatDay, dict *skuDict) (v []byte, added bool) {
	e := enc(make([]byte, 0, 20+len(c.Prices)+2*len(c.Stores)+8*len(c.SKUs))).
		uvarint(catDayParts).uvarint(uint64(c.Count)).uvarint(uint64(c.Promo)).uvarint(c.Sum)
	e, added = encodeSKUs(e, c.SKUs, dict)
	return encodeStores(encodeRuns(encodeRuns(e, c.Prices), c.Units), c.Stores), added
}

// encodeSKUs appends a day's SKU days (sorted by SKU), numbering their
// SKUs in dict, in three parts, so that a read of the links alone
// (CatLinks) passes over the rest without decoding it:
//
//	count, then each SKU's number
//	links: how many SKUs have one (Link or RegularLink not 0), then for
//	  each its index less the one before's less one (the first: its
//	  index), Link and RegularLink zigzag-encoded
//	the rest's size in bytes, then for each SKU its price, the regular
//	  price's excess, Low, PrevGap × 2 + 1 when Fell, and PrevRegular
//	  when PrevGap is not 0
func encodeSKUs(e enc, skus []SKUDay, dict *skuDict) (enc, bool) {
	added, linked := false, 0
	e = e.uvarint(uint64(len(skus)))
	for i := range skus {
		n, isNew := dict.num(skus[i].SKU)
		added = added || isNew
		e = e.uvarint(uint64(n))
		if skus[i].Link != 0 || skus[i].RegularLink != 0 {
			linked++
		}
	}
	e, prev := e.uvarint(uint64(linked)), -1
	for i := range skus {
		if lb := &skus[i].Lookback; lb.Link != 0 || lb.RegularLink != 0 {
			e = e.uvarint(uint64(i - prev - 1)).uvarint(zigzag(int64(lb.Link))).uvarint(zigzag(int64(lb.RegularLink)))
			prev = i
		}
	}
	var buf [1024]byte
	rest := enc(buf[:0])
	for i := range skus {
		sd := &skus[i]
		gap := uint64(sd.PrevGap) << 1
		if sd.Fell {
			gap |= 1
		}
		rest = rest.uvarint(uint64(sd.Price)).uvarint(uint64(sd.Regular - sd.Price)).uvarint(uint64(sd.Low)).uvarint(gap)
		if sd.PrevGap != 0 {
			rest = rest.uvarint(uint64(sd.PrevRegular))
		}
	}
	return append(e.uvarint(uint64(len(rest))), rest...), added
}

// encodeCatDayNamed encodes c as version 4 did, each SKU named in full:
// the form in which ForEachAnalytics gives a category day, the same
// whatever numbers its category's list gave the SKUs.
func encodeCatDayNamed(c *CatDay) []byte {
	e := enc(make([]byte, 0, 16+3*len(c.Prices)+2*len(c.Stores)+12*len(c.SKUs))).
		uvarint(uint64(c.Count)).uvarint(uint64(c.Promo)).uvarint(c.Sum)
	// SKUs are sorted: each is the length of the prefix it shares with
	// the one before, then the rest.
	e = e.uvarint(uint64(len(c.SKUs)))
	prevSKU := ""
	for _, sd := range c.SKUs {
		n := 0
		for n < len(prevSKU) && n < len(sd.SKU) && n < 255 && prevSKU[n] == sd.SKU[n] {
			n++
		}
		e = e.uvarint(uint64(n)).str(sd.SKU[n:]).uvarint(uint64(sd.Price)).uvarint(uint64(sd.Regular - sd.Price))
		prevSKU = sd.SKU
	}
	return encodeStores(encodeSorted(encodeSorted(e, c.Prices), c.Units), c.Stores)
}

// encodeStores appends a category day's stores to e.
func encodeStores(e enc, stores []StoreCount) enc {
	e = e.uvarint(uint64(len(stores)))
	prev := uint32(0)
	for _, s := range stores {
		e = e.uvarint(uint64(s.Store - prev)).uvarint(uint64(s.N))
		prev = s.Store
	}
	return e
}

// decodeCatDay decodes the parts of v, the category day under the key
// prefix gp (province category 0x00 banner 0x00), that parts names into
// c, reusing its slices. SKU strings are slices of the category's list
// (its own copy, read once per transaction); those of a version 4 day
// are the transaction's (Tx.text), or those of before (sorted by SKU, not
// c.SKUs) when equal.
func (t *Tx) decodeCatDay(gp, v []byte, c *CatDay, parts CatParts, before []SKUDay, beforeNums []SKUNum) error {
	numbered := !t.days4
	if numbered && (len(v) == 0 || v[0] > catDayParts) {
		return errCorrupt
	}
	byNum, linksOnly := parts&CatNumbered != 0, parts&CatLinks != 0
	parts &^= CatNumbered | CatLinks
	d := dec{b: v}
	if numbered {
		d.b = v[1:]
	}
	c.Count, c.Promo, c.Sum = d.u32(), d.u32(), d.uvarint()
	c.Prices, c.Units, c.Stores = c.Prices[:0], c.Units[:0], c.Stores[:0]
	c.PriceRuns, c.UnitRuns = c.PriceRuns[:0], c.UnitRuns[:0]
	c.SKUs, c.SKUNums, c.Names = c.SKUs[:0], c.SKUNums[:0], nil
	if parts == CatCounts || d.err != nil {
		return d.err
	}
	var dict *skuDict
	if numbered || byNum {
		var err error
		if dict, err = t.dict(gp); err != nil {
			return err
		}
	}
	switch {
	case numbered:
		var err error
		if v[0] == catDayNumbered11 {
			err = decodeSKUNums11(&d, c, dict)
		} else {
			err = decodeSKUNums(&d, c, dict, byNum && linksOnly)
		}
		if err != nil {
			return err
		}
		if !byNum {
			namedSKUs(c, dict)
		}
	default:
		// A version 4 day (the upgrade of such a file reads them), read
		// with CatNumbered: its SKUs numbered in a list made as it is
		// read, never written.
		if err := t.decodeSKUDays(&d, c, before, beforeNums, dict); err != nil {
			return err
		}
	}
	if byNum {
		c.Names = dict.skus
	}
	if parts == CatSKUs {
		return d.err
	}
	switch {
	case numbered:
		// Expanded (for CatAll) only once the stores have vouched for
		// Count, which bounds the runs.
		c.PriceRuns = decodeRuns(&d, c.PriceRuns, c.Count)
		c.UnitRuns = decodeRuns(&d, c.UnitRuns, c.Count)
	case parts == CatRuns:
		c.PriceRuns = decodeSortedRuns(&d, c.PriceRuns)
		c.UnitRuns = decodeSortedRuns(&d, c.UnitRuns)
	default:
		c.Prices = decodeSorted(&d, c.Prices)
		c.Units = decodeSorted(&d, c.Units)
	}
	// The stores' numbers are at most the store count (see UpdateCatDay), and their
	// observations add up to Count at least (a removal whose store is not
	// there leaves them more).
	var total uint64
	c.Stores, total = t.decodeStores(&d, c.Stores)
	if d.err == nil && (len(d.b) != 0 || uint64(c.Count) > total) {
		d.err = errCorrupt
	}
	if d.err != nil {
		return d.err
	}
	if numbered && parts != CatRuns {
		c.Prices = expandRuns(c.Prices, c.PriceRuns)
		c.Units = expandRuns(c.Units, c.UnitRuns)
		c.PriceRuns, c.UnitRuns = c.PriceRuns[:0], c.UnitRuns[:0]
	}
	return nil
}

// decodeStores appends the stores encodeStores wrote at d to dst, and
// returns their observations' total. A store numbered past the store
// count is errCorrupt.
func (t *Tx) decodeStores(d *dec, dst []StoreCount) ([]StoreCount, uint64) {
	n, stores := d.uvarint(), uint64(t.storeCount())
	prev, total := uint64(0), uint64(0)
	for i := uint64(0); i < n && d.err == nil; i++ {
		prev += uint64(d.u32())
		sn := d.u32()
		if prev > stores {
			d.err = errCorrupt
			break
		}
		total += uint64(sn)
		dst = append(dst, StoreCount{uint32(prev), sn})
	}
	return dst, total
}

// namedSKUs moves c.SKUNums, numbered in dict, to c.SKUs.
func namedSKUs(c *CatDay, dict *skuDict) {
	c.SKUs = slices.Grow(c.SKUs, len(c.SKUNums))
	for _, sn := range c.SKUNums {
		c.SKUs = append(c.SKUs, SKUDay{dict.skus[sn.Num], sn.Lookback, sn.Price, sn.Regular})
	}
	c.SKUNums = c.SKUNums[:0]
}

// decodeSKUNums appends the SKU days at d (encodeSKUs), their SKUs
// numbered in dict, to c.SKUNums: each whole, or with linksOnly (a read
// with CatLinks) its number and links, the rest passed over by its size.
func decodeSKUNums(d *dec, c *CatDay, dict *skuDict, linksOnly bool) error {
	b := d.b
	n, i := uvarintAt(b, 0)
	if i < 0 || n > uint64(len(b)) {
		return errCorrupt
	}
	// Each day is written in place, every field set: no SKUNum is
	// built and copied.
	start := len(c.SKUNums)
	c.SKUNums = slices.Grow(c.SKUNums, int(n))[:start+int(n)]
	days, size := c.SKUNums[start:], uint64(len(dict.skus))
	for k := range days {
		var num uint64
		if i < len(b) && b[i] < 0x80 { // most numbers take a byte
			num = uint64(b[i])
			i++
		} else if num, i = uvarintAt(b, i); i < 0 {
			return errCorrupt
		}
		if num >= size {
			return errCorrupt
		}
		days[k] = SKUNum{Num: uint32(num)}
	}
	var linked uint64
	if linked, i = uvarintAt(b, i); i < 0 || linked > n {
		return errCorrupt
	}
	for at := uint64(0); linked > 0; linked-- {
		var skip, p, r uint64
		if skip, i = uvarintAt(b, i); i < 0 || skip >= n-at {
			return errCorrupt
		}
		at += skip
		if p, i = uvarintAt(b, i); i < 0 || p > math.MaxUint32 {
			return errCorrupt
		}
		if r, i = uvarintAt(b, i); i < 0 || r > math.MaxUint32 {
			return errCorrupt
		}
		days[at].Link, days[at].RegularLink = int32(unzigzag(p)), int32(unzigzag(r))
		at++
	}
	var restSize uint64
	if restSize, i = uvarintAt(b, i); i < 0 || restSize > uint64(len(b)-i) {
		return errCorrupt
	}
	rest := b[i : i+int(restSize)]
	d.b = b[i+int(restSize):]
	if linksOnly {
		return nil
	}
	j := 0
	for k := range days {
		if j = skuRestInto(rest, j, &days[k]); j < 0 {
			return errCorrupt
		}
	}
	if j != len(rest) {
		return errCorrupt
	}
	return nil
}

// skuRestInto decodes a SKU day's rest at b[i:] (encodeSKUs) into s,
// returning the index after it, or -1 when there is none.
func skuRestInto(b []byte, i int, s *SKUNum) int {
	var p, r, low, gap, prevRegular uint64
	if p, i = uvarintAt(b, i); i < 0 || p > math.MaxUint32 {
		return -1
	}
	// The regular price's excess is a uint32 difference, as written.
	if r, i = uvarintAt(b, i); i < 0 || r > math.MaxUint32 {
		return -1
	}
	if low, i = uvarintAt(b, i); i < 0 || low > math.MaxUint32 {
		return -1
	}
	if gap, i = uvarintAt(b, i); i < 0 || gap>>1 > math.MaxUint32 {
		return -1
	}
	if gap>>1 != 0 {
		if prevRegular, i = uvarintAt(b, i); i < 0 || prevRegular > math.MaxUint32 {
			return -1
		}
	}
	s.Price, s.Regular, s.Low, s.Fell = uint32(p), uint32(p)+uint32(r), uint32(low), gap&1 == 1
	s.PrevGap, s.PrevRegular = uint32(gap>>1), uint32(prevRegular)
	return i
}

// skuDict is the SKU list of one category's days (catskus): the SKUs by
// number and, once a write asks, the numbers by SKU.
type skuDict struct {
	skus []string
	nums map[string]uint32
}

// dict returns the SKU list of the category days under key prefix gp
// (province category 0x00 banner 0x00), read once per transaction and
// kept for its later reads and writes.
func (t *Tx) dict(gp []byte) (*skuDict, error) {
	// A scan reads a category's days one after the other.
	if t.lastDict != nil && bytes.Equal(gp, t.lastGP) {
		return t.lastDict, nil
	}
	if d := t.dicts[string(gp)]; d != nil {
		t.lastGP, t.lastDict = append(t.lastGP[:0], gp...), d
		return d, nil
	}
	if !t.tx.Writable() {
		if d := t.shared.get(t.tx.ID(), gp); d != nil {
			t.keepDict(gp, d)
			return d, nil
		}
	}
	d := &skuDict{}
	if b := t.catSKUs(); b != nil {
		if v := b.Get(gp); v != nil {
			// One copy of the list, whose strings are slices of it.
			own := string(v)
			n, i := uvarintAt(v, 0)
			if i < 0 || n > uint64(len(v)) {
				return nil, errCorrupt
			}
			d.skus = make([]string, 0, n)
			for ; n > 0; n-- {
				var size uint64
				if size, i = uvarintAt(v, i); i < 0 || size > uint64(len(v)-i) {
					return nil, errCorrupt
				}
				d.skus = append(d.skus, own[i:i+int(size)])
				i += int(size)
			}
			if i != len(v) {
				return nil, errCorrupt
			}
		}
	}
	if !t.tx.Writable() {
		t.shared.put(t.tx.ID(), gp, d)
	}
	t.keepDict(gp, d)
	return d, nil
}

// keepDict keeps d, the list of the category days under gp, for the rest
// of the transaction.
func (t *Tx) keepDict(gp []byte, d *skuDict) {
	if t.dicts == nil {
		t.dicts = map[string]*skuDict{}
	}
	t.dicts[string(gp)] = d
	t.lastGP, t.lastDict = append(t.lastGP[:0], gp...), d
}

// sharedDicts keeps the SKU lists read transactions decoded, for the read
// transactions of the same committed state (bbolt's transaction id): a
// category report or signals call then decodes none of them again. A
// list a read decoded is never changed (only a write numbers new SKUs, in
// a list of its own). It holds the lists of one state, the newest read.
type sharedDicts struct {
	mu    sync.Mutex
	txid  int
	dicts map[string]*skuDict
}

func (s *sharedDicts) get(txid int, gp []byte) *skuDict {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.txid != txid {
		return nil
	}
	return s.dicts[string(gp)]
}

func (s *sharedDicts) put(txid int, gp []byte, d *skuDict) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case txid < s.txid:
		return // an older state's
	case txid > s.txid || s.dicts == nil:
		s.txid, s.dicts = txid, map[string]*skuDict{}
	}
	s.dicts[string(gp)] = d
}

// num returns sku's number in d, numbering it when it is new.
func (d *skuDict) num(sku string) (n uint32, isNew bool) {
	if d.nums == nil {
		d.nums = make(map[string]uint32, len(d.skus))
		for i, s := range d.skus {
			d.nums[s] = uint32(i)
		}
	}
	if n, ok := d.nums[sku]; ok {
		return n, false
	}
	n = uint32(len(d.skus))
	d.skus = append(d.skus, sku)
	d.nums[sku] = n
	return n, true
}

// putDict writes the SKU list of key prefix gp.
func (t *Tx) putDict(gp []byte, d *skuDict) error {
	e := enc(make([]byte, 0, 8+12*len(d.skus))).uvarint(uint64(len(d.skus)))
	for _, s := range d.skus {
		e = e.str(s)
	}
	return t.put(t.catSKUs(), gp, e)
}

// putCatDay writes c under key, numbering its new SKUs in its category's
// list, unless it is old, the day's bytes already stored: a day a write
// leaves as it was is neither rewritten nor its blocks rebuilt.
func (t *Tx) putCatDay(key []byte, c *CatDay, old []byte) error {
	gp := key[:len(key)-4]
	dict, err := t.dict(gp)
	if err != nil {
		return err
	}
	v, added := encodeCatDay(c, dict)
	if added {
		if err := t.putDict(gp, dict); err != nil {
			return err
		}
	}
	if bytes.Equal(v, old) {
		return nil
	}
	if err := t.touchCatDay(gp, int32(binary.BigEndian.Uint32(key[len(gp):]))); err != nil {
		return err
	}
	return t.put(t.catDays(), key, v)
}

// upgradeCatDays rewrites every category day of a file of version from
// in this version's encoding: a version 4 day, whose SKUs are strings,
// with its SKUs numbered; a version 9 to 11 day with its SKUs in three
// parts (encodeSKUs). It runs in the one transaction that sets the
// version, so every day it reads is of version from.
func (t *Tx) upgradeCatDays(from int) error {
	t.days4 = from == 4
	defer func() { t.days4 = false }()
	type entry struct{ k, v []byte }
	var (
		c     CatDay
		batch []entry
	)
	cur := t.catDays().Cursor()
	k, v := cur.First()
	for k != nil {
		// bbolt's cursor does not survive a write to its bucket: a batch
		// is read, written, and the scan sought again past it.
		batch = batch[:0]
		for ; k != nil && len(batch) < 4096; k, v = cur.Next() {
			if len(k) < 8 {
				return errCorrupt
			}
			batch = append(batch, entry{bytes.Clone(k), bytes.Clone(v)})
		}
		var next []byte
		if k != nil {
			next = bytes.Clone(k)
		}
		for _, e := range batch {
			if err := t.decodeCatDay(e.k[:len(e.k)-4], e.v, &c, CatAll, nil, nil); err != nil {
				return fmt.Errorf("upgrade to version %d: %s: %w; the file is left at version %d", FormatVersion, catDayName(e.k), err, from)
			}
			if err := t.putCatDay(e.k, &c, nil); err != nil {
				return err
			}
		}
		if next != nil {
			k, v = cur.Seek(next)
		}
	}
	return nil
}

// catDayName names the category day of key k (province category 0x00
// banner 0x00 day) for an error: its province, category, banner and date.
func catDayName(k []byte) string {
	if len(k) < 8 {
		return fmt.Sprintf("category day %q", k)
	}
	cat, banner, _ := strings.Cut(string(k[2:len(k)-5]), "\x00")
	day := int32(binary.BigEndian.Uint32(k[len(k)-4:]))
	return fmt.Sprintf("category day %s %q %q %s", k[:2], cat, banner, time.Unix(int64(day)*86400, 0).UTC().Format(time.DateOnly))
}

// decodeSKUDays appends the SKU days at d to c.SKUs. A scan reads the
// same SKUs day after day, so each SKU's string is taken from before
// (the day read before, sorted as these are) when it is there, and
// copied only when it is new: a tight loop, as decodeSorted's. With
// dict, it appends them to c.SKUNums as well, numbered in dict: a SKU of
// before by its number in beforeNums (before's, in the same order, when
// it is as long), another by looking it up.
func (t *Tx) decodeSKUDays(d *dec, c *CatDay, before []SKUDay, beforeNums []SKUNum, dict *skuDict) error {
	var (
		b        = d.b
		i        int
		n, x     uint64
		sku      = make([]byte, 0, 64)
		old      = before
		j        int
		shared   uint64
		price, r uint64
	)
	if n, i = uvarintAt(b, 0); i < 0 {
		return errCorrupt
	}
	for ; n > 0; n-- {
		if shared, i = uvarintAt(b, i); i < 0 || shared > uint64(len(sku)) {
			return errCorrupt
		}
		if x, i = uvarintAt(b, i); i < 0 || uint64(len(b)-i) < x {
			return errCorrupt
		}
		sku = append(sku[:shared], b[i:i+int(x)]...)
		i += int(x)
		if price, i = uvarintAt(b, i); i < 0 {
			return errCorrupt
		}
		if r, i = uvarintAt(b, i); i < 0 {
			return errCorrupt
		}
		s, at := "", -1 // at: its index in before
		if len(sku) > 0 {
			// A view of sku for the comparisons; a string kept is a copy.
			// Most days have the SKUs of the day before: the next one
			// of before is tried first.
			view := unsafe.String(&sku[0], len(sku))
			if j < len(old) && old[j].SKU != view {
				for j < len(old) && old[j].SKU < view {
					j++
				}
			}
			if j < len(old) && old[j].SKU == view {
				s, at = old[j].SKU, j
				j++
			} else {
				s = t.text(sku)
			}
		}
		c.SKUs = append(c.SKUs, SKUDay{SKU: s, Price: uint32(price), Regular: uint32(price + r)}) // a version 4 day looks back on nothing
		if dict != nil {
			var num uint32
			if at >= 0 && len(beforeNums) == len(old) {
				num = beforeNums[at].Num
			} else {
				num, _ = dict.num(s)
			}
			c.SKUNums = append(c.SKUNums, SKUNum{Num: num, Price: uint32(price), Regular: uint32(price + r)})
		}
	}
	d.b = b[i:]
	return nil
}

// lookback appends lb: Low, then PrevGap times 4, plus 2 when it has a
// link and 1 when Fell, then PrevRegular when PrevGap is not 0, then Link
// and RegularLink zigzag-encoded when it has a link (either is not 0).
func (e enc) lookback(lb Lookback) enc {
	gap := uint64(lb.PrevGap) << 2
	linked := lb.Link != 0 || lb.RegularLink != 0
	if linked {
		gap |= 2
	}
	if lb.Fell {
		gap |= 1
	}
	e = e.uvarint(uint64(lb.Low)).uvarint(gap)
	if lb.PrevGap != 0 {
		e = e.uvarint(uint64(lb.PrevRegular))
	}
	if linked {
		e = e.uvarint(zigzag(int64(lb.Link))).uvarint(zigzag(int64(lb.RegularLink)))
	}
	return e
}

// uvarintAt decodes the uvarint at b[i:], returning it and the index
// after it, or -1 when there is none (or it overflows 64 bits).
func uvarintAt(b []byte, i int) (uint64, int) {
	var x uint64
	for s := uint(0); uint(i) < uint(len(b)) && s < 64; s += 7 {
		c := b[i]
		i++
		if c < 0x80 {
			return x | uint64(c)<<s, i
		}
		x |= uint64(c&0x7f) << s
	}
	return 0, -1
}

// mergeSorted returns the sorted union (as multisets) of sorted v and
// sorted add, reusing buf.
func mergeSorted(buf, v, add []uint32) []uint32 {
	out := buf[:0]
	i, j := 0, 0
	for i < len(v) && j < len(add) {
		if v[i] <= add[j] {
			out = append(out, v[i])
			i++
		} else {
			out = append(out, add[j])
			j++
		}
	}
	out = append(out, v[i:]...)
	return append(out, add[j:]...)
}

// subtractSorted removes from sorted v one copy of each value of sorted
// rm that is there, in place; taken[j] reports whether rm[j] was.
func subtractSorted(v, rm []uint32, taken []bool) []uint32 {
	out := v[:0]
	i, j := 0, 0
	for i < len(v) {
		for j < len(rm) && rm[j] < v[i] {
			j++
		}
		if j < len(rm) && rm[j] == v[i] {
			if taken != nil {
				taken[j] = true
			}
			i, j = i+1, j+1
			continue
		}
		out = append(out, v[i])
		i++
	}
	return out
}

// UpdateCatDay applies ch to a category aggregate: it takes the
// observations of ch.Remove out and adds those of ch.Add, drops the daily
// prices of ch.DropSKUs and sets those of ch.SKUs, deleting the aggregate when no observation is
// left. An observation to remove whose price is not there is ignored. It
// may reorder ch's slices. An observation to add of a store PutStore has
// not numbered is an error, and nothing is written.
func (t *Tx) UpdateCatDay(k *CatDayKey, ch *CatDayChange) error {
	for _, o := range ch.Add {
		if o.Store > t.storeCount() {
			return fmt.Errorf("storage: category observation of store %d, beyond the %d stores numbered", o.Store, t.storeCount())
		}
	}
	key := catDayKey(k)
	var c CatDay
	old := t.get(idCatDays, key)
	if old != nil {
		if err := t.decodeCatDay(key[:len(key)-4], old, &c, CatAll, nil, nil); err != nil {
			return err
		}
	}
	add, remove := ch.Add, ch.Remove
	if len(ch.DropSKUs) > 0 {
		c.SKUs = slices.DeleteFunc(c.SKUs, func(d SKUDay) bool { return slices.Contains(ch.DropSKUs, d.SKU) })
	}
	if len(ch.SKUs) > 0 {
		c.SKUs = mergeSKUDays(c.SKUs, ch.SKUs)
	}
	stores := func(s uint32, delta int) {
		i, ok := slices.BinarySearchFunc(c.Stores, s, func(x StoreCount, s uint32) int { return cmpU32(x.Store, s) })
		switch {
		case ok && delta < 0 && c.Stores[i].N <= 1:
			c.Stores = slices.Delete(c.Stores, i, i+1)
		case ok:
			c.Stores[i].N = uint32(int(c.Stores[i].N) + delta)
		case delta > 0:
			c.Stores = slices.Insert(c.Stores, i, StoreCount{s, 1})
		}
	}
	byPrice := func(a, b CatObs) int { return cmpU32(a.Price, b.Price) }
	var vals, units []uint32
	if len(remove) > 0 {
		slices.SortFunc(remove, byPrice)
		for _, o := range remove {
			vals = append(vals, o.Price)
		}
		taken := make([]bool, len(remove))
		c.Prices = subtractSorted(c.Prices, vals, taken)
		for j, o := range remove {
			if !taken[j] {
				continue // not there: nothing to take out
			}
			c.Count--
			c.Sum -= uint64(o.Price)
			if o.Promo && c.Promo > 0 {
				c.Promo--
			}
			if o.Unit != 0 {
				units = append(units, o.Unit)
			}
			stores(o.Store, -1)
		}
		slices.Sort(units)
		c.Units = subtractSorted(c.Units, units, nil)
	}
	if len(add) > 0 {
		vals, units = vals[:0], units[:0]
		for _, o := range add {
			vals = append(vals, o.Price)
			c.Count++
			c.Sum += uint64(o.Price)
			if o.Promo {
				c.Promo++
			}
			if o.Unit != 0 {
				units = append(units, o.Unit)
			}
			stores(o.Store, 1)
		}
		slices.Sort(vals)
		slices.Sort(units)
		c.Prices = mergeSorted(make([]uint32, 0, len(c.Prices)+len(vals)), c.Prices, vals)
		c.Units = mergeSorted(make([]uint32, 0, len(c.Units)+len(units)), c.Units, units)
	}
	if c.Count == 0 {
		if old == nil {
			return nil
		}
		if err := t.touchCatDay(key[:len(key)-4], k.Day); err != nil {
			return err
		}
		return t.catDays().Delete(key)
	}
	return t.putCatDay(key, &c, old)
}

// mergeSKUDays returns the SKU days of sorted v with those of set, which
// replace v's for the same SKU (the last of set's wins), sorted by SKU. It
// may reorder set.
func mergeSKUDays(v, set []SKUDay) []SKUDay {
	bySKU := func(a, b SKUDay) int { return strings.Compare(a.SKU, b.SKU) }
	slices.SortStableFunc(set, bySKU)
	out := make([]SKUDay, 0, len(v)+len(set))
	i := 0
	for j := 0; j < len(set); j++ {
		if j+1 < len(set) && set[j+1].SKU == set[j].SKU {
			continue // a later one of the same SKU wins
		}
		for i < len(v) && v[i].SKU < set[j].SKU {
			out = append(out, v[i])
			i++
		}
		if i < len(v) && v[i].SKU == set[j].SKU {
			i++
		}
		out = append(out, set[j])
	}
	return append(out, v[i:]...)
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CatDays calls fn for each category aggregate of province from day
// 'from' to 'to' inclusive, of one category when category is not "" and
// of one banner when banner is not "", in key order (category, banner,
// day), decoding the parts named. fn may keep k and c only until it
// returns (the SKU strings stay valid); it stops the scan by returning
// ErrStop.
func (t *Tx) CatDays(province, category, banner string, from, to int32, parts CatParts, fn func(k *CatDayKey, c *CatDay) error) error {
	return t.CatDaysSplit(province, category, banner, from, from, to, parts, parts, fn)
}

// CatDaysSplit is CatDays over two periods that need different parts:
// the days from 'from' to split-1 decoded as before names, those from
// split to 'to' as after names, in one scan (each category and banner
// sought once, rather than once a period).
func (t *Tx) CatDaysSplit(province, category, banner string, from, split, to int32, before, after CatParts, fn func(k *CatDayKey, c *CatDay) error) error {
	prefix := append([]byte(nil), province...)
	if category != "" {
		prefix = appendStr0(prefix, category)
	}
	var (
		k        CatDayKey
		c        CatDay
		prevSKUs []SKUDay
		prevNums []SKUNum
		seek     = make([]byte, 0, 64)
		cur      []byte
	)
	cursor := t.catDays().Cursor()
	for key, v := cursor.Seek(prefix); hasPrefix(key, prefix); {
		if len(key) < 8 {
			return errCorrupt
		}
		gp := key[:len(key)-4] // province category 0x00 banner 0x00
		day := int32(binary.BigEndian.Uint32(key[len(key)-4:]))
		if !bytes.Equal(gp, cur) {
			cat, rest, ok := bytes.Cut(gp[2:], []byte{0})
			if !ok || len(rest) == 0 || rest[len(rest)-1] != 0 {
				return errCorrupt
			}
			b := rest[:len(rest)-1]
			if banner != "" && string(b) != banner {
				key, v = cursor.Seek(append(append(seek[:0], gp...), 0xff, 0xff, 0xff, 0xff))
				continue
			}
			cur = append(cur[:0], gp...)
			k = CatDayKey{Province: t.names.get(key[:2]), Category: t.names.get(cat), Banner: t.names.get(b)}
			// Another category's list numbers its SKUs.
			c.SKUNums = c.SKUNums[:0]
		}
		switch {
		case day < from:
			key, v = cursor.Seek(appendDay(append(seek[:0], gp...), from))
			continue
		case day > to:
			key, v = cursor.Seek(append(append(seek[:0], gp...), 0xff, 0xff, 0xff, 0xff))
			continue
		}
		// The day read before keeps its SKU strings (and of a format 4
		// day their numbers) for this one to reuse.
		c.SKUs, prevSKUs = prevSKUs, c.SKUs
		c.SKUNums, prevNums = prevNums, c.SKUNums
		parts := after
		if day < split {
			parts = before
		}
		if err := t.decodeCatDay(gp, v, &c, parts, prevSKUs, prevNums); err != nil {
			return err
		}
		k.Day = day
		if err := fn(&k, &c); err != nil {
			return stopped(err)
		}
		key, v = cursor.Next()
	}
	return nil
}

// Shelf is a banner SKU's presence in a province's panel.
type Shelf struct {
	Banner, SKU     string
	GTIN, Category  string // as linked when last written; "" when none
	First, Last     int32  // first and last observation day
	FirstPrice      uint32 // median price on the first day, cents
	FirstStores     uint32 // stores that observed it on the first day
	LastPrice       uint32 // median price on the last day, cents
	LastRegular     uint32 // most common regular price on the last day, cents
	LastPromoStores uint32 // stores that observed it on promotion on the last day
	// RegularSince is the first day of the run of observation days,
	// ending on the last, whose most common regular price is LastRegular,
	// and PrevRegular the most common regular price of the observation
	// day before it; both 0 when the series never had another.
	RegularSince int32
	PrevRegular  uint32
	// Min30 is the lowest median price of the observation days in the 30
	// days before the last (Last-30 to Last-1), cents; 0 when none.
	Min30 uint32
}

func shelfKey(province, banner, sku string) []byte {
	b := make([]byte, 0, 3+len(banner)+len(sku))
	return append(appendStr0(append(b, province...), banner), sku...)
}

// Shelf reads a banner SKU's presence in a province.
func (t *Tx) Shelf(province, banner, sku string, s *Shelf) (bool, error) {
	v := t.get(idShelf, shelfKey(province, banner, sku))
	if v == nil {
		return false, nil
	}
	return true, t.decodeShelf(banner, sku, v, s)
}

func (t *Tx) decodeShelf(banner, sku string, v []byte, s *Shelf) error {
	d := dec{b: v, tx: t}
	*s = Shelf{Banner: banner, SKU: sku}
	gtin, category := decodeShelfHead(&d, &s.First, &s.Last)
	s.GTIN, s.Category = t.text(gtin), t.names.get(category)
	s.FirstPrice, s.FirstStores = d.u32(), d.u32()
	s.LastPrice, s.LastRegular, s.LastPromoStores = d.u32(), d.u32(), d.u32()
	if since := int32(d.uvarint()); since > 0 {
		s.RegularSince = s.Last - since + 1
	}
	s.PrevRegular, s.Min30 = d.u32(), d.u32()
	return d.err
}

// decodeShelfHead decodes what a shelf value starts with: its barcode
// and category (views of the value) and its first and last day.
func decodeShelfHead(d *dec, first, last *int32) (gtin, category []byte) {
	gtin, category = d.raw(), d.raw()
	*first = int32(d.varint())
	*last = *first + int32(d.varint())
	return gtin, category
}

// shelfPrefix is the key prefix of a province's shelf, of one banner
// when banner is not "".
func shelfPrefix(province, banner string) []byte {
	if banner == "" {
		return []byte(province)
	}
	return appendStr0([]byte(province), banner)
}

// PutShelf writes a banner SKU's presence in a province.
func (t *Tx) PutShelf(province string, s *Shelf) error {
	v := enc(make([]byte, 0, 48)).str(s.GTIN).str(s.Category).varint(int64(s.First)).varint(int64(s.Last - s.First)).
		uvarint(uint64(s.FirstPrice)).uvarint(uint64(s.FirstStores)).
		uvarint(uint64(s.LastPrice)).uvarint(uint64(s.LastRegular)).uvarint(uint64(s.LastPromoStores))
	since := uint64(0)
	if s.RegularSince != 0 {
		since = uint64(s.Last-s.RegularSince) + 1
	}
	v = v.uvarint(since).uvarint(uint64(s.PrevRegular)).uvarint(uint64(s.Min30))
	return t.put(t.shelf(), shelfKey(province, s.Banner, s.SKU), v)
}

// ShelfIn calls fn for each banner SKU observed in province, of one
// banner when banner is not "", by banner and SKU. fn may keep s only
// until it returns; it stops the scan by returning ErrStop.
func (t *Tx) ShelfIn(province, banner string, fn func(s *Shelf) error) error {
	prefix := shelfPrefix(province, banner)
	var (
		s    Shelf
		name string // of the banner, whose records come together
	)
	c := t.shelf().Cursor()
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		b, sku, ok := bytes.Cut(k[2:], []byte{0})
		if !ok {
			return errCorrupt
		}
		if name != string(b) {
			name = t.names.get(b)
		}
		if err := t.decodeShelf(name, t.text(sku), v, &s); err != nil {
			return err
		}
		if err := fn(&s); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// ShelfSpans calls fn for each banner SKU observed in province, of one
// banner when banner is not "", by banner and SKU, with what ShelfIn
// gives of its barcode ("" when none), its category and its first and
// last observation day, decoding nothing more. gtin and category are
// valid only until fn returns; it stops the scan by returning ErrStop.
func (t *Tx) ShelfSpans(province, banner string, fn func(gtin, category []byte, first, last int32) error) error {
	prefix := shelfPrefix(province, banner)
	c := t.shelf().Cursor()
	var first, last int32
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		d := dec{b: v}
		gtin, category := decodeShelfHead(&d, &first, &last)
		if d.err != nil {
			return d.err
		}
		if err := fn(gtin, category, first, last); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// ShelfFirsts calls fn for each banner SKU observed in province, by
// banner and SKU, with its banner, its barcode ("" when none), its first
// observation day and its median price that day, decoding nothing more.
// banner and gtin are valid only until fn returns; it stops the scan by
// returning ErrStop.
func (t *Tx) ShelfFirsts(province string, fn func(banner, gtin []byte, first int32, firstPrice uint32) error) error {
	prefix := shelfPrefix(province, "")
	c := t.shelf().Cursor()
	var first, last int32
	for k, v := c.Seek(prefix); hasPrefix(k, prefix); k, v = c.Next() {
		banner, _, ok := bytes.Cut(k[len(prefix):], []byte{0})
		if !ok {
			return errCorrupt
		}
		d := dec{b: v}
		gtin, _ := decodeShelfHead(&d, &first, &last)
		price := d.u32()
		if d.err != nil {
			return d.err
		}
		if err := fn(banner, gtin, first, price); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// Promo is one promotion event: a banner SKU observed on promotion in a
// province on consecutive observation days.
type Promo struct {
	Banner, SKU, Province string
	Start, End            int32  // first and last day observed on promotion
	Regular, Price        uint32 // most common regular and promotional price, cents
	Stores                uint32 // distinct stores that observed it on promotion
	Days                  uint32 // observation days within the event
	// Charged is the last day in the 30 days before Start on which a
	// reference store charged Regular off promotion (on a day no store saw
	// the SKU on promotion), 0 when none; Before is the most common price
	// of the last such day at any price, 0 when there was none in those
	// 30 days.
	Charged int32
	Before  uint32
}

func promoKey(p *Promo) []byte {
	return appendDay(seriesPrefix(p.Banner, p.SKU, p.Province), p.Start)
}

func promoDateKey(p *Promo) []byte {
	b := make([]byte, 0, 7+len(p.Banner)+len(p.SKU))
	return append(appendStr0(appendDay(append(b, p.Province...), p.Start), p.Banner), p.SKU...)
}

func encodePromo(p *Promo) []byte {
	charged := uint64(0)
	if p.Charged != 0 {
		charged = uint64(p.Start-p.Charged) + 1
	}
	return enc(make([]byte, 0, 16)).varint(int64(p.End - p.Start)).uvarint(uint64(p.Regular)).
		uvarint(uint64(p.Price)).uvarint(uint64(p.Stores)).uvarint(uint64(p.Days)).
		uvarint(charged).uvarint(uint64(p.Before))
}

func decodePromo(v []byte, p *Promo) error {
	d := dec{b: v}
	p.End = p.Start + int32(d.varint())
	p.Regular, p.Price, p.Stores, p.Days = d.u32(), d.u32(), d.u32(), d.u32()
	if c := int32(d.uvarint()); c > 0 {
		p.Charged = p.Start - c + 1
	}
	p.Before = d.u32()
	return d.err
}

// PutPromos writes promotion events and their copies by date, each
// bucket in its key order (bbolt appends to a node written in order, and
// moves its tail on every write out of order).
func (t *Tx) PutPromos(ps []Promo) error {
	slices.SortFunc(ps, func(a, b Promo) int { return bytes.Compare(promoKey(&a), promoKey(&b)) })
	for i := range ps {
		if err := t.put(t.promos(), promoKey(&ps[i]), encodePromo(&ps[i])); err != nil {
			return err
		}
	}
	slices.SortFunc(ps, func(a, b Promo) int {
		if c := strings.Compare(a.Province, b.Province); c != 0 {
			return c
		}
		if a.Start != b.Start {
			return cmpU32(uint32(a.Start), uint32(b.Start))
		}
		return bytes.Compare(promoDateKey(&a), promoDateKey(&b))
	})
	for i := range ps {
		if err := t.put(t.promoDates(), promoDateKey(&ps[i]), encodePromo(&ps[i])); err != nil {
			return err
		}
	}
	return nil
}

// DeletePromosFrom removes the promotion events of a series that start on
// or after day.
func (t *Tx) DeletePromosFrom(banner, sku, province string, day int32) error {
	prefix := seriesPrefix(banner, sku, province)
	var dels []Promo
	c := t.promos().Cursor()
	for k, _ := c.Seek(appendDay(prefix[:len(prefix):len(prefix)], day)); hasPrefix(k, prefix) && len(k) == len(prefix)+4; k, _ = c.Next() {
		dels = append(dels, Promo{Banner: banner, SKU: sku, Province: province, Start: int32(binary.BigEndian.Uint32(k[len(prefix):]))})
	}
	for i := range dels {
		if err := t.promos().Delete(promoKey(&dels[i])); err != nil {
			return err
		}
		if err := t.promoDates().Delete(promoDateKey(&dels[i])); err != nil {
			return err
		}
	}
	return nil
}

// LastPromoBefore reads the series' last promotion event that starts on
// or before day.
//
// It reads the series' events forward from its first, never backward
// from day: an import deletes the events it rewrites series by series, in
// key order, within one transaction, and bbolt keeps the leaves it
// empties until the commit. A step back (Prev) passes over every emptied
// leaf before it, and bbolt's Cursor.Last never returns on a bucket
// whose every leaf is empty (an import of 118 million rows hung there).
// A series holds a few dozen events a year.
func (t *Tx) LastPromoBefore(banner, sku, province string, day int32, p *Promo) (bool, error) {
	prefix := seriesPrefix(banner, sku, province)
	hi := appendDay(prefix[:len(prefix):len(prefix)], day)
	c := t.seekCursor(idPromos)
	var last, lastV []byte
	for k, v := c.Seek(prefix); hasPrefix(k, prefix) && bytes.Compare(k, hi) <= 0; k, v = c.Next() {
		if len(k) == len(prefix)+4 {
			last, lastV = k, v
		}
	}
	if last == nil {
		return false, nil
	}
	*p = Promo{Banner: banner, SKU: sku, Province: province, Start: int32(binary.BigEndian.Uint32(last[len(prefix):]))}
	return true, decodePromo(lastV, p)
}

// PromosOf calls fn for each promotion event of a series starting from
// 'from' to 'to' inclusive, by start.
func (t *Tx) PromosOf(banner, sku, province string, from, to int32, fn func(p *Promo) error) error {
	prefix := seriesPrefix(banner, sku, province)
	hi := appendDay(prefix[:len(prefix):len(prefix)], to)
	var p Promo
	c := t.promos().Cursor()
	for k, v := c.Seek(appendDay(prefix[:len(prefix):len(prefix)], from)); hasPrefix(k, prefix) && len(k) == len(prefix)+4 && bytes.Compare(k, hi) <= 0; k, v = c.Next() {
		p = Promo{Banner: banner, SKU: sku, Province: province, Start: int32(binary.BigEndian.Uint32(k[len(prefix):]))}
		if err := decodePromo(v, &p); err != nil {
			return err
		}
		if err := fn(&p); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// PromosIn calls fn for each promotion event of province that starts
// from 'from' to 'to' inclusive, by start, banner and SKU. fn may keep p
// only until it returns; it stops the scan by returning ErrStop.
func (t *Tx) PromosIn(province string, from, to int32, fn func(p *Promo) error) error {
	prefix := []byte(province)
	var p Promo
	c := t.promoDates().Cursor()
	for k, v := c.Seek(appendDay(append([]byte(nil), province...), from)); hasPrefix(k, prefix); k, v = c.Next() {
		if len(k) < 7 {
			return errCorrupt
		}
		start := int32(binary.BigEndian.Uint32(k[2:6]))
		if start > to {
			return nil
		}
		b, sku, ok := bytes.Cut(k[6:], []byte{0})
		if !ok {
			return errCorrupt
		}
		p = Promo{Banner: t.names.get(b), SKU: t.text(sku), Province: t.names.get(k[:2]), Start: start}
		if err := decodePromo(v, &p); err != nil {
			return err
		}
		if err := fn(&p); err != nil {
			return stopped(err)
		}
	}
	return nil
}
