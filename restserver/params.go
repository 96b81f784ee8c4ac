package restserver

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery"
)

// params reads a request's query parameters: each one at most once
// (twice is a 400), unknown ones ignored. The first error sticks; read
// every parameter, then check err. It parses the raw query itself, into
// pairs that point into it, so a request with a few parameters allocates
// nothing for them; use it as a local value (var p params).
type params struct {
	pairs []pair
	buf   [8]pair
	err   error
}

type pair struct{ name, value string }

// parse reads a raw query string ("a=1&b=2").
func (p *params) parse(raw string) {
	p.pairs = p.buf[:0]
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		n, err1 := url.QueryUnescape(name)
		v, err2 := url.QueryUnescape(value)
		if (err1 != nil || err2 != nil) && p.err == nil {
			p.err = grocery.Errorf(grocery.EINVALIDARGUMENT, "the query string is malformed near %q: escape %% as %%25", part)
		}
		p.pairs = append(p.pairs, pair{n, v})
	}
}

// str returns the parameter name, "" when absent.
func (p *params) str(name string) string {
	value, n := "", 0
	for _, kv := range p.pairs {
		if kv.name == name {
			if n == 0 {
				value = kv.value
			}
			n++
		}
	}
	if n > 1 && p.err == nil {
		p.err = grocery.Errorf(grocery.EINVALIDARGUMENT, "query parameter %s is given %d times: give it once", name, n)
	}
	return value
}

// int returns an integer parameter, def when absent.
func (p *params) int(name string, def int, want string) int {
	s := p.str(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil && p.err == nil {
		p.err = grocery.Errorf(grocery.EINVALIDARGUMENT, "%s %q is not a whole number: want %s", name, s, want)
	}
	return n
}

// optInt returns the whole number name, not given when it is absent, and
// records an error when it is not a whole number.
func (p *params) optInt(name, want string) grocery.Opt[int] {
	if p.str(name) == "" {
		return grocery.Opt[int]{}
	}
	return grocery.Some(p.int(name, 0, want))
}

var (
	pageLimits  = "1 to " + strconv.Itoa(grocery.MaxLimit)
	pageOffsets = "0 to " + strconv.Itoa(grocery.MaxOffset)
)

// page reads limit and offset, the shared pagination of every REST list,
// as whole numbers: limit not given when absent, offset 0. Their ranges
// and the default limit are the library's (grocery.MaxLimit,
// grocery.DefaultLimit, grocery.MaxOffset).
func (p *params) page() (limit grocery.Opt[int], offset int) {
	return p.optInt("limit", pageLimits), p.int("offset", 0, pageOffsets)
}
