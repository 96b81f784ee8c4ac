// Package grocery is the Canadian grocery price data service: product
// lookups by barcode, province-scoped search, price histories, the
// reference-store panel, store prices, market analytics, imports and
// exports, API keys with metered quotas and price alerts, over one
// embedded data file. The servers and the CLI only translate to and from
// its methods; every query, write and rule is here.
//
// # Architecture
//
// Calls go one way: a package imports only packages below it here, never
// one above (the binaries also call grocery directly, for the CLI):
//
//	cmd/grocery, cmd/grocery-mcp, cmd/grocery-rest   binaries: flags, wiring, the admin socket
//	   -> mcpserver, restserver                        transports: translate, never decide
//	   -> grocery                                      the domain: public types, rules, queries
//	   -> grocery/internal/*                           infrastructure grocery is built from
//	   -> storage                                      the bbolt layout and byte encodings
//	   -> go.etcd.io/bbolt
//
// Who owns what:
//
//   - cmd/grocery (the CLI, with serve and mcp-bridge), cmd/grocery-mcp and
//     cmd/grocery-rest parse flags and environment, open a Service and serve
//     it; cmd/internal/server is what the servers share (listener, access
//     log, graceful stop), cmd/internal/admin the admin socket through which
//     the CLI reaches a running server.
//   - mcpserver and restserver are http.Handlers. Each turns a request into
//     one call of a Service method and its result into an answer, and picks
//     every status from one table of this package's error codes; neither
//     holds a rule of the product. restserver also owns the OpenAPI document.
//   - grocery (this package) owns every public type, the rules of the
//     product (what a field must be, what a figure means, who may see
//     what), the queries, the analytics, the import's decisions (which
//     rows are stored, the rules a write applies, the alert rules it
//     evaluates), the export's choices, access control and replicas. It
//     converts between its public types and the internal packages' plain
//     records at its edge. The import and export file formats (their
//     columns, importrow and exportrows) and the plain text checks of a
//     field (importrow) live with the code that reads and writes them.
//   - grocery/internal/* hold the infrastructure, each importing nothing
//     from grocery and speaking storage's vocabulary:
//   - access: the keyring, the quota meter and its usage journal, the
//     bbolt and Redis key stores and their scripts;
//   - redisconn: dialling Redis without retries, the mapping of its
//     failures to EUNAVAILABLE, URL redaction, the key prefix;
//   - alertstore: the alert store interface, its bbolt and Redis stores,
//     the copy of a file's rules to the shared store; idemstore: the idempotency
//     records, in the data file or in the shared store, and a request's hash;
//   - webhook: a delivery's signature, the address policy that keeps
//     deliveries off private networks, the retry schedule, the worker that
//     sends the due deliveries and records each attempt;
//   - ingest: the write transaction, merging observations into their days
//     and keeping what derives from them (offers, search tokens,
//     store-latest prices and volumes, the category days, shelf records and
//     promotion events);
//   - importrow: an import file's kind by its header, its rows by column,
//     the plain text checks of fields, the words of a bad row; extsort: the
//     importer's sorted runs on disk, their merge and grouping;
//   - the module's internal/rowfile and internal/rowwrite: reading and
//     writing CSV, JSON Lines and JSON tables, and the rows the XLSX and
//     Parquet formats (packages format/xlsx and format/parquet, which
//     register themselves: see Format) hand out and take; exportrows: the
//     rows of the export data sets, read from the data file in batches
//     and written to a rowwrite table;
//   - pricestat: the shared arithmetic (medians, rounding, geometric means,
//     price levels kept as runs, matched models, the brief's weekly SKU
//     prices, ranks, exact percent tests); market: the banners' prices of
//     a barcode folded from a province's offers, a banner's market (the
//     other banners' medians) and its standing against it, the signals'
//     offers by barcode and banner and shelf records; ranking: the
//     competitive benchmark's ranking of a week's banners against the
//     market, overall and per category, from the plain prices grocery
//     reads (an analytic's shape: plain data read in one transaction into
//     a computation with table tests, then the answer assembled from its
//     result); regional: the geographic prices' and regional
//     comparison's levels, national prices and province indexes, in the
//     same shape; unitprice: a
//     size read as a quantity of its price basis (per 100 g, per 100 mL,
//     per unit);
//   - search: the products of the token index matching a query, the
//     stores nearest a postal area; textfold: the folding and tokens of
//     search words; gs1: barcode check digits; opaqueid: ids that carry no
//     count;
//   - demo: the demo generator and its tables, emitting plain records that
//     BuildDemo writes;
//   - snapshot: publishing and fetching snapshots for replicas; replica: a
//     replica's poller of the snapshot directory, its backoff and state
//     (grocery swaps each copy in);
//   - brieftext: the brief's summary worded from its figures; svgchart: the
//     brief's charts laid out as SVG shapes;
//   - jsontext: JSON strings as encoding/json writes them; atomicfile:
//     replacing a file so that a crash leaves the old or the new; fault:
//     the internal packages' error kinds, which grocery converts to its
//     codes.
//   - storage owns the bucket layout, the keys and the value encodings of
//     the data file and its format version; what a record means is
//     grocery's.
//
// Where a change goes:
//
//   - A new analytic: a Service method with its input and result types in a
//     file of this package named after what it answers, computed from the
//     aggregates storage keeps and the arithmetic of pricestat. If it needs
//     an aggregate that does not exist, the bucket and its encoding go in
//     storage (with a new format version and an upgrade), and keeping it up
//     to date goes in the write (grocery/internal/ingest). Then a path in
//     restserver (and in openapi.json), a report in cmd/grocery, and its
//     recomputation in SQL in analyticscheck.
//   - A new shared store: an implementation of SharedStore (its
//     AccessStore, AlertStore and IdempotencyStore) in a package outside
//     grocery, as redisstore is for Redis (over internal/accessredis,
//     internal/alertredis and internal/redisconn), handed to Open in
//     Options.Shared by the program (cmd/internal/server for the
//     binaries). The data file's stores (internal/access,
//     internal/alertstore, internal/idemstore) are the default.
//   - A new transport: a package beside mcpserver and restserver that
//     translates to Service methods and maps error codes from one table of
//     its own, mounted by cmd/internal/server or served by a binary of its
//     own under cmd.
//
// # Opening a data file
//
// A Service holds one bbolt file. Open creates it if needed; Options.ReadOnly
// lets several readers share a file. Only one process may hold a file for
// writing: a second writer fails with ECONFLICT after Options.LockTimeout
// rather than hanging. OpenReplica serves the newest snapshot an ingest node
// published to a directory instead (see Replicas). Close writes the last
// quota counts. Path names the file, Health reports the Service's work in
// the background, and Verify checks the file's own invariants.
// DataVersion names the state of the data the queries read, moving with
// every write of it: the REST interface makes its ETags from it.
//
//	svc, err := grocery.Open("grocery.db", nil)
//	if err != nil { ... }
//	defer svc.Close()
//
// # The queries
//
// LookupProduct resolves a barcode to its product and the current offers
// for it in one province, one per banner SKU, cheapest first.
// SearchProducts finds products by words of their name or brand in one
// province. PriceHistory returns the daily price spread of one banner SKU
// (its external_sku, never a barcode) in one province. ListReferenceStores
// lists the active stores prices are collected from. Their results encode
// to the JSON of the MCP tools of the same names (AppendJSON, MarshalJSON).
//
// Prices are store-scoped: there is no national price. An offer summarises
// the latest observation of each of a province's reference stores of one
// banner, within a 14-day freshness window. An empty result does not prove
// that a product is unavailable: coverage is the reference-store panel.
//
// # Store prices and search
//
// StorePrices lists one store's latest prices, optionally matching a name
// or brand, a page at a time; StorePrice is one product's latest price at a
// store, by the banner's SKU or by barcode. SearchStores finds products by
// name or brand and lists their current prices store by store, in a
// province or near a postal code (ParsePostalCode), nearest first.
//
// # Analytics
//
// The market analytics of the integration plan, each with a Basis saying
// what it rests on: GeographicPrices and RegionalComparison (provinces
// against the national prices, banner for banner, flagged low_sample
// under MinSampleProducts, MinSampleStores, MinSampleBanners),
// CompetitiveBenchmark (a banner against the
// others, BenchmarkMinItems), BrandInsights, CompareBasket (MaxBasketItems),
// Signals (threats, opportunities, changes and the watchlist of one
// banner), CategoryReport, PromoCalendar, NewOnShelf, and ExecutiveBrief
// (the latest week on one page; Brief.WriteHTML prints it). Medians,
// indexes and rounding follow one set of rules, stated in the package's
// README.md.
//
// # Import and export
//
// Import loads one file of stores or observations (CSV, JSON Lines, JSON,
// XLSX or Parquet, recognised by content) in one transaction (a file of
// more than about a million observations in batches of whole days, each
// its own): a bad row stops it, before anything is written, with
// the file, line, field and reason, unless ImportOptions skip invalid rows;
// it keeps the analytics aggregates in the same transaction, and evaluates
// the alert rules once it committed. BuildDemo writes a realistic, deterministic demo data
// set. Export writes a data set (observations, offers or stores) as JSON,
// JSON Lines, CSV, XLSX (MaxXLSXRows) or Parquet; PrepareExport validates and names
// one before its first byte, and PreparedExport.Stream writes it.
//
// CSV, JSON and JSON Lines are built in. XLSX and Parquet are formats that
// register themselves (RegisterFormat, Format): a program gets them by
// importing github.com/grocerydata/grocery/format/xlsx and
// github.com/grocerydata/grocery/format/parquet, usually for their side
// effect alone, and links their libraries only then. Without them an
// import of such a file or an export in such a format is an
// EINVALIDARGUMENT error naming the package to import; Formats lists the
// formats a program writes.
//
// ImportSource imports public Canadian price data as published (Project
// Hammer, Open Prices, Statistics Canada 18-10-0245-01): ConvertSource
// reads it with package publicdata into stores and observations files,
// and ImportConverted feeds them to Import (a Service's, or a server's
// through its admin socket) in parts of SourcePartRows rows, with a
// SourceSummary of what was not mapped and why. StatCan's monthly
// averages are stored as benchmarks, shown beside the panel's prices in
// GeographicPrices. Every store keeps the source of its prices
// (Store.Source: SourceDemo, SourceImport, "hammer", "openprices"), which
// the exports write on every store and observation row;
// SourceAttribution gives the credit a source asks for.
//
// # Identifiers and values
//
// Provinces are two-letter codes (English and French names are accepted),
// barcodes are GTINs with a verified GS1 check digit (stored as GTIN-14),
// banners are slugs such as "no-frills" (display names are accepted), and
// money is integer Cents that encodes as dollars (4.99). See ParseProvince,
// Provinces, ParseGTIN, ParseBanner, Banners, ParsePeriod, ParseDate and
// ParseCents. An argument a caller may leave out is an Opt, not given
// unless Set: a list's Limit is DefaultLimit (50) when not given, and a
// limit given is 1..MaxLimit (500), 0 included in what is refused.
//
// # Keys, plans and quota
//
// Both interfaces share one API key and one quota per account. CreateKey
// makes a key (<prefix>_pk_ and 40 base62 characters, the first 8 a public
// id) that is shown once: only an HMAC-SHA256 of it, keyed with a secret
// kept in the data file (or in the shared store, Options.Shared), is stored.
// ListKeys lists keys by their public id and RevokeKey revokes one.
// Authenticate checks a key's form before any lookup and compares hashes
// in constant time; it returns a Principal that Consume charges one call
// to (AuthenticateMetered does both at once). A plan (DefaultPlans,
// ParsePlanQuotas, or Options.Plans; Plans lists them) sets the calls per
// calendar month (UTC) and whether REST is open; an account may override
// its plan's size. UsageOf reports an account's use; AccountUsage adds
// its calls on each of the last 30 days (UTC), counted the same way.
//
// Consume counts every call, rejected ones included, exactly under
// concurrency. Counts live in memory and are written once a second
// (Options.FlushInterval) in one transaction, and at Close: a clean
// restart keeps every count; a crash loses at most the last interval's
// counts and never counts a call twice, because counts, not increments,
// are written. RevokeKey takes effect on the next Authenticate. With
// Options.Shared (redisstore.Dial for Redis), keys, accounts and counters
// live in one store shared by every server instead, and a call that needs
// it while it does not answer fails with EUNAVAILABLE.
//
// A server holds the data file for writing, so the CLI reaches these
// methods through the server's admin socket (mode 0600) beside the file;
// that transport lives with the binaries, as the MCP one does, and this
// package imports no net/http.
//
// # Alerts
//
// An account's alert rules (CreateAlert, ListAlerts, Alert, UpdateAlert,
// DeleteAlert, AlertEvents, EvaluateAlert) act for the account in the
// context: NewContextWithPrincipal after Authenticate, or
// NewContextWithAccount for trusted local callers. CreateAlert evaluates
// a new rule on the latest day and records an event at once when its
// condition already holds (AlertStanding says what holds); EvaluateAlert
// does so on demand. Every import evaluates the active rules watching the
// series it writes, and those whose price in force changed with no
// observation, once its transaction committed, on the series' timeline of
// prices in force (see AlertPriceBelow and the other conditions): in the
// same way whether the rules are in the data file or a shared store. The
// transaction marks the evaluation owed, and the mark stays until the
// events are recorded, so a process that dies in between, or a shared
// store that does not answer, loses none (see EvaluateAlerts); a rule
// fires once per crossing of its threshold. EvaluateAlerts does the same
// over every watched series. Whatever records them, events are recorded
// by one code path, at most one per rule and day, each with its reason
// (AlertReasonImport, AlertReasonEvaluate, AlertReasonAtCreation). UpdateAlert changes or pauses a rule, keeping
// its id and events. An account holds at most MaxAlertRules.
//
// Idempotent runs a request made with an idempotency key once per
// account and key within IdempotencyWindow, giving the first answer to a
// repeat and ECONFLICT to another request with the key; the REST
// interface's Idempotency-Key header is built on it. Its records live
// where the alert rules do.
//
// # Webhooks
//
// An account's webhook endpoints (CreateWebhook, ListWebhooks, Webhook,
// UpdateWebhook, DeleteWebhook) receive its alert events pushed: every
// event recorded is queued, in the transaction that records it, as one
// delivery per enabled endpoint of its account, in an outbox in the data
// file. A worker, started when WebhookOptions.Sender is set (on the node
// that holds the file for writing), POSTs each as a WebhookEvent signed
// with the endpoint's secret (WebhookSignatureHeader,
// VerifyWebhookSignature), in order per endpoint, retrying with backoff
// for WebhookRetryFor; an endpoint whose every attempt fails for
// WebhookDisableAfter is disabled. Deliveries are at least once: a
// receiver deduplicates on the event id. TestWebhook queues a ping,
// WebhookDeliveries lists what was sent and RedeliverWebhook sends one
// again. The HTTP client is a transport, outside this package
// (WebhookSender); WebhookPolicy says which addresses it may dial. With
// alert rules and events in the shared store (Options.Shared), endpoints and
// deliveries are there too: any server (a replica too) manages them, the
// one that evaluates the rules sends them, and an event recorded there
// waits on a list until that server queues it to its endpoints (so that
// neither a crash loses it nor two servers send it).
//
// # Replicas
//
// An ingest node opened with Options.SnapshotDir publishes a snapshot of
// its data file after each import (Publish does it on demand). OpenReplica
// serves the newest snapshot of such a directory read-only, polling its
// manifest (Options.SnapshotPoll; Refresh checks at once) and swapping in
// each new snapshot once its size, checksum and pages pass a check;
// Replica reports what it serves and ReplicaStatus.Behind how far it lags.
// Replicas take keys, quota and alert rules from Redis.
//
// # Errors
//
// Every error a caller should see is an *Error (Errorf makes one) with a
// Code: EINVALIDARGUMENT ("invalid_argument") for a bad argument, the message naming
// the argument and what was expected; ENOTFOUND ("not_found"); ECONFLICT
// ("conflict") when the current state forbids the call; the access-control
// codes EUNAUTHENTICATED ("unauthenticated"), EPLANREQUIRED ("plan_required")
// and EQUOTA ("quota_exceeded"); and EUNAVAILABLE ("unavailable") when a
// store the service needs (the shared store) does not answer. Any other error is
// internal (EINTERNAL): ErrorCode reads the code, and ErrorMessage (or
// ErrorMessageIn) hides an internal error's text from clients.
package grocery
