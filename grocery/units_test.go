package grocery

import "testing"

func TestUnitOf(t *testing.T) {
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
	} {
		qty, basis := unitOf(tc.size)
		if basis != tc.basis || qty < tc.qty-1e-9 || qty > tc.qty+1e-9 {
			t.Fatalf("unitOf(%q): got %v %q, want %v %q", tc.size, qty, basis, tc.qty, tc.basis)
		}
	}
}

func TestDateISO(t *testing.T) {
	// Every day from 1970 to 2199 against time's own formatting.
	for d := Date(0); d < Date(84000); d++ {
		if got, want := d.String(), d.Time().Format("2006-01-02"); got != want {
			t.Fatalf("day %d: got %s, want %s", d, got, want)
		}
	}
}
