package alertstore

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/grocerydata/grocery/internal/opaqueid"
)

// Id prefixes: a rule's id as clients see it is RuleIDPrefix and 16
// hexadecimal digits, an event's EventIDPrefix and 16.
const (
	RuleIDPrefix  = "alr_"
	EventIDPrefix = "evt_"
)

// IDs shows the numbers a store gives its rules and events as ids that
// carry no count: a keyed permutation of each number (opaqueid), under
// secrets derived from the store's (Store.IDKey), one for rules and one
// for events. Consecutive rules get unrelated ids, so an account cannot
// tell from its own ids how many rules or events the other accounts
// have, nor match a rule's number with an event's.
type IDs struct{ rule, event *opaqueid.Codec }

// NewIDs returns the IDs of a store's secret.
func NewIDs(key []byte) (IDs, error) {
	if len(key) != opaqueid.KeySize {
		return IDs{}, fmt.Errorf("alert id secret of %d bytes, want %d", len(key), opaqueid.KeySize)
	}
	derive := func(kind string) *opaqueid.Codec {
		sum := sha256.Sum256(append(append([]byte(nil), key...), kind...))
		c, _ := opaqueid.New(sum[:]) // the right size
		return c
	}
	return IDs{derive("rule"), derive("event")}, nil
}

// Rule returns the id of rule n.
func (x IDs) Rule(n uint64) string { return RuleIDPrefix + opaqueid.Format(x.rule.Encode(n)) }

// Event returns the id of event n.
func (x IDs) Event(n uint64) string { return EventIDPrefix + opaqueid.Format(x.event.Encode(n)) }

// ParseRule returns the number of the rule whose id is s, reporting
// whether s has a rule id's form. It also takes a rule's number in
// decimal (alr_2), the form ids had before they were encoded, so that a
// rule id a client kept from then still names its rule; it tells a
// client nothing it did not know, since a rule of another account is
// not found either way.
func (x IDs) ParseRule(s string) (uint64, bool) {
	rest, ok := strings.CutPrefix(s, RuleIDPrefix)
	if !ok {
		return 0, false
	}
	if n, ok := legacyNumber(rest); ok {
		return n, true
	}
	v, ok := opaqueid.Parse(rest)
	if !ok {
		return 0, false
	}
	return x.rule.Decode(v), true
}

// legacyNumber reads a decimal rule number of 1 to 15 digits without a
// leading zero: shorter than an encoded id's 16 hexadecimal digits, so
// the two forms never overlap.
func legacyNumber(s string) (uint64, bool) {
	if s == "" || len(s) >= 16 || s[0] == '0' {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
	}
	return n, true
}
