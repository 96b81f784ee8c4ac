package alertstore

import (
	"bytes"
	"testing"
)

// A rule id reads back as its number; an event id, or a rule id under
// another secret, is not read as the same rule.
func TestIDs(t *testing.T) {
	a, err := NewIDs(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewIDs(bytes.Repeat([]byte{2}, 32))
	for _, n := range []uint64{1, 2, 1000, 1 << 40} {
		id := a.Rule(n)
		if got, ok := a.ParseRule(id); !ok || got != n {
			t.Errorf("ParseRule(%s) = %d, %v; want %d", id, got, ok, n)
		}
		if got, ok := b.ParseRule(id); ok && got == n {
			t.Errorf("another secret reads %s as rule %d too", id, n)
		}
		if ev := a.Event(n); ev[4:] == id[4:] {
			t.Errorf("rule %d and event %d share their digits %s", n, n, id[4:])
		}
	}
	// The decimal form ids had before they were encoded still names its
	// rule, under any secret.
	for id, n := range map[string]uint64{"alr_1": 1, "alr_42": 42, "alr_999999999999999": 999999999999999} {
		if got, ok := b.ParseRule(id); !ok || got != n {
			t.Errorf("ParseRule(%s) = %d, %v; want %d", id, got, ok, n)
		}
	}
	for _, bad := range []string{"alr_", "alr_01", "alr_-1", "alr_1e3", "evt_0123456789abcdef", "alr_0123456789abcdeg", "0123456789abcdef", "alr_0123456789abcdef0"} {
		if _, ok := a.ParseRule(bad); ok {
			t.Errorf("ParseRule(%q) took it", bad)
		}
	}
	if _, err := NewIDs(make([]byte, 16)); err == nil {
		t.Error("NewIDs took a 16-byte secret")
	}
}
