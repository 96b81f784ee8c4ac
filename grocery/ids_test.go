package grocery_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

func TestParseGTIN(t *testing.T) {
	for _, tc := range []struct {
		in, gtin, upc string
		restricted    bool
	}{
		// Worked examples of the GS1 check digit (weights 3,1,3,1... from the right).
		{"629104150021" + "3", "06291041500213", "6291041500213", false},
		{"7540123456788", "07540123456788", "7540123456788", false},
		{"066800000152", "00066800000152", "066800000152", false},
		{"0 66800 00015 2", "00066800000152", "066800000152", false},
		{"0-66800-00015-2", "00066800000152", "066800000152", false},
		{"12345670", "00000012345670", "000012345670", false},
		{"10068000000151", "10068000000151", "10068000000151", false},
		{"212345678909", "00212345678909", "212345678909", true},   // UPC-A number system 2: random weight
		{"412345678903", "00412345678903", "412345678903", true},   // number system 4: in-store
		{"2012345678903", "02012345678903", "2012345678903", true}, // EAN-13 20-29
	} {
		g, err := grocery.ParseGTIN(tc.in)
		if err != nil {
			t.Fatalf("ParseGTIN(%q): %v", tc.in, err)
		}
		if string(g) != tc.gtin || g.UPC() != tc.upc || g.Restricted() != tc.restricted {
			t.Fatalf("ParseGTIN(%q): got %s / %s / restricted %v, want %s / %s / %v", tc.in, g, g.UPC(), g.Restricted(), tc.gtin, tc.upc, tc.restricted)
		}
	}
	for in, msg := range map[string]string{
		"6291041500210": "check digit should be 3",
		"7540123456789": "it ends in 9, the GS1 check digit should be 8",
		"06291041500":   "has 11 digits",
		"7":             `"7" has 1 digit: want`,
		"":              "upc is required",
		"abc":           "not a barcode",
	} {
		_, err := grocery.ParseGTIN(in)
		if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(grocery.ErrorMessage(err), msg) {
			t.Fatalf("ParseGTIN(%q): got %v, want invalid_argument containing %q", in, err, msg)
		}
	}
}

func TestParseProvince(t *testing.T) {
	for in, want := range map[string]string{
		"on": "ON", "ON": "ON", "Ontario": "ON", "québec": "QC", "Quebec": "QC", "QUÉBEC": "QC",
		"Île-du-Prince-Édouard": "PE", "prince edward island": "PE", "Terre-Neuve-et-Labrador": "NL",
		"Nouvelle-Écosse": "NS", "Colombie-Britannique": "BC", "Yukon": "YT", "nunavut": "NU",
	} {
		got, err := grocery.ParseProvince(in)
		if err != nil || got != want {
			t.Fatalf("ParseProvince(%q): got %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "XX", "Canada", "Ont"} {
		if _, err := grocery.ParseProvince(in); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Fatalf("ParseProvince(%q): got %v, want invalid_argument", in, err)
		}
	}
}

func TestParseBanner(t *testing.T) {
	for in, want := range map[string]string{
		"no-frills": "no-frills", "No Frills": "no-frills", "NO FRILLS": "no-frills", "Real Canadian Superstore": "real-canadian-superstore",
		"Save-On-Foods": "save-on-foods", "IGA": "iga", "Longo's": "longos", "T&T Supermarket": "t-and-t", "super c": "super-c",
	} {
		got, err := grocery.ParseBanner(in)
		if err != nil || got.Slug != want {
			t.Fatalf("ParseBanner(%q): got %q, %v; want %q", in, got.Slug, err, want)
		}
	}
	_, err := grocery.ParseBanner("Frills")
	if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(grocery.ErrorMessage(err), "loblaws") {
		t.Fatalf("got %v, want invalid_argument listing the slugs", err)
	}
	for _, b := range grocery.Banners() {
		for _, p := range b.Provinces {
			if _, ok := grocery.ProvinceByCode(p); !ok {
				t.Fatalf("banner %s lists unknown province %q", b.Slug, p)
			}
		}
	}
}

func TestParsePeriod(t *testing.T) {
	for in, want := range map[string]grocery.Period{"": 30, "7d": 7, "14D": 14, "30d": 30, "90d": 90, "180d": 180, "365d": 365} {
		got, err := grocery.ParsePeriod(in)
		if err != nil || got != want {
			t.Fatalf("ParsePeriod(%q): got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1d", "30", "d", "1y", "-7d"} {
		if _, err := grocery.ParsePeriod(in); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Fatalf("ParsePeriod(%q): got %v, want invalid_argument", in, err)
		}
	}
}

func TestCents(t *testing.T) {
	for in, want := range map[string]grocery.Cents{"4.99": 499, "4.9": 490, "12": 1200, "$0.05": 5, "0": 0, "1000.00": 100000} {
		got, err := grocery.ParseCents(in)
		if err != nil || got != want {
			t.Fatalf("ParseCents(%q): got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"4.999", "-1", "4.", ".", "", "1e3", "4,99", "abc"} {
		if _, err := grocery.ParseCents(in); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Fatalf("ParseCents(%q): got %v, want invalid_argument", in, err)
		}
	}
	b, _ := json.Marshal([]grocery.Cents{499, 5, 100, 0})
	if string(b) != "[4.99,0.05,1.00,0.00]" {
		t.Fatalf("JSON: got %s, want [4.99,0.05,1.00,0.00]", b)
	}
}

func TestDate(t *testing.T) {
	d, err := grocery.ParseDate("2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "2026-11-19" || d.Weekday().String() != "Thursday" {
		t.Fatalf("got %s (%s), want 2026-11-19 (Thursday)", d, d.Weekday())
	}
	for _, in := range []string{"2026-13-01", "2026-02-30", "19-11-2026", "2026/11/19", ""} {
		if _, err := grocery.ParseDate(in); grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT {
			t.Fatalf("ParseDate(%q): got %v, want invalid_argument", in, err)
		}
	}
}
