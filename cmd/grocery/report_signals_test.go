package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grocerydata/grocery/grocery"
)

// TestReportSignals: report signals prints the library's result as JSON
// with --json and a table without, and --account adds that account's
// watchlist, from the file and through a server alike.
func TestReportSignals(t *testing.T) {
	t.Parallel() // reads the demo file, or a file of its own
	ctx := context.Background()
	s := demoSummary.Samples
	t.Run("OK", func(t *testing.T) {
		svc := openDemo(t)
		in := grocery.SignalsInput{Province: s.Province, Banner: s.Banner, Kind: "changes", Limit: grocery.Some(5)}
		want, err := svc.Signals(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Results) == 0 {
			t.Fatalf("the demo data has no %s signals for %s in %s: the test shows nothing", in.Kind, in.Banner, in.Province)
		}
		args := []string{"report", "signals", "--province", s.Province, "--banner", s.Banner, "--kind", "changes", "--limit", "5"}
		r := cli(t, nil, append(args, "--json")...)
		ok(t, r)
		var got grocery.SignalsResult
		decode(t, r.stdout, &got)
		if d := cmp.Diff(want, &got, cmpopts.IgnoreUnexported(grocery.Signal{})); d != "" {
			t.Errorf("(-library +cli):\n%s", d)
		}
	})
	t.Run("SummaryOfKind", func(t *testing.T) {
		// --kind lists one kind; the summary line still counts them all.
		svc := openDemo(t)
		all, err := svc.Signals(ctx, grocery.SignalsInput{Province: s.Province, Banner: s.Banner})
		if err != nil {
			t.Fatal(err)
		}
		c := all.Counts
		if c.Threats == 0 || c.Opportunities == 0 || c.Changes == 0 {
			t.Fatalf("the demo data has counts %+v for %s in %s: the test shows nothing", c, s.Banner, s.Province)
		}
		r := cli(t, nil, "report", "signals", "--province", s.Province, "--banner", s.Banner, "--kind", "threats", "--limit", "3")
		ok(t, r)
		first, _, _ := strings.Cut(r.stdout, "\n")
		want := fmt.Sprintf("Signals for %s in %s, %s to %s: %d threats, %d opportunities, %d changes, 0 watched; listing the threats.",
			s.Banner, s.Province, all.Since, all.To, c.Threats, c.Opportunities, c.Changes)
		if first != want {
			t.Errorf("got %q, want %q", first, want)
		}
	})
	t.Run("Watchlist", func(t *testing.T) {
		db := copyDemo(t)
		svc, err := grocery.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"}); err != nil {
			t.Fatal(err)
		}
		acme := grocery.NewContextWithAccount(ctx, "acme")
		if _, err := svc.CreateAlert(acme, grocery.AlertInput{Name: "watched", UPC: s.CarriedUPC, Province: s.Province, Condition: "promo_start"}); err != nil {
			t.Fatal(err)
		}
		svc.Close()
		args := []string{"report", "signals", "--province", s.Province, "--kind", "watchlist", "--account", "acme", "--db", db}
		fromFile := cli(t, nil, append(args, "--json")...)
		ok(t, fromFile)
		var got grocery.SignalsResult
		decode(t, fromFile.stdout, &got)
		if got.Counts.Watchlist != 1 || len(got.Results) != 1 || got.Results[0].Evidence.UPC != s.CarriedUPC {
			t.Fatalf("got %+v, want the one watched product %s", got.Results, s.CarriedUPC)
		}
		serveAdmin(t, db)
		held := cli(t, nil, append(args, "--json")...)
		ok(t, held)
		if held.stdout != fromFile.stdout {
			t.Errorf("through the server, stdout differs from byte %d:\n got %q\nwant %q", firstDiff(held.stdout, fromFile.stdout), held.stdout, fromFile.stdout)
		}
	})
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"ErrKind":     {[]string{"--kind", "rumours"}, "kind \"rumours\""},
		"ErrLimit":    {[]string{"--limit", "0"}, "limit 0"},
		"ErrProvince": {nil, "--province is required"},
	} {
		t.Run(name, func(t *testing.T) {
			args := []string{"report", "signals"}
			if name != "ErrProvince" {
				args = append(args, "--province", s.Province)
			}
			r := cli(t, nil, append(args, c.args...)...)
			if r.code == 0 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("got exit %d, stderr %q; want a failure saying %q", r.code, r.stderr, c.want)
			}
		})
	}
}
