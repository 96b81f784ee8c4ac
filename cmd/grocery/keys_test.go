package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
)

// keyLine is the whole stdout of 'keys create': the key alone.
var keyLine = regexp.MustCompile(`^gro_pk_[0-9A-Za-z]{40}\n$`)

// keyDB returns the path of a data file (not yet created) in a new
// directory with a short path: its admin socket's path must fit the
// roughly 100 bytes of a Unix socket address.
func keyDB(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "gk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "k.db")
}

// createKey runs 'keys create' and returns the key it printed.
func createKey(t *testing.T, e env, db string, args ...string) string {
	t.Helper()
	r := cli(t, e, append([]string{"keys", "create", "--db", db}, args...)...)
	if r.code != 0 || !keyLine.MatchString(r.stdout) {
		t.Fatalf("keys create %s: got exit %d, stdout %q, stderr %q; want a key alone on stdout", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

// publicPart returns how 'keys list' shows a key: gro_pk_ and its id.
func publicPart(key string) string { return key[:len("gro_pk_")+8] }

// noSecret fails the test if the command's output holds the key's secret.
func noSecret(t *testing.T, r result, key string) {
	t.Helper()
	secret := key[len(key)-32:]
	if strings.Contains(r.stdout, secret) || strings.Contains(r.stderr, secret) {
		t.Errorf("the key's secret appears in the output:\nstdout %q\nstderr %q", r.stdout, r.stderr)
	}
}

// authenticate opens the data file and checks a key against it.
func authenticate(t *testing.T, db, key string) error {
	t.Helper()
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	_, err = svc.Authenticate(context.Background(), key, grocery.InterfaceMCP)
	return err
}

// fails fails the test unless the command exited with code and its stderr
// is the one line want.
func fails(t *testing.T, r result, code int, want string) {
	t.Helper()
	if r.code != code || r.stderr != want+"\n" || r.stdout != "" {
		t.Errorf("got exit %d, stdout %q, stderr %q\nwant exit %d, stderr %q", r.code, r.stdout, r.stderr, code, want)
	}
}

func TestKeysCreate(t *testing.T) {
	db := keyDB(t)

	t.Run("OK", func(t *testing.T) {
		r := cli(t, nil, "keys", "create", "--account", "acme", "--plan", "starter", "--db", db)
		if r.code != 0 || !keyLine.MatchString(r.stdout) {
			t.Fatalf("got exit %d, stdout %q, stderr %q; want one line holding a key", r.code, r.stdout, r.stderr)
		}
		key := strings.TrimSpace(r.stdout)
		for _, w := range []string{publicPart(key), "account acme", "plan starter", "1,000 calls a month", "shown this once", "private configuration"} {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("stderr %q lacks %q", r.stderr, w)
			}
		}
		noSecret(t, result{stderr: r.stderr}, key)
		if err := authenticate(t, db, key); err != nil {
			t.Errorf("the new key: %v", err)
		}
	})

	t.Run("ExistingAccount", func(t *testing.T) {
		// No --plan: the account keeps its plan.
		r := cli(t, nil, "keys", "create", "--account", "acme", "--db", db)
		if r.code != 0 || !keyLine.MatchString(r.stdout) || !strings.Contains(r.stderr, "plan starter") {
			t.Errorf("got exit %d, stdout %q, stderr %q; want a second starter key", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("Quota", func(t *testing.T) {
		r := cli(t, nil, "keys", "create", "--account", "small", "--plan", "integration", "--quota", "50", "--db", db)
		if r.code != 0 || !strings.Contains(r.stderr, "plan integration, 50 calls a month") {
			t.Errorf("got exit %d, stderr %q; want an integration key limited to 50 calls", r.code, r.stderr)
		}
	})

	t.Run("PlanQuotas", func(t *testing.T) {
		e := env{"GROCERY_PLAN_QUOTAS": "starter=2000, integration=5_000_000"}
		r := cli(t, e, "keys", "create", "--account", "sized", "--plan", "starter", "--db", db)
		if r.code != 0 || !strings.Contains(r.stderr, "2,000 calls a month") {
			t.Errorf("got exit %d, stderr %q; want 2,000 calls a month", r.code, r.stderr)
		}
	})

	t.Run("KeyPrefix", func(t *testing.T) {
		db := keyDB(t)
		re := regexp.MustCompile(`^acme_pk_[0-9A-Za-z]{40}\n$`)
		for _, r := range []result{
			cli(t, env{"GROCERY_KEY_PREFIX": "acme"}, "keys", "create", "--account", "a", "--plan", "starter", "--db", db),
			cli(t, env{"GROCERY_KEY_PREFIX": "other"}, "keys", "create", "--account", "a", "--key-prefix", "acme", "--db", db),
		} {
			if r.code != 0 || !re.MatchString(r.stdout) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want an acme_pk_ key", r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("ErrUnknownPlan", func(t *testing.T) {
		r := cli(t, nil, "keys", "create", "--account", "acme", "--plan", "gold", "--db", db)
		fails(t, r, exitInvalid, `grocery: plan "gold" is unknown: want one of starter, professional, integration`)
	})

	t.Run("ErrNewAccountWithoutPlan", func(t *testing.T) {
		r := cli(t, nil, "keys", "create", "--account", "newco", "--db", db)
		fails(t, r, exitInvalid, `grocery: account "newco" is new: a plan is required, one of starter, professional, integration`)
	})

	t.Run("ErrLeavesNoFile", func(t *testing.T) {
		// A failed create on a new data file does not leave the file behind.
		db := keyDB(t)
		r := cli(t, nil, "keys", "create", "--account", "newco", "--db", db)
		if r.code != exitInvalid {
			t.Errorf("got exit %d, want %d", r.code, exitInvalid)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("data file after a failed create: got %v, want none", err)
		}
	})

	usage := []struct {
		name string
		e    env
		args []string
		want string
	}{
		{"ErrNoAccount", nil, []string{"--plan", "starter"}, `grocery: required flag(s) "account" not set (see 'grocery keys create --help')`},
		{"ErrNegativeQuota", nil, []string{"--account", "a", "--plan", "starter", "--quota", "-1"}, `grocery: --quota -1: want a positive number of calls a month (see 'grocery keys create --help')`},
		{"ErrPlanQuotasName", env{"GROCERY_PLAN_QUOTAS": "gold=5"}, []string{"--account", "a", "--plan", "starter"},
			`grocery: GROCERY_PLAN_QUOTAS: unknown plan "gold": want PLAN=CALLS,... with PLAN one of starter, professional, integration (see 'grocery keys create --help')`},
		{"ErrPlanQuotasNumber", env{"GROCERY_PLAN_QUOTAS": "starter=lots"}, []string{"--account", "a", "--plan", "starter"},
			`grocery: GROCERY_PLAN_QUOTAS: "starter=lots": want a positive whole number of calls a month for starter (see 'grocery keys create --help')`},
		{"ErrPlanQuotasZero", env{"GROCERY_PLAN_QUOTAS": "starter=0"}, []string{"--account", "a", "--plan", "starter"},
			`grocery: GROCERY_PLAN_QUOTAS: "starter=0": want a positive whole number of calls a month for starter (see 'grocery keys create --help')`},
	}
	for _, tt := range usage {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, tt.e, append([]string{"keys", "create", "--db", db}, tt.args...)...)
			fails(t, r, 2, tt.want)
		})
	}
}

func TestKeysList(t *testing.T) {
	db := keyDB(t)

	t.Run("ErrNoFile", func(t *testing.T) {
		r := cli(t, nil, "keys", "list", "--db", db)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "grocery: no data file at "+db) {
			t.Errorf("got exit %d, stderr %q; want the missing data file named", r.code, r.stderr)
		}
	})

	k1 := createKey(t, nil, db, "--account", "acme", "--plan", "integration")
	k2 := createKey(t, nil, db, "--account", "bob", "--plan", "starter")

	t.Run("Table", func(t *testing.T) {
		r := cli(t, nil, "keys", "list", "--db", db)
		ok(t, r)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if got, want := strings.Fields(lines[0]), []string{"ID", "ACCOUNT", "PLAN", "CREATED", "LAST", "USED", "REVOKED"}; !cmp.Equal(got, want) {
			t.Errorf("header: got %q, want %q", got, want)
		}
		if len(lines) != 3 {
			t.Fatalf("got %d lines, want a header and 2 keys:\n%s", len(lines), r.stdout)
		}
		for i, want := range [][]string{{publicPart(k1), "acme", "integration"}, {publicPart(k2), "bob", "starter"}} {
			f := strings.Fields(lines[i+1])
			if len(f) != 5 || !cmp.Equal(f[:3], want) || f[4] != "never" {
				t.Errorf("row %d: got %q, want %q, a creation time and never used", i+1, f, want)
			}
		}
		noSecret(t, r, k1)
		noSecret(t, r, k2)
	})

	t.Run("JSON", func(t *testing.T) {
		r := cli(t, nil, "keys", "list", "--json", "--db", db)
		ok(t, r)
		var got []grocery.KeyInfo
		decode(t, r.stdout, &got)
		if len(got) != 2 || got[0].Prefix != publicPart(k1) || got[1].Prefix != publicPart(k2) || got[0].LastUsed != nil || got[0].Revoked != nil {
			t.Errorf("got %+v, want the two keys, never used nor revoked", got)
		}
		// The id is the one the table shows and keys revoke takes.
		for i, k := range got {
			if k.ID != k.Prefix {
				t.Errorf("key %d: id %q, want %q as the table shows it", i, k.ID, k.Prefix)
			}
		}
		noSecret(t, r, k1)
		noSecret(t, r, k2)
	})

	t.Run("Empty", func(t *testing.T) {
		db := keyDB(t)
		svc, err := grocery.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		svc.Close()
		r := cli(t, nil, "keys", "list", "--db", db)
		ok(t, r)
		if !strings.HasPrefix(r.stdout, "No API keys yet") {
			t.Errorf("got %q, want a note that there are no keys", r.stdout)
		}
	})
}

func TestKeysRevoke(t *testing.T) {
	db := keyDB(t)
	byPublic := createKey(t, nil, db, "--account", "acme", "--plan", "starter")
	byID := createKey(t, nil, db, "--account", "acme")
	byKey := createKey(t, nil, db, "--account", "acme")
	kept := createKey(t, nil, db, "--account", "acme")

	keyFile := filepath.Join(t.TempDir(), "acme.key")
	if err := os.WriteFile(keyFile, []byte(byKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	byStdin := createKey(t, nil, db, "--account", "acme")
	for _, tt := range []struct {
		name, key, stdin string
		args             []string
	}{
		{"PublicID", byPublic, "", []string{publicPart(byPublic)}},
		{"ID", byID, "", []string{byID[len("gro_pk_") : len("gro_pk_")+8]}},
		{"KeyFile", byKey, "", []string{"--key-file", keyFile}},
		{"KeyStdin", byStdin, byStdin + "\n", []string{"--key-file", "-"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := cliIn(t, tt.stdin, append([]string{"keys", "revoke", "--db", db}, tt.args...)...)
			want := "Key " + publicPart(tt.key) + " of account acme is revoked (since "
			if r.code != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("got exit %d, stdout %q, stderr %q; want one line on stderr starting %q", r.code, r.stdout, r.stderr, want)
			}
			noSecret(t, r, tt.key)
			errCode(t, authenticate(t, db, tt.key), grocery.EUNAUTHENTICATED)
		})
	}
	t.Run("ErrKeyInArgs", func(t *testing.T) {
		// A whole key on the command line is visible to other users (ps).
		r := cli(t, nil, "keys", "revoke", kept, "--db", db)
		fails(t, r, 2, "grocery: keys revoke: a whole key on the command line is visible to other users (ps): give its id ("+publicPart(kept)+") or pass the key with --key-file FILE, or --key-file - to read it from stdin (see 'grocery keys revoke --help')")
		noSecret(t, r, kept)
		if err := authenticate(t, db, kept); err != nil {
			t.Errorf("a refused revocation revoked: %v", err)
		}
	})
	if err := authenticate(t, db, kept); err != nil {
		t.Errorf("the key not revoked: %v", err)
	}

	t.Run("Listed", func(t *testing.T) {
		r := cli(t, nil, "keys", "list", "--json", "--db", db)
		ok(t, r)
		var keys []grocery.KeyInfo
		decode(t, r.stdout, &keys)
		revoked := 0
		for _, k := range keys {
			if k.Revoked != nil {
				revoked++
			}
		}
		if revoked != 4 {
			t.Errorf("got %d revoked keys listed, want 4", revoked)
		}
	})

	t.Run("ErrUnknown", func(t *testing.T) {
		unknown := kept[:len(kept)-4] + "0000"
		if unknown == kept {
			unknown = kept[:len(kept)-4] + "1111"
		}
		r := cliIn(t, unknown, "keys", "revoke", "--key-file", "-", "--db", db)
		fails(t, r, 1, `grocery: no key matches "`+publicPart(kept)+`...": give a key id from 'keys list' or the whole key`)
		noSecret(t, r, unknown)
	})

	t.Run("ErrNoArg", func(t *testing.T) {
		r := cli(t, nil, "keys", "revoke", "--db", db)
		if r.code != 2 {
			t.Errorf("got exit %d, want 2", r.code)
		}
	})
}

func TestUsage(t *testing.T) {
	ctx := context.Background()
	db := keyDB(t)
	key := createKey(t, nil, db, "--account", "acme", "--plan", "professional")

	// Three calls through the library, as a server makes them.
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Authenticate(ctx, key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := svc.Consume(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Close(); err != nil {
		t.Fatal(err)
	}

	t.Run("JSON", func(t *testing.T) {
		r := cli(t, nil, "usage", "--account", "acme", "--json", "--db", db)
		ok(t, r)
		var got grocery.AccountUsage
		decode(t, r.stdout, &got)
		if got.Account != "acme" || got.Plan != "professional" || got.Used != 3 || got.Limit != 25000 || got.Remaining != 24997 {
			t.Errorf("got %+v, want 3 of 25000 used on professional", got)
		}
		if n := len(got.Days); n != grocery.UsageDays || got.Days[n-1].Calls != 3 {
			t.Errorf("days: got %+v, want %d ending with today's 3 calls", got.Days, grocery.UsageDays)
		}
		if got.Reset.IsZero() || got.Reset.Day() != 1 || got.Reset.Hour() != 0 {
			t.Errorf("reset: got %v, want the first instant of a month", got.Reset)
		}
	})

	t.Run("Table", func(t *testing.T) {
		r := cli(t, nil, "usage", "--account", "acme", "--db", db)
		ok(t, r)
		for _, re := range []string{`(?m)^account +acme$`, `(?m)^used +3$`, `(?m)^limit +25,000$`, `(?m)^remaining +24,997$`,
			`(?m)^reset +\d{4}-\d\d-01T00:00:00Z \(in (\d+ days|\d+ hours?|less than an hour)\)$`,
			`(?m)^Calls by day \(UTC\), the last 30 days:\n\d{4}-\d\d-\d\d +3$`} {
			if !regexp.MustCompile(re).MatchString(r.stdout) {
				t.Errorf("output lacks %s:\n%s", re, r.stdout)
			}
		}
	})

	t.Run("ErrUnknownAccount", func(t *testing.T) {
		fails(t, cli(t, nil, "usage", "--account", "nobody", "--db", db), 1, `grocery: no account "nobody"`)
	})
}

func TestPlans(t *testing.T) {
	// No data file is needed.
	db := keyDB(t)

	t.Run("Table", func(t *testing.T) {
		r := cli(t, nil, "plans", "--db", db)
		ok(t, r)
		for _, re := range []string{`(?m)^starter +1,000 +MCP +-$`, `(?m)^professional +25,000 +MCP +-$`, `(?m)^integration +1,000,000 +MCP \+ REST +4,999 CAD/month$`} {
			if !regexp.MustCompile(re).MatchString(r.stdout) {
				t.Errorf("output lacks %s:\n%s", re, r.stdout)
			}
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("plans created the data file")
		}
	})

	t.Run("JSON", func(t *testing.T) {
		r := cli(t, env{"GROCERY_PLAN_QUOTAS": "professional=30000"}, "plans", "--json", "--db", db)
		ok(t, r)
		var got []grocery.Plan
		decode(t, r.stdout, &got)
		want := grocery.DefaultPlans()
		want[1].Quota = 30000
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("plans (-want +got):\n%s", diff)
		}
		// The table's "-": no published price is null, not a price of 0.
		if n := strings.Count(r.stdout, `"price_cad": null`); n != 2 {
			t.Errorf("got %d plans with \"price_cad\": null, want 2 (starter, professional):\n%s", n, r.stdout)
		}
	})
}

// TestKeysThroughServer runs the key commands while a server holds the
// data file: they reach it through its admin socket.
func TestKeysThroughServer(t *testing.T) {
	ctx := context.Background()
	db := keyDB(t)
	// The server: holds the file for writing, with plans of its own.
	plans := grocery.DefaultPlans()
	plans[0].Quota = 123
	svc, err := grocery.Open(db, &grocery.Options{Plans: plans})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := admin.Listen(svc, admin.SocketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	key := createKey(t, nil, db, "--account", "acme", "--plan", "starter")
	p, err := svc.Authenticate(ctx, key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatalf("the server does not know the key the CLI created: %v", err)
	}
	if _, err := svc.Consume(ctx, p); err != nil {
		t.Fatal(err)
	}

	r := cli(t, nil, "keys", "list", "--db", db)
	ok(t, r)
	if !strings.Contains(r.stdout, publicPart(key)) {
		t.Errorf("keys list lacks %s:\n%s", publicPart(key), r.stdout)
	}
	noSecret(t, r, key)

	// The live count and the server's plan sizes.
	r = cli(t, nil, "usage", "--account", "acme", "--json", "--db", db)
	ok(t, r)
	var u grocery.AccountUsage
	decode(t, r.stdout, &u)
	if u.Used != 1 || u.Limit != 123 || len(u.Days) != grocery.UsageDays || u.Days[len(u.Days)-1].Calls != 1 {
		t.Errorf("usage: got %d of %d and days %+v, want 1 of 123 (the server's count and plan), 1 call today", u.Used, u.Limit, u.Days)
	}
	r = cli(t, nil, "plans", "--json", "--db", db)
	ok(t, r)
	var got []grocery.Plan
	decode(t, r.stdout, &got)
	if diff := cmp.Diff(plans, got); diff != "" {
		t.Errorf("plans: want the server's (-want +got):\n%s", diff)
	}

	r = cli(t, nil, "keys", "revoke", publicPart(key), "--db", db)
	if r.code != 0 {
		t.Fatalf("keys revoke: exit %d, stderr %q", r.code, r.stderr)
	}
	// The server refuses the key as soon as the command returns.
	_, err = svc.Authenticate(ctx, key, grocery.InterfaceMCP)
	errCode(t, err, grocery.EUNAUTHENTICATED)
}

// TestKeysFileHeld: a process holds the data file and nothing answers on
// its socket (none, or a stale one): one line, exit 4, after the lock
// timeout rather than a hang.
func TestKeysFileHeld(t *testing.T) {
	for _, stale := range []bool{false, true} {
		name := "NoSocket"
		if stale {
			name = "StaleSocket"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			db := keyDB(t)
			svc, err := grocery.Open(db, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			sock := admin.SocketPath(db)
			if stale {
				ln, err := net.Listen("unix", sock)
				if err != nil {
					t.Fatal(err)
				}
				ln.(*net.UnixListener).SetUnlinkOnClose(false)
				ln.Close()
			}
			r := cli(t, nil, "keys", "create", "--account", "acme", "--plan", "starter", "--db", db)
			fails(t, r, exitUnavailable, "grocery: data file "+db+" is in use by another process and nothing answers on "+sock+": is a server running with this --db?")
		})
	}
}

// errCode fails the test unless err has the wanted code.
func errCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := grocery.ErrorCode(err); got != want {
		tb.Fatalf("error code: got %q (%v), want %q", got, err, want)
	}
}

// TestImportThroughServer: while a server holds the data file, 'grocery
// import' sends the files through its admin socket.
func TestImportThroughServer(t *testing.T) {
	ctx := context.Background()
	db := keyDB(t)
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := admin.Listen(svc, admin.SocketPath(db))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	stores := filepath.Join(dir, "stores.csv")
	prices := filepath.Join(dir, "prices.csv")
	os.WriteFile(stores, []byte("store_id,banner,province,name,city,postal_code,latitude,longitude\nm-1,metro,QC,Metro Plateau,Montréal,H2J 2X9,45.53,-73.58\n"), 0o600)
	os.WriteFile(prices, []byte("date,store_id,banner,external_sku,price,upc,name,brand,size,category\n2026-11-19,m-1,metro,MET0001,5.49,068000000154,2% Milk,Natrel,2 L,Dairy\n"), 0o600)

	r := cli(t, nil, "import", stores, prices, "--db", db)
	ok(t, r)
	if !strings.Contains(r.stdout, "prices.csv: observations csv, 1 row read: 1 new") {
		t.Fatalf("got %q, want the count line of each file", r.stdout)
	}
	res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: "068000000154", Province: "QC"})
	if err != nil || len(res.Offers) != 1 {
		t.Fatalf("the server's lookup: %+v, %v; want the imported offer", res, err)
	}
}

// cliIn runs the CLI as cli does, with stdin.
func cliIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRootCmd(strings.NewReader(stdin), nil, nil, env{}.get)
	root.SetOut(&out)
	root.SetErr(&errb)
	code := execute(context.Background(), root, args, env{}.get)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}
