// Package search finds what the searches return: the products of a
// province's token index that match every word of a query (Match), and
// the active stores of a province nearest a postal area (Nearest). It
// reads the index and the stores storage keeps; which products and stores
// a caller may see, and how they are answered, is grocery's.
package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/pricestat"
	"github.com/grocerydata/grocery/storage"
)

// Hit is a product that matched every word of a query: a barcode's
// product (GTIN), or a banner SKU sold under no barcode (MatchAll only;
// BannerSKU tells).
type Hit struct {
	// GTIN is the product's barcode; a banner SKU's hit has skuMark first,
	// then its index in MatchAll's refs (big-endian), so that a hit stays
	// this small and SKU hits sort after barcodes, by their references.
	GTIN   [14]byte
	mask   uint8   // which query words matched
	best   [8]int8 // per query word, the best match score
	weight byte    // number of distinct words in name and brand
	score  int8    // the sum of best, once every word is matched
}

// skuMark begins the GTIN of a banner SKU's hit: never a digit.
const skuMark = 0xff

// BannerSKU returns the banner and SKU of a hit that is a banner SKU sold
// under no barcode, refs being MatchAll's; ok is false for a barcode's
// product.
func (h *Hit) BannerSKU(refs []string) (banner, sku string, ok bool) {
	if h.GTIN[0] != skuMark {
		return "", "", false
	}
	return storage.ParseSKURef([]byte(refs[binary.BigEndian.Uint32(h.GTIN[1:5])]))
}

// Score is the sum over the query words of their best match: 3 for a
// whole word, 1 for a prefix, one more in the name than in the brand.
func (h *Hit) Score() int { return int(h.score) }

// Match ranks the barcodes' products of a province's index that match
// every word: an exact word beats a prefix, a name word beats a brand
// word, and among equals fewer words in the product (a closer match) come
// first. words are folded search tokens, at most 8 (the caller refuses
// more): Match panics with more.
func Match(tx *storage.Tx, province string, words []string) ([]Hit, error) {
	hits, _, err := match(tx, province, words, false, nil)
	Rank(hits, len(hits))
	return hits, err
}

// MatchAll is Match with the banner SKUs sold under no barcode among the
// hits, ranked with the products by the same rule (a barcode's product
// before a banner SKU on equal rank, banner SKUs by banner and SKU); refs
// are their references, which Hit.BannerSKU reads.
func MatchAll(tx *storage.Tx, province string, words []string) (hits []Hit, refs []string, err error) {
	hits, refs, err = match(tx, province, words, true, nil)
	Rank(hits, len(hits))
	return hits, refs, err
}

// Candidates returns MatchAll's hits unranked, for a caller that keeps
// some of them and ranks only those (Rank): a search that pages through
// hundreds of products need not sort them all. The hits are in buf's
// memory, valid until its next use; a nil buf allocates theirs.
func Candidates(tx *storage.Tx, province string, words []string, buf *Buffer) (hits []Hit, refs []string, err error) {
	return match(tx, province, words, true, buf)
}

// Buffer is the memory of a match, for a caller that makes many to reuse
// (a server, from a sync.Pool): a word such as "cheese" makes a thousand
// hits, which would otherwise be allocated twice over at every search.
// Its two slices never share an array: byGTIN merges from one into the
// other.
type Buffer struct {
	hits, merged []Hit
}

// maxBuffer is the most hits a Buffer's slice keeps room for between
// matches: one that grew past it (a first word of more index rows) is
// left to the collector.
const maxBuffer = 1 << 14

// Rank orders hits so that the first n are the best n, in Match's rank
// order; the order of the rest is unspecified. It sorts them all only
// when n is a large part of them, else it keeps the best n sorted as it
// passes over the rest.
func Rank(hits []Hit, n int) {
	n = min(n, len(hits))
	if n <= 0 {
		return
	}
	if n > len(hits)/8 {
		slices.SortFunc(hits, compareHits)
		return
	}
	best := hits[:n]
	slices.SortFunc(best, compareHits)
	for i := n; i < len(hits); i++ {
		h := hits[i]
		if compareHits(h, best[n-1]) >= 0 {
			continue
		}
		j, _ := slices.BinarySearchFunc(best, h, compareHits)
		hits[i] = best[n-1]
		copy(best[j+1:], best[j:n-1])
		best[j] = h
	}
}

// compareHits orders hits by rank: the higher score first, then the
// fewer words, then the barcode (a banner SKU's hit after the barcodes,
// by its reference). No two hits are equal.
func compareHits(a, b Hit) int {
	return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.weight, b.weight), bytes.Compare(a.GTIN[:], b.GTIN[:]))
}

func match(tx *storage.Tx, province string, words []string, withSKUs bool, buf *Buffer) ([]Hit, []string, error) {
	if buf == nil {
		buf = &Buffer{}
	}
	m := &matcher{withSKUs: withSKUs, all: buf.hits[:0], merged: buf.merged}
	defer func() {
		// m.all and m.merged are the buffer's two arrays, or new ones grown
		// from them: kept apart, each only while not too big.
		buf.hits, buf.merged = nil, nil
		if cap(m.all) <= maxBuffer {
			buf.hits = m.all
		}
		if cap(m.merged) <= maxBuffer {
			buf.merged = m.merged
		}
	}()
	for wi, w := range words {
		m.word, m.bit, m.wordLen, m.matched, m.skuNext = wi, uint8(1)<<wi, len(w), false, nil
		if err := tx.Tokens(province, w, m.token); err != nil {
			return nil, nil, err
		}
		if wi == 0 {
			m.all, m.merged = byGTIN(m.all, m.merged)
			m.matched = len(m.all) > 0
		}
		m.skuCands = m.skuNext
		if !m.matched && len(m.skuCands) == 0 {
			return nil, nil, nil
		}
	}
	hits, refs := m.hits(uint8(1)<<len(words) - 1)
	return hits, refs, nil
}

// matcher keeps the candidates of a match, word by word. The first word
// makes the barcodes' candidates, a hit for each of its tokens' rows,
// then one a barcode in barcode order (byGTIN); a later word's rows find
// theirs by galloping through them (find), and take only those that
// matched every word before.
type matcher struct {
	withSKUs bool
	all      []Hit           // the barcodes' candidates
	merged   []Hit           // spare memory for all
	skuCands map[string]*Hit // the banner SKUs', made at the first word
	// The word being matched: its index, bit and length, whether a
	// barcode matched it and every word before, and the banner SKUs.
	word    int
	bit     uint8
	wordLen int
	matched bool
	skuNext map[string]*Hit
	// The barcode find looked for last and the index of the first
	// candidate not below it: every candidate before at is below prev.
	prev [14]byte
	at   int
}

// token takes one token of the index that the word prefixes.
func (m *matcher) token(token, ref []byte, flags, weight byte) error {
	score := int8(1)
	if len(token) == m.wordLen {
		score = 3
	}
	if flags&storage.TokenInName != 0 {
		score++
	}
	if len(ref) != 14 || ref[0] > '9' {
		if m.withSKUs {
			m.skuToken(ref, weight, score)
		}
		return nil
	}
	if m.word == 0 {
		h := Hit{GTIN: [14]byte(ref), weight: weight, mask: m.bit}
		h.best[0] = score
		m.all = append(m.all, h)
		return nil
	}
	g := [14]byte(ref)
	i := m.find(&g)
	before := m.bit - 1 // the words before's bits
	if i == len(m.all) || m.all[i].GTIN != g || m.all[i].mask&before != before {
		return nil
	}
	h := &m.all[i]
	m.matched = true
	h.mask |= m.bit
	h.best[m.word] = max(h.best[m.word], score)
	return nil
}

// find returns the index of the first candidate whose barcode is not
// below g. A token's rows come in ascending barcode order, so while they
// ascend it gallops forward from the row before's place: a row costs a
// few comparisons (about log2 of how many candidates it passes), not a
// binary search of them all.
func (m *matcher) find(g *[14]byte) int {
	lo := 0
	if bytes.Compare(g[:], m.prev[:]) > 0 {
		lo = m.at
	}
	m.prev = *g
	hi, step := lo, 1
	for hi < len(m.all) && bytes.Compare(m.all[hi].GTIN[:], g[:]) < 0 {
		lo, hi = hi+1, hi+step
		step *= 2
	}
	hi = min(hi, len(m.all))
	for lo < hi { // the first in [lo, hi] not below g; hi is, or is the end
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(m.all[mid].GTIN[:], g[:]) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	m.at = lo
	return lo
}

// byGTIN returns the first word's hits in barcode order, one a barcode.
// They come in runs of ascending barcodes, one a token the word
// prefixes, which it merges two by two: a barcode in several runs keeps
// the first's weight and the best score of its rows. It merges into buf's
// memory and the hits' own, and returns the other as spare.
func byGTIN(hits, buf []Hit) (sorted, spare []Hit) {
	starts := []int{0} // where each run begins
	for i := 1; i < len(hits); i++ {
		if bytes.Compare(hits[i-1].GTIN[:], hits[i].GTIN[:]) >= 0 {
			starts = append(starts, i)
		}
	}
	if len(hits) == 0 || len(starts) == 1 {
		return hits, buf
	}
	buf = slices.Grow(buf[:0], len(hits))
	for len(starts) > 1 {
		run := func(r int) []Hit {
			if r+1 < len(starts) {
				return hits[starts[r]:starts[r+1]]
			}
			return hits[starts[r]:]
		}
		merged, next := buf[:0], []int(nil)
		for r := 0; r < len(starts); r += 2 {
			next = append(next, len(merged))
			if r+1 == len(starts) {
				merged = append(merged, run(r)...)
				continue
			}
			merged = mergeHits(merged, run(r), run(r+1))
		}
		hits, buf, starts = merged, hits, next
	}
	return hits, buf
}

// mergeHits appends to dst the hits of a and b, each in ascending barcode
// order, in that order, a barcode of both once: a's, with the better
// score.
func mergeHits(dst, a, b []Hit) []Hit {
	for len(a) > 0 && len(b) > 0 {
		switch c := bytes.Compare(a[0].GTIN[:], b[0].GTIN[:]); {
		case c < 0:
			dst, a = append(dst, a[0]), a[1:]
		case c > 0:
			dst, b = append(dst, b[0]), b[1:]
		default:
			h := a[0]
			h.best[0] = max(h.best[0], b[0].best[0])
			dst, a, b = append(dst, h), a[1:], b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// skuToken takes a token of a banner SKU sold under no barcode.
func (m *matcher) skuToken(ref []byte, weight byte, score int8) {
	var h *Hit
	if m.word == 0 {
		if h = m.skuNext[string(ref)]; h == nil {
			h = &Hit{weight: weight}
		}
	} else if h = m.skuCands[string(ref)]; h == nil {
		return
	}
	if m.skuNext == nil {
		m.skuNext = map[string]*Hit{}
	}
	h.mask |= m.bit
	h.best[m.word] = max(h.best[m.word], score)
	m.skuNext[string(ref)] = h
}

// hits returns the candidates that matched every word (mask all),
// unranked, and the banner SKUs' references.
func (m *matcher) hits(all uint8) ([]Hit, []string) {
	hits := m.all[:0] // in place: a candidate that missed a word has not all of mask
	for i := range m.all {
		if m.all[i].mask == all {
			hits = append(hits, m.all[i])
		}
	}
	var refs []string
	for ref, h := range m.skuCands {
		if h.mask == all {
			refs = append(refs, ref)
		}
	}
	slices.Sort(refs) // their hits' GTINs sort as their references
	for i, ref := range refs {
		h := m.skuCands[ref]
		h.GTIN[0] = skuMark
		binary.BigEndian.PutUint32(h.GTIN[1:5], uint32(i))
		hits = append(hits, *h)
	}
	for i := range hits {
		h := &hits[i]
		for _, b := range h.best {
			h.score += b
		}
	}
	return hits, refs
}

// Store is a store taking part in a store search, with its place in the
// order.
type Store struct {
	storage.Store
	InFSA bool    // its postal code is in the FSA asked for
	KM    float64 // distance from the FSA's centre, rounded to 0.1 km
}

// Nearest returns the active stores of province whose banner is in
// banners, in a store search's order: by store_id without a postal code
// (code ""), else the stores of the FSA (the code's first three
// characters, upper case) first, then nearest to the FSA's centre; fsa
// must be those three characters whenever code is not "".
// measured says whether the panel has stores in the FSA itself, so that
// the distances are from the FSA and may be shown; otherwise they order
// the stores from a wider area's centre and are not shown.
func Nearest[V any](tx *storage.Tx, province, code, fsa string, banners map[string]V) (stores []Store, measured bool, err error) {
	// The centre's candidates: sums of positions sharing 3, 2 and 1
	// leading characters of the postal code, and the whole province.
	var sum [4]struct{ lat, lon, n float64 }
	err = tx.ActiveStores(province, "", func(st *storage.Store) error {
		if code != "" {
			pc := strings.ToUpper(strings.ReplaceAll(st.PostalCode, " ", ""))
			for i, n := range [4]int{3, 2, 1, 0} {
				if len(pc) >= n && pc[:n] == fsa[:n] {
					sum[i].lat += st.Latitude
					sum[i].lon += st.Longitude
					sum[i].n++
				}
			}
		}
		if _, ok := banners[st.Banner]; ok {
			stores = append(stores, Store{Store: *st})
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if code == "" {
		// ActiveStores lists them by banner, then id.
		slices.SortFunc(stores, func(a, b Store) int { return strings.Compare(a.ID, b.ID) })
		return stores, false, nil
	}
	var lat, lon float64
	for _, c := range sum {
		if c.n > 0 {
			lat, lon = c.lat/c.n, c.lon/c.n
			break
		}
	}
	for i := range stores {
		st := &stores[i]
		st.InFSA = strings.HasPrefix(strings.ToUpper(st.PostalCode), fsa)
		st.KM = pricestat.Round1(kmBetween(lat, lon, st.Latitude, st.Longitude))
	}
	slices.SortFunc(stores, func(a, b Store) int {
		if a.InFSA != b.InFSA {
			if a.InFSA {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.KM, b.KM), strings.Compare(a.ID, b.ID))
	})
	return stores, sum[0].n > 0, nil
}

// kmBetween is the great-circle (haversine) distance in km between two points.
func kmBetween(lat1, lon1, lat2, lon2 float64) float64 {
	const earthKM = 6371.0
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthKM * math.Asin(math.Min(1, math.Sqrt(a)))
}
