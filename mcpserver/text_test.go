package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendJSONText(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		``, `{}`, `"`, `\`, `\\"`, `""\\`,
		`{"name":"Crème \"glacée\" \\ \u0026 l\u0027Île","n":1.5}`,
		`{"a":"\\\\\"\\"}`,
	} {
		got := appendJSONText(nil, []byte(text))
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != text {
			t.Fatalf("appendJSONText(%q) = %s, decodes to %q (%v)", text, got, back, err)
		}
	}
}

// BenchmarkAppendJSONText escapes a result the size of a lookup's (ten
// offers), as tools/call does for its text item.
func BenchmarkAppendJSONText(b *testing.B) {
	offer := `{"banner":"no-frills","banner_name":"No Frills","external_sku":"20156839_EA","price":3.5,"regular_price":4.79,"on_promo":true,"promo_ends":"2026-11-25","min_price":3.5,"max_price":4.79,"unit_price":0.23,"unit_price_basis":"per 100 mL","store_count":12,"observed_at":"2026-11-19"}`
	text := []byte(`{"product":{"upc":"067000378089","name":"Orange Juice No Pulp"},"offers":[` + strings.Repeat(offer+",", 9) + offer + `],"total":10}`)
	buf := make([]byte, 0, 2*len(text)+2)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		buf = appendJSONText(buf[:0], text)
	}
}
