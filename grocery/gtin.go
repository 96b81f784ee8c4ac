package grocery

import (
	"strings"

	"github.com/grocerydata/grocery/internal/words"

	"github.com/grocerydata/grocery/grocery/internal/gs1"
)

// GTIN is a Global Trade Item Number normalised to 14 digits: a UPC-A,
// EAN-13 or GTIN-8 is left-padded with zeros. It is how products are
// stored and compared.
type GTIN string

// ParseGTIN parses a barcode of 8, 12, 13 or 14 digits (spaces and hyphens
// are ignored), verifies its GS1 check digit and returns it as a GTIN-14.
// It returns EINVALIDARGUMENT naming the expected check digit when it is wrong.
func ParseGTIN(s string) (GTIN, error) {
	digits, err := barcodeDigits(s)
	if err != nil {
		return "", err
	}
	switch len(digits) {
	case 8, 12, 13, 14:
	default:
		return "", Errorf(EINVALIDARGUMENT, "upc %q has %d %s: want a UPC/EAN/GTIN of 8, 12, 13 or 14 digits", s, len(digits), words.Plural(len(digits), "digit"))
	}
	body, check := digits[:len(digits)-1], digits[len(digits)-1]
	if want := checkDigit(body); check != want {
		return "", Errorf(EINVALIDARGUMENT, "upc %q has a wrong check digit: it ends in %c, the GS1 check digit should be %c", s, check, want)
	}
	return GTIN(strings.Repeat("0", 14-len(digits)) + digits), nil
}

// looksLikeBarcode reports whether s, a search query, is a barcode
// rather than words: 8 to 14 digits, spaces and hyphens allowed.
func looksLikeBarcode(s string) bool {
	digits, err := barcodeDigits(s)
	return err == nil && len(digits) >= 8 && len(digits) <= 14
}

// parseFeedGTIN is ParseGTIN that also accepts the 11-digit UPC-A some
// retailer feeds send without its check digit, and computes the digit.
func parseFeedGTIN(s string) (GTIN, error) {
	if digits, err := barcodeDigits(s); err == nil && len(digits) == 11 {
		return GTIN("00" + digits + string(checkDigit(digits))), nil
	}
	return ParseGTIN(s)
}

func barcodeDigits(s string) (string, error) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			b.WriteByte(c)
		case c == ' ' || c == '-':
		default:
			if strings.TrimSpace(s) == "" {
				break
			}
			return "", Errorf(EINVALIDARGUMENT, "upc %q is not a barcode: want 8, 12, 13 or 14 digits (spaces and hyphens allowed)", s)
		}
	}
	if b.Len() == 0 {
		return "", Errorf(EINVALIDARGUMENT, "upc is required: a UPC/EAN/GTIN barcode of 8, 12, 13 or 14 digits")
	}
	return b.String(), nil
}

// checkDigit computes the GS1 check digit of body.
func checkDigit(body string) byte { return gs1.CheckDigit(body) }

// UPC returns the barcode as it is usually printed: 12 digits for a UPC-A
// (or padded GTIN-8), 13 for an EAN-13, 14 for a true GTIN-14.
func (g GTIN) UPC() string {
	switch {
	case len(g) != 14:
		return string(g)
	case strings.HasPrefix(string(g), "00"):
		return string(g[2:])
	case g[0] == '0':
		return string(g[1:])
	}
	return string(g)
}

// Restricted reports whether g is a restricted-circulation number (GS1
// prefixes 02, 04 and 20-29: in-store and random-weight codes), which
// identifies different items at different retailers and so is never
// matched across banners.
func (g GTIN) Restricted() bool { return gs1.Restricted(string(g)) }
