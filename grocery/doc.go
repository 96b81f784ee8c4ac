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
// # Errors
//
// Every error a caller should see is an *Error with a Code: EINVALID for a
// bad argument (the message names the argument and what was expected),
// ENOTFOUND, ECONFLICT, and the access-control codes EUNAUTHENTICATED,
// EFORBIDDEN and EQUOTA. Any other error is internal: ErrorMessage hides
// its text from clients.
package grocery
