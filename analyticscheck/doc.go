// Package analyticscheck holds an independent check of the market analytics
// of package grocery: its tests build the demo data set pinned to a date,
// export it as CSV through the product's own export, load the CSV into a
// PostgreSQL server they start themselves, recompute every analytic in SQL
// written from the published definitions (testdata/*.sql, each quoting the
// definition it implements), and compare every figure with what the Go
// library answers for a fixed list of requests.
//
// The SQL never reads the Go code's arithmetic: it is the check an analyst's
// team would run on an export, and it can fail. The tests skip, saying why,
// when PostgreSQL's initdb is not installed (.ci/run installs it from
// Debian's packages).
//
// The package has no non-test code.
package analyticscheck
