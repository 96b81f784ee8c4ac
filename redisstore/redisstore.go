// Package redisstore keeps a grocery service's shared state in Redis: API
// keys, accounts and quota counters, alert rules and events, webhook
// endpoints and their outboxes, and idempotency records. Several servers
// given stores of one Redis (a writable data file's server and the
// replicas of its snapshots) share one exact quota per account, a
// revocation effective on every server's next request, and one set of
// rules, events and endpoints. The price data stays in the data file.
//
// A program plugs it in through grocery.Options.Shared:
//
//	st, err := redisstore.Dial("redis://localhost:6379/0", nil)
//	if err != nil { ... }
//	svc, err := grocery.Open("grocery.db", &grocery.Options{Shared: st})
//
// The service then owns the store: its Close closes the connection.
// Package grocery itself does not import Redis: a program that does not
// import this package does not link a Redis client.
package redisstore

import (
	"context"
	"log/slog"

	"github.com/grocerydata/grocery/internal/access"
	"github.com/grocerydata/grocery/internal/accessredis"
	"github.com/grocerydata/grocery/internal/alertredis"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/internal/redisconn"
	"github.com/grocerydata/grocery/storage"
)

// DefaultPrefix starts every key the stores keep in Redis.
const DefaultPrefix = redisconn.DefaultPrefix

// Options configures Dial. A nil *Options means the defaults.
type Options struct {
	// Prefix starts every key kept in Redis; default DefaultPrefix
	// ("grocery:"). Services that share data give the same prefix.
	Prefix string
	// Logger receives what the stores report of Redis (credentials
	// refused, rules renumbered by a copy); default: none.
	Logger *slog.Logger
}

// Store is a connection to one Redis and the stores kept in it. It
// implements grocery.SharedStore.
type Store struct {
	conn *redisconn.Conn
}

// Dial returns a Store on the Redis at url
// (redis://[user:password@]host:port/db). It does not contact Redis:
// grocery.Open does, when it opens the stores. It returns an error
// (grocery's code invalid_argument) for a malformed URL; the error shows
// the URL without its password.
func Dial(url string, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	c, err := redisconn.Dial(url, opts.Prefix, opts.Logger)
	if err != nil {
		return nil, err
	}
	return &Store{conn: c}, nil
}

// OpenAccess reads (or, on a Redis without one, sets) the secret API keys
// are hashed with and returns the store of keys, accounts and quota
// counters. Its Close closes the connection.
func (s *Store) OpenAccess(c access.Config) (access.Store, error) {
	return accessredis.OpenRedis(s.conn, c)
}

// OpenAlerts checks (or sets) the version of the alert layout in Redis
// and returns the store of alert rules, events and webhook endpoints.
func (s *Store) OpenAlerts(ctx context.Context) (alertstore.Store, error) {
	return alertredis.OpenRedis(ctx, s.conn)
}

// Idempotency returns the store of idempotency records, kept beside the
// alert rules so that a creation and its record commit together.
func (s *Store) Idempotency() idemstore.Store { return alertredis.Idempotency{C: s.conn} }

// CopyFile copies, the first time a data file holding alert rules opens
// writable with this Redis, its rules and events to Redis, all or
// nothing; the file records the copy and keeps its own, unused.
func (s *Store) CopyFile(db *storage.DB, log *slog.Logger) error {
	return alertredis.CopyFile(db, alertredis.New(s.conn), log)
}

// Close closes the connection (a second Close does nothing).
func (s *Store) Close() error { return s.conn.Close() }
