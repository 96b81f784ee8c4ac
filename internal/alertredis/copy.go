package alertredis

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// copyAlertsScript copies a data file's alert rules and events to Redis,
// all or nothing (one script), with the ids CopyFile chose: the
// file's own when no id Redis gave out (its counters) reaches them, else
// new ones after Redis's. It copies nothing when the counters moved since
// they were read (another server created a rule or an event meanwhile:
// the caller chooses again), or when the fingerprint of an earlier copy
// of the same file is there. It pushes the counters past the ids copied,
// rebuilds each copied rule's fired hash from its events and adds the
// fingerprint to the set alerts:copied.
//
//	ARGV  prefix ("grocery:alerts:"), fingerprint, seq:rule and seq:event as read,
//	      number of rules, then account, id, watch key ("" for a paused rule), rule (JSON) per rule,
//	      then account, id, rule id, day, event (JSON) per event
//
// It returns {'ok'}, {'copied'} or {'moved'}.
var copyAlertsScript = redis.NewScript(`
local p = ARGV[1]
if redis.call('SISMEMBER', p .. 'copied', ARGV[2]) == 1 then return {'copied'} end
if (redis.call('GET', p .. 'seq:rule') or '0') ~= ARGV[3] or (redis.call('GET', p .. 'seq:event') or '0') ~= ARGV[4] then
  return {'moved'}
end
local nr = tonumber(ARGV[5])
local ev = 6 + 4*nr
local maxRule, maxEvent = 0, 0
for i = 6, ev - 1, 4 do
  local acct, id = ARGV[i], ARGV[i+1]
  redis.call('HSET', p .. 'rules:' .. acct, id, ARGV[i+3])
  if ARGV[i+2] ~= '' then redis.call('HSET', ARGV[i+2], id, ARGV[i+3]) end
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

// CopyFile copies, when a writable grocery.Service opens with Redis, the
// alert rules and events its data file holds (kept there while it was
// opened without Redis) to Redis, so that turning Redis on hides none of
// them. They keep their ids when no id Redis ever gave out (live or
// deleted: its counters) reaches them, so an id a client kept names the
// same rule; else, when servers on that Redis created rules or events
// already, they are renumbered after Redis's, and the log names each
// rule's new id: an id is never given to two rules (renumbered events
// list after the ones Redis held, as events list by id). It runs once per
// file: the file then records the copy (storage.Tx.SetAlertsCopied) and
// keeps its own copies, unused while the file is opened with Redis (and
// in use again, as they were at the copy, if it is ever opened without).
//
// The copy is one script: all of it or nothing, so a crash midway copies
// nothing and the next open copies again; a crash after it finds the
// copy's fingerprint in Redis and copies nothing twice.
//
// It returns a fault.Unavailable when Redis does not answer, or when other
// servers kept creating rules during ten tries.
func CopyFile(db *storage.DB, a Redis, log *slog.Logger) error {
	var rules []storage.AlertRule
	var events []storage.AlertEvent
	var fileKey []byte
	copied := false
	err := db.View(func(tx *storage.Tx) (err error) {
		if copied = tx.AlertsCopied(); copied {
			return nil
		}
		if fileKey, err = tx.AlertIDKey(); err != nil {
			return err
		}
		err = tx.AlertRules("", func(r *storage.AlertRule) error { rules = append(rules, *r); return nil })
		if err != nil {
			return err
		}
		return tx.AlertEvents("", func(e *storage.AlertEvent) error { events = append(events, *e); return nil })
	})
	if err != nil || copied || len(rules)+len(events) == 0 {
		return err
	}
	// The fingerprint is of the file's alert data as it is, whatever ids
	// the copy gives it.
	h := sha256.New()
	for i := range rules {
		fmt.Fprintf(h, "r %+v\x00", rules[i])
	}
	for i := range events {
		fmt.Fprintf(h, "e %+v\x00", events[i])
	}
	fingerprint := hex.EncodeToString(h.Sum(nil))
	// One script of every rule and event: longer than a call's timeout
	// for a large history.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rdb := a.c.Client.WithTimeout(2 * time.Minute)
	// Ids stay as they were in the file unless renumbered: the file's id
	// secret becomes Redis's, when Redis has none yet.
	if fileKey != nil {
		if err := rdb.SetNX(ctx, a.key("idkey"), fileKey, 0).Err(); err != nil {
			return a.fail(err)
		}
	}
	for range 10 {
		seq, err := rdb.MGet(ctx, a.key()+":seq:rule", a.key()+":seq:event").Result()
		if err != nil {
			return a.fail(err)
		}
		seqRule, seqEvent := counter(seq[0]), counter(seq[1])
		ruleIDs, eventIDs := copyIDs(rules, events, seqRule, seqEvent)
		args, err := copyArgs(a, fingerprint, seq, rules, events, ruleIDs, eventIDs)
		if err != nil {
			return err
		}
		res, err := copyAlertsScript.Run(ctx, rdb, nil, args...).Slice()
		if err != nil {
			return a.fail(err)
		}
		if res[0] == "moved" {
			continue
		}
		if err := db.Update(func(tx *storage.Tx) error { return tx.SetAlertsCopied() }); err != nil {
			return err
		}
		if res[0] == "ok" && log != nil {
			log.Info(fmt.Sprintf("alert rules and events of the data file copied to Redis at %s", a.c.Addr),
				"rules", len(rules), "events", len(events), "renumbered", copiedIDs(ctx, a, fileKey, rules, ruleIDs))
		}
		return nil
	}
	return fault.New(fault.Unavailable, "copying the data file's alert rules to Redis at %s: other servers kept creating rules meanwhile; start again", a.c.Addr)
}

// counter reads an id counter of MGET: 0 when it is not set.
func counter(v any) uint64 {
	s, _ := v.(string)
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

// copyIDs maps the file's rule ids (of its rules and of its events' rules)
// and event ids to the ids they take in Redis: their own when Redis's
// counters are below every one of them, else new ones after the
// counters, in the file's order.
func copyIDs(rules []storage.AlertRule, events []storage.AlertEvent, seqRule, seqEvent uint64) (ruleIDs, eventIDs map[uint64]uint64) {
	ruleIDs, eventIDs = map[uint64]uint64{}, map[uint64]uint64{}
	for i := range rules {
		ruleIDs[rules[i].ID] = rules[i].ID
	}
	for i := range events {
		ruleIDs[events[i].RuleID] = events[i].RuleID
		eventIDs[events[i].ID] = events[i].ID
	}
	renumber := func(ids map[uint64]uint64, after uint64) {
		old := slices.Sorted(maps.Keys(ids))
		if len(old) == 0 || old[0] > after {
			return
		}
		for i, id := range old {
			ids[id] = after + uint64(i) + 1
		}
	}
	renumber(ruleIDs, seqRule)
	renumber(eventIDs, seqEvent)
	return ruleIDs, eventIDs
}

// copyArgs builds copyAlertsScript's ARGV.
func copyArgs(a Redis, fingerprint string, seq []any, rules []storage.AlertRule, events []storage.AlertEvent, ruleIDs, eventIDs map[uint64]uint64) ([]any, error) {
	args := make([]any, 0, 5+4*len(rules)+5*len(events))
	args = append(args, a.key()+":", fingerprint, strconv.FormatUint(counter(seq[0]), 10), strconv.FormatUint(counter(seq[1]), 10), len(rules))
	for i := range rules {
		r := rules[i]
		id := strconv.FormatUint(ruleIDs[r.ID], 10)
		r.ID = 0 // the hash field holds it, as createRule stores it
		body, err := json.Marshal(&r)
		if err != nil {
			return nil, err
		}
		watch := a.watchKey(r.Province, r.GTIN, r.Banner, r.SKU)
		if r.Paused {
			watch = "" // off the watch hash, as UpdateRule keeps it
		}
		args = append(args, r.Account, id, watch, body)
	}
	for i := range events {
		e := events[i]
		id := strconv.FormatUint(eventIDs[e.ID], 10)
		e.ID, e.RuleID = 0, ruleIDs[e.RuleID] // as record stores it
		body, err := json.Marshal(&e)
		if err != nil {
			return nil, err
		}
		args = append(args, e.Account, id, e.RuleID, e.Day, body)
	}
	return args, nil
}

// copiedIDs says, for the log, which id each copied rule had in the file
// and has in Redis where they differ: when the copy renumbers it, or Redis
// had an id secret of its own before the copy.
func copiedIDs(ctx context.Context, a Redis, fileKey []byte, rules []storage.AlertRule, ruleIDs map[uint64]uint64) string {
	from, err := alertstore.NewIDs(fileKey)
	if err != nil {
		return "unknown: " + err.Error()
	}
	redisKey, err := a.IDKey(ctx)
	if err != nil {
		return "unknown: " + err.Error()
	}
	to, err := alertstore.NewIDs(redisKey)
	if err != nil {
		return "unknown: " + err.Error()
	}
	var changed []string
	for _, r := range rules {
		if was, is := from.Rule(r.ID), to.Rule(ruleIDs[r.ID]); was != is {
			changed = append(changed, fmt.Sprintf("%s of %s is now %s", was, r.Account, is))
		}
	}
	return strings.Join(changed, "; ")
}
