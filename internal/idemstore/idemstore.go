// Package idemstore keeps grocery's idempotency records (a request made
// with an idempotency key and its answer, per account), in storage's
// vocabulary (storage.IdempotencyRecord): the Store interface and the data
// file's store (Bolt), and RequestHash, a request's hash. A shared store
// (Redis, in package alertredis) keeps them where the alert rules are. It
// imports nothing from grocery; what a record means (its expiry) is grocery's.
package idemstore

import (
	"context"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/grocerydata/grocery/storage"
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
