package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
)

// adminTempDir returns a new directory with a short path, removed when the
// test ends: a Unix socket's path is limited to about 100 bytes, which a
// t.TempDir() path may not leave room for.
func adminTempDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "gs")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// MustServeAdmin opens a new data file, serves it on its admin socket and
// returns the service, the socket's path and a client of it. The server
// and then the service are closed when the test ends.
func MustServeAdmin(tb testing.TB) (*grocery.Service, string, *admin.Client) {
	tb.Helper()
	db := filepath.Join(adminTempDir(tb), "g.db")
	svc, err := grocery.Open(db, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { svc.Close() })
	sock := admin.SocketPath(db)
	srv, err := admin.Listen(svc, sock)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := srv.Close(); err != nil {
			tb.Errorf("closing the admin server: %v", err)
		}
	})
	return svc, sock, admin.Dial(sock)
}

// adminErrIs fails the test unless err has the wanted code and its
// message holds each of want.
func adminErrIs(tb testing.TB, err error, code string, want ...string) {
	tb.Helper()
	errCode(tb, err, code)
	msg := grocery.ErrorMessage(err)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			tb.Errorf("message: got %q, want it to hold %q", msg, w)
		}
	}
}

func TestSocketPath(t *testing.T) {
	if got, want := admin.SocketPath("/srv/grocery.db"), "/srv/grocery.db.sock"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAdminCalls(t *testing.T) {
	ctx := context.Background()
	svc, _, c := MustServeAdmin(t)

	created, err := c.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("CreateKey", func(t *testing.T) {
		if created.Account != "acme" || created.Plan != "starter" || created.Limit != 1000 || !strings.HasPrefix(created.Key, "gro_pk_"+created.ID) {
			t.Errorf("got %+v, want a starter key of acme with a limit of 1000", created)
		}
		// The serving Service knows the key at once.
		p, err := svc.Authenticate(ctx, created.Key, grocery.InterfaceMCP)
		if err != nil {
			t.Fatal(err)
		}
		if p.Account != "acme" || p.KeyID != created.ID {
			t.Errorf("got principal %+v, want account acme, key %s", p, created.ID)
		}
	})

	t.Run("CreateKeyQuota", func(t *testing.T) {
		k, err := c.CreateKey(ctx, grocery.KeyInput{Account: "big", Plan: "integration", Quota: 7})
		if err != nil {
			t.Fatal(err)
		}
		if k.Limit != 7 || k.Plan != "integration" {
			t.Errorf("got limit %d on %q, want 7 on integration", k.Limit, k.Plan)
		}
	})

	t.Run("ErrUnknownPlan", func(t *testing.T) {
		_, err := c.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "gold"})
		adminErrIs(t, err, grocery.EINVALIDARGUMENT, "gold", "starter, professional, integration")
	})

	t.Run("ErrNewAccountWithoutPlan", func(t *testing.T) {
		_, err := c.CreateKey(ctx, grocery.KeyInput{Account: "newco"})
		adminErrIs(t, err, grocery.EINVALIDARGUMENT, "newco", "plan is required")
	})

	t.Run("ErrAccountName", func(t *testing.T) {
		_, err := c.CreateKey(ctx, grocery.KeyInput{Account: "a b", Plan: "starter"})
		errCode(t, err, grocery.EINVALIDARGUMENT)
	})

	t.Run("ListKeys", func(t *testing.T) {
		got, err := c.ListKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want, err := svc.ListKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListKeys (-service +client):\n%s", diff)
		}
	})

	t.Run("AccountUsage", func(t *testing.T) {
		p, err := svc.Authenticate(ctx, created.Key, grocery.InterfaceMCP)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if _, err := svc.Consume(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.AccountUsage(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		want, err := svc.AccountUsage(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("AccountUsage (-service +client):\n%s", diff)
		}
		if got.Used != 3 || got.Limit != 1000 || got.Remaining != 997 {
			t.Errorf("got used %d, limit %d, remaining %d; want 3, 1000, 997", got.Used, got.Limit, got.Remaining)
		}
	})

	t.Run("ErrUsageOfUnknown", func(t *testing.T) {
		_, err := c.AccountUsage(ctx, "nobody")
		adminErrIs(t, err, grocery.ENOTFOUND, "nobody")
	})

	t.Run("Plans", func(t *testing.T) {
		got, err := c.Plans(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(svc.Plans(), got); diff != "" {
			t.Errorf("Plans (-service +client):\n%s", diff)
		}
	})

	t.Run("RevokeKeyByID", func(t *testing.T) {
		k, err := c.CreateKey(ctx, grocery.KeyInput{Account: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Authenticate(ctx, k.Key, grocery.InterfaceMCP); err != nil {
			t.Fatal(err)
		}
		info, err := c.RevokeKey(ctx, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if info.ID != k.ID || info.Revoked == nil {
			t.Errorf("got %+v, want key %s revoked", info, k.ID)
		}
		// The serving Service refuses the key as soon as the call returns.
		_, err = svc.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
		errCode(t, err, grocery.EUNAUTHENTICATED)
	})

	t.Run("RevokeKeyByKey", func(t *testing.T) {
		k, err := c.CreateKey(ctx, grocery.KeyInput{Account: "acme"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.RevokeKey(ctx, k.Key); err != nil {
			t.Fatal(err)
		}
		_, err = svc.Authenticate(ctx, k.Key, grocery.InterfaceREST)
		errCode(t, err, grocery.EUNAUTHENTICATED)
		// Another key of the account still works.
		if _, err := svc.Authenticate(ctx, created.Key, grocery.InterfaceMCP); err != nil {
			t.Errorf("the account's other key: %v", err)
		}
	})

	t.Run("ErrRevokeUnknown", func(t *testing.T) {
		// A well-formed key nobody issued: the error must not repeat it.
		key := created.Key[:len(created.Key)-4] + "zzzz"
		if key == created.Key {
			key = created.Key[:len(created.Key)-4] + "yyyy"
		}
		_, err := c.RevokeKey(ctx, key)
		errCode(t, err, grocery.ENOTFOUND)
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), key[len(key)-32:]) {
			t.Errorf("error %q repeats the key's secret", err)
		}
		_, err = c.RevokeKey(ctx, "nope")
		errCode(t, err, grocery.ENOTFOUND)
	})
}

func TestAdminSocketFile(t *testing.T) {
	_, sock, _ := MustServeAdmin(t)
	fi, err := os.Lstat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("%s: got mode %v, want a socket", sock, fi.Mode())
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("socket permissions: got %#o, want 0600", got)
	}
	// The private directory the socket was made in is gone.
	entries, err := os.ReadDir(filepath.Dir(sock))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"g.db", "g.db.sock"}, names); diff != "" {
		t.Errorf("directory of the socket (-want +got):\n%s", diff)
	}
}

func TestAdminConflict(t *testing.T) {
	ctx := context.Background()
	svc, sock, c := MustServeAdmin(t)

	t.Run("ErrServing", func(t *testing.T) {
		srv, err := admin.Listen(svc, sock)
		if err == nil {
			srv.Close()
		}
		adminErrIs(t, err, grocery.ECONFLICT, "another server already serves "+sock)
		// The first server is untouched.
		if _, err := c.Plans(ctx); err != nil {
			t.Errorf("the first server after a refused second: %v", err)
		}
	})

	t.Run("ErrNotASocket", func(t *testing.T) {
		path := filepath.Join(filepath.Dir(sock), "file.sock")
		if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		srv, err := admin.Listen(svc, path)
		if err == nil {
			srv.Close()
		}
		adminErrIs(t, err, grocery.ECONFLICT, "not a socket")
		if b, err := os.ReadFile(path); err != nil || string(b) != "keep me" {
			t.Errorf("the file: got %q, %v; want it untouched", b, err)
		}
	})
}

// leaveStaleSocket leaves a socket file at path that nothing listens on, as a
// crashed server does.
func leaveStaleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatal(err)
	}
}

func TestAdminStaleSocket(t *testing.T) {
	ctx := context.Background()
	dir := adminTempDir(t)
	db := filepath.Join(dir, "g.db")
	sock := admin.SocketPath(db)
	leaveStaleSocket(t, sock)

	// A client finds nothing there.
	_, err := admin.Dial(sock).Plans(ctx)
	if !errors.Is(err, admin.ErrNoAdmin) {
		t.Fatalf("a stale socket: got %v, want ErrNoAdmin", err)
	}

	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := admin.Listen(svc, sock)
	if err != nil {
		t.Fatalf("over a stale socket: %v", err)
	}
	defer srv.Close()
	if _, err := admin.Dial(sock).Plans(ctx); err != nil {
		t.Errorf("after replacing the stale socket: %v", err)
	}
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced socket: got %v, %v; want mode 0600", fi.Mode(), err)
	}
}

func TestAdminClose(t *testing.T) {
	ctx := context.Background()
	dir := adminTempDir(t)
	db := filepath.Join(dir, "g.db")
	svc, err := grocery.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	sock := admin.SocketPath(db)
	srv, err := admin.Listen(svc, sock)
	if err != nil {
		t.Fatal(err)
	}
	c := admin.Dial(sock)
	if _, err := c.ListKeys(ctx); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket after Close: got %v, want it removed", err)
	}
	if _, err := c.ListKeys(ctx); !errors.Is(err, admin.ErrNoAdmin) {
		t.Errorf("a call after Close: got %v, want ErrNoAdmin", err)
	}
	// The path is free for the next server.
	srv, err = admin.Listen(svc, sock)
	if err != nil {
		t.Fatal(err)
	}
	srv.Close()
}

func TestAdminNoServer(t *testing.T) {
	sock := filepath.Join(adminTempDir(t), "missing.db.sock")
	c := admin.Dial(sock)
	// A bound, not a measurement: without a server a call fails at once,
	// far inside the client's own ten-second limit.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	calls := map[string]func() error{
		"CreateKey":    func() error { _, err := c.CreateKey(ctx, grocery.KeyInput{Account: "a", Plan: "starter"}); return err },
		"ListKeys":     func() error { _, err := c.ListKeys(ctx); return err },
		"RevokeKey":    func() error { _, err := c.RevokeKey(ctx, "Ab12Cd34"); return err },
		"AccountUsage": func() error { _, err := c.AccountUsage(ctx, "a"); return err },
		"Plans":        func() error { _, err := c.Plans(ctx); return err },
	}
	for name, call := range calls {
		err := call()
		if !errors.Is(err, admin.ErrNoAdmin) {
			t.Errorf("%s: got %v, want ErrNoAdmin", name, err)
		}
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: got %v, want it to wrap the missing file", name, err)
		}
	}
	if ctx.Err() != nil {
		t.Errorf("calls without a server took more than 5s")
	}
}

func TestAdminInternalError(t *testing.T) {
	ctx := context.Background()
	svc, _, c := MustServeAdmin(t)
	svc.Close() // the data file is closed under the server: writes fail
	_, err := c.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
	errCode(t, err, grocery.EINTERNAL)
	if got := grocery.ErrorMessage(err); got != "internal error" {
		t.Errorf("message: got %q, want %q", got, "internal error")
	}
}

// rawAdmin sends one request to the admin socket and returns the status,
// the Allow header and the decoded error body (if any).
func rawAdmin(t *testing.T, sock, method, target string, body io.Reader) (status int, allow string, e struct{ Code, Message string }) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}}
	req, err := http.NewRequest(method, "http://admin"+target, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q, want application/json", method, target, ct)
		}
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
			t.Errorf("%s %s: error body: %v", method, target, err)
		}
	}
	return resp.StatusCode, resp.Header.Get("Allow"), e
}

func TestAdminProtocol(t *testing.T) {
	ctx := context.Background()
	svc, sock, _ := MustServeAdmin(t)
	k, err := svc.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		method, target string
		body           string
		status         int
		code           string
	}{
		{"Created", "POST", "/v1/keys", `{"account":"b","plan":"starter"}`, 201, ""},
		{"ErrUnknownField", "POST", "/v1/keys", `{"account":"c","plan":"starter","admin":true}`, 400, grocery.EINVALIDARGUMENT},
		{"ErrTrailingData", "POST", "/v1/keys", `{"account":"c","plan":"starter"} {}`, 400, grocery.EINVALIDARGUMENT},
		{"ErrNotJSON", "POST", "/v1/keys", `account=c`, 400, grocery.EINVALIDARGUMENT},
		{"ErrEmptyBody", "POST", "/v1/keys", ``, 400, grocery.EINVALIDARGUMENT},
		{"ErrTooLarge", "POST", "/v1/keys", `{"account":"` + strings.Repeat("a", 1<<20) + `"}`, 400, grocery.EINVALIDARGUMENT},
		{"ErrMethod", "DELETE", "/v1/keys", ``, 405, grocery.EINVALIDARGUMENT},
		{"ErrMethodRevoke", "GET", "/v1/keys/revoke", ``, 405, grocery.EINVALIDARGUMENT},
		{"ErrRoute", "GET", "/v1/nothing", ``, 409, grocery.ECONFLICT},
		{"ErrUsageNoAccount", "GET", "/v1/usage", ``, 400, grocery.EINVALIDARGUMENT},
		{"ErrUsageUnknown", "GET", "/v1/usage?account=nobody", ``, 404, grocery.ENOTFOUND},
		{"Usage", "GET", "/v1/usage?account=acme", ``, 200, ""},
		{"Plans", "GET", "/v1/plans", ``, 200, ""},
		{"Stores", "POST", "/v1/stores", `{}`, 200, ""},
		{"ErrQueryUnknownField", "POST", "/v1/lookup", `{"upc":"068000000154","province":"ON","store":"x"}`, 400, grocery.EINVALIDARGUMENT},
		{"ErrQueryNotJSON", "POST", "/v1/search", `milk`, 400, grocery.EINVALIDARGUMENT},
		{"ErrQueryMethod", "GET", "/v1/history", ``, 405, grocery.EINVALIDARGUMENT},
		{"ErrQueryNotFound", "POST", "/v1/lookup", `{"upc":"068000000154","province":"ON"}`, 404, grocery.ENOTFOUND},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, _, e := rawAdmin(t, sock, tt.method, tt.target, strings.NewReader(tt.body))
			if status != tt.status || e.Code != tt.code {
				t.Errorf("got %d %q (%s), want %d %q", status, e.Code, e.Message, tt.status, tt.code)
			}
		})
	}

	t.Run("Allow", func(t *testing.T) {
		_, allow, _ := rawAdmin(t, sock, "PUT", "/v1/keys", nil)
		if allow != "GET, POST" {
			t.Errorf("Allow: got %q, want %q", allow, "GET, POST")
		}
	})

	t.Run("RevokeBodyNotEchoed", func(t *testing.T) {
		// Malformed revocations carrying a key: no error repeats it.
		for _, body := range []string{
			`{"key":"` + k.Key + `"`,
			`{"key":"` + k.Key + `","id":"x"}`,
			`{"key":["` + k.Key + `"]}`,
			`{"key":"` + k.Key + `"} "` + k.Key + `"`,
		} {
			status, _, e := rawAdmin(t, sock, "POST", "/v1/keys/revoke", bytes.NewBufferString(body))
			if status != 400 {
				t.Errorf("%s: got status %d, want 400", body, status)
			}
			if strings.Contains(e.Message, k.Key[len(k.Key)-32:]) {
				t.Errorf("error %q repeats the key's secret", e.Message)
			}
		}
		// None of them revoked the key.
		if _, err := svc.Authenticate(ctx, k.Key, grocery.InterfaceMCP); err != nil {
			t.Errorf("key after malformed revocations: %v", err)
		}
	})
}

// TestAdminImport: a server holds the data file; an import through its
// socket is written by the server, all or nothing, and reported as a local
// import is.
func TestAdminImport(t *testing.T) {
	ctx := context.Background()
	svc, _, c := MustServeAdmin(t)
	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nf-1,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.68,-79.31\n"
	var progressed int64
	rep, err := c.Import(ctx, "stores.csv", strings.NewReader(stores), &grocery.ImportOptions{Progress: func(n int64) { progressed = n }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.File != "stores.csv" || rep.Kind != "stores" || rep.New != 1 || progressed != int64(len(stores)) {
		t.Fatalf("got %+v after %d bytes, want 1 new store and all %d bytes sent", rep, progressed, len(stores))
	}
	obs := "date,store_id,banner,external_sku,price,upc,name,brand,size,category\n" +
		"2026-11-19,nf-1,no-frills,21000001_EA,4.79,068000000154,2% Milk,Natrel,2 L,Dairy\n"
	if _, err := c.Import(ctx, "prices.csv", strings.NewReader(obs), nil); err != nil {
		t.Fatal(err)
	}
	res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: "068000000154", Province: "ON"})
	if err != nil || len(res.Offers) != 1 || res.Offers[0].Price != 479 {
		t.Fatalf("the server's lookup after the import: %+v, %v; want one offer at 4.79", res, err)
	}

	t.Run("ErrBadRow", func(t *testing.T) {
		bad := obs + "2026-11-19,nf-1,no-frills,21000002_EA,4.999,,,,,\n"
		_, err := c.Import(ctx, "bad.csv", strings.NewReader(bad), nil)
		adminErrIs(t, err, grocery.EINVALIDARGUMENT, "bad.csv:3: price")
		// Nothing of the file was written, its valid first row included.
		if _, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000002_EA", Banner: "no-frills", Province: "ON"}); grocery.ErrorCode(err) != grocery.ENOTFOUND {
			t.Fatalf("after a failed import: %v, want the SKU unknown", err)
		}
	})
	t.Run("OKSkipInvalid", func(t *testing.T) {
		bad := obs + "2026-11-19,nf-1,no-frills,21000002_EA,4.999,,,,,\n"
		rep, err := c.Import(ctx, "skip.csv", strings.NewReader(bad), &grocery.ImportOptions{SkipInvalid: true})
		if err != nil || rep.Skipped != 1 || rep.Unchanged != 1 {
			t.Fatalf("got %+v, %v; want 1 unchanged and 1 skipped", rep, err)
		}
	})
	t.Run("ErrNoServer", func(t *testing.T) {
		_, err := admin.Dial(filepath.Join(adminTempDir(t), "none.sock")).Import(ctx, "x.csv", strings.NewReader(stores), nil)
		if !errors.Is(err, admin.ErrNoAdmin) {
			t.Fatalf("got %v, want ErrNoAdmin", err)
		}
	})
}

// errCode fails the test unless err has the wanted code.
func errCode(tb testing.TB, err error, want string) {
	tb.Helper()
	if got := grocery.ErrorCode(err); got != want {
		tb.Fatalf("error code: got %q (%v), want %q", got, err, want)
	}
}

// querier is what the CLI's query commands call: the Service itself, or
// an admin.Client of the server that holds it.
type querier interface {
	LookupProduct(context.Context, grocery.LookupInput) (*grocery.LookupResult, error)
	SearchProducts(context.Context, grocery.SearchInput) (*grocery.SearchResult, error)
	PriceHistory(context.Context, grocery.HistoryInput) (*grocery.HistoryResult, error)
	ListReferenceStores(context.Context, grocery.StoresInput) (*grocery.StoresResult, error)
}

var (
	_ querier = (*grocery.Service)(nil)
	_ querier = (*admin.Client)(nil)
)

// TestAdminQueries: each query through the socket returns what the
// Service returns, result or error, to the byte of its JSON.
func TestAdminQueries(t *testing.T) {
	ctx := context.Background()
	svc, _, c := MustServeAdmin(t)
	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nf-1,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.68,-79.31\n" +
		"lb-1,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2R6,43.64,-79.37\n"
	obs := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n" +
		"2026-11-18,nf-1,no-frills,21000001_EA,4.79,,,068000000154,2% Milk,Natrel,2 L,Dairy\n" +
		"2026-11-19,nf-1,no-frills,21000001_EA,4.49,4.99,2026-11-25,,,,,\n" +
		"2026-11-19,lb-1,loblaws,LB1,5.29,,,068000000154,,,,\n"
	for _, f := range []struct{ name, body string }{{"stores.csv", stores}, {"prices.csv", obs}} {
		if _, err := svc.Import(ctx, f.name, strings.NewReader(f.body), nil); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	tests := []struct {
		name string
		code string // of the error, if one is wanted
		call func(querier) (any, error)
	}{
		{"Lookup", "", func(q querier) (any, error) {
			return q.LookupProduct(ctx, grocery.LookupInput{UPC: "068000000154", Province: "on"})
		}},
		{"LookupLimit", "", func(q querier) (any, error) {
			return q.LookupProduct(ctx, grocery.LookupInput{UPC: "068000000154", Province: "ON", Limit: grocery.Some(1)})
		}},
		{"ErrLookupUnknown", grocery.ENOTFOUND, func(q querier) (any, error) {
			return q.LookupProduct(ctx, grocery.LookupInput{UPC: "067000378089", Province: "ON"})
		}},
		{"ErrLookupProvince", grocery.EINVALIDARGUMENT, func(q querier) (any, error) {
			return q.LookupProduct(ctx, grocery.LookupInput{UPC: "068000000154", Province: "ZZ"})
		}},
		{"Search", "", func(q querier) (any, error) {
			return q.SearchProducts(ctx, grocery.SearchInput{Query: "milk", Province: "ON"})
		}},
		{"SearchNothing", "", func(q querier) (any, error) {
			return q.SearchProducts(ctx, grocery.SearchInput{Query: "caviar", Province: "ON"})
		}},
		{"ErrSearchLimit", grocery.EINVALIDARGUMENT, func(q querier) (any, error) {
			return q.SearchProducts(ctx, grocery.SearchInput{Query: "milk", Province: "ON", Limit: grocery.Some(501)})
		}},
		{"History", "", func(q querier) (any, error) {
			return q.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "no-frills", Province: "ON", Period: "7d"})
		}},
		{"ErrHistoryUnknown", grocery.ENOTFOUND, func(q querier) (any, error) {
			return q.PriceHistory(ctx, grocery.HistoryInput{SKU: "nope", Banner: "no-frills", Province: "ON"})
		}},
		{"ErrHistoryBarcode", grocery.ENOTFOUND, func(q querier) (any, error) {
			return q.PriceHistory(ctx, grocery.HistoryInput{SKU: "068000000154", Banner: "no-frills", Province: "ON"})
		}},
		{"ErrHistoryNoSKU", grocery.EINVALIDARGUMENT, func(q querier) (any, error) {
			return q.PriceHistory(ctx, grocery.HistoryInput{Banner: "no-frills", Province: "ON"})
		}},
		{"ErrHistoryPeriod", grocery.EINVALIDARGUMENT, func(q querier) (any, error) {
			return q.PriceHistory(ctx, grocery.HistoryInput{SKU: "21000001_EA", Banner: "no-frills", Province: "ON", Period: "2y"})
		}},
		{"Stores", "", func(q querier) (any, error) {
			return q.ListReferenceStores(ctx, grocery.StoresInput{})
		}},
		{"StoresBanner", "", func(q querier) (any, error) {
			return q.ListReferenceStores(ctx, grocery.StoresInput{Province: "ON", Banner: "loblaws"})
		}},
		{"ErrStoresBanner", grocery.EINVALIDARGUMENT, func(q querier) (any, error) {
			return q.ListReferenceStores(ctx, grocery.StoresInput{Banner: "nope"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := tt.call(svc)
			got, err := tt.call(c)
			errCode(t, wantErr, tt.code)
			if tt.code != "" {
				// The same *grocery.Error, its follow-up (Next) included.
				var got, want *grocery.Error
				if !errors.As(err, &got) || !errors.As(wantErr, &want) {
					t.Fatalf("got %v, want %v; want both to be a *grocery.Error", err, wantErr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("error (-service +client):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-service +client):\n%s", diff)
			}
			wb, _ := json.Marshal(want)
			gb, _ := json.Marshal(got)
			if string(gb) != string(wb) {
				t.Errorf("JSON:\n got %s\nwant %s", gb, wb)
			}
		})
	}
}

// TestOlderServer: a server from before the queries went through the
// socket answers their paths with not_found, which must not read as "no
// such barcode": the client says the server is older and to restart it.
func TestOlderServer(t *testing.T) {
	sock := filepath.Join(adminTempDir(t), "old.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sock, 0o600); err != nil { // as a server makes it
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"code":"not_found","message":"no admin operation at %s"}`, r.URL.Path)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	c := admin.Dial(sock)
	defer c.Close()
	_, err = c.LookupProduct(context.Background(), grocery.LookupInput{UPC: "067000378089", Province: "ON"})
	if got := grocery.ErrorCode(err); got != grocery.ECONFLICT {
		t.Fatalf("got %v, want code %s", err, grocery.ECONFLICT)
	}
	if msg := grocery.ErrorMessage(err); !strings.Contains(msg, "older than this command") || !strings.Contains(msg, "restart the server") {
		t.Errorf("got %q, want it to say the server is older and to restart it", msg)
	}
}
