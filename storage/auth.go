package storage

import (
	"crypto/rand"
	"encoding/binary"
)

// Account is a customer account: a plan and, optionally, its own quota.
type Account struct {
	Name    string
	Plan    string
	Quota   int64 // calls a month; 0 means the plan's
	Created int64 // Unix seconds
}

// Key is an API key, stored as a keyed hash: the key itself is never
// stored.
type Key struct {
	ID       string // public part of the key
	Account  string
	Hash     []byte // HMAC-SHA256 of the whole key
	Created  int64  // Unix seconds
	LastUsed int64  // Unix seconds, 0 if never
	Revoked  int64  // Unix seconds, 0 if not revoked
}

// Account reads an account.
func (t *Tx) Account(name string, a *Account) (bool, error) {
	v := t.accounts().Get([]byte(name))
	if v == nil {
		return false, nil
	}
	return true, decodeAccount(name, v, a)
}

func decodeAccount(name string, v []byte, a *Account) error {
	d := dec{b: v}
	*a = Account{Name: name, Plan: d.str(), Quota: d.varint(), Created: d.varint()}
	return d.err
}

// PutAccount writes an account.
func (t *Tx) PutAccount(a *Account) error {
	return t.put(t.accounts(), []byte(a.Name), enc(nil).str(a.Plan).varint(a.Quota).varint(a.Created))
}

// ForEachAccount calls fn for every account, by name.
func (t *Tx) ForEachAccount(fn func(a *Account) error) error {
	var a Account
	return t.accounts().ForEach(func(k, v []byte) error {
		if err := decodeAccount(string(k), v, &a); err != nil {
			return err
		}
		return stopped(fn(&a))
	})
}

// Key reads a key by its public id.
func (t *Tx) Key(id string, k *Key) (bool, error) {
	v := t.keys().Get([]byte(id))
	if v == nil {
		return false, nil
	}
	return true, decodeKey(id, v, k)
}

func decodeKey(id string, v []byte, k *Key) error {
	d := dec{b: v}
	*k = Key{ID: id, Account: d.str(), Hash: []byte(d.str()), Created: d.varint(), LastUsed: d.varint(), Revoked: d.varint()}
	return d.err
}

// PutKey writes a key.
func (t *Tx) PutKey(k *Key) error {
	v := enc(nil).str(k.Account).str(string(k.Hash)).varint(k.Created).varint(k.LastUsed).varint(k.Revoked)
	return t.put(t.keys(), []byte(k.ID), v)
}

// ForEachKey calls fn for every key, by id.
func (t *Tx) ForEachKey(fn func(k *Key) error) error {
	var k Key
	return t.keys().ForEach(func(id, v []byte) error {
		if err := decodeKey(string(id), v, &k); err != nil {
			return err
		}
		return stopped(fn(&k))
	})
}

func usageKey(account string, window uint32) []byte {
	return binary.BigEndian.AppendUint32(appendStr0(make([]byte, 0, len(account)+5), account), window)
}

// Usage returns the calls counted for an account in a window.
func (t *Tx) Usage(account string, window uint32) (uint64, error) {
	v := t.usage().Get(usageKey(account, window))
	if v == nil {
		return 0, nil
	}
	d := dec{b: v}
	n := d.uvarint()
	return n, d.err
}

// PutUsage records the calls counted for an account in a window. It stores
// the count, not an increment, so writing it again is harmless.
func (t *Tx) PutUsage(account string, window uint32, used uint64) error {
	return t.put(t.usage(), usageKey(account, window), enc(nil).uvarint(used))
}

// UsageWindows calls fn, in order, for each window from from to to
// (inclusive) in which calls were counted for an account. A window is a
// month (yyyymm) or a day (yyyymmdd): both share the bucket, as their
// numbers never meet.
func (t *Tx) UsageWindows(account string, from, to uint32, fn func(window uint32, used uint64) error) error {
	prefix := appendStr0(make([]byte, 0, len(account)+1), account)
	c := t.usage().Cursor()
	for k, v := c.Seek(usageKey(account, from)); hasPrefix(k, prefix) && len(k) == len(prefix)+4; k, v = c.Next() {
		w := binary.BigEndian.Uint32(k[len(prefix):])
		if w > to {
			break
		}
		d := dec{b: v}
		n := d.uvarint()
		if d.err != nil {
			return d.err
		}
		if err := fn(w, n); err != nil {
			return stopped(err)
		}
	}
	return nil
}

// KeySecret returns the secret API keys are hashed with, creating it on
// first use in a writable transaction.
func (t *Tx) KeySecret() ([]byte, error) {
	if v := t.meta().Get(keySecret); len(v) == 32 {
		return append([]byte(nil), v...), nil
	}
	if !t.tx.Writable() {
		return nil, nil
	}
	s := make([]byte, 32)
	if _, err := rand.Read(s); err != nil {
		return nil, err
	}
	return s, t.put(t.meta(), keySecret, s)
}
