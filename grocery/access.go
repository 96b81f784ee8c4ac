package grocery

import (
	"cmp"
	"context"
	"strings"
)

// accessStore keeps API keys, accounts and quota counters. There are two:
// boltAccess, the data file's own (the default: one process holds keys and
// counters in memory and flushes them to the file), and redisAccess, a
// Redis server that several servers share (Options.RedisURL), so that
// every one of them sees one quota per account and a revocation on its
// next request.
//
// authenticate with charge set may charge the call at once (redisAccess
// does, in the same round trip as the check): it then records the outcome
// in the principal, and Service.Consume returns it without charging again.
type accessStore interface {
	authenticate(ctx context.Context, key string, iface Interface, charge bool) (*Principal, error)
	consume(ctx context.Context, p *Principal) (Usage, error)
	usageOf(ctx context.Context, account string) (Usage, error)
	accountExists(ctx context.Context, account string) (bool, error)
	createKey(ctx context.Context, in KeyInput) (*NewKey, error)
	revokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error)
	listKeys(ctx context.Context) ([]KeyInfo, error)
	close() error
}

// boltAccess is the accessStore of the data file: the keyring in memory,
// the meter flushing counts to the file (auth.go, meter.go, journal.go).
type boltAccess struct{ *Service }

func (s boltAccess) accountExists(ctx context.Context, account string) (bool, error) {
	s.keyring.mu.RLock()
	_, ok := s.keyring.accounts[account]
	s.keyring.mu.RUnlock()
	return ok, nil
}

func (s boltAccess) close() error { return nil }

// charged is the outcome of a call charged by authenticate, for the next
// Consume of the principal to return.
type charged struct {
	usage Usage
	err   error
}

// Authenticate checks an API key and returns who is calling. A key of the
// wrong form is refused before any lookup; a well-formed one is found by
// its keyed hash, compared in constant time (or, with Redis, looked up by
// the hash itself), so the time taken does not depend on how much of a
// wrong key matched. With Redis the key is checked there on every call:
// a revocation through any server holds on the next request.
//
// It returns EUNAUTHENTICATED for a missing, malformed, unknown or revoked
// key, EFORBIDDEN when the account's plan does not open iface (REST needs
// the integration plan), and EUNAVAILABLE when the key store (Redis) does
// not answer.
func (s *Service) Authenticate(ctx context.Context, key string, iface Interface) (*Principal, error) {
	return s.access.authenticate(ctx, key, iface, false)
}

// AuthenticateMetered is Authenticate for a request that is charged one
// call: the next Consume of the returned principal charges it. With Redis
// the check and the charge are one round trip (one script), done here,
// and that Consume returns its outcome without a second one. A server
// calls it instead of Authenticate when it knows the request is metered.
//
// It returns the errors of Authenticate; a call over quota is reported by
// Consume, not here.
func (s *Service) AuthenticateMetered(ctx context.Context, key string, iface Interface) (*Principal, error) {
	return s.access.authenticate(ctx, key, iface, true)
}

// Consume charges one call to the principal's account and returns its
// quota after the call. Every call is counted, the rejected ones too, so
// retrying never restores allowance; the allowance comes back when the
// window resets at the start of the next month (UTC). For a principal of
// AuthenticateMetered, the first Consume returns the charge made there.
//
// It returns EQUOTA, with the Usage (Remaining 0, Reset) beside it, when
// the call is over the account's monthly quota, EUNAUTHENTICATED when the
// key was revoked since (Redis) or p is nil, and EUNAVAILABLE when the key
// store (Redis) does not answer: the call is then refused, never free.
func (s *Service) Consume(ctx context.Context, p *Principal) (Usage, error) {
	if p != nil && p.charged != nil {
		c := p.charged
		p.charged = nil
		return c.usage, c.err
	}
	return s.access.consume(ctx, p)
}

// UsageOf returns an account's quota in the current window without
// charging a call.
//
// It returns ENOTFOUND for an unknown account and EUNAVAILABLE when the
// key store (Redis) does not answer.
func (s *Service) UsageOf(ctx context.Context, accountName string) (Usage, error) {
	return s.access.usageOf(ctx, accountName)
}

// CreateKey creates an API key for an account, creating the account when
// it is new. The returned NewKey.Key is shown once and never stored.
//
// It returns EINVALID for a malformed account name, an unknown plan
// (naming the valid plans), a missing plan for a new account or a negative
// quota, and EUNAVAILABLE when the key store (Redis) does not answer.
func (s *Service) CreateKey(ctx context.Context, in KeyInput) (*NewKey, error) {
	return s.access.createKey(ctx, in)
}

// RevokeKey revokes a key, given as its full text, its public id, or the
// prefix and id ListKeys shows (gro_pk_<id>). The next request with it
// fails, on every server that shares the key store. Revoking a revoked
// key changes nothing.
//
// It returns ENOTFOUND when no key matches and EUNAVAILABLE when the key
// store (Redis) does not answer.
func (s *Service) RevokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error) {
	return s.access.revokeKey(ctx, keyOrID)
}

// ListKeys returns every key, by account and creation time. It never
// returns a key's secret.
//
// It returns EUNAVAILABLE when the key store (Redis) does not answer.
func (s *Service) ListKeys(ctx context.Context) ([]KeyInfo, error) {
	return s.access.listKeys(ctx)
}

// byAccountCreated orders the keys of listKeys, for either store: by
// account, then oldest first, then by id.
func byAccountCreated(a, b KeyInfo) int {
	return cmp.Or(strings.Compare(a.Account, b.Account), a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
}
