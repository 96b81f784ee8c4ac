package unitprice

import "testing"

func TestOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		size  string
		qty   float64
		basis string
	}{
		{"675 g", 6.75, "per 100 g"},
		{"1 kg", 10, "per 100 g"},
		{"2 L", 20, "per 100 mL"},
		{"500ml", 5, "per 100 mL"},
		{"12 x 355 mL", 42.6, "per 100 mL"},
		{"6 × 100 g", 6, "per 100 g"},
		{"24 rolls", 24, "per unit"},
		{"12 eggs", 12, "per unit"},
		{"1,5 L", 15, "per 100 mL"},
		{"30 bags", 30, "per unit"},
		{"72 tea bags", 72, "per unit"},
		{"20 Tea Bags", 20, "per unit"},
		{"36 pads", 36, "per unit"},
		{"32 tampons", 32, "per unit"},
		{"2 cartridges", 2, "per unit"},
		{"3 boxes", 3, "per unit"},
		{"8 AA batteries", 8, "per unit"},
		{"12 large eggs", 12, "per unit"},
		{"1 pouch", 1, "per unit"},
		{"2 x 6 cans", 12, "per unit"},
		{"500 g bag", 0, ""},
		{"6 large", 0, ""},
		{"family size", 0, ""},
		{"", 0, ""},
		{"x 3 g", 0, ""},
		// ParseFloat reads these, but they are no quantity.
		{"inf ml", 0, ""},
		{"nan g", 0, ""},
		{"Infinity x 355 mL", 0, ""},
		{"2 x 1e308 g", 0, ""},
	} {
		qty, basis := Of(tc.size)
		if basis != tc.basis || qty < tc.qty-1e-9 || qty > tc.qty+1e-9 {
			t.Fatalf("Of(%q): got %v %q, want %v %q", tc.size, qty, basis, tc.qty, tc.basis)
		}
	}
}

// TestCodeName: the bases number 1 to 3 and name back; anything else is
// no basis.
func TestCodeName(t *testing.T) {
	t.Parallel()
	for _, basis := range []string{"per 100 g", "per 100 mL", "per unit"} {
		c := Code(basis)
		if c == 0 || Name(c) != basis {
			t.Errorf("Name(Code(%q)) = Name(%d) = %q, want %q", basis, c, Name(c), basis)
		}
	}
	if c := Code("per kg"); c != 0 {
		t.Errorf("Code(per kg) = %d, want 0", c)
	}
	for _, c := range []uint32{0, 4, 1 << 31} {
		if n := Name(c); n != "" {
			t.Errorf("Name(%d) = %q, want \"\"", c, n)
		}
	}
}
