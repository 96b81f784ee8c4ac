package grocery_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/grocerydata/grocery/grocery"
)

// clock is a settable clock for Options.Now.
type clock struct{ t atomic.Pointer[time.Time] }

func newClock(t time.Time) *clock { c := &clock{}; c.set(t); return c }
func (c *clock) set(t time.Time)  { c.t.Store(&t) }
func (c *clock) now() time.Time   { return *c.t.Load() }

var nov19 = time.Date(2026, 11, 19, 15, 4, 5, 0, time.UTC)

// openAuth opens (or reopens) the data file at path with a fixed clock.
func openAuth(tb testing.TB, path string, c *clock) *grocery.Service {
	tb.Helper()
	s, err := grocery.Open(path, &grocery.Options{Now: c.now})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func mustKey(tb testing.TB, s *grocery.Service, account, plan string, quota int64) *grocery.NewKey {
	tb.Helper()
	k, err := s.CreateKey(context.Background(), grocery.KeyInput{Account: account, Plan: plan, Quota: quota})
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

var keyForm = regexp.MustCompile(`^gro_pk_[0-9A-Za-z]{40}$`)

func TestCreateKeyAndAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := MustOpen(t)
	starter := mustKey(t, s, "acme", "starter", 0)
	integ := mustKey(t, s, "bigco", "integration", 0)

	t.Run("OKForm", func(t *testing.T) {
		if !keyForm.MatchString(starter.Key) || starter.ID != starter.Key[7:15] {
			t.Fatalf("got key %q id %q, want gro_pk_ + 40 base62 with the id its first 8", starter.Key, starter.ID)
		}
		if starter.Limit != 1000 || integ.Limit != 1_000_000 || starter.Plan != "starter" {
			t.Fatalf("got limits %d, %d and plan %q; want 1000, 1000000, starter", starter.Limit, integ.Limit, starter.Plan)
		}
		other := mustKey(t, s, "acme", "", 0)
		if other.Key == starter.Key || other.ID == starter.ID {
			t.Fatal("two keys are the same")
		}
	})
	t.Run("OKMCP", func(t *testing.T) {
		p, err := s.Authenticate(ctx, starter.Key, grocery.InterfaceMCP)
		if err != nil {
			t.Fatal(err)
		}
		if p.Account != "acme" || p.Plan.Name != "starter" || p.KeyID != starter.ID {
			t.Fatalf("got %+v, want acme on starter with key %s", p, starter.ID)
		}
	})
	t.Run("OKREST", func(t *testing.T) {
		if _, err := s.Authenticate(ctx, integ.Key, grocery.InterfaceREST); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrRESTNeedsIntegration", func(t *testing.T) {
		_, err := s.Authenticate(ctx, starter.Key, grocery.InterfaceREST)
		errCode(t, err, grocery.EPLANREQUIRED)
		if !strings.Contains(grocery.ErrorMessage(err), "integration plan") {
			t.Fatalf("got %q, want it to name the integration plan", grocery.ErrorMessage(err))
		}
	})
	wrongSecret := starter.Key[:len(starter.Key)-1] + flip(starter.Key[len(starter.Key)-1])
	unknown := "gro_pk_" + strings.Repeat("A", 40)
	for name, key := range map[string]string{
		"ErrEmpty":       "",
		"ErrGarbage":     "hello",
		"ErrOtherPrefix": "abc" + starter.Key[3:],
		"ErrShort":       starter.Key[:len(starter.Key)-1],
		"ErrLong":        starter.Key + "A",
		"ErrNotBase62":   starter.Key[:20] + "-" + starter.Key[21:],
		"ErrBearer":      "Bearer " + starter.Key,
		"ErrUnknown":     unknown,
		"ErrWrongSecret": wrongSecret,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Authenticate(ctx, key, grocery.InterfaceMCP)
			errCode(t, err, grocery.EUNAUTHENTICATED)
			if msg := err.Error(); key != "" && strings.Contains(msg, key) || strings.Contains(msg, starter.Key[15:]) {
				t.Fatalf("error %q repeats the key", msg)
			}
		})
	}
}

// flip returns another base62 character.
func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestCreateKeyErrors(t *testing.T) {
	t.Parallel()
	s := MustOpen(t)
	mustKey(t, s, "acme", "starter", 0)
	for _, tc := range []struct {
		name string
		in   grocery.KeyInput
		msg  string
	}{
		{"ErrUnknownPlan", grocery.KeyInput{Account: "x", Plan: "gold"}, "want one of starter, professional, integration"},
		{"ErrNewAccountNoPlan", grocery.KeyInput{Account: "newco"}, "a plan is required"},
		{"ErrNegativeQuota", grocery.KeyInput{Account: "acme", Quota: -1}, "negative"},
		{"ErrAccountName", grocery.KeyInput{Account: "a b", Plan: "starter"}, "want a name of 1 to 64"},
		{"ErrNoAccount", grocery.KeyInput{Plan: "starter"}, "want a name of 1 to 64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.CreateKey(context.Background(), tc.in)
			errCode(t, err, grocery.EINVALIDARGUMENT)
			if !strings.Contains(grocery.ErrorMessage(err), tc.msg) {
				t.Fatalf("got %q, want it to contain %q", grocery.ErrorMessage(err), tc.msg)
			}
		})
	}
	keys, _ := s.ListKeys(context.Background())
	if len(keys) != 1 {
		t.Fatalf("got %d keys after failed creations, want 1", len(keys))
	}
}

func TestRevokeKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	c := newClock(nov19)
	s := openAuth(t, path, c)
	a := mustKey(t, s, "acme", "professional", 0)
	b := mustKey(t, s, "acme", "", 0)

	t.Run("ErrNotFound", func(t *testing.T) {
		for _, k := range []string{"nosuchid", "gro_pk_" + a.ID + strings.Repeat("z", 32)} {
			_, err := s.RevokeKey(ctx, k)
			errCode(t, err, grocery.ENOTFOUND)
			if strings.Contains(err.Error(), strings.Repeat("z", 32)) {
				t.Fatalf("error %q repeats a secret", err)
			}
		}
		if _, err := s.Authenticate(ctx, a.Key, grocery.InterfaceMCP); err != nil {
			t.Fatalf("a failed revocation revoked: %v", err)
		}
	})
	t.Run("OKByID", func(t *testing.T) {
		info, err := s.RevokeKey(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if info.Revoked == nil || !info.Revoked.Equal(nov19.Truncate(time.Second)) {
			t.Fatalf("got revoked %v, want %v", info.Revoked, nov19)
		}
		_, err = s.Authenticate(ctx, a.Key, grocery.InterfaceMCP)
		errCode(t, err, grocery.EUNAUTHENTICATED)
		if !strings.Contains(grocery.ErrorMessage(err), "revoked") {
			t.Fatalf("got %q, want it to say revoked", grocery.ErrorMessage(err))
		}
		if _, err := s.RevokeKey(ctx, a.ID); err != nil {
			t.Fatalf("revoking again: %v", err)
		}
	})
	t.Run("OKByKey", func(t *testing.T) {
		if _, err := s.RevokeKey(ctx, b.Key); err != nil {
			t.Fatal(err)
		}
		_, err := s.Authenticate(ctx, b.Key, grocery.InterfaceMCP)
		errCode(t, err, grocery.EUNAUTHENTICATED)
	})
	t.Run("OKSurvivesRestart", func(t *testing.T) {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = openAuth(t, path, c)
		defer s.Close()
		for _, k := range []string{a.Key, b.Key} {
			_, err := s.Authenticate(ctx, k, grocery.InterfaceMCP)
			errCode(t, err, grocery.EUNAUTHENTICATED)
		}
	})
}

func TestListKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClock(nov19)
	s := openAuth(t, filepath.Join(t.TempDir(), "g.db"), c)
	defer func() { s.Close() }()
	a := mustKey(t, s, "zeta", "starter", 0)
	c.set(nov19.Add(time.Hour))
	b := mustKey(t, s, "alpha", "integration", 0)
	if _, err := s.Authenticate(ctx, b.Key, grocery.InterfaceREST); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevokeKey(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	keys, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Account != "alpha" || keys[1].Account != "zeta" {
		t.Fatalf("got %+v, want alpha's key then zeta's", keys)
	}
	k0, k1 := keys[0], keys[1]
	if k0.Prefix != "gro_pk_"+b.ID || k0.Plan != "integration" || k0.LastUsed == nil || k0.Revoked != nil {
		t.Fatalf("alpha: got %+v, want prefix gro_pk_%s, integration, used, not revoked", k0, b.ID)
	}
	if k1.LastUsed != nil || k1.Revoked == nil || !k1.Created.Equal(nov19.Truncate(time.Second)) {
		t.Fatalf("zeta: got %+v, want never used, revoked, created %v", k1, nov19)
	}
	if s := fmt.Sprintf("%+v", keys); strings.Contains(s, a.Key[15:]) || strings.Contains(s, b.Key[15:]) {
		t.Fatal("ListKeys shows a secret")
	}
	// Last use is flushed with the counts and survives a restart.
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAuth(t, path, c)
	keys, _ = s.ListKeys(ctx)
	if keys[0].LastUsed == nil || !keys[0].LastUsed.Equal(nov19.Add(time.Hour)) {
		t.Fatalf("after restart: got last used %v, want %v", keys[0].LastUsed, nov19.Add(time.Hour))
	}
}

func TestConsume(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	c := newClock(nov19)
	s := openAuth(t, path, c)
	k := mustKey(t, s, "acme", "starter", 3)
	p, err := s.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}
	reset := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := int64(1); i <= 3; i++ {
		u, err := s.Consume(ctx, p)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		want := grocery.Usage{Account: "acme", Plan: "starter", Limit: 3, Used: i, Remaining: 3 - i, Reset: reset}
		if u != want {
			t.Fatalf("call %d: got %+v, want %+v", i, u, want)
		}
	}
	t.Run("ErrQuota", func(t *testing.T) {
		for i := 0; i < 2; i++ { // retrying does not restore allowance
			u, err := s.Consume(ctx, p)
			errCode(t, err, grocery.EQUOTA)
			if !strings.Contains(grocery.ErrorMessage(err), "2026-12-01T00:00:00Z") {
				t.Fatalf("got %q, want the reset time in RFC 3339", grocery.ErrorMessage(err))
			}
			if u.Remaining != 0 || !u.Reset.Equal(reset) || u.Used != int64(4+i) {
				t.Fatalf("got %+v, want 0 remaining, reset %v, rejected calls counted (%d)", u, reset, 4+i)
			}
		}
	})
	t.Run("OKSharedByKeys", func(t *testing.T) {
		// A second key of the account draws on the same quota.
		k2 := mustKey(t, s, "acme", "", 0)
		p2, err := s.Authenticate(ctx, k2.Key, grocery.InterfaceMCP)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Consume(ctx, p2)
		errCode(t, err, grocery.EQUOTA)
	})
	t.Run("OKWindowResets", func(t *testing.T) {
		c.set(reset.Add(-time.Nanosecond))
		_, err := s.Consume(ctx, p)
		errCode(t, err, grocery.EQUOTA)
		c.set(reset)
		u, err := s.Consume(ctx, p)
		if err != nil {
			t.Fatalf("first call of the new month: %v", err)
		}
		if u.Used != 1 || u.Remaining != 2 || !u.Reset.Equal(reset.AddDate(0, 1, 0)) {
			t.Fatalf("got %+v, want 1 used, 2 remaining, reset 2027-01-01", u)
		}
	})
	t.Run("OKCountsSurviveRestart", func(t *testing.T) {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = openAuth(t, path, c)
		defer s.Close()
		u, err := s.UsageOf(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if u.Used != 1 {
			t.Fatalf("December after restart: got %d used, want 1", u.Used)
		}
		c.set(nov19)
		if u, _ := s.UsageOf(ctx, "acme"); u.Used != 7 {
			t.Fatalf("November after restart: got %d used, want 7 (3 admitted, 4 rejected)", u.Used)
		}
	})
	t.Run("ErrUnknownAccount", func(t *testing.T) {
		_, err := s.UsageOf(ctx, "nobody")
		errCode(t, err, grocery.ENOTFOUND)
	})
}

// TestConsumeConcurrent: 64 goroutines x 1,000 calls on a quota of 10,000
// admit exactly 10,000, and the count persisted by a clean close is every
// call made. Run it with -race.
func TestConsumeConcurrent(t *testing.T) {
	t.Parallel()
	const goroutines, calls, quota = 64, 1000, 10_000
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	c := newClock(nov19)
	s, err := grocery.Open(path, &grocery.Options{Now: c.now, FlushInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	k := mustKey(t, s, "acme", "professional", quota)
	var admitted, rejected atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				p, err := s.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
				if err != nil {
					t.Error(err)
					return
				}
				switch _, err := s.Consume(ctx, p); grocery.ErrorCode(err) {
				case "":
					admitted.Add(1)
				case grocery.EQUOTA:
					rejected.Add(1)
				default:
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != quota || rejected.Load() != goroutines*calls-quota {
		t.Fatalf("got %d admitted, %d rejected; want %d and %d", admitted.Load(), rejected.Load(), quota, goroutines*calls-quota)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAuth(t, path, c)
	defer s.Close()
	u, err := s.UsageOf(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if u.Used != goroutines*calls {
		t.Fatalf("persisted: got %d calls, want %d", u.Used, goroutines*calls)
	}
}

// TestConsumeCrash kills a process that is counting calls (SIGKILL, no
// clean close) and checks what the data file kept: every call flushed
// before the kill, and never more calls than were made.
func TestConsumeCrash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "g.db")
	c := newClock(nov19)
	s := openAuth(t, path, c)
	k := mustKey(t, s, "acme", "professional", 0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestConsumeCrashChild$")
	cmd.Env = append(os.Environ(), "GROCERY_CRASH_DB="+path, "GROCERY_CRASH_KEY="+k.Key)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The child waits on its standard input, which ends when this
	// process does: it never outlives the test.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var flushed, made int64
	for lines.Scan() {
		if n, ok := strings.CutPrefix(lines.Text(), "flushed "); ok {
			flushed, _ = strconv.ParseInt(n, 10, 64)
		}
		if n, ok := strings.CutPrefix(lines.Text(), "made "); ok {
			made, _ = strconv.ParseInt(n, 10, 64)
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if made == 0 {
		t.Fatal("the child made no calls")
	}

	s = openAuth(t, path, c)
	defer s.Close()
	u, err := s.UsageOf(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	if u.Used < flushed || u.Used > made {
		t.Fatalf("after kill -9: got %d calls counted, want between %d (flushed) and %d (made)", u.Used, flushed, made)
	}
	t.Logf("made %d calls, %d flushed before the kill, %d kept", made, flushed, u.Used)
}

// TestConsumeCrashChild is TestConsumeCrash's child process: it counts
// calls, flushes them, counts more and waits to be killed.
func TestConsumeCrashChild(t *testing.T) {
	path := os.Getenv("GROCERY_CRASH_DB")
	if path == "" {
		t.Skip("run by TestConsumeCrash")
	}
	ctx := context.Background()
	// No flush but the one it makes (an hour is past the parent's kill).
	s, err := grocery.Open(path, &grocery.Options{Now: func() time.Time { return nov19 }, FlushInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Authenticate(ctx, os.Getenv("GROCERY_CRASH_KEY"), grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		s.Consume(ctx, p)
	}
	if err := grocery.FlushNow(s); err != nil {
		t.Fatal(err)
	}
	fmt.Println("flushed 500")
	for i := 0; i < 300; i++ {
		s.Consume(ctx, p)
	}
	fmt.Println("made 800")
	// Killed (SIGKILL) once the parent reads that line; its standard
	// input ends first only if the parent died.
	io.Copy(io.Discard, os.Stdin)
}

// authBench opens a data file with one integration key whose quota will
// not run out during a benchmark.
func authBench(b *testing.B) (*grocery.Service, string) {
	b.Helper()
	s, err := grocery.Open(filepath.Join(b.TempDir(), "g.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, mustKey(b, s, "bench", "integration", 1<<60).Key
}

// BenchmarkAuthenticateConsume is the per-request cost of access control:
// check the key, charge one call.
func BenchmarkAuthenticateConsume(b *testing.B) {
	s, key := authBench(b)
	ctx := context.Background()
	timed(b, func(int) error {
		p, err := s.Authenticate(ctx, key, grocery.InterfaceMCP)
		if err != nil {
			return err
		}
		_, err = s.Consume(ctx, p)
		return err
	})
}

// BenchmarkAuthenticateConsumeParallel reports calls per second across all
// cores, every call on one account (the contended case).
func BenchmarkAuthenticateConsumeParallel(b *testing.B) {
	s, key := authBench(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p, err := s.Authenticate(ctx, key, grocery.InterfaceMCP)
			if err == nil {
				_, err = s.Consume(ctx, p)
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkAuthenticateWrongKey: a wrong key costs the same whether none
// or all but its last character match the real one.
func BenchmarkAuthenticateWrongKey(b *testing.B) {
	s, key := authBench(b)
	ctx := context.Background()
	id := key[7:15]
	for name, wrong := range map[string]string{
		"UnknownID":     "gro_pk_" + strings.Repeat("A", 40),
		"SecretNone":    "gro_pk_" + id + strings.Repeat("A", 32),
		"SecretAllBut1": key[:len(key)-1] + flip(key[len(key)-1]),
	} {
		b.Run(name, func(b *testing.B) {
			timed(b, func(int) error {
				if _, err := s.Authenticate(ctx, wrong, grocery.InterfaceMCP); grocery.ErrorCode(err) != grocery.EUNAUTHENTICATED {
					return fmt.Errorf("got %v, want unauthenticated", err)
				}
				return nil
			})
		})
	}
}

// within fails the test when done does not report within a generous
// bound: a watchdog that turns a wait behind a held transaction into a
// failure, not a measure of speed.
func within(t *testing.T, what string, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s waited for the write transaction an import holds", what)
	}
}

// TestKeyAdminDuringImport checks that key administration waiting for the
// write transaction (an import holds it for a whole file) does not stop
// other accounts from authenticating and being metered.
func TestKeyAdminDuringImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	c := newClock(nov19)
	s := openAuth(t, path, c)
	defer s.Close()
	a := mustKey(t, s, "acme", "professional", 0)
	b := mustKey(t, s, "other", "professional", 0)

	const calls = 25 // while each key change waits
	// change runs a key change while an import holds the write
	// transaction; once it waits for it (holding the key administration),
	// the other account authenticates and is metered, calls times.
	change := func(what string, fn func() error) {
		release := sync.OnceFunc(grocery.HoldWrite(s))
		defer release() // before Close, also when a watchdog fails the test
		changed := make(chan error, 1)
		waiting := grocery.WritersWaiting(s) // 0 today; a background write would count too
		go func() { changed <- fn() }()
		for deadline := time.Now().Add(10 * time.Second); grocery.WritersWaiting(s) == waiting; runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not wait for the write transaction within 10 s", what)
			}
		}
		for range calls {
			done := make(chan error, 1)
			go func() {
				p, err := s.Authenticate(ctx, b.Key, grocery.InterfaceMCP)
				if err == nil {
					_, err = s.Consume(ctx, p)
				}
				done <- err
			}()
			within(t, "Authenticate and Consume while "+what+" waits", done)
		}
		release()
		within(t, what, changed)
	}
	change("RevokeKey", func() error { _, err := s.RevokeKey(ctx, a.ID); return err })
	change("CreateKey", func() error {
		_, err := s.CreateKey(ctx, grocery.KeyInput{Account: "third", Plan: "starter"})
		return err
	})
	_, err := s.Authenticate(ctx, a.Key, grocery.InterfaceMCP)
	errCode(t, err, grocery.EUNAUTHENTICATED)
	u, err := s.UsageOf(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if u.Used != 2*calls {
		t.Fatalf("got %d calls counted, want %d", u.Used, 2*calls)
	}
	keys, _ := s.ListKeys(ctx)
	if len(keys) != 3 {
		t.Fatalf("got %d keys, want 3", len(keys))
	}
}

// TestConsumeFlushDuringImport checks that the once-a-second flush of
// quota counts keeps README's promise while an import holds the write
// transaction: a crash then loses no more than the calls since the flush.
func TestConsumeFlushDuringImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "g.db")
	c := newClock(nov19)
	s := openAuth(t, path, c)
	defer s.Close()
	k := mustKey(t, s, "acme", "professional", 0)
	p, err := s.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}

	release := sync.OnceFunc(grocery.HoldWrite(s))
	defer release()
	const calls = 120
	for i := 0; i < calls; i++ {
		if _, err := s.Consume(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	flushed := make(chan error, 1)
	go func() { flushed <- grocery.FlushNow(s) }()
	within(t, "the quota flush", flushed)

	// A crash now leaves the files as they are on disk: copy them.
	crash := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(crash, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	release()

	// A read-only open reads the journal; a writable one moves it into the
	// data file.
	for _, readOnly := range []bool{true, false} {
		after, err := grocery.Open(filepath.Join(crash, "g.db"), &grocery.Options{Now: c.now, ReadOnly: readOnly})
		if err != nil {
			t.Fatal(err)
		}
		u, err := after.UsageOf(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if u.Used != calls {
			t.Fatalf("after a crash during an import (read-only %v): got %d calls counted, want %d", readOnly, u.Used, calls)
		}
		if err := after.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(crash, "g.db.usage")); !os.IsNotExist(err) {
		t.Fatalf("the usage journal is still there after a writable open: %v", err)
	}
	after := openAuth(t, filepath.Join(crash, "g.db"), c)
	defer after.Close()
	if u, _ := after.UsageOf(ctx, "acme"); u.Used != calls {
		t.Fatalf("once the journal is applied: got %d calls counted, want %d", u.Used, calls)
	}
	// The day's count went through the journal too.
	if u, err := after.AccountUsage(ctx, "acme"); err != nil || u.Days[len(u.Days)-1].Calls != calls {
		t.Fatalf("once the journal is applied: got days %+v, %v; want %d calls today", u, err, calls)
	}
}

// TestJournalIgnoresPlantedLink: the usage journal is written through a
// new file of its own, so a link planted beside the data file (where
// another user may write) does not make the server overwrite its target.
func TestJournalIgnoresPlantedLink(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "g.db")
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path+".usage.tmp"); err != nil {
		t.Fatal(err)
	}
	c := newClock(nov19)
	s := openAuth(t, path, c)
	defer s.Close()
	k := mustKey(t, s, "acme", "professional", 0)
	p, err := s.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}
	release := sync.OnceFunc(grocery.HoldWrite(s))
	defer release()
	if _, err := s.Consume(ctx, p); err != nil {
		t.Fatal(err)
	}
	flushed := make(chan error, 1)
	go func() { flushed <- grocery.FlushNow(s) }()
	within(t, "the quota flush", flushed)
	release()
	if b, err := os.ReadFile(victim); err != nil || string(b) != "precious" {
		t.Fatalf("the link's target now holds %q (%v)", b, err)
	}
	if _, err := os.Stat(path + ".usage"); err != nil {
		t.Fatalf("no journal written: %v", err)
	}
}

// TestAccountUsage: an account's calls are counted day by day (UTC), the
// rejected ones too, across a month's end; the days read before a flush
// include the calls not yet written, and survive a restart.
func TestAccountUsage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	nov30 := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	c := newClock(nov30.AddDate(0, 0, -2)) // Nov 28
	s := openAuth(t, path, c)
	k := mustKey(t, s, "acme", "starter", 4)
	p, err := s.Authenticate(ctx, k.Key, grocery.InterfaceMCP)
	if err != nil {
		t.Fatal(err)
	}
	consume := func(n int) {
		for range n {
			s.Consume(ctx, p) // over quota is counted too
		}
	}
	consume(2) // Nov 28
	c.set(nov30)
	consume(3) // Nov 30: 1 over quota
	c.set(nov30.Add(2 * time.Minute))
	consume(1) // Dec 1: a new month
	want := map[string]int64{"2026-11-28": 2, "2026-11-30": 3, "2026-12-01": 1}
	check := func(t *testing.T, s *grocery.Service) {
		t.Helper()
		u, err := s.AccountUsage(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Days) != grocery.UsageDays || u.Days[len(u.Days)-1].Date.String() != "2026-12-01" || u.Days[0].Date.String() != "2026-11-02" {
			t.Fatalf("got %d days from %v to %v, want %d ending 2026-12-01", len(u.Days), u.Days[0].Date, u.Days[len(u.Days)-1].Date, grocery.UsageDays)
		}
		for _, d := range u.Days {
			if d.Calls != want[d.Date.String()] {
				t.Errorf("%s: got %d calls, want %d", d.Date, d.Calls, want[d.Date.String()])
			}
		}
		if u.Used != 1 || u.Limit != 4 || u.Remaining != 3 {
			t.Errorf("got used %d, limit %d, remaining %d; want December's 1, 4, 3", u.Used, u.Limit, u.Remaining)
		}
	}
	check(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAuth(t, path, c)
	defer s.Close()
	check(t, s)
	_, err = s.AccountUsage(ctx, "nobody")
	errCode(t, err, grocery.ENOTFOUND)
}
