package importrow

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongHeaderMessage: a header of thousands of unknown names gets a
// message that names the first few and counts the rest.
func TestLongHeaderMessage(t *testing.T) {
	var keys []string
	for i := range 3000 {
		keys = append(keys, fmt.Sprintf(`"unknown_key_%04d":1`, i))
	}
	for _, tc := range []struct {
		name, first, want string
	}{
		{"ErrUnknown", `{"date":"2026-11-19","store_id":"s1","banner":"costco","external_sku":"A1","price":"4.99",`, `unknown columns "unknown_key_0000", "unknown_key_0001", "unknown_key_0002", "unknown_key_0003", "unknown_key_0004" and 2995 more for`},
		{"ErrNotRecognised", `{`, `columns unknown_key_0000, unknown_key_0001, unknown_key_0002, unknown_key_0003, unknown_key_0004 and 2995 more are not recognised`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open("big.jsonl", strings.NewReader(tc.first+strings.Join(keys, ",")+"}\n"), nil, nil, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 1000 {
				t.Fatalf("got %d bytes: %.400v, want under 1000 bytes saying %q", len(fmt.Sprint(err)), err, tc.want)
			}
		})
	}
}
