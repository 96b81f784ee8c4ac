package alertredis

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/grocerydata/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/storage"
	"github.com/redis/go-redis/v9"
)

// Idempotency keeps idempotency records in the Redis of the key store and the
// alert rules, one hash per account and key, under the connection's
// prefix:
//
//	idem:<len(account)>:<account>:<key>   hash: hash, created (Unix ms), done (0 or 1), response, object
//
// Redis expires each hash Expire after it is claimed (real time): the
// caller's clock decides whether a record lives, Redis's only reclaims
// the memory of the ones that no longer can.
type Idempotency struct{ C *redisconn.Conn }

// IdemExpire is how long Redis keeps a record: longer than grocery keeps
// one alive.
const IdemExpire = 25 * time.Hour

func (a Idempotency) key(account, key string) string { return idemKey(a.C.Prefix, account, key) }

// idemKey is the key of an account's record under a connection's prefix.
func idemKey(prefix, account, key string) string {
	return prefix + "idem:" + strconv.Itoa(len(account)) + ":" + account + ":" + key
}

// claimLua is the Lua of a creation script that records its object in a
// claim: claimHeld(k, hash, created) is true when the record k is still
// that claim and names no object (the script then creates, else it
// returns without writing), and claimObject(k, object) records the
// object. A script that takes no claim passes k false.
const claimLua = `
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
func (a Idempotency) Begin(ctx context.Context, r *storage.IdempotencyRecord, expiredBefore, staleBefore int64) (storage.IdempotencyRecord, bool, error) {
	res, err := beginScript.Run(ctx, a.C.Client, []string{a.key(r.Account, r.Key)}, r.Hash, r.Created, expiredBefore, staleBefore, IdemExpire.Milliseconds()).Slice()
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
func (a Idempotency) Finish(ctx context.Context, r *storage.IdempotencyRecord) error {
	if len(r.Response) == 0 {
		return errors.New("idemstore: an empty answer cannot be stored")
	}
	return a.finish(ctx, r, r.Response)
}

// Abandon removes r's claim.
func (a Idempotency) Abandon(ctx context.Context, r *storage.IdempotencyRecord) error {
	return a.finish(ctx, r, nil)
}

func (a Idempotency) finish(ctx context.Context, r *storage.IdempotencyRecord, response []byte) error {
	err := finishScript.Run(ctx, a.C.Client, []string{a.key(r.Account, r.Key)}, r.Hash, r.Created, response).Err()
	if err != nil {
		return a.C.Fail("idempotency store", err)
	}
	return nil
}
