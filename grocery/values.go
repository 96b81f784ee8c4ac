package grocery

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/importrow"
	"github.com/grocerydata/grocery/internal/jsontext"
)

// Cents is an amount of Canadian dollars in integer cents. It encodes in
// JSON as a number of dollars with at most two decimals (499 -> 4.99).
type Cents int64

// String formats c as dollars with two decimals, e.g. "4.99".
func (c Cents) String() string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return sign + strconv.FormatInt(int64(c/100), 10) + "." + string(rune('0'+c%100/10)) + string(rune('0'+c%10))
}

// MarshalJSON encodes c as a JSON number of dollars.
func (c Cents) MarshalJSON() ([]byte, error) {
	return []byte(c.String()), nil
}

// UnmarshalJSON decodes a JSON number of dollars with at most two decimals.
func (c *Cents) UnmarshalJSON(b []byte) error {
	v, err := ParseCents(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCents parses a dollar amount such as "4.99", "4.9", "12" or "$4.99"
// into cents. It returns EINVALIDARGUMENT for anything else, including more than
// two decimals or a negative amount.
func ParseCents(s string) (Cents, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "$")
	whole, frac, hasDot := strings.Cut(t, ".")
	if whole == "" && !hasDot || len(frac) > 2 || hasDot && frac == "" || len(whole) > 9 {
		return 0, Errorf(EINVALIDARGUMENT, "price %q is not a dollar amount: want digits with at most two decimals, e.g. 4.99", s)
	}
	var n int64
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, Errorf(EINVALIDARGUMENT, "price %q is not a dollar amount: want digits with at most two decimals, e.g. 4.99", s)
			}
		}
	}
	for i := 0; i < len(whole); i++ {
		n = n*10 + int64(whole[i]-'0')
	}
	n *= 100
	switch len(frac) {
	case 1:
		n += int64(frac[0]-'0') * 10
	case 2:
		n += int64(frac[0]-'0')*10 + int64(frac[1]-'0')
	}
	return Cents(n), nil
}

// Date is a calendar date, counted in days since 1970-01-01. It encodes in
// JSON as "YYYY-MM-DD".
type Date int32

// DateOf returns the UTC calendar date of t.
func DateOf(t time.Time) Date {
	return Date(t.UTC().Unix() / 86400)
	// Unix seconds floor toward zero; dates before 1970 are not used.
}

// ParseDate parses "YYYY-MM-DD". It returns EINVALIDARGUMENT for anything else.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, Errorf(EINVALIDARGUMENT, "date %q is not a date: want YYYY-MM-DD", s)
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || t.Year() < 1971 {
		return 0, Errorf(EINVALIDARGUMENT, "date %q is not a valid date: want YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// Time returns midnight UTC of d.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String formats d as "YYYY-MM-DD".
func (d Date) String() string { return string(jsontext.AppendISODate(make([]byte, 0, 10), int64(d))) }

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return time.Weekday((int64(d) + 4) % 7) }

// MarshalJSON encodes d as "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) {
	return []byte(`"` + d.String() + `"`), nil
}

// UnmarshalJSON decodes "YYYY-MM-DD".
func (d *Date) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return Errorf(EINVALIDARGUMENT, "date %s is not a string: want \"YYYY-MM-DD\"", b)
	}
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Period is a lookback window for price history, in days.
type Period int

// Periods are the windows price_history accepts; the default is 30 days.
var periods = []Period{7, 14, 30, 90, 180, 365}

// DefaultPeriod is the window used when none is given.
const DefaultPeriod Period = 30

// ParsePeriod parses "7d", "14d", "30d", "90d", "180d" or "365d"; an empty
// string gives DefaultPeriod. It returns EINVALIDARGUMENT listing the valid values.
func ParsePeriod(s string) (Period, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return DefaultPeriod, nil
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(t, "d")); err == nil && strings.HasSuffix(t, "d") {
		for _, p := range periods {
			if Period(n) == p {
				return p, nil
			}
		}
	}
	return 0, Errorf(EINVALIDARGUMENT, "period %q is not supported: want one of 7d, 14d, 30d, 90d, 180d, 365d (default 30d)", s)
}

// String formats p as "30d".
func (p Period) String() string { return strconv.Itoa(int(p)) + "d" }

// MarshalJSON encodes p as "30d".
func (p Period) MarshalJSON() ([]byte, error) { return []byte(`"` + p.String() + `"`), nil }

// UnmarshalJSON decodes "30d" (any of the values ParsePeriod accepts).
func (p *Period) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return Errorf(EINVALIDARGUMENT, "period %s is not a string: want one of 7d, 14d, 30d, 90d, 180d, 365d", b)
	}
	v, err := ParsePeriod(s)
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Bounds of the limit argument of every list: 1..MaxLimit, DefaultLimit
// when not given. REST has the same; the MCP tools allow 1..50 and give 10
// when not given (mcpserver applies it).
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// Page is one page of a list: the items of the page, how many the list
// holds before it was cut (Total) and the limit and offset it was cut
// with. A list goes on after the page while Offset+len(Results) < Total.
// Answers that are only a page are Page types (AlertRules is
// Page[AlertRule]); the others embed one, so that their JSON carries
// results, total, limit and offset at the same place.
type Page[T any] struct {
	Results []T `json:"results"` // empty, never null
	Total   int `json:"total"`
	Limit   int `json:"limit"`
	Offset  int `json:"offset"`
}

// newPage returns an empty page cut with limit and offset.
func newPage[T any](limit, offset int) Page[T] {
	return Page[T]{Results: []T{}, Limit: limit, Offset: offset}
}

// checkPage returns the limit (DefaultLimit when not given) and offset of
// a page, with EINVALIDARGUMENT naming the one out of range: a limit given
// is 1..MaxLimit, 0 included in what it refuses. The message leaves the
// default out: a caller may have one of its own (the MCP tools', the
// CLI's).
func checkPage(limit Opt[int], offset int) (int, int, error) {
	if limit.Set && (limit.V < 1 || limit.V > MaxLimit) {
		return 0, 0, Errorf(EINVALIDARGUMENT, "limit %d is out of range: want 1 to %d", limit.V, MaxLimit)
	}
	if offset < 0 || offset > MaxOffset {
		return 0, 0, Errorf(EINVALIDARGUMENT, "offset %d is out of range: want 0 to %d", offset, MaxOffset)
	}
	return limit.Or(DefaultLimit), offset, nil
}

// maxTextLen bounds a text value in bytes: an imported name, city, brand,
// size or category (importrow checks them), and a brand or category asked for.
const maxTextLen = importrow.MaxTextLen

// Opt is an optional argument of a query's input: Set false means not
// given, and the query's default applies, so that 0 is a value like any
// other (and refused where it is out of range). It compares by value, so
// an input holding it keys the answer cache (Cached) as any other. In
// JSON it is its value, or null when not given; tag it omitzero.
type Opt[T any] struct {
	V   T
	Set bool
}

// Some returns the argument v, given.
func Some[T any](v T) Opt[T] { return Opt[T]{V: v, Set: true} }

// Or returns the argument, or def when it is not given.
func (o Opt[T]) Or(def T) T {
	if !o.Set {
		return def
	}
	return o.V
}

// MarshalJSON encodes the value, or null when it is not given.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return json.Marshal(o.V)
}

// UnmarshalJSON decodes a value, given, or null, not given.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = Opt[T]{}
		return nil
	}
	*o = Opt[T]{Set: true}
	return json.Unmarshal(b, &o.V)
}
