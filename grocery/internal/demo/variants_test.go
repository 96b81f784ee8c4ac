package demo

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSizeVariants(t *testing.T) {
	for _, tc := range []struct {
		size  string
		cents int64
		want  []string // size:cents
	}{
		// 675 g: double 1,350 g (379 x 1.8 = 682.2), 1.5 x 1,012.5 g to
		// the nearest 50 g (379 x 1.41 = 534.39), half 337.5 g to the
		// nearest 10 g (379 x 0.555 = 210.3).
		{"675 g", 379, []string{"1.35 kg:682", "1 kg:534", "340 g:210"}},
		// 4 L: 8 L, 6 L and 2 L.
		{"4 L", 689, []string{"8 L:1240", "6 L:971", "2 L:382"}},
		// 85 g: its half, 42.5 g, is under 50 g and left out; 127.5 g to
		// the nearest 10 g is 130 g (the half-way 12.75 tens round up).
		{"85 g", 199, []string{"170 g:358", "130 g:281"}},
		// Packs of N: doubled, and halved when N is even and at least 4.
		{"6 x 85 g", 449, []string{"12 x 85 g:808", "3 x 85 g:249"}},
		{"12 eggs", 429, []string{"24 eggs:772", "6 eggs:238"}},
		{"3 rolls", 500, []string{"6 rolls:900"}},
		{"each", 100, nil},
	} {
		var got []string
		for _, v := range sizeVariants(productCand{size: tc.size, cents: tc.cents}) {
			got = append(got, v.size+":"+strconv.FormatInt(v.cents, 10))
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("sizeVariants(%q, %d) (-want +got):\n%s", tc.size, tc.cents, diff)
		}
	}
}

func TestProductVariants(t *testing.T) {
	milk := productCand{name: "2% Partly Skimmed Milk", fr: "Lait partiellement écrémé 2 %", size: "4 L", cents: 689, core: true}
	got := productVariants("Dairy & Eggs", milk)
	// Four sizes (4, 8, 6 and 2 L), each plain and lactose free, each of
	// those also organic; the plain 4 L is the item itself.
	if len(got) != 4*2*2-1 {
		t.Errorf("got %d variants of milk, want 15", len(got))
	}
	want := productCand{
		name: "Organic Lactose Free 2% Partly Skimmed Milk",
		fr:   "Lait partiellement écrémé 2 % sans lactose biologique",
		size: "2 L",
		// 2 L: 382; lactose free x 1.15 = 439.3 -> 439; organic x 1.45 = 636.55 -> 637.
		cents: 637,
	}
	found := false
	for _, v := range got {
		if v.core {
			t.Errorf("variant %s %s is a staple, want only the item itself to be one", v.name, v.size)
		}
		if v.name == want.name && v.size == want.size {
			found = true
			if v.fr != want.fr || v.cents != want.cents || v.qual != "Organic Lactose Free" {
				t.Errorf("got %q at %d cents, qualifiers %q; want %q at %d, qualifiers %q", v.fr, v.cents, v.qual, want.fr, want.cents, "Organic Lactose Free")
			}
		}
		if v.name == milk.name && v.qual != "" {
			t.Errorf("the plain milk in %s: got qualifiers %q, want none (another pack size is the same product type)", v.size, v.qual)
		}
	}
	if !found {
		t.Errorf("no %s %s among the variants", want.name, want.size)
	}

	// Qualifiers keep to the goods they fit.
	for _, tc := range []struct {
		cat, name string
		not       []string
	}{
		{"Beverages", "Natural Spring Water", []string{"Organic", "Light", "Zero Sugar"}},
		{"Household", "Multi-Purpose Cleaner", []string{"Organic", "Gluten Free"}},
		{"Pantry", "Whole Wheat Flour", []string{"Gluten Free"}},
		{"Dairy & Eggs", "Large White Eggs", []string{"Lactose Free", "Light"}},
		{"Pet", "Adult Chicken Dry Dog Food", []string{"Organic"}},
	} {
		for _, v := range productVariants(tc.cat, productCand{name: tc.name, size: "1 L", cents: 100}) {
			for _, w := range tc.not {
				if containsAny(v.name, w) {
					t.Errorf("%s: got variant %q, want no %q", tc.name, v.name, w)
				}
			}
		}
	}
}
