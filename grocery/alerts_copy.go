package grocery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// copyAlertsScript copies a data file's alert rules and events to Redis,
// keeping their ids, all or nothing (one script): unless Redis holds a
// rule, or an event of one of the accounts copied, or the mark of an
// earlier copy of the same rules and events. It pushes the id counters
// past the ids copied (the rule ids of the events too: a deleted rule's
// id is never given again), rebuilds each copied rule's fired hash from
// its events and adds the copy's fingerprint (sha256 of what it copied)
// to the set alerts:copied.
//
//	ARGV  prefix ("grocery:alerts:"), fingerprint, number of rules, then account, id,
//	      watch key, rule (JSON) per rule, then account, id, rule id, day,
//	      event (JSON) per event
//
// It returns {'ok'}, {'copied'} when the fingerprint is there, or {'held', rules
// in Redis, events in Redis of the accounts copied}.
var copyAlertsScript = redis.NewScript(`
local p = ARGV[1]
local nr = tonumber(ARGV[3])
local ev = 4 + 4*nr
if redis.call('SISMEMBER', p .. 'copied', ARGV[2]) == 1 then return {'copied'} end
local rules = 0
for _, acct in ipairs(redis.call('SMEMBERS', p .. 'accounts')) do
  rules = rules + redis.call('HLEN', p .. 'rules:' .. acct)
end
local events = 0
local seen = {}
for i = 4, #ARGV, 4 do
  if i >= ev then break end
  seen[ARGV[i]] = true
end
for i = ev, #ARGV, 5 do seen[ARGV[i]] = true end
for acct, _ in pairs(seen) do events = events + redis.call('ZCARD', p .. 'events:' .. acct) end
if rules > 0 or events > 0 then return {'held', rules, events} end
local maxRule, maxEvent = 0, 0
for i = 4, ev - 1, 4 do
  local acct, id = ARGV[i], ARGV[i+1]
  redis.call('HSET', p .. 'rules:' .. acct, id, ARGV[i+3])
  redis.call('HSET', ARGV[i+2], id, ARGV[i+3])
  redis.call('SADD', p .. 'accounts', acct)
  maxRule = math.max(maxRule, tonumber(id))
end
for i = ev, #ARGV, 5 do
  local acct, id, rule, day = ARGV[i], ARGV[i+1], ARGV[i+2], ARGV[i+3]
  redis.call('HSET', p .. 'event:' .. acct, id, ARGV[i+4])
  redis.call('ZADD', p .. 'events:' .. acct, id, id)
  if redis.call('HEXISTS', p .. 'rules:' .. acct, rule) == 1 then
    redis.call('HSET', p .. 'fired:' .. acct .. ':' .. rule, day, id)
  end
  maxEvent = math.max(maxEvent, tonumber(id))
  maxRule = math.max(maxRule, tonumber(rule))
end
for _, s in ipairs({{'seq:rule', maxRule}, {'seq:event', maxEvent}}) do
  local cur = tonumber(redis.call('GET', p .. s[1]) or '0')
  if s[2] > cur then redis.call('SET', p .. s[1], s[2]) end
end
redis.call('SADD', p .. 'copied', ARGV[2])
return {'ok'}
`)

// copyFileAlerts copies, when a writable Service opens with Redis, the
// alert rules and events its data file holds (kept there while it was
// opened without Redis) to Redis, keeping their ids, so that turning
// Redis on hides none of them and an id a client kept names the same
// rule (nor a rule deleted before the copy). It runs once per file: the
// file then records the copy
// (storage.Tx.SetAlertsCopied) and keeps its own copies, unused while
// the file is opened with Redis (and in use again, as they were at the
// copy, if it is ever opened without).
//
// The copy is one script: all of it or nothing, so a crash midway copies
// nothing and the next open copies again. It copies only into a Redis
// that holds no alert rule and no event of the accounts copied (else ids
// would clash): otherwise it returns EINVALID naming the count of rules
// and how to proceed.
func (s *Service) copyFileAlerts(a redisAlerts) error {
	var rules []storage.AlertRule
	var events []storage.AlertEvent
	copied := false
	err := s.db.View(func(tx *storage.Tx) error {
		if copied = tx.AlertsCopied(); copied {
			return nil
		}
		err := tx.AlertRules("", func(r *storage.AlertRule) error { rules = append(rules, *r); return nil })
		if err != nil {
			return err
		}
		return tx.AlertEvents("", func(e *storage.AlertEvent) error { events = append(events, *e); return nil })
	})
	if err != nil || copied || len(rules)+len(events) == 0 {
		return err
	}
	args := make([]any, 0, 2+4*len(rules)+5*len(events))
	args = append(args, a.key()+":", "", len(rules))
	for i := range rules {
		r := rules[i]
		id := strconv.FormatUint(r.ID, 10)
		r.ID = 0 // the hash field holds it, as createRule stores it
		body, err := json.Marshal(&r)
		if err != nil {
			return err
		}
		args = append(args, r.Account, id, a.watchKey(r.Province, r.GTIN, r.Banner, r.SKU), body)
	}
	for i := range events {
		e := events[i]
		id := strconv.FormatUint(e.ID, 10)
		e.ID = 0 // as record stores it
		body, err := json.Marshal(&e)
		if err != nil {
			return err
		}
		args = append(args, e.Account, id, e.RuleID, e.Day, body)
	}
	h := sha256.New()
	for _, v := range args[3:] {
		fmt.Fprintf(h, "%v\x00", v)
	}
	args[1] = hex.EncodeToString(h.Sum(nil))
	// One script of every rule and event: longer than a call's timeout
	// for a large history.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := copyAlertsScript.Run(ctx, a.ra.rdb.WithTimeout(2*time.Minute), nil, args...).Slice()
	if err != nil {
		return a.fail(err)
	}
	if res[0] == "held" {
		return Errorf(EINVALID, "the data file %s holds %d alert rules and %d alert events, kept while it was used without Redis, "+
			"and Redis at %s holds alert rules or events of those accounts already (%v rules, %v events), so they cannot be copied there "+
			"with their ids: open the file without Redis, list its rules and delete them ('grocery alerts list|delete' without --redis), "+
			"then create the ones still wanted with Redis; or use a Redis database without alert rules",
			s.db.Path(), len(rules), len(events), a.ra.addr, res[1], res[2])
	}
	if err := s.db.Update(func(tx *storage.Tx) error { return tx.SetAlertsCopied() }); err != nil {
		return err
	}
	if res[0] == "ok" && s.log != nil {
		s.log.Info(fmt.Sprintf("alert rules and events of the data file copied to Redis at %s", a.ra.addr),
			"rules", len(rules), "events", len(events))
	}
	return nil
}
