package grocery

import (
	"log/slog"
	"time"

	"github.com/grocerydata/grocery/grocery/internal/ingest"
)

// Options configures Open. A nil *Options means the defaults.
type Options struct {
	// ReadOnly opens the file for reading only; several read-only processes
	// may share a file, but not with a writer.
	ReadOnly bool
	// LockTimeout is how long Open waits for another process to release the
	// file before it fails with ECONFLICT. Default 2s.
	LockTimeout time.Duration
	// Now is the clock; default time.Now. Tests inject a fixed clock.
	Now func() time.Time
	// KeyPrefix starts every API key: <prefix>_pk_<secret>. Default "gro".
	KeyPrefix string
	// AnswerCacheBytes bounds the answers Cached keeps (the analytics'
	// answers of one data version), counted as the length of their JSON;
	// default DefaultAnswerCacheBytes (64 MiB).
	AnswerCacheBytes int64
	// WarmAnswers computes, in the background at Open and after every
	// write of the data, the answers of the default requests of the
	// executive brief (every province with reference stores, no banner)
	// and of the competitive benchmark (every banner of every province's
	// panel) into the answer cache, so that the first client to ask is
	// answered from it, or waits for the computation under way. A server
	// sets it.
	WarmAnswers bool
	// Preload reads every page of the data file in use before Open
	// returns (and of each snapshot a replica moves to before it serves
	// it), so that no request pays the first touch of those pages: a page
	// fault, or a disk read when the operating system's cache does not
	// hold the page. A first request still pays its first allocations;
	// a page an import writes later, and every page once a growing file
	// outgrows its mapping (a writable file is mapped a GB at a time)
	// and is mapped again, is touched when first read. It
	// costs one read of the file, in order, at Open: about 0.2 s a GB
	// when the cache holds it (BenchmarkOpenPreload), the disk's
	// sequential read when not. A server sets it; a command that answers
	// one question reads less without it.
	Preload bool
	// Plans are the plans keys can be created on; default DefaultPlans().
	Plans []Plan
	// FlushInterval is how often quota counts are written to the data
	// file: at most this much of counting is lost in a crash. Default 1s.
	FlushInterval time.Duration
	// Shared, when not nil, keeps API keys, accounts, quota counters,
	// alert rules and events, webhook endpoints and idempotency records
	// in that store instead of the data file, so that several servers
	// share them: one exact quota per account, a revocation effective on
	// every server's next request, one set of rules and events. The data
	// file keeps the price data; an import evaluates the rules after it
	// commits and records the events in the shared store. When the store
	// does not answer, calls that need it fail with EUNAVAILABLE. The
	// Redis one is redisstore.Dial (import
	// "github.com/grocerydata/grocery/redisstore"); the Service closes it.
	//
	// The first time a data file holding alert rules (created while it was
	// used without a shared store) is opened writable with one, its rules
	// and events are copied to it, all or nothing, and the store's ids
	// continue after them; the file keeps its copies, unused while it is
	// opened with the store. They keep their ids unless the store gave out
	// some of those ids already (to rules of other servers, live or
	// deleted): then they are numbered after the store's, and the Logger
	// names each rule's new id.
	Shared SharedStore

	// SnapshotDir, for a writable file (an ingest node), is where Import
	// publishes a snapshot of the data file after each file (see
	// Publish). For OpenReplica, the directory is its argument.
	SnapshotDir string
	// SnapshotKeep is how many snapshots Publish keeps. Default 3.
	SnapshotKeep int
	// SnapshotPoll is how often a replica reads the snapshot manifest.
	// Default 1s; negative: only when Refresh is called.
	SnapshotPoll time.Duration
	// SnapshotCache is the directory under which a replica keeps its
	// copies of the snapshots it serves. Default os.TempDir().
	SnapshotCache string
	// Logger receives a replica's snapshot events (taken, refused) and
	// the alert evaluations that could not record their events
	// (ImportReport.AlertsError, and those run when the file is opened).
	// Default: none.
	Logger *slog.Logger
	// Webhooks configures webhook endpoints and sends their deliveries
	// (see WebhookOptions).
	Webhooks WebhookOptions
}

// LookupInput holds the arguments of LookupProduct.
type LookupInput struct {
	UPC      string `json:"upc"`
	Province string `json:"province"`
	// Limit is the most offers returned, 1..500; 50 when not given. The
	// MCP tool lookup_product allows 1..50 and gives 10 when not given.
	Limit Opt[int] `json:"limit,omitzero"`
	// Offset is the number of offers, cheapest first, skipped before the
	// page: 0..1,000,000, 0 (the first page) when omitted.
	Offset int `json:"offset,omitempty"`
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// SearchInput holds the arguments of SearchProducts.
type SearchInput struct {
	Query    string `json:"query"`
	Province string `json:"province"`
	// Limit is the most products (not entries) returned, 1..500; 50
	// when not given. The MCP tool search_products allows 1..50 and
	// gives 10 when not given.
	Limit Opt[int] `json:"limit,omitzero"`
	// Offset is the number of matching products, best match first,
	// skipped before the page: 0..1,000,000, 0 when omitted.
	Offset int `json:"offset,omitempty"`
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// HistoryInput holds the arguments of PriceHistory.
type HistoryInput struct {
	SKU      string `json:"sku"`
	Banner   string `json:"banner"`
	Province string `json:"province"`
	Period   string `json:"period,omitempty"` // 7d..365d; "" means 30d
	// Lang is the language of the product names in the result: en (the
	// default) or fr, the French name, or the English one for a product
	// without a French name.
	Lang string `json:"lang,omitempty"`
}

// StoresInput holds the arguments of ListReferenceStores.
type StoresInput struct {
	Province string `json:"province,omitempty"` // optional filter
	Banner   string `json:"banner,omitempty"`   // optional filter
	// Limit is the most stores returned, 1..500; 50 when not given. The
	// MCP tool list_reference_stores allows 1..50 and gives 10 when not
	// given.
	Limit Opt[int] `json:"limit,omitzero"`
	// Offset is the number of matching stores, in the list's order,
	// skipped before the page: 0..1,000,000, 0 when omitted.
	Offset int `json:"offset,omitempty"`
	// Near is a postal code: the stores of its province, those of its
	// FSA first, then nearest first, as SearchStores orders them. Province,
	// when given too, must be the postal code's.
	Near string `json:"near,omitempty"`
}

// batch is a set of records written together in one transaction: either all
// of it is stored or none of it.
type batch struct {
	Stores       []Store
	Products     []CatalogueItem
	Links        []SKULink
	SKUFacts     []ingest.SKUFacts // unlinked SKUs' names, brands, sizes and categories
	Observations []Observation
	// UpdateNames lets a product's names replace the stored ones; without
	// it a stored name is kept and only a missing one is filled in.
	UpdateNames bool
}

// batchStats counts what a write changed.
type batchStats struct {
	ingest.Stats

	alertsErr error // how the alert evaluation after the commit failed, the write being committed
}

// keptName is a name kept over a different one given for a product: the
// product's index in batch.Products, the column (name or name_fr), the
// name given and the name kept.
type keptName = ingest.KeptName

// storeRef is what import needs to know of an existing store.
type storeRef struct {
	Banner   string
	Province string
	Ord      uint32
	Source   string
}
