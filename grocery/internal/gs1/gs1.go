// Package gs1 holds the GS1 barcode rules that both grocery and its demo
// generator follow: the check digit and the restricted-circulation prefixes.
// Barcodes are plain digit strings here; grocery.GTIN wraps them.
package gs1

// CheckDigit computes the GS1 check digit of body: weights 3,1,3,1... from
// the rightmost digit; check = (10 - sum mod 10) mod 10.
func CheckDigit(body string) byte {
	sum := 0
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		if (len(body)-1-i)%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return byte('0' + (10-sum%10)%10)
}

// Restricted reports whether the GTIN-14 g is a restricted-circulation
// number (GS1 prefixes 02, 04 and 20-29: in-store and random-weight codes).
func Restricted(g string) bool {
	if len(g) != 14 || g[0] != '0' {
		return false
	}
	ean := g[1:]
	return ean[0] == '2' || (ean[0] == '0' && (ean[1] == '2' || ean[1] == '4'))
}
