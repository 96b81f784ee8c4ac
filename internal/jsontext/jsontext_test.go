package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendStringMatchesEncoder: the same bytes as encoding/json's
// Encoder without HTML escaping, for every kind of character it treats
// apart.
func TestAppendStringMatchesEncoder(t *testing.T) {
	for _, s := range []string{
		"", "plain", `A&W <root> "beer" \ `, "tab\tnl\nret\rbs\bff\f", "\x00\x01\x1f\x7f",
		"l'Île crème", "line\u2028para\u2029", "bad \xff\xfe utf-8", "\xe2\x80", "emoji 🍊",
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got[1:], want.Bytes())
		}
	}
}
