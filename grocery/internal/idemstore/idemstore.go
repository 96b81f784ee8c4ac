// Package idemstore keeps grocery's idempotency records (a request made
// with an idempotency key and its answer, per account), in storage's
// vocabulary (storage.IdempotencyRecord): the Store interface and its two
// stores, the data file's (Bolt) and a shared Redis (Redis), kept where
// the alert rules are, and RequestHash, a request's hash. It imports
// nothing from grocery; what a record means (its expiry) is grocery's.
package idemstore

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/fault"
	"github.com/grocerydata/grocery/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// Store keeps idempotency records. Times are Unix milliseconds on the
// caller's clock.
//
// A request that creates an object records it in its claim (the
// record's Object) in the transaction, or script, that creates it: Bolt
// with RecordObject, Redis with the claim's fields (RedisKey, ClaimLua).
// A key whose claim names an object is never claimed again, done or not:
// the request that resumes it answers with that object.
type Store interface {
	// Begin claims the key of r for a request: when the account's key has
	// a record that lives (made at or after expiredBefore; one not done,
	// also at or after staleBefore), it returns that record and false;
	// else it writes r (not done) in its place and returns true.
	Begin(ctx context.Context, r *storage.IdempotencyRecord, expiredBefore, staleBefore int64) (storage.IdempotencyRecord, bool, error)
	// Finish stores the answer of the claim r made (r.Response, Done),
	// unless another claim replaced it.
	Finish(ctx context.Context, r *storage.IdempotencyRecord) error
	// Abandon removes the claim r made, unless another replaced it or it
	// is done.
	Abandon(ctx context.Context, r *storage.IdempotencyRecord) error
}

// pruneChunk is the number of expired records one Begin removes from the
// data file.
const pruneChunk = 100

// Bolt is the Store of the data file (storage/idempotency.go).
type Bolt struct{ DB *storage.DB }

// lives reports whether a record lives: made at or after expiredBefore,
// and done, or naming the object its request created, or made at or
// after staleBefore.
func lives(r *storage.IdempotencyRecord, expiredBefore, staleBefore int64) bool {
	return r.Created >= expiredBefore && (r.Done || r.Object != "" || r.Created >= staleBefore)
}

// ClaimLost is the fault.Conflict of a creation whose claim is no longer
// its own: another request took the key over after a minute, or created
// the object already.
func ClaimLost(key string) error {
	return fault.New(fault.Conflict, "another request with Idempotency-Key %q took it over while this one ran: nothing was created; retry with that key to get its answer", key)
}

// RecordObject records, in tx, that the claim c created object: it
// returns ClaimLost when the record is no longer c's claim or names an
// object already, and the creation is then to be rolled back.
func RecordObject(tx *storage.Tx, c *storage.IdempotencyRecord, object string) error {
	var cur storage.IdempotencyRecord
	found, err := tx.IdempotencyRecord(c.Account, c.Key, &cur)
	if err != nil {
		return err
	}
	if !found || !same(&cur, c) || cur.Done || cur.Object != "" {
		return ClaimLost(c.Key)
	}
	cur.Object = object
	return tx.PutIdempotencyRecord(&cur)
}

// same reports whether two records are of one claim.
func same(a, b *storage.IdempotencyRecord) bool {
	return a.Created == b.Created && string(a.Hash) == string(b.Hash)
}

// Begin claims r's key in one transaction, removing some expired
// records of every account first.
func (b Bolt) Begin(ctx context.Context, r *storage.IdempotencyRecord, expiredBefore, staleBefore int64) (storage.IdempotencyRecord, bool, error) {
	var cur storage.IdempotencyRecord
	claimed := false
	err := b.DB.Update(func(tx *storage.Tx) error {
		if err := tx.PruneIdempotency(expiredBefore, pruneChunk); err != nil {
			return err
		}
		found, err := tx.IdempotencyRecord(r.Account, r.Key, &cur)
		if err != nil || found && lives(&cur, expiredBefore, staleBefore) {
			return err
		}
		claimed = true
		c := *r
		c.Done, c.Response = false, nil
		return tx.PutIdempotencyRecord(&c)
	})
	return cur, claimed, err
}

// Finish stores r's answer.
func (b Bolt) Finish(ctx context.Context, r *storage.IdempotencyRecord) error {
	return b.DB.Update(func(tx *storage.Tx) error {
		var cur storage.IdempotencyRecord
		if found, err := tx.IdempotencyRecord(r.Account, r.Key, &cur); err != nil || !found || !same(&cur, r) {
			return err
		}
		c := *r
		c.Done, c.Object = true, cur.Object
		return tx.PutIdempotencyRecord(&c)
	})
}

// Abandon removes r's claim, unless it names an object.
func (b Bolt) Abandon(ctx context.Context, r *storage.IdempotencyRecord) error {
	return b.DB.Update(func(tx *storage.Tx) error {
		var cur storage.IdempotencyRecord
		if found, err := tx.IdempotencyRecord(r.Account, r.Key, &cur); err != nil || !found || !same(&cur, r) || cur.Done || cur.Object != "" {
			return err
		}
		return tx.DeleteIdempotencyRecord(r.Account, r.Key)
	})
}

// Redis keeps idempotency records in the Redis of the key store and the
// alert rules, one hash per account and key, under the connection's
// prefix:
//
//	idem:<len(account)>:<account>:<key>   hash: hash, created (Unix ms), done (0 or 1), response, object
//
// Redis expires each hash Expire after it is claimed (real time): the
// caller's clock decides whether a record lives, Redis's only reclaims
// the memory of the ones that no longer can.
type Redis struct{ C *redisconn.Conn }

// Expire is how long Redis keeps a record: longer than grocery keeps
// one alive.
const Expire = 25 * time.Hour

func (a Redis) key(account, key string) string { return RedisKey(a.C.Prefix, account, key) }

// RedisKey is the key of an account's record under a connection's prefix.
func RedisKey(prefix, account, key string) string {
	return prefix + "idem:" + strconv.Itoa(len(account)) + ":" + account + ":" + key
}

// ClaimLua is the Lua of a creation script that records its object in a
// claim: claimHeld(k, hash, created) is true when the record k is still
// that claim and names no object (the script then creates, else it
// returns without writing), and claimObject(k, object) records the
// object. A script that takes no claim passes k false.
const ClaimLua = `
local function claimHeld(k, hash, created)
  if not k then return true end
  local cur = redis.call('HMGET', k, 'hash', 'created', 'done', 'object')
  return cur[1] == hash and cur[2] == created and cur[3] == '0' and (not cur[4] or cur[4] == '')
end
local function claimObject(k, object)
  if k then redis.call('HSET', k, 'object', object) end
end
`

// beginScript claims a key unless its record lives.
//
//	KEYS  the record
//	ARGV  hash, created, expiredBefore, staleBefore, expiry (ms)
//
// It returns {1} when it claimed, else {0, hash, created, done, response,
// object}.
var beginScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'hash', 'created', 'done', 'response', 'object')
if cur[2] then
  local created = tonumber(cur[2])
  local object = cur[5] or ''
  if created >= tonumber(ARGV[3]) and (cur[3] == '1' or object ~= '' or created >= tonumber(ARGV[4])) then
    return {0, cur[1], cur[2], cur[3], cur[4] or '', object}
  end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'hash', ARGV[1], 'created', ARGV[2], 'done', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1}
`)

// finishScript stores the answer of a claim, or with ARGV[3] "" removes
// a claim not done that names no object, when the record is still that
// claim's.
//
//	KEYS  the record
//	ARGV  hash, created, response ("" to abandon)
var finishScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'hash', 'created', 'done', 'object')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  if cur[3] == '0' and (not cur[4] or cur[4] == '') then redis.call('DEL', KEYS[1]) end
  return 1
end
redis.call('HSET', KEYS[1], 'done', '1', 'response', ARGV[3])
return 1
`)

// Begin claims r's key in one script.
func (a Redis) Begin(ctx context.Context, r *storage.IdempotencyRecord, expiredBefore, staleBefore int64) (storage.IdempotencyRecord, bool, error) {
	res, err := beginScript.Run(ctx, a.C.Client, []string{a.key(r.Account, r.Key)}, r.Hash, r.Created, expiredBefore, staleBefore, Expire.Milliseconds()).Slice()
	if err != nil {
		return storage.IdempotencyRecord{}, false, a.C.Fail("idempotency store", err)
	}
	if n, _ := res[0].(int64); n == 1 || len(res) < 6 {
		return storage.IdempotencyRecord{}, true, nil
	}
	str := func(v any) string { s, _ := v.(string); return s }
	created, _ := strconv.ParseInt(str(res[2]), 10, 64)
	return storage.IdempotencyRecord{Account: r.Account, Key: r.Key, Hash: []byte(str(res[1])), Created: created,
		Done: str(res[3]) == "1", Response: []byte(str(res[4])), Object: str(res[5])}, false, nil
}

// Finish stores r's answer.
func (a Redis) Finish(ctx context.Context, r *storage.IdempotencyRecord) error {
	if len(r.Response) == 0 {
		return errors.New("idemstore: an empty answer cannot be stored")
	}
	return a.finish(ctx, r, r.Response)
}

// Abandon removes r's claim.
func (a Redis) Abandon(ctx context.Context, r *storage.IdempotencyRecord) error {
	return a.finish(ctx, r, nil)
}

func (a Redis) finish(ctx context.Context, r *storage.IdempotencyRecord, response []byte) error {
	err := finishScript.Run(ctx, a.C.Client, []string{a.key(r.Account, r.Key)}, r.Hash, r.Created, response).Err()
	if err != nil {
		return a.C.Fail("idempotency store", err)
	}
	return nil
}
