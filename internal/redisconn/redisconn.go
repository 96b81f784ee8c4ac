// Package redisconn is grocery's connection to Redis: a client dialled
// without retries, the key prefix every name is built on, the mapping of
// the client's errors to fault kinds (fault.Unavailable when Redis does
// not answer or cannot serve now) and the redaction of a URL's password.
package redisconn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grocerydata/grocery/internal/fault"
	"github.com/redis/go-redis/v9"
)

// DefaultPrefix starts every key grocery keeps in Redis unless Dial is
// given another.
const DefaultPrefix = "grocery:"

// Conn is a client of one Redis with the prefix of grocery's keys there.
type Conn struct {
	Client *redis.Client
	Addr   string // host:port, for messages
	Prefix string // starts every key, e.g. "grocery:"
	log    *slog.Logger
	// authLogged: the log said once that Redis refuses the credentials.
	authLogged atomic.Bool
	closeOnce  sync.Once
	closeErr   error
}

// Dial returns a client of the Redis at url whose keys start with prefix
// (DefaultPrefix when ""); log, when not nil, hears of refused
// credentials. It does not touch the network. It returns a fault.Invalid
// for a malformed URL, its password redacted.
//
// A metered call must never run twice, so the client never retries (a
// retried script that had run would count a call twice), and its short
// timeouts make a Redis gone away fail calls quickly; the pool redials by
// itself.
func Dial(url, prefix string, log *slog.Logger) (*Conn, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fault.New(fault.Invalid, "Redis URL %q: %s: want redis://[user:password@]host:port/db", Redact(url), strings.ReplaceAll(err.Error(), url, Redact(url)))
	}
	o.MaxRetries = -1
	o.DialerRetries = 1
	o.DialTimeout = time.Second
	o.ReadTimeout = time.Second
	o.WriteTimeout = time.Second
	o.PoolTimeout = 2 * time.Second
	if prefix == "" {
		prefix = DefaultPrefix
	}
	silenceClient.Do(func() { redis.SetLogger(discard{}) })
	return &Conn{Client: redis.NewClient(o), Addr: o.Addr, Prefix: prefix, log: log}, nil
}

// silenceClient turns off the client library's own log, once per
// process: it writes a failed dial to stderr with its pool's internals
// ("pool.go:770: redis: connection pool: failed to dial ...") before it
// returns the same failure to the call, which Fail maps to a message
// grocery reports (and a server logs). The library's logger is global.
var silenceClient sync.Once

type discard struct{}

func (discard) Printf(context.Context, string, ...any) {}

// Close closes the client; a second Close does nothing and returns the
// first one's error, so that each store sharing the connection may close it.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() { c.closeErr = c.Client.Close() })
	return c.closeErr
}

// Redact drops a password from a Redis URL for an error message.
func Redact(u string) string {
	if at := strings.LastIndex(u, "@"); at >= 0 {
		if i := strings.Index(u, "://"); i >= 0 && i < at {
			return u[:i+3] + "...@" + u[at+1:]
		}
	}
	return u
}

// AuthRefusal reports whether err is Redis refusing the client's
// credentials (WRONGPASS, NOAUTH, NOPERM), and that reply's first word.
func AuthRefusal(err error) (string, bool) {
	msg := err.Error()
	for _, word := range []string{"WRONGPASS", "NOAUTH", "NOPERM"} {
		if strings.Contains(msg, word) {
			return word, true
		}
	}
	return "", false
}

// StartFailure maps an error met while opening, when the operator's
// configuration is said as it is: refused credentials are a fault.Invalid
// naming them; anything else is Fail's.
func (c *Conn) StartFailure(what string, err error) error {
	if word, ok := AuthRefusal(err); ok {
		return fault.New(fault.Invalid, "Redis at %s refused the credentials of the Redis URL (%s): check the user and password in it (redis://user:password@host:port/db), or Redis's ACL", c.Addr, word)
	}
	return c.Fail(what, err)
}

// CheckPolicy refuses a Redis that evicts any key when full (an
// allkeys-* maxmemory-policy), which would silently drop API keys,
// accounts and the key secret, with a fault.Invalid. A Redis whose CONFIG
// is renamed away (a managed Redis) is not checked.
func (c *Conn) CheckPolicy(ctx context.Context) error {
	policy, err := c.Client.ConfigGet(ctx, "maxmemory-policy").Result()
	if err == nil && strings.HasPrefix(policy["maxmemory-policy"], "allkeys-") {
		return fault.New(fault.Invalid, "Redis at %s has maxmemory-policy %s: when full it evicts any key, and would silently drop API keys, accounts and the key secret; set maxmemory-policy noeviction (or a volatile-* policy)", c.Addr, policy["maxmemory-policy"])
	}
	return nil
}

// Refused ends the message of a fault.Unavailable of Redis.
const Refused = fault.Refused

// CannotServe is the fault.Unavailable of the store named what ("key
// store", "alert store") when it cannot serve now.
func (c *Conn) CannotServe(what string) error {
	return fault.New(fault.Unavailable, "the %s (Redis at %s) cannot serve now%s", what, c.Addr, Refused)
}

// Fail maps an error of the client, met by the store named what ("key
// store", "alert store"), to a fault.Unavailable when Redis did not answer
// (or answered that it cannot serve now, or refuses the credentials: the
// log hears of those once), and to an internal error for any other error
// Redis replied. A cancelled context is returned as it is.
func (c *Conn) Fail(what string, err error) error {
	if word, ok := AuthRefusal(err); ok {
		// Credentials changed under a running server: the operator reads
		// the cause in the log (once), the client a refusal to retry.
		if c.authLogged.CompareAndSwap(false, true) && c.log != nil {
			c.log.Error("Redis refuses this server's credentials: calls are refused until they are fixed", "redis", c.Addr, "reply", word)
		}
		return c.CannotServe(what)
	}
	var rerr redis.Error
	if errors.As(err, &rerr) {
		msg := rerr.Error()
		for _, busy := range []string{"LOADING", "READONLY", "MASTERDOWN", "BUSY", "TRYAGAIN", "CLUSTERDOWN"} {
			if strings.HasPrefix(msg, busy) {
				return fault.New(fault.Unavailable, "the %s (Redis at %s) cannot serve now (%s)%s", what, c.Addr, busy, Refused)
			}
		}
		return fmt.Errorf("redis: %w", err)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return fault.New(fault.Unavailable, "the %s (Redis at %s) does not answer%s", what, c.Addr, Refused)
}
