package alertredis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// Webhook endpoints and their outboxes in Redis, beside the rules and
// events (see Redis for the prefix and what the scripts assume):
//
//	alerts:hooks:endpoints:<account>           hash: endpoint id (16 hex digits) -> endpoint (JSON)
//	alerts:hooks:deliveries:<account>:<id>     hash: delivery number -> delivery (JSON)
//	alerts:hooks:seqs:<account>:<id>           sorted set of the deliveries' numbers (pages, pruning)
//	alerts:hooks:pending:<account>:<id>        sorted set of the pending deliveries' numbers
//	alerts:hooks:active                        set of "<id>:<account>", the endpoints with a pending delivery
//	alerts:hooks:fanout                        list of "<event id>:<account>": events recorded, not yet queued
//	alerts:hooks:fanout:failed                 list of the fanout entries that could not be read (kept for a look)
//	alerts:hooks:sender                        the name of the server that sends, with a lease (HoldSender)
//
// The JSON of an endpoint or a delivery is json.Marshal of
// storage.Webhook or storage.WebhookDelivery without the fields its key
// holds (account, id, number). recordScript pushes each event it records
// for an account with an endpoint on the fanout list, in the script that
// records it, so that no event is lost between its recording and its
// deliveries; FanOut pops each with the deliveries it queues, in one
// script, so that none is queued twice.
//
// Every change of an endpoint and its deliveries is a read, a change in
// Go, and editScript, which writes only when what was read is still
// there (else the change is made again on what is): a replica pausing an
// endpoint while the evaluating node records an attempt on it loses
// neither.

// hookKey names one of the webhook keys: alerts:hooks:<parts...>.
func (a Redis) hookKey(parts ...string) string { return a.key(append([]string{"hooks"}, parts...)...) }

func hookField(id uint64) string { return fmt.Sprintf("%016x", id) }

// createHookScript stores an endpoint unless its account holds ARGV[1]
// endpoints or its id is taken, and records it in an idempotency key's
// claim when given one.
//
//	KEYS  alerts:hooks:endpoints:<account>[, the claim's record]
//	ARGV  the most endpoints an account may hold, id, endpoint (JSON), the object's name[, the claim's hash, created]
//
// It returns {'ok', n}, {'limit', n}, {'taken', n} or {'claim', n}: n the
// endpoints the account held.
var createHookScript = redis.NewScript(claimLua + `
local claim = KEYS[2] or false
local n = redis.call('HLEN', KEYS[1])
if not claimHeld(claim, ARGV[5], ARGV[6]) then return {'claim', n} end
if n >= tonumber(ARGV[1]) then return {'limit', n} end
if redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3]) == 0 then return {'taken', n} end
claimObject(claim, ARGV[4])
return {'ok', n}
`)

// deleteHookScript deletes an endpoint with its deliveries.
//
//	KEYS  alerts:hooks:endpoints:<account>, deliveries, pending, active, seqs
//	ARGV  id, "<id>:<account>"
//
// It returns 1 when the endpoint existed, else 0.
var deleteHookScript = redis.NewScript(`
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[5])
redis.call('SREM', KEYS[4], ARGV[2])
return 1
`)

// editScript writes endpoints and deliveries when each is still as read,
// and pops the head of the fanout list when asked.
//
//	ARGV  prefix ("grocery:alerts:hooks:"), the fanout entry to pop ("" for none),
//	      then per endpoint: account, id, endpoint as read, endpoint, n,
//	      and n times: number, delivery as read ("" when new), delivery, 1 when pending
//
// It returns 1 when it wrote, 0 when an endpoint is gone, -1 when
// something changed since it was read, -2 when the fanout list's head is
// not the entry.
var editScript = redis.NewScript(`
local p, pop = ARGV[1], ARGV[2]
if pop ~= '' and redis.call('LINDEX', p .. 'fanout', 0) ~= pop then return -2 end
local i = 3
while i <= #ARGV do
  local acct, id, n = ARGV[i], ARGV[i+1], tonumber(ARGV[i+4])
  local cur = redis.call('HGET', p .. 'endpoints:' .. acct, id)
  if not cur then return 0 end
  if cur ~= ARGV[i+2] then return -1 end
  local dk = p .. 'deliveries:' .. acct .. ':' .. id
  for k = i + 5, i + 4 + 4*n, 4 do
    if (redis.call('HGET', dk, ARGV[k]) or '') ~= ARGV[k+1] then return -1 end
  end
  i = i + 5 + 4*n
end
i = 3
while i <= #ARGV do
  local acct, id, n = ARGV[i], ARGV[i+1], tonumber(ARGV[i+4])
  redis.call('HSET', p .. 'endpoints:' .. acct, id, ARGV[i+3])
  local dk = p .. 'deliveries:' .. acct .. ':' .. id
  local pk = p .. 'pending:' .. acct .. ':' .. id
  local sk = p .. 'seqs:' .. acct .. ':' .. id
  for k = i + 5, i + 4 + 4*n, 4 do
    redis.call('HSET', dk, ARGV[k], ARGV[k+2])
    redis.call('ZADD', sk, ARGV[k], ARGV[k])
    if ARGV[k+3] == '1' then redis.call('ZADD', pk, ARGV[k], ARGV[k]) else redis.call('ZREM', pk, ARGV[k]) end
  end
  if redis.call('ZCARD', pk) > 0 then
    redis.call('SADD', p .. 'active', id .. ':' .. acct)
  else
    redis.call('SREM', p .. 'active', id .. ':' .. acct)
  end
  i = i + 5 + 4*n
end
if pop ~= '' then redis.call('LPOP', p .. 'fanout') end
return 1
`)

// pruneHookScript deletes deliveries that are still as read.
//
//	KEYS  alerts:hooks:deliveries:<account>:<id>, alerts:hooks:seqs:<account>:<id>
//	ARGV  number, delivery as read, ...
var pruneHookScript = redis.NewScript(`
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i+1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
  end
end
return 0
`)

// holdSenderScript takes or keeps the sender's lease.
//
//	KEYS  alerts:hooks:sender
//	ARGV  the server's name, the lease in milliseconds
//
// It returns 1 when the server holds the lease, else 0.
var holdSenderScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not cur then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`)

// releaseSenderScript gives the lease up, if the server holds it.
//
//	KEYS  alerts:hooks:sender
//	ARGV  the server's name
var releaseSenderScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`)

// HoldSender takes or keeps the sender's lease for node.
func (a Redis) HoldSender(ctx context.Context, node string, ttl time.Duration) (bool, error) {
	n, err := holdSenderScript.Run(ctx, a.c.Client, []string{a.hookKey("sender")}, node, ttl.Milliseconds()).Int64()
	if err != nil {
		return false, a.fail(err)
	}
	return n == 1, nil
}

// HookPending reports whether any endpoint has a pending delivery: one
// EXISTS, so that an idle server's worker runs no script (the servers'
// scripts are the metered calls').
func (a Redis) HookPending(ctx context.Context) (bool, error) {
	n, err := a.c.Client.Exists(ctx, a.hookKey("active")).Result()
	if err != nil {
		return false, a.fail(err)
	}
	return n == 1, nil
}

// ReleaseSender gives the sender's lease up, if node holds it.
func (a Redis) ReleaseSender(ctx context.Context, node string) error {
	if err := releaseSenderScript.Run(ctx, a.c.Client, []string{a.hookKey("sender")}, node).Err(); err != nil {
		return a.fail(err)
	}
	return nil
}

func encodeHook(w *storage.Webhook) (string, error) {
	c := *w
	c.Account, c.ID = "", 0 // the key and field hold them
	b, err := json.Marshal(&c)
	return string(b), err
}

func decodeHook(account, field, body string, w *storage.Webhook) error {
	id, err := strconv.ParseUint(field, 16, 64)
	if err != nil {
		return fault.New(fault.Internal, "redis: webhook endpoint id %q of %s", field, account)
	}
	*w = storage.Webhook{}
	if err := json.Unmarshal([]byte(body), w); err != nil {
		return fault.New(fault.Internal, "redis: webhook endpoint %s of %s: %v", field, account, err)
	}
	w.Account, w.ID = account, id
	return nil
}

func encodeDelivery(d *storage.WebhookDelivery) (string, error) {
	c := *d
	c.Account, c.Endpoint, c.Seq = "", 0, 0
	b, err := json.Marshal(&c)
	return string(b), err
}

func decodeDelivery(account string, ep uint64, field, body string, d *storage.WebhookDelivery) error {
	seq, err := strconv.ParseUint(field, 10, 64)
	if err != nil {
		return fault.New(fault.Internal, "redis: webhook delivery number %q", field)
	}
	*d = storage.WebhookDelivery{}
	if err := json.Unmarshal([]byte(body), d); err != nil {
		return fault.New(fault.Internal, "redis: webhook delivery %d of %s: %v", seq, hookField(ep), err)
	}
	d.Account, d.Endpoint, d.Seq = account, ep, seq
	return nil
}

// CreateHook gives w a new random id and stores it, unless its account
// holds max endpoints, in one script.
func (a Redis) CreateHook(ctx context.Context, w *storage.Webhook, max int, claim *storage.IdempotencyRecord) error {
	body, err := encodeHook(w)
	if err != nil {
		return err
	}
	for range 10 {
		w.ID = alertstore.NewHookID()
		keys := []string{a.hookKey("endpoints", w.Account)}
		args := []any{max, hookField(w.ID), body, alertstore.HookObject(w.ID)}
		if claim != nil {
			keys = append(keys, idemKey(a.c.Prefix, claim.Account, claim.Key))
			args = append(args, claim.Hash, claim.Created)
		}
		res, err := createHookScript.Run(ctx, a.c.Client, keys, args...).Slice()
		if err != nil {
			return a.fail(err)
		}
		n, _ := res[1].(int64)
		switch res[0] {
		case "limit":
			return alertstore.HookLimit(w.Account, int(n))
		case "claim":
			return idemstore.ClaimLost(claim.Key)
		case "ok":
			return nil
		}
	}
	return fault.New(fault.Internal, "redis: no free webhook endpoint id in 10 draws")
}

// Hook reads one endpoint of an account.
func (a Redis) Hook(ctx context.Context, account string, id uint64, w *storage.Webhook) (bool, error) {
	body, err := a.c.Client.HGet(ctx, a.hookKey("endpoints", account), hookField(id)).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, a.fail(err)
	}
	return true, decodeHook(account, hookField(id), body, w)
}

// Hooks calls fn for each endpoint of account, in id order.
func (a Redis) Hooks(ctx context.Context, account string, fn func(w *storage.Webhook) error) error {
	m, err := a.c.Client.HGetAll(ctx, a.hookKey("endpoints", account)).Result()
	if err != nil {
		return a.fail(err)
	}
	fields := make([]string, 0, len(m))
	for f := range m {
		fields = append(fields, f) // 16 hex digits: string order is id order
	}
	slices.Sort(fields)
	var w storage.Webhook
	for _, f := range fields {
		if err := decodeHook(account, f, m[f], &w); err != nil {
			return err
		}
		if err := fn(&w); err != nil {
			if errors.Is(err, storage.ErrStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

// redisEdit is an alertstore.Edit of an endpoint in Redis with what it read: the
// endpoint's JSON and each delivery's, by number, for editScript's
// checks.
type redisEdit struct {
	alertstore.Edit
	hook string
	read map[uint64]string
}

func (a Redis) newEdit(ctx context.Context, account, field, body string) (*redisEdit, error) {
	e := &redisEdit{hook: body, read: map[uint64]string{}}
	if err := decodeHook(account, field, body, &e.W); err != nil {
		return nil, err
	}
	dk := a.hookKey("deliveries", account, field)
	get := func(seq uint64, d *storage.WebhookDelivery) (bool, error) {
		f := strconv.FormatUint(seq, 10)
		body, err := a.c.Client.HGet(ctx, dk, f).Result()
		if errors.Is(err, redis.Nil) {
			return false, nil
		}
		if err != nil {
			return false, a.fail(err)
		}
		e.read[seq] = body
		return true, decodeDelivery(account, e.W.ID, f, body, d)
	}
	pending := func(fn func(d *storage.WebhookDelivery)) error {
		seqs, err := a.c.Client.ZRange(ctx, a.hookKey("pending", account, field), 0, -1).Result()
		if err != nil {
			return a.fail(err)
		}
		if len(seqs) == 0 {
			return nil
		}
		bodies, err := a.c.Client.HMGet(ctx, dk, seqs...).Result()
		if err != nil {
			return a.fail(err)
		}
		var d storage.WebhookDelivery
		for i, f := range seqs {
			body, ok := bodies[i].(string)
			if !ok {
				continue // pruned or deleted meanwhile: editScript finds out
			}
			if err := decodeDelivery(account, e.W.ID, f, body, &d); err != nil {
				return err
			}
			e.read[d.Seq] = body
			fn(&d)
		}
		return nil
	}
	e.SetReader(get, pending)
	return e, nil
}

// args appends the edit's part of editScript's ARGV.
func (e *redisEdit) args(args []any) ([]any, error) {
	hook, err := encodeHook(&e.W)
	if err != nil {
		return nil, err
	}
	args = append(args, e.W.Account, hookField(e.W.ID), e.hook, hook, len(e.Puts()))
	for i := range e.Puts() {
		d := &e.Puts()[i]
		body, err := encodeDelivery(d)
		if err != nil {
			return nil, err
		}
		pending := "0"
		if d.Status == storage.DeliveryPending {
			pending = "1"
		}
		args = append(args, strconv.FormatUint(d.Seq, 10), e.read[d.Seq], body, pending)
	}
	return args, nil
}

// EditHook changes an endpoint and its deliveries: it reads, lets edit
// change, and writes with editScript, doing it again on what is there
// when another server changed them meanwhile.
func (a Redis) EditHook(ctx context.Context, account string, id uint64, edit func(e *alertstore.Edit) error) (bool, error) {
	field := hookField(id)
	for range 10 {
		body, err := a.c.Client.HGet(ctx, a.hookKey("endpoints", account), field).Result()
		if errors.Is(err, redis.Nil) {
			return false, nil
		}
		if err != nil {
			return false, a.fail(err)
		}
		e, err := a.newEdit(ctx, account, field, body)
		if err != nil {
			return false, err
		}
		if err := edit(&e.Edit); err != nil {
			return false, err
		}
		args, err := e.args([]any{a.hookKey() + ":", ""})
		if err != nil {
			return false, err
		}
		n, err := editScript.Run(ctx, a.c.Client, nil, args...).Int64()
		if err != nil {
			return false, a.fail(err)
		}
		if n == 0 {
			return false, nil
		}
		if n == 1 {
			a.prune(ctx, []*redisEdit{e})
			return true, nil
		}
	}
	return false, fault.New(fault.Unavailable, "webhook endpoint %s of %s: other servers kept changing it; try again", field, account)
}

// prune deletes the delivered and failed deliveries the edits call for
// (alertstore.Edit.pruneBefore), among the oldest 1,000 of each endpoint. It is best
// effort: what it leaves, a later prune takes.
func (a Redis) prune(ctx context.Context, edits []*redisEdit) {
	for _, e := range edits {
		if e.PruneBefore() == 0 {
			continue
		}
		field := hookField(e.W.ID)
		dk, sk := a.hookKey("deliveries", e.W.Account, field), a.hookKey("seqs", e.W.Account, field)
		seqs, err := a.c.Client.ZRange(ctx, sk, 0, 999).Result()
		if err != nil || len(seqs) == 0 {
			continue
		}
		bodies, err := a.c.Client.HMGet(ctx, dk, seqs...).Result()
		if err != nil {
			continue
		}
		var args []any
		var d storage.WebhookDelivery
		for i, f := range seqs {
			body, ok := bodies[i].(string)
			if ok && decodeDelivery(e.W.Account, e.W.ID, f, body, &d) == nil && d.Status != storage.DeliveryPending && d.Created < e.PruneBefore() {
				args = append(args, f, body)
			}
		}
		if len(args) > 0 {
			pruneHookScript.Run(ctx, a.c.Client, []string{dk, sk}, args...)
		}
	}
}

// DeleteHook removes an endpoint with its deliveries, in one script.
func (a Redis) DeleteHook(ctx context.Context, account string, id uint64) (bool, error) {
	field := hookField(id)
	keys := []string{a.hookKey("endpoints", account), a.hookKey("deliveries", account, field),
		a.hookKey("pending", account, field), a.hookKey("active"), a.hookKey("seqs", account, field)}
	n, err := deleteHookScript.Run(ctx, a.c.Client, keys, field, field+":"+account).Int64()
	if err != nil {
		return false, a.fail(err)
	}
	return n == 1, nil
}

// HookDeliveries calls fn for a page of an endpoint's deliveries, newest
// first, reading only that page.
func (a Redis) HookDeliveries(ctx context.Context, account string, id uint64, offset, limit int, fn func(d *storage.WebhookDelivery)) (int, error) {
	field := hookField(id)
	sk := a.hookKey("seqs", account, field)
	var total *redis.IntCmd
	var page *redis.StringSliceCmd
	_, err := a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
		total = pl.ZCard(ctx, sk)
		page = pl.ZRevRange(ctx, sk, int64(offset), int64(offset+limit-1))
		return nil
	})
	if err != nil {
		return 0, a.fail(err)
	}
	if len(page.Val()) == 0 {
		return int(total.Val()), nil
	}
	bodies, err := a.c.Client.HMGet(ctx, a.hookKey("deliveries", account, field), page.Val()...).Result()
	if err != nil {
		return 0, a.fail(err)
	}
	var d storage.WebhookDelivery
	for i, f := range page.Val() {
		body, ok := bodies[i].(string)
		if !ok {
			continue // pruned between the two reads
		}
		if err := decodeDelivery(account, id, f, body, &d); err != nil {
			return 0, err
		}
		fn(&d)
	}
	return int(total.Val()), nil
}

// HookHeads calls fn with each endpoint that has a pending delivery and
// the first of them: three round trips, whatever the number of
// endpoints.
func (a Redis) HookHeads(ctx context.Context, fn func(w *storage.Webhook, d *storage.WebhookDelivery) error) error {
	members, err := a.c.Client.SMembers(ctx, a.hookKey("active")).Result()
	if err != nil {
		return a.fail(err)
	}
	slices.Sort(members)
	type head struct {
		account, field string
		hook           *redis.StringCmd
		first          *redis.StringSliceCmd
		delivery       *redis.StringCmd
	}
	heads := make([]head, 0, len(members))
	for _, m := range members {
		field, account, ok := strings.Cut(m, ":")
		if ok && len(field) == 16 {
			heads = append(heads, head{account: account, field: field})
		}
	}
	_, err = a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i := range heads {
			h := &heads[i]
			h.hook = pl.HGet(ctx, a.hookKey("endpoints", h.account), h.field)
			h.first = pl.ZRange(ctx, a.hookKey("pending", h.account, h.field), 0, 0)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return a.fail(err)
	}
	_, err = a.c.Client.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i := range heads {
			h := &heads[i]
			if h.hook.Err() == nil && len(h.first.Val()) == 1 {
				h.delivery = pl.HGet(ctx, a.hookKey("deliveries", h.account, h.field), h.first.Val()[0])
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return a.fail(err)
	}
	var w storage.Webhook
	var d storage.WebhookDelivery
	for _, h := range heads {
		if h.delivery == nil || h.delivery.Err() != nil {
			continue // deleted or delivered meanwhile
		}
		if err := decodeHook(h.account, h.field, h.hook.Val(), &w); err != nil {
			return err
		}
		if err := decodeDelivery(h.account, w.ID, h.first.Val()[0], h.delivery.Val(), &d); err != nil {
			return err
		}
		if err := fn(&w, &d); err != nil {
			if errors.Is(err, storage.ErrStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

// FanOut queues the events on the fanout list, in order: for each, it
// reads the event and its account's endpoints, then queues a delivery to
// each endpoint want accepts and pops the event, in one editScript.
func (a Redis) FanOut(ctx context.Context, max int, want func(w *storage.Webhook) bool, build func(e *storage.AlertEvent) (storage.WebhookDelivery, error)) (int, error) {
	queued, done := 0, 0
	for {
		entries, err := a.c.Client.LRange(ctx, a.hookKey("fanout"), 0, 99).Result()
		if err != nil {
			return queued, a.fail(err)
		}
		if len(entries) == 0 {
			return queued, nil
		}
		for _, entry := range entries {
			if max > 0 && done == max {
				return queued, nil
			}
			n, err := a.fanOne(ctx, entry, want, build)
			if err != nil {
				return queued, err
			}
			if n < 0 {
				break // another node popped it: read the list again
			}
			queued += n
			done++
		}
	}
}

// dropFanoutScript moves the fanout list's head to the failed list, if it
// is the entry.
//
//	KEYS  alerts:hooks:fanout, alerts:hooks:fanout:failed
//	ARGV  the entry
var dropFanoutScript = redis.NewScript(`
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[2], redis.call('LPOP', KEYS[1]))
return 1
`)

// dropEntry sets aside a fanout entry whose event cannot be read or made
// a delivery: it would otherwise hold up every event after it.
func (a Redis) dropEntry(ctx context.Context, entry string) error {
	keys := []string{a.hookKey("fanout"), a.hookKey("fanout", "failed")}
	if err := dropFanoutScript.Run(ctx, a.c.Client, keys, entry).Err(); err != nil {
		return a.fail(err)
	}
	return nil
}

// fanOne queues the event of one fanout entry, at the head of the list;
// it returns how many deliveries it queued, -1 when the entry was not at
// the head.
func (a Redis) fanOne(ctx context.Context, entry string, want func(w *storage.Webhook) bool, build func(e *storage.AlertEvent) (storage.WebhookDelivery, error)) (int, error) {
	idText, account, _ := strings.Cut(entry, ":")
	id, idErr := strconv.ParseUint(idText, 10, 64)
	for range 10 {
		var edits []*redisEdit
		var tmpl storage.WebhookDelivery
		body, err := a.c.Client.HGet(ctx, a.key("event", account), idText).Result()
		switch {
		case idErr != nil || errors.Is(err, redis.Nil):
			// Not an event: nothing to queue; the script pops it.
		case err != nil:
			return 0, a.fail(err)
		default:
			var e storage.AlertEvent
			if err := json.Unmarshal([]byte(body), &e); err != nil {
				return 0, a.dropEntry(ctx, entry)
			}
			e.Account, e.ID = account, id
			if tmpl, err = build(&e); err != nil {
				if k, _ := fault.KindOf(err); k == fault.Unavailable {
					return 0, err
				}
				return 0, a.dropEntry(ctx, entry)
			}
			hooks, err := a.c.Client.HGetAll(ctx, a.hookKey("endpoints", account)).Result()
			if err != nil {
				return 0, a.fail(err)
			}
			for field, hb := range hooks {
				ed, err := a.newEdit(ctx, account, field, hb)
				if err != nil {
					return 0, err
				}
				// An endpoint created after the event was recorded does not
				// get it, as with the data file's events.
				if want(&ed.W) && ed.W.Created <= e.Triggered {
					d := tmpl
					ed.Enqueue(&d)
					edits = append(edits, ed)
				}
			}
		}
		args := []any{a.hookKey() + ":", entry}
		for _, ed := range edits {
			if args, err = ed.args(args); err != nil {
				return 0, err
			}
		}
		n, err := editScript.Run(ctx, a.c.Client, nil, args...).Int64()
		if err != nil {
			return 0, a.fail(err)
		}
		switch n {
		case 1:
			a.prune(ctx, edits)
			return len(edits), nil
		case -2:
			return -1, nil
		}
	}
	return 0, fault.New(fault.Unavailable, "alert event %s of %s: its endpoints kept changing while it was queued; it is queued at the next try", idText, account)
}
