package grocery_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/redistest"
	"github.com/grocerydata/grocery/internal/servetest"
)

// testClock is a clock tests move; safe for concurrent use.
type testClock struct{ ns atomic.Int64 }

func newTestClock(t time.Time) *testClock { c := &testClock{}; c.ns.Store(t.UnixNano()); return c }
func (c *testClock) now() time.Time       { return time.Unix(0, c.ns.Load()).UTC() }
func (c *testClock) set(t time.Time)      { c.ns.Store(t.UnixNano()) }

// openRedisReplica opens a Service on its own data file with keys and
// quota in the Redis rs: one "replica", with its keys in Redis under the
// url: under the prefix of rs, so that tests can share one redis-server.
func openRedisReplica(tb testing.TB, rs *redistest.Server, now func() time.Time) *grocery.Service {
	tb.Helper()
	s, err := grocery.Open(filepath.Join(tb.TempDir(), "g.db"), &grocery.Options{Shared: grocery.RedisStore(rs.URL(), rs.Prefix()), Now: now})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// meteredCall is a metered request as the servers make it.
func meteredCall(ctx context.Context, s *grocery.Service, key string) (grocery.Usage, error) {
	p, err := s.AuthenticateMetered(ctx, key, grocery.InterfaceMCP)
	if err != nil {
		return grocery.Usage{}, err
	}
	return s.Consume(ctx, p)
}

func TestRedisConsumeReplicas(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	ctx := context.Background()
	clock := newTestClock(time.Date(2031, 3, 10, 12, 0, 0, 0, time.UTC))
	a, b := openRedisReplica(t, rs, clock.now), openRedisReplica(t, rs, clock.now)
	const quota, callers, each = 57, 16, 10
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter", Quota: quota})
	if err != nil {
		t.Fatal(err)
	}
	var admitted, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range callers {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				_, err := meteredCall(ctx, s, nk.Key)
				switch grocery.ErrorCode(err) {
				case "":
					admitted.Add(1)
				case grocery.EQUOTA:
					refused.Add(1)
				default:
					t.Errorf("call: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	if got := admitted.Load(); got != quota {
		t.Errorf("admitted %d calls over two services, want exactly %d", got, quota)
	}
	if got := refused.Load(); got != callers*each-quota {
		t.Errorf("refused %d calls, want %d", got, callers*each-quota)
	}
	for _, s := range []*grocery.Service{a, b} {
		u, err := s.UsageOf(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if u.Used != callers*each || u.Limit != quota || u.Remaining != 0 {
			t.Errorf("UsageOf: got used %d limit %d remaining %d, want %d %d 0", u.Used, u.Limit, u.Remaining, callers*each, quota)
		}
	}
	// Authenticate alone (a free request) charges nothing.
	if _, err := b.Authenticate(ctx, nk.Key, grocery.InterfaceMCP); err != nil {
		t.Fatal(err)
	}
	if u, _ := a.UsageOf(ctx, "acme"); u.Used != callers*each {
		t.Errorf("after Authenticate: used %d, want %d", u.Used, callers*each)
	}
}

func TestRedisRevokeAcrossServices(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	ctx := context.Background()
	a, b := openRedisReplica(t, rs, nil), openRedisReplica(t, rs, nil)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	held, err := b.Authenticate(ctx, nk.Key, grocery.InterfaceREST)
	if err != nil {
		t.Fatalf("before revocation: %v", err)
	}
	if held.Account != "acme" || held.Plan.Name != "integration" || held.KeyID != nk.ID {
		t.Errorf("principal: got %s %s %s, want acme integration %s", held.Account, held.Plan.Name, held.KeyID, nk.ID)
	}
	info, err := a.RevokeKey(ctx, "gro_pk_"+nk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if info.Revoked == nil || info.ID != nk.ID || info.Plan != "integration" {
		t.Errorf("RevokeKey: got %+v, want key %s revoked, plan integration", info, nk.ID)
	}
	_, err = b.Authenticate(ctx, nk.Key, grocery.InterfaceREST)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	_, err = meteredCall(ctx, b, nk.Key)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	// A principal authenticated before the revocation is refused at Consume.
	_, err = b.Consume(ctx, held)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	keys, err := b.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0].Revoked == nil || keys[0].Account != "acme" {
		t.Errorf("ListKeys: got %+v, want the one key, revoked", keys)
	}
	_, err = b.RevokeKey(ctx, "gro_pk_00000000")
	errCode(t, err, grocery.ENOTFOUND)
}

func TestRedisAuthenticatePlan(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	ctx := context.Background()
	a := openRedisReplica(t, rs, nil)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "small", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.AuthenticateMetered(ctx, nk.Key, grocery.InterfaceREST)
	errCode(t, err, grocery.EPLANREQUIRED)
	if u, _ := a.UsageOf(ctx, "small"); u.Used != 0 {
		t.Errorf("a refused REST call on the starter plan was charged: used %d, want 0", u.Used)
	}
	wrong := nk.Key[:len(nk.Key)-1] + "x"
	if wrong == nk.Key { // one key in 62 ends in x
		wrong = nk.Key[:len(nk.Key)-1] + "y"
	}
	_, err = a.Authenticate(ctx, wrong, grocery.InterfaceMCP)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	_, err = a.CreateKey(ctx, grocery.KeyInput{Account: "new"})
	errCode(t, err, grocery.EINVALIDARGUMENT)
	_, err = a.UsageOf(ctx, "nobody")
	errCode(t, err, grocery.ENOTFOUND)
}

func TestRedisConsumeWindow(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	ctx := context.Background()
	clock := newTestClock(time.Date(2031, 1, 31, 23, 59, 30, 0, time.UTC))
	a := openRedisReplica(t, rs, clock.now)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter", Quota: 2})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := meteredCall(ctx, a, nk.Key); err != nil {
			t.Fatal(err)
		}
	}
	u, err := meteredCall(ctx, a, nk.Key)
	errCode(t, err, grocery.EQUOTA)
	feb := time.Date(2031, 2, 1, 0, 0, 0, 0, time.UTC)
	if !u.Reset.Equal(feb) || u.RetryAfter != 30*time.Second {
		t.Errorf("refused call: reset %s retry after %s, want %s and 30s", u.Reset, u.RetryAfter, feb)
	}
	// January's counter expires a day after January ends, on the
	// service's clock.
	ttl, err := rs.Client().TTL(ctx, rs.Prefix()+"use:acme:203101").Result()
	if err != nil {
		t.Fatal(err)
	}
	if want := 30*time.Second + 24*time.Hour; ttl > want || ttl < want-5*time.Second {
		t.Errorf("January counter TTL %s, want about %s", ttl, want)
	}
	clock.set(feb)
	u, err = meteredCall(ctx, a, nk.Key)
	if err != nil {
		t.Fatalf("first call of February: %v", err)
	}
	if u.Used != 1 || u.Remaining != 1 {
		t.Errorf("first call of February: used %d remaining %d, want 1 and 1", u.Used, u.Remaining)
	}
}

func TestRedisConsumeUnavailable(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	ctx := context.Background()
	a := openRedisReplica(t, rs, nil)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter", Quota: 100})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := meteredCall(ctx, a, nk.Key); err != nil {
		t.Fatal(err)
	}
	rs.Stop()
	for range 3 {
		_, err := meteredCall(ctx, a, nk.Key)
		errCode(t, err, grocery.EUNAVAILABLE)
		if msg := grocery.ErrorMessage(err); !strings.Contains(msg, "Redis") {
			t.Errorf("message %q does not name Redis", msg)
		}
	}
	_, err = a.Authenticate(ctx, nk.Key, grocery.InterfaceMCP)
	errCode(t, err, grocery.EUNAVAILABLE)
	_, err = a.UsageOf(ctx, "acme")
	errCode(t, err, grocery.EUNAVAILABLE)
	_, err = a.CreateKey(ctx, grocery.KeyInput{Account: "acme"})
	errCode(t, err, grocery.EUNAVAILABLE)

	rs.Restart()
	u, err := meteredCall(ctx, a, nk.Key)
	if err != nil {
		t.Fatalf("after Redis restarted: %v", err)
	}
	if u.Used != 2 {
		t.Errorf("after Redis restarted: used %d, want 2 (the calls refused during the outage are not counted)", u.Used)
	}
}

// TestRedisRefusesCredentials: a Redis URL whose credentials Redis
// refuses is an error that says so (to the operator starting a server or
// running the CLI), not an internal error.
func TestRedisRefusesCredentials(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	if err := rs.Client().ConfigSet(context.Background(), "requirepass", "right").Err(); err != nil {
		t.Fatal(err)
	}
	base := strings.TrimPrefix(rs.URL(), "redis://")
	for _, url := range []string{"redis://:wrong@" + base, "redis://" + base} {
		_, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Shared: grocery.RedisStore(url, "")})
		if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(grocery.ErrorMessage(err), "refused the credentials of the Redis URL") {
			t.Errorf("%s: got %v, want invalid_argument saying Redis refused the credentials", url, err)
		}
		if err != nil && strings.Contains(err.Error(), "wrong") {
			t.Errorf("the message repeats the password: %v", err)
		}
	}
}

// TestRedisSecretLost: Redis restarted without persistence loses every
// key and the key secret. A running server notices within a second, logs
// it once, refuses every key as unavailable meanwhile (fail closed), and
// follows the new secret that the next key creation makes, so that it
// and a server started afterwards agree on which keys exist.
func TestRedisSecretLost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rs := redistest.Start(t)
	var log servetest.LogBuffer
	running, err := grocery.Open(filepath.Join(t.TempDir(), "a.db"), &grocery.Options{Shared: grocery.RedisStore(rs.URL(), ""),
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	before, err := running.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Client().FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	// The server logs the loss once it refuses keys for it (it reads the
	// secret every second).
	log.WaitFor(t, 5*time.Second, "log of the lost secret", func(text string) bool { return strings.Contains(text, "its key secret is gone") })
	if _, err := running.Authenticate(ctx, before.Key, grocery.InterfaceMCP); grocery.ErrorCode(err) != grocery.EUNAVAILABLE {
		t.Fatalf("a key after Redis lost its secret: %v, want unavailable (fail closed)", err)
	}
	// A server started now (or the CLI) makes the new secret; a key made
	// through it is accepted by the server that was running.
	started, err := grocery.Open(filepath.Join(t.TempDir(), "b.db"), &grocery.Options{Shared: grocery.RedisStore(rs.URL(), "")})
	if err != nil {
		t.Fatal(err)
	}
	defer started.Close()
	after, err := started.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
	if err != nil {
		t.Fatal(err)
	}
	log.WaitFor(t, 5*time.Second, "log of the new secret followed", func(text string) bool { return strings.Contains(text, "following it") })
	if _, err := running.Authenticate(ctx, after.Key, grocery.InterfaceMCP); err != nil {
		t.Fatalf("the running server, on a key made after the new secret: %v, want it accepted", err)
	}
	if n := strings.Count(log.String(), "its key secret is gone"); n != 1 || !strings.Contains(log.String(), "following it") {
		t.Errorf("log: %s\nwant the loss said once, and the new secret followed", log.String())
	}
}

// TestRedisEvictingPolicy: a Redis that evicts any key when full is
// refused at start, naming the policy.
func TestRedisEvictingPolicy(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	if err := rs.Client().ConfigSet(context.Background(), "maxmemory-policy", "allkeys-lru").Err(); err != nil {
		t.Fatal(err)
	}
	_, err := grocery.Open(filepath.Join(t.TempDir(), "grocery.db"), &grocery.Options{Shared: grocery.RedisStore(rs.URL(), "")})
	if grocery.ErrorCode(err) != grocery.EINVALIDARGUMENT || !strings.Contains(grocery.ErrorMessage(err), "maxmemory-policy allkeys-lru") {
		t.Fatalf("Open with allkeys-lru: %v, want invalid_argument naming the policy", err)
	}
}

// TestRedisPrefixesApart: services on one Redis under different key
// prefixes share nothing: the keys, accounts and quota of one are unknown
// to the other (what lets the tests share one redis-server; the alert
// tests, each under its own prefix, check the alert store's ids).
func TestRedisPrefixesApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rs, other := redistest.Shared(t), redistest.Shared(t)
	a, b := openRedisReplica(t, rs, nil), openRedisReplica(t, other, nil)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, nk.Key, grocery.InterfaceMCP); err != nil {
		t.Fatalf("under its own prefix: %v", err)
	}
	_, err = b.Authenticate(ctx, nk.Key, grocery.InterfaceMCP)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	_, err = b.UsageOf(ctx, "acme")
	errCode(t, err, grocery.ENOTFOUND)
	if keys, err := b.ListKeys(ctx); err != nil || len(keys) != 0 {
		t.Errorf("ListKeys under another prefix: %+v, %v, want none", keys, err)
	}
	n, err := rs.Client().Exists(ctx, rs.Prefix()+"secret", other.Prefix()+"secret").Result()
	if err != nil || n != 2 {
		t.Errorf("the two key secrets in Redis: %d, %v, want 2", n, err)
	}
}

// TestRedisAccountUsage: with Redis, the calls of every server sharing it
// are counted day by day, rejected ones included.
func TestRedisAccountUsage(t *testing.T) {
	t.Parallel()
	rs := redistest.Shared(t)
	ctx := context.Background()
	clock := newTestClock(time.Date(2031, 1, 30, 12, 0, 0, 0, time.UTC))
	a, b := openRedisReplica(t, rs, clock.now), openRedisReplica(t, rs, clock.now)
	nk, err := a.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter", Quota: 3})
	if err != nil {
		t.Fatal(err)
	}
	meteredCall(ctx, a, nk.Key)
	clock.set(time.Date(2031, 1, 31, 12, 0, 0, 0, time.UTC))
	for _, s := range []*grocery.Service{a, b, b} { // the last one over quota
		meteredCall(ctx, s, nk.Key)
	}
	u, err := b.AccountUsage(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	n := len(u.Days)
	if n != grocery.UsageDays || u.Days[n-1].Date.String() != "2031-01-31" || u.Days[n-1].Calls != 3 || u.Days[n-2].Calls != 1 || u.Days[n-3].Calls != 0 {
		t.Errorf("got %d days ending %+v, want %d ending 2031-01-30 with 1 call and 2031-01-31 with 3", n, u.Days[n-3:], grocery.UsageDays)
	}
	if u.Used != 4 || u.Remaining != 0 {
		t.Errorf("got used %d remaining %d, want 4 and 0", u.Used, u.Remaining)
	}
	_, err = a.AccountUsage(ctx, "nobody")
	errCode(t, err, grocery.ENOTFOUND)
}
