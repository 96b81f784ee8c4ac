package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
)

// TestReportPeriod: each period report's --json is the library's result,
// its table shows the result's rows, and bad flags fail with the
// library's message.
func TestReportPeriod(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	svc := openDemo(t)
	prov := demoSummary.Samples.Province

	t.Run("CategoryJSON", func(t *testing.T) {
		r := cli(t, nil, "report", "category", "--province", prov, "--period", "90d", "--json")
		ok(t, r)
		var got grocery.CategoryReport
		decode(t, r.stdout, &got)
		want, err := svc.CategoryReport(ctx, grocery.CategoryReportInput{Province: prov, Period: "90d"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, &got); diff != "" {
			t.Errorf("report category (-library +cli):\n%s", diff)
		}
	})

	t.Run("PromosJSONPage", func(t *testing.T) {
		in := grocery.PromoCalendarInput{Province: prov, Category: "Dairy & Eggs", Limit: grocery.Some(3), Offset: 2}
		want, err := svc.PromoCalendar(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		r := cli(t, nil, "report", "promos", "--province", prov, "--category", "Dairy & Eggs", "--limit", "3", "--offset", "2", "--json")
		ok(t, r)
		var got grocery.PromoCalendar
		decode(t, r.stdout, &got)
		if diff := cmp.Diff(want, &got); diff != "" {
			t.Errorf("report promos (-library +cli):\n%s", diff)
		}
		if want.Total <= 5 {
			t.Fatalf("the demo has %d dairy promotions: want more than a page", want.Total)
		}
		r = cli(t, nil, "report", "promos", "--province", prov, "--category", "Dairy & Eggs", "--limit", "3", "--offset", "2")
		ok(t, r)
		for _, e := range want.Results {
			if line := findLine(r.stdout, e.ExternalSKU); !strings.HasPrefix(line, e.Start.String()) {
				t.Errorf("line of %s: got %q, want it to start on %s", e.ExternalSKU, line, e.Start)
			}
		}
		if wantLine := "3 to 5 of " + count(want.Total) + " promotions (--offset 5 for the next page)"; findLine(r.stdout, "promotions (") != wantLine {
			t.Errorf("page line: got %q, want %q", findLine(r.stdout, "promotions ("), wantLine)
		}
	})

	t.Run("NewJSON", func(t *testing.T) {
		want, err := svc.NewOnShelf(ctx, grocery.NewOnShelfInput{Province: prov, Days: grocery.Some(30)})
		if err != nil {
			t.Fatal(err)
		}
		r := cli(t, nil, "report", "new", "--province", prov, "--days", "30", "--json")
		ok(t, r)
		var got grocery.NewOnShelf
		decode(t, r.stdout, &got)
		if diff := cmp.Diff(want, &got); diff != "" {
			t.Errorf("report new (-library +cli):\n%s", diff)
		}
	})

	errs := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"ErrMissingProvince", []string{"report", "category"}, exitUsage,
			"grocery: --province is required (or set GROCERY_PROVINCE): one of AB BC MB NB NL NS NT NU ON PE QC SK YT (see 'grocery report category --help')"},
		{"ErrPeriod", []string{"report", "category", "--province", prov, "--period", "2y"}, exitInvalid, "grocery: period \"2y\" ..."},
		{"ErrBanner", []string{"report", "promos", "--province", prov, "--banner", "lowblaws"}, exitInvalid, `grocery: banner "lowblaws" is unknown: want one of ...`},
		{"ErrFromAfterTo", []string{"report", "promos", "--province", prov, "--from", "2026-11-10", "--to", "2026-11-01"}, exitInvalid,
			"grocery: from 2026-11-10 is after to 2026-11-01"},
		{"ErrLimit", []string{"report", "promos", "--province", prov, "--limit", "0"}, exitInvalid,
			"grocery: limit 0 is out of range: want 1 to 500"},
		{"ErrDays", []string{"report", "new", "--province", prov, "--days", "0"}, exitInvalid,
			"grocery: days 0 is out of range: want 1 to 365 (default 14)"},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			r := cli(t, nil, e.args...)
			got := strings.TrimSuffix(r.stderr, "\n")
			match := got == e.want
			if pre, cut := strings.CutSuffix(e.want, "..."); cut {
				match = strings.HasPrefix(got, pre)
			}
			if r.code != e.code || !match || r.stdout != "" {
				t.Errorf("got exit %d, stderr %q, stdout %q\nwant exit %d, stderr %q", r.code, got, r.stdout, e.code, e.want)
			}
		})
	}
}
