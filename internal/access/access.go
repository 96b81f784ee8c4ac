// Package access keeps grocery's API keys, accounts and quota counters: the
// Keyring (keys found by their keyed hash), the quota meter with its usage
// journal, and the two stores they live in, the data file's (Bolt) and a
// shared Redis (Redis), with the Lua scripts that make each metered call
// one round trip. It imports nothing from grocery: grocery converts its
// types and its fault kinds at the edge.
package access

import (
	"cmp"
	"context"
	"log/slog"
	"strings"
	"time"
)

// Store keeps API keys, accounts and quota counters. There are two: Bolt,
// the data file's own (one process holds keys and counters in memory and
// flushes them to the file), and Redis, a Redis server that several
// servers share, so that every one of them sees one quota per account and
// a revocation on its next request.
//
// Authenticate with Call.Charge set may charge the call at once (Redis does, in
// the same round trip as the check): it then records the outcome in the
// principal, and the next Consume of it returns that outcome without
// charging again.
type Store interface {
	Authenticate(ctx context.Context, key string, call Call) (*Principal, error)
	Consume(ctx context.Context, p *Principal) (Usage, error)
	UsageOf(ctx context.Context, account string) (Usage, error)
	// UsageDays returns an account's calls on each of the n days up to
	// today (UTC), oldest first, a day without calls included.
	UsageDays(ctx context.Context, account string, n int) ([]DayUsage, error)
	AccountExists(ctx context.Context, account string) (bool, error)
	CreateKey(ctx context.Context, in KeyInput) (*NewKey, error)
	RevokeKey(ctx context.Context, keyOrID string) (*KeyInfo, error)
	ListKeys(ctx context.Context) ([]KeyInfo, error)
	// Plans returns the plans keys can be created on.
	Plans() []Plan
	Close() error
}

// Call is what a call is authenticated for.
type Call struct {
	REST   bool // it comes through REST, which only some plans open
	Charge bool // charge it now (Redis does, in the same round trip as the check)
}

// Config is what both stores are opened with.
type Config struct {
	KeyPrefix string           // starts every API key, e.g. "gro"
	Plans     []Plan           // the plans keys can be created on; not empty
	Now       func() time.Time // the clock
	Log       *slog.Logger     // may be nil
}

// Plan is a subscription plan: the interfaces it opens and its quota (as
// grocery.Plan).
type Plan struct {
	Name     string
	Quota    int64
	REST     bool
	PriceCAD *int
}

// Usage is an account's quota in the current window, the calendar month in
// UTC (as grocery.Usage).
type Usage struct {
	Account    string
	Plan       string
	Limit      int64
	Used       int64
	Remaining  int64
	Reset      time.Time
	RetryAfter time.Duration
}

// DayUsage is an account's calls on one day (UTC), rejected ones
// included.
type DayUsage struct {
	Day   time.Time // midnight UTC
	Calls int64
}

// LastDays returns the n days up to now's (UTC), oldest first, each
// with its yyyymmdd.
func LastDays(now time.Time, n int) ([]DayUsage, []uint32) {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	days, ids := make([]DayUsage, n), make([]uint32, n)
	for i := range days {
		days[i].Day = today.AddDate(0, 0, i-n+1)
		ids[i] = DayOf(days[i].Day)
	}
	return days, ids
}

// KeyInput holds the arguments of CreateKey (as grocery.KeyInput).
type KeyInput struct {
	Account string
	Plan    string
	Quota   int64
}

// NewKey is a created key, with its text (as grocery.NewKey).
type NewKey struct {
	Key     string
	ID      string
	Account string
	Plan    string
	Limit   int64
	Created time.Time
}

// KeyInfo describes a key without its secret (as grocery.KeyInfo).
type KeyInfo struct {
	ID       string
	Prefix   string
	Account  string
	Plan     string
	Created  time.Time
	LastUsed *time.Time
	Revoked  *time.Time
}

// Principal is an authenticated caller: the key it used, its account and
// the account's plan, and what the store needs to charge it.
type Principal struct {
	KeyID   string
	Account string
	Plan    Plan
	acct    *account
	KeyHash string   // Redis: the key's keyed hash, hex, to check it again at Consume
	charged *charged // set by Authenticate when it charged the call
}

// charged is the outcome of a call charged by Authenticate, for the next
// Consume of the principal to return.
type charged struct {
	usage Usage
	err   error
}

// SetCharged records in p the outcome of the call a store's Authenticate
// charged, for the next Consume of p to return (TakeCharged).
func (p *Principal) SetCharged(u Usage, err error) { p.charged = &charged{usage: u, err: err} }

// TakeCharged returns, once, the outcome of the call Authenticate charged.
func (p *Principal) TakeCharged() (Usage, error, bool) {
	if p == nil || p.charged == nil {
		return Usage{}, nil, false
	}
	c := p.charged
	p.charged = nil
	return c.usage, c.err, true
}

// ByAccountCreated orders the keys of ListKeys, for either store: by
// account, then oldest first, then by id.
func ByAccountCreated(a, b KeyInfo) int {
	return cmp.Or(strings.Compare(a.Account, b.Account), a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
}
