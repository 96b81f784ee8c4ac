package alertredis

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// Redis keeps alert rules and events in the Redis of the key store,
// shared by every server pointed at it: a rule created through one server
// is listed, evaluated and deleted through any other, and the node that
// imports records the events there after its import commits.
//
// Layout, under the connection's prefix ("grocery:" by default), beside
// the key store's keys:
//
//	alerts:seq:rule                       INCR: the last rule id given, unique across servers
//	alerts:seq:event                      INCR: the last event id given; ids grow as events are recorded
//	alerts:accounts                       set of the accounts that hold at least one rule
//	alerts:rules:<account>                hash: rule id -> rule (JSON); HLEN is the count the limit checks
//	alerts:watch:<prov>:g:<gtin14>        hash: rule id -> rule (JSON), the active rules on a barcode in a province
//	alerts:watch:<prov>:s:<banner>:<sku>  hash: rule id -> rule (JSON), the active rules on a banner SKU in a province
//	alerts:fired:<account>:<rule id>      hash: observation day (days since 1970) -> event id: one event per rule and day
//	alerts:events:<account>               sorted set of event ids, scored by id: newest first with ZREVRANGE
//	alerts:event:<account>                hash: event id -> event (JSON)
//	alerts:format                         the layout's version, Format (OpenRedis)
//	alerts:idkey                          the secret rule and event ids are shown under (alertstore.IDs), set by the first server to need it (IDKey)
//	alerts:copied                         set: fingerprints of the data files' rules and events copied here (CopyFile)
//	alerts:hooks:...                      webhook endpoints and their outboxes (see hooks_redis.go)
//
// The JSON of a rule or event is json.Marshal of storage.AlertRule or
// storage.AlertEvent. A field may be added to them (omitted when zero)
// when its zero value means what a record without it meant and a server
// that ignores it acts on nothing it would misread: a rule's Paused (a
// paused rule is off its watch hash, so no server evaluates it) and an
// event's Reason. Any other change to it or to this layout must raise
// Format: a server finding another version refuses to open
// (fault.Invalid) rather than misread what is there. The first server sets it.
//
// The scripts touch keys they do not declare in KEYS (recordScript builds
// every name from its prefix, the others touch several keys of one
// account that would hash to different slots): this layout is for a
// standalone Redis 7 (or one with replicas), not Redis Cluster.
//
// A rule changes only through UpdateRule, whose script writes the rule and
// its copy in the watch hash together (or drops the copy, for a paused
// rule), so the copy never goes stale; what a rule watches never changes. Events are kept without a cap, as in the data
// file; deleting a rule keeps its events and drops its fired hash.
//
// What is atomic: creating a rule (count, id, rule and watch entry: one
// script, so servers creating at once never exceed alertstore.MaxRules),
// deleting one (rule, watch entry, fired hash: one script), and recording
// each event (the rule still exists and is not paused, no event for its day yet, then the
// id, the fired mark and the event: inside one script of up to
// recordChunk events). What is not: an evaluation as a whole. It reads
// the data file's committed data and the rules, then records its events
// in chunks: if Redis goes away midway, the chunks recorded stay and the
// rest are recorded by the next evaluation of those days (another import
// of the series, or EvaluateAlerts), the fired hashes keeping it from
// recording any twice.
type Redis struct{ c *redisconn.Conn }

// New returns the alert store in the Redis of c, without checking the
// layout's version (OpenRedis does).
func New(c *redisconn.Conn) Redis { return Redis{c} }

// recordChunk is the number of events one recordScript call records; the
// number of series one pipeline of watch lookups reads.
const (
	recordChunk = 256
	watchChunk  = 512
	eventsChunk = 500
)

// Format is the version of the alert layout in Redis; see Redis.
// Format 2 added the webhook keys (alerts:hooks:...) and recordScript's
// push of each event on the fanout list; a Redis of format 1 (no
// webhooks yet) is raised to 2 at open, and a server of format 1 then
// refuses it, rather than record events no endpoint would get.
const Format = "2"

// OpenRedis returns the alert store in the Redis of c after checking (or,
// on a Redis without it, setting) the layout's version. It returns a
// fault.Invalid when Redis holds another version and a fault.Unavailable
// when it does not answer.
func OpenRedis(ctx context.Context, c *redisconn.Conn) (Redis, error) {
	a := Redis{c}
	v, err := c.Client.SetArgs(ctx, a.key("format"), Format, redis.SetArgs{Mode: "NX", Get: true}).Result()
	switch {
	case errors.Is(err, redis.Nil): // set now
	case err != nil:
		return a, a.fail(err)
	case v == "1":
		if err := c.Client.Set(ctx, a.key("format"), Format, 0).Err(); err != nil {
			return a, a.fail(err)
		}
	case v != Format:
		return a, fault.New(fault.Invalid, "the alert rules and events in Redis at %s are in format %q (key %s), this server reads format %s: use a server of their version, or another Redis database",
			c.Addr, v, a.key("format"), Format)
	}
	return a, nil
}

// IDKey returns the secret Redis's alert ids are shown under, setting it
// when Redis has none (its first use, or Redis lost its data: every
// server then reads the one set first, never a copy of its own).
func (a Redis) IDKey(ctx context.Context) ([]byte, error) {
	candidate := make([]byte, 32)
	if _, err := rand.Read(candidate); err != nil {
		return nil, err
	}
	key, err := a.c.Client.SetArgs(ctx, a.key("idkey"), candidate, redis.SetArgs{Mode: "NX", Get: true}).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return candidate, nil
	case err != nil:
		return nil, a.fail(err)
	case len(key) != 32:
		return nil, fault.New(fault.Invalid, "the alert id secret in Redis at %s (key %s) is %d bytes, not 32: another program wrote it", a.c.Addr, a.key("idkey"), len(key))
	}
	return []byte(key), nil
}

// Local reports false: rules and events live in Redis.
func (Redis) Local() bool { return false }

// MayHaveRules reports true: whether Redis holds a rule is a round trip
// (HasRules), not for a write transaction to wait on.
func (Redis) MayHaveRules(*storage.Tx) bool { return true }

// fail maps an error of the Redis client to a fault of the alert store.
func (a Redis) fail(err error) error { return a.c.Fail("alert store", err) }

func (a Redis) key(parts ...string) string {
	k := a.c.Prefix + "alerts"
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

// watchKey names the hash of the rules watching what r watches.
func (a Redis) watchKey(province, gtin, banner, sku string) string {
	if gtin != "" {
		return a.key("watch", province, "g", gtin)
	}
	return a.key("watch", province, "s", banner, sku) // a banner is a slug: no ':' in it
}

// createRuleScript stores a rule unless its account holds ARGV[2] rules,
// and records it in an idempotency key's claim when given one.
//
//	KEYS  alerts:rules:<account>, the rule's watch hash, alerts:accounts, alerts:seq:rule[, the claim's record]
//	ARGV  account, the most rules an account may hold, the rule (JSON)[, the claim's hash, created]
//
// It returns {'ok', id}, {'limit', count} or {'claim', 0} (the claim is
// not held: nothing written).
var createRuleScript = redis.NewScript(claimLua + `
local claim = KEYS[5] or false
if not claimHeld(claim, ARGV[4], ARGV[5]) then return {'claim', 0} end
local n = redis.call('HLEN', KEYS[1])
if n >= tonumber(ARGV[2]) then return {'limit', n} end
local id = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], id, ARGV[3])
redis.call('HSET', KEYS[2], id, ARGV[3])
redis.call('SADD', KEYS[3], ARGV[1])
claimObject(claim, 'alert:' .. id)
return {'ok', id}
`)

// updateRuleScript replaces a rule, and its copy in its watch hash (or
// drops the copy, for a paused rule), when it is still as read.
//
//	KEYS  alerts:rules:<account>, the rule's watch hash
//	ARGV  id, the rule (JSON) as read, the changed rule (JSON), 1 when it is active
//
// It returns 1 when it wrote, 0 when the rule is gone, -1 when it changed
// since it was read.
var updateRuleScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
if cur ~= ARGV[2] then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] == '1' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) else redis.call('HDEL', KEYS[2], ARGV[1]) end
return 1
`)

// deleteRuleScript deletes a rule, its watch entry and its fired hash.
//
//	KEYS  alerts:rules:<account>, the rule's watch hash, alerts:fired:<account>:<id>, alerts:accounts
//	ARGV  account, id
//
// It returns 1 when the rule existed, else 0.
var deleteRuleScript = redis.NewScript(`
if redis.call('HDEL', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[3])
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[1]) end
return 1
`)

// recordScript records events, each unless its rule was deleted, is paused or fired
// on its day already, and puts each on the webhook fanout list when its
// account has an endpoint (see FanOut).
//
//	ARGV  prefix ("grocery:alerts:"), then account, rule id, day, event (JSON) per event
//
// It returns the number recorded.
var recordScript = redis.NewScript(`
local p = ARGV[1]
local n = 0
for i = 2, #ARGV, 4 do
  local acct, rule, day = ARGV[i], ARGV[i+1], ARGV[i+2]
  local body = redis.call('HGET', p .. 'rules:' .. acct, rule)
  if body and not cjson.decode(body)['Paused'] then
    local fired = p .. 'fired:' .. acct .. ':' .. rule
    if redis.call('HSETNX', fired, day, 0) == 1 then
      local id = redis.call('INCR', p .. 'seq:event')
      redis.call('HSET', fired, day, id)
      redis.call('HSET', p .. 'event:' .. acct, id, ARGV[i+3])
      redis.call('ZADD', p .. 'events:' .. acct, id, id)
      if redis.call('EXISTS', p .. 'hooks:endpoints:' .. acct) == 1 then
        redis.call('RPUSH', p .. 'hooks:fanout', id .. ':' .. acct)
      end
      n = n + 1
    end
  end
end
return n
`)

// eventsScript returns a page of an account's events, newest first: id,
// event (JSON), id, event, ...
//
//	KEYS  alerts:events:<account>, alerts:event:<account>
//	ARGV  the highest score (id) to return, "+inf" or "(<id>" for below
//	      the last id of the previous page; the page's length
//
// Pages go by score, not rank: an import recording events between two
// pages of one listing adds higher ids, which shift every rank but leave
// the ids below the previous page where they were, so no event is listed
// twice or skipped.
var eventsScript = redis.NewScript(`
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'LIMIT', 0, tonumber(ARGV[2]))
if #ids == 0 then return {} end
local bodies = redis.call('HMGET', KEYS[2], unpack(ids))
local out = {}
for i, id in ipairs(ids) do
  out[2*i-1] = id
  out[2*i] = bodies[i] or ''
end
return out
`)

// CreateRule gives r a new id and stores it, unless its account holds
// alertstore.MaxRules rules, in one script; with claim, recording it there in the
// same script.
func (a Redis) CreateRule(ctx context.Context, r *storage.AlertRule, claim *storage.IdempotencyRecord) error {
	body, err := json.Marshal(r) // ID 0: the hash field holds it
	if err != nil {
		return err
	}
	keys := []string{a.key("rules", r.Account), a.watchKey(r.Province, r.GTIN, r.Banner, r.SKU), a.key("accounts"), a.key("seq", "rule")}
	args := []any{r.Account, alertstore.MaxRules, body}
	if claim != nil {
		keys = append(keys, idemKey(a.c.Prefix, claim.Account, claim.Key))
		args = append(args, claim.Hash, claim.Created)
	}
	res, err := createRuleScript.Run(ctx, a.c.Client, keys, args...).Slice()
	if err != nil {
		return a.fail(err)
	}
	n, _ := res[1].(int64)
	switch res[0] {
	case "limit":
		return alertstore.RuleLimit(r.Account, int(n))
	case "claim":
		return idemstore.ClaimLost(claim.Key)
	}
	r.ID = uint64(n)
	return nil
}

// decodeRule decodes a rule's JSON, its id from its hash field.
func decodeRule(field, body string, r *storage.AlertRule) error {
	id, err := strconv.ParseUint(field, 10, 64)
	if err != nil {
		return fault.New(fault.Internal, "redis: alert rule id %q: %v", field, err)
	}
	*r = storage.AlertRule{}
	if err := json.Unmarshal([]byte(body), r); err != nil {
		return fault.New(fault.Internal, "redis: alert rule %d: %v", id, err)
	}
	r.ID = id
	return nil
}

// Rule reads one rule of an account.
func (a Redis) Rule(ctx context.Context, account string, id uint64, r *storage.AlertRule) (bool, error) {
	field := strconv.FormatUint(id, 10)
	body, err := a.c.Client.HGet(ctx, a.key("rules", account), field).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, a.fail(err)
	}
	return true, decodeRule(field, body, r)
}

// Rules calls fn for each rule of account, oldest first, or of every
// account when account is "".
func (a Redis) Rules(ctx context.Context, account string, fn func(r *storage.AlertRule) error) error {
	accounts := []string{account}
	if account == "" {
		var err error
		if accounts, err = a.c.Client.SMembers(ctx, a.key("accounts")).Result(); err != nil {
			return a.fail(err)
		}
		slices.Sort(accounts)
	}
	cmds := make([]*redis.MapStringStringCmd, len(accounts))
	_, err := a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, acct := range accounts {
			cmds[i] = pl.HGetAll(ctx, a.key("rules", acct))
		}
		return nil
	})
	if err != nil {
		return a.fail(err)
	}
	for _, c := range cmds {
		rules := make([]storage.AlertRule, 0, len(c.Val()))
		for field, body := range c.Val() {
			var r storage.AlertRule
			if err := decodeRule(field, body, &r); err != nil {
				return err
			}
			rules = append(rules, r)
		}
		slices.SortFunc(rules, func(x, y storage.AlertRule) int { return cmp.Compare(x.ID, y.ID) })
		for i := range rules {
			if err := fn(&rules[i]); err != nil {
				if errors.Is(err, storage.ErrStop) {
					return nil
				}
				return err
			}
		}
	}
	return nil
}

// UpdateRule changes a rule by change: it reads the rule, changes it and
// writes it with a script that checks it is still as read, trying again
// (reading it anew) when another server changed it meanwhile.
func (a Redis) UpdateRule(ctx context.Context, account string, id uint64, change func(r *storage.AlertRule) error) (bool, error) {
	field := strconv.FormatUint(id, 10)
	for range 10 {
		body, err := a.c.Client.HGet(ctx, a.key("rules", account), field).Result()
		if errors.Is(err, redis.Nil) {
			return false, nil
		}
		if err != nil {
			return false, a.fail(err)
		}
		var r storage.AlertRule
		if err := decodeRule(field, body, &r); err != nil {
			return false, err
		}
		r.Account = account
		if err := change(&r); err != nil {
			return false, err
		}
		r.Account, r.ID = account, 0 // as CreateRule stores it: the hash field holds the id
		next, err := json.Marshal(&r)
		if err != nil {
			return false, err
		}
		active := "1"
		if r.Paused {
			active = "0"
		}
		keys := []string{a.key("rules", account), a.watchKey(r.Province, r.GTIN, r.Banner, r.SKU)}
		n, err := updateRuleScript.Run(ctx, a.c.Client, keys, field, body, next, active).Int64()
		if err != nil {
			return false, a.fail(err)
		}
		if n >= 0 {
			return n == 1, nil
		}
	}
	return false, fault.New(fault.Unavailable, "alert rule %d of %s: other servers kept changing it; try again", id, account)
}

// DeleteRule removes a rule, its watch entry and its fired hash.
func (a Redis) DeleteRule(ctx context.Context, account string, id uint64) (bool, error) {
	// What a rule watches never changes: read first, it is still what it
	// watches when the script deletes it.
	var r storage.AlertRule
	found, err := a.Rule(ctx, account, id, &r)
	if err != nil || !found {
		return false, err
	}
	field := strconv.FormatUint(id, 10)
	keys := []string{a.key("rules", account), a.watchKey(r.Province, r.GTIN, r.Banner, r.SKU), a.key("fired", account, field), a.key("accounts")}
	n, err := deleteRuleScript.Run(ctx, a.c.Client, keys, account, field).Int64()
	if err != nil {
		return false, a.fail(err)
	}
	return n == 1, nil
}

// Events calls fn for each event of account, newest first, a page at a
// time.
func (a Redis) Events(ctx context.Context, account string, fn func(e *storage.AlertEvent) error) error {
	keys := []string{a.key("events", account), a.key("event", account)}
	var e storage.AlertEvent
	for top := "+inf"; ; {
		res, err := eventsScript.Run(ctx, a.c.Client, keys, top, eventsChunk).StringSlice()
		if err != nil {
			return a.fail(err)
		}
		for i := 0; i+1 < len(res); i += 2 {
			id, err := strconv.ParseUint(res[i], 10, 64)
			if err != nil || res[i+1] == "" {
				return fault.New(fault.Internal, "redis: alert event %q of %s is missing or malformed", res[i], account)
			}
			e = storage.AlertEvent{}
			if err := json.Unmarshal([]byte(res[i+1]), &e); err != nil {
				return fault.New(fault.Internal, "redis: alert event %d: %v", id, err)
			}
			e.Account, e.ID = account, id
			if err := fn(&e); err != nil {
				if errors.Is(err, storage.ErrStop) {
					return nil
				}
				return err
			}
		}
		if len(res) < 2*eventsChunk {
			return nil
		}
		top = "(" + res[len(res)-2]
	}
}

// HasRules reports whether any account holds a rule.
func (a Redis) HasRules(ctx context.Context, _ *storage.Tx) (bool, error) {
	n, err := a.c.Client.Exists(ctx, a.key("accounts")).Result()
	if err != nil {
		return false, a.fail(err)
	}
	return n == 1, nil
}

// Watching returns, for each query, the rules that watch its series.
func (a Redis) Watching(ctx context.Context, _ *storage.Tx, qs []alertstore.WatchQuery) ([][]*storage.AlertRule, error) {
	out := make([][]*storage.AlertRule, len(qs))
	cache := map[uint64]*storage.AlertRule{} // rule ids are unique in Redis
	type lookup struct {
		q   int
		cmd *redis.MapStringStringCmd
	}
	var ids []uint64
	for lo := 0; lo < len(qs); lo += watchChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+watchChunk, len(qs))
		var cmds []lookup
		_, err := a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
			for i := lo; i < hi; i++ {
				q := qs[i]
				if q.GTIN != "" {
					cmds = append(cmds, lookup{i, pl.HGetAll(ctx, a.watchKey(q.Province, q.GTIN, "", ""))})
				}
				cmds = append(cmds, lookup{i, pl.HGetAll(ctx, a.watchKey(q.Province, "", q.Banner, q.SKU))})
			}
			return nil
		})
		if err != nil {
			return nil, a.fail(err)
		}
		for _, l := range cmds {
			m := l.cmd.Val()
			if len(m) == 0 {
				continue
			}
			ids = ids[:0]
			for field, body := range m {
				id, err := strconv.ParseUint(field, 10, 64)
				if err != nil {
					return nil, fault.New(fault.Internal, "redis: alert rule id %q", field)
				}
				if _, ok := cache[id]; !ok {
					r := new(storage.AlertRule)
					if err := decodeRule(field, body, r); err != nil {
						return nil, err
					}
					cache[id] = r
				}
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				out[l.q] = append(out[l.q], cache[id])
			}
		}
	}
	return out, nil
}

// Record stores the events whose rule has not fired on their day yet,
// in scripts of recordChunk events, and puts them on the fanout list
// (FanOut queues their deliveries).
func (a Redis) Record(ctx context.Context, events []storage.AlertEvent, _ alertstore.Outbox) (int, error) {
	n := 0
	args := make([]any, 0, 1+4*min(len(events), recordChunk))
	for lo := 0; lo < len(events); lo += recordChunk {
		hi := min(lo+recordChunk, len(events))
		args = append(args[:0], a.key()+":")
		for i := lo; i < hi; i++ {
			e := events[i]
			e.ID = 0
			body, err := json.Marshal(&e) // ID 0: the hash field holds it
			if err != nil {
				return n, err
			}
			args = append(args, e.Account, e.RuleID, e.Day, body)
		}
		got, err := recordScript.Run(ctx, a.c.Client, nil, args...).Int64()
		if err != nil {
			return n, a.fail(err)
		}
		n += int(got)
	}
	return n, nil
}
