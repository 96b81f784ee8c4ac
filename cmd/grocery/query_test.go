package main

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/grocery"
)

// decode decodes a command's --json output strictly into v.
func decode(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding the JSON output: %v\n%s", err, out)
	}
}

func TestLookup(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	s := demoSummary.Samples

	t.Run("JSON", func(t *testing.T) {
		for _, upc := range []string{s.CarriedUPC, s.NotCarriedUPC} {
			r := cli(t, nil, "lookup", upc, "--province", s.Province, "--json")
			ok(t, r)
			var got grocery.LookupResult
			decode(t, r.stdout, &got)
			// Without --limit, the lookup commands show 10.
			want, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: s.Province, Limit: grocery.Some(10)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, &got); diff != "" {
				t.Errorf("lookup %s (-library +cli):\n%s", upc, diff)
			}
		}
	})

	t.Run("JSONLimit", func(t *testing.T) {
		r := cli(t, nil, "lookup", s.CarriedUPC, "--province", strings.ToLower(s.Province), "--limit", "1", "--json")
		ok(t, r)
		var got grocery.LookupResult
		decode(t, r.stdout, &got)
		if len(got.Offers) != 1 || got.Province != s.Province {
			t.Errorf("got %d offers in %q, want 1 in %q", len(got.Offers), got.Province, s.Province)
		}
	})

	t.Run("ProvinceFromEnv", func(t *testing.T) {
		r := cli(t, env{"GROCERY_PROVINCE": s.Province, "GROCERY_DB": demoDB}, "lookup", s.CarriedUPC, "--json")
		ok(t, r)
		var got grocery.LookupResult
		decode(t, r.stdout, &got)
		if got.Province != s.Province {
			t.Errorf("province: got %q, want %q", got.Province, s.Province)
		}
		// The flag wins over the environment.
		r = cli(t, env{"GROCERY_PROVINCE": "XX"}, "lookup", s.CarriedUPC, "--province", s.Province)
		ok(t, r)
	})
}

func TestSearch(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	s := demoSummary.Samples
	words := strings.Fields(s.Query)

	r := cli(t, nil, append([]string{"search", "--province", s.Province, "--json", "--limit", "20"}, words...)...)
	ok(t, r)
	var got grocery.SearchResult
	decode(t, r.stdout, &got)
	want, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: strings.Join(words, " "), Province: s.Province, Limit: grocery.Some(20)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, &got); diff != "" {
		t.Errorf("search (-library +cli):\n%s", diff)
	}
	if len(want.Results) == 0 {
		t.Fatalf("search %q found nothing: the sample query should", s.Query)
	}

}

func TestHistory(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	s := demoSummary.Samples

	for _, period := range []string{"", "90d"} {
		args := []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--json"}
		if period != "" {
			args = append(args, "--period", period)
		}
		r := cli(t, nil, args...)
		ok(t, r)
		got := new(grocery.HistoryResult)
		if err := json.Unmarshal([]byte(r.stdout), got); err != nil {
			t.Fatalf("decoding: %v\n%s", err, r.stdout)
		}
		want, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: s.SKU, Banner: s.Banner, Province: s.Province, Period: period})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("history %q (-library +cli):\n%s", period, diff)
		}
		if len(want.Points) == 0 {
			t.Errorf("history %q: no points; the sample SKU should have some", period)
		}
	}
}

func TestStores(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	s := demoSummary.Samples

	tests := []struct {
		name string
		args []string
		in   grocery.StoresInput
	}{
		{"All", nil, grocery.StoresInput{Limit: grocery.Some(10)}},
		{"Province", []string{"--province", s.Province}, grocery.StoresInput{Province: s.Province, Limit: grocery.Some(10)}},
		{"Banner", []string{"--banner", s.Banner, "--limit", "50"}, grocery.StoresInput{Banner: s.Banner, Limit: grocery.Some(50)}},
		{"BannerName", []string{"--banner", grocery.Banners()[0].Name}, grocery.StoresInput{Banner: grocery.Banners()[0].Slug, Limit: grocery.Some(10)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, nil, append([]string{"stores", "--json"}, tt.args...)...)
			ok(t, r)
			var got grocery.StoresResult
			decode(t, r.stdout, &got)
			want, err := svc.ListReferenceStores(ctx, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			// Active is not part of the JSON: every store listed is active.
			if diff := cmp.Diff(want, &got, cmpopts.IgnoreFields(grocery.Store{}, "Active")); diff != "" {
				t.Errorf("stores (-library +cli):\n%s", diff)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	s := demoSummary.Samples
	missing := t.TempDir() + "/missing.db"
	tests := []struct {
		name string
		env  env
		args []string
		code int
		want string // the whole line on stderr, or its start when it ends in "..."
	}{
		{"BadProvince", nil, []string{"lookup", s.CarriedUPC, "--province", "Ontari"}, exitInvalid,
			`grocery: province "Ontari" is not a Canadian province or territory: want one of AB BC MB NB NL NS NT NU ON PE QC SK YT (or an English or French name)`},
		{"BadProvinceEnv", env{"GROCERY_PROVINCE": "XX"}, []string{"search", "milk"}, exitInvalid,
			`grocery: province "XX" is not a Canadian province or territory: want one of AB BC MB NB NL NS NT NU ON PE QC SK YT...`},
		{"MissingProvince", nil, []string{"lookup", s.CarriedUPC}, exitUsage,
			"grocery: --province is required (or set GROCERY_PROVINCE): one of AB BC MB NB NL NS NT NU ON PE QC SK YT (see 'grocery lookup --help')"},
		{"WrongCheckDigit", nil, []string{"lookup", wrongCheckDigit(s.CarriedUPC), "--province", "ON"}, exitInvalid,
			`grocery: upc "` + wrongCheckDigit(s.CarriedUPC) + `" has a wrong check digit: it ends in ` + wrongCheckDigit(s.CarriedUPC)[len(s.CarriedUPC)-1:] + `, the GS1 check digit should be ` + s.CarriedUPC[len(s.CarriedUPC)-1:]},
		{"NotInCatalogue", nil, []string{"lookup", s.UnknownUPC, "--province", "ON"}, exitFailed,
			"grocery: upc " + s.UnknownUPC + " is a valid barcode but not in the catalogue"},
		{"MissingFile", nil, []string{"lookup", s.CarriedUPC, "--province", "ON", "--db", missing}, exitFailed,
			"grocery: no data file at " + missing + ": run 'grocery demo' to build one, or pass --db PATH (or set GROCERY_DB)"},
		{"MissingFileEnv", env{"GROCERY_DB": missing}, []string{"stores"}, exitFailed,
			"grocery: no data file at " + missing + ": run 'grocery demo' to build one, or pass --db PATH (or set GROCERY_DB)"},
		{"UnknownBanner", nil, []string{"stores", "--banner", "lowblaws"}, exitInvalid,
			`grocery: banner "lowblaws" is unknown: want one of atlantic-superstore, buy-low-foods, co-op, ...`},
		{"UnknownBannerHistory", nil, []string{"history", s.SKU, "--banner", "lowblaws", "--province", s.Province}, exitInvalid,
			`grocery: banner "lowblaws" is unknown: want one of ...`},
		{"BarcodeAsSKU", nil, []string{"history", s.CarriedUPC, "--banner", s.Banner, "--province", s.Province}, exitFailed,
			`grocery: sku "` + s.CarriedUPC + `" is a barcode, not an external_sku: price history is keyed by the banner's own SKU; take the external_sku of an offer or a search hit from 'grocery lookup' or 'grocery search'`},
		{"UnknownSKU", nil, []string{"history", "NOPE", "--banner", s.Banner, "--province", s.Province}, exitFailed,
			`grocery: no external_sku "NOPE" at banner ` + s.Banner + `; take the external_sku of an offer or a search hit from 'grocery lookup' or 'grocery search'`},
		{"RestrictedUPC", nil, []string{"lookup", "212345678909", "--province", "ON"}, exitInvalid,
			`grocery: upc 212345678909 is a restricted-circulation (in-store or random-weight) code: it names different items at different retailers, so it cannot be looked up across banners; search by name with 'grocery search'`},
		{"BadPeriod", nil, []string{"history", s.SKU, "--banner", s.Banner, "--province", s.Province, "--period", "2w"}, exitInvalid,
			`grocery: period "2w" is not supported: want one of 7d, 14d, 30d, 90d, 180d, 365d (default 30d)`},
		{"LimitOutOfRange", nil, []string{"stores", "--limit", "501"}, exitInvalid,
			"grocery: limit 501 is out of range: want 1 to 500"},
		{"LimitZero", nil, []string{"lookup", s.CarriedUPC, "--province", "ON", "--limit", "0"}, exitInvalid,
			"grocery: limit 0 is out of range: want 1 to 500"},
		{"LimitNegative", nil, []string{"search", "milk", "--province", "ON", "--limit", "-1"}, exitInvalid,
			"grocery: limit -1 is out of range: want 1 to 500"},
		{"OffsetNegative", nil, []string{"stores", "--offset", "-1"}, exitInvalid,
			"grocery: offset -1 is out of range: want 0 to 1000000"},
		{"ThresholdNotNumber", nil, []string{"alerts", "create", "--account", "acme", "--name", "x", "--upc", s.CarriedUPC, "--province", "ON", "--condition", "price_below", "--threshold", "abc"}, exitUsage,
			`grocery: invalid argument "abc" for "--threshold" flag: want a number, e.g. 3.99 (see 'grocery alerts create --help')`},
		{"LimitNotNumber", nil, []string{"stores", "--limit", "ten"}, exitUsage,
			`grocery: invalid argument "ten" for "--limit" flag: want a whole number (see 'grocery stores --help')`},
		{"BannerRequired", nil, []string{"history", s.SKU, "--province", s.Province}, exitUsage,
			`grocery: required flag(s) "banner" not set (see 'grocery history --help')`},
		{"UnknownFlag", nil, []string{"lookup", s.CarriedUPC, "--provinec", "ON"}, exitUsage,
			"grocery: unknown flag: --provinec (see 'grocery lookup --help')"},
		{"UnknownCommand", nil, []string{"lokup", s.CarriedUPC}, exitUsage,
			`grocery: unknown command "lokup" for "grocery"; did you mean lookup? (see 'grocery --help')`},
		{"TooManyArgs", nil, []string{"lookup", s.CarriedUPC, s.NotCarriedUPC, "--province", "ON"}, exitUsage,
			"grocery: accepts 1 arg(s), received 2 (see 'grocery lookup --help')"},
		{"NoArgs", nil, []string{"search", "--province", "ON"}, exitUsage,
			"grocery: search needs the words to look for, e.g. grocery search milk --province ON (see 'grocery search --help')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, tt.env, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit: got %d, want %d", r.code, tt.code)
			}
			if r.stdout != "" {
				t.Errorf("stdout: got %q, want nothing", r.stdout)
			}
			line, rest, _ := strings.Cut(r.stderr, "\n")
			if rest != "" {
				t.Errorf("stderr: got %q, want one line", r.stderr)
			}
			if prefix, ok := strings.CutSuffix(tt.want, "..."); ok {
				if !strings.HasPrefix(line, prefix) {
					t.Errorf("stderr:\n got %q\nwant %q", line, tt.want)
				}
			} else if line != tt.want {
				t.Errorf("stderr:\n got %q\nwant %q", line, tt.want)
			}
		})
	}
	if _, err := grocery.Open(missing, &grocery.Options{ReadOnly: true}); grocery.ErrorCode(err) != grocery.ENOTFOUND {
		t.Errorf("a query created the missing data file: %v", err)
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	tests := []struct {
		name string
		args []string
		want []string // lines that must appear
	}{
		{"Province", []string{"__complete", "lookup", "0", "--province", ""}, []string{"ON\tOntario", "QC\tQuebec", ":4"}},
		{"Banner", []string{"__complete", "stores", "--banner", ""}, []string{"loblaws\tLoblaws", "no-frills\tNo Frills", ":4"}},
		{"Period", []string{"__complete", "history", "X", "--period", ""}, []string{"90d", ":4"}},
		{"Scale", []string{"__complete", "demo", "--scale", ""}, []string{"small\tbuilds in seconds", "large\tabout ten million observations"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, env{"GROCERY_DB": demoDB}, tt.args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w+"\n") {
					t.Errorf("completion lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := cli(t, env{"GROCERY_DB": demoDB}, "completion", shell)
		ok(t, r)
		if !strings.Contains(r.stdout, "grocery") {
			t.Errorf("completion %s: got %d bytes without the command's name", shell, len(r.stdout))
		}
	}
}

// findLine returns the first line of s that contains substr, or "".
func findLine(s, substr string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			return l
		}
	}
	return ""
}

// wrongCheckDigit returns upc with its last digit changed.
func wrongCheckDigit(upc string) string {
	last := upc[len(upc)-1]
	return upc[:len(upc)-1] + string('0'+(last-'0'+1)%10)
}

// TestJSONErrors: with --json, an error is one JSON object on stderr with a
// machine-readable code, and the exit status tells the kind of failure.
func TestJSONErrors(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	s := demoSummary.Samples
	tests := []struct {
		name string
		args []string
		exit int
		code string
		msg  string // the start of the message
	}{
		{"NotFound", []string{"lookup", s.UnknownUPC, "--province", "ON", "--json"}, exitFailed, grocery.ENOTFOUND,
			"upc " + s.UnknownUPC + " is a valid barcode but not in the catalogue"},
		{"Invalid", []string{"search", "milk", "--province", "Ontari", "--json"}, exitInvalid, grocery.EINVALIDARGUMENT,
			`province "Ontari" is not a Canadian province`},
		{"Usage", []string{"stores", "--limit", "ten", "--json"}, exitUsage, "usage",
			`invalid argument "ten" for "--limit" flag`},
		{"Plans", []string{"keys", "list", "--json", "--db", t.TempDir() + "/none.db"}, exitFailed, grocery.ENOTFOUND,
			"no data file at "},
		// Exit 4 is documented as "its server does not answer": a Redis
		// that does not answer is that too.
		{"Unavailable", []string{"keys", "list", "--json", "--redis", deadRedisURL(t)}, exitUnavailable, grocery.EUNAVAILABLE,
			"the key store (Redis at 127.0.0.1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, nil, tt.args...)
			if r.code != tt.exit {
				t.Errorf("exit: got %d, want %d", r.code, tt.exit)
			}
			if r.stdout != "" {
				t.Errorf("stdout: got %q, want nothing", r.stdout)
			}
			var got struct{ Code, Message string }
			dec := json.NewDecoder(strings.NewReader(r.stderr))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("stderr is not one JSON object {code, message}: %v\n%s", err, r.stderr)
			}
			if dec.More() {
				t.Errorf("stderr has more than one JSON value: %s", r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
			if got.Code != tt.code || !strings.HasPrefix(got.Message, tt.msg) {
				t.Errorf("got {%q, %q}, want {%q, %q...}", got.Code, got.Message, tt.code, tt.msg)
			}
		})
	}
}

// deadRedisURL returns the URL of a loopback port where nothing listens.
func deadRedisURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "redis://" + addr + "/0"
}

// TestJSONNotHTMLEscaped: --json prints '&', '<' and '>' as they are (A&W,
// not A\u0026W): the output is for people and programs, not for HTML.
func TestJSONNotHTMLEscaped(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	r := cli(t, nil, "search", "a&w", "--province", "ON", "--json")
	ok(t, r)
	if strings.Contains(r.stdout, `\u0026`) || !strings.Contains(r.stdout, `"query": "a&w"`) {
		t.Errorf("got %s, want \"query\": \"a&w\" with no \\u0026", r.stdout)
	}
}
