// Package grocery is the Canadian grocery price data service: product
// lookups by barcode, province-scoped search, price histories and the
// reference-store panel, over one embedded data file.
//
// # Opening a data file
//
// A Service holds one bbolt file. Open creates it if needed; Options.ReadOnly
// lets several readers share a file. Only one process may hold a file for
// writing: a second writer fails with ECONFLICT after Options.LockTimeout
// rather than hanging.
//
//	svc, err := grocery.Open("grocery.db", nil)
//	if err != nil { ... }
//	defer svc.Close()
//
// BuildDemo writes a realistic, deterministic demo data set; Import loads
// CSV or JSON Lines files of stores and observations.
//
// # The four queries
//
// LookupProduct resolves a barcode to its product and the current offers
// for it in one province, one per banner SKU, cheapest first.
// SearchProducts finds products by words of their name or brand in one
// province. PriceHistory returns the daily price spread of one banner SKU
// (its external_sku, never a barcode) in one province. ListReferenceStores
// lists the active stores prices are collected from. Their results encode
// to the JSON of the MCP tools of the same names.
//
// Prices are store-scoped: there is no national price. An offer summarises
// the latest observation of each of a province's reference stores of one
// banner, within a 14-day freshness window. An empty result does not prove
// that a product is unavailable: coverage is the reference-store panel.
//
// # Identifiers
//
// Provinces are two-letter codes (English and French names are accepted),
// barcodes are GTINs with a verified GS1 check digit (stored as GTIN-14),
// banners are slugs such as "no-frills" (display names are accepted), and
// money is integer Cents that encodes as dollars (4.99). See ParseProvince,
// ParseGTIN, ParseBanner and ParsePeriod.
//
// # Keys, plans and quota
//
// Both interfaces share one API key and one quota per account. CreateKey
// makes a key (<prefix>_pk_ and 40 base62 characters, the first 8 a public
// id) that is shown once: only an HMAC-SHA256 of it, keyed with a secret
// kept in the data file, is stored. Authenticate checks a key's form
// before any lookup and compares hashes in constant time; it returns a
// Principal that Consume charges one call to. A plan (DefaultPlans, or
// Options.Plans) sets the calls per calendar month (UTC) and whether REST
// is open; an account may override its plan's size.
//
// Consume counts every call, rejected ones included, exactly under
// concurrency. Counts live in memory and are written once a second
// (Options.FlushInterval) in one transaction, and at Close: a clean
// restart keeps every count; a crash loses at most the last interval's
// counts and never counts a call twice, because counts, not increments,
// are written. RevokeKey takes effect on the next Authenticate.
//
// A server holds the data file for writing, so the CLI reaches these
// methods through the server's admin socket (mode 0600) beside the file;
// that transport lives with the binaries, as the MCP one does, and this
// package imports no net/http.
//
// # Alerts
//
// An account's alert rules (CreateAlert, ListAlerts, Alert, DeleteAlert,
// AlertEvents) act for the account in the context: NewContextWithPrincipal
// after Authenticate, or NewContextWithAccount for trusted local callers.
// Every import evaluates the rules watching the series it writes inside its
// own transaction (see AlertPriceBelow and the other conditions) and records
// at most one event per rule and observation day; EvaluateAlerts does the
// same over every watched series. An account holds at most MaxAlertRules.
//
// # Errors
//
// Every error a caller should see is an *Error with a Code: EINVALID for a
// bad argument (the message names the argument and what was expected),
// ENOTFOUND, ECONFLICT, and the access-control codes EUNAUTHENTICATED,
// EFORBIDDEN and EQUOTA. Any other error is internal: ErrorMessage hides
// its text from clients.
package grocery
