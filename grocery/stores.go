package grocery

import (
	"context"
	"log/slog"

	"github.com/grocerydata/grocery/internal/access"
	"github.com/grocerydata/grocery/internal/alertstore"
	"github.com/grocerydata/grocery/internal/idemstore"
	"github.com/grocerydata/grocery/storage"
)

// AccessStore keeps API keys, accounts and quota counters. The data
// file's own is the default; a SharedStore opens one that several
// servers share.
type AccessStore = access.Store

// AccessConfig is what an AccessStore is opened with: the key prefix,
// the plans, the clock and the logger of the Service.
type AccessConfig = access.Config

// AlertStore keeps alert rules, alert events and webhook endpoints with
// their outboxes. The data file's own is the default.
type AlertStore = alertstore.Store

// IdempotencyStore keeps idempotency records, in the store of the alert
// rules. The data file's own is the default.
type IdempotencyStore = idemstore.Store

// SharedStore keeps, for every server given one of the same backend, what
// those servers share: API keys, accounts and quota counters, alert rules
// and events, webhook endpoints, idempotency records. The price data stays
// in the data file. Package github.com/grocerydata/grocery/redisstore
// implements it on Redis; without one (Options.Shared nil) the data file
// keeps them all.
//
// Open takes ownership: the Service closes the store when it closes, and
// a failed Open closes it too.
type SharedStore interface {
	// OpenAccess returns the store of keys, accounts and quota counters.
	OpenAccess(c AccessConfig) (AccessStore, error)
	// OpenAlerts returns the store of alert rules, events and webhooks.
	OpenAlerts(ctx context.Context) (AlertStore, error)
	// Idempotency returns the store of idempotency records.
	Idempotency() IdempotencyStore
	// CopyFile copies, the first time a data file holding alert rules
	// opens writable with the store, its rules and events into the store,
	// all or nothing, logging each rule whose id changes.
	CopyFile(db *storage.DB, log *slog.Logger) error
	// Close releases the store's connection; a second Close does
	// nothing.
	Close() error
}
