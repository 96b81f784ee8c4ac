package grocery

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grocerydata/grocery/internal/access"
	"github.com/grocerydata/grocery/internal/fault"
)

// Plan is a subscription plan: the interfaces it opens and its quota.
type Plan struct {
	Name     string `json:"plan"`
	Quota    int64  `json:"quota"`     // calls per calendar month (UTC), shared by MCP and REST
	REST     bool   `json:"rest"`      // REST access besides MCP
	PriceCAD *int   `json:"price_cad"` // monthly fee in CAD; nil (JSON null) when not published
}

// DefaultPlans returns the plans used when Options.Plans is empty:
// starter (MCP, 1,000 calls a month), professional (MCP, 25,000) and
// integration (MCP and REST, 1,000,000; 4,999 CAD a month).
func DefaultPlans() []Plan {
	integrationFee := 4999
	return []Plan{
		{Name: "starter", Quota: 1_000},
		{Name: "professional", Quota: 25_000},
		{Name: "integration", Quota: 1_000_000, REST: true, PriceCAD: &integrationFee},
	}
}

// Interface names the interface a key is used on.
type Interface int

// The interfaces a key can be used on.
const (
	InterfaceMCP Interface = iota
	InterfaceREST
)

// DefaultKeyPrefix is the prefix of API keys when Options.KeyPrefix is "".
const DefaultKeyPrefix = "gro"

// Principal is an authenticated caller: the key it used, its account and
// the account's plan.
type Principal struct {
	KeyID   string
	Account string
	Plan    Plan

	// in is the key store's principal, to charge the caller.
	in *access.Principal
}

type principalKey struct{}

// NewContextWithPrincipal returns a copy of ctx carrying p.
func NewContextWithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the principal ctx carries, or nil.
func PrincipalFromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Usage is an account's quota in the current window: the calendar month
// in UTC.
type Usage struct {
	Account   string    `json:"account"`
	Plan      string    `json:"plan"`
	Limit     int64     `json:"limit"`     // calls allowed this month
	Used      int64     `json:"used"`      // calls made this month, rejected ones included
	Remaining int64     `json:"remaining"` // calls left: Limit - Used, at least 0
	Reset     time.Time `json:"reset"`     // when the next window starts

	// RetryAfter is how long until Reset, set when a call was refused for
	// quota: what a client should wait (HTTP Retry-After).
	RetryAfter time.Duration `json:"-"`
}

// AccountUsage is the answer of Service.AccountUsage: an account's quota
// in the current window and its calls day by day.
type AccountUsage struct {
	Usage
	Days []DayUsage `json:"days"` // the last UsageDays days, oldest first, days without calls included
}

// DayUsage is an account's calls on one day (UTC), rejected ones
// included.
type DayUsage struct {
	Date  Date  `json:"date"`
	Calls int64 `json:"calls"`
}

// KeyInput holds the arguments of CreateKey.
type KeyInput struct {
	Account string `json:"account"`
	Plan    string `json:"plan,omitempty"`  // required for a new account; changes an existing account's plan
	Quota   int64  `json:"quota,omitempty"` // calls a month for this account, overriding its plan's; 0 keeps it
}

// NewKey is a created key. Key is the only time the key's text is shown:
// the data file keeps only a keyed hash of it.
type NewKey struct {
	Key     string    `json:"key"`
	ID      string    `json:"id"`
	Account string    `json:"account"`
	Plan    string    `json:"plan"`
	Limit   int64     `json:"limit"` // the account's monthly quota
	Created time.Time `json:"created"`
}

// KeyInfo describes a key without its secret.
type KeyInfo struct {
	ID       string     `json:"id"`
	Prefix   string     `json:"prefix"` // the key's visible start, e.g. "gro_pk_Ab12Cd34"
	Account  string     `json:"account"`
	Plan     string     `json:"plan"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used"` // null if never used
	Revoked  *time.Time `json:"revoked"`   // null while valid
}

// Plans returns the plans keys can be created on.
func (s *Service) Plans() []Plan {
	in := s.access.Plans()
	out := make([]Plan, len(in))
	for i, p := range in {
		out[i] = Plan(p)
	}
	return out
}

// accessConfig is the configuration of the key stores: opts's key prefix
// and plans, or their defaults, and the service's clock and log.
func (s *Service) accessConfig(opts *Options) access.Config {
	prefix, plans := opts.KeyPrefix, opts.Plans
	if prefix == "" {
		prefix = DefaultKeyPrefix
	}
	if len(plans) == 0 {
		plans = DefaultPlans()
	}
	c := access.Config{KeyPrefix: prefix, Now: s.now, Log: s.log}
	for _, p := range plans {
		c.Plans = append(c.Plans, access.Plan(p))
	}
	return c
}

// ParsePlanQuotas returns the default plans with the monthly calls that
// spec sets, as in GROCERY_PLAN_QUOTAS: "starter=2000,integration=5_000_000".
// It returns EINVALIDARGUMENT naming the valid plans for an unknown plan, and for a
// size that is not a positive whole number.
func ParsePlanQuotas(spec string) ([]Plan, error) {
	plans := DefaultPlans()
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, num, _ := strings.Cut(item, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		i := slices.IndexFunc(plans, func(p Plan) bool { return p.Name == name })
		if i < 0 {
			return nil, Errorf(EINVALIDARGUMENT, "plan quotas: unknown plan %q: want PLAN=CALLS,... with PLAN one of %s", name, planNames(plans))
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(num), "_", ""), 10, 64)
		if err != nil || n <= 0 {
			return nil, Errorf(EINVALIDARGUMENT, "plan quotas: %q: want a positive whole number of calls a month for %s", item, name)
		}
		plans[i].Quota = n
	}
	return plans, nil
}

// planNames lists the plans' names, for a message.
func planNames(plans []Plan) string {
	names := make([]string, len(plans))
	for i, p := range plans {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// validPrefix reports whether p can start an API key.
func validPrefix(p string) bool {
	if len(p) == 0 || len(p) > 16 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// faultCodes are the codes of the internal packages' fault kinds.
var faultCodes = map[fault.Kind]string{
	fault.Internal:        EINTERNAL,
	fault.Invalid:         EINVALIDARGUMENT,
	fault.NotFound:        ENOTFOUND,
	fault.Unauthenticated: EUNAUTHENTICATED,
	fault.Forbidden:       EPLANREQUIRED,
	fault.Quota:           EQUOTA,
	fault.Conflict:        ECONFLICT,
	fault.Unavailable:     EUNAVAILABLE,
}

// fromFault converts an internal package's *fault.Error, when err is one,
// to the *Error of its kind; any other error is returned as it is.
func fromFault(err error) error {
	if f, ok := err.(*fault.Error); ok {
		return &Error{Code: faultCodes[f.Kind], Message: f.Message}
	}
	return err
}
