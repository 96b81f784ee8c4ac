package mcpserver

import (
	"encoding/json"
	"math/rand/v2"
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

// The branch-free escape does exactly what a byte-by-byte escape does,
// wherever the quotes and backslashes fall: 20,000 random strings of up
// to 20 characters over an alphabet dense in them, behind a prefix in the
// buffer.
func TestAppendJSONTextBranchFree(t *testing.T) {
	t.Parallel()
	byByte := func(text []byte) []byte {
		out := []byte{'"'}
		for _, c := range text {
			if c == '"' || c == '\\' {
				out = append(out, '\\')
			}
			out = append(out, c)
		}
		return append(out, '"')
	}
	alphabet := []string{`"`, `\`, "a", "é", "{", ":", "0", " "}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(21) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := []byte(sb.String())
		got := appendJSONText([]byte("prefix"), text)
		if want := append([]byte("prefix"), byByte(text)...); string(got) != string(want) {
			t.Fatalf("appendJSONText(%q) = %s, want %s", text, got, want)
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
