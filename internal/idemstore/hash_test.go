package idemstore

import (
	"bytes"
	"testing"
)

// TestRequestHash: a JSON body hashes by value (member order and spacing
// aside, numbers as written), another body byte for byte, and the
// operation counts.
func TestRequestHash(t *testing.T) {
	t.Parallel()
	a := RequestHash("POST /x", []byte(`{"b": 1, "a": [1.0, "x"]}`))
	for _, tc := range []struct {
		op, body string
		same     bool
	}{
		{"POST /x", `{"a":[1.0,"x"],"b":1}`, true},
		{"POST /x", "\n{ \"a\" : [ 1.0 , \"x\" ] , \"b\" : 1 }\n", true},
		{"POST /x", `{"a":[1,"x"],"b":1}`, false}, // 1 is not written 1.0
		{"POST /y", `{"a":[1.0,"x"],"b":1}`, false},
		{"POST /x", `{"a":[1.0,"x"],"b":1} {}`, false}, // two values: not JSON, byte for byte
	} {
		if got := bytes.Equal(RequestHash(tc.op, []byte(tc.body)), a); got != tc.same {
			t.Errorf("%s %s: same hash %v, want %v", tc.op, tc.body, got, tc.same)
		}
	}
	if x, y := RequestHash("P", []byte("a b")), RequestHash("P", []byte("a  b")); bytes.Equal(x, y) {
		t.Errorf("a non-JSON body: got one hash for two bodies, want two")
	}
	if got := len(RequestHash("P", nil)); got != 64 {
		t.Errorf("hash length: got %d, want 64 hex digits", got)
	}
}
