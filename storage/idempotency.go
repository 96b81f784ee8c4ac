package storage

import (
	"encoding/binary"
	"errors"
	"math"
)

// IdempotencyRecord is an account's record of a request made with an
// idempotency key: a hash of the request, when it was first made, and,
// once it is done, its answer. What the fields mean (expiry, hashing) is
// package grocery's.
type IdempotencyRecord struct {
	Account, Key string
	Hash         []byte
	Created      int64 // Unix milliseconds
	Done         bool  // Response holds the answer; false while the first request runs
	Response     []byte
	// Object names what the request created ("alert:12"), written in the
	// transaction that created it: a request that resumes the key after
	// the first died before its answer was kept answers with it.
	Object string
}

func idemKey(account, key string) []byte {
	return append(appendStr0(make([]byte, 0, len(account)+len(key)+1), account), key...)
}

func idemExpiryKey(created int64, account, key string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(created, 0))), idemKey(account, key)...)
}

// errNoIdem is the error of a write to the idempotency records in a
// read-only transaction of a file that lacks their buckets.
var errNoIdem = errors.New("storage: the idempotency records are written only in a writable transaction")

// IdempotencyRecord reads the record of an account's key.
func (t *Tx) IdempotencyRecord(account, key string, r *IdempotencyRecord) (bool, error) {
	if t.idem() == nil {
		return false, nil // a read-only open of a file without the bucket
	}
	v := t.idem().Get(idemKey(account, key))
	if v == nil {
		return false, nil
	}
	d := dec{b: v}
	*r = IdempotencyRecord{Account: account, Key: key, Hash: []byte(d.str()), Created: d.varint(), Done: d.bool(), Response: []byte(d.str())}
	if d.err == nil && len(d.b) > 0 { // records written before Object was added end here
		r.Object = d.str()
	}
	return true, d.err
}

// PutIdempotencyRecord writes the record of an account's key, replacing
// the one there (and its place in the age index).
func (t *Tx) PutIdempotencyRecord(r *IdempotencyRecord) error {
	if t.idem() == nil {
		return errNoIdem
	}
	if err := t.DeleteIdempotencyRecord(r.Account, r.Key); err != nil {
		return err
	}
	v := enc(nil).str(string(r.Hash)).varint(r.Created).bool(r.Done).str(string(r.Response)).str(r.Object)
	if err := t.put(t.idem(), idemKey(r.Account, r.Key), v); err != nil {
		return err
	}
	return t.put(t.idemExpiry(), idemExpiryKey(r.Created, r.Account, r.Key), nil)
}

// DeleteIdempotencyRecord removes the record of an account's key, if any.
func (t *Tx) DeleteIdempotencyRecord(account, key string) error {
	var old IdempotencyRecord
	found, err := t.IdempotencyRecord(account, key, &old)
	if err != nil || !found {
		return err
	}
	if err := t.idemExpiry().Delete(idemExpiryKey(old.Created, account, key)); err != nil {
		return err
	}
	return t.idem().Delete(idemKey(account, key))
}

// PruneIdempotency removes up to n records, of any account, made before
// before (Unix milliseconds), oldest first.
func (t *Tx) PruneIdempotency(before int64, n int) error {
	if t.idemExpiry() == nil {
		return errNoIdem
	}
	c := t.idemExpiry().Cursor()
	for k, _ := c.First(); k != nil && n > 0; k, _ = c.First() {
		if len(k) < 9 || int64(min(binary.BigEndian.Uint64(k), math.MaxInt64)) >= before {
			return nil
		}
		if err := t.idem().Delete(k[8:]); err != nil {
			return err
		}
		if err := c.Delete(); err != nil {
			return err
		}
		n--
	}
	return nil
}
