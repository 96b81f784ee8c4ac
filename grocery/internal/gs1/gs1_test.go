package gs1

import "testing"

func TestCheckDigit(t *testing.T) {
	for body, want := range map[string]byte{
		"06700037808":  '9', // UPC-A 067000378089
		"0000000":      '0',
		"400638133393": '1', // EAN-13 4006381333931
	} {
		if got := CheckDigit(body); got != want {
			t.Errorf("CheckDigit(%q): got %c, want %c", body, got, want)
		}
	}
}

func TestRestricted(t *testing.T) {
	for g, want := range map[string]bool{
		"00067000378089": false,
		"00212345000017": true,  // 02: random weight
		"00412345000015": true,  // 04: in-store
		"02012345000012": true,  // 20-29: in-store
		"07541234000012": false, // 754: Canada
		"10067000378086": false, // a true GTIN-14
		"0006700037808":  false, // not 14 digits
	} {
		if got := Restricted(g); got != want {
			t.Errorf("Restricted(%s): got %v, want %v", g, got, want)
		}
	}
}
