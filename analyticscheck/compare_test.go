//go:build unix

package analyticscheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// The written rounding of the definitions: money to the cent, percent and
// index to 0.1, both half away from zero, from the exact value. Where the
// SQL's exact value lies within 1e-9 (in the figure's own unit) of a
// half-step without being exactly on it, float arithmetic on either side
// may land on either neighbour: both are accepted and the case is logged.
const halfStepTolerance = 1e-9

// rounded is the written figure an exact value gives.
type rounded struct {
	want int64 // in steps: cents, or tenths of a percent
	alt  int64 // the other neighbour, when near is true
	near bool  // within the tolerance of a half-step
}

// roundSteps rounds x, in steps (cents, tenths), half away from zero. tol
// is the tolerance in steps.
func roundSteps(x *big.Rat, tol float64) rounded {
	neg := x.Sign() < 0
	a := new(big.Rat).Abs(x)
	fl := new(big.Int).Quo(a.Num(), a.Denom()) // floor of a non-negative value
	frac := new(big.Rat).Sub(a, new(big.Rat).SetInt(fl))
	f := fl.Int64()
	half := big.NewRat(1, 2)
	var r rounded
	switch c := frac.Cmp(half); {
	case c == 0:
		r.want = f + 1
	default:
		ff, _ := frac.Float64()
		if c > 0 {
			r.want, r.alt = f+1, f
		} else {
			r.want, r.alt = f, f+1
		}
		r.near = math.Abs(ff-0.5) < tol
	}
	if neg {
		r.want, r.alt = -r.want, -r.alt
	}
	return r
}

// ratOf reads a JSON number (json.Number, float64, int or a decimal string).
func ratOf(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		s = strconv.Itoa(x)
	case int64:
		s = strconv.FormatInt(x, 10)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// missing marks a field absent from Go's answer.
type missingField struct{}

// lookup reads a dotted path (a.b.c) out of decoded JSON; missingField{}
// when absent.
func lookup(m any, path string) any {
	cur := m
	for _, k := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return missingField{}
		}
		cur, ok = obj[k]
		if !ok {
			return missingField{}
		}
	}
	return cur
}

// decode decodes JSON keeping numbers exact.
func decode(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

// asJSON encodes a Go result and decodes it as generic JSON, so that the
// check reads fields by their documented JSON names: it compiles against
// any version of the result types, and a field the definitions require
// that the answer lacks is a failure naming it.
func asJSON(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := decode(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checker collects the figures of one request that disagree.
type checker struct {
	t       testing.TB
	req     string // the request, as a reader would write it
	diffs   []string
	checked int
}

func newChecker(t testing.TB, req string) *checker { return &checker{t: t, req: req} }

func (c *checker) diff(field string, goVal, sqlVal any, why string) {
	msg := fmt.Sprintf("%s: %s: Go %s, SQL %s", c.req, field, show(goVal), show(sqlVal))
	if why != "" {
		msg += " (" + why + ")"
	}
	c.diffs = append(c.diffs, msg)
}

func show(v any) string {
	switch x := v.(type) {
	case missingField:
		return "<field missing>"
	case nil:
		return "null"
	case *big.Rat:
		f, _ := x.Float64()
		return strconv.FormatFloat(f, 'g', 12, 64)
	case json.Number:
		return x.String()
	case string:
		if _, ok := new(big.Rat).SetString(x); ok {
			return x
		}
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

// done reports every disagreement, one line each.
func (c *checker) done() {
	c.t.Helper()
	if len(c.diffs) == 0 {
		return
	}
	const most = 40
	lines := c.diffs
	if len(lines) > most {
		lines = append(lines[:most:most], fmt.Sprintf("... and %d more", len(c.diffs)-most))
	}
	c.t.Errorf("%d of %d figures differ:\n%s", len(c.diffs), c.checked, strings.Join(lines, "\n"))
}

// nulls handles null and missing on either side; it reports whether the
// comparison is settled.
func (c *checker) nulls(field string, goVal, sqlVal any) bool {
	if _, ok := goVal.(missingField); ok {
		c.diff(field, goVal, sqlVal, "the definitions require it")
		return true
	}
	if goVal == nil || sqlVal == nil {
		if goVal != nil || sqlVal != nil {
			c.diff(field, goVal, sqlVal, "")
		}
		return true
	}
	return false
}

// written compares a written figure of Go (in units of 1/scale: dollars
// with scale 100, percent with scale 10) with the SQL's exact value in
// steps (cents, or percent × 10 given as sqlScale 10 from percent).
func (c *checker) written(field string, goVal, sqlVal any, goScale, sqlScale int64) {
	c.writtenTol(field, goVal, sqlVal, goScale, sqlScale, halfStepTolerance*float64(goScale))
}

// writtenTol is written with tol, in steps, as the tolerance of a
// half-step.
func (c *checker) writtenTol(field string, goVal, sqlVal any, goScale, sqlScale int64, tol float64) {
	c.checked++
	if c.nulls(field, goVal, sqlVal) {
		return
	}
	g, ok := ratOf(goVal)
	if !ok {
		c.diff(field, goVal, sqlVal, "Go's figure is not a number")
		return
	}
	s, ok := ratOf(sqlVal)
	if !ok {
		c.diff(field, goVal, sqlVal, "SQL's figure is not a number")
		return
	}
	g.Mul(g, new(big.Rat).SetInt64(goScale))
	if !g.IsInt() {
		c.diff(field, goVal, sqlVal, "Go's figure is not rounded as written figures are")
		return
	}
	s.Mul(s, new(big.Rat).SetInt64(sqlScale))
	r := roundSteps(s, tol)
	gi := g.Num().Int64()
	switch {
	case gi == r.want:
	case r.near && gi == r.alt:
		c.t.Logf("%s: %s: SQL's exact value %s is within %g steps of a half-step; Go wrote the other neighbour %s", c.req, field, show(sqlVal), tol, show(goVal))
	default:
		c.diff(field, goVal, show(sqlVal)+" exact, "+fmtSteps(r.want, goScale)+" written", "")
	}
}

func fmtSteps(v, scale int64) string {
	return new(big.Rat).SetFrac64(v, scale).FloatString(int(math.Log10(float64(scale))))
}

// money compares dollars written by Go with exact cents from SQL.
func (c *checker) money(field string, goVal, sqlCents any) { c.written(field, goVal, sqlCents, 100, 1) }

// pct compares a percent or index written by Go (0.1) with SQL's exact one.
func (c *checker) pct(field string, goVal, sqlVal any) { c.written(field, goVal, sqlVal, 10, 10) }

// chained compares a percent Go computes from chained links (M2): the
// import keeps each link's log to 1e-7, so over the up to 730 days of two
// periods the index may differ from the exact one by 4e-5 relative, 4e-3
// percent: a half-step within 0.05 steps takes either neighbour.
func (c *checker) chained(field string, goVal, sqlVal any) {
	c.writtenTol(field, goVal, sqlVal, 10, 10, 0.05)
}

// exact compares counts, names, dates and flags: equal as JSON values.
func (c *checker) exact(field string, goVal, sqlVal any) {
	c.checked++
	if _, ok := goVal.(missingField); ok {
		c.diff(field, goVal, sqlVal, "the definitions require it")
		return
	}
	if !jsonEqual(goVal, sqlVal) {
		c.diff(field, goVal, sqlVal, "")
	}
}

// jsonEqual compares decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	if ra, ok := ratOf(a); ok {
		if _, isStr := a.(string); !isStr {
			rb, ok := ratOf(b)
			_, bStr := b.(string)
			return ok && !bStr && ra.Cmp(rb) == 0
		}
	}
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}

// kind says how a figure is compared.
type kind int

const (
	kExact   kind = iota // counts, names, dates, flags
	kMoney               // written to the cent
	kPct                 // percent or index, written to 0.1
	kChained             // a percent from chained links (M2), written to 0.1
)

// field is one figure of a list entry: its JSON name in Go's answer, how it
// is compared, and its name in the SQL's row when that differs.
type field struct {
	name string
	kind kind
	sql  string
}

func (c *checker) figure(name string, k kind, goVal, sqlVal any) {
	switch k {
	case kMoney:
		c.money(name, goVal, sqlVal)
	case kPct:
		c.pct(name, goVal, sqlVal)
	case kChained:
		c.chained(name, goVal, sqlVal)
	default:
		c.exact(name, goVal, sqlVal)
	}
}

// fields compares the figures of one JSON object.
func (c *checker) fields(prefix string, g, s map[string]any, fs []field) {
	for _, f := range fs {
		sk := f.sql
		if sk == "" {
			sk = f.name
		}
		sv, ok := s[sk]
		if !ok {
			c.t.Fatalf("the SQL row has no %s: %v", sk, s)
		}
		c.figure(prefix+f.name, f.kind, lookup(g, f.name), sv)
	}
}

// list compares a list in Go's answer with the SQL's, entry by entry in
// order (order is part of each answer's meaning); key names the entry in a
// diff.
func (c *checker) list(name string, goList any, sqlList []map[string]any, key []string, fs []field) {
	gl, _ := goList.([]any)
	if _, ok := goList.(missingField); ok {
		c.diff(name, goList, len(sqlList), "the definitions require it")
		return
	}
	c.exact(name+" length", len(gl), len(sqlList))
	for i := 0; i < len(gl) && i < len(sqlList); i++ {
		g, _ := gl[i].(map[string]any)
		s := sqlList[i]
		var id []string
		for _, k := range key {
			id = append(id, fmt.Sprint(s[k]))
		}
		prefix := fmt.Sprintf("%s[%d] (%s) ", name, i, strings.Join(id, " "))
		for _, k := range key {
			if !jsonEqual(lookup(g, k), s[k]) {
				c.diff(prefix+k, lookup(g, k), s[k], "a different entry at this position")
			}
		}
		c.fields(prefix, g, s, fs)
	}
}
