package challenge

import "testing"

func TestHeader(t *testing.T) {
	for _, tc := range []struct{ name, scheme, desc, want string }{
		{"OKMissing", "Bearer", "", `Bearer realm="grocery"`},
		{"OKInvalid", "Bearer", "API key is not known", `Bearer realm="grocery", error="invalid_token", error_description="API key is not known"`},
		{"OKQuoted", "APIKey", "a \"b\" \\ é\n", `APIKey realm="grocery", error="invalid_token", error_description="a  b      "`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Header(tc.scheme, "grocery", tc.desc); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
