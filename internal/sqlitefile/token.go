package sqlitefile

import (
	"errors"
	"strings"
)

// token is a token of a CREATE TABLE statement: a word (a keyword, a
// name, a number or a string; text dequoted, quoted set when it was
// quoted), a parenthesis, a comma, or another character.
type token struct {
	kind   byte // 'w', '(', ')', ',' or 'o'
	text   string
	quoted bool
}

// is reports whether t is the bare word kw, in any case.
func (t token) is(kw string) bool { return t.kind == 'w' && !t.quoted && strings.EqualFold(t.text, kw) }

func (t token) isAny(kws ...string) bool {
	for _, kw := range kws {
		if t.is(kw) {
			return true
		}
	}
	return false
}

// closeQuote gives the closing character of each quote SQLite takes
// around a name or a string: "name", `name`, [name], 'string'.
var closeQuote = map[byte]byte{'"': '"', '`': '`', '[': ']', '\'': '\''}

// tokenize splits a CREATE TABLE statement into tokens, skipping white
// space and comments.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(s[i:], "--"):
			i = skipTo(s, i, "\n")
		case strings.HasPrefix(s[i:], "/*"):
			i = skipTo(s, i, "*/")
		case closeQuote[c] != 0:
			t, n, err := quoted(s[i:], closeQuote[c])
			if err != nil {
				return nil, err
			}
			out, i = append(out, t), i+n
		case c == '(' || c == ')' || c == ',':
			out, i = append(out, token{kind: c, text: string(c)}), i+1
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			out, i = append(out, token{kind: 'w', text: s[i:j]}), j
		default:
			out, i = append(out, token{kind: 'o', text: string(c)}), i+1
		}
	}
	return out, nil
}

// skipTo returns the index past the first end after s[i:], or len(s).
func skipTo(s string, i int, end string) int {
	if j := strings.Index(s[i+2:], end); j >= 0 {
		return i + 2 + j + len(end)
	}
	return len(s)
}

// quoted reads the quoted word at the start of s, closed by end (doubled
// to stand for itself, but in brackets): the token and its length.
func quoted(s string, end byte) (token, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != end {
			b.WriteByte(s[i])
			continue
		}
		if end != ']' && i+1 < len(s) && s[i+1] == end {
			b.WriteByte(end)
			i++
			continue
		}
		return token{kind: 'w', text: b.String(), quoted: true}, i + 1, nil
	}
	return token{}, 0, errors.New("a quoted name or string is not closed")
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}
