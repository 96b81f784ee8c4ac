package accessredis

import (
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/internal/access"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/redisconn"
	"github.com/redis/go-redis/v9"
)

// Redis keeps keys, accounts and quota counters in Redis, shared by every
// server pointed at it. Nothing about a key is cached: each request asks
// Redis, in one round trip (authScript), so a revocation holds on the next
// request everywhere.
//
// Layout, under the connection's prefix ("grocery:" by default):
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
type Redis struct {
	conn   *redisconn.Conn
	rdb    *redis.Client
	addr   string
	now    func() time.Time
	log    *slog.Logger
	plans  []any // ARGV tail of authScript: name, quota, rest (1/0) per plan
	prefix string
	// The access.Keyring of Redis's current key secret (watchSecret replaces
	// it), what builds it, and whether Redis has no secret now.
	ring       atomic.Pointer[access.Keyring]
	secret     atomic.Pointer[string]
	prefixText string
	planList   []access.Plan
	secretGone atomic.Bool
	stop, done chan struct{}
}

// dayCounterTTL is how long a day's counter is kept, in seconds (32
// days): longer than the 30 days GET /usage shows.
const dayCounterTTL = "2764800"

// counterMargin is how long a month's counter outlives its month, so that
// a late reader of the ended month still finds it.
const counterMargin = 24 * time.Hour

// OpenRedis reads (or sets) the key secret in the Redis of conn and loads
// the scripts; the store closes conn when it closes. It returns a
// fault.Invalid when Redis refuses the credentials or evicts any key when
// full, and a fault.Unavailable when it does not answer.
func OpenRedis(conn *redisconn.Conn, c access.Config) (*Redis, error) {
	ra := &Redis{conn: conn, rdb: conn.Client, addr: conn.Addr, now: c.Now, log: c.Log, prefix: conn.Prefix}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	candidate, err := access.RandomBase62(access.KeySecretLen)
	if err != nil {
		conn.Close()
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
		conn.Close()
		return nil, conn.StartFailure("key store", err)
	}
	if err := conn.CheckPolicy(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	ra.prefixText, ra.planList = c.KeyPrefix, c.Plans
	ra.ring.Store(access.NewKeyring(c.KeyPrefix, c.Plans, []byte(secret)))
	ra.secret.Store(&secret)
	for _, p := range ra.curRing().Plans() {
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

// fail maps an error of the Redis client to a fault of the key store.
func (ra *Redis) fail(err error) error { return ra.conn.Fail("key store", err) }

// authScript checks a key and, when ARGV[1] is 1, charges one call to its
// account's counter for the month: the whole metered check in one round
// trip. Every call is counted, the refused ones too (as the data file's
// meter does: access.Usage.Used includes them), and the caller admits the call
// when used <= limit.
//
//	KEYS[1] key:<hash>
//	ARGV    charge (0/1), needs REST (0/1), window yyyymm, counter TTL s,
//	        now (Unix s), prefix, day yyyymmdd, then name, quota, rest
//	        (0/1) per plan
//
// A charge counts the call in the day's counter too (use:<account>:<day>,
// kept dayCounterTTL), which GET /usage reads.
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
for i = 8, #ARGV, 3 do
  if ARGV[i] == a[1] then planQuota, rest = tonumber(ARGV[i+1]), ARGV[i+2] end
end
if limit <= 0 then limit = planQuota end
if ARGV[2] == '1' and rest ~= '1' then return {'forbidden', k[1], acct, a[1]} end
local ukey = ARGV[6] .. 'use:' .. acct .. ':' .. ARGV[3]
local used
if ARGV[1] == '1' then
  used = redis.call('INCR', ukey)
  if used == 1 then redis.call('EXPIRE', ukey, ARGV[4]) end
  local dkey = ARGV[6] .. 'use:' .. acct .. ':' .. ARGV[7]
  if redis.call('INCR', dkey) == 1 then redis.call('EXPIRE', dkey, ` + dayCounterTTL + `) end
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

// Close stops watching the key secret and closes the connection.
func (ra *Redis) Close() error {
	if ra.stop != nil {
		close(ra.stop)
		<-ra.done
		ra.stop = nil
	}
	return ra.conn.Close()
}

// Plans returns the plans keys can be created on.
func (ra *Redis) Plans() []access.Plan { return slices.Clone(ra.curRing().Plans()) }

var _ access.Store = (*Redis)(nil)

// curRing returns the access.Keyring of the key secret Redis holds now.
func (ra *Redis) curRing() *access.Keyring { return ra.ring.Load() }

// secretCheckEvery is how often a server reads Redis's key secret.
const secretCheckEvery = time.Second

// watchSecret reads Redis's key secret every interval. When it is gone
// (Redis restarted without persistence, or its keys evicted: every key
// and account went with it), the server fails closed: every key is
// refused as unavailable until a new secret appears (the first 'grocery
// keys create --redis', or a server's start, makes one), which it then
// follows, as every server does, so that all agree on which keys exist.
// Each change is logged once.
func (ra *Redis) watchSecret(interval time.Duration) {
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
func (ra *Redis) secretSeen(secret string, err error) {
	switch {
	case errors.Is(err, redis.Nil):
		if ra.secretGone.CompareAndSwap(false, true) {
			ra.logf(slog.LevelError, "Redis lost its data: its key secret is gone (restarted without persistence, or its keys evicted), and with it every API key and account; refusing every key until a new secret appears ('grocery keys create --redis' makes one)")
		}
	case err != nil:
		// Unreachable: the calls fail closed by themselves.
	case secret != *ra.secret.Load():
		ra.ring.Store(access.NewKeyring(ra.prefixText, ra.planList, []byte(secret)))
		ra.secret.Store(&secret)
		ra.secretGone.Store(false)
		ra.logf(slog.LevelWarn, "Redis's key secret changed (Redis lost its data and a new secret was made): following it; keys made before are gone")
	default:
		ra.secretGone.Store(false)
	}
}

func (ra *Redis) logf(level slog.Level, msg string) {
	if ra.log != nil {
		ra.log.Log(context.Background(), level, msg, "redis", ra.addr)
	}
}

// errSecretGone is the refusal of every key while Redis has no secret.
func (ra *Redis) errSecretGone() error { return ra.conn.CannotServe("key store") }

// Authenticate checks a key in Redis and, when call.Charge is set, charges the
// call in the same round trip: the next Consume of the principal returns
// that charge.
func (ra *Redis) Authenticate(ctx context.Context, key string, call access.Call) (*access.Principal, error) {
	if ra.secretGone.Load() {
		return nil, ra.errSecretGone()
	}
	if _, ok := ra.curRing().Parse(key); !ok {
		return nil, access.ErrBadKey
	}
	sum := ra.curRing().MAC(key)
	p := &access.Principal{KeyHash: hex.EncodeToString(sum[:])}
	now := ra.now()
	u, err := ra.run(ctx, p, call, now)
	if kind, _ := fault.KindOf(err); err != nil && (!call.Charge || kind != fault.Quota) {
		return nil, err
	}
	if call.Charge {
		p.SetCharged(u, err)
	}
	return p, nil
}

// Consume charges one call to the principal's account and returns its
// quota after the call, with a fault.Quota beside it when the call is over
// the quota.
func (ra *Redis) Consume(ctx context.Context, p *access.Principal) (access.Usage, error) {
	if u, err, ok := p.TakeCharged(); ok {
		return u, err
	}
	if p == nil || p.KeyHash == "" {
		return access.Usage{}, fault.New(fault.Unauthenticated, "no authenticated caller: call Authenticate first")
	}
	return ra.run(ctx, p, access.Call{Charge: true}, ra.now())
}

// run runs authScript for p's key and fills p from its answer. It returns
// the usage after the call, and a fault.Quota beside it when the call is over
// the quota.
func (ra *Redis) run(ctx context.Context, p *access.Principal, call access.Call, now time.Time) (access.Usage, error) {
	reset := access.ResetOf(now)
	ttl := int64((reset.Sub(now) + counterMargin + time.Second - 1) / time.Second)
	args := make([]any, 0, 7+len(ra.plans))
	args = append(args, b01(call.Charge), b01(call.REST), access.MonthOf(now), ttl, now.Unix(), ra.prefix, access.DayOf(now))
	args = append(args, ra.plans...)
	res, err := authScript.Run(ctx, ra.rdb, []string{ra.prefix + "key:" + p.KeyHash}, args...).Slice()
	if err != nil {
		return access.Usage{}, ra.fail(err)
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
		return access.Usage{}, fault.New(fault.Unauthenticated, "API key %s was revoked: ask for a new one", str(1))
	case "forbidden":
		return access.Usage{}, fault.New(fault.Forbidden, "the %s plan does not include the REST interface: it needs the integration plan", str(3))
	default:
		return access.Usage{}, fault.New(fault.Unauthenticated, "API key is not known: check it, or ask for a new one")
	}
	limit, _ := res[4].(int64)
	used, _ := res[5].(int64)
	plan, _ := ra.curRing().Plan(str(3))
	p.KeyID, p.Account, p.Plan = str(1), str(2), plan
	u := access.Usage{Account: p.Account, Plan: plan.Name, Limit: limit, Used: used, Remaining: max(limit-used, 0), Reset: reset}
	if call.Charge && used > limit {
		u.RetryAfter = reset.Sub(now)
		return u, fault.New(fault.Quota, "the monthly quota of %d calls is spent; it resets at %s: wait until then, retrying does not restore it", limit, reset.Format(time.RFC3339))
	}
	return u, nil
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// UsageOf returns an account's quota in the current window without
// charging a call.
func (ra *Redis) UsageOf(ctx context.Context, name string) (access.Usage, error) {
	now := ra.now()
	var acct *redis.SliceCmd
	var used *redis.StringCmd
	_, err := ra.rdb.Pipelined(ctx, func(pl redis.Pipeliner) error {
		acct = pl.HMGet(ctx, ra.prefix+"acct:"+name, "plan", "quota")
		used = pl.Get(ctx, ra.prefix+"use:"+name+":"+strconv.Itoa(int(access.MonthOf(now))))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return access.Usage{}, ra.fail(err)
	}
	a := acct.Val()
	planName, _ := a[0].(string)
	if planName == "" {
		return access.Usage{}, fault.New(fault.NotFound, "no account %q", name)
	}
	quotaText, _ := a[1].(string)
	n, _ := used.Int64()
	plan, _ := ra.curRing().Plan(planName)
	limit, _ := strconv.ParseInt(quotaText, 10, 64)
	if limit <= 0 {
		limit = plan.Quota
	}
	return access.Usage{Account: name, Plan: plan.Name, Limit: limit, Used: n, Remaining: max(limit-n, 0), Reset: access.ResetOf(now)}, nil
}

// UsageDays returns an account's calls on each of the n days up to today
// (UTC), oldest first, from its day counters.
func (ra *Redis) UsageDays(ctx context.Context, name string, n int) ([]access.DayUsage, error) {
	if ok, err := ra.AccountExists(ctx, name); err != nil {
		return nil, err
	} else if !ok {
		return nil, fault.New(fault.NotFound, "no account %q", name)
	}
	days, ids := access.LastDays(ra.now(), n)
	if n == 0 {
		return days, nil
	}
	keys := make([]string, n)
	for i, id := range ids {
		keys[i] = ra.prefix + "use:" + name + ":" + strconv.Itoa(int(id))
	}
	vals, err := ra.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, ra.fail(err)
	}
	for i, v := range vals {
		if s, ok := v.(string); ok {
			days[i].Calls, _ = strconv.ParseInt(s, 10, 64)
		}
	}
	return days, nil
}

// AccountExists reports whether Redis holds the account.
func (ra *Redis) AccountExists(ctx context.Context, name string) (bool, error) {
	n, err := ra.rdb.Exists(ctx, ra.prefix+"acct:"+name).Result()
	if err != nil {
		return false, ra.fail(err)
	}
	return n == 1, nil
}

// CreateKey creates a key in Redis, creating its account when it is new.
func (ra *Redis) CreateKey(ctx context.Context, in access.KeyInput) (*access.NewKey, error) {
	r := ra.curRing()
	name := strings.TrimSpace(in.Account)
	if err := access.CheckAccountName(name); err != nil {
		return nil, err
	}
	if in.Quota < 0 {
		return nil, fault.New(fault.Invalid, "quota %d is negative: want a number of calls a month, or 0 for the plan's", in.Quota)
	}
	planName := ""
	if in.Plan != "" {
		p, ok := r.Plan(strings.ToLower(strings.TrimSpace(in.Plan)))
		if !ok {
			return nil, fault.New(fault.Invalid, "plan %q is unknown: want one of %s", in.Plan, r.PlanNames())
		}
		planName = p.Name
	}
	id, text, sum, err := r.NewKeyText()
	if err != nil {
		return nil, err
	}
	h := hex.EncodeToString(sum[:])
	now := ra.now().UTC().Truncate(time.Second)
	keys := []string{ra.prefix + "acct:" + name, ra.prefix + "key:" + h, ra.prefix + "keyid:" + id, ra.prefix + "keys"}
	res, err := createScript.Run(ctx, ra.rdb, keys, name, planName, in.Quota, now.Unix(), id, h).Slice()
	if err != nil {
		return nil, ra.fail(err)
	}
	if len(res) == 1 {
		if res[0] == "needplan" {
			return nil, fault.New(fault.Invalid, "account %q is new: a plan is required, one of %s", name, r.PlanNames())
		}
		return nil, fault.New(fault.Internal, "key id collision; try again")
	}
	gotPlan, _ := res[0].(string)
	quotaText, _ := res[1].(string)
	plan, _ := r.Plan(gotPlan)
	limit, _ := strconv.ParseInt(quotaText, 10, 64)
	if limit <= 0 {
		limit = plan.Quota
	}
	return &access.NewKey{Key: text, ID: id, Account: name, Plan: gotPlan, Limit: limit, Created: now}, nil
}

// RevokeKey revokes a key in Redis.
func (ra *Redis) RevokeKey(ctx context.Context, keyOrID string) (*access.KeyInfo, error) {
	r := ra.curRing()
	id := strings.TrimSpace(keyOrID)
	h := ""
	if kid, ok := r.Parse(id); ok {
		sum := r.MAC(id)
		id, h = kid, hex.EncodeToString(sum[:])
	} else if listed, ok := strings.CutPrefix(id, r.Prefix()+access.KeyMarker); ok && len(listed) == access.KeyIDLen {
		id = listed
	}
	res, err := revokeScript.Run(ctx, ra.rdb, []string{ra.prefix + "keyid:" + id}, ra.now().Unix(), h, ra.prefix).StringSlice()
	if err != nil {
		return nil, ra.fail(err)
	}
	if len(res) < 6 {
		return nil, fault.New(fault.NotFound, "no key matches %q: give a key id from 'keys list' or the whole key", access.Redact(keyOrID, r.Prefix()))
	}
	info := ra.info(res[0], res[1], res[2], res[3], res[4], res[5])
	return &info, nil
}

// info describes a key from its stored fields.
func (ra *Redis) info(id, account, created, lastUsed, revoked, plan string) access.KeyInfo {
	unix := func(s string) *time.Time {
		n, _ := strconv.ParseInt(s, 10, 64)
		if n == 0 {
			return nil
		}
		t := time.Unix(n, 0).UTC()
		return &t
	}
	k := access.KeyInfo{ID: id, Prefix: ra.curRing().Prefix() + access.KeyMarker + id, Account: account, Plan: plan, LastUsed: unix(lastUsed), Revoked: unix(revoked)}
	if c := unix(created); c != nil {
		k.Created = *c
	}
	return k
}

// ListKeys returns every key in Redis, by account and creation time.
func (ra *Redis) ListKeys(ctx context.Context) ([]access.KeyInfo, error) {
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
	out := make([]access.KeyInfo, 0, len(ids))
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
	slices.SortFunc(out, access.ByAccountCreated)
	return out, nil
}
