package server

import (
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/redisstore"
)

// Options are the options of grocery.Open with the Redis that keeps what
// several servers share: the binaries read RedisURL from --redis or
// GROCERY_REDIS_URL, and Open and OpenReplica dial it and hand the store
// to grocery (Options.Shared).
type Options struct {
	grocery.Options
	// RedisURL, when set (redis://[user:password@]host:port/db), keeps
	// API keys, accounts, quota counters, alert rules and events,
	// webhooks and idempotency records in that Redis (redisstore).
	RedisURL string
}

// Open opens the data file at path with o (grocery.Open), its shared
// store on the Redis at o.RedisURL when set. It returns EINVALIDARGUMENT
// for a malformed Redis URL, and the errors of grocery.Open.
func Open(path string, o Options) (*grocery.Service, error) {
	opts, err := o.withShared()
	if err != nil {
		return nil, err
	}
	return grocery.Open(path, &opts)
}

// OpenReplica opens the snapshots of dir as a replica
// (grocery.OpenReplica), its shared store on the Redis at o.RedisURL. It
// returns EINVALIDARGUMENT for a malformed Redis URL, and the errors of
// grocery.OpenReplica.
func OpenReplica(dir string, o Options) (*grocery.Service, error) {
	opts, err := o.withShared()
	if err != nil {
		return nil, err
	}
	return grocery.OpenReplica(dir, &opts)
}

// withShared returns grocery's options with the Redis of RedisURL, dialed,
// as their shared store.
func (o Options) withShared() (grocery.Options, error) {
	opts := o.Options
	if o.RedisURL == "" {
		return opts, nil
	}
	st, err := redisstore.Dial(o.RedisURL, &redisstore.Options{Logger: opts.Logger})
	if err != nil {
		return opts, grocery.Errorf(grocery.EINVALIDARGUMENT, "%s", err)
	}
	opts.Shared = st
	return opts, nil
}
