package search

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/grocerydata/grocery/storage"
)

// TestKMBetween: one degree along the equator or a meridian is 1/360 of a
// great circle of radius 6,371 km (111.195 km); a point is 0 km from
// itself; antipodes are half a great circle apart.
func TestKMBetween(t *testing.T) {
	t.Parallel()
	degree := 2 * math.Pi * 6371 / 360
	for _, c := range []struct {
		lat1, lon1, lat2, lon2, want float64
	}{
		{0, 0, 0, 1, degree},
		{45, -75, 46, -75, degree},
		{43.65, -79.38, 43.65, -79.38, 0},
		{0, 0, 0, 180, math.Pi * 6371},
	} {
		if got := kmBetween(c.lat1, c.lon1, c.lat2, c.lon2); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("kmBetween(%v, %v, %v, %v) = %v, want %v", c.lat1, c.lon1, c.lat2, c.lon2, got, c.want)
		}
	}
}

func gtinHit(n int, score int8, weight byte) Hit {
	return Hit{GTIN: [14]byte([]byte(fmt.Sprintf("%014d", n))), score: score, weight: weight}
}

// TestRank: the higher score first, then the fewer words, then the lower
// barcode; the first n of a partial rank are those of a whole one.
func TestRank(t *testing.T) {
	t.Parallel()
	a, b, c, d, e := gtinHit(3, 6, 3), gtinHit(2, 8, 5), gtinHit(9, 6, 2), gtinHit(1, 6, 3), gtinHit(0, 4, 1)
	hits := []Hit{a, b, c, d, e}
	Rank(hits, len(hits))
	if want := []Hit{b, c, d, a, e}; !slices.Equal(hits, want) {
		t.Errorf("Rank: got %v, want %v", hits, want)
	}

	r := rand.New(rand.NewPCG(1, 2))
	all := make([]Hit, 500)
	for i := range all {
		all[i] = gtinHit(r.IntN(1_000_000)*1000+i, int8(r.IntN(13)), byte(r.IntN(6)))
	}
	// The rank rule, as the test states it.
	want := slices.Clone(all)
	sort.Slice(want, func(i, j int) bool {
		x, y := want[i], want[j]
		if x.score != y.score {
			return x.score > y.score
		}
		if x.weight != y.weight {
			return x.weight < y.weight
		}
		return string(x.GTIN[:]) < string(y.GTIN[:])
	})
	for _, n := range []int{0, 1, 5, 10, 62, 63, 64, 200, 500, 600} {
		got := slices.Clone(all)
		Rank(got, n)
		k := min(n, len(got))
		if !slices.Equal(got[:k], want[:k]) {
			t.Errorf("Rank(500 hits, %d): the first %d differ from a whole sort", n, k)
		}
		rest := slices.Clone(got)
		sort.Slice(rest, func(i, j int) bool { return string(rest[i].GTIN[:]) < string(rest[j].GTIN[:]) })
		byGTIN := slices.Clone(all)
		sort.Slice(byGTIN, func(i, j int) bool { return string(byGTIN[i].GTIN[:]) < string(byGTIN[j].GTIN[:]) })
		if !slices.Equal(rest, byGTIN) {
			t.Errorf("Rank(500 hits, %d): lost or duplicated hits", n)
		}
	}
}

// TestByGTIN: the first word's rows, three tokens' runs of ascending
// barcodes, become one hit a barcode in barcode order; barcode 5, in all
// three runs, keeps the first run's weight (1, not 9) and its best score
// (4); barcode 9 takes the third run's better score (5).
func TestByGTIN(t *testing.T) {
	t.Parallel()
	hit := func(n int, weight byte, score int8) Hit {
		h := Hit{GTIN: [14]byte([]byte(fmt.Sprintf("%014d", n))), weight: weight, mask: 1}
		h.best[0] = score
		return h
	}
	rows := []Hit{
		hit(3, 2, 4), hit(5, 1, 4), hit(9, 3, 4), // "milk"
		hit(1, 1, 2), hit(5, 9, 2), // "milks"
		hit(5, 1, 1), hit(7, 2, 2), hit(9, 3, 5), // "milkshake"
	}
	want := []Hit{hit(1, 1, 2), hit(3, 2, 4), hit(5, 1, 4), hit(7, 2, 2), hit(9, 3, 5)}
	if got, _ := byGTIN(rows, nil); !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	one := []Hit{hit(1, 1, 3), hit(2, 1, 3)}
	if got, _ := byGTIN(slices.Clone(one), nil); !slices.Equal(got, one) {
		t.Errorf("one run: got %v, want it as it is", got)
	}
	if got, _ := byGTIN(nil, nil); len(got) != 0 {
		t.Errorf("none: got %v", got)
	}
}

// TestMatch: a word matches every token it prefixes, and a product under
// several of them is one hit with its best score; a later word keeps only
// the products every word before matched. Four products:
//
//	1  "chip", "chocolate" in its name (2 words)
//	2  "cheddar" in its name (1 word)
//	3  "chips" in its name (2 words)
//	4  "chocolate" its brand, "milk" in its name (3 words)
//
// "ch" prefixes cheddar, chip, chips and chocolate: 1, 2 and 3 score 2
// (a prefix, 1, in the name, +1), 4 scores 1 (a prefix in the brand);
// ranked by score, then fewer words: 2, 1, 3, 4. "ch milk": only 4 has
// milk, a whole word in its name (3 + 1), so 1 + 4 = 5. "ch zzz": none.
func TestMatch(t *testing.T) {
	t.Parallel()
	db := openIndex(t)
	g := func(n int) string { return fmt.Sprintf("%014d", n) }
	err := db.Update(func(tx *storage.Tx) error {
		for _, r := range []struct {
			token         string
			n             int
			flags, weight byte
		}{
			{"chip", 1, storage.TokenInName, 2}, {"chocolate", 1, storage.TokenInName, 2},
			{"cheddar", 2, storage.TokenInName, 1}, {"chips", 3, storage.TokenInName, 2},
			{"chocolate", 4, storage.TokenInBrand, 3}, {"milk", 4, storage.TokenInName, 3},
		} {
			if err := tx.PutToken("ON", r.token, g(r.n), r.flags, r.weight); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		words []string
		want  []string // barcode:score
	}{
		{[]string{"ch"}, []string{g(2) + ":2", g(1) + ":2", g(3) + ":2", g(4) + ":1"}},
		{[]string{"ch", "milk"}, []string{g(4) + ":5"}},
		{[]string{"milk", "ch"}, []string{g(4) + ":5"}},
		{[]string{"ch", "zzz"}, nil},
	} {
		err := db.View(func(tx *storage.Tx) error {
			hits, err := Match(tx, "ON", c.words)
			var got []string
			for _, h := range hits {
				got = append(got, fmt.Sprintf("%s:%d", h.GTIN[:], h.Score()))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%q: got %q, want %q", c.words, got, c.want)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMatchRandom: on 3,000 products, each under a few of twelve tokens
// (some prefixes of others) and one in fifty also under "zebra", every
// query of up to three word prefixes matches exactly the products that
// have, for each word, a token it prefixes, each once, scoring per word
// its best token: 3 for the whole word, 1 for a prefix, one more in the
// name. "c zebra" finds a rare word's rows among many candidates (long
// gallops); "c zz" finds none.
func TestMatchRandom(t *testing.T) {
	t.Parallel()
	db := openIndex(t)
	tokens := []string{"ice", "iced", "icing", "cream", "creamer", "creamy", "cheese", "chees", "milk", "milky", "m", "choc"}
	type row struct {
		token string
		flags byte
	}
	r := rand.New(rand.NewPCG(3, 4))
	products := map[string][]row{}
	err := db.Update(func(tx *storage.Tx) error {
		for n := range 3000 {
			g := fmt.Sprintf("%014d", r.IntN(1_000_000_000))
			if products[g] != nil {
				continue
			}
			picks := r.Perm(len(tokens))[:1+r.IntN(4)]
			if r.IntN(50) == 0 {
				picks = append(picks, -1)
			}
			for _, i := range picks {
				rw := row{"zebra", byte(1 + r.IntN(2))}
				if i >= 0 {
					rw.token = tokens[i]
				}
				products[g] = append(products[g], rw)
				if err := tx.PutToken("ON", rw.token, g, rw.flags, byte(n%7)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range [][]string{{"ice", "cream"}, {"cream", "ice"}, {"c", "m"}, {"m", "c", "i"}, {"crea", "chees"}, {"i", "crea", "milk"}, {"c", "zebra"}, {"c", "zz"}} {
		want := map[string]int{}
		for g, rows := range products {
			total := 0
			for _, w := range q {
				best := 0
				for _, rw := range rows {
					if !strings.HasPrefix(rw.token, w) {
						continue
					}
					s := 1
					if rw.token == w {
						s = 3
					}
					if rw.flags == storage.TokenInName {
						s++
					}
					best = max(best, s)
				}
				if best == 0 {
					total = -1
					break
				}
				total += best
			}
			if total > 0 {
				want[g] = total
			}
		}
		err := db.View(func(tx *storage.Tx) error {
			hits, err := Match(tx, "ON", q)
			if err != nil {
				return err
			}
			got := map[string]int{}
			for _, h := range hits {
				got[string(h.GTIN[:])] = h.Score()
			}
			if len(want) == 0 && !slices.Contains(q, "zz") {
				t.Errorf("%q: no product expected: the test's data do not test it", q)
			}
			if len(got) != len(hits) {
				t.Errorf("%q: %d hits of %d barcodes: a barcode twice", q, len(hits), len(got))
			}
			if !maps.Equal(got, want) {
				t.Errorf("%q: got %d hits, want %d (or their scores differ)", q, len(got), len(want))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMatchBuffer: a Buffer reused across matches gives the answers a
// fresh one does, and its two slices never share an array, whatever
// their room. "a" prefixes two tokens of 7,000 barcodes each, interleaved,
// so its 14,000 rows are merged from one slice into the other; with room
// for 16,384 and 13,500 (either way round), the one too small grows past
// maxBuffer and is let go, and the merge must not leave both slices on
// the other's array (the next merge would read what it overwrites).
func TestMatchBuffer(t *testing.T) {
	t.Parallel()
	db := openIndex(t)
	err := db.Update(func(tx *storage.Tx) error {
		for i := range 7000 {
			if err := tx.PutToken("ON", "aa", fmt.Sprintf("%014d", 2*i), storage.TokenInName, 2); err != nil {
				return err
			}
			if err := tx.PutToken("ON", "ab", fmt.Sprintf("%014d", 2*i+1), storage.TokenInBrand, 3); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	queries := [][]string{{"a"}, {"a"}, {"a", "ab"}, {"a"}}
	err = db.View(func(tx *storage.Tx) error {
		var want [][]Hit
		for _, q := range queries {
			hits, _, err := match(tx, "ON", q, true, nil)
			if err != nil {
				return err
			}
			want = append(want, slices.Clone(hits))
		}
		if len(want[0]) != 14000 || len(want[2]) != 7000 {
			t.Fatalf("a fresh buffer: %d and %d hits, want 14000 and 7000", len(want[0]), len(want[2]))
		}
		for _, room := range [][2]int{{16384, 13500}, {13500, 16384}, {0, 0}} {
			buf := &Buffer{hits: make([]Hit, 0, room[0]), merged: make([]Hit, 0, room[1])}
			for i, q := range queries {
				hits, _, err := match(tx, "ON", q, true, buf)
				if err != nil {
					return err
				}
				if !slices.Equal(hits, want[i]) {
					t.Errorf("room %v, match %d (%q): the hits differ from a fresh buffer's", room, i, q)
				}
				if cap(buf.hits) > 0 && cap(buf.merged) > 0 && unsafe.SliceData(buf.hits) == unsafe.SliceData(buf.merged) {
					t.Fatalf("room %v, after match %d: both slices on one array", room, i)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// openIndex opens a new data file for a test's token index.
func openIndex(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
