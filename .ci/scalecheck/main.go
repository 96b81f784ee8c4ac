// Command scalecheck runs grocery as several processes on loopback, one
// ingest node and three replicas on its snapshots with keys and quota in
// Redis, and checks what cmd/grocery/README.md's "Running more than one
// server" promises: run by .ci/run.
//
//	go run ./.ci/scalecheck -grocery BIN -redis-server PATH [-bench 10s] [-dir DIR]
//
// It starts its own redis-server (append-only file in its work
// directory) on a free loopback port, builds the small demo data set,
// and checks, printing figures as it goes:
//
//  1. exact quota: 64 clients spread round-robin over the replicas mix
//     MCP tools/call and REST GET /price on three accounts with small
//     quotas; each admits exactly its quota, every X-Quota-Remaining
//     from quota-1 down to 0 once, and grocery usage --redis agrees;
//     Redis's INFO commandstats shows one EVALSHA per metered call;
//  2. revocation: a key revoked with grocery keys revoke --redis is
//     refused (401) by every replica, REST and MCP, on its next request;
//  3. import propagation: an import through the ingest node's socket
//     changes two prices of one store; every replica serves both new
//     prices within 5 s (the delay is printed per replica) and no
//     answer of GET /prices polled through the swap holds one old and
//     one new price;
//     3b. a copy of the newest snapshot with 200 random 64-byte runs past
//     its first 16 KiB, published by hand with a manifest carrying its
//     true SHA-256 and size: every replica refuses it in /healthz and
//     keeps serving the previous snapshot, none dies; each takes the next
//     good one;
//  4. SIGKILL: a replica killed mid-load; Redis's count equals the calls
//     the clients saw counted, give or take the calls in flight on the
//     killed replica (counted as unknown and bounded);
//  5. Redis stopped (SIGTERM) and started again on the same port and
//     files mid-load: calls during the outage fail closed (REST 503
//     problem, MCP JSON-RPC error), never succeed, no replica dies;
//     calls after succeed by themselves within 5 s; counts stay exact,
//     and an account's quota is still exact after the restart;
//  6. throughput: three replicas behind a round-robin client against one
//     single-process grocery serve (no Redis) on the same data, -bench
//     each with 32 connections: req/s of both and their ratio.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	groceryBin  = flag.String("grocery", "", "the grocery binary")
	redisServer = flag.String("redis-server", "redis-server", "the redis-server binary")
	benchTime   = flag.Duration("bench", 10*time.Second, "length of each throughput run")
	dir         = flag.String("dir", "", "work directory (default: a new temporary one, removed at the end)")
)

var (
	work     string
	tempWork bool // work is the check's own temporary directory, removed at the end
	redisURL string
	replicas []*server
	ingest   *server
	rds      *redisProc
)

func main() {
	flag.Parse()
	if *groceryBin == "" {
		fail("want -grocery")
	}
	start := time.Now()
	if *dir == "" {
		d, err := os.MkdirTemp("", "scalecheck")
		check(err)
		*dir, tempWork = d, true
	}
	work = *dir
	defer func() {
		stopAll()
		if tempWork {
			os.RemoveAll(work)
		}
	}()

	p := func(name string) string { return filepath.Join(work, name) }
	grocery("demo", "--db", p("ingest.db"), "--as-of", "2026-11-19")
	copyFile(p("ingest.db"), p("single.db"))
	t := findTarget(p("single.db"))

	rds = startRedis(p("redis"))
	redisURL = fmt.Sprintf("redis://127.0.0.1:%d/0", rds.port)
	fmt.Printf("redis-server on %s (append-only file in its directory)\n", redisURL)

	snaps := p("snaps")
	check(os.MkdirAll(snaps, 0o700))
	ingest = startServer("ingest", p("ingest.db"), "--role", "ingest", "--snapshots", snaps, "--redis", redisURL)
	waitFile(filepath.Join(snaps, "manifest.json"))
	for i := 0; i < 3; i++ {
		replicas = append(replicas, startReplica(i, snaps))
	}
	for _, r := range replicas {
		fmt.Printf("replica %s: %s, snapshot %d\n", r.name, r.base, r.health().Snapshot.Seq)
	}
	fmt.Printf("ingest %s; started in %v\n", ingest.base, time.Since(start).Round(time.Millisecond))

	exactQuota(t)
	revocation(t)
	propagation(t)
	corruptSnapshot(t)
	sigkill(t)
	redisRestart(t)
	throughput(t, p("single.db"))

	for _, r := range append([]*server{ingest}, replicas...) {
		if strings.Contains(r.errOut.String(), "panic") {
			fail("%s logged a panic:\n%s", r.name, r.errOut)
		}
	}
	fmt.Printf("scale check passed in %v\n", time.Since(start).Round(time.Second))
}

// --- processes

// server is a running grocery serve.
type server struct {
	name   string
	cmd    *exec.Cmd
	base   string
	exited chan error
	errOut *logBuffer
}

var servingRE = regexp.MustCompile(`Serving (http://\S+)`)

// startServer starts grocery serve with the data file db (none for a
// replica) on a free loopback port and waits for its address.
func startServer(name, db string, args ...string) *server {
	all := []string{"serve", "--addr", "127.0.0.1:0"}
	if db != "" {
		all = append(all, "--db", db)
	}
	cmd := exec.Command(*groceryBin, append(all, args...)...)
	cmd.Dir = work
	out, err := cmd.StdoutPipe()
	check(err)
	s := &server{name: name, cmd: cmd, exited: make(chan error, 1), errOut: &logBuffer{}}
	cmd.Stderr = s.errOut
	check(cmd.Start())
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	go func() { s.exited <- cmd.Wait() }()
	select {
	case s.base = <-found:
	case err := <-s.exited:
		fail("%s: grocery serve exited: %v\n%s", name, err, s.errOut)
	case <-time.After(20 * time.Second):
		fail("%s: grocery serve printed no address in 20 s\n%s", name, s.errOut)
	}
	return s
}

func startReplica(i int, snaps string) *server {
	d := filepath.Join(work, fmt.Sprintf("replica%d", i))
	check(os.MkdirAll(d, 0o700))
	s := startServer(fmt.Sprintf("r%d", i), filepath.Join(d, "unused.db"), "--role", "replica", "--snapshots", snaps, "--redis", redisURL)
	for deadline := time.Now().Add(10 * time.Second); s.health().Snapshot.Seq == 0; {
		if time.Now().After(deadline) {
			fail("%s: /healthz shows no snapshot after 10 s\n%s", s.name, s.errOut)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// alive reports whether the process still runs.
func (s *server) alive() bool {
	select {
	case err := <-s.exited:
		s.exited <- err
		return false
	default:
		return true
	}
}

func (s *server) kill(sig syscall.Signal) {
	s.cmd.Process.Signal(sig)
	select {
	case err := <-s.exited:
		s.exited <- err
	case <-time.After(20 * time.Second):
		fail("%s did not stop in 20 s after %v", s.name, sig)
	}
}

type health struct {
	Status   string `json:"status"`
	Snapshot struct {
		Seq  int    `json:"seq"`
		AsOf string `json:"as_of"`
	} `json:"snapshot"`
	Refused string `json:"refused"`
}

func (s *server) health() health {
	var h health
	resp, err := client.Get(s.base + "/healthz")
	if err != nil {
		return h
	}
	defer resp.Body.Close()
	json.NewDecoder(resp.Body).Decode(&h)
	return h
}

// logBuffer keeps a process's log; the process writes it while the
// check reads it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// redisProc is the redis-server the check runs.
type redisProc struct {
	dir    string
	port   int
	cmd    *exec.Cmd
	exited chan struct{}
}

func startRedis(d string) *redisProc {
	check(os.MkdirAll(d, 0o700))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	redis.SetLogger(quiet{}) // the check stops Redis on purpose
	r := &redisProc{dir: d, port: port}
	r.start()
	return r
}

// start starts redis-server on r's port and directory, with an
// append-only file so that counts survive a stop, and waits until it
// answers.
func (r *redisProc) start() {
	cmd := exec.Command(*redisServer, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "yes", "--appendfsync", "everysec", "--dir", r.dir, "--logfile", filepath.Join(r.dir, "redis.log"))
	check(cmd.Start())
	r.cmd, r.exited = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(r.exited) }()
	c := r.client()
	defer c.Close()
	for i := 0; ; i++ {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
		if i == 400 {
			fail("redis-server on port %d does not answer (log in %s)", r.port, r.dir)
		}
		select {
		case <-r.exited:
			log, _ := os.ReadFile(filepath.Join(r.dir, "redis.log"))
			fail("redis-server on port %d exited at start:\n%s", r.port, log)
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM (Redis writes its append-only file and exits) and
// waits for the process to end.
func (r *redisProc) stop() {
	r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(10 * time.Second):
		fail("redis-server did not stop in 10 s after SIGTERM")
	}
}

func (r *redisProc) client() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(r.port), MaxRetries: -1})
}

// commandCalls returns the calls of every command from INFO
// commandstats, by name.
func (r *redisProc) commandCalls() map[string]int {
	c := r.client()
	defer c.Close()
	info, err := c.Info(context.Background(), "commandstats").Result()
	check(err)
	calls := map[string]int{}
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		for _, f := range strings.Split(rest, ",") {
			if v, ok := strings.CutPrefix(f, "calls="); ok {
				calls[strings.TrimPrefix(name, "cmdstat_")], _ = strconv.Atoi(v)
			}
		}
	}
	return calls
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

func stopAll() {
	servers := append([]*server{ingest}, replicas...)
	for _, s := range servers {
		if s != nil && s.alive() {
			s.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	if rds != nil && rds.cmd != nil {
		rds.cmd.Process.Signal(syscall.SIGTERM)
	}
	// Wait for them, so that the work directory is removed after the last
	// write into it.
	deadline := time.After(10 * time.Second)
	for _, s := range servers {
		if s == nil {
			continue
		}
		select {
		case err := <-s.exited:
			s.exited <- err
		case <-deadline:
			return
		}
	}
	if rds != nil && rds.cmd != nil {
		select {
		case <-rds.exited:
		case <-deadline:
		}
	}
}

// --- the CLI

func grocery(args ...string) string {
	cmd := exec.Command(*groceryBin, args...)
	cmd.Dir = work
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		fail("grocery %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimSpace(string(out))
}

func createKey(account string, quota int) string {
	return grocery("keys", "create", "--account", account, "--plan", "integration", "--quota", strconv.Itoa(quota), "--redis", redisURL)
}

// used is the account's count this month, read from Redis by the CLI.
func used(account string) int {
	out := grocery("usage", "--account", account, "--redis", redisURL)
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "used" {
			n, _ := strconv.Atoi(strings.ReplaceAll(f[1], ",", ""))
			return n
		}
	}
	fail("grocery usage: no used line in %q", out)
	return 0
}

// target is what the calls ask for: a carried barcode, a store of a
// banner that carries it.
type target struct{ upc, banner, store string }

func findTarget(db string) target {
	offers := grocery("export", "--db", db, "--dataset", "offers", "--province", "ON", "--format", "jsonl")
	stores := grocery("export", "--db", db, "--dataset", "stores", "--province", "ON", "--format", "jsonl")
	byBanner := map[string]string{}
	for _, line := range strings.Split(stores, "\n") {
		var s struct {
			StoreID string `json:"store_id"`
			Banner  string `json:"banner"`
		}
		if json.Unmarshal([]byte(line), &s) == nil && byBanner[s.Banner] == "" {
			byBanner[s.Banner] = s.StoreID
		}
	}
	for _, line := range strings.Split(offers, "\n") {
		var o struct{ UPC, Banner string }
		if json.Unmarshal([]byte(line), &o) == nil && o.UPC != "" && byBanner[o.Banner] != "" {
			return target{o.UPC, o.Banner, byBanner[o.Banner]}
		}
	}
	fail("no ON offer with a store of its banner in %s", db)
	return target{}
}

// --- calls

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: 30 * time.Second}

// result is one call's outcome.
type result struct {
	account    string
	replica    int
	mcp        bool
	status     int   // -1: no answer (err)
	err        error // the transport's error
	quota      bool  // refused for its quota (429, or MCP's quota error)
	rpcError   bool  // MCP: a JSON-RPC error object
	problem    bool  // REST: an application/problem+json answer
	remaining  string
	limit      string
	body       []byte
	start, end time.Time
}

// ok reports whether the call was served (and counted as admitted).
func (r result) ok() bool {
	return r.status == 200 && !r.quota && !r.rpcError && !bytes.Contains(r.body, []byte(`"isError":true`))
}

func call(base, key, account string, mcp bool, t target) result {
	var req *http.Request
	if mcp {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_product","arguments":{"upc":%q,"province":"ON"}}}`, t.upc)
		req, _ = http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	} else {
		req, _ = http.NewRequest("GET", base+"/price?"+url.Values{"banner": {t.banner}, "store": {t.store}, "upc": {t.upc}}.Encode(), nil)
		req.Header.Set("X-API-Key", key)
	}
	return do(req, account, mcp)
}

func do(req *http.Request, account string, mcp bool) result {
	r := result{account: account, mcp: mcp, start: time.Now()}
	resp, err := client.Do(req)
	if err != nil {
		r.status, r.err, r.end = -1, err, time.Now()
		return r
	}
	r.body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	r.end = time.Now()
	if err != nil {
		r.status, r.err = -1, err
		return r
	}
	r.status = resp.StatusCode
	r.limit, r.remaining = resp.Header.Get("X-Quota-Limit"), resp.Header.Get("X-Quota-Remaining")
	r.quota = resp.StatusCode == 429 || bytes.Contains(r.body, []byte("quota_exceeded"))
	r.problem = strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json")
	if mcp {
		var m struct {
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		r.rpcError = json.Unmarshal(r.body, &m) == nil && m.Error != nil
	}
	return r
}

func (r result) String() string {
	if r.status < 0 {
		return fmt.Sprintf("replica r%d: no answer: %v", r.replica, r.err)
	}
	b := r.body
	if len(b) > 300 {
		b = b[:300]
	}
	kind := "REST"
	if r.mcp {
		kind = "MCP"
	}
	return fmt.Sprintf("replica r%d %s: %d %s", r.replica, kind, r.status, b)
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)*p/100]
}

// --- 1. exact quota

func exactQuota(t target) {
	fmt.Println("--- 1. exact quota: 64 clients round-robin over 3 replicas, MCP and REST, three accounts")
	quotas := map[string]int{"acct-a": 300, "acct-b": 500, "acct-c": 800}
	accounts := []string{"acct-a", "acct-b", "acct-c"}
	keys := map[string]string{}
	for _, a := range accounts {
		keys[a] = createKey(a, quotas[a])
	}
	before := rds.commandCalls()
	var mu sync.Mutex
	var results []result
	var wg sync.WaitGroup
	begin := make(chan struct{})
	clientsOf := map[string]int{}
	for c := 0; c < 64; c++ {
		clientsOf[accounts[c%3]]++
	}
	t0 := time.Now()
	for c := 0; c < 64; c++ {
		a := accounts[c%3]
		per := (2*quotas[a] + clientsOf[a] - 1) / clientsOf[a] // twice the quota over the account's clients
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			local := make([]result, 0, per)
			for i := 0; i < per; i++ {
				ri := (c + i) % len(replicas)
				r := call(replicas[ri].base, keys[a], a, (c+i)%2 == 0, t)
				r.replica = ri
				local = append(local, r)
			}
			mu.Lock()
			results = append(results, local...)
			mu.Unlock()
		}()
	}
	close(begin)
	wg.Wait()
	took := time.Since(t0)
	after := rds.commandCalls()

	var lat []time.Duration
	for _, a := range accounts {
		admitted, refused := 0, 0
		byReplica := make([]int, len(replicas))
		remaining := map[string]int{}
		for _, r := range results {
			if r.account != a {
				continue
			}
			lat = append(lat, r.end.Sub(r.start))
			if r.limit != strconv.Itoa(quotas[a]) {
				fail("%s: X-Quota-Limit %q, want %d: %v", a, r.limit, quotas[a], r)
			}
			switch {
			case r.quota:
				refused++
				if r.remaining != "0" {
					fail("%s: refused with X-Quota-Remaining %q, want 0", a, r.remaining)
				}
			case r.ok():
				admitted++
				byReplica[r.replica]++
				remaining[r.remaining]++
			default:
				fail("%s: want a success or a quota refusal, got %v", a, r)
			}
		}
		if admitted != quotas[a] {
			fail("%s: %d admitted over the replicas, want exactly its quota %d", a, admitted, quotas[a])
		}
		for i := 0; i < quotas[a]; i++ {
			if n := remaining[strconv.Itoa(i)]; n != 1 {
				fail("%s: X-Quota-Remaining %d seen %d times over the replicas, want once", a, i, n)
			}
		}
		u := used(a)
		fmt.Printf("%s: quota %d: %d admitted (by replica %v), %d refused; X-Quota-Remaining %d..0 once each; grocery usage --redis: used %d\n",
			a, quotas[a], admitted, byReplica, refused, quotas[a]-1, u)
		if u != admitted+refused {
			fail("%s: grocery usage says %d used, the clients made %d calls (%d admitted, %d refused); refused calls count too",
				a, u, admitted+refused, admitted, refused)
		}
	}
	n := len(results)
	evalsha := after["evalsha"] - before["evalsha"]
	// Commands a script runs count in commandstats too: the auth script's
	// own (HMGET key and account, INCR, EXPIRE, HSET last_used) are
	// expected; any other command would be a round trip of its own.
	inScript := map[string]bool{"hmget": true, "incr": true, "expire": true, "hset": true, "get": true}
	// A new pooled connection says HELLO (and CLIENT SETINFO) once.
	setup := map[string]bool{"hello": true, "client|setinfo": true, "auth": true, "select": true}
	// The ingest node's webhook worker looks at the shared outbox once a
	// second, whatever the load (EXISTS on the active endpoints, LRANGE of
	// the fan-out list): at most one each per second of the run, not per
	// call.
	polls := map[string]bool{"exists": true, "lrange": true}
	maxPolls := int(took.Seconds()) + 2
	var others, breakdown, conns, background []string
	nSetup := 0
	for name, c := range after {
		d := c - before[name]
		switch {
		case d == 0 || name == "info" || name == "evalsha":
		case polls[name] && d <= maxPolls:
			background = append(background, fmt.Sprintf("%s %d", name, d))
		case setup[name]:
			conns = append(conns, fmt.Sprintf("%s %d", name, d))
			nSetup += d
		case inScript[name]:
			breakdown = append(breakdown, fmt.Sprintf("%s %d", name, d))
		default:
			others = append(others, fmt.Sprintf("%s %d", name, d))
		}
	}
	slices.Sort(breakdown)
	slices.Sort(conns)
	fmt.Printf("%d metered calls in %v (%.0f/s); client-seen latency p50 %v, p99 %v\n", n, took.Round(time.Millisecond),
		float64(n)/took.Seconds(), percentile(lat, 50).Round(10*time.Microsecond), percentile(lat, 99).Round(10*time.Microsecond))
	slices.Sort(background)
	fmt.Printf("INFO commandstats: evalsha calls %d -> %d (delta %d for %d metered calls); inside the script: %s; new connections: %s; the webhook worker's polls (at most %d each): %s\n",
		before["evalsha"], after["evalsha"], evalsha, n, strings.Join(breakdown, ", "), strings.Join(conns, ", "), maxPolls, strings.Join(background, ", "))
	if evalsha != n {
		fail("EVALSHA delta %d for %d metered calls: want one round trip per call", evalsha, n)
	}
	if len(others) > 0 {
		fail("commands outside the auth script during the run: %s: want EVALSHA alone per call", strings.Join(others, ", "))
	}
	if nSetup > n/10 {
		fail("%d connection set-up commands over %d calls: the replicas' Redis clients reconnect", nSetup, n)
	}
	if d := after["hmget"] - before["hmget"]; d != 2*n {
		fail("HMGET delta %d for %d calls: want two per call, inside the script", d, n)
	}
}

// --- 2. revocation

func revocation(t target) {
	fmt.Println("--- 2. revocation: grocery keys revoke --redis, then every replica, REST and MCP")
	key := createKey("acct-rev", 1000000)
	for i, r := range replicas {
		for _, mcp := range []bool{false, true} {
			if res := call(r.base, key, "acct-rev", mcp, t); !res.ok() {
				res.replica = i
				fail("before the revocation: want a success, got %v", res)
			}
		}
	}
	id := "gro_pk_" + strings.TrimPrefix(key, "gro_pk_")[:8]
	t0 := time.Now()
	grocery("keys", "revoke", id, "--redis", redisURL)
	fmt.Printf("grocery keys revoke %s --redis: %v\n", id, time.Since(t0).Round(time.Millisecond))
	for i, r := range replicas {
		for _, mcp := range []bool{false, true} {
			res := call(r.base, key, "acct-rev", mcp, t)
			res.replica = i
			if res.status != 401 {
				fail("the next request after the revocation: want 401, got %v", res)
			}
		}
	}
	fmt.Printf("every replica (%d) answered the revoked key's next REST and MCP request 401\n", len(replicas))
}

// --- 3. import propagation

// priceItem is the part of GET /prices's items the check compares.
type priceItem struct {
	SKU        string  `json:"external_sku"`
	Price      float64 `json:"price"`
	ObservedAt string  `json:"observed_at"`
}

func prices(base, key string, t target) ([]priceItem, result) {
	req, _ := http.NewRequest("GET", base+"/prices?"+url.Values{"banner": {t.banner}, "store": {t.store}, "limit": {"2"}}.Encode(), nil)
	req.Header.Set("X-API-Key", key)
	r := do(req, "acct-poll", false)
	var page struct{ Results []priceItem }
	if r.status == 200 {
		json.Unmarshal(r.body, &page)
	}
	return page.Results, r
}

func propagation(t target) {
	fmt.Println("--- 3. import propagation: two prices of one store change on the ingest node")
	key := createKey("acct-poll", 100000000)
	old, res := prices(replicas[0].base, key, t)
	if len(old) != 2 {
		fail("GET /prices of %s: want 2 items, got %v", t.store, res)
	}
	newItems := make([]priceItem, 2)
	csv := "date,store_id,banner,external_sku,price\n"
	for i, it := range old {
		newItems[i] = priceItem{it.SKU, float64(int(it.Price*100)+37+int(i)*10) / 100, "2026-11-20"}
		csv += fmt.Sprintf("2026-11-20,%s,%s,%s,%.2f\n", t.store, t.banner, it.SKU, newItems[i].Price)
	}
	file := filepath.Join(work, "change.csv")
	check(os.WriteFile(file, []byte(csv), 0o600))
	fmt.Printf("store %s: %s %.2f -> %.2f, %s %.2f -> %.2f\n", t.store, old[0].SKU, old[0].Price, newItems[0].Price,
		old[1].SKU, old[1].Price, newItems[1].Price)
	seq0 := replicas[0].health().Snapshot.Seq

	// Two pollers per replica, as fast as they can, from before the
	// import until each replica has served the new prices for 300 ms.
	firstNew := make([]atomic.Int64, len(replicas)) // unix ns of the first new answer
	var polls, oldN, newN atomic.Int64
	var bad atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for ri, r := range replicas {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					got, res := prices(r.base, key, t)
					polls.Add(1)
					isOld := len(got) == 2 && got[0] == old[0] && got[1] == old[1]
					isNew := len(got) == 2 && got[0] == newItems[0] && got[1] == newItems[1]
					switch {
					case isOld && firstNew[ri].Load() != 0 && res.start.UnixNano() > firstNew[ri].Load():
						// A call that started before another one's new answer
						// came back may still answer the old data; one that
						// started after may not.
						bad.CompareAndSwap(nil, fmt.Sprintf("r%d went back to the old prices after serving the new ones: %s", ri, res.body))
					case isOld:
						oldN.Add(1)
					case isNew:
						newN.Add(1)
						firstNew[ri].CompareAndSwap(0, res.end.UnixNano())
					default:
						bad.CompareAndSwap(nil, fmt.Sprintf("r%d: an answer neither all old (%v) nor all new (%v): %d %s", ri, old, newItems, res.status, res.body))
					}
				}
			}()
		}
	}
	time.Sleep(300 * time.Millisecond)
	impStart := time.Now()
	grocery("import", "--db", filepath.Join(work, "ingest.db"), file)
	impEnd := time.Now()
	deadline := impStart.Add(5 * time.Second)
	for {
		all := true
		for i := range replicas {
			if firstNew[i].Load() == 0 {
				all = false
			}
		}
		if all || time.Now().After(deadline) || bad.Load() != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	if b := bad.Load(); b != nil {
		fail("%s", b)
	}
	fmt.Printf("import through the ingest node's socket: %v\n", impEnd.Sub(impStart).Round(time.Millisecond))
	for i, r := range replicas {
		f := firstNew[i].Load()
		if f == 0 {
			fail("r%d still served the old prices 5 s after the import started (healthz %+v)", i, r.health())
		}
		d := time.Unix(0, f).Sub(impStart)
		h := r.health()
		fmt.Printf("r%d: new prices %v after the import started (%v after it returned); now snapshot %d (was %d), as_of %s\n",
			i, d.Round(time.Millisecond), time.Unix(0, f).Sub(impEnd).Round(time.Millisecond), h.Snapshot.Seq, seq0, h.Snapshot.AsOf)
		if d > 5*time.Second {
			fail("r%d: new prices after %v, want within 5 s", i, d)
		}
	}
	fmt.Printf("%d answers polled through the swap: %d all old, %d all new, none mixed\n", polls.Load(), oldN.Load(), newN.Load())
	if oldN.Load() == 0 || newN.Load() == 0 {
		fail("the polling saw %d old and %d new answers: want both, the swap inside the polling", oldN.Load(), newN.Load())
	}
}

// --- 3b. a damaged snapshot whose manifest matches it

// corruptSnapshot publishes by hand a copy of the newest snapshot with
// 200 random 64-byte runs past its first 16 KiB and a manifest carrying
// its true SHA-256 and size: every replica refuses it (its pages fail the
// consistency check), says so in /healthz, keeps serving the previous
// snapshot and does not die.
func corruptSnapshot(t target) {
	fmt.Println("--- 3b. a corrupted snapshot whose manifest has its true SHA-256 and size")
	snaps := filepath.Join(work, "snaps")
	var m struct {
		Seq     int       `json:"seq"`
		File    string    `json:"file"`
		AsOf    string    `json:"as_of"`
		SHA256  string    `json:"sha256"`
		Size    int64     `json:"size"`
		Created time.Time `json:"created"`
	}
	b, err := os.ReadFile(filepath.Join(snaps, "manifest.json"))
	check(err)
	check(json.Unmarshal(b, &m))
	data, err := os.ReadFile(filepath.Join(snaps, m.File))
	check(err)
	rnd := rand.New(rand.NewPCG(19, 1))
	for range 200 {
		at := 16<<10 + rnd.IntN(len(data)-16<<10-64)
		for i := range 64 {
			data[at+i] = byte(rnd.Uint32())
		}
	}
	m.Seq++
	m.File = fmt.Sprintf("snapshot-%d.db", m.Seq)
	m.SHA256 = fmt.Sprintf("%x", sha256.Sum256(data))
	m.Size = int64(len(data))
	m.Created = time.Now().UTC()
	check(os.WriteFile(filepath.Join(snaps, m.File), data, 0o644))
	b, err = json.Marshal(m)
	check(err)
	check(os.WriteFile(filepath.Join(snaps, "manifest.json.tmp"), b, 0o644))
	check(os.Rename(filepath.Join(snaps, "manifest.json.tmp"), filepath.Join(snaps, "manifest.json")))
	key := createKey("acct-corrupt", 100000000)
	want := fmt.Sprintf("snapshot %d", m.Seq)
	for _, r := range replicas {
		var h health
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if h = r.health(); strings.Contains(h.Refused, want) {
				break
			}
			if time.Now().After(deadline) || !r.alive() {
				fail("%s: /healthz does not refuse %s within 10 s (alive %v): %+v\n%s", r.name, want, r.alive(), h, r.errOut)
			}
		}
		if h.Status != "ok" || h.Snapshot.Seq >= m.Seq {
			fail("%s after refusing %s: /healthz %+v, want ok on the previous snapshot", r.name, want, h)
		}
		fmt.Printf("%s refuses it, serves snapshot %d: %s\n", r.name, h.Snapshot.Seq, h.Refused)
	}
	// A second of calls on every replica: all answered, none dies.
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		for _, r := range replicas {
			if got, res := prices(r.base, key, t); len(got) != 2 {
				fail("%s after refusing %s: GET /prices: %v", r.name, want, res)
			}
		}
	}
	for _, r := range replicas {
		if !r.alive() || strings.Contains(r.errOut.String(), "panic") {
			fail("%s died or panicked after the corrupted snapshot:\n%s", r.name, r.errOut)
		}
	}
	// The next import publishes a good snapshot, which every replica
	// takes (a replica started while the manifest names the damaged one
	// would refuse to start: it has nothing else to serve).
	grocery("import", "--db", filepath.Join(work, "ingest.db"), filepath.Join(work, "change.csv"))
	for _, r := range replicas {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if h := r.health(); h.Snapshot.Seq > m.Seq && h.Refused == "" {
				break
			}
			if time.Now().After(deadline) {
				fail("%s: the snapshot after the damaged one is not taken within 10 s: %+v", r.name, r.health())
			}
		}
	}
	fmt.Println("every replica refused it and kept serving, then took the next good snapshot")
}

// --- 4. SIGKILL

func sigkill(t target) {
	fmt.Println("--- 4. a replica killed with SIGKILL mid-load")
	const account = "acct-kill"
	key := createKey(account, 100000000)
	const victim = 2
	var killed atomic.Bool
	var admitted, refusedConn, unknown atomic.Int64
	byReplica := make([]atomic.Int64, len(replicas))
	var bad atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const clients = 24
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				ri := (c + i) % len(replicas)
				wasKilled := killed.Load()
				if ri == victim && wasKilled {
					continue // the client's balancer takes it out
				}
				r := call(replicas[ri].base, key, account, (c+i)%2 == 0, t)
				r.replica = ri
				switch {
				case r.ok():
					admitted.Add(1)
					byReplica[ri].Add(1)
				case r.status < 0 && ri == victim:
					// In flight on the killed replica: Redis may or may not
					// have counted it (a GET whose kept-alive connection
					// broke is sent again on a new one, which is refused:
					// that too may have been counted).
					unknown.Add(1)
					if errors.Is(r.err, syscall.ECONNREFUSED) {
						refusedConn.Add(1)
					}
				default:
					bad.CompareAndSwap(nil, r.String())
				}
			}
		}()
	}
	time.Sleep(time.Second)
	// Out of the clients' rotation first: the calls on it from then on
	// were in flight at the kill, at most one per client.
	killed.Store(true)
	replicas[victim].cmd.Process.Signal(syscall.SIGKILL)
	killedAt := time.Now()
	replicas[victim].exited <- <-replicas[victim].exited // taken and put back, as alive does
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()
	if b := bad.Load(); b != nil {
		fail("want a success (or no answer from the killed replica), got %v", b)
	}
	u := used(account)
	a, unk := int(admitted.Load()), int(unknown.Load())
	fmt.Printf("killed r%d at %s; %d admitted (by replica %d/%d/%d), %d in flight on it (unknown; %d of them ended refused); Redis counts %d\n",
		victim, killedAt.Format("15:04:05.000"), a, byReplica[0].Load(), byReplica[1].Load(), byReplica[2].Load(), unk, refusedConn.Load(), u)
	if u < a {
		fail("Redis counts %d calls, the clients saw %d admitted: %d lost", u, a, a-u)
	}
	if u > a+unk {
		fail("Redis counts %d calls, the clients saw %d admitted and %d unknown: %d counted from nowhere", u, a, unk, u-a-unk)
	}
	if unk > clients {
		fail("%d calls in flight on the killed replica, at most one per client (%d)", unk, clients)
	}
	fmt.Printf("Redis's count = admitted + %d of the %d unknown (bound: one per client, %d)\n", u-a, unk, clients)
	replicas[victim] = startReplica(victim, filepath.Join(work, "snaps"))
	fmt.Printf("r%d started again: %s, snapshot %d\n", victim, replicas[victim].base, replicas[victim].health().Snapshot.Seq)
}

// --- 5. Redis restarted

func redisRestart(t target) {
	fmt.Println("--- 5. Redis stopped (SIGTERM) and started again mid-load")
	const account = "acct-outage"
	key := createKey(account, 100000000)
	afterKey := createKey("acct-after", 200) // created before the outage: must survive it
	var mu sync.Mutex
	var results []result
	stop := make(chan struct{})
	var wg sync.WaitGroup
	const clients = 16
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []result
			for i := 0; ; i++ {
				select {
				case <-stop:
					mu.Lock()
					results = append(results, local...)
					mu.Unlock()
					return
				default:
				}
				ri := (c + i) % len(replicas)
				r := call(replicas[ri].base, key, account, (c+i)%2 == 0, t)
				r.replica = ri
				local = append(local, r)
				if !r.ok() {
					time.Sleep(5 * time.Millisecond) // as a client backs off
				}
			}
		}()
	}
	time.Sleep(time.Second)
	stopStart := time.Now()
	rds.stop()
	stopped := time.Now()
	time.Sleep(1500 * time.Millisecond)
	restart := time.Now()
	rds.start()
	restarted := time.Now()
	time.Sleep(4 * time.Second)
	close(stop)
	wg.Wait()
	fmt.Printf("Redis SIGTERM to exit: %v; down %v; start to answering: %v\n", stopped.Sub(stopStart).Round(time.Millisecond),
		restart.Sub(stopped).Round(time.Millisecond), restarted.Sub(restart).Round(time.Millisecond))

	for _, r := range replicas {
		if !r.alive() {
			fail("%s exited during the Redis outage:\n%s", r.name, r.errOut)
		}
	}
	okN, closedREST, closedMCP, unknown := 0, 0, 0, 0
	var during, after int
	recovered := make([]time.Time, len(replicas))
	var lastFail time.Time
	for _, r := range results {
		switch {
		case r.ok():
			okN++
			if !r.start.Before(stopped) && r.end.Before(restart) {
				fail("a call made while Redis was down succeeded: %v", r)
			}
			if !r.start.Before(restart) {
				after++
				if recovered[r.replica].IsZero() || r.end.Before(recovered[r.replica]) {
					recovered[r.replica] = r.end
				}
			}
		case r.status == 503 && !r.mcp && r.problem && bytes.Contains(r.body, []byte(`"unavailable"`)) && bytes.Contains(r.body, []byte("Redis")),
			r.status == 503 && r.mcp && r.rpcError && bytes.Contains(r.body, []byte(`"code":-32603`)) && bytes.Contains(r.body, []byte("Redis")):
			if r.mcp {
				closedMCP++
			} else {
				closedREST++
			}
			if r.end.After(lastFail) {
				lastFail = r.end
			}
			if r.start.Before(stopped) {
				unknown++ // sent before Redis was gone: it may have been counted
			}
			if !r.start.Before(stopped) && r.end.Before(restart) {
				during++
			}
		default:
			fail("want a success or a fail-closed refusal naming Redis (REST 503 unavailable problem, MCP 503 with JSON-RPC error -32603), got %v", r)
		}
	}
	fmt.Printf("%d calls: %d succeeded, %d refused closed (REST 503 problem %d, MCP JSON-RPC error %d), %d of them while Redis was down\n",
		len(results), okN, closedREST+closedMCP, closedREST, closedMCP, during)
	if during == 0 {
		fail("no call was refused while Redis was down: the outage missed the load")
	}
	for i, rec := range recovered {
		if rec.IsZero() {
			fail("r%d served no call in the 4 s after Redis was back", i)
		}
		fmt.Printf("r%d: first success %v after Redis answered again\n", i, rec.Sub(restarted).Round(time.Millisecond))
		if rec.Sub(restarted) > 3*time.Second {
			fail("r%d: first success %v after Redis was back, want within 3 s", i, rec.Sub(restarted))
		}
	}
	fmt.Printf("last refusal %v after Redis answered again; %d successes after\n", lastFail.Sub(restarted).Round(time.Millisecond), after)
	if lastFail.Sub(restarted) > 3*time.Second {
		fail("calls still refused %v after Redis was back", lastFail.Sub(restarted))
	}
	u := used(account)
	fmt.Printf("Redis counts %d; the clients saw %d admitted, %d refusals sent before Redis stopped (unknown)\n", u, okN, unknown)
	if u < okN || u > okN+unknown {
		fail("Redis counts %d, want between the %d admitted and %d (with the unknown)", u, okN, okN+unknown)
	}
	// The quota of an account made before the outage is still exact.
	var wg2 sync.WaitGroup
	var admitted, refused atomic.Int64
	for c := 0; c < 32; c++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			for i := 0; i < 13; i++ {
				ri := (c + i) % len(replicas)
				r := call(replicas[ri].base, afterKey, "acct-after", (c+i)%2 == 0, t)
				switch {
				case r.quota:
					refused.Add(1)
				case r.ok():
					admitted.Add(1)
				default:
					r.replica = ri
					fail("acct-after: want a success or a quota refusal, got %v", r)
				}
			}
		}()
	}
	wg2.Wait()
	fmt.Printf("acct-after (key made before the outage), quota 200: %d admitted, %d refused; used %d\n", admitted.Load(), refused.Load(), used("acct-after"))
	if admitted.Load() != 200 {
		fail("acct-after: %d admitted after the restart, want its quota 200", admitted.Load())
	}
}

// --- 6. throughput

// config is a set of servers the throughput runs call round-robin.
type config struct {
	label     string
	bases     []string
	key       string
	pids      []int // the server processes
	withRedis bool

	n    int
	wall time.Duration
	cpu  []time.Duration // this check, redis-server, then pids
}

func throughput(t target, singleDB string) {
	const rounds = 5
	fmt.Printf("--- 6. throughput: 3 replicas (round-robin) vs 1 single-process server, %v each in %d interleaved rounds, 32 connections, MCP and REST\n",
		*benchTime, rounds)
	key := createKey("acct-bench", 1000000000)
	multi := &config{label: "3 replicas + Redis", key: key, withRedis: true}
	for _, r := range replicas {
		multi.bases = append(multi.bases, r.base)
		multi.pids = append(multi.pids, r.cmd.Process.Pid)
	}
	// Where the time goes: the same with one replica.
	one := &config{label: "1 replica + Redis", bases: multi.bases[:1], key: key, pids: multi.pids[:1], withRedis: true}
	singleKey := grocery("keys", "create", "--account", "acct-bench", "--plan", "integration", "--quota", "1000000000", "--db", singleDB)
	single := startServer("single", singleDB)
	alone := &config{label: "1 single-process server (keys and counts in its file)", bases: []string{single.base}, key: singleKey, pids: []int{single.cmd.Process.Pid}}

	// Interleaved, so that all three see the same share of a machine
	// other work may use too.
	before := rds.commandCalls()
	evalshas := 0
	for range rounds {
		for _, c := range []*config{multi, one, alone} {
			b := rds.commandCalls()
			c.run(t, *benchTime/rounds)
			if c.withRedis {
				evalshas += rds.commandCalls()["evalsha"] - b["evalsha"]
			}
		}
	}
	after := rds.commandCalls()
	single.kill(syscall.SIGTERM)
	for _, c := range []*config{multi, one, alone} {
		c.print()
	}
	fmt.Printf("EVALSHA delta %d for the %d calls through Redis\n", after["evalsha"]-before["evalsha"], multi.n+one.n)
	if d := after["evalsha"] - before["evalsha"]; d != multi.n+one.n || evalshas != d {
		fail("EVALSHA delta %d for %d metered calls: want one round trip per call", d, multi.n+one.n)
	}
	fmt.Printf("ratio 3 replicas / 1 server: %.2f req/s; CPU per call %.2f times the single server's (%d cores shared by every process, the clients and other work; load average %s)\n",
		multi.rate()/alone.rate(), multi.perCall()/alone.perCall(), runtime.NumCPU(), loadavg())
}

// run calls c's servers for d and adds the calls and CPU times.
func (c *config) run(t target, d time.Duration) {
	all := append([]int{os.Getpid(), rds.cmd.Process.Pid}, c.pids...)
	cpu0 := cpuTimes(all)
	t0 := time.Now()
	n := bench(c.bases, c.key, t, d)
	c.wall += time.Since(t0)
	cpu1 := cpuTimes(all)
	if c.cpu == nil {
		c.cpu = make([]time.Duration, len(all))
	}
	for i := range all {
		c.cpu[i] += cpu1[i] - cpu0[i]
	}
	c.n += n
}

func (c *config) rate() float64 { return float64(c.n) / c.wall.Seconds() }

// perCall is the CPU time per call of the servers, Redis (if used) and
// the clients, in µs.
func (c *config) perCall() float64 {
	total := c.cpu[0]
	for _, x := range c.cpu[2:] {
		total += x
	}
	if c.withRedis {
		total += c.cpu[1]
	}
	return float64(total.Nanoseconds()) / 1000 / float64(c.n)
}

func (c *config) print() {
	var servers time.Duration
	for _, x := range c.cpu[2:] {
		servers += x
	}
	us := func(x time.Duration) string {
		return fmt.Sprintf("%.0f µs", float64(x.Nanoseconds())/1000/float64(c.n))
	}
	redisPart := ""
	busy := servers + c.cpu[0]
	if c.withRedis {
		redisPart = ", redis-server " + us(c.cpu[1])
		busy += c.cpu[1]
	}
	fmt.Printf("%s: %d calls in %v, %.0f req/s\n  CPU per call: server processes %s%s, this check's clients %s (all %.0f µs); our processes used %.2f of %d cores\n",
		c.label, c.n, c.wall.Round(time.Millisecond), c.rate(), us(servers), redisPart, us(c.cpu[0]), c.perCall(),
		busy.Seconds()/c.wall.Seconds(), runtime.NumCPU())
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// bench runs 32 connections round-robin over bases for d and returns
// the calls made; every call must succeed.
func bench(bases []string, key string, t target, d time.Duration) int {
	var n atomic.Int64
	var bad atomic.Value
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for c := 0; c < 32; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(end); i++ {
				r := call(bases[(c+i)%len(bases)], key, "acct-bench", (c+i)%2 == 0, t)
				if !r.ok() {
					bad.CompareAndSwap(nil, r.String())
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if b := bad.Load(); b != nil {
		fail("bench: want every call to succeed, got %v", b)
	}
	return int(n.Load())
}

// --- helpers

// cpuTimes returns the user+system CPU time each process has used so far
// (/proc/PID/stat, in clock ticks of 10 ms).
func cpuTimes(pids []int) []time.Duration {
	out := make([]time.Duration, len(pids))
	for i, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		check(err)
		// The fields after the command name, which is in parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
		utime, _ := strconv.Atoi(f[11])
		stime, _ := strconv.Atoi(f[12])
		out[i] = time.Duration(utime+stime) * 10 * time.Millisecond
	}
	return out
}

func waitFile(path string) {
	for deadline := time.Now().Add(20 * time.Second); ; {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			fail("no %s after 20 s\n%s", path, ingest.errOut)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func copyFile(from, to string) {
	b, err := os.ReadFile(from)
	check(err)
	check(os.WriteFile(to, b, 0o600))
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "scalecheck: "+format+"\n", args...)
	stopAll()
	if tempWork {
		os.RemoveAll(work)
	}
	os.Exit(1)
}
