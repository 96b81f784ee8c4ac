package mcpserver

import (
	"encoding/json"
	"testing"
)

func TestAppendJSONText(t *testing.T) {
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
