package grocery

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedGTINs: barcodes come back whole and in byte order, whichever
// digits tell them apart; so too barcodes that are not all digits, and
// more barcodes than the places a sort key holds.
func TestSortedGTINs(t *testing.T) {
	in := []string{"00000000000009", "10000000000000", "00000001000000", "00000000100000", "00000000000010", "00000010000000", "00000000000000", "99999999999999"}
	var b []byte
	for _, g := range in {
		b = append(b, g...)
	}
	want := []string{"00000000000000", "00000000000009", "00000000000010", "00000000100000", "00000001000000", "00000010000000", "10000000000000", "99999999999999"}
	if got := sortedGTINs(b); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	odd := []byte("0000000000000A" + "00000000000009" + "000000000000A0")
	if got, want := sortedGTINs(odd), []string{"00000000000009", "0000000000000A", "000000000000A0"}; !slices.Equal(got, want) {
		t.Errorf("not all digits: got %q\nwant %q", got, want)
	}
	var many []byte
	for i := 1<<17 + 1; i > 0; i-- { // descending
		many = fmt.Appendf(many, "%014d", i)
	}
	got := sortedGTINs(many)
	if len(got) != 1<<17+1 || got[0] != "00000000000001" || got[1<<17] != "00000000131073" || !slices.IsSorted(got) {
		t.Errorf("2^17+1 barcodes: got %d, first %q, last %q, sorted %v", len(got), got[0], got[len(got)-1], slices.IsSorted(got))
	}
	if got := sortedGTINs(nil); len(got) != 0 {
		t.Errorf("none: got %q", got)
	}
}

// BenchmarkSortedGTINs sorts a category's 5,000 barcodes, in 50 runs
// (the kinds index's order: by type, then barcode), as sortedGTINs does
// and as strings.
func BenchmarkSortedGTINs(b *testing.B) {
	var in []byte
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		var run []string
		for range 100 {
			run = append(run, fmt.Sprintf("%014d", r.Int64N(1e13)))
		}
		slices.Sort(run)
		for _, g := range run {
			in = append(in, g...)
		}
	}
	b.Run("numbers", func(b *testing.B) {
		for b.Loop() {
			sortedGTINs(in)
		}
	})
	b.Run("strings", func(b *testing.B) {
		for b.Loop() {
			gtins := make([]string, 0, len(in)/14)
			for i := 0; i < len(in); i += 14 {
				gtins = append(gtins, string(in[i:i+14]))
			}
			slices.Sort(gtins)
		}
	})
}
