package opaqueid

import (
	"bytes"
	"math/bits"
	"testing"
)

func codec(t testing.TB, fill byte) *Codec {
	c, err := New(bytes.Repeat([]byte{fill}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Decode inverts Encode, and consecutive numbers give unrelated ids: no
// two of the first 10,000 ids share their high 32 bits, and on average
// half the bits of neighbours' ids differ.
func TestRoundTripAndSpread(t *testing.T) {
	c := codec(t, 7)
	high := map[uint32]uint64{}
	flipped := 0
	prev := c.Encode(0)
	const n = 10000
	for i := uint64(1); i <= n; i++ {
		v := c.Encode(i)
		if got := c.Decode(v); got != i {
			t.Fatalf("Decode(Encode(%d)) = %d", i, got)
		}
		if j, ok := high[uint32(v>>32)]; ok {
			t.Fatalf("ids of %d and %d share their high half: %x", j, i, v)
		}
		high[uint32(v>>32)] = i
		flipped += bits.OnesCount64(v ^ prev)
		prev = v
	}
	if avg := float64(flipped) / n; avg < 30 || avg > 34 {
		t.Errorf("neighbours' ids differ in %.1f bits on average, want about 32", avg)
	}
	for _, v := range []uint64{0, 1<<64 - 1, 1 << 63} {
		if got := c.Decode(c.Encode(v)); got != v {
			t.Errorf("Decode(Encode(%d)) = %d", v, got)
		}
	}
}

// Another key gives other ids; a key of the wrong size is refused.
func TestKey(t *testing.T) {
	a, b := codec(t, 1), codec(t, 2)
	if a.Encode(1) == b.Encode(1) {
		t.Errorf("two keys give the same id %x for 1", a.Encode(1))
	}
	if _, err := New(make([]byte, 16)); err == nil {
		t.Error("New took a 16-byte key")
	}
}

func TestFormatParse(t *testing.T) {
	for _, v := range []uint64{0, 1, 0xdeadbeef, 1<<64 - 1} {
		s := Format(v)
		if len(s) != 16 {
			t.Errorf("Format(%d) = %q, want 16 digits", v, s)
		}
		if got, ok := Parse(s); !ok || got != v {
			t.Errorf("Parse(%q) = %d, %v", s, got, ok)
		}
	}
	if got, ok := Parse("00000000DEADBEEF"); !ok || got != 0xdeadbeef {
		t.Errorf("Parse of upper case = %x, %v", got, ok)
	}
	for _, s := range []string{"", "1", "000000000000000g", "00000000000000001", "+000000000000001", " 00000000000001"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) took it", s)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	c := codec(b, 3)
	var x uint64
	for i := uint64(0); b.Loop(); i++ {
		x ^= c.Encode(i)
	}
	_ = x
}
