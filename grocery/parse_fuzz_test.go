package grocery

import (
	"strings"
	"testing"
)

// The parsers of user input never panic, refuse with EINVALIDARGUMENT, and what
// they accept re-formats to a text they parse back to the same value.

func FuzzParseGTIN(f *testing.F) {
	for _, s := range []string{"068000000154", "0 68000-00015 4", "06800000015", "5901234123457", "96385074", "00012345600012",
		"068000000155", "", " ", "-", "abc", "1234567890123456789", "٣٤٥"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGTIN(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		if len(g) != 14 || strings.Trim(string(g), "0123456789") != "" {
			t.Fatalf("ParseGTIN(%q) = %q: want 14 digits", s, g)
		}
		if again, err := ParseGTIN(g.UPC()); err != nil || again != g {
			t.Fatalf("ParseGTIN(%q) = %q, its UPC %q parses to %q, %v", s, g, g.UPC(), again, err)
		}
		if again, err := ParseGTIN(string(g)); err != nil || again != g {
			t.Fatalf("ParseGTIN(%q) = %q, which parses to %q, %v", s, g, again, err)
		}
		f, err := parseFeedGTIN(s)
		if err != nil || f != g {
			t.Fatalf("parseFeedGTIN(%q) = %q, %v; ParseGTIN gives %q", s, f, err, g)
		}
	})
}

func FuzzParseProvince(f *testing.F) {
	for _, s := range []string{"ON", "on", " Ontario ", "Québec", "QUEBEC", "Colombie-Britannique", "île-du-prince-édouard", "", "XX", "O\u0301N", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, err := ParseProvince(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		p, ok := ProvinceByCode(code)
		if !ok {
			t.Fatalf("ParseProvince(%q) = %q, not a province code", s, code)
		}
		for _, form := range []string{p.Code, p.Name, p.NameFR} {
			if again, err := ParseProvince(form); err != nil || again != code {
				t.Fatalf("ParseProvince(%q) = %q, %v; want %q", form, again, err, code)
			}
		}
	})
}

func FuzzParsePostalCode(f *testing.F) {
	for _, s := range []string{"M5V 2T6", "m5v2t6", " X0A 0H0 ", "X1A 2B3", "D5V 2T6", "W5V 2T6", "M5V  2T6", "", "M5V-2T6", "ı5V 2T6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pc, err := ParsePostalCode(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		if len(pc.Code) != 7 || pc.Code[3] != ' ' || pc.FSA != pc.Code[:3] {
			t.Fatalf("ParsePostalCode(%q) = %+v: want the form A1A 1A1 and its FSA", s, pc)
		}
		if _, ok := ProvinceByCode(pc.Province); !ok {
			t.Fatalf("ParsePostalCode(%q) = %+v: no such province", s, pc)
		}
		for _, form := range []string{pc.Code, strings.ReplaceAll(pc.Code, " ", ""), strings.ToLower(pc.Code)} {
			if again, err := ParsePostalCode(form); err != nil || again != pc {
				t.Fatalf("ParsePostalCode(%q) = %+v, %v; want %+v", form, again, err, pc)
			}
		}
	})
}

func FuzzParsePeriod(f *testing.F) {
	for _, s := range []string{"7d", "30D", " 365d ", "", "30", "d", "-7d", "+7d", "007d", "99999999999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePeriod(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		if again, err := ParsePeriod(p.String()); err != nil || again != p {
			t.Fatalf("ParsePeriod(%q) = %v, whose text %q parses to %v, %v", s, p, p.String(), again, err)
		}
	})
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-11-19", "1971-01-01", "1970-12-31", "9999-12-31", "2024-02-29", "2023-02-29", "2026-1-19", "", "+026-11-19", "2026-11-19T00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		if d.String() != s {
			t.Fatalf("ParseDate(%q) = %d, which formats as %q", s, d, d.String())
		}
		if got := DateOf(d.Time()); got != d {
			t.Fatalf("ParseDate(%q) = %d, whose time is day %d", s, d, got)
		}
	})
}

func FuzzParseCents(f *testing.F) {
	for _, s := range []string{"4.99", "$4.9", " 12 ", ".5", "0.05", "999999999.99", "1000000000", "4.999", "-1", "4.", ".", "$", "", "4,99", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCents(s)
		if err != nil {
			errCodeIs(t, err, EINVALIDARGUMENT)
			return
		}
		if c < 0 {
			t.Fatalf("ParseCents(%q) = %d: negative", s, c)
		}
		if again, err := ParseCents(c.String()); err != nil || again != c {
			t.Fatalf("ParseCents(%q) = %d, whose text %q parses to %d, %v", s, c, c.String(), again, err)
		}
		var j Cents
		if b, _ := c.MarshalJSON(); j.UnmarshalJSON(b) != nil || j != c {
			t.Fatalf("ParseCents(%q) = %d: its JSON %s decodes to %d", s, c, b, j)
		}
	})
}

// errCodeIs fails unless err is a grocery error of the given code with a
// message.
func errCodeIs(t *testing.T, err error, code string) {
	t.Helper()
	if ErrorCode(err) != code || ErrorMessage(err) == "" {
		t.Fatalf("got error %v (code %q), want code %s with a message", err, ErrorCode(err), code)
	}
}
