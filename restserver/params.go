package restserver

import (
	"net/url"
	"strconv"

	"github.com/grocerydata/grocery/grocery"
)

// params reads a request's query parameters: each one at most once
// (twice is a 400), unknown ones ignored. The first error sticks; read
// every parameter, then check err.
type params struct {
	q   url.Values
	err error
}

func newParams(q url.Values) *params { return &params{q: q} }

// str returns the parameter name, "" when absent.
func (p *params) str(name string) string {
	vs := p.q[name]
	if len(vs) > 1 && p.err == nil {
		p.err = grocery.Errorf(grocery.EINVALID, "query parameter %s is given %d times: give it once", name, len(vs))
	}
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// int returns an integer parameter, def when absent.
func (p *params) int(name string, def int, want string) int {
	s := p.str(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil && p.err == nil {
		p.err = grocery.Errorf(grocery.EINVALID, "%s %q is not a whole number: want %s", name, s, want)
	}
	return n
}

// page reads limit (1..500, default 50) and offset (>= 0, default 0): the
// shared pagination of every REST list.
func (p *params) page() (limit, offset int) {
	limit = p.int("limit", grocery.DefaultRESTLimit, "1 to 500")
	offset = p.int("offset", 0, "0 or more")
	if p.err != nil {
		return 0, 0
	}
	if err := grocery.CheckLimit(limit, grocery.MaxRESTLimit); err != nil {
		p.err = err
	} else if offset < 0 {
		p.err = grocery.Errorf(grocery.EINVALID, "offset %d is negative: want 0 or more", offset)
	}
	return limit, offset
}
