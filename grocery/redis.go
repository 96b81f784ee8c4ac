package grocery

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisAccess keeps keys, accounts and quota counters in Redis, shared by
// every server pointed at it. Nothing about a key is cached: each request
// asks Redis, in one round trip (authScript), so a revocation holds on
// the next request everywhere.
//
// Layout, under the prefix "grocery:":
//
//	secret               the HMAC secret keys are hashed with (set once, by the first server)
//	key:<hash>           hash: id, account, created, revoked (Unix s, 0 while valid), last_used
//	keyid:<id>           the hash of key <id>, hex
//	keys                 set of key ids
//	acct:<name>          hash: plan, quota (override, 0 for the plan's), created
//	use:<name>:<yyyymm>  the account's calls in that month (UTC); expires a day after it
//
// A key is found by its keyed hash (HMAC-SHA256 with the secret), never by
// comparing secrets, so the time taken says nothing about a wrong key.
type redisAccess struct {
	s      *Service
	rdb    *redis.Client
	addr   string
	plans  []any // ARGV tail of authScript: name, quota, rest (1/0) per plan
	prefix string
	// The keyring of Redis's current key secret (watchSecret replaces
	// it), what builds it, and whether Redis has no secret now.
	ring       atomic.Pointer[keyring]
	secret     atomic.Pointer[string]
	prefixText string
	planList   []Plan
	secretGone atomic.Bool
	stop, done chan struct{}
	// authLogged: the log said once that Redis refuses the credentials.
	authLogged atomic.Bool
}

// redisPrefix starts every key the service keeps in Redis.
const redisPrefix = "grocery:"

// counterMargin is how long a month's counter outlives its month, so that
// a late reader of the ended month still finds it.
const counterMargin = 24 * time.Hour

// openRedis connects to the Redis at url, reads (or sets) the key secret
// and loads the scripts. It returns EINVALID for a malformed URL and
// EUNAVAILABLE when Redis does not answer.
func openRedis(url string, s *Service, plans []Plan, prefix string) (*redisAccess, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, Errorf(EINVALID, "Redis URL %q: %v: want redis://[user:password@]host:port/db", redactURL(url), err)
	}
	// A metered call must never run twice: no retries (a retried script
	// that had run would count a call twice). Short timeouts, so that a
	// Redis gone away fails calls quickly; the pool redials by itself.
	o.MaxRetries = -1
	o.DialerRetries = 1
	o.DialTimeout = time.Second
	o.ReadTimeout = time.Second
	o.WriteTimeout = time.Second
	o.PoolTimeout = 2 * time.Second
	ra := &redisAccess{s: s, rdb: redis.NewClient(o), addr: o.Addr, prefix: redisPrefix}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	candidate, err := randomBase62(keySecretLen)
	if err != nil {
		ra.rdb.Close()
		return nil, err
	}
	// SET NX GET: the first server sets the secret, every other reads it.
	secret, err := ra.rdb.SetArgs(ctx, ra.prefix+"secret", candidate, redis.SetArgs{Mode: "NX", Get: true}).Result()
	if errors.Is(err, redis.Nil) {
		secret, err = candidate, nil
	}
	if err == nil {
		err = errors.Join(authScript.Load(ctx, ra.rdb).Err(), createScript.Load(ctx, ra.rdb).Err(), revokeScript.Load(ctx, ra.rdb).Err())
	}
	if err != nil {
		ra.rdb.Close()
		if word, ok := authRefusal(err); ok {
			// The operator's configuration: said as it is, at start.
			return nil, Errorf(EINVALID, "Redis at %s refused the credentials of the Redis URL (%s): check the user and password in it (redis://user:password@host:port/db), or Redis's ACL", ra.addr, word)
		}
		return nil, ra.fail(err)
	}
	if policy, err := ra.rdb.ConfigGet(ctx, "maxmemory-policy").Result(); err == nil && strings.HasPrefix(policy["maxmemory-policy"], "allkeys-") {
		// CONFIG may be renamed away (a managed Redis): then unchecked.
		ra.rdb.Close()
		return nil, Errorf(EINVALID, "Redis at %s has maxmemory-policy %s: when full it evicts any key, and would silently drop API keys, accounts and the key secret; set maxmemory-policy noeviction (or a volatile-* policy)", ra.addr, policy["maxmemory-policy"])
	}
	ra.prefixText, ra.planList = prefix, plans
	ra.ring.Store(newKeyring(prefix, plans, []byte(secret)))
	ra.secret.Store(&secret)
	for _, p := range ra.curRing().plans {
		rest := 0
		if p.REST {
			rest = 1
		}
		ra.plans = append(ra.plans, p.Name, p.Quota, rest)
	}
	ra.stop, ra.done = make(chan struct{}), make(chan struct{})
	go ra.watchSecret(secretCheckEvery)
	return ra, nil
}

// redactURL drops a password from a Redis URL for an error message.
func redactURL(u string) string {
	if at := strings.LastIndex(u, "@"); at >= 0 {
		if i := strings.Index(u, "://"); i >= 0 && i < at {
			return u[:i+3] + "...@" + u[at+1:]
		}
	}
	return u
}

// fail maps an error of the Redis client to the service's: EUNAVAILABLE
// when Redis did not answer (or answered that it cannot serve now),
// EINTERNAL for any other error Redis replied.
func (ra *redisAccess) fail(err error) error { return ra.failAs("key store", err) }

// authRefusal reports whether err is Redis refusing the client's
// credentials (WRONGPASS, NOAUTH, NOPERM), and that reply's first word.
func authRefusal(err error) (string, bool) {
	msg := err.Error()
	for _, word := range []string{"WRONGPASS", "NOAUTH", "NOPERM"} {
		if strings.Contains(msg, word) {
			return word, true
		}
	}
	return "", false
}

// refused ends the message of an EUNAVAILABLE error of Redis.
const refused = ": the call is refused; try again shortly"

// failAs is fail for the store named what ("key store", "alert store").
func (ra *redisAccess) failAs(what string, err error) error {
	if word, ok := authRefusal(err); ok {
		// Credentials changed under a running server: the operator reads
		// the cause in the log (once), the client a refusal to retry.
		if ra.authLogged.CompareAndSwap(false, true) && ra.s != nil && ra.s.log != nil {
			ra.s.log.Error("Redis refuses this server's credentials: calls are refused until they are fixed", "redis", ra.addr, "reply", word)
		}
		return &Error{Code: EUNAVAILABLE, Message: fmt.Sprintf("the %s (Redis at %s) cannot serve now%s", what, ra.addr, refused)}
	}
	var rerr redis.Error
	if errors.As(err, &rerr) {
		msg := rerr.Error()
		for _, busy := range []string{"LOADING", "READONLY", "MASTERDOWN", "BUSY", "TRYAGAIN", "CLUSTERDOWN"} {
			if strings.HasPrefix(msg, busy) {
				return &Error{Code: EUNAVAILABLE, Message: fmt.Sprintf("the %s (Redis at %s) cannot serve now (%s)%s", what, ra.addr, busy, refused)}
			}
		}
		return fmt.Errorf("redis: %w", err)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &Error{Code: EUNAVAILABLE, Message: fmt.Sprintf("the %s (Redis at %s) does not answer%s", what, ra.addr, refused)}
}

// authScript checks a key and, when ARGV[1] is 1, charges one call to its
// account's counter for the month: the whole metered check in one round
// trip. Every call is counted, the refused ones too (as the data file's
// meter does: Usage.Used includes them), and the caller admits the call
// when used <= limit.
//
//	KEYS[1] key:<hash>
//	ARGV    charge (0/1), needs REST (0/1), window yyyymm, counter TTL s,
//	        now (Unix s), prefix, then name, quota, rest (0/1) per plan
//
// It returns {status, id, account, plan, limit, used}; status is ok,
// unknown, revoked or forbidden (the last three with what is known).
var authScript = redis.NewScript(`
local k = redis.call('HMGET', KEYS[1], 'id', 'account', 'revoked')
if not k[1] then return {'unknown'} end
if k[3] and k[3] ~= '0' then return {'revoked', k[1]} end
local acct = k[2]
local a = redis.call('HMGET', ARGV[6] .. 'acct:' .. acct, 'plan', 'quota')
if not a[1] then return {'unknown'} end
local limit, rest = tonumber(a[2] or '0') or 0, '0'
local planQuota = 0
for i = 7, #ARGV, 3 do
  if ARGV[i] == a[1] then planQuota, rest = tonumber(ARGV[i+1]), ARGV[i+2] end
end
if limit <= 0 then limit = planQuota end
if ARGV[2] == '1' and rest ~= '1' then return {'forbidden', k[1], acct, a[1]} end
local ukey = ARGV[6] .. 'use:' .. acct .. ':' .. ARGV[3]
local used
if ARGV[1] == '1' then
  used = redis.call('INCR', ukey)
  if used == 1 then redis.call('EXPIRE', ukey, ARGV[4]) end
  redis.call('HSET', KEYS[1], 'last_used', ARGV[5])
else
  used = tonumber(redis.call('GET', ukey) or '0')
end
return {'ok', k[1], acct, a[1], limit, used}
`)

// createScript stores a new key, creating or updating its account.
//
//	KEYS    acct:<name>, key:<hash>, keyid:<id>, keys
//	ARGV    name, plan ("" keeps it), quota (0 keeps it), now, id, hash
//
// It returns {plan, quota, created} of the account, or {'needplan'} for a
// new account without a plan and {'collision'} when the id is taken.
var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[3]) == 1 then return {'collision'} end
local cur = redis.call('HMGET', KEYS[1], 'plan', 'quota', 'created')
if not cur[1] and ARGV[2] == '' then return {'needplan'} end
if not cur[1] then redis.call('HSET', KEYS[1], 'created', ARGV[4], 'quota', '0') end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'plan', ARGV[2]) end
if ARGV[3] ~= '0' then redis.call('HSET', KEYS[1], 'quota', ARGV[3]) end
redis.call('HSET', KEYS[2], 'id', ARGV[5], 'account', ARGV[1], 'created', ARGV[4], 'revoked', '0', 'last_used', '0')
redis.call('SET', KEYS[3], ARGV[6])
redis.call('SADD', KEYS[4], ARGV[5])
return redis.call('HMGET', KEYS[1], 'plan', 'quota', 'created')
`)

// revokeScript revokes the key with id KEYS[1] (keyid:<id>); when ARGV[2]
// is not "" it must be the key's hash (the whole key was given).
//
//	ARGV    now, hash or "", prefix
//
// It returns {} when no key matches, else the key's id, account, created,
// last_used and revoked, and its account's plan.
var revokeScript = redis.NewScript(`
local h = redis.call('GET', KEYS[1])
if not h then return {} end
if ARGV[2] ~= '' and ARGV[2] ~= h then return {} end
local rk = ARGV[3] .. 'key:' .. h
local r = redis.call('HGET', rk, 'revoked')
if not r or r == '0' then redis.call('HSET', rk, 'revoked', ARGV[1]) end
local k = redis.call('HMGET', rk, 'id', 'account', 'created', 'last_used', 'revoked')
local plan = redis.call('HGET', ARGV[3] .. 'acct:' .. k[2], 'plan')
return {k[1], k[2], k[3], k[4], k[5], plan or ''}
`)

func (ra *redisAccess) close() error {
	if ra.stop != nil {
		close(ra.stop)
		<-ra.done
		ra.stop = nil
	}
	return ra.rdb.Close()
}

// curRing returns the keyring of the key secret Redis holds now.
func (ra *redisAccess) curRing() *keyring { return ra.ring.Load() }

// secretCheckEvery is how often a server reads Redis's key secret.
const secretCheckEvery = time.Second

// watchSecret reads Redis's key secret every interval. When it is gone
// (Redis restarted without persistence, or its keys evicted: every key
// and account went with it), the server fails closed: every key is
// refused as unavailable until a new secret appears (the first 'grocery
// keys create --redis', or a server's start, makes one), which it then
// follows, as every server does, so that all agree on which keys exist.
// Each change is logged once.
func (ra *redisAccess) watchSecret(interval time.Duration) {
	defer close(ra.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ra.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		secret, err := ra.rdb.Get(ctx, ra.prefix+"secret").Result()
		cancel()
		ra.secretSeen(secret, err)
	}
}

// secretSeen acts on one reading of Redis's key secret (err redis.Nil:
// there is none).
func (ra *redisAccess) secretSeen(secret string, err error) {
	switch {
	case errors.Is(err, redis.Nil):
		if ra.secretGone.CompareAndSwap(false, true) {
			ra.logf(slog.LevelError, "Redis lost its data: its key secret is gone (restarted without persistence, or its keys evicted), and with it every API key and account; refusing every key until a new secret appears ('grocery keys create --redis' makes one)")
		}
	case err != nil:
		// Unreachable: the calls fail closed by themselves.
	case secret != *ra.secret.Load():
		ra.ring.Store(newKeyring(ra.prefixText, ra.planList, []byte(secret)))
		ra.secret.Store(&secret)
		ra.secretGone.Store(false)
		ra.logf(slog.LevelWarn, "Redis's key secret changed (Redis lost its data and a new secret was made): following it; keys made before are gone")
	default:
		ra.secretGone.Store(false)
	}
}

func (ra *redisAccess) logf(level slog.Level, msg string) {
	if ra.s != nil && ra.s.log != nil {
		ra.s.log.Log(context.Background(), level, msg, "redis", ra.addr)
	}
}

// errSecretGone is the refusal of every key while Redis has no secret.
func (ra *redisAccess) errSecretGone() error {
	return &Error{Code: EUNAVAILABLE, Message: fmt.Sprintf("the key store (Redis at %s) cannot serve now%s", ra.addr, refused)}
}

func (ra *redisAccess) authenticate(ctx context.Context, key string, iface Interface, charge bool) (*Principal, error) {
	if ra.secretGone.Load() {
		return nil, ra.errSecretGone()
	}
	if _, ok := ra.curRing().parse(key); !ok {
		return nil, errBadKey
	}
	sum := ra.curRing().mac(key)
	p := &Principal{keyHash: hex.EncodeToString(sum[:])}
	now := ra.s.now()
	u, err := ra.run(ctx, p, iface, charge, now)
	if err != nil && (!charge || ErrorCode(err) != EQUOTA) {
		return nil, err
	}
	if charge {
		p.charged = &charged{usage: u, err: err}
	}
	return p, nil
}

func (ra *redisAccess) consume(ctx context.Context, p *Principal) (Usage, error) {
	if p == nil || p.keyHash == "" {
		return Usage{}, Errorf(EUNAUTHENTICATED, "no authenticated caller: call Authenticate first")
	}
	return ra.run(ctx, p, InterfaceMCP, true, ra.s.now())
}

// run runs authScript for p's key and fills p from its answer. It returns
// the usage after the call, and EQUOTA beside it when the call is over
// the quota.
func (ra *redisAccess) run(ctx context.Context, p *Principal, iface Interface, charge bool, now time.Time) (Usage, error) {
	reset := resetOf(now)
	ttl := int64((reset.Sub(now) + counterMargin + time.Second - 1) / time.Second)
	args := make([]any, 0, 6+len(ra.plans))
	args = append(args, b01(charge), b01(iface == InterfaceREST), monthOf(now), ttl, now.Unix(), ra.prefix)
	args = append(args, ra.plans...)
	res, err := authScript.Run(ctx, ra.rdb, []string{ra.prefix + "key:" + p.keyHash}, args...).Slice()
	if err != nil {
		return Usage{}, ra.fail(err)
	}
	str := func(i int) string {
		if i < len(res) {
			s, _ := res[i].(string)
			return s
		}
		return ""
	}
	switch str(0) {
	case "ok":
	case "revoked":
		return Usage{}, Errorf(EUNAUTHENTICATED, "API key %s was revoked: ask for a new one", str(1))
	case "forbidden":
		return Usage{}, Errorf(EFORBIDDEN, "the %s plan does not include the REST interface: it needs the integration plan", str(3))
	default:
		return Usage{}, Errorf(EUNAUTHENTICATED, "API key is not known: check it, or ask for a new one")
	}
	limit, _ := res[4].(int64)
	used, _ := res[5].(int64)
	plan, _ := ra.curRing().plan(str(3))
	p.KeyID, p.Account, p.Plan = str(1), str(2), plan
	u := Usage{Account: p.Account, Plan: plan.Name, Limit: limit, Used: used, Remaining: max(limit-used, 0), Reset: reset}
	if charge && used > limit {
		u.RetryAfter = reset.Sub(now)
		return u, Errorf(EQUOTA, "the monthly quota of %d calls is spent; it resets at %s: wait until then, retrying does not restore it", limit, reset.Format(time.RFC3339))
	}
	return u, nil
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (ra *redisAccess) usageOf(ctx context.Context, name string) (Usage, error) {
	now := ra.s.now()
	var acct *redis.SliceCmd
	var used *redis.StringCmd
	_, err := ra.rdb.Pipelined(ctx, func(pl redis.Pipeliner) error {
		acct = pl.HMGet(ctx, ra.prefix+"acct:"+name, "plan", "quota")
		used = pl.Get(ctx, ra.prefix+"use:"+name+":"+strconv.Itoa(int(monthOf(now))))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return Usage{}, ra.fail(err)
	}
	a := acct.Val()
	planName, _ := a[0].(string)
	if planName == "" {
		return Usage{}, Errorf(ENOTFOUND, "no account %q", name)
	}
	quotaText, _ := a[1].(string)
	n, _ := used.Int64()
	plan, _ := ra.curRing().plan(planName)
	limit, _ := strconv.ParseInt(quotaText, 10, 64)
	if limit <= 0 {
		limit = plan.Quota
	}
	return Usage{Account: name, Plan: plan.Name, Limit: limit, Used: n, Remaining: max(limit-n, 0), Reset: resetOf(now)}, nil
}

func (ra *redisAccess) accountExists(ctx context.Context, name string) (bool, error) {
	n, err := ra.rdb.Exists(ctx, ra.prefix+"acct:"+name).Result()
	if err != nil {
		return false, ra.fail(err)
	}
	return n == 1, nil
}

func (ra *redisAccess) createKey(ctx context.Context, in KeyInput) (*NewKey, error) {
	r := ra.curRing()
	name := strings.TrimSpace(in.Account)
	if err := checkAccountName(name); err != nil {
		return nil, err
	}
	if in.Quota < 0 {
		return nil, Errorf(EINVALID, "quota %d is negative: want a number of calls a month, or 0 for the plan's", in.Quota)
	}
	planName := ""
	if in.Plan != "" {
		p, ok := r.plan(strings.ToLower(strings.TrimSpace(in.Plan)))
		if !ok {
			return nil, Errorf(EINVALID, "plan %q is unknown: want one of %s", in.Plan, r.planNames())
		}
		planName = p.Name
	}
	id, text, sum, err := r.newKeyText()
	if err != nil {
		return nil, err
	}
	h := hex.EncodeToString(sum[:])
	now := ra.s.now().UTC().Truncate(time.Second)
	keys := []string{ra.prefix + "acct:" + name, ra.prefix + "key:" + h, ra.prefix + "keyid:" + id, ra.prefix + "keys"}
	res, err := createScript.Run(ctx, ra.rdb, keys, name, planName, in.Quota, now.Unix(), id, h).Slice()
	if err != nil {
		return nil, ra.fail(err)
	}
	if len(res) == 1 {
		if res[0] == "needplan" {
			return nil, Errorf(EINVALID, "account %q is new: a plan is required, one of %s", name, r.planNames())
		}
		return nil, Errorf(EINTERNAL, "key id collision; try again")
	}
	gotPlan, _ := res[0].(string)
	quotaText, _ := res[1].(string)
	plan, _ := r.plan(gotPlan)
	limit, _ := strconv.ParseInt(quotaText, 10, 64)
	if limit <= 0 {
		limit = plan.Quota
	}
	return &NewKey{Key: text, ID: id, Account: name, Plan: gotPlan, Limit: limit, Created: now}, nil
}

func (ra *redisAccess) revokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error) {
	r := ra.curRing()
	id := strings.TrimSpace(keyOrID)
	h := ""
	if kid, ok := r.parse(id); ok {
		sum := r.mac(id)
		id, h = kid, hex.EncodeToString(sum[:])
	} else if listed, ok := strings.CutPrefix(id, r.prefix+keyMarker); ok && len(listed) == keyIDLen {
		id = listed
	}
	res, err := revokeScript.Run(ctx, ra.rdb, []string{ra.prefix + "keyid:" + id}, ra.s.now().Unix(), h, ra.prefix).StringSlice()
	if err != nil {
		return nil, ra.fail(err)
	}
	if len(res) < 6 {
		return nil, Errorf(ENOTFOUND, "no key matches %q: give a key id from 'keys list' or the whole key", redact(keyOrID, r.prefix))
	}
	info := ra.info(res[0], res[1], res[2], res[3], res[4], res[5])
	return &info, nil
}

// info describes a key from its stored fields.
func (ra *redisAccess) info(id, account, created, lastUsed, revoked, plan string) KeyInfo {
	unix := func(s string) *time.Time {
		n, _ := strconv.ParseInt(s, 10, 64)
		if n == 0 {
			return nil
		}
		t := time.Unix(n, 0).UTC()
		return &t
	}
	k := KeyInfo{ID: id, Prefix: ra.curRing().prefix + keyMarker + id, Account: account, Plan: plan, LastUsed: unix(lastUsed), Revoked: unix(revoked)}
	if c := unix(created); c != nil {
		k.Created = *c
	}
	return k
}

func (ra *redisAccess) listKeys(ctx context.Context) ([]KeyInfo, error) {
	ids, err := ra.rdb.SMembers(ctx, ra.prefix+"keys").Result()
	if err != nil {
		return nil, ra.fail(err)
	}
	hashes := make([]*redis.StringCmd, len(ids))
	if _, err := ra.rdb.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, id := range ids {
			hashes[i] = pl.Get(ctx, ra.prefix+"keyid:"+id)
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, ra.fail(err)
	}
	recs := make([]*redis.SliceCmd, len(ids))
	if _, err := ra.rdb.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i := range ids {
			recs[i] = pl.HMGet(ctx, ra.prefix+"key:"+hashes[i].Val(), "id", "account", "created", "last_used", "revoked")
		}
		return nil
	}); err != nil {
		return nil, ra.fail(err)
	}
	plans := map[string]string{}
	out := make([]KeyInfo, 0, len(ids))
	for _, c := range recs {
		v := make([]string, 5)
		for i, x := range c.Val() {
			v[i], _ = x.(string)
		}
		if v[0] == "" {
			continue
		}
		plan, seen := plans[v[1]]
		if !seen {
			plan, err = ra.rdb.HGet(ctx, ra.prefix+"acct:"+v[1], "plan").Result()
			if err != nil && !errors.Is(err, redis.Nil) {
				return nil, ra.fail(err)
			}
			plans[v[1]] = plan
		}
		out = append(out, ra.info(v[0], v[1], v[2], v[3], v[4], plan))
	}
	slices.SortFunc(out, byAccountCreated)
	return out, nil
}
