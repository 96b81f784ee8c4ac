package storage

import (
	"encoding/binary"
	"testing"
)

// uvarintAt reads what binary.AppendUvarint writes, and refuses a
// truncated or endless value.
func TestUvarintAt(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 1198, 16383, 16384, 1<<32 - 1, 1<<63 + 5, 1<<64 - 1} {
		b := binary.AppendUvarint([]byte{0xAA}, v)
		b = append(b, 0x01)
		got, i := uvarintAt(b, 1)
		if got != v || i != len(b)-1 {
			t.Errorf("uvarintAt(% x, 1) = %d, %d; want %d, %d", b, got, i, v, len(b)-1)
		}
		if _, i := uvarintAt(b[:len(b)-2], 1); v >= 128 && i != -1 {
			t.Errorf("uvarintAt of truncated %d = index %d; want -1", v, i)
		}
	}
	endless := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}
	if _, i := uvarintAt(endless, 0); i != -1 {
		t.Errorf("uvarintAt of 12 continuation bytes = index %d; want -1", i)
	}
	if _, i := uvarintAt([]byte{1}, 1); i != -1 {
		t.Errorf("uvarintAt past the end = index %d; want -1", i)
	}
}

// A product value written before French names were kept ends after its
// first day: it reads with no French name, and a product without one is
// written the same way, byte for byte.
func TestProductNameFr(t *testing.T) {
	old := enc(nil).str("Newcomer Oat Milk").str("Earth's Own").str("1.75 L").str("Dairy & Eggs").varint(20400)
	var p Product
	if err := decodeProduct("00064420000019", dec{b: old}, &p); err != nil {
		t.Fatalf("decode the old value: %v", err)
	}
	want := Product{GTIN: "00064420000019", Name: "Newcomer Oat Milk", Brand: "Earth's Own", Size: "1.75 L", Category: "Dairy & Eggs", FirstSeen: 20400}
	if p != want {
		t.Fatalf("old value: got %+v, want %+v", p, want)
	}
	if got := p.encode(nil); string(got) != string(old) {
		t.Errorf("without a French name: got % x, want the old value % x", got, old)
	}
	p.NameFr = "Lait d'avoine"
	var back Product
	if err := decodeProduct(p.GTIN, dec{b: p.encode(nil)}, &back); err != nil || back != p {
		t.Errorf("with a French name: got %+v (%v), want %+v", back, err, p)
	}
}

// A product type is appended after the French name (an empty one when the
// product has none), so values without a type read as before and a value
// with one reads back whole.
func TestProductType(t *testing.T) {
	for _, p := range []Product{
		{GTIN: "00064420000019", Name: "Oat Milk", Brand: "Earth's Own", Size: "1.75 L", Category: "Dairy & Eggs", Type: "oat milk", FirstSeen: 20400},
		{GTIN: "00064420000019", Name: "Oat Milk", NameFr: "Lait d'avoine", Type: "oat milk", FirstSeen: 20400},
	} {
		var back Product
		if err := decodeProduct(p.GTIN, dec{b: p.encode(nil)}, &back); err != nil || back != p {
			t.Errorf("got %+v (%v), want %+v", back, err, p)
		}
		name, nameFr, _, err := (&Tx{}).productNamesOf(p.encode(nil))
		if err != nil || name != p.Name || nameFr != p.NameFr {
			t.Errorf("names: got %q, %q (%v), want %q, %q", name, nameFr, err, p.Name, p.NameFr)
		}
	}
}
