package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"
)

// Category blocks: each category's days under a banner in a province
// (a series: the category days of one key prefix) merged over aligned
// blocks of days, so that a read of a period decodes a handful of blocks
// and at most a few days at each end, not every day.
//
//	catblocks  province(2) category 0x00 banner 0x00 level(1) start(4) ->
//	           the CatSpan of the 2^level days from start (a multiple of
//	           2^level), for levels catBlockMin to catBlockMax
//
// A series has a block for each of its complete blocks (whose last day
// is at or before the series' last day) that holds a day, and no other:
// before it commits, the transaction that changes a day rebuilds the
// blocks that hold it and those its new last day completes, and deletes
// those its new last day no longer completes (putCatBlocks). A block is
// the merge of its two halves, down to the days, always in that shape,
// so that a block's sums do not depend on the order in which it was
// built (on one kind of processor: see sameBlock).
const (
	catBlockMin = 2 // blocks of 4 days
	catBlockMax = 9 // to blocks of 512 days
)

// CatSpan is what the category days of a series hold over the days from
// First to Last, merged: a day's own figures, or a block's.
type CatSpan struct {
	First, Last  int32
	Count, Promo uint64 // observations, and those on promotion
	Sum          uint64 // of their prices, cents
	// Days holds a bit for each day of the span, bit i for day First+i,
	// set when a SKU has a daily price that day; Observed, set when the
	// day has an observation (a category day).
	Days, Observed []uint64
	// SKUs are a block's banner SKUs with a daily price in it, by
	// number in Names (as CatDay.SKUNums are numbered); Nums, a day's,
	// as a read with CatLinks gives them (their Num, Link and
	// RegularLink; by SKU), SKUs then empty.
	SKUs  []SKUSpan
	Nums  []SKUNum
	Names []string
	// PriceRuns, UnitRuns and Stores are as CatDay's, over every
	// observation of the span; only a read with levels gives them.
	PriceRuns, UnitRuns []Run
	Stores              []StoreCount
}

// SKUSpan is a banner SKU's daily prices over a span, as a chained index
// reads them (Lookback.Link): its days with a daily price; the links of
// its first such day in the span; the sum of the links of its later
// days; and the sum, over its days, of the index its links chain from
// its first day: exp(sum of its links after its first day, up to that
// day / LinkScale). A day's SKUSpan is its one day: its links, Inner 0,
// Index 1.
type SKUSpan struct {
	Num                 uint32
	Days                uint32
	Link, RegularLink   int32
	Inner, RegularInner int64
	Index, RegularIndex float64
}

// join returns a's span followed by b's, of the same SKU: b's index is
// chained on from the end of a's. The product is rounded before the sum
// (no fused multiply-add), as the Go specification guarantees of an
// explicit conversion.
func join(a, b *SKUSpan) SKUSpan {
	lnP, lnR := a.Inner+int64(b.Link), a.RegularInner+int64(b.RegularLink)
	return SKUSpan{Num: a.Num, Days: a.Days + b.Days, Link: a.Link, RegularLink: a.RegularLink,
		Inner: lnP + b.Inner, RegularInner: lnR + b.RegularInner,
		Index:        a.Index + float64(math.Exp(float64(lnP)/LinkScale)*b.Index),
		RegularIndex: a.RegularIndex + float64(math.Exp(float64(lnR)/LinkScale)*b.RegularIndex)}
}

// CatPeriod is one period of a CatSpans read: the days From to To, and
// whether its spans carry their levels (runs of prices and unit prices,
// and stores).
type CatPeriod struct {
	From, To int32
	Levels   bool
}

// CatSpans calls fn with the category days of province (of one category
// and one banner when given) over each period, in spans: for each
// series (by category, then banner), each period in turn, its spans in
// day order, each within one period; a span is a block of days or a
// day. The periods must be in order and not overlap. k.Day is the span's
// First. fn may keep k and s only until it returns; s.Names is valid for
// the transaction. fn returning ErrStop ends the scan without an error.
// In a write transaction the blocks are first brought up to date with its
// writes.
func (t *Tx) CatSpans(province, category, banner string, periods []CatPeriod, fn func(k *CatDayKey, s *CatSpan) error) error {
	for i, p := range periods {
		if p.From > p.To || i > 0 && p.From <= periods[i-1].To {
			return fmt.Errorf("storage: CatSpans periods out of order: %v", periods)
		}
	}
	if err := t.putCatBlocks(); err != nil {
		return err
	}
	prefix := append([]byte(nil), province...)
	if category != "" {
		prefix = appendStr0(prefix, category)
	}
	r := spanReader{t: t, fn: fn}
	cursor := t.catDays().Cursor()
	for key, _ := cursor.Seek(prefix); hasPrefix(key, prefix); {
		if len(key) < 8 {
			return errCorrupt
		}
		gp := append(r.gp[:0], key[:len(key)-4]...)
		r.gp = gp
		cat, rest, ok := bytes.Cut(gp[2:], []byte{0})
		if !ok || len(rest) == 0 || rest[len(rest)-1] != 0 {
			return errCorrupt
		}
		b := rest[:len(rest)-1]
		first := int32(binary.BigEndian.Uint32(key[len(key)-4:]))
		r.seek = append(append(r.seek[:0], gp...), 0xff, 0xff, 0xff, 0xff)
		next, _ := cursor.Seek(r.seek)
		if banner != "" && string(b) != banner {
			key = next
			continue
		}
		var lastKey []byte
		if next == nil {
			lastKey, _ = cursor.Last()
		} else {
			lastKey, _ = cursor.Prev()
		}
		if len(lastKey) != len(gp)+4 || !bytes.HasPrefix(lastKey, gp) {
			return errCorrupt
		}
		last := int32(binary.BigEndian.Uint32(lastKey[len(gp):]))
		r.k = CatDayKey{Province: t.names.get(gp[:2]), Category: t.names.get(cat), Banner: t.names.get(b)}
		for _, p := range periods {
			from, to := max(p.From, first), min(p.To, last)
			if from > to {
				continue
			}
			r.levels = p.Levels
			const top = int32(1) << catBlockMax
			for s := from &^ (top - 1); s <= to; s += top {
				if err := r.cover(catBlockMax, s, from, to); err != nil {
					return stopped(err)
				}
			}
		}
		key, _ = cursor.Seek(r.seek)
	}
	return nil
}

// spanReader reads one series' spans for CatSpans.
type spanReader struct {
	t      *Tx
	fn     func(k *CatDayKey, s *CatSpan) error
	gp     []byte // the series' key prefix
	levels bool
	k      CatDayKey
	key    []byte
	seek   []byte
	day    CatDay
	span   CatSpan
}

// cover reads the part of the block of level from s that lies in
// from..to: the block itself when it lies within them (to is at most the
// series' last day, so such a block is complete), else its halves, down
// to the days.
func (r *spanReader) cover(level int, s, from, to int32) error {
	e := s + int32(1)<<level - 1
	if e < from || s > to {
		return nil
	}
	if level == 0 {
		found, err := r.t.readDay(r.gp, s, &r.day, &r.span, r.levels)
		if err != nil || !found {
			return err
		}
		return r.emit()
	}
	if level >= catBlockMin && s >= from && e <= to {
		r.key = catBlockKey(r.key[:0], r.gp, level, s)
		v := r.t.get(idCatBlocks, r.key)
		if v == nil {
			return nil // complete and empty
		}
		if err := r.t.decodeCatBlock(r.gp, level, s, v, &r.span, r.levels); err != nil {
			return err
		}
		return r.emit()
	}
	h := int32(1) << (level - 1)
	if err := r.cover(level-1, s, from, to); err != nil {
		return err
	}
	return r.cover(level-1, s+h, from, to)
}

func (r *spanReader) emit() error {
	r.k.Day = r.span.First
	return r.fn(&r.k, &r.span)
}

// readDay reads the category day of series gp on day into s, through c
// (whose slices s then shares): false when there is none.
func (t *Tx) readDay(gp []byte, day int32, c *CatDay, s *CatSpan, levels bool) (bool, error) {
	t.dayKey = appendDay(append(t.dayKey[:0], gp...), day)
	v := t.get(idCatDays, t.dayKey)
	if v == nil {
		return false, nil
	}
	parts := CatSKUs | CatNumbered | CatLinks
	if levels {
		parts = CatRuns | CatNumbered | CatLinks
	}
	if err := t.decodeCatDay(gp, v, c, parts, nil, nil); err != nil {
		return false, err
	}
	s.First, s.Last = day, day
	s.Count, s.Promo, s.Sum = uint64(c.Count), uint64(c.Promo), c.Sum
	s.Days, s.Observed = append(s.Days[:0], 0), append(s.Observed[:0], 1)
	if len(c.SKUNums) > 0 {
		s.Days[0] = 1
	}
	s.SKUs, s.Nums, s.Names = s.SKUs[:0], c.SKUNums, c.Names
	s.PriceRuns, s.UnitRuns, s.Stores = c.PriceRuns, c.UnitRuns, c.Stores
	if !levels {
		s.PriceRuns, s.UnitRuns, s.Stores = nil, nil, nil
	}
	return true, nil
}

func catBlockKey(dst, gp []byte, level int, start int32) []byte {
	return appendDay(append(append(dst, gp...), byte(level)), start)
}

// catBlockKind starts a block's value: the form described at
// encodeCatBlock.
const catBlockKind = 1

// encodeCatBlock encodes s, a block of 2^level days whose SKUs are in
// number order:
//
//	kind, Count, Promo, Sum
//	Days, then Observed: their 64-bit words, each in 8 bytes
//	  (little-endian)
//	SKUs: count, then for each its number less the one before's, Days
//	  × 4 + 1 when its price index moved within the span + 2 when its
//	  regular index did, Link and RegularLink (zigzag), then, when the
//	  price index moved, Inner (zigzag) and Index (8 bytes), and the same
//	  for the regular index; an index that did not move has Inner 0 and
//	  Index its Days
//	PriceRuns and UnitRuns (encodeRunList), Stores (encodeStores)
//
// A read without levels stops after the SKUs.
func encodeCatBlock(s *CatSpan) []byte {
	e := enc(make([]byte, 0, 32+8*len(s.Days)+8*len(s.SKUs)+4*len(s.PriceRuns)+4*len(s.UnitRuns)+3*len(s.Stores))).
		uvarint(catBlockKind).uvarint(s.Count).uvarint(s.Promo).uvarint(s.Sum)
	for _, w := range s.Days {
		e = binary.LittleEndian.AppendUint64(e, w)
	}
	for _, w := range s.Observed {
		e = binary.LittleEndian.AppendUint64(e, w)
	}
	e = e.uvarint(uint64(len(s.SKUs)))
	prev := uint32(0)
	for i := range s.SKUs {
		k := &s.SKUs[i]
		movedP := k.Inner != 0 || k.Index != float64(k.Days)
		movedR := k.RegularInner != 0 || k.RegularIndex != float64(k.Days)
		head := uint64(k.Days) << 2
		if movedP {
			head |= 1
		}
		if movedR {
			head |= 2
		}
		e = e.uvarint(uint64(k.Num - prev)).uvarint(head).uvarint(zigzag(int64(k.Link))).uvarint(zigzag(int64(k.RegularLink)))
		prev = k.Num
		if movedP {
			e = e.uvarint(zigzag(k.Inner)).f64(k.Index)
		}
		if movedR {
			e = e.uvarint(zigzag(k.RegularInner)).f64(k.RegularIndex)
		}
	}
	return encodeStores(encodeRunList(encodeRunList(e, s.PriceRuns), s.UnitRuns), s.Stores)
}

// encodeRunList appends runs to e: their number and the size of their
// bytes, then each run's value, less the one before, and its length less
// one.
func encodeRunList(e enc, runs []Run) enc {
	var buf [512]byte
	body, prev := enc(buf[:0]), uint32(0)
	for _, r := range runs {
		body = body.uvarint(uint64(r.Value - prev)).uvarint(uint64(r.N - 1))
		prev = r.Value
	}
	return append(e.uvarint(uint64(len(runs))).uvarint(uint64(len(body))), body...)
}

// decodeCatBlock decodes v, the block of series gp of level from start,
// into s (its levels only when levels is set).
func (t *Tx) decodeCatBlock(gp []byte, level int, start int32, v []byte, s *CatSpan, levels bool) error {
	dict, err := t.dict(gp)
	if err != nil {
		return err
	}
	d := dec{b: v}
	if d.uvarint() != catBlockKind {
		return errCorrupt
	}
	size := int32(1) << level
	s.First, s.Last = start, start+size-1
	s.Count, s.Promo, s.Sum = d.uvarint(), d.uvarint(), d.uvarint()
	words := int(size+63) / 64
	if d.err != nil || len(d.b) < 16*words || s.Promo > s.Count {
		return errCorrupt
	}
	// The masks hold no day past the block's, a day with a daily price
	// is observed, and at least one day is, at most one an observation.
	s.Days, s.Observed = s.Days[:0], s.Observed[:0]
	for range words {
		s.Days = append(s.Days, binary.LittleEndian.Uint64(d.b))
		d.b = d.b[8:]
	}
	observed, priced := 0, 0
	for i := range words {
		w := binary.LittleEndian.Uint64(d.b)
		d.b = d.b[8:]
		if size < 64 && (w>>size != 0 || s.Days[i]>>size != 0) || s.Days[i]&^w != 0 {
			return errCorrupt
		}
		s.Observed = append(s.Observed, w)
		observed, priced = observed+bits.OnesCount64(w), priced+bits.OnesCount64(s.Days[i])
	}
	if observed == 0 || uint64(observed) > s.Count {
		return errCorrupt
	}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		return errCorrupt
	}
	s.SKUs = slices.Grow(s.SKUs[:0], int(n))
	num, names := uint64(0), uint64(len(dict.skus))
	for i := uint64(0); i < n && d.err == nil; i++ {
		delta, head := d.uvarint(), d.uvarint()
		if delta >= names || (i > 0 && delta == 0) || head>>2 == 0 || head>>2 > uint64(priced) {
			return errCorrupt
		}
		if num += delta; num >= names {
			return errCorrupt
		}
		k := SKUSpan{Num: uint32(num), Days: uint32(head >> 2)}
		k.Link, k.RegularLink = d.link(), d.link()
		k.Index, k.RegularIndex = float64(k.Days), float64(k.Days)
		if head&1 != 0 {
			k.Inner, k.Index = unzigzag(d.uvarint()), d.f64()
		}
		if head&2 != 0 {
			k.RegularInner, k.RegularIndex = unzigzag(d.uvarint()), d.f64()
		}
		// A sum of Days indexes, each a positive number.
		if !(k.Index > 0 && k.RegularIndex > 0) || math.IsInf(k.Index, 0) || math.IsInf(k.RegularIndex, 0) {
			return errCorrupt
		}
		s.SKUs = append(s.SKUs, k)
	}
	s.Nums, s.Names = nil, dict.skus
	s.PriceRuns, s.UnitRuns, s.Stores = s.PriceRuns[:0], s.UnitRuns[:0], s.Stores[:0]
	if d.err != nil || !levels {
		return d.err
	}
	max := uint32(min(s.Count, math.MaxUint32))
	s.PriceRuns = decodeRuns(&d, s.PriceRuns, max)
	s.UnitRuns = decodeRuns(&d, s.UnitRuns, max)
	var total uint64
	s.Stores, total = t.decodeStores(&d, s.Stores)
	if d.err == nil && (len(d.b) != 0 || s.Count > total) {
		return errCorrupt
	}
	return d.err
}

// link reads a zigzag-encoded link, which must fit 32 bits.
func (d *dec) link() int32 {
	v := unzigzag(d.uvarint())
	if v < math.MinInt32 || v > math.MaxInt32 {
		if d.err == nil {
			d.err = errCorrupt
		}
		return 0
	}
	return int32(v)
}

// mergeSpans sets dst to the span from first to last of a followed by b,
// each nil or within it and with its SKUs in number order. dst must be
// neither.
func mergeSpans(dst *CatSpan, first, last int32, a, b *CatSpan) {
	words := (last - first + 64) / 64
	*dst = CatSpan{First: first, Last: last, Days: make([]uint64, words), Observed: make([]uint64, words)}
	var empty CatSpan
	if a == nil {
		a = &empty
	}
	if b == nil {
		b = &empty
	}
	for _, x := range [2]*CatSpan{a, b} {
		dst.Count += x.Count
		dst.Promo += x.Promo
		dst.Sum += x.Sum
		orMask(dst.Days, x.First-first, x.Days)
		orMask(dst.Observed, x.First-first, x.Observed)
	}
	dst.SKUs = mergeBy(a.SKUs, b.SKUs, func(k *SKUSpan) uint32 { return k.Num }, join)
	dst.PriceRuns = mergeRuns(a.PriceRuns, b.PriceRuns)
	dst.UnitRuns = mergeRuns(a.UnitRuns, b.UnitRuns)
	dst.Stores = mergeStores(a.Stores, b.Stores)
}

// orMask sets in dst the bits of mask, shifted by offset.
func orMask(dst []uint64, offset int32, mask []uint64) {
	for i, w := range mask {
		for ; w != 0; w &= w - 1 {
			at := offset + int32(64*i+bits.TrailingZeros64(w))
			dst[at/64] |= 1 << (at % 64)
		}
	}
}

// mergeRuns returns the runs of the multisets a and b together, sorted.
func mergeRuns(a, b []Run) []Run {
	return mergeBy(a, b, func(r *Run) uint32 { return r.Value }, func(x, y *Run) Run { return Run{x.Value, x.N + y.N} })
}

// mergeStores returns the store counts of a and b together, sorted.
func mergeStores(a, b []StoreCount) []StoreCount {
	return mergeBy(a, b, func(s *StoreCount) uint32 { return s.Store }, func(x, y *StoreCount) StoreCount { return StoreCount{x.Store, x.N + y.N} })
}

// mergeBy returns a and b, each sorted by key without repeats, merged in
// key order, the two of a key made one by join (a's first).
func mergeBy[T any](a, b []T, key func(*T) uint32, join func(x, y *T) T) []T {
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && key(&a[i]) < key(&b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || key(&b[j]) < key(&a[i]):
			out = append(out, b[j])
			j++
		default:
			out = append(out, join(&a[i], &b[j]))
			i++
			j++
		}
	}
	return out
}

// ownDay returns a copy of the category day of series gp on day as a span
// with levels, its SKUs in number order: nil when there is none.
func (t *Tx) ownDay(gp []byte, day int32) (*CatSpan, error) {
	var c CatDay
	s := &CatSpan{}
	found, err := t.readDay(gp, day, &c, s, true)
	if err != nil || !found {
		return nil, err
	}
	for _, n := range s.Nums {
		s.SKUs = append(s.SKUs, SKUSpan{Num: n.Num, Days: 1, Link: n.Link, RegularLink: n.RegularLink, Index: 1, RegularIndex: 1})
	}
	slices.SortFunc(s.SKUs, func(a, b SKUSpan) int { return cmpU32(a.Num, b.Num) })
	s.Nums, s.Names = nil, nil
	return s, nil
}

// buildBlock returns the block of level from start of series gp, merged
// from its halves: from the days below catBlockMin, from the stored
// halves at it and above (which must be up to date); nil when it holds no
// day.
func (t *Tx) buildBlock(gp []byte, level int, start int32) (*CatSpan, error) {
	if level == 0 {
		return t.ownDay(gp, start)
	}
	h := int32(1) << (level - 1)
	var halves [2]*CatSpan
	for i := range halves {
		s := start + int32(i)*h
		var err error
		if level-1 >= catBlockMin {
			halves[i], err = t.storedBlock(gp, level-1, s)
		} else {
			halves[i], err = t.buildBlock(gp, level-1, s)
		}
		if err != nil {
			return nil, err
		}
	}
	if halves[0] == nil && halves[1] == nil {
		return nil, nil
	}
	out := &CatSpan{}
	mergeSpans(out, start, start+2*h-1, halves[0], halves[1])
	return out, nil
}

// storedBlock returns a copy of the stored block of level from start of
// series gp, nil when there is none.
func (t *Tx) storedBlock(gp []byte, level int, start int32) (*CatSpan, error) {
	v := t.get(idCatBlocks, catBlockKey(nil, gp, level, start))
	if v == nil {
		return nil, nil
	}
	s := &CatSpan{}
	if err := t.decodeCatBlock(gp, level, start, v, s, true); err != nil {
		return nil, err
	}
	s.Names = nil
	return s, nil
}

// catTouch is what a write transaction changed of a series' days: the
// series' last day before its first change (-1 when it had none), and
// the days it changed.
type catTouch struct {
	last int32
	days []int32
}

// touchCatDay notes that the transaction changes the day of series gp,
// for putCatBlocks.
func (t *Tx) touchCatDay(gp []byte, day int32) error {
	tc := t.catTouched[string(gp)]
	if tc == nil {
		if t.catTouched == nil {
			t.catTouched = map[string]*catTouch{}
		}
		_, last, ok, err := t.seriesDays(gp)
		if err != nil {
			return err
		}
		if !ok {
			last = -1
		}
		tc = &catTouch{last: last}
		t.catTouched[string(gp)] = tc
	}
	if n := len(tc.days); n == 0 || tc.days[n-1] != day {
		tc.days = append(tc.days, day)
	}
	return nil
}

// seriesDays returns the first and last day of series gp; ok is false
// when it has none.
func (t *Tx) seriesDays(gp []byte) (first, last int32, ok bool, err error) {
	c := t.catDays().Cursor()
	k, _ := c.Seek(gp)
	if !hasPrefix(k, gp) {
		return 0, 0, false, nil
	}
	if len(k) != len(gp)+4 {
		return 0, 0, false, errCorrupt
	}
	first = int32(binary.BigEndian.Uint32(k[len(gp):]))
	if k, _ = c.Seek(append(bytes.Clone(gp), 0xff, 0xff, 0xff, 0xff)); k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if len(k) != len(gp)+4 || !bytes.HasPrefix(k, gp) {
		return 0, 0, false, errCorrupt
	}
	return first, int32(binary.BigEndian.Uint32(k[len(gp):])), true, nil
}

// putCatBlocks brings the blocks of the series the transaction changed
// up to date: for each level in turn, the blocks holding a changed day
// and those whose last day the series' new last day reaches are built
// again from their halves (deleted when empty or not complete), and the
// blocks a series' earlier last day completed that its new one does not
// are deleted. DB.Update calls it before committing; a read of the spans
// in a write transaction, before reading.
func (t *Tx) putCatBlocks() error {
	if len(t.catTouched) == 0 {
		return nil
	}
	gps := make([]string, 0, len(t.catTouched))
	for gp := range t.catTouched {
		gps = append(gps, gp)
	}
	slices.Sort(gps)
	for _, g := range gps {
		if err := t.putSeriesBlocks([]byte(g), t.catTouched[g]); err != nil {
			return err
		}
	}
	clear(t.catTouched)
	return nil
}

// putSeriesBlocks brings the blocks of series gp up to date with the
// changes tc notes (putCatBlocks).
func (t *Tx) putSeriesBlocks(gp []byte, tc *catTouch) error {
	first, last, ok, err := t.seriesDays(gp)
	if err != nil {
		return err
	}
	if !ok {
		return t.deleteBlocks(gp)
	}
	var starts []int32
	for level := catBlockMin; level <= catBlockMax; level++ {
		size := int32(1) << level
		for _, s := range tc.blockStarts(starts[:0], size, first, last) {
			var b *CatSpan
			if s+size-1 <= last {
				if b, err = t.buildBlock(gp, level, s); err != nil {
					return err
				}
			}
			if err := t.setBlock(catBlockKey(nil, gp, level, s), b); err != nil {
				return err
			}
		}
	}
	return nil
}

// blockStarts appends to dst, sorted and once each, the first days of
// the blocks of size days to build again or delete in a series now
// from first to last: those holding a changed day, those whose last day
// is after the series' earlier last day and at or before its new one,
// and those holding a day after the new last day and at or before the
// earlier one.
func (tc *catTouch) blockStarts(dst []int32, size, first, last int32) []int32 {
	for _, d := range tc.days {
		dst = append(dst, d&^(size-1))
	}
	for s := max(tc.last+1, first) &^ (size - 1); s+size-1 <= last; s += size {
		dst = append(dst, s)
	}
	for s := (last + 1) &^ (size - 1); s <= tc.last; s += size {
		dst = append(dst, s)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// setBlock writes block b under key, or deletes key when b is nil or
// empty; an unchanged block is left as it is.
func (t *Tx) setBlock(key []byte, b *CatSpan) error {
	old := t.catBlocks().Get(key)
	if b == nil || b.Count == 0 {
		if old == nil {
			return nil
		}
		return t.catBlocks().Delete(key)
	}
	v := encodeCatBlock(b)
	if bytes.Equal(v, old) {
		return nil
	}
	return t.put(t.catBlocks(), key, v)
}

// deleteBlocks deletes every block of series gp.
func (t *Tx) deleteBlocks(gp []byte) error {
	c := t.catBlocks().Cursor()
	for k, _ := c.Seek(gp); hasPrefix(k, gp) && len(k) == len(gp)+5; k, _ = c.Seek(gp) {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// eachSeriesBlock calls fn with every block series gp should have (its
// complete blocks that hold a day), built in one pass over its days from
// first to last: each level's blocks merged from the level below, in
// start order, a level at a time.
func (t *Tx) eachSeriesBlock(gp []byte, first, last int32, fn func(level int, start int32, b *CatSpan) error) error {
	const top = int32(1) << catBlockMax
	origin := first &^ (top - 1)
	below := make([]*CatSpan, last-origin+1) // level 0: by day from origin
	for d := first; d <= last; d++ {
		s, err := t.ownDay(gp, d)
		if err != nil {
			return err
		}
		below[d-origin] = s
	}
	for level := 1; level <= catBlockMax; level++ {
		size := int32(1) << level
		cur := make([]*CatSpan, (len(below))/2)
		for i := range cur {
			start := origin + int32(i)*size
			if start+size-1 > last || below[2*i] == nil && below[2*i+1] == nil {
				continue
			}
			cur[i] = &CatSpan{}
			mergeSpans(cur[i], start, start+size-1, below[2*i], below[2*i+1])
			if level >= catBlockMin && cur[i].Count > 0 { // setBlock's rule
				if err := fn(level, start, cur[i]); err != nil {
					return err
				}
			}
		}
		below = cur
	}
	return nil
}

// eachSeries calls fn with each series' key prefix and its first and last
// day.
func (t *Tx) eachSeries(fn func(gp []byte, first, last int32) error) error {
	c := t.catDays().Cursor()
	var seek []byte
	for k, _ := c.First(); k != nil; {
		if len(k) < 8 {
			return errCorrupt
		}
		gp := bytes.Clone(k[:len(k)-4])
		first := int32(binary.BigEndian.Uint32(k[len(k)-4:]))
		seek = append(append(seek[:0], gp...), 0xff, 0xff, 0xff, 0xff)
		next, _ := c.Seek(seek)
		if next == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		last := int32(binary.BigEndian.Uint32(k[len(k)-4:]))
		if err := fn(gp, first, last); err != nil {
			return err
		}
		k, _ = c.Seek(seek)
	}
	return nil
}

// fillCatBlocks writes every series' blocks anew (an upgrade), in key
// order, so packed into pages as Packed does.
func (t *Tx) fillCatBlocks() error {
	if err := t.clear(idCatBlocks); err != nil {
		return err
	}
	t.catBlocks().FillPercent = 0.9
	clear(t.catTouched)
	return t.eachSeries(func(gp []byte, first, last int32) error {
		return t.eachSeriesBlock(gp, first, last, func(level int, start int32, b *CatSpan) error {
			return t.put(t.catBlocks(), catBlockKey(nil, gp, level, start), encodeCatBlock(b))
		})
	})
}

// checkCatBlocks checks that the stored blocks are exactly those the
// days give: each series' complete blocks that hold a day, each the merge
// of its days. In a write transaction it checks what the transaction
// would commit.
func (t *Tx) checkCatBlocks() error {
	if err := t.putCatBlocks(); err != nil {
		return err
	}
	want := 0
	err := t.eachSeries(func(gp []byte, first, last int32) error {
		return t.eachSeriesBlock(gp, first, last, func(level int, start int32, b *CatSpan) error {
			want++
			key := catBlockKey(nil, gp, level, start)
			switch stored := t.catBlocks().Get(key); {
			case stored == nil:
				return inconsistent("the category block of %s is missing", catBlockName(key))
			case !t.sameBlock(gp, level, start, stored, b):
				return inconsistent("the category block of %s is not the merge of its days", catBlockName(key))
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	n := 0
	c := t.catBlocks().Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	if n != want {
		return inconsistent("%d category blocks stored, where %d complete blocks hold a day", n, want)
	}
	return nil
}

// sameBlock reports whether stored, a block's bytes, holds b: every
// field exactly but the index sums, within a relative 1e-12 of b's. A
// block built on another machine may differ from b in their last bits
// (math.Exp takes a path of the processor's on some).
func (t *Tx) sameBlock(gp []byte, level int, start int32, stored []byte, b *CatSpan) bool {
	want := encodeCatBlock(b)
	if bytes.Equal(stored, want) {
		return true
	}
	var s CatSpan
	if t.decodeCatBlock(gp, level, start, stored, &s, true) != nil || len(s.SKUs) != len(b.SKUs) {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Abs(y) }
	for i := range s.SKUs {
		k, w := &s.SKUs[i], &b.SKUs[i]
		if !near(k.Index, w.Index) || !near(k.RegularIndex, w.RegularIndex) {
			return false
		}
		k.Index, k.RegularIndex = w.Index, w.RegularIndex
	}
	return bytes.Equal(encodeCatBlock(&s), want)
}

// catBlockName names a block's key for an error: its series, first day
// and length.
func catBlockName(key []byte) string {
	if len(key) < 9 {
		return fmt.Sprintf("%q", key)
	}
	cat, banner, _ := strings.Cut(string(key[2:len(key)-6]), "\x00")
	start := int32(binary.BigEndian.Uint32(key[len(key)-4:]))
	return fmt.Sprintf("%s %q %q, the %d days from %s", key[:2], cat, banner, 1<<min(key[len(key)-5], 30),
		time.Unix(int64(start)*86400, 0).UTC().Format(time.DateOnly))
}
