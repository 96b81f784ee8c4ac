package grocery

import (
	"context"

	"github.com/grocerydata/grocery/internal/access"
)

// Authenticate checks an API key and returns who is calling. A key of the
// wrong form is refused before any lookup; a well-formed one is found by
// its keyed hash, compared in constant time (or, with a shared store, looked up by
// the hash itself), so the time taken does not depend on how much of a
// wrong key matched. With a shared store the key is checked there on every call:
// a revocation through any server holds on the next request.
//
// It returns EUNAUTHENTICATED for a missing, malformed, unknown or revoked
// key, EPLANREQUIRED when the account's plan does not open iface (REST needs
// the integration plan), and EUNAVAILABLE when the shared key store does
// not answer.
func (s *Service) Authenticate(ctx context.Context, key string, iface Interface) (*Principal, error) {
	return s.authenticate(ctx, key, access.Call{REST: iface == InterfaceREST})
}

// AuthenticateMetered is Authenticate for a request that is charged one
// call: the next Consume of the returned principal charges it. With a shared store
// the check and the charge are one round trip (one script), done here,
// and that Consume returns its outcome without a second one. A server
// calls it instead of Authenticate when it knows the request is metered.
//
// It returns the errors of Authenticate; a call over quota is reported by
// Consume, not here.
func (s *Service) AuthenticateMetered(ctx context.Context, key string, iface Interface) (*Principal, error) {
	return s.authenticate(ctx, key, access.Call{REST: iface == InterfaceREST, Charge: true})
}

func (s *Service) authenticate(ctx context.Context, key string, call access.Call) (*Principal, error) {
	p, err := s.access.Authenticate(ctx, key, call)
	if err != nil {
		return nil, fromFault(err)
	}
	return &Principal{KeyID: p.KeyID, Account: p.Account, Plan: Plan(p.Plan), in: p}, nil
}

// Consume charges one call to the principal's account and returns its
// quota after the call. Every call is counted, the rejected ones too, so
// retrying never restores allowance; the allowance comes back when the
// window resets at the start of the next month (UTC). For a principal of
// AuthenticateMetered, the first Consume returns the charge made there.
//
// It returns EQUOTA, with the Usage (Remaining 0, Reset) beside it, when
// the call is over the account's monthly quota, EUNAUTHENTICATED when the
// key was revoked since (the shared store) or p is nil, and EUNAVAILABLE when the key
// store (the shared store) does not answer: the call is then refused, never free.
func (s *Service) Consume(ctx context.Context, p *Principal) (Usage, error) {
	var in *access.Principal
	if p != nil {
		in = p.in
	}
	u, err := s.access.Consume(ctx, in)
	return Usage(u), fromFault(err)
}

// UsageOf returns an account's quota in the current window without
// charging a call.
//
// It returns ENOTFOUND for an unknown account and EUNAVAILABLE when the
// shared key store does not answer.
func (s *Service) UsageOf(ctx context.Context, accountName string) (Usage, error) {
	u, err := s.access.UsageOf(ctx, accountName)
	return Usage(u), fromFault(err)
}

// UsageDays is how many days AccountUsage reports, today included.
const UsageDays = 30

// AccountUsage returns an account's quota in the current window and its
// calls on each of the last UsageDays days (UTC, today last), without
// charging a call. A day's count includes the calls not yet written to
// the data file; a call is counted on the day (UTC) it was made.
//
// It returns ENOTFOUND for an unknown account and EUNAVAILABLE when the
// shared key store does not answer.
func (s *Service) AccountUsage(ctx context.Context, accountName string) (*AccountUsage, error) {
	u, err := s.access.UsageOf(ctx, accountName)
	if err != nil {
		return nil, fromFault(err)
	}
	days, err := s.access.UsageDays(ctx, accountName, UsageDays)
	if err != nil {
		return nil, fromFault(err)
	}
	res := &AccountUsage{Usage: Usage(u), Days: make([]DayUsage, len(days))}
	for i, d := range days {
		res.Days[i] = DayUsage{Date: DateOf(d.Day), Calls: d.Calls}
	}
	return res, nil
}

// CreateKey creates an API key for an account, creating the account when
// it is new. The returned NewKey.Key is shown once and never stored.
//
// It returns EINVALIDARGUMENT for a malformed account name, an unknown plan
// (naming the valid plans), a missing plan for a new account or a negative
// quota, and EUNAVAILABLE when the shared key store does not answer.
func (s *Service) CreateKey(ctx context.Context, in KeyInput) (*NewKey, error) {
	k, err := s.access.CreateKey(ctx, access.KeyInput(in))
	if err != nil {
		return nil, fromFault(err)
	}
	return (*NewKey)(k), nil
}

// RevokeKey revokes a key, given as its full text, its public id, or the
// prefix and id ListKeys shows (gro_pk_<id>). The next request with it
// fails, on every server that shares the key store. Revoking a revoked
// key changes nothing.
//
// It returns ENOTFOUND when no key matches and EUNAVAILABLE when the key
// store (the shared store) does not answer.
func (s *Service) RevokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error) {
	k, err := s.access.RevokeKey(ctx, keyOrID)
	if err != nil {
		return nil, fromFault(err)
	}
	return (*KeyInfo)(k), nil
}

// ListKeys returns every key, by account and creation time. It never
// returns a key's secret.
//
// It returns EUNAVAILABLE when the shared key store does not answer.
func (s *Service) ListKeys(ctx context.Context) ([]KeyInfo, error) {
	keys, err := s.access.ListKeys(ctx)
	if err != nil {
		return nil, fromFault(err)
	}
	out := make([]KeyInfo, len(keys))
	for i, k := range keys {
		out[i] = KeyInfo(k)
	}
	return out, nil
}
